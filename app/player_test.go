package app

import (
	"encoding/xml"
	"net/url"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/session"
	"reconcile/engine/controller"
	"reconcile/engine/sim"
	"reconcile/scenarios"
)

func openPlayer(t *testing.T, rawURL string) *Player {
	t.Helper()
	u, err := url.Parse(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	p := &Player{}
	p.OnInit()
	p.open(u)
	return p
}

// step presses Next pass, skipping the lesson's question if it asks one.
func step(p *Player) {
	var ctx app.Context
	p.next(ctx)
	if p.asking != nil {
		p.answerQuestion(ctx, -1)
	}
}

// nativeRun runs the bundled scenario id natively for n passes.
func nativeRun(t *testing.T, id string, n int) *sim.Sim {
	t.Helper()
	sc, err := scenarios.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.New(sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Seek(n); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestPlayerStepsForwardAndBack(t *testing.T) {
	p := openPlayer(t, "/s/"+scenarios.Default)
	if p.alert != "" || p.view.N != 0 || !p.view.Ready {
		t.Fatalf("opened with alert %q at pass %d (ready %v)", p.alert, p.view.N, p.view.Ready)
	}
	var ctx app.Context
	for i := 1; i <= 3; i++ {
		step(p)
		if p.view.N != i || len(p.view.Log) != i || p.view.Current == nil || p.view.Current.N != i {
			t.Fatalf("after %d × next: pass %d, %d log entries", i, p.view.N, len(p.view.Log))
		}
	}
	html := app.HTMLString(p.Render())
	for _, want := range []string{"Pass 3 of ", ">Next pass</button>", `role="status"`, `data-digest="` + p.view.Digest + `"`} {
		if !strings.Contains(html, want) {
			t.Errorf("the player at pass 3 lacks %q", want)
		}
	}

	p.previous(ctx)
	if p.view.N != 2 || len(p.view.Log) != 2 {
		t.Fatalf("after previous: pass %d, %d log entries", p.view.N, len(p.view.Log))
	}
	if want := nativeRun(t, scenarios.Default, 2).Digest(); p.view.Digest != want {
		t.Errorf("digest after 3 × next and previous = %q, after 2 × next = %q", p.view.Digest, want)
	}

	p.reset(ctx)
	if p.view.N != 0 || len(p.view.Log) != 0 || p.view.Current != nil {
		t.Errorf("after reset: pass %d, %d log entries", p.view.N, len(p.view.Log))
	}
	if p.alert != "" {
		t.Errorf("alert: %q", p.alert)
	}
}

func TestPlayerOpensAtPassN(t *testing.T) {
	p := openPlayer(t, "/s/"+scenarios.Default+"?pass=4")
	if p.view.N != 4 || len(p.view.Log) != 4 {
		t.Errorf("?pass=4 opened at pass %d with %d log entries", p.view.N, len(p.view.Log))
	}
	p = openPlayer(t, "/s/"+scenarios.Default+"?pass=minus-one")
	if p.view.N != 0 || !strings.Contains(p.alert, "not a pass number") {
		t.Errorf("?pass=minus-one: pass %d, alert %q", p.view.N, p.alert)
	}
}

func TestPlayerRunsToTheEndAndStops(t *testing.T) {
	p := openPlayer(t, "/s/"+scenarios.Default)
	for i := 0; i < 100000 && !p.view.AtEnd; i++ {
		step(p)
	}
	if !p.view.AtEnd {
		t.Fatal("the default lesson never ends")
	}
	n := p.view.N
	step(p)
	if p.view.N != n {
		t.Errorf("next after the end moved from pass %d to %d", n, p.view.N)
	}
	if !strings.Contains(app.HTMLString(p.Render()), "nothing more happens") {
		t.Error("the status does not say that the run is over")
	}
}

func TestPlayerNamesAMissingLesson(t *testing.T) {
	p := openPlayer(t, "/s/no-such-lesson")
	html := app.HTMLString(p.Render())
	if !p.missing || !strings.Contains(html, "No such lesson") {
		t.Errorf("missing %v, page %q", p.missing, html)
	}
}

func TestPlayerSurvivesAPanickingRun(t *testing.T) {
	p := openPlayer(t, "/s/"+scenarios.Default)
	p.ses = session.Wrap(&sim.Sim{}) // a run that was never prepared
	var ctx app.Context
	p.next(ctx) // must not panic
	p.previous(ctx)
	p.reset(ctx)
	p.alert = ""
	alert := ""
	if guard(&alert, "Next pass", func() { panic("boom") }) || !strings.Contains(alert, "Next pass failed: boom") {
		t.Errorf("guard: alert %q", alert)
	}
	p.alert = alert
	html := app.HTMLString(p.Render())
	if !strings.Contains(html, `role="alert"`) || !strings.Contains(html, "boom") {
		t.Errorf("the alert is not shown: %s", html)
	}
}

func TestLoopPictureIsWellFormedSVG(t *testing.T) {
	for _, lit := range []map[string]bool{nil, {stepDesired: true}, litSteps(&sim.Pass{Actions: []controller.Action{controller.Do(controller.Set, "x")}})} {
		svg := loopSVG(lit, map[string]string{stepDesired: `spec.replicas <= 5 & "more" than fits on two lines of a box`}, `a <caption> & "quotes"`, `a & b`)
		dec := xml.NewDecoder(strings.NewReader(svg))
		for {
			_, err := dec.Token()
			if err != nil {
				if err.Error() != "EOF" {
					t.Fatalf("loop SVG: %v\n%s", err, svg)
				}
				break
			}
		}
		for _, s := range loopSteps {
			if !strings.Contains(svg, s.label) {
				t.Errorf("the loop lacks %q", s.label)
			}
		}
	}
}

func TestSplitParagraphs(t *testing.T) {
	got := splitParagraphs("one\ntwo\n\n  three  \n\n\n")
	if len(got) != 2 || got[0] != "one two" || got[1] != "three" {
		t.Errorf("splitParagraphs = %q", got)
	}
	if got := firstSentence("First one. Second."); got != "First one." {
		t.Errorf("firstSentence = %q", got)
	}
}

// A pass's outcome is styled by what happened, not by its words: a crashed
// pass that acted first is a failure, not an action.
func TestOutcomeStyleFollowsTheResult(t *testing.T) {
	for o, want := range map[controller.Outcome]string{
		controller.InSync: "ok", controller.Acted: "acted", controller.Blocked: "bad", controller.Failed: "bad", controller.Crashed: "bad",
	} {
		if got := outcomeClass(o); got != want {
			t.Errorf("outcomeClass(%s) = %q, want %q", o, got, want)
		}
	}
}

// TestStatusSaysADrainStillRuns: in drain-waits-on-a-budget, at its symptom, the
// controllers have converged while kubectl drain still asks, every 5 s,
// for an eviction the budget refuses: the status says both, and stops
// saying the drain runs once it is not (before it, at pass 0).
func TestStatusSaysADrainStillRuns(t *testing.T) {
	status := func(p *Player) string {
		html := app.HTMLString(p.renderTransport(transport{}))
		i := strings.Index(html, `role="status"`)
		if i < 0 {
			t.Fatalf("no status in %s", html)
		}
		return html[i:]
	}
	p := openPlayer(t, "/s/drain-waits-on-a-budget")
	p.ses.PlayTo(session.SymptomAt(p.sc)) // as Play to the symptom does
	p.refresh()
	if p.alert != "" || p.view.Now != "2m0s" {
		t.Fatalf("at pass %d, t=%s, alert %q; want the symptom at t=2m0s", p.view.N, p.view.Now, p.alert)
	}
	if got := status(p); !strings.Contains(got, "converged · kubectl drain still running") {
		t.Errorf("at the symptom (t=%s) the status reads %q, want converged and the drain still running", p.view.Now, got)
	}
	p = openPlayer(t, "/s/drain-waits-on-a-budget?pass=0")
	if got := status(p); strings.Contains(got, "still running") {
		t.Errorf("before the drain the status reads %q", got)
	}
}
