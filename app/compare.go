package app

import (
	"fmt"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/el"
	"reconcile/app/session"
	"reconcile/engine/scenario"
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
	return s.render(el.Div().Class("compare").Body(
		el.Div().Class("cmp-head").Body(
			el.H1().Text("Edge-triggered or level-triggered"),
			c.renderAbout(),
		),
		el.Section().Class("transport").Aria("label", "Transport").Body(
			el.Div().Class("buttons").Body(
				el.Button().Attr("type", "button").Text("Reset").Attr("disabled", off).OnClick(c.onReset).Title("Start both twins again at t=0 (Home)"),
				el.Button().Attr("type", "button").Class("play").Text(playLabel).Attr("disabled", off || asking || (v.Done && !playing)).OnClick(c.onPlay).Title("Run passes one after another (Space)"),
				el.Button().Attr("type", "button").Class("primary").Text("Next pass").Attr("disabled", off || asking || v.Done).OnClick(c.onNext).Title("Take both twins to their next moment: one pass of each twin that has one due (→)"),
			),
			el.Div().Class("dials").Body(speedControl(c.speed, c.onSpeed)),
			el.P().Class("status").Role("status").DataSet("at", v.Now).DataSet("edge-pass", v.Edge.Pass).DataSet("level-pass", v.Level.Pass).Text(status),
		),
		el.Section().Class("demos").Aria("labelledby", "demos-title").Body(
			el.Div().Class("demo-row").Body(
				el.H2().ID("demos-title").Text("Break both the same way"),
				el.Div().Class("demo-buttons").Body(app.Range(session.Demonstrations).Slice(func(i int) app.UI {
					d := session.Demonstrations[i]
					return el.Button().Attr("type", "button").Class("demo").DataSet("demo", d.Name).Aria("current", d.Name == v.Demo).
						Aria("describedby", "demos-help").Text(d.Button).Attr("disabled", off).OnClick(c.onDemo)
				})),
			),
			el.P().ID("demos-help").Class("muted demos-help").Text("Each button starts both twins again from a settled world (one simulated minute), then gives both the same mishap at the same moment: mishaps do not stack."),
			app.If(asking, c.renderQuestion).Else(func() app.UI {
				return el.P().ID("cmp-notice").Class("cmp-notice").TabIndex(-1).Aria("live", "polite").Text(c.noticeText())
			}),
		),
		el.Div().Class("twins").Body(
			renderTwin("edge", "Edge-triggered", v.Edge, v, comment(hasDemo, d.Edge), asking),
			renderTwin("level", "Level-triggered", v.Level, v, comment(hasDemo, d.Level), asking),
		),
		el.Figure().Class("chart-figure").Body(
			app.Raw(c.chart),
			el.FigCaption().Class("diverge-summary").Text(v.Summary),
		),
	))
}

// renderAbout is the page's introduction, folded away so that the twins
// fit one screen.
func (c *Compare) renderAbout() app.UI {
	return el.Details().Class("about").Body(
		el.Summary().Text("What this page shows"),
		el.P().Text("An edge-triggered system reacts to change notifications: something happened, do the corresponding thing. "+
			"A level-triggered system reacts to the current gap. Here is the same cluster twice, with the same inputs at the same moments; "+
			"only its ReplicaSet controller differs. Next pass takes both twins to the same next moment and runs one pass of each twin that has one due then."),
		el.P().Body(
			app.Text("The lesson writes the edge-triggered block for a node failure: "),
			el.Code().Text("on node_failure(node): count = pods_lost(node); start(count) more pods"),
			app.Text(". A node failure reaches the controller as one pod_lost event per pod, and a ReplicaSet created or resized is an event too: "+
				"the edge twin shows one handler per kind of event, and lights the one that ran."),
		),
		el.Ul().Body(app.Range(session.Demonstrations).Slice(func(i int) app.UI {
			d := session.Demonstrations[i]
			return el.Li().Body(el.Strong().Text(d.Button+": "), el.Code().Text(d.Edge), app.Text(" "), el.Code().Text(d.Level))
		})),
		el.P().Body(
			app.Text("The twins run the lesson "),
			el.A().Attr("href", "/s/"+c.scID()).Text(c.scTitle()),
			app.Text(". Keys: Space play/pause, → next pass, Home reset."),
		),
	)
}

// renderQuestion asks how the edge-triggered twin ends, before the
// mishap plays.
func (c *Compare) renderQuestion() app.UI {
	q := c.asking
	return el.Section().Class("ask").Aria("labelledby", "ask-title").Body(
		el.H2().ID("ask-title").TabIndex(-1).Text(q.Text),
		el.Div().Class("choices").Role("group").Aria("labelledby", "ask-title").Body(
			app.Range(q.Choices).Slice(func(i int) app.UI {
				return el.Button().Attr("type", "button").Class("choice").DataSet("choice", i).OnClick(c.onChoice).Text(strconv.Itoa(q.Choices[i]))
			}),
			el.Button().Attr("type", "button").Class("quiet").Text("Skip the question").OnClick(c.onSkip),
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
