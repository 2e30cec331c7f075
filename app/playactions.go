package app

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/engine/api"
	"reconcile/engine/limits"
	"reconcile/engine/manifest"
	"reconcile/engine/sim"
	"reconcile/engine/yamlpos"
)

// What the learner does in the playground. Every handler runs under guard:
// a panic is shown in the alert and the page stays usable.

// act runs f for the handler named what, recovering a panic (and failing on
// purpose when a test asked for it with ?fail=NAME).
func (p *Playground) act(ctx app.Context, name, what string, f func()) bool {
	ok := guard(&p.alert, what, func() {
		if p.failOn == name {
			panic("a deliberate failure, for the tests")
		}
		f()
	})
	if !ok {
		p.focus(ctx, "play-alert")
	}
	return ok
}

// focus moves the keyboard focus to the element id once the page shows it.
// It defers through the page's own context: the element whose handler
// called it may be gone after the update.
func (p *Playground) focus(ctx app.Context, id string) {
	if !app.IsClient || !p.mounted {
		return
	}
	p.ctx.Defer(func(ctx app.Context) {
		if e := app.Window().GetElementByID(id); e.Truthy() {
			e.Call("focus")
		}
	})
}

func (p *Playground) next(ctx app.Context) {
	s := p.ses()
	if s == nil || p.view.atEnd || p.loading {
		return
	}
	p.alert = ""
	p.act(ctx, "next", "Next pass", func() {
		if _, ok := s.next(); !ok {
			p.clock.stop()
		}
	})
	p.changed(ctx, false)
}

func (p *Playground) previous(ctx app.Context) {
	s := p.ses()
	if s == nil || p.view.n == 0 || p.loading {
		return
	}
	p.clock.stop()
	p.seek(ctx, p.view.n-1)
}

func (p *Playground) reset(ctx app.Context) {
	if p.ses() == nil || p.loading {
		return
	}
	p.clock.stop()
	p.seek(ctx, 0)
}

func (p *Playground) seek(ctx app.Context, n int) {
	p.alert = ""
	p.act(ctx, "seek", fmt.Sprintf("Going to pass %d", n), func() {
		if err := p.ses().seek(n); err != nil {
			p.alert = err.Error()
		}
	})
	p.changed(ctx, false)
}

func (p *Playground) togglePlay(ctx app.Context) {
	if p.clock.running() {
		p.clock.stop()
		return
	}
	if p.ses() == nil || p.view.atEnd || !p.mounted || p.loading {
		return
	}
	p.notice = ""
	p.clock.start(p.ctx, func() time.Duration { return speeds[defaultSpeed].every }, func(ctx app.Context) bool {
		p.next(ctx)
		return !p.view.atEnd && p.alert == ""
	})
}

// apply is kubectl apply -f - of the editor's text. Manifests that do not
// decode, or that the API server would refuse, change nothing: the alert
// names each problem at its line and column.
func (p *Playground) apply(ctx app.Context) {
	s := p.ses()
	if s == nil || p.loading {
		return
	}
	p.clock.stop()
	p.alert, p.applyResult, p.problems = "", "", nil
	text := p.desired
	applied := false
	p.act(ctx, "apply", "Apply", func() {
		ms, err := manifest.Decode(editorFile, text, 1, 1)
		if err != nil {
			p.refuse(err)
			return
		}
		if len(ms) == 0 {
			p.alert = "Nothing was applied: the desired state holds no Kubernetes object."
			return
		}
		in := sim.Apply{Manifests: text}
		// The API server's answer, tried on a copy of the run first.
		if err := checkLimits(s.run, in); err != nil {
			p.refuse(err)
			return
		}
		if out, err := dryRun(s.run, in); err != nil || out.ExitCode != 0 {
			p.refuseOutput(ms, out, err)
			return
		}
		out, err := s.inject(in)
		if err != nil {
			p.refuse(err)
			return
		}
		p.applyResult = fmt.Sprintf("kubectl apply -f - after pass %d:\n%s", s.n(), strings.TrimRight(out.Output, "\n"))
		p.notice = "Applied. Press Next pass or Play and watch the loop make observed state match."
		applied = true
	})
	if applied {
		p.changed(ctx, true)
		p.focus(ctx, "apply-result")
		return
	}
	p.refresh()
	p.focus(ctx, "play-alert")
}

