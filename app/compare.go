package app

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/session"
	"reconcile/engine/controller"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
	"reconcile/scenarios"
)

// compareLesson is the bundled scenario the compare view runs when it
// exists; otherwise it runs the default lesson.
const compareLesson = "edge-vs-level"

// Compare is /compare: the same cluster twice, its ReplicaSet controller
// edge-triggered in one twin and level-triggered in the other, stepped
// together so that both always stand at the same simulated moment. Each
// twin shows its pod counts per Deployment, the pseudocode its controller
// runs with the lines of the pass just run lit, and a chart draws both
// twins' counts over time. Three buttons give both twins the same mishap,
// one per comment of the lesson's pseudocode, each from a settled world;
// each first offers a guess at how the edge-triggered twin ends.
type Compare struct {
	app.Compo

	embed     bool
	updatable bool
	alert     string
	// notice says what the last mishap gave both twins; guess is the
	// learner's answer to its question (-1: none).
	notice string
	guess  int
	// asking is the question on screen before a mishap plays.
	asking *session.Question
	sc     *scenario.Scenario
	tw     *session.Twins
	view   session.TwinsView
	chart  string
	driver
}

// OnInit starts the twins.
func (c *Compare) OnInit() {
	c.speed = defaultSpeed
	c.start()
}

// OnNav sets the page title and notes whether the page is embedded.
func (c *Compare) OnNav(ctx app.Context) {
	ctx.Page().SetTitle("Edge-triggered or level-triggered · Reconcile")
	ctx.Page().SetDescription("The same cluster twice: an edge-triggered and a level-triggered ReplicaSet controller, given the same mishaps at the same moments.")
	c.embed = embedded(ctx.Page().URL())
}

// OnAppUpdate offers to reload when a new version has been installed.
func (c *Compare) OnAppUpdate(ctx app.Context) {
	c.updatable = ctx.AppUpdateAvailable()
}

// OnMount binds the keyboard and pauses play when the page is hidden.
func (c *Compare) OnMount(ctx app.Context) {
	c.drive(ctx, c, func() {
		c.clock.stop()
		c.notice = "Paused while the page was hidden."
	})
}

// OnDismount stops playing and unbinds the keyboard.
func (c *Compare) OnDismount() { c.dismount() }

// start (re)creates both twins at t=0.
func (c *Compare) start() {
	c.clock.stop()
	c.alert, c.notice, c.asking, c.guess = "", "", nil, -1
	if c.tw != nil {
		guard(&c.alert, "Starting the twins again", func() {
			if err := c.tw.Restart(); err != nil {
				c.alert = "The twins cannot start: " + err.Error()
			}
		})
		c.refresh()
		return
	}
	sc, err := compareScenario()
	if err != nil {
		c.alert = err.Error()
		return
	}
	c.sc = sc
	guard(&c.alert, "Starting the twins", func() {
		tw, err := session.NewTwins(sc)
		if err != nil {
			c.alert = "The twins cannot start: " + err.Error()
			return
		}
		c.tw = tw
	})
	c.refresh()
}

// compareScenario is the lesson the twins run: edge-vs-level when it is
// bundled, else the default lesson.
func compareScenario() (*scenario.Scenario, error) {
	id := scenarios.Default
	if _, _, ok := scenarios.File(compareLesson); ok {
		id = compareLesson
	}
	sc, _, err := openLesson(id)
	if err == nil && sc == nil {
		err = fmt.Errorf("no bundled lesson %s", id)
	}
	if err != nil {
		return nil, fmt.Errorf("the lesson %s cannot be read: %w", id, err)
	}
	return sc, nil
}

// refresh reads what the view shows from the twins.
func (c *Compare) refresh() {
	if c.tw == nil {
		c.view, c.chart = session.TwinsView{}, ""
		return
	}
	guard(&c.alert, "Reading the twins", func() {
		v := c.tw.Read()
		l, e := focusCount(v.Level, v.Focus), focusCount(v.Edge, v.Focus)
		c.chart = countChart(c.tw.Series(), l.Wanted, fmt.Sprintf("At t=%s the level-triggered twin has %s %d and the edge-triggered twin %d; %d are wanted. %s",
			v.Now, l.Name+":", l.Pods, e.Pods, l.Wanted, v.Summary))
		c.view = v
	})
}

// The compare page's stepper: the twins step together; there is no
// stepping back (Reset starts them again).

func (c *Compare) next(ctx app.Context) { c.step() }

func (c *Compare) previous(ctx app.Context) {}

