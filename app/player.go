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
)

// Player is the scenario player, /s/{id}: the lesson, the stage (the loop
// lit for the current pass, the cluster, the inspector, the pass log, the
// transport, the fault palette) and, for a failure-table lesson, its row
// with the response.
//
// ?pass=N opens the run just after pass N (with &t=T, at the simulated time
// T that follows it without another pass: inputs after a pass are part of
// the moment); ?at=symptom plays a failure lesson to its symptom. Keys:
// Space play/pause, → next pass, ← previous pass, Home reset.
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
	// responded is set once the response has been applied.
	responded bool
	// converged is what the host page was last told of convergence.
	converged bool
	// lookingAhead is set while a slice of the look-ahead is scheduled.
	lookingAhead bool
}

// OnInit opens the lesson as early as it can in the browser, so the first
// render already shows it (the server opens it in OnNav).
func (p *Player) OnInit() {
	p.speed = defaultSpeed
	p.host = p
	// During an in-app navigation the address bar changes after the new
	// page is created: only trust it when it already names a lesson.
	if u := app.Window().URL(); app.IsClient && u != nil && strings.HasPrefix(u.Path, "/s/") {
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
	p.open(u)
	if p.sc != nil && p.sc.Title != "" {
		ctx.Page().SetTitle(p.sc.Title + " · Reconcile")
		ctx.Page().SetDescription(firstSentence(p.sc.Summary))
	}
	if u != nil && u.Query().Get("at") == "symptom" && p.ses != nil && app.IsClient {
		p.playToSymptom(ctx)
	}
	if p.mounted {
		// Opened by a link within the site: the page mounted before it
		// knew the lesson, so settle could not look ahead.
		p.lookAheadLater(ctx)
	}
}

// OnMount binds the keyboard and pauses play when the page is hidden.
func (p *Player) OnMount(ctx app.Context) {
	p.mount(ctx, p)
	notifyHost(eventPass, p.id, p.view.N)
	p.settle()
}

// OnDismount unbinds the keyboard and stops playing.
func (p *Player) OnDismount() { p.dismount() }

// open loads the lesson of u (once per id) and seeks to u's ?pass=N.
func (p *Player) open(u *url.URL) {
	if u == nil {
		return
	}
	p.embed = embedded(u)
	id := strings.Trim(strings.TrimPrefix(u.Path, "/s/"), "/")
	if id != p.id || (p.ses == nil && !p.missing && p.alert == "") {
		// In the browser, a lesson opened at its start shows before the
		// player looks ahead to learn where the run ends (settle does, a
		// slice at a time): the learner need not wait for it.
		q := u.Query()
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
	if want == p.view.N && (at == 0 || at == p.ses.Run().Now()) {
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
}

// load reads the bundled scenario id and prepares a run of it. With later
// set, the look-ahead is only begun: settle runs it.
func (p *Player) load(id string, later bool) {
	// Field by field: the embedded app.Compo belongs to go-app.
	p.id, p.sc = id, nil
	p.missing, p.alert, p.notice = false, "", ""
	p.atSymptom, p.responded, p.embedCode, p.copied, p.converged = false, false, "", "", false
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
		case !later:
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
}

// busy implements stageHost: the player is never busy.
func (p *Player) busy() bool { return false }

// changed implements stageHost: after every change the address bar, the
// host page and the look-ahead follow.
func (p *Player) changed(ctx app.Context, c change) {
	if c.reset {
		p.atSymptom = false
	}
	p.settle()
	if c.moved || c.inputs {
		notifyHost(eventPass, p.id, p.view.N)
	}
	if p.view.Converged && !p.converged {
		notifyHost(eventConverged, p.id, p.view.N)
	}
	p.converged = p.view.Converged
}

// settle does, just after the page shows a pass, what would delay it: it
// puts the pass in the address bar and computes the trace digest (which
// hashes the whole world). While playing it waits for the pause.
func (p *Player) settle() {
	if !app.IsClient || !p.mounted || p.ses == nil || p.clock.running() {
		return
	}
	n := p.view.N
	p.ctx.Defer(func(ctx app.Context) {
		if p.ses == nil || p.view.N != n {
			return
		}
		p.remember()
		// The rest waits for the browser to show the page and handle what
		// the learner did meanwhile.
		whenIdle(ctx, func(ctx app.Context) {
			if p.ses == nil || p.view.N != n || p.clock.running() {
				return
			}
			if p.view.Digest == "" {
				guard(&p.alert, "Computing the digest", func() { p.view.Digest = p.ses.Run().Digest() })
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
	return known, el.Call("hasAttribute", "data-final").Bool(), true
}

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
		p.view.Known, p.view.Final, p.view.AtEnd = ses.Known(), ses.Final(), ses.AtEnd()
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
	if p.view.N == 0 {
		q.Del("pass")
	} else {
		q.Set("pass", strconv.Itoa(p.view.N))
	}
	// Inputs and waiting after the pass are part of the moment too.
	if p.ses.BeyondLastPass() > 0 {
		q.Set("t", p.ses.Run().Now().String())
	} else {
		q.Del("t")
	}
	u.RawQuery = q.Encode()
	app.Window().Get("history").Call("replaceState", nil, "", u.String())
}

func (p *Player) onCopyEmbed(ctx app.Context, e app.Event) {
	if p.sc == nil {
		return
	}
	p.embedCode = embedSnippet(siteOrigin(), p.id, p.sc.Title)
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
	s := shell{embed: p.embed, alert: p.alert, updatable: p.updatable}
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
	return s.render(
		app.Article().Class("lesson").Aria("labelledby", "lesson-title").Body(
			app.H1().ID("lesson-title").Text(p.sc.Title),
			app.Div().Class("summary").Body(paragraphs(p.sc.Summary)...),
			app.P().Class("try").Body(app.A().Href("/play?from="+p.id).Text("Try it yourself"), app.Text(": edit its desired state, run kubectl, break it and fork its future.")),
		),
		p.renderFailure(),
		p.renderTransport(transport{lesson: p.id}),
		app.If(p.notice != "", func() app.UI {
			return app.P().Class("notice").Text(p.notice)
		}),
		app.Div().Class("stage").Body(p.renderPass(), p.renderSide()),
		app.Div().Class("workspace").Body(p.renderCluster(), p.renderInspector()),
		app.Div().Class("workspace").Body(p.renderFaults(), p.renderLog(logNote)),
		p.renderShare(),
	)
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
		app.P().Class("digest").Body(
			app.Text("Trace digest "),
			app.Code().DataSet("digest", p.view.Digest).DataSet("pass", p.view.N).Text(orDash(p.view.Digest)),
		),
	)
}