// editorFile names the editor's text in error messages.
const editorFile = "Desired state"

// dryRun tries an input on a copy of run at its current pass.
func dryRun(run *sim.Sim, in sim.Input) (sim.Output, error) {
	f, err := run.Fork(run.PassCount())
	if err != nil {
		return sim.Output{}, err
	}
	return f.Inject(in)
}

// refuse shows why nothing was applied, with each problem's position.
func (p *Playground) refuse(err error) {
	p.alert = "Nothing was applied. " + err.Error()
	var list yamlpos.ErrorList
	if errors.As(err, &list) {
		for _, e := range list {
			p.problems = append(p.problems, problemAt{line: e.Pos.Line, col: e.Pos.Col, msg: e.Msg})
		}
	}
}

// refuseOutput shows the API server's refusal of an apply, placed at the
// document of the object it names.
func (p *Playground) refuseOutput(ms []manifest.Manifest, out sim.Output, err error) {
	msg := strings.TrimSpace(out.Output)
	if err != nil {
		msg = err.Error()
	}
	for _, m := range ms {
		meta := m.Object.Meta()
		if strings.Contains(msg, `"`+meta.Name+`"`) || strings.Contains(msg, "/"+meta.Name+" ") {
			p.problems = append(p.problems, problemAt{line: m.Pos.Line, col: m.Pos.Col, msg: msg})
			msg = fmt.Sprintf("%s:%d:%d: %s", editorFile, m.Pos.Line, m.Pos.Col, msg)
			break
		}
	}
	p.alert = "Nothing was applied: the API server refused it. " + msg
}

// runKubectl runs the console's line.
func (p *Playground) runKubectl(ctx app.Context, typed string) {
	s := p.ses()
	if s == nil || p.loading {
		return
	}
	line := consoleLine(typed)
	if line == "" {
		return
	}
	p.clock.stop()
	p.alert = ""
	if n := len(p.history); n == 0 || p.history[n-1] != line {
		p.history = append(p.history, line)
		if len(p.history) > maxHistory {
			p.history = p.history[len(p.history)-maxHistory:]
		}
	}
	p.histPos = len(p.history)
	recorded := false
	p.act(ctx, "kubectl", "kubectl "+line, func() {
		e := consoleEntry{line: line, pass: s.n(), at: s.run.Now().String()}
		verb, write := verbOf(line)
		switch {
		case len(line) > limits.MaxLine:
			e.out, e.code = fmt.Sprintf("error: the command line is %d bytes; the limit is %d (limits.MaxLine)\n", len(line), limits.MaxLine), 1
		case !write:
			e.out, e.code = runRead(s.run, line)
		default:
			in := sim.Kubectl{Line: line}
			if checkedWrites[verb] {
				if err := checkLimits(s.run, in); err != nil {
					e.out, e.code = "error: "+err.Error()+"\n", 1
					break
				}
			}
			out, err := s.inject(in)
			if err != nil {
				e.out, e.code = "error: "+err.Error()+"\n", 1
				break
			}
			e.out, e.code, e.recorded = out.Output, out.ExitCode, true
			recorded = true
		}
		p.transcript = append(p.transcript, e)
		if len(p.transcript) > maxTranscript {
			p.transcript = p.transcript[len(p.transcript)-maxTranscript:]
		}
	})
	p.changed(ctx, recorded)
}