func (c *Compare) reset(ctx app.Context) { c.start() }

func (c *Compare) togglePlay(ctx app.Context) {
	if c.clock.running() {
		c.clock.stop()
		return
	}
	c.play()
}

// step runs the twins to their next moment. While a question is asked,
// the twins wait for its answer (or Skip).
func (c *Compare) step() {
	if c.tw == nil || c.view.Done || c.asking != nil {
		return
	}
	c.alert = ""
	guard(&c.alert, "Next pass", func() {
		if !c.tw.Step() {
			c.clock.stop()
		}
	})
	c.refresh()
}

func (c *Compare) play() {
	if c.tw == nil || c.view.Done || !c.mounted || c.asking != nil {
		return
	}
	c.clock.start(c.ctx, func() time.Duration { return speeds[c.speed].every }, func(ctx app.Context) bool {
		c.step()
		return !c.view.Done && c.alert == ""
	})
}

// demonstrate starts both twins again, settles them and gives both the
// inputs of demonstration d; then it asks its question, if it has one, or
// plays.
func (c *Compare) demonstrate(ctx app.Context, d session.Demonstration) {
	if c.tw == nil {
		return
	}
	c.clock.stop()
	c.alert, c.notice, c.asking, c.guess = "", "", nil, -1
	guard(&c.alert, d.Button, func() {
		if err := c.tw.Give(d); err != nil {
			c.alert = err.Error()
		}
	})
	c.refresh()
	if c.alert != "" {
		return
	}
	c.notice = fmt.Sprintf("Both twins started again and settled; at t=%s both got: %s.", c.view.Now, strings.Join(c.tw.LastInputs(), ", then "))
	var q session.Question
	var ok bool
	guard(&c.alert, "Preparing the question", func() { q, ok = c.tw.Question() })
	if ok {
		c.asking = &q
		c.focus(ctx, "ask-title")
		return
	}
	c.play()
}

// answer takes the learner's guess (choice -1: skipped) and plays.
func (c *Compare) answer(ctx app.Context, choice int) {
	q := c.asking
	if q == nil {
		return
	}
	c.asking = nil
	if choice >= 0 && choice < len(q.Choices) {
		c.guess = q.Choices[choice]
	}
	c.focus(ctx, "cmp-notice")
	c.play()
}

// focus moves the keyboard focus to the element id once it is drawn.
func (c *Compare) focus(ctx app.Context, id string) {
	if !app.IsClient || !c.mounted {
		return
	}
	ctx.Defer(func(ctx app.Context) {
		if e := app.Window().GetElementByID(id); e.Truthy() {
			e.Call("focus")
		}
	})
}

func (c *Compare) onNext(ctx app.Context, e app.Event)    { c.step() }
func (c *Compare) onReset(ctx app.Context, e app.Event)   { c.start() }
func (c *Compare) onPlay(ctx app.Context, e app.Event)    { c.togglePlay(ctx) }
func (c *Compare) onDismiss(ctx app.Context, e app.Event) { c.alert = "" }
func (c *Compare) onSkip(ctx app.Context, e app.Event)    { c.answer(ctx, -1) }

func (c *Compare) onChoice(ctx app.Context, e app.Event) {
	if i, err := strconv.Atoi(ctx.JSSrc().Get("dataset").Get("choice").String()); err == nil {
		c.answer(ctx, i)
	}
}

// onDemo runs the demonstration the pressed button names (data-demo).
func (c *Compare) onDemo(ctx app.Context, e app.Event) {
	name := ctx.JSSrc().Get("dataset").Get("demo").String()
	for _, d := range session.Demonstrations {
		if d.Name == name {
			c.demonstrate(ctx, d)
		}
	}
}

// given is the demonstration the twins were last given, if any.
func (c *Compare) given() (session.Demonstration, bool) {
	for _, d := range session.Demonstrations {
		if d.Name == c.view.Demo {
			return d, true
		}
	}
	return session.Demonstration{}, false
}

