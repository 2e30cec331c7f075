package sim_test

import (
	"slices"
	"testing"

	"reconcile/engine/sim"
	"reconcile/scenarios"
)

// TestConvergedMoving checks that ConvergedMoving says what Converged and
// Moving say, after each of the first 200 passes of every bundled lesson
// (with max 2, the stage's, and every tenth pass with no max).
func TestConvergedMoving(t *testing.T) {
	for _, id := range scenarios.IDs() {
		sc, err := scenarios.Load(id)
		if err != nil {
			t.Fatal(err)
		}
		s, err := sim.New(sc.Config())
		if err != nil {
			t.Fatal(err)
		}
		twin, err := sim.New(sc.Config())
		if err != nil {
			t.Fatal(err)
		}
		for n := 0; n < 200; n++ {
			maxes := []int{2}
			if n%10 == 0 {
				maxes = append(maxes, 0) // all the lines: slower (the agenda's requeues)
			}
			for _, max := range maxes {
				// Converged and Moving first, on s: ConvergedMoving walks
				// the checks whatever the memo holds.
				wantOK, why := s.Converged()
				want := s.Moving(max)
				ok, lines := s.ConvergedMoving(max)
				if ok != wantOK || !slices.Equal(lines, want) || !ok && lines[0] != why {
					t.Fatalf("%s, pass %d, max %d: ConvergedMoving %v %q; Converged %v %q, Moving %q", id, n, max, ok, lines, wantOK, why, want)
				}
				// On twin, ConvergedMoving first: the memo it fills is what
				// Converged would have found.
				twin.ConvergedMoving(max)
				if gotOK, got := twin.Converged(); gotOK != wantOK || got != why {
					t.Fatalf("%s, pass %d, max %d: Converged after ConvergedMoving %v %q; alone %v %q", id, n, max, gotOK, got, wantOK, why)
				}
			}
			if _, more := s.Next(); !more {
				break
			}
			twin.Next()
		}
	}
}
