package session_test

import (
	"encoding/json"
	"strings"
	"testing"

	"reconcile/app/session"
	"reconcile/engine/api"
	"reconcile/engine/challenge"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
	"reconcile/scenarios"
)

func openChallenge(t *testing.T, id string) (*scenario.Scenario, []byte, *session.Session, *session.Challenge) {
	t.Helper()
	name, data, ok := scenarios.File(id)
	if !ok {
		t.Fatalf("no scenario %s", id)
	}
	sc, err := scenario.Load(name, data)
	if err != nil {
		t.Fatal(err)
	}
	c, err := session.NewChallenge(sc, data)
	if err != nil {
		t.Fatal(err)
	}
	s, err := session.Start(sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	s.Begin(c)
	return sc, data, s, c
}

// stepUntilFinal steps the run pass by pass, judging after each, running
// the clock on to the end of the hold when nothing more happens.
func stepUntilFinal(t *testing.T, s *session.Session, c *session.Challenge) session.ChallengeView {
	t.Helper()
	v := s.Judge(c)
	for i := 0; i < 5000 && !v.Final; i++ {
		if _, ok := s.Next(); !ok {
			switch {
			case v.HoldsAt > 0:
				s.PlayTo(v.HoldsAt)
			case v.Deadline > 0:
				s.PlayTo(v.Deadline) // the clock runs on to the time limit
			default:
				t.Fatalf("the run ended: %s: %s", v.Headline, v.Detail)
			}
		}
		v = s.Judge(c)
	}
	return v
}

// A learner's run judged as the page judges it (after every pass) ends
// as the replay of its inputs does, and its record verifies; a record
// with an input or the digest changed does not.
func TestChallengeSolvedRecordVerifies(t *testing.T) {
	sc, data, s, c := openChallenge(t, "stuck-rollout")
	if v := s.Judge(c); v.State != challenge.NotYet || s.Now() != sc.Challenge.Start || len(v.Got) != len(sc.Challenge.Goal) ||
		v.Got[0] != `got "ProgressDeadlineExceeded"` || v.Got[1] != "" {
		t.Fatalf("at the start: %s at t=%s: %q", v.Headline, s.Now(), v.Got)
	}
	if _, err := s.Inject(sim.Kubectl{Line: "rollout undo deployment/web"}); err != nil {
		t.Fatal(err)
	}
	c.TakeHint(session.HintConditions)
	v := stepUntilFinal(t, s, c)
	if v.State != challenge.Solved || !strings.HasPrefix(v.Detail, "The goal held for 30s from t=") {
		t.Fatalf("got %s: %s %v", v.Headline, v.Detail, v.Failing)
	}
	r, text, err := s.Record(c)
	if err != nil {
		t.Fatal(err)
	}
	back, err := challenge.ParseRecord(text)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Hints) != 1 || back.Hints[0] != "conditions" {
		t.Errorf("the record's hints: %q", back.Hints)
	}
	if verdict, err := challenge.Verify(sc, data, back); err != nil || !verdict.Solved {
		t.Fatalf("verify: %v %+v", err, verdict)
	}
	// The hints taken changed: refused, as a changed input is.
	fewer := *back
	fewer.Hints = nil
	if verdict, err := challenge.Verify(sc, data, &fewer); err != nil || verdict.Solved || !strings.Contains(verdict.Why, "the record was changed") {
		t.Errorf("hints removed: %v %+v", err, verdict)
	}
	// The digest changed: refused.
	bad := *r
	bad.Digest = "sha256:" + strings.Repeat("0", 64)
	if verdict, err := challenge.Verify(sc, data, &bad); err != nil || verdict.Solved || !strings.Contains(verdict.Why, "the record was changed") {
		t.Errorf("tampered digest: %v %+v", err, verdict)
	}
	// An input changed: the replay no longer solves it.
	var raw map[string]any
	json.Unmarshal(text, &raw)
	in := raw["inputs"].([]any)[0].(map[string]any)
	in["kubectl"] = "get pods"
	edited, _ := json.Marshal(raw)
	back, err = challenge.ParseRecord(edited)
	if err != nil {
		t.Fatal(err)
	}
	if verdict, err := challenge.Verify(sc, data, back); err != nil || verdict.Solved {
		t.Errorf("tampered input: %v %+v", err, verdict)
	}
}