// Render draws the page.
func (c *Compare) Render() app.UI {
	s := shell{embed: c.embed, alert: c.alert, updatable: c.updatable, wide: true}
	if c.alert != "" && c.tw != nil {
		s.onDismiss = c.onDismiss
	}
	v := c.view
	off := !v.Ready
	asking := c.asking != nil
	playing := c.clock.running()
	playLabel := "Play"
	if playing {
		playLabel = "Pause"
	}
	status := fmt.Sprintf("t=%s · edge-triggered pass %d · level-triggered pass %d", orDash(v.Now), v.Edge.Pass, v.Level.Pass)
	if v.Done {
		status += " · nothing more happens before the end of the run"
	}
	d, hasDemo := c.given()
	return s.render(app.Div().Class("compare").Body(
		app.Div().Class("cmp-head").Body(
			app.H1().Text("Edge-triggered or level-triggered"),
			c.renderAbout(),
		),
		app.Section().Class("transport").Aria("label", "Transport").Body(
			app.Div().Class("buttons").Body(
				app.Button().Type("button").Text("Reset").Disabled(off).OnClick(c.onReset).Title("Start both twins again at t=0 (Home)"),
				app.Button().Type("button").Class("play").Text(playLabel).Disabled(off || asking || (v.Done && !playing)).OnClick(c.onPlay).Title("Run passes one after another (Space)"),
				app.Button().Type("button").Class("primary").Text("Next pass").Disabled(off || asking || v.Done).OnClick(c.onNext).Title("Take both twins to their next moment: one pass of each twin that has one due (→)"),
			),
			app.Div().Class("dials").Body(speedControl(c.speed, c.onSpeed)),
			app.P().Class("status").Role("status").DataSet("at", v.Now).DataSet("edge-pass", v.Edge.Pass).DataSet("level-pass", v.Level.Pass).Text(status),
		),
		app.Section().Class("demos").Aria("labelledby", "demos-title").Body(
			app.Div().Class("demo-row").Body(
				app.H2().ID("demos-title").Text("Break both the same way"),
				app.Div().Class("demo-buttons").Body(app.Range(session.Demonstrations).Slice(func(i int) app.UI {
					d := session.Demonstrations[i]
					return app.Button().Type("button").Class("demo").DataSet("demo", d.Name).Aria("current", d.Name == v.Demo).
						Aria("describedby", "demos-help").Text(d.Button).Disabled(off).OnClick(c.onDemo)
				})),
			),
			app.P().ID("demos-help").Class("muted demos-help").Text("Each button starts both twins again from a settled world (one simulated minute), then gives both the same mishap at the same moment: mishaps do not stack."),
			app.If(asking, c.renderQuestion).Else(func() app.UI {
				return app.P().ID("cmp-notice").Class("cmp-notice").TabIndex(-1).Aria("live", "polite").Text(c.noticeText())
			}),
		),
		app.Div().Class("twins").Body(
			renderTwin("edge", "Edge-triggered", v.Edge, v, comment(hasDemo, d.Edge), asking),
			renderTwin("level", "Level-triggered", v.Level, v, comment(hasDemo, d.Level), asking),
		),
		app.Figure().Class("chart-figure").Body(
			app.Raw(c.chart),
			app.FigCaption().Class("diverge-summary").Text(v.Summary),
		),
	))
}

// renderAbout is the page's introduction, folded away so that the twins
// fit one screen.
func (c *Compare) renderAbout() app.UI {
	return app.Details().Class("about").Body(
		app.Summary().Text("What this page shows"),
		app.P().Text("An edge-triggered system reacts to change notifications: something happened, do the corresponding thing. "+
			"A level-triggered system reacts to the current gap. Here is the same cluster twice, with the same inputs at the same moments; "+
			"only its ReplicaSet controller differs. Next pass takes both twins to the same next moment and runs one pass of each twin that has one due then."),
		app.P().Body(
			app.Text("The lesson writes the edge-triggered block for a node failure: "),
			app.Code().Text("on node_failure(node): count = pods_lost(node); start(count) more pods"),
			app.Text(". A node failure reaches the controller as one pod_lost event per pod, and a ReplicaSet created or resized is an event too: "+
				"the edge twin shows one handler per kind of event, and lights the one that ran."),
		),
		app.Ul().Body(app.Range(session.Demonstrations).Slice(func(i int) app.UI {
			d := session.Demonstrations[i]
			return app.Li().Body(app.Strong().Text(d.Button+": "), app.Code().Text(d.Edge), app.Text(" "), app.Code().Text(d.Level))
		})),
		app.P().Body(
			app.Text("The twins run the lesson "),
			app.A().Href("/s/"+c.scID()).Text(c.scTitle()),
			app.Text(". Keys: Space play/pause, → next pass, Home reset."),
		),
	)
}

