package app

import (
	"fmt"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/engine/sim"
)

// renderLog draws the stage's pass log with note above it.
func (s *stage) renderLog(note app.UI) app.UI {
	return renderPassLog(s.view.Log, s.clock.running(), note, s.logLine)
}

// renderPassLog is the pass log of the player and the playground: the
// passes of log, numbered from the first, with note above them (if any),
// announced to screen readers while playing.
func renderPassLog(log []sim.Pass, playing bool, note app.UI, line func(sim.Pass) string) app.UI {
	start := 1
	if len(log) > 0 {
		start = log[0].N
	}
	live := "off"
	if playing {
		live = "polite"
	}
	return app.Section().Class("log").Aria("labelledby", "log-title").Body(
		app.H2().ID("log-title").Text("Pass log"),
		note,
		app.Div().Class("log-scroll").TabIndex(0).Aria("label", "Passes so far, scrollable").Role("region").Body(
			app.Ol().ID("pass-log").Start(start).Aria("live", live).Aria("label", "Passes so far").Body(
				app.Range(log).Slice(func(i int) app.UI {
					return app.Li().Text(line(log[i]))
				}),
			),
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
