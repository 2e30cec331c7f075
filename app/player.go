package app

import (
	"fmt"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/el"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
)

// Player is the scenario player, /s/{id}: the lesson, the stage (the loop
// lit for the current pass, the cluster, the inspector, the pass log, the
// transport, the fault palette) and, for a failure-table lesson, its row
// with the response.
//
// ?pass=N opens the run just after pass N (with &t=T, at the simulated time
// T that follows it without another pass: inputs after a pass are part of
// the moment); ?at=symptom opens a failure lesson at its symptom;
// ?play=symptom opens it at the start and plays it to its symptom, so the
// failure is seen developing (the failure table's Replay). In the browser,
// a ?pass=N that takes long to compute (thousands of passes of a big world)
// is computed a slice at a time, with its progress and a Cancel, the page
// usable meanwhile (catchup.go). Keys: Space play/pause, → next pass,
// ← previous pass, Home reset.
type Player struct {
	app.Compo
	stage

	id    string
	embed bool
	sc    *scenario.Scenario

	// missing is set when there is no bundled scenario with the id.
	missing bool
	// updatable is set when a new version of the site is ready.
	updatable bool

	embedCode string
	copied    string
	// atSymptom is set when the run was played to a failure's symptom.
	atSymptom bool
	// symptom is the pass the symptom showed in (session.SymptomPass),
	// shown in the now box while the run stays at symptomN, the pass it
	// was played to; symptomN is 0 when there is none to show.
	symptom  sim.Pass
	symptomN int
	// responded is set once the response has been applied.
	responded bool
	// responseGiven says that the run, at its current pass, has the
	// lesson's response (session.ResponseGiven), given after pass
	// responseAfter: the response button says so and is disabled.
	responseGiven bool
	responseAfter int
	// converged is what the host page was last told of convergence.
	converged bool
	// lookingAhead is set while a slice of the look-ahead is scheduled.
	lookingAhead bool
	// checks are the lesson's checks of the moment the run is at.
	checks evidence
	// told is how many moments of the lesson's story the run has reached.
	told int
	// asking is the question on screen before the next pass (predict);
	// answer says how the last one went; guesses are the lesson's
	// answers so far, kept in the browser.
	asking  *question
	answer  string
	answerN int
	guesses map[int]guess
	// replayed is the address whose ?play=symptom was played.
	replayed string
	// catching is the seek under way to a pass far ahead (catchup.go).
	catching *catchUp
	// laterHeight is the height (CSS pixels) of what the server's page
	// drew below the stage, kept while stage.later holds it back;
	// laterShown is how many of its groups (Player.below) are drawn.
	laterHeight float64
	laterShown  int
	// gcHeld is the catch-up whose pause of the collector lasts until
	// what the frame of its pass held back is drawn (resumeHeldGC).
	gcHeld *catchUp
}

// OnInit opens the lesson as early as it can in the browser, so the first
// render already shows it (the server opens it in OnNav).
func (p *Player) OnInit() {
	p.speed = defaultSpeed
	p.host = p
	p.openAbove = true // beside the story line
	// During an in-app navigation the address bar changes after the new
	// page is created: only trust it when it already names a lesson.
	if u := app.Window().URL(); app.IsClient && u != nil && strings.HasPrefix(u.Path, "/s/") {
		p.knowCompactNow()
		p.holdLater(u)
		p.open(u)
	}
}

// OnAppUpdate offers to reload when a new version has been installed.
func (p *Player) OnAppUpdate(ctx app.Context) {
	p.updatable = ctx.AppUpdateAvailable()
}

// OnNav opens the lesson named by the URL, at ?pass=N (or at its symptom).
func (p *Player) OnNav(ctx app.Context) {
	u := ctx.Page().URL()
	if challengeMode(u) && app.IsClient {
		// ?mode=challenge: the lesson's challenge, played in the playground.
		id := strings.Trim(strings.TrimPrefix(u.Path, "/s/"), "/")
		ctx.Navigate(challengeHref(id, embedded(u)))
		return
	}
	p.open(u)
	if p.sc != nil && p.sc.Title != "" {
		ctx.Page().SetTitle(p.sc.Title + " · Reconcile")
		ctx.Page().SetDescription(firstSentence(p.sc.Summary))
	}
	if u != nil && u.Query().Get("at") == "symptom" && p.ses != nil && app.IsClient {
		p.playToSymptom(ctx, false)
	}
	p.replay(ctx, u)
	if app.IsClient {
		p.hearAddress(ctx, &p.alert)
	}
	// A deep link's catch-up looks for a shipped snapshot at once: the
	// fetch goes on while the page mounts.
	p.fetchSnapshot(ctx)
	if p.mounted {
		// Opened by a link within the site: the page mounted before it
		// knew the lesson, so settle could not look ahead.
		p.lookAheadLater(ctx)
		p.loadGuesses(ctx)
		p.catchUpLater(ctx)
	}
}

// OnMount binds the keyboard and pauses play when the page is hidden.
func (p *Player) OnMount(ctx app.Context) {
	p.mount(ctx, p)
	p.loadGuesses(ctx)
	p.replay(ctx, ctx.Page().URL())
	notifyHost(eventPass, p.id, p.view.N)
	p.noteProgress(ctx) // opening a lesson is visiting it
	p.settle()
	p.catchUpLater(ctx)
	p.showLater(ctx)
}

// OnDismount unbinds the keyboard and stops playing.
func (p *Player) OnDismount() {
	p.dropCatchUp()
	p.dismount()
}

