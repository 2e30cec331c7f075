package app

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
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
	buttons := []app.UI{
		app.Button().Type("button").Text("Reset").Disabled(off).OnClick(s.onReset).Title("Back to the start (Home)"),
		app.Button().Type("button").Text("Previous pass").Disabled(off || v.N == 0).OnClick(s.onPrevious).Title("Step back one pass (←)"),
		app.Button().Type("button").Class("play").Text(playLabel).Disabled(off || (v.AtEnd && !playing)).OnClick(s.onPlay).Title(playTitle),
		app.Button().Type("button").Class("primary").Text("Next pass").Disabled(off || v.AtEnd).OnClick(s.onNext).Title("Run the next pass (→)"),
	}
	return app.Section().Class("transport").Aria("label", "Transport").Body(
		app.Div().Class("buttons").Body(append(buttons, t.extra...)...),
		app.Div().Class("dials").Body(
			speedControl(s.speed, s.onSpeed),
			app.Div().Class("field timeline").Body(
				app.Label().For("timeline").Text("Timeline"),
				app.Input().Type("range").ID("timeline").Min(0).Max(end).Step(1).Value(v.N).
					Disabled(off).Aria("valuetext", fmt.Sprintf("pass %d of %d", v.N, end)).OnInput(s.onTimeline),
			),
		),
		// The end of the run as far as it is known, for the browser to take
		// from the prerendered page (prerenderedEnd).
		app.P().Class("status").Role("status").DataSet("lesson", t.lesson).DataSet("known", v.Known).DataSet("final", v.Final).Text(status),
	)
}

// speedControl is the Speed control: how fast Play runs passes.
func speedControl(speed int, onSpeed app.EventHandler) app.UI {
	return app.Div().Class("field").Body(
		app.Label().For("speed").Text("Speed"),
		app.Select().ID("speed").OnChange(onSpeed).Body(app.Range(speeds).Slice(func(i int) app.UI {
			return app.Option().Value(speeds[i].label).Text(speeds[i].label).Selected(i == speed)
		})),
	)
}
