package app

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/session"
	"reconcile/engine/api"
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

// holdLater makes the first render, in the browser, of a lesson opened at
// its start draw only the first screen: the lesson's head, the transport
// and the stage. What is below (the story, the pass and the inspector, the
// checks, the faults, the log, the pseudocode, the share) is neither read
// nor drawn until the browser is idle after the page has shown (showLater)
// or the learner picks an object: a first visit compiles and runs only the
// code of what it shows before the learner can press Next pass. Meanwhile
// the space the server's page gave it is kept, so nothing on the page
// moves. A deep link (?pass, ?t, ?at, ?play, ?in) draws everything at once.
func (p *Player) holdLater(u *url.URL) {
	q := u.Query()
	for _, k := range []string{"pass", "t", "at", "play", "in"} {
		if q.Has(k) {
			return
		}
	}
	p.later, p.reader.NoInspector = true, true
	p.laterHeight, p.laterShown = 0, 0
	doc := app.Window().Get("document")
	main, stage := doc.Call("getElementById", "main"), doc.Call("querySelector", "#main > .stage")
	if main.Truthy() && stage.Truthy() {
		p.laterHeight = max(0, main.Call("getBoundingClientRect").Get("bottom").Float()-stage.Call("getBoundingClientRect").Get("bottom").Float())
	}
}

// showLater draws what holdLater held back, a group of Player.below each
// time the browser is idle: the page's thread is never busy for long, and
// an input meanwhile waits for one group at most.
func (p *Player) showLater(ctx app.Context) {
	if !p.later {
		return
	}
	whenIdle(ctx, func(ctx app.Context) {
		if !p.later || !p.mounted {
			return
		}
		p.laterShown++
		switch p.laterShown {
		case belowInspector + 1:
			p.reader.NoInspector = false
			// The run has not moved: the digest read meanwhile stands.
			digest, n := p.view.Digest, p.view.N
			p.refresh()
			if p.view.N == n && p.view.Digest == "" {
				p.view.Digest = digest
			}
		case belowChecks + 1:
			p.readChecks()
		}
		if p.laterShown == belowGroups {
			p.later = false
			return
		}
		p.showLater(ctx)
	})
}

// drawsChecks says whether the page draws the lesson's checks (and so reads
// them).
func (p *Player) drawsChecks() bool { return !p.later || p.laterShown > belowChecks }

// OnAppUpdate offers to reload when a new version has been installed.
func (p *Player) OnAppUpdate(ctx app.Context) {
	p.updatable = ctx.AppUpdateAvailable()
}

