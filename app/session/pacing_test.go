package session

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/sim"
	"reconcile/scenarios"
)

// newSession starts the bundled scenario id and looks ahead.
func newSession(t *testing.T, id string) *Session {
	t.Helper()
	s, err := New(mustLoad(t, id).Config())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// self-healing starts up in 33 passes; skipping them lands on a converged
// world before the step at 30 s, and the next event is that step's input.
func TestSkipStartupLandsConvergedBeforeTheFirstStep(t *testing.T) {
	s := newSession(t, "self-healing")
	if !s.InStartup() {
		t.Fatal("at pass 0 the run is not in its start-up")
	}
	if !s.SkipStartup() {
		t.Fatal("SkipStartup did not move")
	}
	converged, why := s.run.Converged()
	if !converged || s.run.Now() >= 30*api.Second {
		t.Fatalf("after skipping the start-up: pass %d at %s, converged %v (%s); want converged before 30s", s.N(), s.run.Now(), converged, why)
	}
	// The first converged moment: the pass before it leaves the world moving.
	before := s.run.Copy()
	if err := before.Seek(s.N() - 1); err != nil {
		t.Fatal(err)
	}
	if ok, _ := before.Converged(); ok {
		t.Errorf("the world had already converged after pass %d; SkipStartup went on to %d", s.N()-1, s.N())
	}
	if s.N() != 33 || s.InStartup() || s.SkipStartup() {
		t.Errorf("at pass %d: in start-up %v; want pass 33, out of it", s.N(), s.InStartup())
	}

	notes := len(s.run.Notes())
	if ran := s.NextEvent(); ran != 0 || s.N() != 33 || s.run.Now() != 30*api.Second {
		t.Fatalf("NextEvent ran %d passes, to pass %d at %s; want it to stop at the step at 30s, before pass 34", ran, s.N(), s.run.Now())
	}
	if got := s.run.Notes()[notes:]; len(got) != 1 || !strings.HasSuffix(got[0].String(), "delete-pod app=web") {
		t.Errorf("faults given by the step: %q", got)
	}
	if ran := s.NextEvent(); ran != 1 || s.N() != 34 {
		t.Errorf("the next event: ran %d passes to pass %d; want pass 34 (the kubelet removes the pod)", ran, s.N())
	}
}

// apply-is-not-running gives its first step at t=0: its lesson is the
// start-up, and there is none to skip.
func TestNoStartupBeforeAnInputAtTheStart(t *testing.T) {
	s := newSession(t, "apply-is-not-running")
	if s.InStartup() || s.SkipStartup() || s.N() != 0 {
		t.Errorf("in start-up %v, at pass %d; want no start-up and no move", s.InStartup(), s.N())
	}
	// A learner's input ends the start-up too.
	h := newSession(t, "self-healing")
	if err := h.Seek(5); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Inject(sim.Kubectl{Line: "get pods"}); err != nil {
		t.Fatal(err)
	}
	if err := h.Seek(2); err != nil {
		t.Fatal(err)
	}
	if h.InStartup() {
		t.Error("in start-up before a learner's input given before the world converged")
	}
}

// node-dies-at-3am waits five minutes for the eviction: NextEvent crosses
// the wait in one call, and stops at the input that ends it.
func TestNextEventCrossesAQuietStretch(t *testing.T) {
	s := newSession(t, "node-dies-at-3am")
	s.SkipStartup()
	longest := api.Duration(0)
	for i := 0; i < 100 && !s.AtEnd(); i++ {
		from := s.run.Now()
		s.NextEvent()
		longest = max(longest, s.run.Now()-from)
		if s.run.Now() == 6*api.Minute+10*api.Second {
			break
		}
	}
	if s.run.Now() != 6*api.Minute+10*api.Second {
		t.Fatalf("NextEvent never stopped at the kubectl get pods of 6m10s (at %s, pass %d)", s.run.Now(), s.N())
	}
	if longest < 4*api.Minute {
		t.Errorf("the longest stretch one NextEvent crossed is %s; want the wait for the eviction (almost 5m)", longest)
	}
}

// NextEvent stops exactly where the cluster pane, read from scratch, first
// reads differently, or where an input is given.
func TestNextEventStopsWhereThePaneChanges(t *testing.T) {
	for _, id := range []string{"self-healing", "node-dies-at-3am", "apply-is-not-running", "pending-pods", "rollback-is-desired-state", "stuck-rollout", "edge-vs-level"} {
		t.Run(id, func(t *testing.T) {
			checkNextEvents(t, newSession(t, id))
		})
	}
	// A controller that crashes, and comes back 10 s later.
	t.Run("crash", func(t *testing.T) {
		s := newSession(t, "self-healing")
		s.SkipStartup()
		for _, line := range []string{"crash replicaset-controller", "delete-pod app=web"} {
			if _, err := s.Inject(faults(line)[0]); err != nil {
				t.Fatal(err)
			}
		}
		checkNextEvents(t, s)
		crashed := false
		for _, p := range s.run.Passes() {
			crashed = crashed || p.Controller == "replicaset-controller" && p.Result == controller.Crashed
		}
		if !crashed {
			t.Error("the replicaset-controller never crashed")
		}
	})
}

// checkNextEvents calls NextEvent to the end of s's run, checking each
// stop against a copy of the run stepped one pass at a time.
func checkNextEvents(t *testing.T, s *Session) {
	t.Helper()
	for calls := 0; calls < 400 && !s.AtEnd(); calls++ {
		ref := s.run.Copy()
		look, records := paneLook(ref), recordCount(ref)
		// The first pass after which the pane reads differently or an
		// input has been given, stepping one pass at a time.
		want := -1
		for ref.PassCount()-s.N() < maxEventPasses {
			if _, ok := ref.Next(); !ok {
				break
			}
			if paneLook(ref) != look || recordCount(ref) != records {
				want = ref.PassCount()
				break
			}
		}
		from := s.N()
		ran := s.NextEvent()
		switch {
		case s.N() != from+ran:
			t.Fatalf("NextEvent says it ran %d passes from %d; the run is at %d", ran, from, s.N())
		case want < 0 && !s.AtEnd() && ran != maxEventPasses:
			t.Fatalf("from pass %d nothing changes to the end, but NextEvent stopped at %d", from, s.N())
		case want < 0:
		case s.N() == want:
		case s.N() == want-1 && recordCount(s.run) != records:
			// stopped at an input given before pass want
		default:
			t.Fatalf("from pass %d: NextEvent stopped at pass %d (t=%s); the pane changes, or an input is given, at pass %d", from, s.N(), s.run.Now(), want)
		}
	}
	if !s.AtEnd() {
		t.Errorf("400 events did not reach the end (pass %d of %d)", s.N(), s.Known())
	}
}

// paneLook is what the cluster pane reads of run, from scratch, without
// the controllers' queues (they change every pass).
func paneLook(run *sim.Sim) string {
	var x worldIndex
	x.sync(run)
	ctrls := run.Controllers()
	for i := range ctrls {
		ctrls[i].Queued = 0
	}
	return fmt.Sprintf("%+v", readCluster(run, &x, slices.Values(ctrls), 0))
}

// The timeline marks each step after the last pass before its time, and
// each learner input after its pass; a step is left out until the pass
// before it is known.
func TestMarksSitAfterThePassBeforeThem(t *testing.T) {
	s := newSession(t, "self-healing")
	want := []Mark{
		{N: 33, At: 30 * api.Second, Kind: MarkStep, Label: "kubectl get pods"},
		{N: 33, At: 30 * api.Second, Kind: MarkStep, Label: "fault: delete-pod app=web"},
		{N: 49, At: 40 * api.Second, Kind: MarkStep, Label: "kubectl get pods"},
	}
	if got := s.Marks(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("marks\n got %v\nwant %v", got, want)
	}
	checkMarks(t, s)

	// Without a look-ahead the passes of 30s are not known yet.
	fresh, err := Start(mustLoad(t, "self-healing").Config())
	if err != nil {
		t.Fatal(err)
	}
	if got := fresh.Marks(); len(got) != 0 {
		t.Errorf("before any pass is known: marks %v", got)
	}
	if _, ok := fresh.PassAt(30 * api.Second); ok {
		t.Error("PassAt(30s) is known before any pass")
	}
	for fresh.run.Now() < 30*api.Second+200*api.Millisecond {
		fresh.Next()
	}
	if n, ok := fresh.PassAt(30 * api.Second); !ok || n != 33 {
		t.Errorf("after stepping past 30s: PassAt(30s) = %d, %v; want 33", n, ok)
	}
	if got := fresh.Marks(); len(got) != 2 {
		t.Errorf("after stepping past 30s: marks %v; want the two steps of 30s", got)
	}

	// A learner's input changes the future: the marks follow the new one.
	if err := s.Seek(10); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Inject(sim.Kubectl{Line: "scale deployment web --replicas=8"}); err != nil {
		t.Fatal(err)
	}
	ms := s.Marks()
	if len(ms) != 4 || ms[0] != (Mark{N: 10, At: s.run.Now(), Kind: MarkInput, Label: "kubectl scale deployment web --replicas=8"}) {
		t.Fatalf("after a learner's input at pass 10: marks %v", ms)
	}
	checkMarks(t, s)
}

// checkMarks checks each mark of s against its run: the pass it sits after
// comes before its time, the pass after it not.
func checkMarks(t *testing.T, s *Session) {
	t.Helper()
	run := s.run.Copy()
	for run.PassCount() < s.Known() {
		if _, ok := run.Next(); !ok {
			break
		}
	}
	for _, m := range s.Marks() {
		if m.Kind != MarkStep {
			continue
		}
		p, _ := run.Pass(m.N)
		q, ok := run.Pass(m.N + 1)
		if m.N > 0 && p.At >= m.At || ok && q.At < m.At {
			t.Errorf("mark %v: pass %d is at %s, pass %d at %s", m, m.N, p.At, m.N+1, q.At)
		}
	}
}

// The inputs given at t=0 come after the first pass of each controller
// over the initial list: their mark says so, and so does the run.
func TestStepsAtTheStartComeAfterTheFirstRound(t *testing.T) {
	s := newSession(t, scenarios.Default)
	ms := s.Marks()
	if len(ms) == 0 || ms[0].At != 0 || ms[0].N != 1 {
		t.Fatalf("marks %v; want the steps at 0s after pass 1", ms)
	}
	run := s.run.Copy()
	run.Next()
	if n := len(run.Outputs()); n != 0 {
		t.Errorf("after pass 1, %d outputs already", n)
	}
	run.Next()
	if n := len(run.Outputs()); n != 2 {
		t.Errorf("after pass 2, %d outputs; want the two commands of 0s", n)
	}
	// The reader names the moments a page asks for, once placed.
	r := Reader{Moments: []Moment{{At: SymptomAt(mustLoad(t, scenarios.Default)), Kind: MarkSymptom, Label: "symptom"}}}
	v := r.Read(s, false)
	found := false
	for _, m := range v.Marks {
		found = found || m.Kind == MarkSymptom
	}
	if !found {
		t.Errorf("view marks %v: no symptom", v.Marks)
	}
}
