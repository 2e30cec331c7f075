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
	tw        *session.Twins
	view      session.TwinsView
	chart     string
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
	ctx.Page().SetDescription("The same cluster twice: an edge-triggered and a level-triggered ReplicaSet controller, given the same faults.")
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
		c.chart = countChart(c.tw.Series(), v.Level.Wanted, fmt.Sprintf("At t=%s the level-triggered twin has %d pods and the edge-triggered twin %d; %d are wanted. %s",
			v.Now, v.Level.Pods, v.Edge.Pods, v.Level.Wanted, v.Summary))
		c.view = v
	})
}

// The compare page's stepper: the twins step together; there is no
// stepping back (Reset starts them again).

func (c *Compare) next(ctx app.Context)     { c.step() }
func (c *Compare) previous(ctx app.Context) {}
func (c *Compare) reset(ctx app.Context)    { c.start() }

func (c *Compare) togglePlay(ctx app.Context) {
	if c.clock.running() {
		c.clock.stop()
		return
	}
	c.play()
}

func (c *Compare) step() {
	if c.tw == nil || c.view.Done {
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
	if c.tw == nil || c.view.Done || !c.mounted {
		return
	}
	c.notice = ""
	c.clock.start(c.ctx, func() time.Duration { return speeds[c.speed].every }, func(ctx app.Context) bool {
		c.step()
		return !c.view.Done && c.alert == ""
	})
}

// demonstrate gives both twins the inputs of demonstration d, then plays.
func (c *Compare) demonstrate(d session.Demonstration) {
	if c.tw == nil {
		return
	}
	c.clock.stop()
	c.alert = ""
	guard(&c.alert, d.Button, func() {
		if err := c.tw.Give(d); err != nil {
			c.alert = err.Error()
		}
	})
	if c.alert == "" {
		c.notice = fmt.Sprintf("At t=%s both twins got: %s. Playing on.", c.tw.Now(), strings.Join(c.tw.LastInputs(), ", then "))
	}
	c.refresh()
	c.play()
}

func (c *Compare) onNext(ctx app.Context, e app.Event)    { c.step() }
func (c *Compare) onReset(ctx app.Context, e app.Event)   { c.start() }
func (c *Compare) onPlay(ctx app.Context, e app.Event)    { c.togglePlay(ctx) }
func (c *Compare) onDismiss(ctx app.Context, e app.Event) { c.alert = "" }

// onDemo runs the demonstration the pressed button names (data-demo).
func (c *Compare) onDemo(ctx app.Context, e app.Event) {
	name := ctx.JSSrc().Get("dataset").Get("demo").String()
	for _, d := range session.Demonstrations {
		if d.Name == name {
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
	off := !v.Ready
	playing := c.clock.running()
	playLabel := "Play"
	if playing {
		playLabel = "Pause"
	}
	status := fmt.Sprintf("t=%s · edge-triggered pass %d · level-triggered pass %d", orDash(v.Now), v.Edge.Pass, v.Level.Pass)
	if v.Done {
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
				app.Button().Type("button").Class("play").Text(playLabel).Disabled(off || (v.Done && !playing)).OnClick(c.onPlay).Title("Run passes one after another (Space)"),
				app.Button().Type("button").Class("primary").Text("Next pass").Disabled(off || v.Done).OnClick(c.onNext).Title("Run the next pass of the twin that is behind (→)"),
			),
			app.Div().Class("dials").Body(
				speedControl(c.speed, c.onSpeed),
			),
			app.P().Class("status").Role("status").Text(status),
		),
		app.Section().Class("demos").Aria("labelledby", "demos-title").Body(
			app.H2().ID("demos-title").Text("Break both the same way"),
			app.P().Class("muted").Text("Each button first lets the cluster settle (one simulated minute), then gives both twins the same inputs at the same moment, and plays on."),
			app.Ul().Class("demo-list").Body(app.Range(session.Demonstrations).Slice(func(i int) app.UI {
				d := session.Demonstrations[i]
				return app.Li().Body(
					app.Button().Type("button").Class("demo").DataSet("demo", d.Name).Text(d.Button).Disabled(off).OnClick(c.onDemo),
					app.Span().Class("muted").Text(" edge: "+d.Edge+"; level: "+d.Level+"."),
				)
			})),
		),
		app.If(c.notice != "", func() app.UI { return app.P().Class("notice").Text(c.notice) }),
		app.Div().Class("twins").Body(
			renderTwin("edge", "Edge-triggered", controller.EdgeLines, edgeComments, v.Edge),
			renderTwin("level", "Level-triggered", controller.LevelLines, levelComments, v.Level),
		),
		app.Figure().Class("chart-figure").Body(
			app.Raw(c.chart),
			app.FigCaption().Class("diverge-summary").Text(v.Summary),
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
func renderTwin(key, title string, lines, comments []string, v session.TwinView) app.UI {
	var executed []int
	if v.HasLast {
		executed = v.Last.Lines
	}
	class := "twin " + key
	if v.Pods != v.Wanted && v.HasLast {
		class += " off" // short or over once its controller has run
	}
	return app.Section().Class(class).Aria("labelledby", key+"-title").Body(
		app.H2().ID(key+"-title").Text(title),
		renderCode(title+" pseudocode", lines, executed),
		app.Ul().Class("comments").Body(app.Range(comments).Slice(func(i int) app.UI {
			return app.Li().Body(app.Code().Text(comments[i]))
		})),
		app.P().Class("pods").DataSet("pods", v.Pods).DataSet("wanted", v.Wanted).Body(
			app.Strong().Text(fmt.Sprintf("%s of %s wanted", plural(v.Pods, "pod"), strconv.Itoa(v.Wanted))),
			app.Text(" · "+session.GapWords(v.Pods, v.Wanted)),
			app.If(v.Crashed != "", func() app.UI { return app.Text(" · replicaset-controller " + v.Crashed) }),
		),
		app.If(len(v.Each) > 0, func() app.UI {
			return app.P().Class("each").Text("Pods per Deployment: " + strings.Join(v.Each, " · "))
		}),
		app.If(v.HasLast, func() app.UI {
			return app.P().Class("last-pass").Text(fmt.Sprintf("Its latest ReplicaSet pass, #%d at t=%s: %s · %s · %s → %s",
				v.Last.N, v.Last.AtText, orDash(v.Last.Desired), orDash(v.Last.Observed), orDash(v.Last.Difference), sim.SummarizeActions(v.Last)))
		}).Else(func() app.UI {
			return app.P().Class("last-pass").Text("The ReplicaSet controller has not run yet.")
		}),
	)
}
