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
		for n := 0; n < 200; n++ {
			maxes := []int{2}
			if n%10 == 0 {
				maxes = append(maxes, 0) // all the lines: slower (the agenda's requeues)
			}
			for _, max := range maxes {
				ok, lines := s.ConvergedMoving(max)
				wantOK, why := s.Converged()
				want := s.Moving(max)
				if ok != wantOK || !slices.Equal(lines, want) || !ok && lines[0] != why {
					t.Fatalf("%s, pass %d, max %d: ConvergedMoving %v %q; Converged %v %q, Moving %q", id, n, max, ok, lines, wantOK, why, want)
				}
			}
			if _, more := s.Next(); !more {
				break
			}
		}
	}
}
