package app

import (
	"fmt"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/el"
	"reconcile/scenarios"
)

// Home is the landing page, /: what this is in one line, the way to start,
// the loop in one picture and the lessons as a path, each with what its
// run will show, how long the run is and, in this browser, how far the
// learner got. Then the two other ways in and the keyboard.
type Home struct {
	app.Compo

	lessons   []lesson
	embed     bool
	updatable bool
	mounted   bool
	// ctx is the page's own context, from OnMount: an event's context
	// goes with its element, which a render may remove.
	ctx   app.Context
	alert string

	// kept is the learner's progress by lesson, read from the browser; nil
	// until it is read (and on the server, which keeps nothing).
	kept map[string]lessonProgress
	// confirming shows the question before the progress is forgotten;
	// forgetting is set while it is; notice says how it went.
	confirming, forgetting bool
	notice                 string
}

// OnInit reads the bundled lessons; it runs on the server and in the browser.
func (h *Home) OnInit() {
	h.lessons = lessons()
}

// OnNav sets the page title and notes whether the page is embedded.
func (h *Home) OnNav(ctx app.Context) {
	ctx.Page().SetTitle("Reconcile: the loop under Kubernetes")
	h.embed = embedded(ctx.Page().URL())
	if h.mounted {
		h.readKept(ctx)
	}
}

// OnMount reads the progress kept in this browser.
func (h *Home) OnMount(ctx app.Context) {
	h.mounted, h.ctx = true, ctx
	if msg := takeAddressProblem(); msg != "" {
		h.alert = msg
	}
	h.readKept(ctx)
}

// OnDismount notes that the page is gone.
func (h *Home) OnDismount() { h.mounted = false }

// OnAppUpdate offers to reload when a new version has been installed.
func (h *Home) OnAppUpdate(ctx app.Context) {
	h.updatable = ctx.AppUpdateAvailable()
}

// readKept reads the learner's progress off the UI goroutine, once the
// writes a lesson left under way have landed.
func (h *Home) readKept(ctx app.Context) {
	if !app.IsClient {
		return
	}
	ctx.Async(func() {
		progressKept.settle()
		st, err := storage()
		if err != nil {
			return // nothing is kept in this browser: the page shows none
		}
		got, err := st.readProgress()
		if err != nil {
			app.Logf("reconcile: reading the progress kept: %v", err)
			return
		}
		ctx.Dispatch(func(ctx app.Context) { h.kept = got })
	})
}

func (h *Home) onForget(ctx app.Context, e app.Event) {
	guard(&h.alert, "Asking before forgetting", func() {
		h.confirming, h.notice = true, ""
		h.focusLater("forget-keep")
	})
}

func (h *Home) onKeep(ctx app.Context, e app.Event) {
	guard(&h.alert, "Keeping the progress", func() {
		h.confirming = false
		h.focusLater("forget")
	})
}

func (h *Home) onForgetConfirmed(ctx app.Context, e app.Event) {
	guard(&h.alert, "Forgetting the progress", func() {
		if h.forgetting {
			return
		}
		h.forgetting = true
		page := h.ctx
		page.Async(func() {
			err := progressKept.forget(func() error {
				st, err := storage()
				if err != nil {
					return err
				}
				return st.forgetProgress()
			})
			page.Dispatch(func(ctx app.Context) {
				h.forgetting, h.confirming = false, false
				if err != nil {
					h.notice = "Your progress could not be forgotten: " + err.Error()
				} else {
					h.kept = map[string]lessonProgress{}
					h.notice = "Your progress is forgotten. The lessons will ask their questions again."
				}
				h.focusLater("forget-notice")
			})
		})
	})
}

// focusLater moves the focus to the element id once the page shows it.
func (h *Home) focusLater(id string) {
	if !app.IsClient || !h.mounted {
		return
	}
	h.ctx.Defer(func(ctx app.Context) {
		if e := app.Window().GetElementByID(id); e.Truthy() {
			e.Call("focus")
		}
	})
}

func (h *Home) onDismiss(ctx app.Context, e app.Event) { h.alert = "" }

