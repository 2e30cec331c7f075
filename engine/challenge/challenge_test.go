package challenge_test

import (
	"os"
	"strings"
	"testing"

	"reconcile/engine/challenge"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
)

func loadFile(t *testing.T, path string) (*scenario.Scenario, []byte) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Load(path, data)
	if err != nil {
		t.Fatal(err)
	}
	return sc, data
}

func play(t *testing.T, sc *scenario.Scenario, steps ...scenario.Step) *challenge.Result {
	t.Helper()
	in, err := challenge.Given(sc, steps)
	if err != nil {
		t.Fatal(err)
	}
	res, err := challenge.Play(sc, in)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestJudge(t *testing.T) {
	sc, _ := loadFile(t, "testdata/edit-reverts.yaml")
	ch := sc.Challenge
	// The reference solution: five replicas committed to git hold through
	// two syncs.
	res := play(t, sc, ch.Solution...)
	if res.Status.State != challenge.Solved || res.Status.Hold != ch.Hold || res.Status.Since < ch.Start {
		t.Fatalf("solution: %s", res.Status.Why())
	}
	again := play(t, sc, ch.Solution...)
	if again.Digest != res.Digest || again.Passes != res.Passes {
		t.Errorf("replay: %s after %d passes, then %s after %d", res.Digest, res.Passes, again.Digest, again.Passes)
	}
	// Doing nothing runs out of time, saying what does not hold.
	res = play(t, sc)
	if res.Status.State != challenge.OutOfTime || res.Status.At != ch.Start+ch.Within {
		t.Errorf("nothing: %s at %s", res.Status.Why(), res.Status.At)
	}
	// The live edit is the shortcut, with its message and its input.
	res = play(t, sc, ch.Forbid[0].Try)
	if res.Status.State != challenge.Shortcut || res.Status.Forbid != &ch.Forbid[0] || res.Status.Input == nil ||
		!strings.Contains(res.Status.Why(), `shortcut: "kubectl scale deployment/web --replicas=5" at t=1m40s: You edited the live object.`) {
		t.Errorf("live edit: %s", res.Status.Why())
	}
	// A command the API server refuses takes no shortcut.
	bad := ch.Forbid[0].Try
	bad.Input = sim.Kubectl{Line: "scale deployment/nothing --replicas=5"}
	if res = play(t, sc, bad); res.Status.State != challenge.OutOfTime {
		t.Errorf("refused command: %s", res.Status.Why())
	}
}

// A goal that holds for a moment and flaps back is not solved: the judge
// sees it stop holding at the next sync.
func TestFlapIsNotSolved(t *testing.T) {
	sc, _ := loadFile(t, "testdata/edit-reverts.yaml")
	sc.Challenge.Forbid = nil // let the live edit through, to watch it flap
	res := play(t, sc, scenario.Step{At: sc.Challenge.Start, Input: sim.Kubectl{Line: "scale deployment/web --replicas=5"}})
	if res.Status.State != challenge.OutOfTime {
		t.Fatalf("got %s", res.Status.Why())
	}
	j, err := challenge.New(sc)
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.New(sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	held := false
	for {
		p, ok := s.Next()
		if !ok || p.At > sc.Challenge.Start+sc.Challenge.Within {
			break
		}
		if s.Now() >= sc.Challenge.Start && len(s.Inputs()) == 0 {
			s.Inject(sim.Kubectl{Line: "scale deployment/web --replicas=5"})
		}
		st := j.Observe(s)
		if st.State == challenge.Holding {
			held = true
		}
		if held && st.State == challenge.NotYet {
			if !strings.Contains(st.Why(), "deployment/web spec.replicas == 5: got 3") {
				t.Errorf("flap: %s", st.Why())
			}
			return
		}
	}
	t.Error("the goal never held, then stopped")
}

func TestInputBeforeTheStart(t *testing.T) {
	sc, _ := loadFile(t, "testdata/edit-reverts.yaml")
	_, err := challenge.Play(sc, []sim.Given{{After: 3, Input: sim.Kubectl{Line: "get pods"}}})
	if err == nil || !strings.Contains(err.Error(), "input 1 (kubectl get pods) is given after pass 3, before the challenge starts at t=1m40s") {
		t.Errorf("got %v", err)
	}
}

func TestProve(t *testing.T) {
	sc, _ := loadFile(t, "testdata/edit-reverts.yaml")
	p, err := challenge.Prove(sc)
	if err != nil {
		t.Fatal(err)
	}
	if !p.OK() || p.Claims != 4 || p.Solution.Status.State != challenge.Solved {
		t.Fatalf("proof: %+v", p.Failures)
	}
	// A try that takes no shortcut is a failed claim at its place.
	sc.Challenge.Forbid[1].Try.Input = sim.Kubectl{Line: "get deployment web"}
	if p, err = challenge.Prove(sc); err != nil || len(p.Failures) != 1 ||
		!strings.Contains(p.Failures[0].Error(), "challenge.forbid[1].try is not caught: out of time") {
		t.Errorf("proof: %v %v", err, p.Failures)
	}
}

// What a fix cost in pods: scaling up replaces none; rolling out a new
// template replaces every pod of the old one.
func TestReplaced(t *testing.T) {
	sc, _ := loadFile(t, "testdata/edit-reverts.yaml")
	if res := play(t, sc, sc.Challenge.Solution...); res.Status.State != challenge.Solved || res.Status.PodsReplaced != 0 {
		t.Errorf("edit-reverts: %s, %d pods replaced", res.Status.Why(), res.Status.PodsReplaced)
	}
	sc, _ = loadFile(t, "../../scenarios/stuck-rollout.yaml")
	if res := play(t, sc, sc.Challenge.Solution...); res.Status.State != challenge.Solved || res.Status.PodsReplaced == 0 {
		t.Errorf("stuck-rollout: %s, %d pods replaced", res.Status.Why(), res.Status.PodsReplaced)
	}
}

// reconcile check proves the answer key against the world: a controller of
// it, an object there at the start, the evidence line said in its run.
func TestProveQuestions(t *testing.T) {
	sc, _ := loadFile(t, "../../scenarios/stuck-rollout.yaml")
	p, err := challenge.Prove(sc)
	if err != nil || !p.OK() || p.Claims != 3+len(sc.Challenge.Forbid)+2 {
		t.Fatalf("proof: %v %v, %d claims", err, p.Failures, p.Claims)
	}
	q := sc.Challenge.Questions
	q.Controller, q.Name, q.Object = "deployment-controler", "webb", "deployment/webb"
	p, err = challenge.Prove(sc)
	if err != nil || len(p.Failures) != 2 ||
		!strings.Contains(p.Failures[0].Error(), `stuck-rollout.yaml:152:17: challenge.questions.controller: "deployment-controler" is not a controller of this world; its controllers: `) ||
		!strings.Contains(p.Failures[1].Error(), "challenge.questions.object: there is no deployment/webb at the challenge's start (t=3m)") {
		t.Errorf("proof: %v %v", err, p.Failures)
	}
	q.Name, q.Object, q.Controller = "web", "deployment/web", "deployment-controller"
	q.Says.Reason = "NewReplicaSetAvailable"
	if p, err = challenge.Prove(sc); err != nil || len(p.Failures) != 1 || !strings.Contains(p.Failures[0].Error(), "never says condition Progressing (NewReplicaSetAvailable)") {
		t.Errorf("proof: %v %v", err, p.Failures)
	}
	q.Says = scenario.Says{Pos: q.Says.Pos, Event: "FailedScheduling"}
	if p, err = challenge.Prove(sc); err != nil || len(p.Failures) != 1 ||
		!strings.Contains(p.Failures[0].Error(), "challenge.questions.says: deployment/web never says event FailedScheduling in the lesson's run from the challenge's start (t=3m)") {
		t.Errorf("proof: %v %v", err, p.Failures)
	}
}
