package app

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/engine/controller"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
	"reconcile/scenarios"
)

// compareLesson is the bundled scenario the compare view runs when it
// exists; otherwise it runs the default lesson.
const compareLesson = "edge-vs-level"

// The lesson's comments under each pseudocode block, in its words.
var (
	edgeComments = []string{
		"# missed the event -> short forever",
		"# handled it twice -> now running seven",
		"# script crashed mid-way -> unknown state",
	}
	levelComments = []string{
		"# missed a pass -> next pass fixes it",
		"# ran twice -> second pass is a no-op",
		"# crashed mid-way -> next pass sees the real gap",
	}
)

// Compare is /compare: the lesson's two pseudocode blocks side by side,
// each run by a twin of the same cluster (the ReplicaSet controller
// edge-triggered in one, level-triggered in the other), the line each
// executes marked on every pass, both twins' pod counts over time, and the
// three failures the pseudocode's comments name.
type Compare struct {
	app.Compo

	embed     bool
	updatable bool
	alert     string
	notice    string
	sc        *scenario.Scenario
	tw        *twins
	speed     int
	view      compareView

	ctx      app.Context
	mounted  bool
	clock    clock
	stopKeys func()
	stopHide func()
}

// compareView is what the compare view shows of the twins.
type compareView struct {
	ready       bool
	now         string
	done        bool
	level, edge twinView
	chart       string
	summary     string
}

// twinView is one twin as the compare view shows it.
type twinView struct {
	pass    int
	pods    int
	wanted  int
	each    []string
	last    sim.Pass
	hasLast bool
	crashed string
}

// OnInit starts the twins.
func (c *Compare) OnInit() {
	c.speed = defaultSpeed
	c.start()
}

// OnNav sets the page title and notes whether the page is embedded.
func (c *Compare) OnNav(ctx app.Context) {
	ctx.Page().SetTitle("Edge-triggered or level-triggered · Reconcile")
	ctx.Page().SetDescription("The same cluster twice: an edge-triggered and a level-triggered ReplicaSet controller, given the same faults.")
	c.embed = embedded(ctx.Page().URL())
}

// OnAppUpdate offers to reload when a new version has been installed.
func (c *Compare) OnAppUpdate(ctx app.Context) {
	c.updatable = ctx.AppUpdateAvailable()
}

// OnMount binds the keyboard and pauses play when the page is hidden.
func (c *Compare) OnMount(ctx app.Context) {
	c.ctx, c.mounted = ctx, true
	c.stopKeys = listenKeys(ctx, []string{" ", "ArrowRight", "Home"}, func(ctx app.Context, key string) {
		switch key {
		case " ":
			c.togglePlay()
		case "ArrowRight":
			c.next()
		case "Home":
			c.reset()
		}
	})
	c.stopHide = onHidden(ctx, func(ctx app.Context) {
		if c.clock.running() {
			c.clock.stop()
			c.notice = "Paused while the page was hidden."
		}
	})
}

// OnDismount stops playing and unbinds the keyboard.
func (c *Compare) OnDismount() {
	c.clock.stop()
	c.mounted = false
	for _, stop := range []*func(){&c.stopKeys, &c.stopHide} {
		if *stop != nil {
			(*stop)()
			*stop = nil
		}
	}
}

