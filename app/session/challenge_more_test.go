package session_test

import (
	"slices"
	"testing"

	"reconcile/app/session"
	"reconcile/engine/api"
	"reconcile/engine/scenario"
	"reconcile/scenarios"
)

// The three questions of the challenges whose lesson's own fix is a step
// or a fault switch can be answered from what the page offers at the
// challenge's start: the key's controller has run, its object is offered,
// its line is there to pick, and each graded right. (In none has the
// controller missed a change: what it converged on is the problem.)
func TestChallengeQuestionsAnswerable(t *testing.T) {
	for _, id := range []string{"rollback-is-desired-state", "self-healing-is-not-ha", "the-chains-last-link"} {
		t.Run(id, func(t *testing.T) {
			name, data, _ := scenarios.File(id)
			sc, err := scenario.Load(name, data)
			if err != nil {
				t.Fatal(err)
			}
			c, err := session.NewChallenge(sc, data)
			if err != nil {
				t.Fatal(err)
			}
			s, err := session.Start(sc.ForChallenge().Config())
			if err != nil {
				t.Fatal(err)
			}
			s.Begin(c)
			key := sc.Challenge.Questions
			ch := s.Choices(c)
			if !slices.Contains(ch.Controllers, key.Controller) {
				t.Errorf("the controllers offered %v lack %s", ch.Controllers, key.Controller)
			}
			ref := api.Ref{Kind: key.Kind, Namespace: "default", Name: key.Name}
			if !slices.Contains(ch.Objects, ref) {
				t.Errorf("the objects offered %v lack %s", ch.Objects, key.Object)
			}
			if g := s.AnswerController(c, key.Controller); !g.Right {
				t.Errorf("the controller: %s", g.Why)
			}
			if g := s.AnswerSeen(c, ref, true); !g.Right {
				t.Errorf("seen: %s", g.Why)
			}
			want := scenario.Says{Condition: key.Says.Condition, Reason: key.Says.Reason, Event: key.Says.Event}
			if !slices.Contains(s.Lines(ref), want) {
				t.Errorf("the lines offered %+v lack %+v", s.Lines(ref), want)
			}
			if g := s.AnswerSays(c, ref, want); !g.Right {
				t.Errorf("the line: %s", g.Why)
			}
		})
	}
}