// The forbidden shortcut is refused with the challenge's message, and a
// try again starts the judge afresh.
func TestChallengeShortcutThenRetry(t *testing.T) {
	sc, _, s, c := openChallenge(t, "stuck-rollout")
	if _, err := s.Inject(sim.Kubectl{Line: "delete deployment web"}); err != nil {
		t.Fatal(err)
	}
	v := s.Judge(c)
	if v.State != challenge.Shortcut || !v.Retry || !strings.Contains(v.Detail, "kubectl delete deployment web at t=") ||
		!strings.Contains(v.Detail, sc.Challenge.Forbid[0].Message) {
		t.Fatalf("got %s: %s", v.Headline, v.Detail)
	}
	if _, _, err := s.Record(c); err == nil {
		t.Error("a record of a shortcut")
	}
	s, err := session.Start(sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	s.Begin(c)
	if v := s.Judge(c); v.State != challenge.NotYet || len(s.Inputs()) != 0 {
		t.Errorf("again: %s, %d inputs", v.Headline, len(s.Inputs()))
	}
}

// The judge follows a run moved many passes at once as it follows one
// stepped: it sees every pass on its own replay.
func TestChallengeJudgeSeesEveryPass(t *testing.T) {
	_, _, s, c := openChallenge(t, "stuck-rollout")
	s.Inject(sim.Kubectl{Line: "rollout undo deployment/web"})
	s.PlayTo(s.Now() + 4*api.Minute)
	v := s.Judge(c)
	_, _, s2, c2 := openChallenge(t, "stuck-rollout")
	s2.Inject(sim.Kubectl{Line: "rollout undo deployment/web"})
	w := stepUntilFinal(t, s2, c2)
	if v.State != challenge.Solved || v.Since != w.Since {
		t.Errorf("played at once: %s since %s; stepped: %s since %s", v.Headline, v.Since, w.Headline, w.Since)
	}
}

// A goal on traffic is judged second by second, passes or not, as a
// replay judges it: the learner's run is solved when the replay of its
// inputs is, from the same moment.
func TestChallengeTrafficGoal(t *testing.T) {
	sc, _, s, c := openChallenge(t, "stale-tag")
	s.Inject(sim.Kubectl{Line: "set image deployment/web web=shop/web@sha256:7e2d9b4c1a0f8e6d5c3b2a1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d"})
	v := stepUntilFinal(t, s, c)
	res, err := challenge.Play(sc, s.Inputs()[:1])
	if err != nil {
		t.Fatal(err)
	}
	if v.State != challenge.Solved || res.Status.State != challenge.Solved || v.Since != res.Status.Since {
		t.Errorf("the page's judge: %s since %s; the replay: %s", v.Headline, v.Since, res.Status.Why())
	}
}

// The three questions are graded from the world's facts against the key:
// right and wrong answers say why.
func TestChallengeQuestions(t *testing.T) {
	_, _, s, c := openChallenge(t, "stuck-rollout")
	ch := s.Choices(c)
	if !ch.Asks || len(ch.Objects) == 0 {
		t.Fatalf("choices: %+v", ch)
	}
	found := false
	for _, n := range ch.Controllers {
		found = found || n == "deployment-controller"
	}
	if !found {
		t.Errorf("the controllers offered: %v", ch.Controllers)
	}
	if g := s.AnswerController(c, "deployment-controller"); !g.Right || !strings.Contains(g.Why, "which controller is responsible for closing the gap") {
		t.Errorf("right controller: %+v", g)
	}
	if g := s.AnswerController(c, "kubelet"); g.Right || !strings.HasPrefix(g.Why, "Not this one: kubelet") {
		t.Errorf("wrong controller: %+v", g)
	}
	web := api.Ref{Kind: "Deployment", Namespace: "default", Name: "web"}
	// At the symptom the deployment-controller has seen the new template.
	if g := s.AnswerSeen(c, web, true); !g.Right || !strings.Contains(g.Why, "metadata.generation is 2 and status.observedGeneration is 2") {
		t.Errorf("seen: %+v", g)
	}
	if g := s.AnswerSeen(c, web, false); g.Right {
		t.Errorf("not seen: %+v", g)
	}
	lines := s.Lines(web)
	var progressing, available scenario.Says
	for _, l := range lines {
		switch l.Condition {
		case "Progressing":
			progressing = l
		case "Available":
			available = l
		}
	}
	if g := s.AnswerSays(c, web, progressing); !g.Right || !strings.Contains(g.Why, "condition Progressing (ProgressDeadlineExceeded)") {
		t.Errorf("Progressing: %+v (lines %+v)", g, lines)
	}
	if g := s.AnswerSays(c, web, available); g.Right || !strings.Contains(g.Why, "is true of deployment/web, but it is not what tells this story") {
		t.Errorf("Available: %+v", g)
	}
	if g := s.AnswerSays(c, web, scenario.Says{Event: "FailedScheduling"}); g.Right || g.Why != "deployment/web does not say event FailedScheduling now." {
		t.Errorf("a line not there: %+v", g)
	}
}
