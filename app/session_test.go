package app

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
	whole, err := newSession(sc)
	if err != nil {
		t.Fatal(err)
	}
	if !whole.final {
		t.Fatalf("%s: the look-ahead does not reach the end (known %d)", scenarios.Default, whole.known)
	}
	s, err := startSession(sc)
	if err != nil {
		t.Fatal(err)
	}
	if s.known != 0 || s.final {
		t.Fatalf("before looking ahead: known %d, final %v", s.known, s.final)
	}
	if err := s.beginLookAhead(); err != nil {
		t.Fatal(err)
	}
	slices := 0
	for !s.lookAheadSome(time.Nanosecond) {
		if slices++; slices == 1 {
			s.next() // the learner steps on meanwhile
		}
	}
	if slices == 0 {
		t.Error("the look-ahead ran in one slice: want one pass a slice at this budget")
	}
	if s.known != whole.known || s.final != whole.final || s.ahead != nil {
		t.Errorf("in slices: known %d, final %v (ahead %v); at once: known %d, final %v", s.known, s.final, s.ahead != nil, whole.known, whole.final)
	}
	if s.n() != 1 {
		t.Errorf("the run is at pass %d after one next; want 1", s.n())
	}
	for s.n() < s.known {
		if _, ok := s.next(); !ok {
			t.Fatalf("the run ends at pass %d; the look-ahead said %d", s.n(), s.known)
		}
	}
	if !s.atEnd() {
		t.Errorf("at pass %d of %d, not at the end", s.n(), s.known)
	}

	// An input stops a look-ahead under way: its future is not the run's.
	s2, err := startSession(sc)
	if err != nil {
		t.Fatal(err)
	}
	if err := s2.beginLookAhead(); err != nil {
		t.Fatal(err)
	}
	s2.lookAheadSome(time.Nanosecond)
	if _, err := s2.inject(sim.Kubectl{Line: "scale deployment web --replicas=2"}); err != nil {
		t.Fatal(err)
	}
	if s2.ahead != nil {
		t.Error("the look-ahead goes on after an input")
	}
}
