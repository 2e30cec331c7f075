package app

import (
	"fmt"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/el"
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

// maxTranscript is how many commands the console's scrollback keeps.
const maxTranscript = 50

// consoleState is the console's history and what it printed.
type consoleState struct {
	// history are the lines typed, oldest first; pos is where ↑ and ↓
	// are in it.
	history []string
	pos     int
	// transcript are the latest commands and what they printed.
	transcript []consoleEntry
	// options are what Tab found for the last word, when several; note
	// says when it found nothing.
	options []string
	note    string
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
	c := &p.console
	c.options, c.note = nil, ""
	if line == "" {
		return
	}
	p.pause()
	p.alert = ""
	if n := len(c.history); n == 0 || c.history[n-1] != line {
		c.history = append(c.history, line)
		if len(c.history) > session.MaxHistory {
			c.history = c.history[len(c.history)-session.MaxHistory:]
		}
	}
	c.pos = len(c.history)
	// A command still watching goes on, as a watch in a second terminal
	// does, and prints what the commands after it change; Ctrl+C or its
	// Stop ends it.
	if line == "clear" {
		// As in a terminal: the screen is cleared, the history kept.
		c.transcript = nil
		p.refresh()
		p.scheduleSave(ctx, 400*time.Millisecond)
		return
	}
	recorded := false
	p.act(ctx, "kubectl", "kubectl "+line, func() {
		e := consoleEntry{line: line, pass: p.ses.N(), at: p.ses.Now().String()}
		verb, write := session.VerbOf(line)
		switch {
		case len(line) > limits.MaxLine:
			e.out, e.code = fmt.Sprintf("error: the command line is %d bytes; the limit is %d (MaxLine)\n", len(line), limits.MaxLine), 1
		case !write && !p.ses.Watches(line):
			e.out, e.code = p.ses.Read(line)
		default:
			if !write {
				p.ses.MakeRoomForWatch(p.consoleLines()) // a watch beyond MaxWatches ends the oldest
			}
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
			if a.Output.ExitCode > 0 && !a.Wrote() {
				// It failed and wrote nothing (scale of a Deployment that
				// does not exist): not an input of the run.
				e.out, e.code = a.Output.Output, a.Output.ExitCode
				break
			}
			a.Commit()
			p.logLines = nil
			e.out, e.code, e.recorded = a.Output.Output, a.Output.ExitCode, true
			recorded = true
		}
		c.transcript = append(c.transcript, e)
		p.noteRan(line, e.code)
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

// consoleLines are the console's recorded command lines, oldest first.
func (p *Playground) consoleLines() []string {
	var lines []string
	for _, e := range p.console.transcript {
		if e.recorded {
			lines = append(lines, e.line)
		}
	}
	return lines
}

// onStopWatch is a watching command's Stop: it ends that command, as
// Ctrl+C ends the latest.
func (p *Playground) onStopWatch(ctx app.Context, e app.Event) {
	line := ctx.JSSrc().Get("dataset").Get("line").String()
	done := false
	if p.ses == nil || !p.idle() {
		return
	}
	p.act(ctx, "kubectl", "Ctrl+C", func() { done = p.ses.Interrupt(line) })
	if done {
		p.logLines = nil
		p.refresh()
		p.changed(ctx, change{inputs: true})
	}
}

// interruptConsole ends the console's command still watching (get -w,
// rollout status), as Ctrl+C does, and reports whether there was one.
func (p *Playground) interruptConsole() bool {
	if p.ses == nil {
		return false
	}
	done := false
	for i := len(p.console.transcript) - 1; i >= 0; i-- {
		e := p.console.transcript[i]
		if !e.recorded {
			continue
		}
		p.act(p.ctx, "kubectl", "Ctrl+C", func() { done = p.ses.Interrupt(e.line) })
		if done {
			p.logLines = nil
			return true
		}
	}
	return false
}

// onInterrupt is Ctrl+C in the console: the command still watching ends.
func (p *Playground) onInterrupt(ctx app.Context) {
	if !p.idle() || !p.interruptConsole() {
		return
	}
	p.refresh()
	p.changed(ctx, change{inputs: true})
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
			outs := p.ses.Outputs()
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
			v.note = stillRunning(e.line)
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

// onConsoleKey is the console line's keyboard: ↑ and ↓ walk the history,
// Tab completes the last word (on an empty line it moves the focus on, as
// everywhere else), Escape closes the list of completions, Ctrl+L clears
// the screen. Other keys are the input's own, and draw nothing.
func (p *Playground) onConsoleKey(ctx app.Context, e app.Event) {
	key := e.Get("key").String()
	c := &p.console
	src := ctx.JSSrc()
	switch {
	case key == "ArrowUp" || key == "ArrowDown":
		if len(c.history) == 0 {
			ctx.PreventUpdate()
			return
		}
		e.PreventDefault()
		if key == "ArrowUp" {
			c.pos = max(0, c.pos-1)
		} else {
			c.pos = min(len(c.history), c.pos+1)
		}
		v := ""
		if c.pos < len(c.history) {
			v = c.history[c.pos]
		}
		src.Set("value", v)
		src.Call("setSelectionRange", len(v), len(v))
		ctx.PreventUpdate()
	case key == "Tab" && !e.Get("shiftKey").Bool() && !e.Get("ctrlKey").Bool() && !e.Get("altKey").Bool():
		line := src.Get("value").String()
		if strings.TrimSpace(line) == "" {
			ctx.PreventUpdate()
			return
		}
		e.PreventDefault()
		line = p.complete(line)
		src.Set("value", line)
		src.Call("setSelectionRange", len(line), len(line))
	case (key == "l" || key == "L") && e.Get("ctrlKey").Bool() && !e.Get("altKey").Bool():
		e.PreventDefault()
		c.transcript, c.options, c.note = nil, nil, ""
	case (key == "c" || key == "C") && e.Get("ctrlKey").Bool() && !e.Get("altKey").Bool() && src.Get("selectionStart").Int() == src.Get("selectionEnd").Int():
		// Ctrl+C with nothing selected (a selection is the browser's
		// copy): the command still watching ends; the line is dropped, as
		// a shell drops it.
		e.PreventDefault()
		src.Set("value", "")
		p.onInterrupt(ctx)
	case key == "Escape" && (len(c.options) > 0 || c.note != ""):
		c.options, c.note = nil, ""
	default:
		ctx.PreventUpdate()
	}
}

// complete completes the console line against the cluster as it is now,
// and keeps the candidates when there are several.
func (p *Playground) complete(line string) string {
	c := &p.console
	c.options, c.note = nil, ""
	if p.ses == nil {
		return line
	}
	out := line
	guard(&p.alert, "Completing the command", func() {
		done := p.ses.Complete(line)
		out, c.options = done.Line, done.Options
		if done.Line == line && len(done.Options) == 0 {
			c.note = "Nothing completes this word."
		}
	})
	return out
}

// onCompletion puts the completion a learner picked from the list in the
// console line.
func (p *Playground) onCompletion(ctx app.Context, e app.Event) {
	in := app.Window().GetElementByID("kubectl")
	word := ctx.JSSrc().Get("dataset").Get("word").String()
	if !in.Truthy() || word == "" {
		return
	}
	line := in.Get("value").String()
	if i := strings.LastIndexByte(line, ' '); i >= 0 {
		line = line[:i+1]
	} else {
		line = ""
	}
	line += word
	if !strings.HasSuffix(word, "/") {
		line += " "
	}
	p.console.options, p.console.note = nil, ""
	in.Set("value", line)
	in.Call("focus")
	in.Call("setSelectionRange", len(line), len(line))
}

// maxOptions is how many completions the list under the scrollback shows.
const maxOptions = 40

// renderConsole draws the kubectl console as a terminal: the scrollback
// (a log, read politely; oldest first, the newest just above the prompt,
// scrolled sideways as a whole when a table is wide), the completions Tab
// found, and the prompt at the bottom.
func (p *Playground) renderConsole() app.UI {
	entries := p.consoleViews()
	c := &p.console
	off := !p.view.Ready || p.loading
	shown := c.options[:min(len(c.options), maxOptions)]
	return el.Section().Class("console").Aria("labelledby", "console-title").Body(
		el.H2().ID("console-title").Text("kubectl console"),
		el.P().ID("console-hint").Class("muted").Text("Type a command and press Enter: get, describe, scale, set image, delete, rollout status|undo|history, wait, events, cordon, drain, label … "+
			"Tab completes verbs, kinds and names; ↑ and ↓ bring back earlier commands, kept across reloads; get -w watches until Ctrl+C or its Stop; Ctrl+L (or clear) clears the screen; help lists the commands."),
		el.Div().Class("terminal").Body(
			// The newest command is in view without the page measuring
			// anything: a column-reverse scroller starts, and stays, at its
			// end.
			el.Div().ID("kubectl-output").Class("console-output").Role("log").TabIndex(0).Aria("live", "polite").Aria("label", "kubectl output").Body(
				el.Div().Class("scrollback").Body(
					app.If(len(entries) == 0, func() app.UI {
						return el.P().Class("muted").Text("Nothing on the screen. Try get pods, or help.")
					}),
					app.Range(entries).Slice(func(i int) app.UI {
						e := entries[i]
						return el.Div().Class("console-entry").Body(
							el.Pre().Body(
								el.Span().Class("prompt").Text("$ kubectl "+e.line+"\n"),
								app.Text(e.out),
								app.If(e.code > 0, func() app.UI {
									return el.Span().Class("exit").Text(fmt.Sprintf("(exit code %d)", e.code))
								}),
							),
							app.If(e.note != "", func() app.UI { return el.P().Class("muted").Text(e.note) }),
							app.If(e.code == -1, func() app.UI {
								return el.Button().Attr("type", "button").Class("quiet").DataSet("line", e.line).OnClick(p.onStopWatch).Text("Stop")
							}),
						)
					}),
				),
			),
			el.Div().ID("kubectl-completions").Class("completions").Role("status").Body(
				app.If(c.note != "", func() app.UI { return el.P().Text(c.note) }),
				app.If(len(c.options) > 0, func() app.UI {
					more := ""
					if len(c.options) > len(shown) {
						more = fmt.Sprintf(" (the first %d shown)", len(shown))
					}
					return el.Div().Body(
						el.P().Class("sr-count").Text(fmt.Sprintf("%d completions%s:", len(c.options), more)),
						el.Ul().Body(app.Range(shown).Slice(func(i int) app.UI {
							return el.Li().Body(el.Button().Attr("type", "button").Class("quiet").DataSet("word", shown[i]).OnClick(p.onCompletion).Text(shown[i]))
						})),
					)
				}),
			),
			el.Form().Class("console-form").OnSubmit(p.onConsoleSubmit).Body(
				el.Span().Class("prompt-sign").Aria("hidden", "true").Text("$"),
				el.Label().Attr("for", "kubectl").Text("kubectl"),
				el.Input().Attr("type", "text").ID("kubectl").Attr("name", "kubectl").Attr("autocomplete", "off").Spellcheck(false).
					Attr("autocapitalize", "off").Attr("autocorrect", "off").Attr("placeholder", "get pods").
					Aria("describedby", "console-hint").OnKeyDown(p.onConsoleKey).Attr("disabled", off),
				el.Button().Attr("type", "submit").Text("Run").Attr("disabled", off),
			),
		),
	)
}
