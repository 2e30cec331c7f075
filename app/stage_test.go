package app

import (
	"html"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/session"
	"reconcile/engine/sim"
	"reconcile/scenarios"
)

// "Converged" is said only when the engine says the world has converged;
// otherwise the page says what is still moving. These are the moments a
// learner was once told "converged" while the cluster plainly was not.
func TestConvergedIsSaidOnlyWhenTheWorldHasConverged(t *testing.T) {
	for _, c := range []struct {
		lesson string
		pass   int
		moving string // what the stage must say is still moving
	}{
		{"self-healing", 34, "replicaset web-5c6b78cfd9 has 4 of 5 pods"},
		{"node-dies-at-3am", 38, "node worker-2 NotReady: pods evicted at t=6m15s"},
		{"edit-reverts", 51, "terminating"},
		{"apply-is-not-running", 20, "0 of 5 updated replicas are available"},
	} {
		p := openPlayer(t, "/s/"+c.lesson+"?pass="+itoa(c.pass))
		if p.view.N != c.pass || p.alert != "" {
			t.Fatalf("%s: opened at pass %d, alert %q", c.lesson, p.view.N, p.alert)
		}
		page := app.HTMLString(p.Render())
		status := between(page, `role="status"`, "</p>")
		if strings.Contains(status, "· converged") || !strings.Contains(status, "not converged") {
			t.Errorf("%s pass %d: status %q", c.lesson, c.pass, status)
		}
		if !strings.Contains(page, "Not converged yet: </b>") || !strings.Contains(page, c.moving) {
			t.Errorf("%s pass %d: the stage does not say %q is still moving", c.lesson, c.pass, c.moving)
		}
		if strings.Contains(page, ">Converged: </b>") {
			t.Errorf("%s pass %d: the stage says converged", c.lesson, c.pass)
		}
		// A pass that found its key in sync says so, not "converged".
		if cur := p.view.Current; cur != nil && strings.Contains(cur.Outcome, "converged") {
			t.Errorf("%s pass %d: the pass's outcome is %q", c.lesson, c.pass, cur.Outcome)
		}
	}
	// At the end of the default lesson the world has converged, and the
	// page says so.
	p := openPlayer(t, "/s/"+scenarios.Default)
	var ctx app.Context
	for i := 0; i < 5000 && !p.view.AtEnd; i++ {
		p.next(ctx)
		if p.asking != nil {
			p.answerQuestion(ctx, -1)
		}
	}
	page := app.HTMLString(p.Render())
	if !p.view.Converged || !strings.Contains(page, ">Converged: </b>") || !strings.Contains(page, "converged: nothing more happens") {
		t.Errorf("at the end: converged %v (%s), the page does not say so", p.view.Converged, p.view.Why)
	}
}

// between returns what follows from in s, up to to.
func between(s, from, to string) string {
	_, rest, _ := strings.Cut(s, from)
	got, _, _ := strings.Cut(rest, to)
	return got
}

