package app

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/el"
	"reconcile/app/session"
	"reconcile/engine/limits"
	"reconcile/engine/manifest"
	"reconcile/engine/sim"
	"reconcile/engine/yamlpos"
)

// The playground's desired-state editor: Kubernetes YAML, applied as
// kubectl apply -f - does. Manifests that do not decode, or that the API
// server refuses, change nothing: the editor's own alert, under it, names
// each problem at its line and column, and the gutter marks the lines.
//
// The editor follows the live desired state. The console and the faults
// change it too (kubectl scale, set image, rollout undo, patch, label ...):
// after such an input the editor shows the live objects' manifests, as
// kubectl get -o yaml prints them less what is not desired state, and says
// what changed them. Text the learner typed and has not applied is never
// replaced without asking: the editor offers the live state instead, and
// what a load replaces can be brought back.

// maxGutterLines bounds the editor's line numbers (a huge paste is refused
// at Apply anyway).
const maxGutterLines = 5000

// editorFile names the editor's text in error messages.
const editorFile = "Desired state"

// editorState is the editor's text, what it derives from, and what the
// last Apply said.
type editorState struct {
	// desired is the text as typed; text what the editor was last given
	// (the editor keeps its own value while the learner types).
	desired, text string
	// kept is the latest desired state within the limit on a file: the
	// one saved when the editor holds more.
	kept string
	// base is the text the editor was last given (loaded, applied or
	// followed): desired differs from it once the learner types. known
	// is false when the page cannot tell (saved work it does not
	// recognise), and the editor never follows on its own then.
	base  string
	known bool
	// holds says in words what base is ("your last applied text").
	holds string
	// sync is the live desired state (liveManifests) when base was set;
	// live the latest read of it, and why what changed it since sync.
	sync, live, why string
	// stash is the learner's own text a load replaced, and what it was:
	// one button brings it back.
	stash, stashWhat string
	// named are the objects base names (namedFrom is the base they were
	// read from).
	named     []session.ObjectKey
	namedFrom string
	// alert is why the last Apply changed nothing; problems are the
	// positions of its errors.
	alert    string
	problems []problemAt
	// result is what the last Apply printed; diffed says it is a Diff's.
	result string
	diffed bool
}

// problemAt is one error of the desired state at a line and column.
type problemAt struct {
	line, col int
	msg       string
}

// setEditor gives the editor a new text (a load, an import, Start over, the
// live state).
func (p *Playground) setEditor(text string) {
	p.editor.desired, p.editor.text = text, text
	if len(text) <= limits.MaxFileSize {
		p.editor.kept = text
	}
	if app.IsClient && p.mounted {
		p.ctx.Defer(func(ctx app.Context) {
			if e := app.Window().GetElementByID("desired"); e.Truthy() {
				e.Set("value", text)
			}
		})
	}
}

// apply is kubectl apply -f - of the editor's text. The input runs once,
// on a copy of the run; only when the API server takes every object and no
// workload asks for more replicas than the playground simulates does the
// copy become the run.
func (p *Playground) apply(ctx app.Context) {
	p.attempt(ctx, applyVerb, func(text string) *session.Attempt {
		ms, err := manifest.Decode(editorFile, text, 1, 1)
		if err != nil {
			p.refuse(err)
			return nil
		}
		if len(ms) == 0 {
			p.editor.alert = "Nothing was applied: the desired state holds no Kubernetes object."
			return nil
		}
		a, err := p.ses.Try(sim.Apply{Manifests: text})
		if err != nil {
			p.refuse(err)
			return nil
		}
		if err := session.CheckLimits(a); err != nil {
			p.refuse(err)
			return nil
		}
		if a.Output.ExitCode != 0 {
			p.refuseOutput(text, ms, a.Output)
			return nil
		}
		return a
	})
}

// editorVerb is what a button under the editor does with its text, in its
// words: Apply, or Commit to git.
type editorVerb struct {
	// name and what name the action (stage.act); command begins what it
	// printed; done is its past ("applied"); notice says what comes next.
	name, what, command, done, notice string
}

var applyVerb = editorVerb{name: "apply", what: "Apply", command: "kubectl apply -f -", done: "applied",
	notice: "Applied. Press Next pass or Play and watch the loop make observed state match."}

