package app

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/engine/api"
	"reconcile/engine/assertion"
	"reconcile/engine/controller"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
)

// logStep is how far the pass log's window moves: it shows the latest 25
// to 50 passes. A pass touches one key, and so does a render.
const logStep = 25

// historyShown is how many of the latest inputs the fault palette lists.
const historyShown = 8

// maxActionsShown is how many of a pass's actions the pass details list.
const maxActionsShown = 5

// Player is the scenario player, /s/{id}: the lesson, the loop lit for the
// current pass, the cluster, the inspector, the pass log, the transport bar,
// the fault palette and, for a failure-table lesson, its row with the
// response.
//
// ?pass=N opens the run just after pass N (with &t=T, at the simulated time
// T that follows it without another pass: inputs after a pass are part of
// the moment); ?at=symptom plays a failure lesson to its symptom. Keys: Space play/pause, → next pass, ← previous
// pass, Home reset.
type Player struct {
	app.Compo

	id    string
	embed bool
	sc    *scenario.Scenario
	ses   *session

	// missing is set when there is no bundled scenario with the id.
	missing bool
	// alert is what went wrong last (a refused input, a recovered panic).
	alert string
	// notice is a calm message about the last action (not an error).
	notice string
	// view is read from the run after every change, so Render never calls
	// into the engine.
	view playerView

	// What the learner chose.
	selected  api.Ref // the inspected object; zero follows the current pass
	speed     int
	fault     faultForm
	embedCode string
	copied    string
	// atSymptom is set when the run was played to a failure's symptom.
	atSymptom bool
	// responded is set once the response has been applied.
	responded bool

	// updatable is set when a new version of the site is ready.
	updatable bool

	// inspected is the text of the inspected object's last version read.
	inspected *objectText
	// nodePage is the page of nodes the cluster pane draws.
	nodePage int
	// world is what the cluster pane and the fault palette know of the
	// run's nodes and pods, kept from pass to pass.
	world worldIndex
	// logLines are the pass log's lines, by pass number.
	logLines map[int]string

	ctx     app.Context // the component's own context, from OnMount
	mounted bool
	// lookingAhead is set while a slice of the look-ahead is scheduled.
	lookingAhead bool
	clock        clock
	stopKeys     func()
	stopHide     func()
}

// playerView is what the player shows of the run.
type playerView struct {
	ready     bool
	n         int
	known     int
	final     bool
	atEnd     bool
	now       string
	current   *sim.Pass
	log       []sim.Pass
	digest    string
	loop      string
	converged bool
	cluster   clusterView
	inspector inspectorView
	following bool
	targets   faultTargets
	history   []string
}

// OnInit opens the lesson as early as it can in the browser, so the first
// render already shows it (the server opens it in OnNav).
func (p *Player) OnInit() {
	p.speed = defaultSpeed
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
	p.ctx, p.mounted = ctx, true
	p.stopKeys = transportKeys(ctx, p)
	p.stopHide = onHidden(ctx, func(ctx app.Context) {
		if p.clock.running() {
			p.pause()
			p.notice = "Paused while the page was hidden."
		}
	})
	notifyHost(eventPass, p.id, p.view.n)
	p.settle()
}

// OnDismount unbinds the keyboard and stops playing.
func (p *Player) OnDismount() {
	p.clock.stop()
	p.mounted = false
	for _, stop := range []*func(){&p.stopKeys, &p.stopHide} {
		if *stop != nil {
			(*stop)()
			*stop = nil
		}
	}
}

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
	if want == p.view.n && (at == 0 || at == p.ses.run.Now()) {
		return
	}
	if at == 0 {
		p.seek(want)
		return
	}
	guard(&p.alert, fmt.Sprintf("Going to pass %d at t=%s", want, at), func() {
		if !p.ses.atTime(want, at) {
			p.alert = fmt.Sprintf("Pass %d is not followed by t=%s without another pass; showing pass %d.", want, at, want)
		}
	})
	p.refresh()
}