// inject applies the fault chosen in the palette.
func (p *Playground) inject(ctx app.Context) {
	s := p.ses()
	if s == nil || p.loading {
		return
	}
	line := p.fault.line(p.view.targets)
	if line == "" {
		return
	}
	p.clock.stop()
	p.alert = ""
	p.act(ctx, "inject", "Injecting "+line, func() {
		f, err := sim.ParseFault(line)
		if err == nil {
			_, err = s.inject(f)
		}
		if err != nil {
			p.alert = err.Error()
			return
		}
		p.notice = fmt.Sprintf("Injected %s after pass %d. Press Next pass or Play to watch the loop react.", line, s.n())
	})
	p.changed(ctx, true)
}

// fork keeps the active future's past up to the current pass and starts a
// second future there; the first is kept beside it to compare.
func (p *Playground) fork(ctx app.Context) {
	s := p.ses()
	if s == nil || p.loading {
		return
	}
	p.clock.stop()
	p.alert = ""
	done := false
	p.act(ctx, "fork", "Fork here", func() {
		n := s.n()
		f, err := s.run.Fork(n)
		if err != nil {
			p.alert = err.Error()
			return
		}
		ns := &session{run: f}
		ns.lookAhead()
		dropped := len(p.futures) == 2
		// Future A goes on to its last input, so that what followed the
		// fork is its past: an input given there does not drop it.
		if ins := s.run.Inputs(); len(ins) > 0 && ins[len(ins)-1].After > n {
			if err := s.seek(ins[len(ins)-1].After); err != nil {
				p.alert = err.Error()
				return
			}
		}
		p.futures = []*session{s, ns}
		p.active, p.forkedAt = 1, n
		p.notice = fmt.Sprintf("Forked at pass %d. You are in future B: it shares the past up to pass %d; try another fault or fix here. Future A keeps what followed.", n, n)
		if dropped {
			p.notice += " (The other future you had is replaced by this one.)"
		}
		done = true
	})
	p.changed(ctx, true)
	if done {
		p.focus(ctx, "futures-title")
	}
}

// switchTo makes future i the active one.
func (p *Playground) switchTo(ctx app.Context, i int) {
	if i < 0 || i >= len(p.futures) || i == p.active {
		return
	}
	p.clock.stop()
	p.active = i
	p.selected, p.inspected = api.Ref{}, nil
	p.notice = fmt.Sprintf("You are in %s, at pass %d.", strings.ToLower(futureNames[i]), p.futures[i].n())
	p.changed(ctx, false)
}

// keepOnly drops the future the learner is not in.
func (p *Playground) keepOnly(ctx app.Context) {
	if len(p.futures) != 2 {
		return
	}
	p.futures = []*session{p.ses()}
	p.active, p.forkedAt = 0, 0
	p.notice = "Kept only the future you were in."
	p.changed(ctx, true)
}

// Event handlers.

func (p *Playground) onNext(ctx app.Context, e app.Event)      { p.next(ctx) }
func (p *Playground) onPrevious(ctx app.Context, e app.Event)  { p.previous(ctx) }
func (p *Playground) onReset(ctx app.Context, e app.Event)     { p.reset(ctx) }
func (p *Playground) onPlay(ctx app.Context, e app.Event)      { p.togglePlay(ctx) }
func (p *Playground) onApply(ctx app.Context, e app.Event)     { p.apply(ctx) }
func (p *Playground) onInject(ctx app.Context, e app.Event)    { p.inject(ctx) }
func (p *Playground) onFork(ctx app.Context, e app.Event)      { p.fork(ctx) }
func (p *Playground) onKeepOnly(ctx app.Context, e app.Event)  { p.keepOnly(ctx) }
func (p *Playground) onExport(ctx app.Context, e app.Event)    { p.exportFile(ctx) }
func (p *Playground) onShare(ctx app.Context, e app.Event)     { p.share(ctx) }
func (p *Playground) onStartOver(ctx app.Context, e app.Event) { p.startOver(ctx) }
func (p *Playground) onUndo(ctx app.Context, e app.Event)      { p.undoLast(ctx) }
func (p *Playground) onDismiss(ctx app.Context, e app.Event)   { p.alert = "" }

func (p *Playground) onImport(ctx app.Context, e app.Event) {
	p.act(ctx, "import", "Import", func() { p.importFile(ctx, ctx.JSSrc()) })
}