// The lesson's checks panel shows the checks of the moment the run has
// reached, and only those, each true or false now.
func TestChecksAreThoseOfThisMoment(t *testing.T) {
	sc, err := scenarios.Load("stuck-rollout")
	if err != nil {
		t.Fatal(err)
	}
	p := openPlayer(t, "/s/stuck-rollout")
	var ctx app.Context
	p.playToSymptom(ctx, false)
	at := session.SymptomAt(sc)
	var want []string
	for _, e := range sc.Expect {
		if e.At == at {
			want = append(want, e.That)
		}
	}
	ev := p.checks
	if !ev.ok || ev.at != at.String() || len(ev.lines) != len(want) {
		t.Fatalf("at the symptom (t=%s): checks at %s, %d lines; want %d of t=%s", p.view.Now, ev.at, len(ev.lines), len(want), at)
	}
	panel := between(app.HTMLString(p.Render()), `id="checks-title"`, "</section>")
	if n := strings.Count(panel, "<li"); n != len(want) {
		t.Errorf("the panel lists %d checks, want %d", n, len(want))
	}
	for _, e := range sc.Expect {
		if e.That == "" {
			continue
		}
		shown := strings.Contains(panel, ">"+html.EscapeString(e.That)+"<")
		if e.At == at && !shown {
			t.Errorf("the check of this moment %q is not shown", e.That)
		}
		if e.At != at && shown && !contains(want, e.That) {
			t.Errorf("a check of t=%s is shown at t=%s: %q", e.At, at, e.That)
		}
	}
	for _, l := range ev.lines {
		if !l.Holds {
			t.Errorf("at its own symptom, the lesson's check %q does not hold: %s", l.Text, l.Got)
		}
	}
	// Before the first moment the lesson checks, the panel says when.
	p = openPlayer(t, "/s/stuck-rollout?pass=1")
	if page := app.HTMLString(p.Render()); !strings.Contains(page, html.EscapeString("The lesson's first checks come at t=")) {
		t.Errorf("before its first moment, the panel does not say when the lesson checks")
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// A lesson's predict marks ask before the pass they name, with choices
// made from that pass; the answer is the pass's own; an input cancels the
// lesson's questions (its future is another).
func TestPredictAsksBeforeThePassItNames(t *testing.T) {
	p := openPlayer(t, "/s/apply-is-not-running")
	var ctx app.Context
	p.next(ctx)
	q := p.asking
	if q == nil || p.view.N != 0 {
		t.Fatalf("the first Next pass did not ask (pass %d)", p.view.N)
	}
	if !strings.Contains(q.text, "which controller acts next") || q.choices[q.right] != "deployment-controller" {
		t.Errorf("question %q, choices %q, right %d", q.text, q.choices, q.right)
	}
	page := app.HTMLString(p.Render())
	for _, want := range []string{`id="predict-title"`, ">Skip the question</button>", ">deployment-controller</button>"} {
		if !strings.Contains(page, want) {
			t.Errorf("the question lacks %q", want)
		}
	}
	p.next(ctx) // Next pass again: the question waits for its answer
	if p.view.N != 0 || p.asking == nil {
		t.Errorf("Next pass ran past the question: pass %d", p.view.N)
	}
	wrong := (q.right + 1) % len(q.choices)
	p.answerQuestion(ctx, wrong)
	if p.view.N != 1 || p.view.Current.Controller != "deployment-controller" {
		t.Fatalf("after the answer: pass %d by %v", p.view.N, p.view.Current)
	}
	if g := p.guesses[q.mark]; g.Right || g.Choice != q.choices[wrong] {
		t.Errorf("guess recorded as %+v", g)
	}
	if page := app.HTMLString(p.Render()); !strings.Contains(page, "The pass shows otherwise: deployment-controller") {
		t.Errorf("the stage does not say the guess was wrong")
	}

	// A count question: node-dies-at-3am asks how many pods the
	// replicaset-controller creates after the eviction.
	p = openPlayer(t, "/s/node-dies-at-3am?pass=43")
	p.guesses = map[int]guess{0: {Skipped: true}}
	p.next(ctx)
	if q := p.asking; q == nil || !strings.Contains(q.text, "how many pods will it create") || q.choices[q.right] != "2" {
		t.Fatalf("at pass 43: question %+v", p.asking)
	}
	p.answerQuestion(ctx, p.asking.right)
	if !p.guesses[1].Right || !strings.Contains(app.HTMLString(p.Render()), "Your guess was right: 2.") {
		t.Errorf("a right guess: %+v", p.guesses[1])
	}

	// After an input the lesson does not ask.
	p = openPlayer(t, "/s/apply-is-not-running")
	if _, err := p.ses.Inject(sim.Kubectl{Line: "get pods"}); err != nil {
		t.Fatal(err)
	}
	p.refresh()
	p.next(ctx)
	if p.asking != nil || p.view.N != 1 {
		t.Errorf("after an input: asking %v, pass %d", p.asking != nil, p.view.N)
	}
}

// Next event stops before a predict mark's pass and asks, rather than
// running past the moment the question is about.
func TestNextEventStopsAtAQuestion(t *testing.T) {
	var ctx app.Context
	p := openPlayer(t, "/s/node-dies-at-3am?pass=43")
	p.guesses = map[int]guess{0: {Skipped: true}}
	want := p.view.N
	// Pass 43 is the last before the count question's moment: Next event
	// runs nothing and asks.
	p.nextEvent(ctx)
	if p.asking == nil || p.view.N != want {
		t.Fatalf("Next event at pass %d: asking %v, now at pass %d", want, p.asking != nil, p.view.N)
	}

	// A learner who presses only Next event meets every question of every
	// lesson (without the stop, stuck-rollout, two-controllers-fight and
	// self-healing-is-not-ha ran past one).
	for _, id := range scenarios.Ordered() {
		p := openPlayer(t, "/s/"+id)
		p.guesses = map[int]guess{}
		asked := 0
		for i := 0; i < 1000 && !p.view.AtEnd; i++ {
			if p.asking != nil {
				asked++
				p.answerQuestion(ctx, -1)
				continue
			}
			p.nextEvent(ctx)
		}
		if asked != len(p.sc.Predict) {
			t.Errorf("%s: Next event alone met %d of its %d questions", id, asked, len(p.sc.Predict))
		}
	}
}

// A page draws before it has a run (the server prerenders /play before
// any work is open) without failing.
func TestPagesDrawBeforeARun(t *testing.T) {
	for _, c := range []app.Composer{&Playground{}, &Player{}, &Player{sc: loadInline(t, stuckRollout)}} {
		if html := app.HTMLString(c.Render()); html == "" {
			t.Errorf("%T draws nothing", c)
		}
	}
}

// A question comes after the story has told what motivates it: when a
// lesson asks, every moment of its story before the pass it asks about has
// been told, and the story line says the latest of them; nothing the story
// says at the pass or after it (the answer) is told yet. The clock stood
// still for the question (no pass ran), so the pass that runs after the
// answer is the one asked about, the same pass as a run that never
// stopped: the same digest. (node-dies-at-3am asked before its story
// said that worker-2 lost power.)
func TestPredictComesAfterTheStoryThatMotivatesIt(t *testing.T) {
	var ctx app.Context
	lessons := 0
	for _, id := range scenarios.Ordered() {
		p := openPlayer(t, "/s/"+id)
		if len(p.sc.Predict) == 0 {
			continue
		}
		lessons++
		p.guesses = map[int]guess{}
		asked := 0
		for i := 0; i < 5000 && !p.view.AtEnd && asked < len(p.sc.Predict); i++ {
			p.next(ctx)
			q := p.asking
			if q == nil {
				continue
			}
			asked++
			at := nativeRun(t, id, q.n)
			pass, _ := at.Pass(q.n)
			want := 0
			for _, m := range p.sc.Story {
				if m.At < pass.At {
					want++
				}
			}
			if p.told != want {
				t.Errorf("%s: asked before pass %d (t=%s) with %d moments of the story told, want %d (the clock at %s)",
					id, q.n, pass.At, p.told, want, p.ses.Now())
			}
			if p.view.N != q.n-1 {
				t.Errorf("%s: the question about pass %d is asked at pass %d", id, q.n, p.view.N)
			}
			if want > 0 {
				if line := app.HTMLString(p.renderStoryLine()); !strings.Contains(line, p.sc.Story[want-1].Say[:40]) {
					t.Errorf("%s: asked before pass %d, the story line is %s, want moment %d", id, q.n, line, want)
				}
			}
			p.answerQuestion(ctx, -1)
			if p.view.N != q.n {
				t.Fatalf("%s: the answer ran to pass %d, want %d", id, p.view.N, q.n)
			}
			if got, want := p.ses.Digest(), at.Digest(); got != want {
				t.Errorf("%s: pass %d after the question has digest %s, without stopping %s", id, q.n, got, want)
			}
		}
		if asked != len(p.sc.Predict) {
			t.Errorf("%s: Next pass met %d of its %d questions", id, asked, len(p.sc.Predict))
		}
	}
	if lessons < 6 {
		t.Errorf("%d lessons ask: want at least 6", lessons)
	}
}

// The inspector is drawn again when what it shows changes: its part's key
// changes with every reading put in it, a reading of the same pass too.
func TestInspectorPartKey(t *testing.T) {
	p := openPlayer(t, "/s/"+scenarios.Default)
	var ctx app.Context
	key := func() inspectorKey { return p.inspectorPart().(*memo[inspectorKey]).Key }
	before := key()
	p.next(ctx)
	if p.asking != nil {
		p.answerQuestion(ctx, -1)
	}
	after := key()
	if after == before {
		t.Fatalf("the inspector's key %+v did not change with a step", after)
	}
	if !strings.Contains(app.HTMLString(p.renderInspector()), p.inspection.Ref.Name) || p.inspection.Ref.Kind == "" {
		t.Errorf("after pass %d the inspector shows %+v", p.view.N, p.inspection.Ref)
	}
	p.refresh()
	if key() == after {
		t.Errorf("a reading shown again kept the key %+v", after)
	}
}
