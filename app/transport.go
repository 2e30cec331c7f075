package app

import (
	"fmt"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/el"
	"reconcile/app/session"
)

// transport is the transport bar of a stage: Reset, Previous pass,
// Play/Pause and Next pass (with the keys Home, ←, Space and →), the Speed
// and Timeline controls, and the status (role="status") that says which
// pass the run is at, at what simulated time, and whether the world has
// converged.
type transport struct {
	// lesson names the lesson in the status's data-lesson, so that the
	// browser can take the prerendered page's end of the run.
	lesson string
	// busy says the page is opening work: the controls are off.
	busy string
	// suffix ends the status ("future b").
	suffix string
	// extra buttons go after Next pass.
	extra []app.UI
}

func (s *stage) renderTransport(t transport) app.UI {
	v := s.view
	off := !v.Ready || t.busy != ""
	status := fmt.Sprintf("Pass %d", v.N)
	if v.Final {
		status += fmt.Sprintf(" of %d", v.Known)
	}
	status += " · t=" + orDash(v.Now)
	switch {
	case t.busy != "":
		status += " · " + t.busy
	case v.Converged && v.N > 0 && v.AtEnd:
		status += " · converged: nothing more happens"
	case v.AtEnd:
		status += " · nothing more happens before the end of the run"
	case v.Converged && v.N > 0:
		status += " · converged"
	case v.N > 0:
		status += " · not converged"
	}
	for _, verb := range v.Acting {
		status += " · kubectl " + verb + " still running"
	}
	if t.suffix != "" {
		status += " · " + t.suffix
	}
	playing := s.clock.running()
	playLabel, playTitle := "Play", "Run passes one after another (Space)"
	if playing {
		playLabel, playTitle = "Pause", "Stop after this pass (Space)"
	}
	end := max(v.Known, v.N)
	s.keepHandle(v.N)
	buttons := []app.UI{
		el.Button().Attr("type", "button").Text("Reset").Attr("disabled", off).OnClick(s.onReset).Title("Back to the start (Home)"),
		el.Button().Attr("type", "button").Text("Previous pass").Attr("disabled", off || v.N == 0).OnClick(s.onPrevious).Title("Step back one pass (←)"),
		el.Button().Attr("type", "button").Class("play").Text(playLabel).Attr("disabled", off || (v.AtEnd && !playing)).OnClick(s.onPlay).Title(playTitle),
		el.Button().Attr("type", "button").Class("primary").Text("Next pass").Attr("disabled", off || v.AtEnd).OnClick(s.onNext).Title("Run the next pass (→)"),
	}
	class := "transport stagebar"
	if s.dialsOpen {
		class += " open"
	}
	return el.Section().Class(class).Aria("label", "Transport").Body(
		el.Div().Class(buttonsClass(len(t.extra))).Body(append(buttons, t.extra...)...),
		el.Button().Attr("type", "button").Class("quiet more").Aria("expanded", strconv.FormatBool(s.dialsOpen)).Aria("controls", "dials").
			Aria("label", "More controls").Text("More").OnClick(s.onDials),
		el.Div().ID("dials").Class("dials").Body(
			el.Div().Class("pacing").Body(
				el.Button().Attr("type", "button").Text("Next event").Attr("disabled", off || v.AtEnd).OnClick(s.onNextEvent).
					Title("Run passes until something you can see changes, or an input comes"),
				// Out of the start-up the button keeps its place, unseen, so
				// that nothing after it moves when the start-up ends.
				el.Button().Attr("type", "button").Class(startupClass(v.InStartup)).Text("Skip start-up").Attr("disabled", off || !v.InStartup).
					OnClick(s.onSkipStartup).Title("Run the start-up passes at once, to where the world first settles"),
			),
			speedControl(s.speed, s.onSpeed),
			el.Div().Class("field timeline").Body(
				el.Label().Attr("for", "timeline").Text("Timeline"),
				el.Input().Attr("type", "range").ID("timeline").Attr("min", 0).Attr("max", end).Attr("step", 1).Attr("value", v.N).
					Attr("disabled", off).Aria("valuetext", fmt.Sprintf("pass %d of %d", v.N, end)).OnInput(s.onTimeline),
				&marksRow{Marks: v.Marks, End: end, onMark: s.onMark},
			),
		),
		// The end of the run as far as it is known, for the browser to take
		// from the prerendered page (prerenderedEnd).
		el.P().Class("status").Role("status").DataSet("lesson", t.lesson).DataSet("known", v.Known).DataSet("final", v.Final).Text(status),
	)
}

// keepHandle puts the timeline's handle at pass n once the page is drawn.
// go-app sets the range's max and value in no fixed order: a value past the
// old max, set first, is clamped by the browser and never set again (after
// Commit to git the handle stayed at the start, the status at pass 90).
func (s *stage) keepHandle(n int) {
	if !app.IsClient || !s.mounted {
		return
	}
	s.ctx.Defer(func(app.Context) {
		if e := app.Window().GetElementByID("timeline"); e.Truthy() && e.Get("value").String() != strconv.Itoa(n) {
			e.Set("value", n)
		}
	})
}

// renderMarks draws the timeline's marks under it: each a button that goes
// to the moment it marks.
// marksRow is the timeline's marks, a component of its own: they change
// when the run learns of a moment or an input is given, not at every
// pass, so go-app compares its fields and most passes draw them no more.
// onMark is kept from the first render (it is the stage's).
type marksRow struct {
	app.Compo

	Marks  []session.Mark
	End    int
	onMark app.EventHandler
}

func (r *marksRow) Render() app.UI {
	marks, end := r.Marks, r.End
	if len(marks) == 0 || end == 0 {
		// The row is kept, so the transport does not grow when the first
		// mark comes.
		return el.Div().Class("marks").Aria("hidden", "true")
	}
	return el.Ul().Class("marks").Aria("label", "Moments on the timeline").Body(app.Range(marks).Slice(func(i int) app.UI {
		m := marks[i]
		pos := float64(min(m.N, end)) / float64(end) * 100
		return el.Li().Class("mark m-"+m.Kind).Style("left", fmt.Sprintf("%.2f%%", pos)).Body(
			el.Button().Attr("type", "button").Class("mark-button").DataSet("pass", m.N).OnClick(r.onMark).
				Aria("label", fmt.Sprintf("Go to just after pass %d: %s", m.N, m.Label)).Title(fmt.Sprintf("after pass %d, t=%s: %s", m.N, m.At, m.Label)),
		)
	}))
}

// speedControl is the Speed control: how fast Play runs passes.
func speedControl(speed int, onSpeed app.EventHandler) app.UI {
	return el.Div().Class("field").Body(
		el.Label().Attr("for", "speed").Text("Speed"),
		el.Select().ID("speed").OnChange(onSpeed).Body(app.Range(speeds).Slice(func(i int) app.UI {
			return el.Option().Attr("value", speeds[i].label).Text(speeds[i].label).Attr("selected", el.Flag(i == speed))
		})),
	)
}

// startupClass hides Skip start-up, in its place, out of the start-up.
func startupClass(in bool) string {
	if in {
		return "startup"
	}
	return "startup unseen"
}

// buttonsClass lets a row with extra buttons wrap on a compact screen.
func buttonsClass(extra int) string {
	if extra > 0 {
		return "buttons many"
	}
	return "buttons"
}
