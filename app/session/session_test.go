package session

import (
	"testing"
	"time"

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