func (p *Playground) onSwitch(ctx app.Context, e app.Event) {
	i, err := strconv.Atoi(ctx.JSSrc().Get("dataset").Get("future").String())
	if err == nil {
		p.switchTo(ctx, i)
	}
}

// onEditorInput keeps the editor's text as the learner types, and saves it
// a little later.
func (p *Playground) onEditorInput(ctx app.Context, e app.Event) {
	p.desired = ctx.JSSrc().Get("value").String()
	if len(p.desired) <= limits.MaxFileSize {
		p.kept = p.desired
	}
	// The last Apply's problems stay marked until the next Apply: the page
	// does not move under the learner's hands while they type.
	p.scheduleSave(ctx, 800*time.Millisecond)
}

// onEditorKey applies with Ctrl+Enter (or ⌘+Enter).
func (p *Playground) onEditorKey(ctx app.Context, e app.Event) {
	if e.Get("key").String() == "Enter" && (e.Get("ctrlKey").Bool() || e.Get("metaKey").Bool()) {
		e.PreventDefault()
		p.desired = ctx.JSSrc().Get("value").String()
		p.apply(ctx)
	}
}

// onGoTo puts the editor's caret at the problem the pressed button names.
func (p *Playground) onGoTo(ctx app.Context, e app.Event) {
	ds := ctx.JSSrc().Get("dataset")
	line, _ := strconv.Atoi(ds.Get("line").String())
	col, _ := strconv.Atoi(ds.Get("col").String())
	ed := app.Window().GetElementByID("desired")
	if !ed.Truthy() {
		return
	}
	off := offsetOf(p.desired, line, col)
	ed.Call("focus")
	ed.Call("setSelectionRange", off, off)
}

// offsetOf is the UTF-16 offset, as a text area counts, of a 1-based line
// and column (in characters, as the YAML parser counts them) in text; a
// column past the end of its line is the end of the line.
func offsetOf(text string, line, col int) int {
	off, l, c := 0, 1, 1
	for _, r := range text {
		if l == line && (c == col || r == '\n') {
			return off
		}
		if l > line {
			return off
		}
		if r == '\n' {
			l, c = l+1, 1
		} else {
			c++
		}
		off += utf16Len(r)
	}
	return off
}

func utf16Len(r rune) int {
	if r >= 0x10000 {
		return 2
	}
	return 1
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
	if len(p.history) == 0 {
		return
	}
	e.PreventDefault()
	if key == "ArrowUp" {
		p.histPos = max(0, p.histPos-1)
	} else {
		p.histPos = min(len(p.history), p.histPos+1)
	}
	v := ""
	if p.histPos < len(p.history) {
		v = p.history[p.histPos]
	}
	src := ctx.JSSrc()
	src.Set("value", v)
	src.Call("setSelectionRange", len(v), len(v))
}

func (p *Playground) onVerb(ctx app.Context, e app.Event) {
	p.fault = faultForm{verb: ctx.JSSrc().Get("value").String()}
}

func (p *Playground) onTarget(ctx app.Context, e app.Event) {
	p.fault.target = ctx.JSSrc().Get("value").String()
}

func (p *Playground) onExtra(ctx app.Context, e app.Event) {
	p.fault.extra = ctx.JSSrc().Get("value").String()
}

func (p *Playground) onFollow(ctx app.Context, e app.Event) {
	p.selected = api.Ref{}
	p.refresh()
}

// onNodePage shows another page of the cluster's nodes.
func (p *Playground) onNodePage(ctx app.Context, e app.Event) {
	if n, ok := nodePageOf(ctx); ok {
		p.nodePage = n
		p.refresh()
	}
}

func (p *Playground) onPick(ctx app.Context, e app.Event) {
	ref, ok := parseRef(ctx.JSSrc().Get("dataset").Get("ref").String())
	if !ok {
		return
	}
	if p.selected == ref {
		p.selected = api.Ref{}
	} else {
		p.selected = ref
	}
	p.refresh()
}