// load reads the bundled scenario id and prepares a run of it. With later
// set, the look-ahead is only begun: settle runs it.
func (p *Player) load(id string, later bool) {
	p.clock.stop()
	p.logLines = nil
	p.world, p.inspected, p.nodePage = worldIndex{}, nil, 0
	// Field by field: the embedded app.Compo belongs to go-app.
	p.id, p.sc, p.ses = id, nil, nil
	p.missing, p.alert, p.notice = false, "", ""
	p.selected, p.atSymptom, p.responded, p.embedCode, p.copied = api.Ref{}, false, false, "", ""
	p.fault = faultForm{}
	p.view = playerView{}
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
	guard(&p.alert, "Starting the simulation", func() {
		ses, err := startSession(sc)
		if err != nil {
			p.alert = "The simulation cannot start: " + err.Error()
			return
		}
		if !later || ses.beginLookAhead() != nil {
			ses.lookAhead()
		} else if known, final, ok := prerenderedEnd(id); ok {
			// What the server's look-ahead learned, until the browser's own
			// confirms it: the page shows what the prerendered page showed.
			ses.known, ses.final = known, final
		}
		p.ses = ses
	})
	p.refresh()
}

// refresh reads what the player shows from the run.
func (p *Player) refresh() {
	if p.ses == nil {
		p.view = playerView{}
		return
	}
	var v playerView
	if guard(&p.alert, "Reading the run", func() {
		run := p.ses.run
		v.n, v.known, v.final, v.atEnd = p.ses.n(), p.ses.known, p.ses.final, p.ses.atEnd()
		v.now = run.Now().String()
		// The log shows 25 to 50 passes, and moves in steps of 25: between
		// steps a new pass only adds a line, and the lines above it stay.
		v.log = run.PassesFrom(max(0, (v.n-1)/logStep*logStep-logStep))
		if len(v.log) > 0 {
			last := v.log[len(v.log)-1]
			v.current = &last
		}
		v.converged, _ = run.Converged()
		ref, following := p.selected, p.selected == api.Ref{}
		if following {
			ref, _ = followed(run, v.current)
		}
		v.following = following
		v.loop = p.view.loop
		if v.n != p.view.n || v.loop == "" {
			v.loop = loopSVGFor(v.current, captionFor(v.current))
		}
		v.history = inputHistory(run, historyShown)
		p.world.sync(run)
		ctrls := run.Controllers()
		v.cluster = readCluster(run, &p.world, ctrls, p.nodePage)
		v.targets = readTargets(run, p.sc, &p.world, ctrls)
		if ref.Kind != "" {
			v.inspector = inspect(run, ref, &p.inspected)
		}
		if !app.IsClient {
			v.digest = run.Digest() // in the browser it comes just after the page (settle)
		}
		v.ready = true
	}) {
		p.view = v
	}
}

// moved is called after every change of pass: it updates the view, the
// address bar and the host page.
func (p *Player) moved(ctx app.Context) {
	wasConverged := p.view.converged
	p.refresh()
	p.settle()
	notifyHost(eventPass, p.id, p.view.n)
	if p.view.converged && !wasConverged {
		notifyHost(eventConverged, p.id, p.view.n)
	}
}

func (p *Player) next(ctx app.Context) {
	if p.ses == nil || p.view.atEnd {
		return
	}
	p.alert = ""
	guard(&p.alert, "Next pass", func() {
		if _, ok := p.ses.next(); !ok {
			p.pause()
		}
	})
	p.moved(ctx)
}

func (p *Player) previous(ctx app.Context) {
	if p.ses == nil || p.view.n == 0 {
		return
	}
	p.pause()
	p.seek(p.view.n - 1)
	p.moved(ctx)
}

func (p *Player) reset(ctx app.Context) {
	if p.ses == nil {
		return
	}
	p.pause()
	p.atSymptom = false
	p.seek(0)
	p.moved(ctx)
}

// seek moves the run to just after pass n.
func (p *Player) seek(n int) {
	p.alert = ""
	guard(&p.alert, fmt.Sprintf("Going to pass %d", n), func() {
		if err := p.ses.seek(n); err != nil {
			p.alert = err.Error()
		}
	})
	p.refresh()
}

// play starts auto-play: one pass per tick at the chosen speed, until the
// end of the run, Pause, or the page is hidden.
func (p *Player) play(ctx app.Context) {
	if p.ses == nil || p.view.atEnd || !p.mounted {
		return
	}
	p.notice = ""
	p.clock.start(p.ctx, func() time.Duration { return speeds[p.speed].every }, func(ctx app.Context) bool {
		p.next(ctx)
		return !p.view.atEnd && p.alert == ""
	})
}

// pause stops auto-play; no timer is left running.
func (p *Player) pause() {
	if p.clock.running() {
		p.clock.stop()
		p.settle()
	}
}

