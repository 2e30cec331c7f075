package session

import (
	"slices"
	"strings"
	"testing"

	"reconcile/engine/kubectl"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
)

// completionRun is the blank playground's cluster, run until its pods are
// there.
func completionRun(t *testing.T) *sim.Sim {
	t.Helper()
	sc, err := scenario.Load("c.yaml", []byte(`id: c
title: c
seed: 1
manifests: |
  apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web}
  spec:
    replicas: 3
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec: {containers: [{name: web, image: shop/web:1.0}]}
`))
	if err != nil {
		t.Fatal(err)
	}
	run, err := sim.New(sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	if err := run.Seek(20); err != nil {
		t.Fatal(err)
	}
	return run
}

func TestComplete(t *testing.T) {
	run := completionRun(t)
	st := run.Store()
	var pods []string
	for _, o := range st.List("Pod") {
		pods = append(pods, o.Meta().Name)
	}
	if len(pods) != 3 {
		t.Fatalf("%d pods", len(pods))
	}
	rs := st.List("ReplicaSet")[0].Meta().Name
	for _, c := range []struct {
		line, want string
		options    []string
	}{
		{"g", "get ", nil},
		{"kubectl des", "kubectl describe ", nil},
		{"get po", "get pod", []string{"poddisruptionbudgets", "pods"}},
		{"get pods", "get pods ", nil},
		{"get deploy", "get deployments ", nil},
		{"get rs", "get rs ", nil},
		{"get replicasets w", "get replicasets " + rs + " ", nil},
		{"get pods web-", "get pods " + rs + "-", pods},
		{"describe deployment w", "describe deployment web ", nil},
		{"scale deployment/w", "scale deployment/web ", nil},
		{"scale d", "scale deployments ", nil},
		{"rollout u", "rollout undo ", nil},
		{"rollout ", "rollout ", []string{"history", "pause", "restart", "resume", "status", "undo"}},
		{"rollout status deployment/", "rollout status deployment/web ", nil},
		{"set i", "set image ", nil},
		{"cordon worker-", "cordon worker-", []string{"worker-1", "worker-2", "worker-3"}},
		{"get se", "get se", []string{"secrets", "serviceaccounts", "services"}},
		{"get nothing", "get nothing", nil},
		{"scale deployment/web --rep", "scale deployment/web --rep", nil},
		{"label deployment web tier=", "label deployment web tier=", nil},
		{"get pods -l app=web web-", "get pods -l app=web " + rs + "-", pods},
		{"wait --for=condition=Available deployment/w", "wait --for=condition=Available deployment/web ", nil},
		{"ev", "events ", nil},
		{"e", "e", []string{"events", "expose"}},
	} {
		got := Complete(st, c.line)
		if got.Line != c.want || !slices.Equal(got.Options, c.options) {
			t.Errorf("Complete(%q) = %q %q, want %q %q", c.line, got.Line, got.Options, c.want, c.options)
		}
	}
	// The verbs, when nothing is typed.
	if got := Complete(st, ""); len(got.Options) < 10 || !slices.Contains(got.Options, "rollout") || got.Line != "" {
		t.Errorf("Complete(\"\") = %q %q", got.Line, got.Options)
	}
	// Completion reads the store; it never writes.
	before := st.ResourceVersion()
	Complete(st, "delete pod "+strings.Repeat("x", 10))
	if st.ResourceVersion() != before {
		t.Error("completion changed the store")
	}
}

// TestConsoleTakesKubectlVerbs: the console offers every verb kubectl.Verbs
// lists (the list a lesson's steps and reconcile check read), records the
// ones that change the world as inputs, and runs each.
func TestConsoleTakesKubectlVerbs(t *testing.T) {
	run := completionRun(t)
	offered := Complete(run.Store(), "").Options
	for _, v := range kubectl.Verbs {
		if !slices.Contains(offered, v) {
			t.Errorf("Tab does not offer %q", v)
		}
		if _, write := VerbOf(v + " x"); write != kubectl.Writes(v) {
			t.Errorf("VerbOf(%q) write = %v, kubectl.Writes = %v", v, write, kubectl.Writes(v))
		}
	}
	for _, line := range []string{"taint nodes worker-1 key1=value1:NoSchedule", "set resources deployment/web --limits=cpu=200m",
		"expose deployment web --port=80", "autoscale deployment/web --max=5"} {
		verb, write := VerbOf(line)
		if !write {
			t.Errorf("%q (%s) is not recorded as a write", line, verb)
		}
		if out, code := kubectl.Run(run.Store(), run.Now(), line); code != 0 {
			t.Errorf("%q: exit %d: %s", line, code, out)
		}
	}
}

// TestConsoleTopReadsMetrics: the console's top reads the run's metrics
// API (not a cluster without metrics-server), and it is a read.
func TestConsoleTopReadsMetrics(t *testing.T) {
	run := completionRun(t)
	if _, write := VerbOf("top pods"); write {
		t.Error("top pods is recorded as a write")
	}
	out, code := RunRead(run, "top pods")
	if code != 0 || !strings.HasPrefix(out, "NAME") || !strings.Contains(out, "0m") {
		t.Errorf("top pods = %q (exit %d)", out, code)
	}
	if out, code := RunRead(run, "top nodes"); code != 0 || !strings.Contains(out, "worker-1") {
		t.Errorf("top nodes = %q (exit %d)", out, code)
	}
}

// TestCompleteTop: Tab completes top's subcommands, then a pod's or a
// node's name.
func TestCompleteTop(t *testing.T) {
	run := completionRun(t)
	for _, c := range [][2]string{{"top p", "top pod "}, {"top no", "top node "}, {"top node worker-3", "top node worker-3 "}} {
		if got := Complete(run.Store(), c[0]).Line; got != c[1] {
			t.Errorf("Complete(%q) = %q, want %q", c[0], got, c[1])
		}
	}
	if got := Complete(run.Store(), "top pod web").Options; len(got) != 3 {
		t.Errorf("Complete(top pod web) options = %q, want web's three pods", got)
	}
}
