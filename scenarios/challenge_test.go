package scenarios

import (
	"testing"

	"reconcile/engine/challenge"
)

// The solution bot: every bundled challenge's reference solution solves
// it, doing nothing does not, each forbidden shortcut is caught, and the
// solution's completion record verifies.
func TestChallenges(t *testing.T) {
	n := 0
	for _, id := range IDs() {
		sc, err := Load(id)
		if err != nil {
			t.Fatal(err)
		}
		if sc.Challenge == nil {
			continue
		}
		n++
		t.Run(id, func(t *testing.T) {
			p, err := challenge.Prove(sc)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range p.Failures {
				t.Error(f)
			}
			if !p.OK() {
				return
			}
			_, file, _ := File(id)
			rec, err := challenge.Complete(sc, file, p.Solution.Inputs)
			if err != nil {
				t.Fatal(err)
			}
			v, err := challenge.Verify(sc, file, rec)
			if err != nil || !v.Solved {
				t.Errorf("the solution's record does not verify: %v %s", err, v.Why)
			}
			t.Logf("%s; %d inputs", v.Why, len(rec.Inputs))
		})
	}
	if n < 5 {
		t.Errorf("%d bundled challenges, want at least 5", n)
	}
}
