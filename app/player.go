package app

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/engine/scenario"
	"reconcile/engine/sim"
)

// logWindow is how many of the latest passes the pass log shows: a pass
// touches one key, and so does a render.
const logWindow = 50

// Player is the scenario player, /s/{id}: the lesson, the transport bar, the
// current pass (controller, key, trigger, desired, observed, difference,
// actions, outcome), the pass log and the trace digest.
//
// ?pass=N opens the run just after pass N. Keys: → next pass, ← previous
// pass, Home reset.
type Player struct {
	app.Compo

	id    string
	embed bool
	sc    *scenario.Scenario
	run   *sim.Sim

	// missing is set when there is no bundled scenario with the id.
	missing bool
	// ended is set when Next reported that nothing more happens before the
	// run's horizon.
	ended bool
	// alert is what went wrong last (a refused input, a recovered panic).
	alert string
	// view is read from the run after every change, so Render never calls
	// into the engine.
	view playerView

	// updatable is set when a new version of the site is ready.
	updatable bool

	stopKeys func()
}

// playerView is what the player shows of the run.
type playerView struct {
	ready   bool
	n       int
	now     string
	current *sim.Pass
	log     []sim.Pass
	digest  string
}

// OnInit opens the lesson as early as it can in the browser, so the first
// render already shows it (the server opens it in OnNav).
func (p *Player) OnInit() {
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

// OnNav opens the lesson named by the URL, at ?pass=N.
func (p *Player) OnNav(ctx app.Context) {
	p.open(ctx.Page().URL())
	if p.sc != nil && p.sc.Title != "" {
		ctx.Page().SetTitle(p.sc.Title + " · Reconcile")
		ctx.Page().SetDescription(firstSentence(p.sc.Summary))
	}
}

// OnMount binds the keyboard.
func (p *Player) OnMount(ctx app.Context) {
	p.stopKeys = listenKeys(ctx, []string{"ArrowRight", "ArrowLeft", "Home"}, func(ctx app.Context, key string) {
		switch key {
		case "ArrowRight":
			p.next(ctx)
		case "ArrowLeft":
			p.previous(ctx)
		case "Home":
			p.reset(ctx)
		}
	})
}

// OnDismount unbinds the keyboard.
func (p *Player) OnDismount() {
	if p.stopKeys != nil {
		p.stopKeys()
		p.stopKeys = nil
	}
}

// open loads the lesson of u (once per id) and seeks to u's ?pass=N.
func (p *Player) open(u *url.URL) {
	if u == nil {
		return
	}
	p.embed = embedded(u)
	id := strings.Trim(strings.TrimPrefix(u.Path, "/s/"), "/")
	if id != p.id || (p.run == nil && !p.missing && p.alert == "") {
		p.load(id)
	}
	if p.run == nil {
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
	if want != p.view.n {
		p.seek(want)
	}
}

// load reads the bundled scenario id and prepares a run of it.
func (p *Player) load(id string) {
	// Field by field: the embedded app.Compo belongs to go-app.
	p.id, p.sc, p.run = id, nil, nil
	p.missing, p.ended, p.alert = false, false, ""
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
		run, err := sim.New(sc, sim.Options{})
		if err != nil {
			p.alert = "The simulation cannot start: " + err.Error()
			return
		}
		p.run = run
	})
	p.refresh()
}

// refresh reads what the player shows from the run.
func (p *Player) refresh() {
	if p.run == nil {
		p.view = playerView{}
		return
	}
	var v playerView
	if guard(&p.alert, "Reading the run", func() {
		v.n = p.run.PassCount()
		v.now = p.run.Now().String()
		passes := p.run.Passes()
		if len(passes) > 0 {
			last := passes[len(passes)-1]
			v.current = &last
		}
		if len(passes) > logWindow {
			passes = passes[len(passes)-logWindow:]
		}
		v.log = append([]sim.Pass(nil), passes...)
		v.digest = p.run.Digest()
		v.ready = true
	}) {
		p.view = v
	}
}

func (p *Player) next(ctx app.Context) {
	if p.run == nil || p.ended {
		return
	}
	p.alert = ""
	guard(&p.alert, "Next pass", func() {
		if _, ok := p.run.Next(); !ok {
			p.ended = true
		}
	})
	p.refresh()
	p.remember(ctx)
}

func (p *Player) previous(ctx app.Context) {
	if p.run == nil || p.view.n == 0 {
		return
	}
	p.seek(p.view.n - 1)
	p.remember(ctx)
}

func (p *Player) reset(ctx app.Context) {
	if p.run == nil {
		return
	}
	p.seek(0)
	p.remember(ctx)
}

// seek moves the run to just after pass n.
func (p *Player) seek(n int) {
	p.alert = ""
	guard(&p.alert, fmt.Sprintf("Going to pass %d", n), func() {
		if err := p.run.Seek(n); err != nil {
			p.alert = err.Error()
		}
	})
	p.ended = false
	p.refresh()
}

