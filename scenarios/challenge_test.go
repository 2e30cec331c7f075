package scenarios

import (
	"reflect"
	"strings"
	"testing"

	"reconcile/engine/challenge"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
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
// for a moment, and goes over a budget of no failed request. The budget's
// try is that response, so reconcile check proves it too.
func TestDeleteThenApplyIsOverBudget(t *testing.T) {
	sc, err := Load("immutable-field")
	if err != nil {
		t.Fatal(err)
	}
	ch := sc.Challenge
	if len(ch.BudgetTry) != len(sc.Response) {
		t.Fatalf("the budget's try has %d inputs; the response has %d", len(ch.BudgetTry), len(sc.Response))
	}
	for i, st := range sc.Response {
		if got := ch.BudgetTry[i].Input; !reflect.DeepEqual(got, st.Input) {
			t.Errorf("the budget's try[%d] is %#v, the response's %#v", i, got, st.Input)
		}
	}
	p, err := challenge.Prove(sc)
	if err != nil {
		t.Fatal(err)
	}
	res := p.OverBudget
	if !p.OK() || res == nil || res.Status.State != challenge.OverBudget || res.Status.Failed == 0 ||
		!strings.Contains(res.Status.Why(), "the budget is 0: Deleting web first deletes its ReplicaSet and pods") {
		t.Fatalf("delete then apply: %v %+v", p.Failures, res)
	}
	t.Log(res.Status.Why())
	// A try that costs nothing is a failed claim at its place.
	ch.BudgetTry = ch.Solution[:1]
	if p, err = challenge.Prove(sc); err != nil || len(p.Failures) != 1 ||
		!strings.Contains(p.Failures[0].Error(), "challenge.failedRequests.try does not go over the budget: out of time") {
		t.Errorf("a try within the budget: %v %v", err, p.Failures)
	}
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

// rollback-is-desired-state's own fix is a step of the lesson (rollout
// undo at 2m): its challenge withholds it, so the lesson's run keeps it and
// the challenge's goes without it, and doing nothing leaves release 2 out.
func TestRollbackChallengeWithholdsTheUndo(t *testing.T) {
	sc, err := Load("rollback-is-desired-state")
	if err != nil {
		t.Fatal(err)
	}
	undo := func(steps []sim.Step) bool {
		for _, st := range steps {
			if st.Input.Text() == "kubectl rollout undo deployment/web" {
				return true
			}
		}
		return false
	}
	if !undo(sc.Config().Steps) || undo(sc.ForChallenge().Config().Steps) {
		t.Fatalf("the lesson's run has the undo: %v; the challenge's: %v", undo(sc.Config().Steps), undo(sc.ForChallenge().Config().Steps))
	}
	res, err := challenge.Play(sc, nil)
	if err != nil {
		t.Fatal(err)
	}
	if why := res.Status.Why(); res.Status.State != challenge.OutOfTime || !strings.Contains(why, `got "shop/web:2.0"`) {
		t.Errorf("doing nothing: %s", why)
	}
}

// A drain with --disable-eviction deletes the node's pods without asking
// the Eviction API, and so without asking their budget: the shortcut of
// deleting web's pods, caught as kubectl delete pod is. A drain that
// evicts, of a node with web's pod or of none, takes no shortcut.
func TestDrainWithoutEvictionDeletesPods(t *testing.T) {
	sc, err := Load("drain-waits-on-a-budget")
	if err != nil {
		t.Fatal(err)
	}
	ch := sc.Challenge
	for _, c := range []struct {
		line     string
		shortcut bool
	}{
		{"drain worker-1 --ignore-daemonsets --disable-eviction", true},
		{"drain worker-1 --ignore-daemonsets --disable-eviction=false", false},
		{"drain worker-2 --ignore-daemonsets", false},
	} {
		in, err := challenge.Given(sc, []scenario.Step{{At: ch.Start, Input: sim.Kubectl{Line: c.line}}})
		if err != nil {
			t.Fatal(err)
		}
		res, err := challenge.Play(sc, in)
		if err != nil {
			t.Fatal(err)
		}
		st := res.Status
		if got := st.State == challenge.Shortcut; got != c.shortcut || got && !strings.Contains(st.Why(), "like a drain with --disable-eviction, does not ask the budget") {
			t.Errorf("%s: %s", c.line, st.Why())
		}
	}
}