// start (re)creates both twins at pass 0.
func (c *Compare) start() {
	c.clock.stop()
	c.alert, c.notice, c.tw = "", "", nil
	sc, err := compareScenario()
	if err != nil {
		c.alert = err.Error()
		return
	}
	c.sc = sc
	guard(&c.alert, "Starting the twins", func() {
		tw, err := newTwins(sc)
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
		c.view = compareView{}
		return
	}
	var v compareView
	if guard(&c.alert, "Reading the twins", func() {
		t := c.tw
		v.now = t.now().String()
		v.done = t.done()
		read := func(s *sim.Sim) twinView {
			tv := twinView{pass: s.PassCount(), pods: activePods(s), wanted: wantedPods(s), crashed: controllerCrashed(s), each: deploymentCounts(s)}
			tv.last, tv.hasLast = lastReplicaSetPass(s, 400)
			return tv
		}
		v.level, v.edge = read(t.level), read(t.edge)
		if d := t.diverged; d != nil {
			v.summary = fmt.Sprintf("The twins' pod counts first differ at t=%s: level-triggered %d (after its pass %d), edge-triggered %d (after its pass %d).",
				d.at, d.level, d.levelPass, d.edge, d.edgePass)
		} else {
			v.summary = "So far both twins have the same number of pods at every moment."
		}
		v.chart = countChart(t, v.level.wanted, fmt.Sprintf("At t=%s the level-triggered twin has %d pods and the edge-triggered twin %d; %d are wanted. %s",
			v.now, v.level.pods, v.edge.pods, v.level.wanted, v.summary))
		v.ready = true
	}) {
		c.view = v
	}
}

func (c *Compare) next() {
	if c.tw == nil || c.view.done {
		return
	}
	c.alert = ""
	guard(&c.alert, "Next pass", func() {
		if !c.tw.step() {
			c.clock.stop()
		}
	})
	c.refresh()
}

func (c *Compare) reset() {
	c.start()
}

func (c *Compare) play() {
	if c.tw == nil || c.view.done || !c.mounted {
		return
	}
	c.notice = ""
	c.clock.start(c.ctx, func() time.Duration { return speeds[c.speed].every }, func(ctx app.Context) bool {
		c.next()
		return !c.view.done && c.alert == ""
	})
}

func (c *Compare) togglePlay() {
	if c.clock.running() {
		c.clock.stop()
		return
	}
	c.play()
}

// demonstrate gives both twins the inputs of demonstration d, then plays.
func (c *Compare) demonstrate(d demonstration) {
	if c.tw == nil {
		return
	}
	c.clock.stop()
	c.alert = ""
	guard(&c.alert, d.button, func() {
		if err := c.tw.give(d); err != nil {
			c.alert = err.Error()
		}
	})
	if c.alert == "" {
		var lines []string
		for _, in := range c.tw.level.Inputs() {
			if in.At == c.tw.marks[len(c.tw.marks)-1].at {
				lines = append(lines, in.Input.Text())
			}
		}
		c.notice = fmt.Sprintf("At t=%s both twins got: %s. Playing on.", c.tw.now(), strings.Join(lines, ", then "))
	}
	c.refresh()
	c.play()
}

func kubectlWord(line string) string {
	if line == "" {
		return ""
	}
	return "kubectl " + line
}

func (c *Compare) onNext(ctx app.Context, e app.Event)    { c.next() }
func (c *Compare) onReset(ctx app.Context, e app.Event)   { c.reset() }
func (c *Compare) onPlay(ctx app.Context, e app.Event)    { c.togglePlay() }
func (c *Compare) onDismiss(ctx app.Context, e app.Event) { c.alert = "" }

func (c *Compare) onSpeed(ctx app.Context, e app.Event) {
	c.speed = speedIndex(ctx.JSSrc().Get("value").String())
}

// onDemo runs the demonstration the pressed button names (data-demo).
func (c *Compare) onDemo(ctx app.Context, e app.Event) {
	name := ctx.JSSrc().Get("dataset").Get("demo").String()
	for _, d := range demonstrations {
		if d.name == name {
			c.demonstrate(d)
		}
	}
}

// Render draws the page.
func (c *Compare) Render() app.UI {
	s := shell{embed: c.embed, alert: c.alert, updatable: c.updatable}
	if c.alert != "" && c.tw != nil {
		s.onDismiss = c.onDismiss
	}
	v := c.view
	off := !v.ready
	playing := c.clock.running()
	playLabel := "Play"
	if playing {
		playLabel = "Pause"
	}
	status := fmt.Sprintf("t=%s · edge-triggered pass %d · level-triggered pass %d", orDash(v.now), v.edge.pass, v.level.pass)
	if v.done {
		status += " · nothing more happens before the end of the run"
	}
	return s.render(
		app.Section().Class("intro").Body(
			app.H1().Text("Edge-triggered or level-triggered"),
			app.P().Class("lead").Text("An edge-triggered system reacts to change notifications: something happened, do the corresponding thing. "+
				"A level-triggered system reacts to the current gap. Here is the same cluster twice, with the same inputs at the same moments; "+
				"only its ReplicaSet controller differs."),
		),
		app.Section().Class("transport").Aria("label", "Transport").Body(
			app.Div().Class("buttons").Body(
				app.Button().Type("button").Text("Reset").Disabled(off).OnClick(c.onReset).Title("Back to the start (Home)"),
				app.Button().Type("button").Class("play").Text(playLabel).Disabled(off || (v.done && !playing)).OnClick(c.onPlay).Title("Run passes one after another (Space)"),
				app.Button().Type("button").Class("primary").Text("Next pass").Disabled(off || v.done).OnClick(c.onNext).Title("Run the next pass of the twin that is behind (→)"),
			),
			app.Div().Class("dials").Body(
				app.Div().Class("field").Body(
					app.Label().For("speed").Text("Speed"),
					app.Select().ID("speed").OnChange(c.onSpeed).Body(app.Range(speeds).Slice(func(i int) app.UI {
						return app.Option().Value(speeds[i].label).Text(speeds[i].label).Selected(i == c.speed)
					})),
				),
			),
			app.P().Class("status").Role("status").Text(status),
		),
		app.Section().Class("demos").Aria("labelledby", "demos-title").Body(
			app.H2().ID("demos-title").Text("Break both the same way"),
			app.P().Class("muted").Text("Each button first lets the cluster settle (one simulated minute), then gives both twins the same inputs at the same moment, and plays on."),
			app.Ul().Class("demo-list").Body(app.Range(demonstrations).Slice(func(i int) app.UI {
				d := demonstrations[i]
				return app.Li().Body(
					app.Button().Type("button").Class("demo").DataSet("demo", d.name).Text(d.button).Disabled(off).OnClick(c.onDemo),
					app.Span().Class("muted").Text(" edge: "+d.edge+"; level: "+d.level+"."),
				)
			})),
		),
		app.If(c.notice != "", func() app.UI { return app.P().Class("notice").Text(c.notice) }),
		app.Div().Class("twins").Body(
			renderTwin("edge", "Edge-triggered", controller.EdgeLines, edgeComments, v.edge),
			renderTwin("level", "Level-triggered", controller.LevelLines, levelComments, v.level),
		),
		app.Figure().Class("chart-figure").Body(
			app.Raw(v.chart),
			app.FigCaption().Class("diverge-summary").Text(v.summary),
		),
		app.P().Class("muted").Body(
			app.Text("The twins run the lesson "),
			app.A().Href("/s/"+c.scID()).Text(c.scTitle()),
			app.Text(". Keys: Space play/pause, → next pass, Home reset."),
		),
	)
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

// renderTwin draws one twin: its pseudocode with the executing line
// marked, its pod count and its latest ReplicaSet pass.
func renderTwin(key, title string, lines, comments []string, v twinView) app.UI {
	var executed []int
	if v.hasLast {
		executed = v.last.Lines
	}
	class := "twin " + key
	if v.pods != v.wanted && v.hasLast {
		class += " off" // short or over once its controller has run
	}
	return app.Section().Class(class).Aria("labelledby", key+"-title").Body(
		app.H2().ID(key+"-title").Text(title),
		renderCode(title+" pseudocode", lines, executed),
		app.Ul().Class("comments").Body(app.Range(comments).Slice(func(i int) app.UI {
			return app.Li().Body(app.Code().Text(comments[i]))
		})),
		app.P().Class("pods").DataSet("pods", v.pods).DataSet("wanted", v.wanted).Body(
			app.Strong().Text(fmt.Sprintf("%s of %s wanted", plural(v.pods, "pod"), strconv.Itoa(v.wanted))),
			app.Text(" · "+gapWords(v.pods, v.wanted)),
			app.If(v.crashed != "", func() app.UI { return app.Text(" · replicaset-controller " + v.crashed) }),
		),
		app.If(len(v.each) > 0, func() app.UI {
			return app.P().Class("each").Text("Pods per Deployment: " + strings.Join(v.each, " · "))
		}),
		app.If(v.hasLast, func() app.UI {
			return app.P().Class("last-pass").Text(fmt.Sprintf("Its latest ReplicaSet pass, #%d at t=%s: %s · %s · %s → %s",
				v.last.N, v.last.AtText, orDash(v.last.Desired), orDash(v.last.Observed), orDash(v.last.Difference), sim.SummarizeActions(v.last)))
		}).Else(func() app.UI {
			return app.P().Class("last-pass").Text("The ReplicaSet controller has not run yet.")
		}),
	)
}

// renderCode draws a pseudocode block of the lesson with the lines a pass
// executed (1-based) marked, and the last of them as the current step.
func renderCode(label string, lines []string, executed []int) app.UI {
	ran := map[int]bool{}
	current := 0
	for _, l := range executed {
		ran[l] = true
		current = l
	}
	return app.Ol().Class("code").Aria("label", label).Body(
		app.Range(lines).Slice(func(i int) app.UI {
			n := i + 1
			switch {
			case n == current:
				return app.Li().Class("ran current").Aria("current", "step").Body(app.Code().Text(lines[i]))
			case ran[n]:
				return app.Li().Class("ran").Body(app.Code().Text(lines[i]))
			}
			return app.Li().Body(app.Code().Text(lines[i]))
		}),
	)
}