// attempt gives the editor's text to try, which returns the attempt to keep
// or nil when it was refused (having said why in the editor's alert). Kept,
// the result, the notice and what the editor holds say so in v's words;
// refused, the focus goes to the alert.
func (p *Playground) attempt(ctx app.Context, v editorVerb, try func(text string) *session.Attempt) {
	text, ok := p.beginEditorAct()
	if !ok {
		return
	}
	kept := false
	p.act(ctx, v.name, v.what, func() {
		a := try(text)
		if a == nil {
			return
		}
		a.Commit()
		p.logLines = nil
		n := p.ses.N()
		p.editor.result = fmt.Sprintf("%s after pass %d:\n%s", v.command, n, strings.TrimRight(a.Output.Output, "\n"))
		p.notice = v.notice
		p.editorFrom(text, fmt.Sprintf("your last %s text (%s after pass %d)", v.done, v.done, n), true)
		kept = true
	})
	p.editorActed(ctx, kept)
}

// refuse shows why nothing was applied, with each problem's position.
func (p *Playground) refuse(err error) {
	p.editor.alert = "Nothing was applied. " + err.Error()
	var list yamlpos.ErrorList
	if errors.As(err, &list) {
		for _, e := range list {
			p.editor.problems = append(p.editor.problems, problemAt{line: e.Pos.Line, col: e.Pos.Col, msg: e.Msg})
		}
	}
}

// refuseOutput shows the API server's refusal of an apply: an Invalid
// object's causes at the fields they name (where the CLI places them in a
// file), another refusal at the document of the first object refused.
func (p *Playground) refuseOutput(text string, ms []manifest.Manifest, out sim.Output) {
	msg := strings.TrimSpace(out.Output)
	if list := session.Refusals(editorFile, text, out); len(list) > 0 {
		for _, e := range list {
			p.editor.problems = append(p.editor.problems, problemAt{line: e.Pos.Line, col: e.Pos.Col, msg: e.Msg})
		}
		p.editor.alert = fmt.Sprintf("Nothing was applied: the API server refused it. %s:%d:%d: %s", editorFile, list[0].Pos.Line, list[0].Pos.Col, msg)
		return
	}
	if len(out.Refused) > 0 && out.Refused[0] < len(ms) {
		m := ms[out.Refused[0]]
		p.editor.problems = append(p.editor.problems, problemAt{line: m.Pos.Line, col: m.Pos.Col, msg: msg})
		msg = fmt.Sprintf("%s:%d:%d: %s", editorFile, m.Pos.Line, m.Pos.Col, msg)
	}
	p.editor.alert = "Nothing was applied: the API server refused it. " + msg
}

func (p *Playground) onApply(ctx app.Context, e app.Event) { p.apply(ctx) }

// onEditorInput keeps the editor's text as the learner types, and saves it
// a little later. The page is drawn again only when what it shows of the
// text changes (the line numbers, whether it is the learner's own).
func (p *Playground) onEditorInput(ctx app.Context, e app.Event) {
	before := p.editor.desired
	p.editor.desired = ctx.JSSrc().Get("value").String()
	if len(p.editor.desired) <= limits.MaxFileSize {
		p.editor.kept = p.editor.desired
	}
	// The last Apply's problems stay marked until the next Apply: the page
	// does not move under the learner's hands while they type.
	p.scheduleSave(ctx, 800*time.Millisecond)
	if strings.Count(before, "\n") == strings.Count(p.editor.desired, "\n") && (before == p.editor.base) == (p.editor.desired == p.editor.base) {
		ctx.PreventUpdate()
	}
}

