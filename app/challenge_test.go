package app

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/session"
)

// challenge opens lesson id's challenge natively, as /play?from=ID&mode=challenge does.
func challengePage(t *testing.T, id string) *Playground {
	t.Helper()
	p := playground(t, id)
	p.slot = challengeSlot(id)
	p.beginChallenge()
	if p.chal.c == nil || p.alert != "" {
		t.Fatalf("the challenge does not start: %q", p.alert)
	}
	return p
}

// The challenge hides Fork here and the work's storage, and shows the goal
// panel with its verdict; a lesson without a challenge says so.
func TestChallengePage(t *testing.T) {
	p := challengePage(t, "stuck-rollout")
	html := app.HTMLString(p.Render())
	for _, want := range []string{"Your turn: ", `id="challenge-verdict"`, "Not yet", "keep it there for 30s, within 5m", "deleting deployment/web; deleting any pod", "Hint 1 of 3: Has the controller seen the change?"} {
		if !strings.Contains(html, want) {
			t.Errorf("the challenge page does not say %q", want)
		}
	}
	for _, not := range []string{"Fork here", "Apply the response", `id="save-status"`} {
		if strings.Contains(html, not) {
			t.Errorf("the challenge page shows %q", not)
		}
	}
	if p.ses.Now() != p.sc.Challenge.Start {
		t.Errorf("the challenge starts at t=%s, want its symptom", p.ses.Now())
	}
	q := playground(t, "reconcile-only-when-run")
	q.beginChallenge()
	if q.chal.c != nil || !strings.Contains(q.alert, "has no challenge") {
		t.Errorf("a lesson without a challenge: %q", q.alert)
	}
}

// The hint offered first is for the question the learner has not answered:
// with the controller and what it has seen answered right, the conditions'.
func TestChallengeHintFollowsTheAnswers(t *testing.T) {
	p := challengePage(t, "stuck-rollout")
	if n := p.nextHint(); n != int(session.HintDesired) {
		t.Fatalf("first hint: %d", n)
	}
	p.chal.q.grades[0] = &session.Grade{Right: true}
	p.chal.q.grades[1] = &session.Grade{Right: true}
	if n := p.nextHint(); n != int(session.HintConditions) {
		t.Errorf("after the first question: %d", n)
	}
	p.chal.q.grades[2] = &session.Grade{Right: true} // the key's line is a condition
	if n := p.nextHint(); n != int(session.HintEvents) {
		t.Errorf("after the third question: %d", n)
	}
	p.chal.c.TakeHint(session.HintEvents)
	if n := p.nextHint(); n != int(session.HintDesired) {
		t.Errorf("with the events' hint taken: %d", n)
	}
}
