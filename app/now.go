package app

import (
	"fmt"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/el"
	"reconcile/engine/sim"
)

// The "now" box is the first thing under the transport: what the current
// pass did and why, in one plain sentence each, and what the world is
// doing: converged (only when the engine says so) or what is still moving.

// renderNow draws the now box of the stage; note, when set, is a line
// above the sentence (how the learner's guess went).
func (s *stage) renderNow(note string) app.UI {
	v := s.view
	c := v.Current
	what, why := s.nowWords()
	class := "now"
	if c != nil {
		class += " r-" + outcomeClass(c.Result)
	}
	if len(v.Traffic) > 0 {
		class += " has-traffic"
	}
	if s.nowLong(what, why) {
		class += " long3"
	}
	if s.nowOpen {
		class += " open"
	}
	return el.Section().ID("now").Class(class).Aria("labelledby", "now-title").Body(
		el.H2().ID("now-title").Class("visually-hidden").Text(nowTitle(c)),
		app.If(note != "", func() app.UI { return el.P().Class("note").Text(note) }),
		el.P().Class("what").Text(what),
		// The expander sits beside the why, where it costs no line (or
		// above the stage, on a page that has a line there).
		el.Div().Class("why-row").Body(
			app.If(why != "", func() app.UI { return el.P().Class("why").Text(why) }),
			app.If(!s.openAbove, func() app.UI { return expander("now", s.nowOpen, s.onNowOpen) }),
		),
		renderWorld(v.Converged, v.N, v.Moving, v.Why),
		renderTraffic(v.Traffic),
		app.If(s.drawMini(), func() app.UI { return loopMini(c) }),
	)
}

// nowWords are the now box's sentence and why, made once per reading of
// the run (the player's story line asks too).
func (s *stage) nowWords() (what, why string) {
	c := s.view.Current
	switch {
	case c == nil && s.view.N == 0:
		return "Nothing runs yet: the API server has stored the manifests, and no controller has looked at them.",
			"Press Next pass (→) to run the first controller pass."
	case c == nil:
		return "Reading the run…", ""
	}
	return s.view.Explained.What, s.view.Explained.Why
}

// nowLong reports whether a wide screen cuts the now box's text: the
// sentence keeps four lines and the why three, the traffic strip one.
func (s *stage) nowLong(what, why string) bool {
	return len(what) > 240 || len(why) > 210 || len(s.view.Traffic) > 0
}

// nowTitle names the now box for screen readers.
func nowTitle(c *sim.Pass) string {
	if c == nil {
		return "Before the first pass"
	}
	return fmt.Sprintf("Pass %d: %s", c.N, controllerName(*c))
}

// renderWorld says whether the world has converged, in the engine's sense,
// or what is still moving.
func renderWorld(converged bool, n int, moving []string, why string) app.UI {
	switch {
	case converged && n > 0:
		return el.P().Class("world converged").Body(
			el.B().Text("Converged: "),
			app.Text("observed state matches desired state and no controller would act."),
		)
	case converged:
		return el.P().Class("world").Text("Stored, not running: nothing has acted yet.")
	}
	if len(moving) == 0 && why != "" {
		moving = []string{why}
	}
	if len(moving) == 0 {
		return nil // nothing read yet
	}
	// A compact screen shows the first line; the others are a click on
	// the status away (and read by screen readers).
	return el.P().Class("world moving").Body(
		el.B().Text("Not converged yet: "),
		app.Text(moving[0]),
		app.If(len(moving) > 1, func() app.UI {
			return el.Span().Class("more-moving").Text("; " + strings.Join(moving[1:], "; "))
		}),
	)
}