// OnNav opens the lesson named by the URL, at ?pass=N (or at its symptom).
func (p *Player) OnNav(ctx app.Context) {
	u := ctx.Page().URL()
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

// replay plays a failure lesson to its symptom when u asks for it
// (?play=symptom, the failure table's Replay), once per address, once the
// page is mounted (it plays on the page's clock).
func (p *Player) replay(ctx app.Context, u *url.URL) {
	if u == nil || u.Query().Get("play") != "symptom" || !p.mounted || p.ses == nil || p.sc.Failure == nil || p.replayed == u.String() {
		return
	}
	p.replayed = u.String()
	p.playToSymptom(ctx, true)
}

// OnDismount unbinds the keyboard and stops playing.
func (p *Player) OnDismount() {
	p.dropCatchUp()
	p.dismount()
}

// open loads the lesson of u (once per id) and seeks to u's ?pass=N.
func (p *Player) open(u *url.URL) {
	if u == nil {
		return
	}
	p.embed = embedded(u)
	id := strings.Trim(strings.TrimPrefix(u.Path, "/s/"), "/")
	defer releaseGC() // unless a catch-up took the pause over (catchup.go)
	if id != p.id || (p.ses == nil && !p.missing && p.alert == "") {
		// In the browser, a lesson opened at its start shows before the
		// player looks ahead to learn where the run ends (settle does, a
		// slice at a time): the learner need not wait for it.
		q := u.Query()
		if app.IsClient && q.Get("pass") != "" {
			holdGC() // a deep link: no collection while its world is built
		}
		p.load(id, app.IsClient && q.Get("pass") == "" && q.Get("t") == "" && q.Get("at") == "")
	}
	if p.ses == nil {
		return
	}
	want := 0
	if s := u.Query().Get("pass"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			p.alert = fmt.Sprintf("?pass=%s is not a pass number; showing the start of the run.", s)
		} else {
			want = n
		}
	}
	var at api.Time
	if s := u.Query().Get("t"); s != "" {
		d, err := api.ParseDuration(s)
		if err != nil {
			p.alert = fmt.Sprintf("?t=%s is not a simulated time; showing pass %d.", s, want)
		} else {
			at = d
		}
	}
	var inputs []sim.Given
	if s := u.Query().Get("in"); s != "" && len(p.ses.Inputs()) == 0 {
		var err error
		if inputs, err = parseInputsParam(s); err != nil {
			p.alert = err.Error() + "; showing the lesson without them."
		}
	}
	if len(inputs) == 0 && want == p.view.N && (at == 0 || at == p.ses.Now()) {
		return
	}
	if c := p.catching; c != nil {
		if len(inputs) == 0 && c.to == want && c.at == at {
			return // on its way there
		}
		p.dropCatchUp()
	}
	if len(inputs) > 0 {
		guard(&p.alert, "Giving the inputs of the address", func() {
			if err := giveInputs(p.ses, inputs); err != nil {
				p.alert = err.Error()
				p.ses.Seek(0)
			}
		})
	}
	// In the browser, a pass far ahead is computed a slice at a time, the
	// page showing the progress meanwhile (catchup.go); the rest of the
	// way there is then as below.
	first := catchUpAtOnce
	if p.ses.Big() {
		first = 0 // one pass: the catch-up looks for a snapshot first
	}
	if app.IsClient && !p.beginCatchUp(want, at, first) {
		return
	}
	guard(&p.alert, fmt.Sprintf("Going to pass %d", want), func() {
		switch {
		case at == 0:
			if err := p.ses.Seek(want); err != nil {
				p.alert = err.Error()
			}
		case !p.ses.AtTime(want, at):
			p.alert = fmt.Sprintf("Pass %d is not followed by t=%s without another pass; showing pass %d.", want, at, want)
		}
	})
	p.refresh()
	p.readChecks()
}