// onEditorKey applies with Ctrl+Enter (or ⌘+Enter). Other keys are the
// text area's own, and draw nothing.
func (p *Playground) onEditorKey(ctx app.Context, e app.Event) {
	if e.Get("key").String() == "Enter" && (e.Get("ctrlKey").Bool() || e.Get("metaKey").Bool()) {
		e.PreventDefault()
		p.editor.desired = ctx.JSSrc().Get("value").String()
		p.apply(ctx)
		return
	}
	ctx.PreventUpdate()
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
	off := offsetOf(p.editor.desired, line, col)
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

// editorKey is all renderEditor reads: the pane is drawn again only when
// it changes, not at every pass.
type editorKey struct {
	desired, text, base, holds, why, stash, alert, result string
	problems                                              string
	known, off, liveDiffers, gitOps, diffed               bool
}

func (p *Playground) editorKey() editorKey {
	e := &p.editor
	var problems []byte
	for _, pr := range e.problems {
		problems = strconv.AppendInt(append(strconv.AppendInt(problems, int64(pr.line), 10), ':'), int64(pr.col), 10)
		problems = append(problems, ' ')
	}
	return editorKey{desired: e.desired, text: e.text, base: e.base, holds: e.holds, why: e.why, stash: e.stash, alert: e.alert,
		result: e.result, problems: string(problems), known: e.known, off: !p.view.Ready || p.loading, liveDiffers: p.liveDiffers(),
		gitOps: p.ses != nil && p.ses.GitOps(), diffed: e.diffed}
}

// renderEditor draws the desired-state editor.
func (p *Playground) renderEditor() app.UI {
	lines := strings.Count(p.editor.desired, "\n") + 1
	shown := min(lines, maxGutterLines)
	var nums strings.Builder
	for i := 1; i <= shown; i++ {
		if i > 1 {
			nums.WriteByte('\n')
		}
		nums.WriteString(strconv.Itoa(i))
	}
	marks := map[int]bool{}
	for _, pr := range p.editor.problems {
		if pr.line >= 1 && pr.line <= shown {
			marks[pr.line] = true
		}
	}
	marked := slices.Sorted(maps.Keys(marks))
	rows := min(max(lines+1, 12), maxGutterLines)
	e := &p.editor
	off := !p.view.Ready || p.loading
	return el.Section().Class("editor-pane").Aria("labelledby", "editor-title").Body(
		el.H2().ID("editor-title").Text("Edit desired state"),
		el.P().ID("desired-hint").Class("muted").Text("Kubernetes YAML. Apply does what kubectl apply -f - does: each object is created or updated "+
			"(removing one from the text does not delete it). Diff shows what Apply would change, as kubectl diff -f - does, and changes nothing. "+
			"Errors are named by line and column and nothing is applied. Ctrl+Enter applies."),
		el.Div().Class("editor-head").Body(
			el.Label().Attr("for", "desired").Text("Desired state"),
			el.P().ID("editor-holds").Class("holds").Aria("live", "polite").DataSet("live", p.liveDiffers()).Text(p.holdsLine()),
		),
		el.Div().Class("editor").Body(
			el.Div().Class("gutter").Aria("hidden", "true").Body(
				el.Pre().Text(nums.String()),
				app.Range(marked).Slice(func(i int) app.UI {
					return el.Span().Class("mark").Style("top", fmt.Sprintf("calc(%d * var(--editor-line))", marked[i]-1)).Text("●")
				}),
			),
			el.Textarea().ID("desired").Class("desired").Attr("rows", rows).Attr("wrap", "off").Spellcheck(false).
				Attr("autocapitalize", "off").Attr("autocomplete", "off").Attr("autocorrect", "off").
				Aria("describedby", "editor-holds desired-hint").Aria("invalid", strconv.FormatBool(len(e.problems) > 0)).
				OnInput(p.onEditorInput).OnKeyDown(p.onEditorKey).Text(e.text),
		),
		el.Div().Class("buttons").Body(
			el.Button().Attr("type", "button").Class("primary").Text("Apply").Attr("disabled", off).OnClick(p.onApply),
			p.diffButton(off),
			p.gitButton(off),
			el.Button().Attr("type", "button").ID("load-live").Text("Load the live desired state").Attr("disabled", off || !p.liveDiffers()).OnClick(p.onLoadLive).
				Title("Put the live objects' manifests in the editor, as kubectl get -o yaml prints them, without status"),
			el.Button().Attr("type", "button").Class("quiet").ID("bring-back").Text("Bring back your text").Attr("disabled", off || e.stash == "").OnClick(p.onBringBack).
				Title("Put back the text the last load replaced"),
		),
		p.gitHint(),
		// What Apply said, in a space of its own under the editor: an error
		// (role=alert, focused) or the result (role=status, announced where
		// it is), never moving the page.
		el.Div().Class(map[bool]string{true: "editor-msg diffed", false: "editor-msg"}[e.diffed && e.alert == ""]).Body(
			el.Div().ID("apply-alert").Class(map[bool]string{true: "apply-alert on", false: "apply-alert"}[e.alert != ""]).Role("alert").TabIndex(-1).Body(
				app.If(e.alert != "", func() app.UI {
					return el.P().Class("alert-text").Text(e.alert)
				}),
				app.If(len(e.problems) > 0 && e.alert != "", func() app.UI {
					return el.Ul().Class("problems").Body(app.Range(e.problems).Slice(func(i int) app.UI {
						pr := e.problems[i]
						return el.Li().Body(
							el.Button().Attr("type", "button").Class("quiet").
								DataSet("line", pr.line).DataSet("col", pr.col).OnClick(p.onGoTo).
								Text(fmt.Sprintf("Go to line %d, column %d", pr.line, pr.col)),
						)
					}))
				}),
			),
			p.renderResult(),
			app.If(e.alert == "" && e.result == "", func() app.UI {
				if p.ses != nil && p.ses.GitOps() {
					return el.P().Class("muted msg-empty").Text("What Apply, Diff or Commit to git prints appears here.")
				}
				return el.P().Class("muted msg-empty").Text("What Apply or Diff prints appears here.")
			}),
		),
	)
}