// renderQuestion asks how the edge-triggered twin ends, before the
// mishap plays.
func (c *Compare) renderQuestion() app.UI {
	q := c.asking
	return app.Section().Class("ask").Aria("labelledby", "ask-title").Body(
		app.H2().ID("ask-title").TabIndex(-1).Text(q.Text),
		app.Div().Class("choices").Role("group").Aria("labelledby", "ask-title").Body(
			app.Range(q.Choices).Slice(func(i int) app.UI {
				return app.Button().Type("button").Class("choice").DataSet("choice", i).OnClick(c.onChoice).Text(strconv.Itoa(q.Choices[i]))
			}),
			app.Button().Type("button").Class("quiet").Text("Skip the question").OnClick(c.onSkip),
		),
	)
}

// noticeText says what the last mishap gave both twins, and how the
// learner's guess compares with the edge twin's count.
func (c *Compare) noticeText() string {
	if c.guess < 0 || c.view.Focus == "" {
		return c.notice
	}
	e := focusCount(c.view.Edge, c.view.Focus)
	switch {
	case !e.Settled:
		return fmt.Sprintf("%s You said %d: watch the edge-triggered twin's count of %s.", c.notice, c.guess, e.Name)
	case c.guess == e.Pods:
		return fmt.Sprintf("%s You said %d, and so it is: the edge-triggered twin ends with %d of %d.", c.notice, c.guess, e.Pods, e.Wanted)
	}
	return fmt.Sprintf("%s You said %d; the edge-triggered twin ends with %d of %d.", c.notice, c.guess, e.Pods, e.Wanted)
}

func (c *Compare) scID() string {
	if c.sc == nil {
		return ""
	}
	return c.sc.ID
}

func (c *Compare) scTitle() string {
	if c.sc == nil {
		return ""
	}
	return c.sc.Title
}

// comment is the lesson's pseudocode comment about the mishap given, if any.
func comment(given bool, text string) string {
	if !given {
		return ""
	}
	return text
}

// focusCount is a twin's count of Deployment name, or of all its pods
// when name is empty (or unknown).
func focusCount(v session.TwinView, name string) session.DeploymentCount {
	all := session.DeploymentCount{Name: "all pods", Settled: true}
	for _, d := range v.Each {
		if d.Name == name {
			return d
		}
		all.Pods, all.Wanted, all.Final = all.Pods+d.Pods, all.Wanted+d.Wanted, all.Final+d.Final
		all.Settled = all.Settled && d.Settled
	}
	return all
}

// renderTwin draws one twin: its counts (the Deployment the mishap acts on
// large, with the gap in words), the pseudocode its ReplicaSet controller
// runs with the lines of the pass just run lit, and what that pass was.
// While the learner is guessing, the gap is said as it is now, without
// whether it lasts (which would give the answer away).
func renderTwin(key, title string, v session.TwinView, all session.TwinsView, note string, guessing bool) app.UI {
	main := focusCount(v, all.Focus)
	gap := main.Gap()
	if guessing {
		gap = main.Difference()
	}
	offs := v.Off()
	class := "twin " + key
	if len(offs) > 0 {
		class += " off"
	}
	var others []session.DeploymentCount
	for _, d := range v.Each {
		if d.Name != main.Name {
			others = append(others, d)
		}
	}
	mainKey := "deployment" // the total, before any mishap, is no Deployment's
	if all.Focus == "" {
		mainKey = "total"
	}
	lit, ranN, ranBy := "", "", ""
	if v.HasRan {
		lit, ranN, ranBy = joinInts(v.Lit), itoa(v.Ran.N), v.Ran.Controller
	}
	last := ""
	if v.HasLast {
		last = itoa(v.Last.N)
	}
	return app.Section().Class(class).Aria("labelledby", key+"-title").
		DataSet("pass", v.Pass).DataSet("at", all.Now).DataSet("ran", ranN).DataSet("ran-controller", ranBy).
		DataSet("lit", lit).DataSet("last", last).DataSet("pods", v.Pods).DataSet("wanted", v.Wanted).Body(
		app.Div().Class("twin-head").Body(
			app.H2().ID(key+"-title").Text(title),
			app.Span().Class("twin-pass").Text(fmt.Sprintf("pass %d · t=%s", v.Pass, orDash(all.Now))),
		),
		app.P().Class("verdict").Text(verdict(offs, v.Crashed)),
		app.P().Class("count main "+gapClass(main)).DataSet(mainKey, main.Name).DataSet("pods", main.Pods).DataSet("wanted", main.Wanted).Body(
			app.Span().Class("dep").Text(main.Name),
			app.Strong().Class("big").Text(fmt.Sprintf("%d of %d", main.Pods, main.Wanted)),
			app.Span().Class("gap").Text(gap),
		),
		app.P().Class("others").Body(app.Range(others).Slice(func(i int) app.UI {
			d := others[i]
			return app.Span().Class("count "+gapClass(d)).DataSet("deployment", d.Name).DataSet("pods", d.Pods).DataSet("wanted", d.Wanted).
				Text(fmt.Sprintf("%s %d of %d", d.Name, d.Pods, d.Wanted))
		})),
		renderLitCode(title+" pseudocode", v),
		app.If(note != "", func() app.UI { return app.P().Class("lesson-comment").Body(app.Code().Text(note)) }),
		app.P().Class("passline").Text(twinPassLine(v, all)),
	)
}