// Render draws the page.
func (h *Home) Render() app.UI {
	s := shell{embed: h.embed, updatable: h.updatable, alert: h.alert}
	if h.alert != "" {
		s.onDismiss = h.onDismiss
	}
	return s.render(
		h.renderTop(),
		h.renderPath(),
		el.Section().Class("more").Aria("labelledby", "more-title").Body(
			el.H2().ID("more-title").Text("Two more ways in"),
			el.Ul().Body(
				el.Li().Body(
					el.A().Attr("href", "/compare").Text("Edge-triggered or level-triggered"),
					app.Text(": the lesson's two pseudocode blocks, each running a twin of the same cluster. Miss an event, handle one twice, crash mid-way, and watch which twin recovers."),
				),
				el.Li().Body(
					el.A().Attr("href", "/failures").Text("When the loop does not converge"),
					app.Text(": the lesson's failure table, each row replayable to its symptom and its response."),
				),
			),
		),
		el.Section().Class("keys").Aria("labelledby", "keys-title").Body(
			el.H2().ID("keys-title").Text("Keyboard"),
			el.P().Text("In a lesson: Space play or pause, → next pass, ← previous pass, Home back to the start."),
		),
	)
}

// renderTop is what the page says first: the title, one line, the way
// in, where the learner left off, and the loop.
func (h *Home) renderTop() app.UI {
	first, ok := h.first()
	return el.Section().Class("home-top").Aria("labelledby", "home-title").Body(
		el.Div().Class("home-intro").Body(
			el.H1().ID("home-title").Text("The loop under everything"),
			el.P().Class("lead").Text("Watch Kubernetes close the gap between what you declared and what is true, one controller pass at a time, in a cluster simulated in your browser."),
			app.If(ok, func() app.UI {
				return el.Div().Class("home-start").Body(
					el.A().Class("button primary").Attr("href", "/s/"+first.id).Text("Start here"),
					el.P().Class("muted").Text("Lesson 1: "+first.title),
				)
			}),
			h.renderResume(),
		),
		homeLoop(),
	)
}

// renderResume offers the lesson to go on with, when the learner has been
// here before: the one they were last in, or the next one not finished.
func (h *Home) renderResume() app.UI {
	l, lp, ok := h.resume()
	if !ok {
		return nil
	}
	if lp.visited && !lp.Finished {
		href := "/s/" + l.id
		if lp.Last > 0 {
			href += fmt.Sprintf("?pass=%d", lp.Last)
		}
		return el.P().Class("resume").Body(
			app.Text("Where you left off: "),
			el.A().Attr("href", href).Text(l.title),
			el.Span().Class("muted").Text(fmt.Sprintf(", at pass %d", lp.Last)),
		)
	}
	return el.P().Class("resume").Body(
		app.Text("Next on the path: "),
		el.A().Attr("href", "/s/"+l.id).Text(l.title),
	)
}

// renderPath is the lessons in the lesson's order, by section.
func (h *Home) renderPath() app.UI {
	groups := h.sections()
	read := ""
	if h.kept != nil {
		read = "read" // for the tests: what is kept has been read
	}
	return el.Section().ID("lessons").Class("path").Aria("labelledby", "lessons-title").DataSet("progress", read).Body(
		el.H2().ID("lessons-title").Text("The path"),
		el.P().Class("muted path-summary").Text(h.summary()),
		app.Range(groups).Slice(func(i int) app.UI {
			g := groups[i]
			id := fmt.Sprintf("part-%d", i+1)
			return el.Section().Class("part").Aria("labelledby", id).Body(
				el.H3().ID(id).Text(g.title),
				el.Ol().Class("lessons").Attr("start", g.start).Body(app.Range(g.lessons).Slice(func(j int) app.UI {
					return h.renderLesson(g.lessons[j])
				})),
			)
		}),
		h.renderForget(),
	)
}

