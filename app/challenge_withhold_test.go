package app

import (
	"testing"

	"reconcile/engine/api"
)

// A challenge page runs the lesson without the steps its challenge
// withholds, as /play?from=ID&mode=challenge opens it (the slot named
// first, then the world made): rollback-is-desired-state's rollout undo at
// 2m is the learner's, so past 2m web still runs release 2. The lesson in
// the playground keeps the step.
func TestChallengePageWithholdsTheLessonsFix(t *testing.T) {
	const id = "rollback-is-desired-state"
	p := &Playground{from: id, slot: challengeSlot(id)}
	p.OnInit()
	p.fresh()
	p.beginChallenge()
	if p.chal.c == nil || p.alert != "" {
		t.Fatalf("the challenge does not start: %q", p.alert)
	}
	if got := p.ses.Now(); got != p.sc.Challenge.Start {
		t.Fatalf("the challenge starts at t=%s", got)
	}
	image := func(p *Playground) string {
		p.ses.PlayTo(2*api.Minute + 30*api.Second)
		for _, o := range p.ses.Objects() {
			if d, ok := o.(*api.Deployment); ok && d.Name == "web" {
				return d.Spec.Template.Spec.Containers[0].Image
			}
		}
		return ""
	}
	if got := image(p); got != "shop/web:2.0" {
		t.Errorf("at 2m30s the challenge's web runs %q: the lesson's rollout undo ran", got)
	}
	if got := image(playground(t, id)); got != "shop/web:1.0" {
		t.Errorf("at 2m30s the lesson's web runs %q: its rollout undo is lost", got)
	}
}