// settle does, just after the page shows a pass, what would delay it: it
// puts the pass in the address bar and computes the trace digest (which
// hashes the whole world). While playing it waits for the pause.
func (p *Player) settle() {
	if !app.IsClient || !p.mounted || p.ses == nil || p.clock.running() {
		return
	}
	n := p.view.n
	p.ctx.Defer(func(ctx app.Context) {
		if p.ses == nil || p.view.n != n {
			return
		}
		p.remember()
		// The rest waits for the browser to show the page and handle what
		// the learner did meanwhile.
		whenIdle(ctx, func(ctx app.Context) {
			if p.ses == nil || p.view.n != n || p.clock.running() {
				return
			}
			if p.view.digest == "" {
				guard(&p.alert, "Computing the digest", func() { p.view.digest = p.ses.run.Digest() })
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
	if ses == nil || ses.ahead == nil || p.lookingAhead {
		return
	}
	p.lookingAhead = true
	whenIdle(ctx, func(ctx app.Context) {
		p.lookingAhead = false
		if p.ses != ses || !p.mounted {
			return
		}
		done := true
		guard(&p.alert, "Looking ahead", func() { done = ses.lookAheadSome(lookAheadSlice) })
		if !done {
			ctx.PreventUpdate()
			p.lookAheadLater(ctx)
			return
		}
		ses.ahead = nil
		p.view.known, p.view.final, p.view.atEnd = ses.known, ses.final, ses.atEnd()
	})
}

func (p *Player) togglePlay(ctx app.Context) {
	if p.clock.running() {
		p.pause()
		return
	}
	p.play(ctx)
}

// playToSymptom runs a failure lesson to the moment its symptom shows and
// puts the evidence in the inspector.
func (p *Player) playToSymptom(ctx app.Context) {
	if p.ses == nil {
		return
	}
	p.pause()
	p.alert = ""
	at := symptomAt(p.sc)
	guard(&p.alert, "Playing to the symptom", func() {
		if p.ses.run.Now() > at {
			p.ses.seek(0)
		}
		p.ses.playTo(at)
	})
	p.atSymptom = true
	if ref, ok := evidence(p.ses.run, p.sc); ok {
		p.selected = ref
	}
	p.moved(ctx)
}

// applyResponse applies the lesson's response, then plays on so the
// learner watches the loop converge.
func (p *Player) applyResponse(ctx app.Context) {
	if p.ses == nil || len(p.sc.Response) == 0 {
		return
	}
	p.pause()
	p.alert = ""
	p.logLines = nil
	var outs []string
	guard(&p.alert, "Applying the response", func() {
		for _, st := range p.sc.Response {
			out, err := p.ses.inject(st.Input)
			if err != nil {
				p.alert = stepText(st) + ": " + err.Error()
				return
			}
			if o := strings.TrimSpace(out.Output); o != "" {
				outs = append(outs, o)
			}
		}
	})
	if p.alert != "" {
		p.refresh()
		return
	}
	p.responded = true
	p.notice = "Response applied"
	if len(outs) > 0 {
		p.notice += ": " + strings.Join(outs, " · ")
	}
	p.notice += ". Watch the loop converge."
	notifyHost(eventResponseApplied, p.id, p.view.n)
	p.moved(ctx)
	p.play(ctx)
}

// inject applies the fault chosen in the palette.
func (p *Player) inject(ctx app.Context) {
	if p.ses == nil {
		return
	}
	line := p.fault.line(p.view.targets)
	if line == "" {
		return
	}
	p.alert = ""
	p.logLines = nil
	guard(&p.alert, "Injecting "+line, func() {
		f, err := sim.ParseFault(line)
		if err == nil {
			_, err = p.ses.inject(f)
		}
		if err != nil {
			p.alert = err.Error()
		}
	})
	if p.alert == "" {
		p.notice = "Injected " + line + " after pass " + strconv.Itoa(p.view.n) + ". Press Next pass or Play to watch the loop react."
	}
	p.moved(ctx)
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
	if p.view.n == 0 {
		q.Del("pass")
	} else {
		q.Set("pass", strconv.Itoa(p.view.n))
	}
	// Inputs and waiting after the pass are part of the moment too.
	if p.ses.beyondLastPass() > 0 {
		q.Set("t", p.ses.run.Now().String())
	} else {
		q.Del("t")
	}
	u.RawQuery = q.Encode()
	app.Window().Get("history").Call("replaceState", nil, "", u.String())
}

func (p *Player) onNext(ctx app.Context, e app.Event)     { p.next(ctx) }
func (p *Player) onPrevious(ctx app.Context, e app.Event) { p.previous(ctx) }
func (p *Player) onReset(ctx app.Context, e app.Event)    { p.reset(ctx) }
func (p *Player) onPlay(ctx app.Context, e app.Event)     { p.togglePlay(ctx) }
func (p *Player) onDismiss(ctx app.Context, e app.Event)  { p.alert = "" }
func (p *Player) onSymptom(ctx app.Context, e app.Event)  { p.playToSymptom(ctx) }
func (p *Player) onResponse(ctx app.Context, e app.Event) { p.applyResponse(ctx) }
func (p *Player) onInject(ctx app.Context, e app.Event)   { p.inject(ctx) }

func (p *Player) onSpeed(ctx app.Context, e app.Event) {
	p.speed = speedIndex(ctx.JSSrc().Get("value").String())
}

func (p *Player) onTimeline(ctx app.Context, e app.Event) {
	n, err := strconv.Atoi(ctx.JSSrc().Get("value").String())
	if err != nil || p.ses == nil || n == p.view.n {
		return
	}
	p.pause()
	p.seek(n)
	p.moved(ctx)
}

func (p *Player) onVerb(ctx app.Context, e app.Event) {
	p.fault = faultForm{verb: ctx.JSSrc().Get("value").String()}
}

func (p *Player) onTarget(ctx app.Context, e app.Event) {
	p.fault.target = ctx.JSSrc().Get("value").String()
}

func (p *Player) onExtra(ctx app.Context, e app.Event) {
	p.fault.extra = ctx.JSSrc().Get("value").String()
}

func (p *Player) onFollow(ctx app.Context, e app.Event) {
	p.selected = api.Ref{}
	p.refresh()
	p.settle()
}

// onPick selects for the inspector the object the pressed button names
// (data-ref). The button, not a closure, carries the object: go-app keeps
// the first handler of an element whose handler is the same function.
func (p *Player) onPick(ctx app.Context, e app.Event) {
	ref, ok := parseRef(ctx.JSSrc().Get("dataset").Get("ref").String())
	if !ok {
		return
	}
	p.pick(ref)
}

// onNodePage shows another page of the cluster's nodes.
func (p *Player) onNodePage(ctx app.Context, e app.Event) {
	if n, ok := nodePageOf(ctx); ok {
		p.nodePage = n
		p.refresh()
	}
}

// pick selects ref for the inspector; picking it again lets go.
func (p *Player) pick(ref api.Ref) {
	if p.selected == ref {
		p.selected = api.Ref{}
	} else {
		p.selected = ref
	}
	p.refresh()
	p.settle()
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
	return s.render(
		app.Article().Class("lesson").Aria("labelledby", "lesson-title").Body(
			app.H1().ID("lesson-title").Text(p.sc.Title),
			app.Div().Class("summary").Body(paragraphs(p.sc.Summary)...),
			app.P().Class("try").Body(app.A().Href("/play?from="+p.id).Text("Try it yourself"), app.Text(": edit its desired state, run kubectl, break it and fork its future.")),
		),
		p.renderFailure(),
		p.renderTransport(),
		app.If(p.notice != "", func() app.UI {
			return app.P().Class("notice").Text(p.notice)
		}),
		app.Div().Class("stage").Body(
			p.renderPass(),
			app.Div().Class("stage-side").Body(
				app.Figure().Class("loop-figure").Body(app.Raw(p.view.loop)),
				renderPseudocode(p.view.current),
			),
		),
		app.Div().Class("workspace").Body(
			renderCluster(p.view.cluster, p.view.inspector.ref, p),
			renderInspector(p.view.inspector, p.view.following, p.onFollow, fmt.Sprintf("as read after pass %d, at t=%s", p.view.n, orDash(p.view.now))),
		),
		app.Div().Class("workspace").Body(
			renderFaults(p.fault, p.view.targets, p.view.history, !p.view.ready, p.onVerb, p, p.onExtra, p.onInject),
			p.renderLog(),
		),
		p.renderShare(),
	)
}

func (p *Player) renderTransport() app.UI {
	off := !p.view.ready
	status := fmt.Sprintf("Pass %d", p.view.n)
	if p.view.final {
		status += fmt.Sprintf(" of %d", p.view.known)
	}
	status += " · t=" + orDash(p.view.now)
	switch {
	case p.view.converged && p.view.n > 0 && p.view.atEnd:
		status += " · converged: nothing more happens"
	case p.view.atEnd:
		status += " · nothing more happens before the end of the run"
	case p.view.converged && p.view.n > 0:
		status += " · converged"
	}
	playing := p.clock.running()
	playLabel, playTitle := "Play", "Run passes one after another (Space)"
	if playing {
		playLabel, playTitle = "Pause", "Stop after this pass (Space)"
	}
	max := p.view.known
	if max < p.view.n {
		max = p.view.n
	}
	return app.Section().Class("transport").Aria("label", "Transport").Body(
		app.Div().Class("buttons").Body(
			app.Button().Type("button").Text("Reset").Disabled(off).OnClick(p.onReset).Title("Back to the start (Home)"),
			app.Button().Type("button").Text("Previous pass").Disabled(off || p.view.n == 0).OnClick(p.onPrevious).Title("Step back one pass (←)"),
			app.Button().Type("button").Class("play").Text(playLabel).Disabled(off || (p.view.atEnd && !playing)).OnClick(p.onPlay).Title(playTitle),
			app.Button().Type("button").Class("primary").Text("Next pass").Disabled(off || p.view.atEnd).OnClick(p.onNext).Title("Run the next pass (→)"),
		),
		app.Div().Class("dials").Body(
			app.Div().Class("field").Body(
				app.Label().For("speed").Text("Speed"),
				app.Select().ID("speed").OnChange(p.onSpeed).Body(app.Range(speeds).Slice(func(i int) app.UI {
					return app.Option().Value(speeds[i].label).Text(speeds[i].label).Selected(i == p.speed)
				})),
			),
			app.Div().Class("field timeline").Body(
				app.Label().For("timeline").Text("Timeline"),
				app.Input().Type("range").ID("timeline").Min(0).Max(max).Step(1).Value(p.view.n).
					Disabled(off).Aria("valuetext", fmt.Sprintf("pass %d of %d", p.view.n, max)).OnInput(p.onTimeline),
			),
		),
		// The end of the run as far as it is known, for the browser to take
		// from the prerendered page (prerenderedEnd).
		app.P().Class("status").Role("status").DataSet("lesson", p.id).DataSet("known", p.view.known).DataSet("final", p.view.final).Text(status),
	)
}

func (p *Player) renderPass() app.UI {
	c := p.view.current
	if c == nil {
		return app.Section().Class("pass").Aria("labelledby", "pass-title").Body(
			app.H2().ID("pass-title").Text("Before the first pass"),
			app.P().Text("The API server has stored the manifests. No controller has looked at them yet, so nothing runs. "+
				"Press Next pass (or →) to run the first controller pass."),
		)
	}
	field := func(name string, value app.UI) []app.UI {
		return []app.UI{app.Dt().Text(name), app.Dd().Body(value)}
	}
	text := func(s string) app.UI { return app.Text(orDash(s)) }
	var actions app.UI = app.Text("none")
	if len(c.Actions) > 0 {
		// At most a few lines, so the page below does not jump while playing.
		shown, more := c.Actions, 0
		if len(shown) > maxActionsShown {
			shown, more = shown[:maxActionsShown-1], len(shown)-maxActionsShown+1
		}
		actions = app.Ul().Body(
			app.Range(shown).Slice(func(i int) app.UI { return app.Li().Text(shown[i]) }),
			app.If(more > 0, func() app.UI {
				return app.Li().Class("muted").Text(fmt.Sprintf("and %d more (%s)", more, sim.SummarizeActions(*c)))
			}),
		)
	}
	var rows []app.UI
	rows = append(rows, field("Controller", text(controllerName(*c)))...)
	rows = append(rows, field("Key", app.Code().Text(c.Key))...)
	rows = append(rows, field("Trigger", text(c.Trigger))...)
	rows = append(rows, field("Desired", text(c.Desired))...)
	rows = append(rows, field("Observed", text(c.Observed))...)
	rows = append(rows, field("Difference", text(c.Difference))...)
	rows = append(rows, field("Actions", actions)...)
	rows = append(rows, field("Outcome", app.Span().Class("outcome "+outcomeClass(c.Result)).Text(orDash(c.Outcome)))...)

	return app.Section().Class("pass").Aria("labelledby", "pass-title").Body(
		app.H2().ID("pass-title").Text(fmt.Sprintf("Pass %d at %s", c.N, orDash(c.AtText))),
		app.Dl().Body(rows...),
	)
}

func (p *Player) renderLog() app.UI {
	log := p.view.log
	var note app.UI
	switch {
	case len(log) == 0:
		note = app.P().Class("empty").Text("No pass has run yet.")
	case log[0].N > 1:
		note = app.P().Class("empty").Text(fmt.Sprintf("Showing the last %d passes.", len(log)))
	}
	return renderPassLog(log, p.clock.running(), note, p.logLine)
}

// renderPassLog is the pass log of the player and the playground: the
// passes of log, numbered from the first, with note above them (if any),
// announced to screen readers while playing.
func renderPassLog(log []sim.Pass, playing bool, note app.UI, line func(sim.Pass) string) app.UI {
	start := 1
	if len(log) > 0 {
		start = log[0].N
	}
	live := "off"
	if playing {
		live = "polite"
	}
	return app.Section().Class("log").Aria("labelledby", "log-title").Body(
		app.H2().ID("log-title").Text("Pass log"),
		note,
		app.Div().Class("log-scroll").TabIndex(0).Aria("label", "Passes so far, scrollable").Role("region").Body(
			app.Ol().ID("pass-log").Start(start).Aria("live", live).Aria("label", "Passes so far").Body(
				app.Range(log).Slice(func(i int) app.UI {
					return app.Li().Text(line(log[i]))
				}),
			),
		),
	)
}

// renderPseudocode shows which lines of the lesson's pseudocode a
// ReplicaSet controller pass ran (the other controllers run no block of the
// lesson's). The box keeps its height whatever the pass, so the page does
// not jump while playing.
func renderPseudocode(c *sim.Pass) app.UI {
	if c == nil || len(c.Lines) == 0 {
		return app.Div().Class("pseudo").Body(
			app.P().Class("muted").Text("When the replicaset-controller runs, the lines of the lesson's pseudocode it executed show here."),
		)
	}
	block, name := controller.LevelLines, "Level-triggered"
	if c.Variant == string(controller.Edge) {
		block, name = controller.EdgeLines, "Edge-triggered"
	}
	return app.Div().Class("pseudo").Body(
		app.P().Class("pseudo-title").Text(name+" pseudocode, as this pass ran it"),
		renderCode(name+" pseudocode", block, c.Lines),
	)
}

// renderFailure shows the failure-table row a lesson plays, the way to its
// symptom and its response.
func (p *Player) renderFailure() app.UI {
	f := p.sc.Failure
	if f == nil && len(p.sc.Response) == 0 {
		return nil
	}
	var steps []string
	for _, st := range p.sc.Response {
		steps = append(steps, stepText(st))
	}
	var evidenceLines []string
	for _, e := range p.sc.Expect {
		if e.That != "" {
			evidenceLines = append(evidenceLines, e.That)
		} else if e.Event != nil {
			evidenceLines = append(evidenceLines, "event "+e.Event.Reason+" on "+e.Event.Object)
		}
	}
	return app.Section().Class("failure").Aria("labelledby", "failure-title").Body(
		app.If(f != nil, func() app.UI {
			return app.Div().Body(
				app.H2().ID("failure-title").Text("From the failure table"),
				app.Dl().Body(
					app.Dt().Text("Trigger"), app.Dd().Text(f.Trigger),
					app.Dt().Text("Symptom"), app.Dd().Text(f.Symptom),
					app.Dt().Text("Cause"), app.Dd().Text(f.Cause),
					app.Dt().Text("Response"), app.Dd().Text(f.Response),
				),
			)
		}).Else(func() app.UI {
			return app.H2().ID("failure-title").Text("The fix this lesson teaches")
		}),
		app.If(p.atSymptom && len(evidenceLines) > 0, func() app.UI {
			return app.Div().Class("evidence").Body(
				app.P().Text(fmt.Sprintf("This is the symptom, at t=%s. The evidence:", p.view.now)),
				app.Ul().Body(app.Range(evidenceLines).Slice(func(i int) app.UI {
					return app.Li().Body(app.Code().Text(evidenceLines[i]))
				})),
			)
		}),
		app.Div().Class("buttons").Body(
			app.If(f != nil, func() app.UI {
				return app.Button().Type("button").Class("symptom").Text("Play to the symptom").Disabled(!p.view.ready).OnClick(p.onSymptom)
			}),
			app.If(len(steps) > 0, func() app.UI {
				return app.Button().Type("button").Class("primary response").Text("Apply the response").
					Disabled(!p.view.ready).OnClick(p.onResponse).Title(strings.Join(steps, "\n"))
			}),
		),
		app.If(len(steps) > 0, func() app.UI {
			return app.P().Class("muted").Body(
				app.Text("The response runs "),
				app.Range(steps).Slice(func(i int) app.UI {
					sep := ", "
					if i == len(steps)-1 {
						sep = "."
					}
					return app.Span().Body(app.Code().Text(steps[i]), app.Text(sep))
				}),
			)
		}),
		app.If(p.responded, func() app.UI {
			word := "Not converged yet: keep playing."
			if p.view.converged {
				word = "Converged: the loop has nothing left to do."
			}
			return app.P().Class("converge").Text(word)
		}),
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
			app.Code().DataSet("digest", p.view.digest).DataSet("pass", p.view.n).Text(orDash(p.view.digest)),
		),
	)
}

// evidence is the object a failure lesson's expectations point at: the
// first one they name exactly, else the first that matches a pattern.
func evidence(run *sim.Sim, sc *scenario.Scenario) (api.Ref, bool) {
	for _, e := range sc.Expect {
		kind, name := "", ""
		switch {
		case e.Assertion != nil && !e.Assertion.Count:
			kind, name = e.Assertion.Kind, e.Assertion.Name
		case e.Event != nil:
			k, n, err := assertion.ParseObjectRef(e.Event.Object)
			if err != nil {
				continue
			}
			if c, ok := assertion.KindFor(k, nil); ok {
				k = c
			}
			kind, name = k, n
		default:
			continue
		}
		for _, o := range run.Store().List(kind) {
			if assertion.MatchName(name, o.Meta().Name) {
				return api.RefOf(o), true
			}
		}
	}
	return api.Ref{}, false
}

// logLine is passLine, kept for the passes of the current run: a pass,
// once run, never changes (a new future after an input forgets the lines).
func (p *Player) logLine(ps sim.Pass) string {
	if s, ok := p.logLines[ps.N]; ok {
		return s
	}
	if p.logLines == nil || len(p.logLines) > 4*logStep {
		p.logLines = map[int]string{}
	}
	s := passLine(ps)
	p.logLines[ps.N] = s
	return s
}

// passLine is one pass as a line of text, the way the CLI prints it.
func passLine(ps sim.Pass) string {
	var b strings.Builder
	fmt.Fprintf(&b, "t=%s %s %s: desired %s · observed %s · difference %s",
		orDash(ps.AtText), controllerName(ps), ps.Key, orDash(ps.Desired), orDash(ps.Observed), orDash(ps.Difference))
	switch {
	case len(ps.Actions) > 0:
		fmt.Fprintf(&b, " → %s", strings.Join(ps.Actions, ", "))
	case ps.Outcome != "":
		fmt.Fprintf(&b, " → %s", ps.Outcome)
	}
	return b.String()
}

// litSteps says which steps of the loop picture a pass went through: every
// pass reads desired and observed state and computes the difference; only a
// pass that acted reaches the action.
func litSteps(ps *sim.Pass) map[string]bool {
	if ps == nil {
		return map[string]bool{stepDesired: true}
	}
	return map[string]bool{
		stepDesired:    true,
		stepController: true,
		stepObserved:   true,
		stepDifference: true,
		stepAction:     len(ps.Actions) > 0,
	}
}

func captionFor(ps *sim.Pass) string {
	switch {
	case ps == nil:
		return "stored, not running"
	case ps.Outcome != "":
		return ps.Outcome
	default:
		return ""
	}
}

func outcomeClass(o controller.Outcome) string {
	switch o {
	case controller.InSync:
		return "ok"
	case controller.Failed, controller.Crashed, controller.Blocked:
		return "bad"
	default:
		return "acted"
	}
}

// controllerName names the controller of a pass, and its node for a kubelet.
func controllerName(ps sim.Pass) string {
	if ps.Host != "" {
		return ps.Controller + " on " + ps.Host
	}
	return ps.Controller
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func itoa(n int) string { return strconv.Itoa(n) }