// verdict names the Deployments that are off in a twin, in words.
func verdict(offs []session.DeploymentCount, crashed string) string {
	var names []string
	for _, d := range offs {
		names = append(names, d.Name)
	}
	out := "Every Deployment as desired"
	switch len(names) {
	case 0:
	case 1:
		out = names[0] + " is off"
	default:
		out = "Off: " + strings.Join(names, ", ")
	}
	if crashed != "" {
		out += " · replicaset-controller " + crashed
	}
	return out
}

// gapClass colours a count: off (short or over) or met.
func gapClass(d session.DeploymentCount) string {
	if d.Pods != d.Wanted {
		return "gap-off"
	}
	return "gap-met"
}

// renderLitCode draws a twin's pseudocode: the lines the pass just run ran
// lit, the last of them marked as this pass's; when this pass ran none,
// the lines the twin's latest ReplicaSet pass ran, marked as from then.
func renderLitCode(label string, v session.TwinView) app.UI {
	ran, lastRan := map[int]bool{}, map[int]bool{}
	current, lastLine := 0, 0
	for _, l := range v.Lit {
		ran[l], current = true, l
	}
	if len(v.Lit) == 0 && v.HasLast {
		for _, l := range v.LastLit {
			lastRan[l], lastLine = true, l
		}
	}
	return app.Ol().Class("code cmp-code").Aria("label", label).DataSet("lit", joinInts(v.Lit)).Body(
		app.Range(v.Block).Slice(func(i int) app.UI {
			n := i + 1
			text := app.Code().Text(v.Block[i])
			switch {
			case n == current:
				return app.Li().Class("ran current").Aria("current", "step").Body(text, app.Span().Class("tag").Text(fmt.Sprintf(" ◀ ran in pass %d", v.Ran.N)))
			case ran[n]:
				return app.Li().Class("ran").Body(text)
			case n == lastLine:
				return app.Li().Class("last").Body(text, app.Span().Class("tag").Text(fmt.Sprintf(" last ran at pass %d", v.Last.N)))
			case lastRan[n]:
				return app.Li().Class("last").Body(text)
			}
			return app.Li().Body(text)
		}),
	)
}

// twinPassLine says what the pass just run in this twin was, or why no line of
// its pseudocode is lit.
func twinPassLine(v session.TwinView, all session.TwinsView) string {
	p := v.Ran
	switch {
	case !all.Stepped && all.Demo != "":
		return fmt.Sprintf("(the mishap was given at t=%s: no pass has run since)", all.Now)
	case !all.Stepped:
		return "(no pass yet)"
	case !v.HasRan && v.Done:
		return "(nothing more happens in this twin before the end of the run)"
	case !v.HasRan:
		return fmt.Sprintf("(no pass in this twin at t=%s: the other twin has one)", all.Now)
	case p.Controller != controller.ReplicaSetController:
		return fmt.Sprintf("(this pass, %d, was the %s's: no ReplicaSet line runs)", p.N, p.Controller)
	}
	parts := []string{orDash(p.Desired.Words)}
	if p.Variant != string(controller.Edge) {
		// The edge-triggered controller observes nothing: its lit
		// code says where its count comes from.
		parts = append(parts, orDash(p.Observed.Words))
	}
	parts = append(parts, orDash(p.Difference.Words))
	what := sim.SummarizeActions(p)
	if p.Result == controller.Crashed && onlyStatus(p.Actions) {
		what += "; " + p.Outcome // SummarizeActions said "report status only"
	}
	return fmt.Sprintf("Pass %d: %s → %s", p.N, strings.Join(parts, " · "), what)
}

// onlyStatus reports whether a pass's actions are status writes, and
// some.
func onlyStatus(actions []controller.Action) bool {
	for _, a := range actions {
		if !a.IsStatus() {
			return false
		}
	}
	return len(actions) > 0
}

// joinInts writes line numbers as data attributes hold them: "1,2,3".
func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ",")
}