// busy implements stageHost: the player is busy while it computes its way
// to the pass a deep link names.
func (p *Player) busy() bool { return p.catching != nil }

// focusPass implements focuser: at a failure's symptom, until the run
// moves, the stage describes the pass the symptom showed in.
func (p *Player) focusPass(n int) *sim.Pass {
	if !p.atSymptom || p.responded || p.symptomN == 0 || p.symptomN != n || p.symptom.N == n {
		return nil
	}
	return &p.symptom
}

// changed implements stageHost: after every change the address bar, the
// host page and the look-ahead follow.
func (p *Player) changed(ctx app.Context, c change) {
	if c.reset {
		p.atSymptom = false
	}
	if c.moved || c.inputs {
		// A question is about the pass after the one it was asked at.
		p.asking = nil
	}
	p.readChecks()
	p.readResponse()
	p.settle()
	if c.moved || c.inputs {
		notifyHost(eventPass, p.id, p.view.N)
	}
	if p.view.Converged && !p.converged {
		notifyHost(eventConverged, p.id, p.view.N)
	}
	p.converged = p.view.Converged
	p.noteProgress(ctx)
}

// readResponse reads whether the run, where it is, has been given the
// lesson's response.
func (p *Player) readResponse() {
	p.responseGiven, p.responseAfter = false, 0
	if p.ses != nil && p.sc != nil {
		p.responseAfter, p.responseGiven = p.ses.ResponseGiven(p.sc)
	}
}

// Render draws the page.
func (p *Player) Render() app.UI {
	s := shell{embed: p.embed, alert: p.alert, updatable: p.updatable, wide: true, mainClass: "lesson-page"}
	if p.alert != "" && p.ses != nil {
		s.onDismiss = p.onDismiss
	}
	if p.missing {
		return s.render(
			el.H1().Text("No such lesson"),
			el.P().Body(
				app.Text("There is no bundled scenario called "),
				el.Code().Text(p.id),
				app.Text(". "),
				el.A().Attr("href", "/#lessons").Text("See the lessons"),
				app.Text("."),
			),
		)
	}
	if p.sc == nil {
		return s.render(el.H1().Text("Opening the lesson…"))
	}
	var logNote app.UI
	switch log := p.view.Log; {
	case len(log) == 0:
		logNote = el.P().Class("empty").Text("No pass has run yet.")
	case log[0].N > 1:
		logNote = el.P().Class("empty").Text(fmt.Sprintf("Showing the last %d passes.", len(log)))
	}
	if p.catching != nil {
		// What is below the stage describes a pass: none is shown until
		// the run is at the one asked for.
		return s.render(
			p.renderHead(),
			p.renderTransport(transport{lesson: p.id, extra: p.transportExtra(), busy: p.catchUpBusy()}),
			p.renderStoryLine(),
			p.renderStage(),
			p.renderCatchUpWait(),
			memoize(storyKey{p.id, p.told, p.tally()}, p.renderStory),
			memoize(aboutKey{p.id, p.embed}, p.renderAbout),
		)
	}
	parts := []app.UI{
		p.renderHead(),
		p.renderTransport(transport{lesson: p.id, extra: p.transportExtra(), busy: p.catchUpBusy()}),
		p.renderStoryLine(),
		p.renderStage(),
	}
	all := p.below(logNote)
	groups := all[:]
	if p.later {
		groups = groups[:min(p.laterShown, len(groups))]
	}
	for _, g := range groups {
		parts = append(parts, g()...)
	}
	if p.later {
		parts = append(parts, el.Div().Class("later").Style("min-height", fmt.Sprintf("%.0fpx", p.laterHeight)))
	}
	return s.render(parts...)
}

// The keys of the player's parts that change less often than every pass.
type (
	storyKey struct {
		id    string
		told  int
		tally string
	}
	aboutKey struct {
		id    string
		embed bool
	}
	failureKey struct {
		id, where string
		ready     bool
	}
	shareKey struct {
		digest      string
		n           int
		code, words string
	}
)

// transportExtra are the player's buttons after Next pass.
func (p *Player) transportExtra() []app.UI {
	return p.failureButtons()
}

// renderStage is what a learner watches: what the pass did and why, the
// loop as it ran, and the cluster with what changed.
func renderStageOf(s *stage, now app.UI) app.UI {
	return el.Div().Class("stage").Body(
		el.Div().Class("stage-now").Body(
			now,
			app.If(s.drawRing() && s.loop != "", func() app.UI { return el.Div().Class("loop-ring").Body(app.Raw(s.loop)) }),
		),
		s.renderCluster(),
	)
}

func (p *Player) renderStage() app.UI {
	if p.catching != nil {
		return p.renderCatchUp()
	}
	if p.asking != nil {
		return renderStageOf(&p.stage, p.renderQuestion())
	}
	note := p.notice
	if p.answer != "" && p.view.N == p.answerN {
		note = p.questionWords()
	}
	if note == "" && p.atSymptom && !p.responded {
		note = "This is the symptom. Its evidence: the lesson's checks and the inspector, below."
		if c := p.focusPass(p.view.N); c != nil {
			note = fmt.Sprintf("This is the symptom. It showed in pass %d at t=%s, described here; the world is at t=%s, where the lesson checks it. Its evidence: the lesson's checks and the inspector, below.",
				c.N, c.At, p.view.Now)
		}
	}
	return renderStageOf(&p.stage, p.renderNow(note))
}