// load reads the bundled scenario id and prepares a run of it. With later
// set, the look-ahead is only begun: settle runs it.
func (p *Player) load(id string, later bool) {
	// Field by field: the embedded app.Compo belongs to go-app.
	p.id, p.sc = id, nil
	p.missing, p.alert, p.notice = false, "", ""
	p.atSymptom, p.responded, p.embedCode, p.copied, p.converged = false, false, "", "", false
	p.asking, p.answer, p.guesses = nil, "", nil
	p.dropCatchUp()
	p.use(nil)
	sc, found, err := openLesson(id)
	switch {
	case !found:
		p.missing = true
		return
	case err != nil:
		p.alert = "This lesson cannot be read: " + err.Error()
		return
	}
	p.sc = sc
	var ses *session.Session
	guard(&p.alert, "Starting the simulation", func() {
		s, err := session.Start(sc.Config())
		if err != nil {
			p.alert = "The simulation cannot start: " + err.Error()
			return
		}
		switch known, final, ok := prerenderedEnd(id); {
		case !later && !(app.IsClient && s.Big()):
			// In the browser, a big world's deep link looks ahead a
			// slice at a time too: its catch-up (and the snapshot it
			// may fetch) must not wait for a look-ahead from the start.
			// The prerender looks ahead here: the page it writes says
			// how far the run is known to go.
			s.LookAhead()
		case ok:
			// What the server's look-ahead learned, until the browser's own
			// confirms it: the page shows what the prerendered page showed.
			s.Assume(known, final)
			s.BeginLookAhead()
		default:
			s.BeginLookAhead()
		}
		ses = s
	})
	p.use(ses)
	p.reader.Moments = nil
	if sc.Failure != nil {
		p.reader.Moments = []session.Moment{{At: session.SymptomAt(sc), Kind: session.MarkSymptom, Label: "the symptom: " + sc.Failure.Symptom}}
	}
	p.refresh()
	p.readChecks()
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

// settle does, once the page has shown a pass and the browser is idle,
// what would delay it: it puts the pass in the address bar and computes the
// trace digest (which hashes the whole world). While playing it waits for
// the pause.
func (p *Player) settle() {
	if !app.IsClient || !p.mounted || p.ses == nil || p.clock.running() || p.catching != nil {
		return // while it computes its way to a pass, the address keeps it
	}
	n := p.view.N
	p.ctx.Defer(func(ctx app.Context) {
		if p.ses == nil || p.view.N != n {
			return
		}
		// All of it waits for the browser to show the page and handle what
		// the learner did meanwhile: even the address (history.replaceState
		// takes milliseconds of the page's thread, measured at 3.5 ms a
		// click in Chromium's profile of make bench's clicks).
		whenIdle(ctx, func(ctx app.Context) {
			if p.ses == nil || p.view.N != n || p.clock.running() {
				return
			}
			p.remember()
			if p.view.Digest == "" {
				guard(&p.alert, "Computing the digest", func() { p.view.Digest = p.ses.Digest() })
			}
			// A look-ahead that ran out of its time (a busy machine) starts
			// again when the learner comes near the end it found.
			if s := p.ses; !s.Final() && !s.LookingAhead() && s.Known()-s.N() < lookAheadAgain {
				s.BeginLookAhead()
			}
			p.lookAheadLater(ctx)
		})
	})
}

// prerenderedEnd reads, from the page the server prerendered for lesson id
// at its start (still in the document while the player first renders),
// how far the server's look-ahead found the run to go.
func prerenderedEnd(id string) (known int, final, ok bool) {
	if !app.IsClient {
		return 0, false, false
	}
	el := app.Window().Get("document").Call("querySelector", `[role="status"][data-lesson="`+id+`"]`)
	if !el.Truthy() {
		return 0, false, false
	}
	ds := el.Get("dataset")
	known, err := strconv.Atoi(ds.Get("known").String())
	if err != nil || known < 0 {
		return 0, false, false
	}
	// go-app writes a true data-final with no value and a false one as
	// data-final="false".
	final = el.Call("hasAttribute", "data-final").Bool() && ds.Get("final").String() != "false"
	return known, final, true
}

// lookAheadAgain is how near the end of the timeline as far as it is
// known (a look-ahead that ran out of time) the learner comes before the
// player looks further.
const lookAheadAgain = 50

// lookAheadSlice is how long the player looks ahead at a time, between two
// chances for the browser to paint and handle an input.
const lookAheadSlice = 8 * time.Millisecond

// lookAheadLater runs the session's look-ahead (if one is under way) a
// slice at a time when the browser is idle, so that it paints and handles
// input between slices, then shows where the run ends.
func (p *Player) lookAheadLater(ctx app.Context) {
	ses := p.ses
	if ses == nil || !ses.LookingAhead() || p.lookingAhead {
		return
	}
	p.lookingAhead = true
	whenIdle(ctx, func(ctx app.Context) {
		p.lookingAhead = false
		if p.ses != ses || !p.mounted {
			return
		}
		done := true
		guard(&p.alert, "Looking ahead", func() { done = ses.LookAheadSome(lookAheadSlice) })
		if !done {
			ctx.PreventUpdate()
			p.lookAheadLater(ctx)
			return
		}
		ses.StopLookAhead()
		// Where the run ends, and the marks and the start-up that only a
		// look-ahead finds. The run has not moved: its digest stands.
		digest, n := p.view.Digest, p.view.N
		p.refresh()
		if p.view.N == n && p.view.Digest == "" {
			p.view.Digest = digest
		}
	})
}

// remember puts the current pass in the address bar (?pass=N), so a reload
// or a copied link opens the same moment. (The log keeps its newest pass in
// view by itself: see .log-scroll in app.css; reading its height here would
// make the browser lay out the whole page on every pass.)
func (p *Player) remember() {
	if !app.IsClient || p.ses == nil {
		return
	}
	u := app.Window().URL()
	q := u.Query()
	q.Del("at")
	momentQuery(q, p.ses)
	u.RawQuery = q.Encode()
	app.Window().Get("history").Call("replaceState", nil, "", u.String())
}

func (p *Player) onCopyEmbed(ctx app.Context, e app.Event) {
	if p.sc == nil {
		return
	}
	q := url.Values{}
	if p.ses != nil {
		momentQuery(q, p.ses)
	}
	p.embedCode = embedSnippet(siteOrigin(), p.id, p.sc.Title, q)
	p.copied = "Copying…"
	copyText(p.ctx, p.embedCode, func(ctx app.Context, ok bool) {
		if ok {
			p.copied = "Copied to the clipboard. Paste it into your course page."
		} else {
			p.copied = "Select the code below and copy it."
		}
	})
}

// Render draws the page.
func (p *Player) Render() app.UI {
	s := shell{embed: p.embed, alert: p.alert, updatable: p.updatable, wide: true, mainClass: "lesson-page"}
	if p.alert != "" && p.ses != nil {
		s.onDismiss = p.onDismiss
	}
	if p.missing {
		return s.render(
			app.H1().Text("No such lesson"),
			app.P().Body(
				app.Text("There is no bundled scenario called "),
				app.Code().Text(p.id),
				app.Text(". "),
				app.A().Href("/#lessons").Text("See the lessons"),
				app.Text("."),
			),
		)
	}
	if p.sc == nil {
		return s.render(app.H1().Text("Opening the lesson…"))
	}
	var logNote app.UI
	switch log := p.view.Log; {
	case len(log) == 0:
		logNote = app.P().Class("empty").Text("No pass has run yet.")
	case log[0].N > 1:
		logNote = app.P().Class("empty").Text(fmt.Sprintf("Showing the last %d passes.", len(log)))
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
		parts = append(parts, app.Div().Class("later").Style("min-height", fmt.Sprintf("%.0fpx", p.laterHeight)))
	}
	return s.render(parts...)
}

// The groups of Player.below that read something more from the run.
const (
	belowInspector = 1 // the pass and the inspector
	belowChecks    = 2 // the lesson's checks and the faults
	belowGroups    = 4
)

// below are the parts of the page under the stage, in the groups that
// showLater draws one at a time on a first visit.
func (p *Player) below(logNote app.UI) [belowGroups]func() []app.UI {
	return [belowGroups]func() []app.UI{
		func() []app.UI {
			return []app.UI{
				memoize(storyKey{p.id, p.told, p.tally()}, p.renderStory),
				memoize(aboutKey{p.id, p.embed}, p.renderAbout),
				memoize(failureKey{p.id, p.failureWhere(), p.view.Ready}, p.renderFailure),
			}
		},
		belowInspector: func() []app.UI {
			return []app.UI{app.Div().Class("workspace").Body(p.renderPass(), p.renderInspector())}
		},
		belowChecks: func() []app.UI {
			return []app.UI{app.Div().Class("workspace").Body(
				memoize(p.checks.key(p.view.Now), func() app.UI { return renderChecks(p.checks, p.view.Now) }),
				memoize(p.faultsKey(), p.renderFaults),
			)}
		},
		func() []app.UI {
			return []app.UI{
				p.renderLog(logNote),
				memoize(pseudoKeyOf(p.view.Pseudocode), func() app.UI { return renderPseudocode(p.view.Pseudocode) }),
				memoize(shareKey{p.view.Digest, p.view.N, p.embedCode, p.copied}, p.renderShare),
			}
		},
	}
}

// renderHead is the lesson's title. Embedded, the course page around the
// frame says what the lesson is: the title is for screen readers only.
func (p *Player) renderHead() app.UI {
	title := app.H1().ID("lesson-title").Text(p.sc.Title)
	if p.embed {
		title = app.H1().ID("lesson-title").Class("visually-hidden").Text(p.sc.Title)
	}
	return app.Article().Class("lesson").Aria("labelledby", "lesson-title").Body(title)
}

// renderStoryLine is the lesson's line for this moment: the lead before
// the run, then the latest moment of the story the run has reached (the
// story so far and the whole summary are below the stage). It comes after
// the transport, so that however many lines it takes, the transport stays
// where it is. Two lines show; the expander beside it opens, in place, the
// whole line and all that the now box under it keeps short.
func (p *Player) renderStoryLine() app.UI {
	line, count := p.sc.Lead, ""
	if p.told > 0 {
		line = p.sc.Story[p.told-1].Say
		count = fmt.Sprintf("%d/%d ", p.told, len(p.sc.Story))
	}
	class := "story-line-box" + lengthClass(len(count)+len(line))
	controls := "story-line"
	if p.asking == nil && p.catching == nil {
		// The expander opens the now box's text too: a compact stage
		// always cuts some (the loop's values), a wide one a long sentence.
		class, controls = class+" with-now", controls+" now"
		if p.nowLong(p.nowWords()) {
			class += " long3"
		}
	}
	if p.nowOpen {
		class += " open"
	}
	return app.Div().Class(class).Body(
		app.P().ID("story-line").Class("story-line").Aria("live", "polite").Title(line).Body(
			app.If(count != "", func() app.UI { return app.Span().Class("story-count").Aria("hidden", "true").Text(count) }),
			app.Text(line),
		),
		expander(controls, p.nowOpen, p.onNowOpen),
	)
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

// renderStory is the lesson's story so far, and the moments still to come
// counted (not told: the run tells them).
func (p *Player) renderStory() app.UI {
	if len(p.sc.Story) == 0 {
		return nil
	}
	told := p.sc.Story[:p.told]
	return app.Section().Class("story").Aria("labelledby", "story-title").Body(
		app.H2().ID("story-title").Text("The story so far"),
		app.If(len(told) == 0, func() app.UI {
			return app.P().Class("muted").Text(p.sc.Lead + " The story is told as the run reaches its moments: press Next pass or Play.")
		}).Else(func() app.UI {
			return app.Ol().Body(app.Range(told).Slice(func(i int) app.UI {
				return app.Li().Body(app.Span().Class("muted").Text("t="+told[i].At.String()+" "), app.Text(told[i].Say))
			}))
		}),
		app.If(p.told < len(p.sc.Story), func() app.UI {
			return app.P().Class("muted").Text(fmt.Sprintf("%d more moments to come.", len(p.sc.Story)-p.told))
		}),
		app.If(p.tally() != "", func() app.UI { return app.P().Class("tally").Text(p.tally()) }),
	)
}

// renderAbout is the whole lesson text, and the way to try it yourself.
func (p *Player) renderAbout() app.UI {
	try := app.A().Href("/play?from=" + p.id).Text("Try it yourself")
	if p.embed {
		try = try.Target("_blank").Rel("noopener")
	}
	return app.Details().Class("about").Body(
		app.Summary().Text("About this lesson"),
		app.Div().Class("summary").Body(paragraphs(p.sc.Summary)...),
		app.P().Class("try").Body(try, app.Text(": edit its desired state, run kubectl, break it and fork its future.")),
	)
}

// transportExtra are the player's buttons after Next pass.
func (p *Player) transportExtra() []app.UI {
	return p.failureButtons()
}

// readChecks reads the lesson's checks of the moment the run is at.
func (p *Player) readChecks() {
	if p.ses == nil || p.sc == nil {
		p.checks = evidence{}
		return
	}
	guard(&p.alert, "Reading the lesson's checks", func() {
		if p.drawsChecks() {
			p.checks = readEvidence(p.ses, p.sc)
		}
		now := p.ses.Now()
		p.told = 0
		for _, m := range p.sc.Story {
			if m.At > now || p.ses.N() == 0 {
				break // before the first pass, the lead
			}
			p.told++
		}
	})
}

// renderStage is what a learner watches: what the pass did and why, the
// loop as it ran, and the cluster with what changed.
func renderStageOf(s *stage, now app.UI) app.UI {
	return app.Div().Class("stage").Body(
		app.Div().Class("stage-now").Body(
			now,
			app.If(s.drawRing() && s.loop != "", func() app.UI { return app.Div().Class("loop-ring").Body(app.Raw(s.loop)) }),
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

// renderShare offers the embed code and shows the trace digest.
func (p *Player) renderShare() app.UI {
	return app.Section().Class("share").Aria("labelledby", "share-title").Body(
		app.H2().ID("share-title").Text("Share"),
		app.P().Body(
			app.Text("The address bar links to this exact pass. "),
			app.Button().Type("button").Class("quiet").Text("Copy embed code").OnClick(p.onCopyEmbed),
		),
		app.If(p.embedCode != "", func() app.UI {
			return app.Div().Class("embed-code").Body(
				app.P().Aria("live", "polite").Text(p.copied),
				app.Label().For("embed-code").Text("Embed code"),
				app.Textarea().ID("embed-code").ReadOnly(true).Rows(3).Text(p.embedCode),
			)
		}),
		app.Details().Class("digest").Body(
			app.Summary().Text("Trace digest"),
			app.P().Body(
				app.Text("The same lesson, the same inputs and the same pass give the same digest, here and in the command line: "),
				app.Code().DataSet("digest", p.view.Digest).DataSet("pass", p.view.N).Text(orDash(p.view.Digest)),
			),
		),
	)
}
