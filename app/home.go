package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Home is the landing page, /: what this is, the loop in one picture and the
// lessons in order.
type Home struct {
	app.Compo

	lessons   []lesson
	embed     bool
	updatable bool
}

// OnInit reads the bundled lessons; it runs on the server and in the browser.
func (h *Home) OnInit() {
	h.lessons = lessons()
}

// OnNav sets the page title and notes whether the page is embedded.
func (h *Home) OnNav(ctx app.Context) {
	ctx.Page().SetTitle("Reconcile: the loop under Kubernetes")
	h.embed = embedded(ctx.Page().URL())
}

// OnAppUpdate offers to reload when a new version has been installed.
func (h *Home) OnAppUpdate(ctx app.Context) {
	h.updatable = ctx.AppUpdateAvailable()
}

// Render draws the page.
func (h *Home) Render() app.UI {
	groups := h.sections()
	return shell{embed: h.embed, updatable: h.updatable}.render(
		app.Section().Class("intro").Body(
			app.H1().Text("The loop under everything"),
			app.P().Class("lead").Text("You write desired state; a controller observes actual state; the difference is the instruction. "+
				"Reconcile runs a small, faithful simulation of a Kubernetes control plane in your browser, so you can step that loop one pass at a time and see why each action happens."),
			app.P().Text("A pass is one controller reconciling one object once: it reads what should be true, looks at what is true, "+
				"computes the difference and takes one step to reduce it. Then it looks again."),
		),
		homeLoop(),
		app.Section().Class("more").Aria("labelledby", "more-title").Body(
			app.H2().ID("more-title").Text("Two more ways in"),
			app.Ul().Body(
				app.Li().Body(
					app.A().Href("/compare").Text("Edge-triggered or level-triggered"),
					app.Text(": the lesson's two pseudocode blocks, each running a twin of the same cluster. Miss an event, handle one twice, crash mid-way, and watch which twin recovers."),
				),
				app.Li().Body(
					app.A().Href("/failures").Text("When the loop does not converge"),
					app.Text(": the lesson's failure table, each row replayable to its symptom and its response."),
				),
			),
		),
		app.Section().ID("lessons").Aria("labelledby", "lessons-title").Body(
			app.H2().ID("lessons-title").Text("Lessons"),
			app.Range(groups).Slice(func(i int) app.UI {
				g := groups[i]
				return app.Div().Class("section").Body(
					app.H3().Text(g.title),
					app.Ol().Class("lessons").Start(g.start).Body(app.Range(g.lessons).Slice(func(j int) app.UI {
						l := g.lessons[j]
						return app.Li().Body(
							app.A().Href("/s/"+l.id).Text(l.title),
							app.If(l.summary != "", func() app.UI {
								return app.P().Text(firstSentence(l.summary))
							}),
							app.If(l.err != "", func() app.UI {
								return app.P().Class("error").Text("This lesson cannot be read: " + l.err)
							}),
						)
					})),
				)
			}),
		),
		app.Section().Class("keys").Aria("labelledby", "keys-title").Body(
			app.H2().ID("keys-title").Text("Keyboard"),
			app.P().Text("In a lesson: Space play or pause, → next pass, ← previous pass, Home back to the start."),
		),
	)
}

// lessonGroup is a run of lessons of one section of the lesson.
type lessonGroup struct {
	title   string
	start   int
	lessons []lesson
}

// sections groups the lessons by section, keeping their order and their
// numbering.
func (h *Home) sections() []lessonGroup {
	var out []lessonGroup
	for i, l := range h.lessons {
		if n := len(out); n == 0 || out[n-1].title != l.section {
			out = append(out, lessonGroup{title: l.section, start: i + 1})
		}
		out[len(out)-1].lessons = append(out[len(out)-1].lessons, l)
	}
	return out
}
