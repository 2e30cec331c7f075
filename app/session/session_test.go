package session

import (
	"fmt"
	"testing"
	"time"

	"reconcile/engine/api"
	"reconcile/engine/sim"
	"reconcile/scenarios"
)

// TestLookAheadInSlices checks that a look-ahead run a slice at a time, on
// a copy of the run, learns what looking ahead all at once does, and
// leaves the run where the learner is, even when the learner moves on
// between slices.
func TestLookAheadInSlices(t *testing.T) {
	sc, err := scenarios.Load(scenarios.Default)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := New(sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	if !whole.Final() {
		t.Fatalf("%s: the look-ahead does not reach the end (known %d)", scenarios.Default, whole.Known())
	}
	s, err := Start(sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	if s.Known() != 0 || s.Final() {
		t.Fatalf("before looking ahead: known %d, final %v", s.Known(), s.Final())
	}
	s.BeginLookAhead()
	slices := 0
	for !s.LookAheadSome(time.Nanosecond) {
		if slices++; slices == 1 {
			s.Next() // the learner steps on meanwhile
		}
	}
	if slices == 0 {
		t.Error("the look-ahead ran in one slice: want one pass a slice at this budget")
	}
	if s.Known() != whole.Known() || s.Final() != whole.Final() || s.LookingAhead() {
		t.Errorf("in slices: known %d, final %v (ahead %v); at once: known %d, final %v", s.Known(), s.Final(), s.LookingAhead(), whole.Known(), whole.Final())
	}
	if s.N() != 1 {
		t.Errorf("the run is at pass %d after one next; want 1", s.N())
	}
	for s.N() < s.Known() {
		if _, ok := s.Next(); !ok {
			t.Fatalf("the run ends at pass %d; the look-ahead said %d", s.N(), s.Known())
		}
	}
	if !s.AtEnd() {
		t.Errorf("at pass %d of %d, not at the end", s.N(), s.Known())
	}

	// An input stops a look-ahead under way: its future is not the run's.
	s2, err := Start(sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	s2.BeginLookAhead()
	s2.LookAheadSome(time.Nanosecond)
	if _, err := s2.Inject(sim.Kubectl{Line: "scale deployment web --replicas=2"}); err != nil {
		t.Fatal(err)
	}
	if s2.LookingAhead() {
		t.Error("the look-ahead goes on after an input")
	}
}

// TestReadTraffic: a lesson with a request stream shows, after its
// start-up, the last ten seconds of it: answered, failed, and by whom.
func TestReadTraffic(t *testing.T) {
	sc, err := scenarios.Load("the-chains-last-link")
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	var r Reader
	s.run.RunUntil(50*api.Second, 0)
	v := r.Read(s, false)
	if len(v.Traffic) != 1 {
		t.Fatalf("traffic: %+v", v.Traffic)
	}
	tr := v.Traffic[0]
	if tr.OK != 100 || tr.Failed != 0 || len(tr.Digests) != 1 || tr.Digests[0] != "aaaa1111 ×100" {
		t.Errorf("at 50s: %+v", tr)
	}
	if got := tr.Text(); got != "web: 100 of 100 requests answered in the last 10s · served by aaaa1111 ×100" {
		t.Errorf("text: %q", got)
	}
	s.run.RunUntil(70*api.Second, 0)
	tr = r.Read(s, false).Traffic[0]
	if tr.Failed == 0 || len(tr.Errors) != 1 || tr.Errors[0].Key != "connection refused" {
		t.Errorf("at 70s, during the lagging rollout: %+v", tr)
	}
	if got, want := tr.Short(), fmt.Sprintf("web %d/%d ok (connection refused)", tr.OK, tr.OK+tr.Failed); got != want {
		t.Errorf("short: %q, want %q", got, want)
	}
}