// renderLesson is one step of the path: the lesson, what its run shows,
// how long it is and how far the learner got.
func (h *Home) renderLesson(l lesson) app.UI {
	lp := h.kept[l.id]
	class := ""
	switch {
	case lp.Finished:
		class = "finished"
	case lp.visited:
		class = "visited"
	}
	state := lp.words(l.passes)
	return el.Li().Class(class).DataSet("lesson", l.id).Body(
		el.A().Attr("href", "/s/"+l.id).Text(l.title),
		app.If(l.lead != "", func() app.UI { return el.P().Class("promise").Text(l.lead) }),
		app.If(l.err != "", func() app.UI {
			return el.P().Class("error").Text("This lesson cannot be read: " + l.err)
		}),
		el.P().Class("facts").Body(
			app.If(l.passes > 0, func() app.UI { return el.Span().Class("estimate").Text(estimate(l.passes)) }),
			app.If(len(state) > 0, func() app.UI {
				return el.Span().Class("state").Text(strings.Join(state, " · "))
			}),
		),
	)
}

// renderForget offers to forget the progress kept, asking first.
func (h *Home) renderForget() app.UI {
	if len(h.kept) == 0 && h.notice == "" {
		return nil
	}
	return el.Div().Class("forget").Body(
		app.If(len(h.kept) > 0, func() app.UI {
			return el.P().Class("muted").Text("Your progress is kept in this browser only, and sent nowhere.")
		}),
		app.If(len(h.kept) > 0 && !h.confirming, func() app.UI {
			return el.Button().ID("forget").Attr("type", "button").Class("quiet").Text("Forget my progress").OnClick(h.onForget)
		}),
		app.If(h.confirming, func() app.UI {
			return el.Div().Class("confirm").Role("group").Aria("labelledby", "forget-ask").Body(
				el.P().ID("forget-ask").Text("Forget how far you got in every lesson, and your answers to their questions? This cannot be undone."),
				el.Button().Attr("type", "button").Class("danger").Attr("disabled", h.forgetting).Text("Forget it").OnClick(h.onForgetConfirmed),
				el.Button().ID("forget-keep").Attr("type", "button").Text("Keep it").OnClick(h.onKeep),
			)
		}),
		el.P().ID("forget-notice").TabIndex(-1).Aria("live", "polite").Text(h.notice),
	)
}

// first is the lesson a newcomer starts with.
func (h *Home) first() (lesson, bool) {
	for _, l := range h.lessons {
		if l.id == scenarios.Default {
			return l, true
		}
	}
	if len(h.lessons) > 0 {
		return h.lessons[0], true
	}
	return lesson{}, false
}

// resume is the lesson to go on with: the one seen last if it is not
// finished, else the first not finished after it (or before it). It
// reports false for a newcomer, or when every lesson is finished.
func (h *Home) resume() (lesson, lessonProgress, bool) {
	latest := -1
	for i, l := range h.lessons {
		if lp := h.kept[l.id]; lp.visited && (latest < 0 || lp.Seen > h.kept[h.lessons[latest].id].Seen) {
			latest = i
		}
	}
	if latest < 0 {
		return lesson{}, lessonProgress{}, false
	}
	n := len(h.lessons)
	for k := 0; k < n; k++ {
		l := h.lessons[(latest+k)%n]
		if lp := h.kept[l.id]; !lp.Finished {
			return l, lp, true
		}
	}
	return lesson{}, lessonProgress{}, false
}

// summary says how long the path is and, in this browser, how far the
// learner is along it.
func (h *Home) summary() string {
	passes := 0
	for _, l := range h.lessons {
		passes += l.passes
	}
	s := fmt.Sprintf("%d lessons in %d parts, about %d minutes of play in all at %d passes a second. Stop wherever you like to read.",
		len(h.lessons), len(h.sections()), (passes/playSpeed+30)/60, playSpeed)
	finished, started, solved := 0, 0, 0
	for _, l := range h.lessons {
		if h.kept[l.id].Solved {
			solved++
		}
		switch lp := h.kept[l.id]; {
		case lp.Finished:
			finished++
		case lp.visited:
			started++
		}
	}
	var done []string
	if finished > 0 {
		done = append(done, fmt.Sprintf("%d finished", finished))
	}
	if started > 0 {
		done = append(done, fmt.Sprintf("%d started", started))
	}
	if solved == 1 {
		done = append(done, "1 challenge solved")
	} else if solved > 0 {
		done = append(done, fmt.Sprintf("%d challenges solved", solved))
	}
	if len(done) > 0 {
		s += " In this browser: " + strings.Join(done, ", ") + "."
	}
	return s
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
