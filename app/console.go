package app

import (
	"fmt"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/session"
	"reconcile/engine/limits"
	"reconcile/engine/sim"
)

// The playground's kubectl console runs one command line at a time
// against the active run. A command that changes the world (scale, set
// image, delete, rollout undo, ...) is an input: it is recorded after the
// current pass and replays with the run, as a lesson's kubectl steps do. A
// command that only reads (get, describe, help, rollout history) runs
// against the world as it is and is not recorded, so reading never changes
// the trace or its digest.

// maxTranscript is how many commands the console shows.
const maxTranscript = 12

// consoleState is the console's history and what it printed.
type consoleState struct {
	// history are the lines typed, oldest first; pos is where ↑ and ↓
	// are in it.
	history []string
	pos     int
	// transcript are the latest commands and what they printed.
	transcript []consoleEntry
}

// consoleEntry is one command and what it printed.
type consoleEntry struct {
	line string
	// at and pass say when it ran; recorded says it is an input of the run.
	at       string
	pass     int
	recorded bool
	out      string
	code     int
}

// consoleView is one console command as the page shows it.
type consoleView struct {
	line, out, note string
	code            int
}

// runKubectl runs the console's line.
func (p *Playground) runKubectl(ctx app.Context, typed string) {
	if !p.idle() {
		return
	}
	line := session.ConsoleLine(typed)
	if line == "" {
		return
	}
	p.pause()
	p.alert = ""
	c := &p.console
	if n := len(c.history); n == 0 || c.history[n-1] != line {
		c.history = append(c.history, line)
		if len(c.history) > session.MaxHistory {
			c.history = c.history[len(c.history)-session.MaxHistory:]
		}
	}
	c.pos = len(c.history)
	recorded := false
	p.act(ctx, "kubectl", "kubectl "+line, func() {
		e := consoleEntry{line: line, pass: p.ses.N(), at: p.ses.Run().Now().String()}
		verb, write := session.VerbOf(line)
		switch {
		case len(line) > limits.MaxLine:
			e.out, e.code = fmt.Sprintf("error: the command line is %d bytes; the limit is %d (MaxLine)\n", len(line), limits.MaxLine), 1
		case !write:
			e.out, e.code = session.RunRead(p.ses.Run(), line)
		default:
			// The command runs once, on a copy of the run, which becomes the
			// run unless the command asks for more replicas than the
			// playground simulates.
			a, err := p.ses.Try(sim.Kubectl{Line: line})
			if err == nil && session.Checked(verb) {
				err = session.CheckLimits(a)
			}
			if err != nil {
				e.out, e.code = "error: "+err.Error()+"\n", 1
				break
			}
			a.Commit()
			p.logLines = nil
			e.out, e.code, e.recorded = a.Output.Output, a.Output.ExitCode, true
			recorded = true
		}
		c.transcript = append(c.transcript, e)
		if len(c.transcript) > maxTranscript {
			c.transcript = c.transcript[len(c.transcript)-maxTranscript:]
		}
	})
	p.refresh()
	if recorded {
		p.changed(ctx, change{inputs: true})
		return
	}
	p.scheduleSave(ctx, 400*time.Millisecond) // the console's history
}

// consoleViews reads the console's commands against the active run: a
// recorded command shows what the run printed for it (a watching rollout
// status grows as passes run), or says it comes later when the learner
// stepped back before it.
func (p *Playground) consoleViews() []consoleView {
	var out []consoleView
	for _, e := range p.console.transcript {
		v := consoleView{line: e.line, out: e.out, code: e.code}
		if e.recorded && p.ses != nil {
			found := false
			outs := p.ses.Run().Outputs()
			for i := len(outs) - 1; i >= 0; i-- {
				if o := outs[i]; o.Command == "kubectl "+e.line && o.AtText == e.at {
					v.out, v.code, found = o.Output, o.ExitCode, true
					break
				}
			}
			if !found {
				v.note = fmt.Sprintf("Given after pass %d: step forward past it to see it run again.", e.pass)
			}
		}
		if v.code == -1 {
			v.note = "Still watching: press Next pass or Play and it prints as the rollout moves."
		}
		out = append(out, v)
	}
	return out
}

// onConsoleSubmit runs the console's line.
func (p *Playground) onConsoleSubmit(ctx app.Context, e app.Event) {
	e.PreventDefault()
	in := app.Window().GetElementByID("kubectl")
	if !in.Truthy() {
		return
	}
	line := in.Get("value").String()
	in.Set("value", "")
	p.runKubectl(ctx, line)
}

// onConsoleKey walks the console's history with ↑ and ↓.
func (p *Playground) onConsoleKey(ctx app.Context, e app.Event) {
	key := e.Get("key").String()
	if key != "ArrowUp" && key != "ArrowDown" {
		return
	}
	if len(p.console.history) == 0 {
		return
	}
	e.PreventDefault()
	if key == "ArrowUp" {
		p.console.pos = max(0, p.console.pos-1)
	} else {
		p.console.pos = min(len(p.console.history), p.console.pos+1)
	}
	v := ""
	if p.console.pos < len(p.console.history) {
		v = p.console.history[p.console.pos]
	}
	src := ctx.JSSrc()
	src.Set("value", v)
	src.Call("setSelectionRange", len(v), len(v))
}

// renderConsole draws the kubectl console.
func (p *Playground) renderConsole() app.UI {
	entries := p.consoleViews()
	return app.Section().Class("console").Aria("labelledby", "console-title").Body(
		app.H2().ID("console-title").Text("kubectl console"),
		app.P().ID("console-hint").Class("muted").Text("Type a command and press Enter: get, describe, scale, set image, delete, rollout status, undo, history, cordon, drain, label … "+
			"↑ and ↓ bring back earlier commands; help lists them all."),
		app.Form().Class("console-form").OnSubmit(p.onConsoleSubmit).Body(
			app.Label().For("kubectl").Text("kubectl"),
			app.Div().Class("console-line").Body(
				app.Input().Type("text").ID("kubectl").Name("kubectl").AutoComplete(false).Spellcheck(false).
					Attr("autocapitalize", "off").Attr("autocorrect", "off").Placeholder("get pods").
					Aria("describedby", "console-hint").OnKeyDown(p.onConsoleKey).Disabled(!p.view.Ready || p.loading),
				app.Button().Type("submit").Text("Run").Disabled(!p.view.Ready || p.loading),
			),
		),
		// The newest command is in view without the page measuring anything:
		// a column-reverse scroller starts, and stays, at its end.
		app.Div().ID("kubectl-output").Class("console-output").Role("log").TabIndex(0).Aria("live", "polite").Aria("label", "kubectl output").Body(app.Div().Body(
			app.P().Class("muted").Text(map[bool]string{true: "Nothing run yet. Try get pods, or help.", false: "Oldest first, the newest at the bottom."}[len(entries) == 0]),
			app.Range(entries).Slice(func(i int) app.UI {
				e := entries[i]
				return app.Div().Class("console-entry").Body(
					app.Pre().Body(
						app.Span().Class("prompt").Text("$ kubectl "+e.line+"\n"),
						app.Text(e.out),
						app.If(e.code > 0, func() app.UI {
							return app.Span().Class("exit").Text(fmt.Sprintf("(exit code %d)", e.code))
						}),
					),
					app.If(e.note != "", func() app.UI { return app.P().Class("muted").Text(e.note) }),
				)
			}),
		)),
	)
}
