package session

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"reconcile/engine/scenario"
	"reconcile/engine/sim"
)

const watchLesson = `id: w
title: w
seed: 1
cluster:
  images:
  - {ref: "shop/web:1.0"}
manifests: |
  apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web}
  spec:
    replicas: 3
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec:
        containers:
        - name: web
          image: shop/web:1.0
          readinessProbe: {httpGet: {path: /healthz, port: 8080}}
`

// TestConsoleGetWatch: get pods -w typed in the console watches. Across
// ten passes of a scale-up it prints, line by line, what the same command
// prints as a lesson's step given at the same moment (kubectl's watch:
// the initial list, then a row for each pod each pass wrote, in the
// order written, the header once); Ctrl+C ends it with "^C" and exit code
// 130, and later passes print nothing more.
func TestConsoleGetWatch(t *testing.T) {
	sc, err := scenario.Load("w.yaml", []byte(watchLesson))
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	for ok, _ := s.run.Converged(); !ok; ok, _ = s.run.Converged() {
		if _, ok := s.Next(); !ok {
			t.Fatal("the run ended before converging")
		}
	}
	const watch, scale = "get pods -w", "scale deployment/web --replicas=6"
	if !Watches(s.run, watch) || Watches(s.run, "get pods") {
		t.Fatal("Watches: get pods -w watches, get pods does not")
	}
	start := s.N()
	if _, err := s.Inject(sim.Kubectl{Line: watch}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Inject(sim.Kubectl{Line: scale}); err != nil {
		t.Fatal(err)
	}
	var want []string // the pods each pass wrote, in order
	for range 10 {
		p, ok := s.Next()
		if !ok {
			t.Fatal("the run ended")
		}
		for _, c := range p.Changed {
			if c.Kind == "Pod" { // a pass's changes name each object once
				want = append(want, c.Name)
			}
		}
	}
	out := watching(t, s.run, "kubectl "+watch)
	t.Logf("$ kubectl %s\n%s", watch, out)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if !strings.HasPrefix(lines[0], "NAME ") || strings.Count(out, "NAME ") != 1 {
		t.Errorf("get pods -w prints its header once, first:\n%s", out)
	}
	rows := lines[1+3:] // after the header and the three pods it started from
	var got []string
	for _, l := range rows {
		got = append(got, strings.Fields(l)[0])
	}
	if len(want) < 6 || !slices.Equal(got, want) {
		t.Errorf("watch rows name %q, want the pods the 10 passes wrote, %q:\n%s", got, want, out)
	}

	// The same two commands as a lesson's steps after the same pass: the
	// same lines.
	cfg := sc.Config()
	cfg.Steps = []sim.Step{{AfterPass: start, Input: sim.Kubectl{Line: watch}}, {AfterPass: start, Input: sim.Kubectl{Line: scale}}}
	ref, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for ref.PassCount() < s.N() {
		ref.Next()
	}
	if want := watching(t, ref, "kubectl "+watch); out != want {
		t.Errorf("the console's watch:\n%s\nthe lesson step's:\n%s", out, want)
	}

	// Ctrl+C.
	if !s.Interrupt(watch) {
		t.Fatal("Interrupt found nothing watching")
	}
	if s.Interrupt(watch) {
		t.Error("a second Interrupt found the ended watch")
	}
	for range 10 {
		s.Next()
	}
	var ended *sim.Output
	for _, o := range s.run.Outputs() {
		if o.Command == "kubectl "+watch {
			ended = &o
		}
	}
	if ended == nil || ended.ExitCode != 130 || ended.Output != out+"^C\n" {
		t.Errorf("after Ctrl+C: %+v, want the output so far, ^C, exit 130", ended)
	}
}

// watching returns the output so far of a command still watching.
func watching(t *testing.T, run *sim.Sim, cmd string) string {
	t.Helper()
	for _, o := range run.Outputs() {
		if o.Command == cmd && o.ExitCode == -1 {
			return o.Output
		}
	}
	t.Fatalf("%s is not watching", cmd)
	return ""
}

// TestConsoleWatchOutlivesCommands: a watch typed in the console goes on
// while later commands run, as in a second terminal: the console's own
// label (given as the console gives it, tried then committed) prints a
// MODIFIED row per pod at once, reads leave it watching, and passes go on
// printing. At most MaxWatches watch at once: a further one ends the
// oldest, as Ctrl+C does, and leaves the others.
func TestConsoleWatchOutlivesCommands(t *testing.T) {
	sc, err := scenario.Load("w.yaml", []byte(watchLesson))
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	for ok, _ := s.run.Converged(); !ok; ok, _ = s.run.Converged() {
		if _, ok := s.Next(); !ok {
			t.Fatal("the run ended before converging")
		}
	}
	console := func(line string) {
		t.Helper()
		a, err := s.Try(sim.Kubectl{Line: line})
		if err != nil {
			t.Fatal(err)
		}
		a.Commit()
	}
	const watch = "get pods -w --output-watch-events"
	console(watch)
	before := watching(t, s.run, "kubectl "+watch)
	console("label pods --all tier=web")
	if out, _ := s.Read("get pods"); !strings.Contains(out, "web-") {
		t.Fatalf("get pods = %q", out)
	}
	after := watching(t, s.run, "kubectl "+watch)
	rows := strings.TrimPrefix(after, before)
	if !strings.HasPrefix(after, before) || strings.Count(rows, "MODIFIED ") != 3 || strings.Count(rows, "\n") != 3 {
		t.Errorf("after label pods --all the watch printed %q, want a MODIFIED row for each of the 3 pods", rows)
	}
	console("scale deployment/web --replicas=4")
	for range 5 {
		s.Next()
	}
	if grown := watching(t, s.run, "kubectl "+watch); !strings.Contains(strings.TrimPrefix(grown, after), "ADDED ") {
		t.Errorf("after a scale and 5 passes the watch printed %q, want the new pod ADDED", strings.TrimPrefix(grown, after))
	}

	// MaxWatches: the oldest ends to make room.
	lines := []string{watch}
	for i := 1; i < MaxWatches; i++ {
		l := fmt.Sprintf("get pods -w -l app=web,n!=%d", i)
		if got := s.MakeRoomForWatch(lines); got != "" {
			t.Fatalf("with %d watching, MakeRoomForWatch ended %q", i, got)
		}
		console(l)
		lines = append(lines, l)
	}
	if got := s.MakeRoomForWatch(lines); got != watch {
		t.Fatalf("with %d watching, MakeRoomForWatch ended %q, want the oldest, %q", MaxWatches, got, watch)
	}
	if s.Watching(watch) {
		t.Error("the oldest watch still watches")
	}
	for _, l := range lines[1:] {
		if !s.Watching(l) {
			t.Errorf("%q was ended too", l)
		}
	}
}
