package app

import (
	"fmt"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/el"
	"reconcile/app/session"
	"reconcile/engine/controller"
	"reconcile/engine/sim"
)

// renderLog draws the stage's pass log with note above it.
func (s *stage) renderLog(note app.UI) app.UI {
	return renderPassLog(s.view.Entries, s.clock.running(), note, s.logLine)
}

// renderPassLog is the pass log of the player and the playground: the
// passes of the window, numbered, with the inputs given between them (what
// each printed, in full) and the stretches in which nothing ran, with note
// above them (if any); announced to screen readers while playing.
func renderPassLog(entries []session.Entry, playing bool, note app.UI, line func(sim.Pass) string) app.UI {
	live := "off"
	if playing {
		live = "polite"
	}
	return el.Section().Class("log").Aria("labelledby", "log-title").Body(
		el.H2().ID("log-title").Text("Pass log"),
		note,
		el.Div().Class("log-scroll").TabIndex(0).Aria("label", "Passes so far, scrollable").Role("region").Body(
			el.Ol().ID("pass-log").Aria("live", live).Aria("label", "Passes so far").Body(
				app.Range(entries).Slice(func(i int) app.UI {
					e := entries[i]
					switch {
					case e.Pass != nil:
						return &logLine{N: e.Pass.N, Text: line(*e.Pass)}
					case e.Input != nil:
						return renderInputEntry(e.Input)
					case e.Quiet != nil:
						return el.Li().Class("quiet").Text(e.Quiet.Words)
					}
					return nil
				}),
			),
		),
	)
}

// logLine is a pass's line in the pass log, a component of its own: a new
// pass adds a line and leaves the others as they were, so go-app compares
// their fields and draws them no more.
type logLine struct {
	app.Compo

	N    int
	Text string
}

func (l *logLine) Render() app.UI {
	return el.Li().Class("pass-line").Attr("value", l.N).Text(l.Text)
}

// renderInputEntry is an input in the pass log: what was given, by whom,
// when, and what it printed.
func renderInputEntry(in *session.InputEntry) app.UI {
	who := "the lesson"
	if in.Learner {
		who = "you"
	}
	head := fmt.Sprintf("t=%s, given by %s: ", in.At, who)
	status := ""
	switch {
	case in.Since != "":
		// Not an input: kubectl's own API call, made on its own clock.
		head = fmt.Sprintf("t=%s, kubectl again (running since t=%s): ", in.At, in.Since)
	case in.ExitCode == -1:
		status = " (still watching)"
	case in.Diff && in.ExitCode == 1:
		status = " (exit 1: differences were found)" // kubectl diff's own words for it
	case in.ExitCode != 0:
		status = fmt.Sprintf(" (exit %d)", in.ExitCode)
	}
	return el.Li().Class("input").Body(
		el.Span().Class("muted").Text(head),
		el.Code().Class("given").Text(in.Text),
		app.Text(status),
		app.If(strings.TrimSpace(in.Output) != "", func() app.UI {
			return el.Pre().Class("output").Class(proseClass(in.Output)).TabIndex(0).Aria("label", "Output of "+in.Text).Text(in.Output)
		}),
	)
}

// proseClass is "prose" for an output of sentences, such as a drain's
// refusals: no two spaces side by side, so nothing is aligned in columns
// or indented, and its lines may wrap on a narrow screen, where the end of
// a long line would otherwise be out of sight. A table, YAML or describe
// keeps its lines as printed.
func proseClass(out string) string {
	if strings.Contains(out, "  ") {
		return ""
	}
	return "prose"
}

// passLine is one pass as a line of text, the way the CLI prints it.
func passLine(ps sim.Pass) string {
	var b strings.Builder
	fmt.Fprintf(&b, "t=%s %s %s: desired %s · observed %s · difference %s",
		orDash(ps.AtText), controllerName(ps), ps.Key, orDash(ps.Desired.Words), orDash(ps.Observed.Words), orDash(ps.Difference.Words))
	switch {
	case len(ps.Actions) > 0:
		fmt.Fprintf(&b, " → %s", strings.Join(controller.ActionWords(ps.Actions), ", "))
	case ps.Outcome != "":
		fmt.Fprintf(&b, " → %s", ps.Outcome)
	}
	return b.String()
}
