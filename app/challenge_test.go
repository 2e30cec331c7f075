package app

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/session"
	"reconcile/engine/api"
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

// The hint offered follows the questions answered and the evidence opened:
// first the desired one; with the Deployment described (its conditions and
// events open) and the first two questions answered right, the conditions'
// (open: the hint reads them); its text says where the learner saw them;
// then the events', the desired one's questions being answered.
func TestChallengeHintFollowsTheLearner(t *testing.T) {
	p := challengePage(t, "stuck-rollout")
	if l, ok := p.chal.c.NextHint(); !ok || l != session.HintDesired {
		t.Fatalf("first hint: %d", l)
	}
	var ctx app.Context
	p.runKubectl(ctx, "kubectl describe deployment web")
	c, web := p.chal.c, api.Ref{Kind: "Deployment", Namespace: "default", Name: "web"}
	p.ses.AnswerController(c, "deployment-controller")
	p.ses.AnswerSeen(c, web, true)
	html := app.HTMLString(p.Render())
	if !strings.Contains(html, "Hint 2 of 3: What do its conditions say?") {
		t.Errorf("after describe and two answers, the hint offered is not the conditions'")
	}
	c.TakeHint(session.HintConditions)
	html = app.HTMLString(p.Render())
	if !strings.Contains(html, "You have opened deployment/web&#39;s conditions with kubectl describe deployment web") {
		t.Errorf("the hint taken does not say where the conditions were opened")
	}
	if !strings.Contains(html, "Hint 3 of 3: What do its events say?") {
		t.Errorf("then the events' (their question not answered), not the desired one (answered)")
	}
}