// remember puts the current pass in the address bar (?pass=N), so a reload
// or a copied link opens the same moment, and keeps the newest pass of the
// log in view.
func (p *Player) remember(ctx app.Context) {
	if !app.IsClient || p.run == nil {
		return
	}
	ctx.Defer(scrollLogToEnd)
	u := app.Window().URL()
	q := u.Query()
	if p.view.n == 0 {
		q.Del("pass")
	} else {
		q.Set("pass", strconv.Itoa(p.view.n))
	}
	u.RawQuery = q.Encode()
	app.Window().Get("history").Call("replaceState", nil, "", u.String())
}

// scrollLogToEnd keeps the newest pass of the log in view.
func scrollLogToEnd(ctx app.Context) {
	if ol := app.Window().GetElementByID("pass-log"); ol.Truthy() {
		ol.Set("scrollTop", ol.Get("scrollHeight"))
	}
}

func (p *Player) onNext(ctx app.Context, e app.Event)     { p.next(ctx) }
func (p *Player) onPrevious(ctx app.Context, e app.Event) { p.previous(ctx) }
func (p *Player) onReset(ctx app.Context, e app.Event)    { p.reset(ctx) }
func (p *Player) onDismiss(ctx app.Context, e app.Event)  { p.alert = "" }

// Render draws the page.
func (p *Player) Render() app.UI {
	s := shell{embed: p.embed, alert: p.alert, updatable: p.updatable}
	if p.alert != "" && p.run != nil {
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
		),
		p.renderTransport(),
		app.Div().Class("stage").Body(
			p.renderPass(),
			loopPicture(litSteps(p.view.current), captionFor(p.view.current)),
		),
		p.renderLog(),
		app.P().Class("digest").Body(
			app.Text("Trace digest "),
			app.Code().DataSet("digest", p.view.digest).Text(orDash(p.view.digest)),
		),
	)
}

func (p *Player) renderTransport() app.UI {
	off := !p.view.ready
	status := fmt.Sprintf("Pass %d · simulated time %s", p.view.n, orDash(p.view.now))
	if p.ended {
		status += " · nothing more happens before the end of the run"
	}
	return app.Section().Class("transport").Aria("label", "Transport").Body(
		app.Div().Class("buttons").Body(
			app.Button().Type("button").Text("Reset").Disabled(off).OnClick(p.onReset).Title("Back to the start (Home)"),
			app.Button().Type("button").Text("Previous pass").Disabled(off || p.view.n == 0).OnClick(p.onPrevious).Title("Step back one pass (←)"),
			app.Button().Type("button").Class("primary").Text("Next pass").Disabled(off || p.ended).OnClick(p.onNext).Title("Run the next pass (→)"),
		),
		app.P().Class("status").Role("status").Text(status),
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
		actions = app.Ul().Body(app.Range(c.Actions).Slice(func(i int) app.UI {
			return app.Li().Text(c.Actions[i])
		}))
	}
	var rows []app.UI
	rows = append(rows, field("Controller", text(controllerName(*c)))...)
	rows = append(rows, field("Key", app.Code().Text(c.Key))...)
	rows = append(rows, field("Trigger", text(c.Trigger))...)
	rows = append(rows, field("Desired", text(c.Desired))...)
	rows = append(rows, field("Observed", text(c.Observed))...)
	rows = append(rows, field("Difference", text(c.Difference))...)
	rows = append(rows, field("Actions", actions)...)
	rows = append(rows, field("Outcome", app.Span().Class("outcome "+outcomeClass(c.Outcome)).Text(orDash(c.Outcome)))...)
	return app.Section().Class("pass").Aria("labelledby", "pass-title").Body(
		app.H2().ID("pass-title").Text(fmt.Sprintf("Pass %d at %s", c.N, orDash(c.AtText))),
		app.Dl().Body(rows...),
	)
}

func (p *Player) renderLog() app.UI {
	log := p.view.log
	start := 1
	if len(log) > 0 {
		start = log[0].N
	}
	return app.Section().Class("log").Aria("labelledby", "log-title").Body(
		app.H2().ID("log-title").Text("Pass log"),
		app.If(len(log) == 0, func() app.UI {
			return app.P().Class("empty").Text("No pass has run yet.")
		}),
		app.If(start > 1, func() app.UI {
			return app.P().Class("empty").Text(fmt.Sprintf("Showing the last %d passes.", len(log)))
		}),
		app.Ol().ID("pass-log").Start(start).TabIndex(0).Aria("live", "polite").Aria("label", "Passes so far").Body(
			app.Range(log).Slice(func(i int) app.UI {
				return app.Li().Text(passLine(log[i]))
			}),
		),
	)
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

func outcomeClass(outcome string) string {
	switch {
	case outcome == "converged":
		return "ok"
	case strings.HasPrefix(outcome, "error"), outcome == "crashed":
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
