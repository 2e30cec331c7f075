//go:build browser

package main

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The hint offered follows the evidence the learner opened: at the start
// of stuck-rollout the desired one; with kubectl get deploy web -o yaml
// read in the console (the generations and the conditions), the events';
// taken, it says where the events are, and the next offered is the
// desired one, its evidence now open.
func TestBrowserChallengeHints(t *testing.T) {
	base := siteWithCourse(t)
	ctx := browser(t)
	do(t, ctx, "sizing the window", chromedp.EmulateViewport(1280, 800))
	openChallenge(t, ctx, base, "stuck-rollout")
	if h := text(t, ctx, "#challenge-hint"); h != "Hint 1 of 3: Has the controller seen the change?" {
		t.Errorf("the first hint offered: %q", h)
	}
	kubectl(t, ctx, "get deploy web -o yaml")
	poll(t, ctx, "the events' hint is offered", `/^Hint 3 of 3/.test((document.getElementById("challenge-hint") || {}).textContent || "")`, 5*time.Second)
	do(t, ctx, "taking the hint", chromedp.Click(chromedp.CSS("#challenge-hint")))
	poll(t, ctx, "the hint shows", `document.getElementById("challenge-hints") != null`, 5*time.Second)
	h := text(t, ctx, "#challenge-hints")
	if !strings.Contains(h, "What do its events say?") || !strings.Contains(h, "You have not read the events about deployment/web yet: the inspector's third question, or kubectl describe deployment web, or kubectl events --for deployment/web.") {
		t.Errorf("the hint taken: %q", h)
	}
	if n := text(t, ctx, "#challenge-hint"); n != "Hint 1 of 3: Has the controller seen the change?" {
		t.Errorf("then offered: %q", n)
	}
	playShot(t, ctx, "challenge-hints-1280x800", ".challenge-hints")
}
