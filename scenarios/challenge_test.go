package scenarios

import (
	"testing"

	"reconcile/engine/challenge"
	"reconcile/engine/scenario"
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

// immutable-field's budget is what makes it a challenge: the lesson's own
// response, delete then apply, leaves the Service without ready endpoints
// for a moment, and goes over a budget of no failed request.
func TestDeleteThenApplyIsOverBudget(t *testing.T) {
	sc, err := Load("immutable-field")
	if err != nil {
		t.Fatal(err)
	}
	steps := append([]scenario.Step(nil), sc.Response...)
	for i := range steps {
		steps[i].At = sc.Challenge.Start
	}
	in, err := challenge.Given(sc, steps)
	if err != nil {
		t.Fatal(err)
	}
	res, err := challenge.Play(sc, in)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status.State != challenge.OverBudget || res.Status.Failed == 0 {
		t.Errorf("delete then apply: %s", res.Status.Why())
	}
	t.Log(res.Status.Why())
}

// What a reference solution costs, as verify prints it: the failed
// requests of the lesson's traffic and the pods deleted since the start.
func TestSolutionCost(t *testing.T) {
	for _, tt := range []struct {
		id, cost string
	}{
		// Scaled to four: the replicaset-controller deletes one pod.
		{"self-healing", "1 pod replaced"},
		// Five replicas committed to git: two pods added, none replaced.
		{"edit-reverts", "0 pods replaced"},
		// web and then web-next deleted: their three pods each.
		{"immutable-field", "0 failed requests, 6 pods replaced"},
	} {
		sc, err := Load(tt.id)
		if err != nil {
			t.Fatal(err)
		}
		in, err := challenge.Given(sc, sc.Challenge.Solution)
		if err != nil {
			t.Fatal(err)
		}
		res, err := challenge.Play(sc, in)
		if err != nil {
			t.Fatal(err)
		}
		if got := challenge.Cost(sc, res.Status); got != tt.cost {
			t.Errorf("%s: the solution costs %s, want %s", tt.id, got, tt.cost)
		}
	}
}
