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

	"reconcile/app/session"
	"reconcile/engine/limits"
	"reconcile/engine/manifest"
	"reconcile/engine/sim"
	"reconcile/engine/yamlpos"
)

// The playground's desired-state editor: Kubernetes YAML, applied as
// kubectl apply -f - does. Manifests that do not decode, or that the API
// server refuses, change nothing: the alert names each problem at its line
// and column, and the editor marks the lines.

// maxGutterLines bounds the editor's line numbers (a huge paste is refused
// at Apply anyway).
const maxGutterLines = 5000

// editorFile names the editor's text in error messages.
const editorFile = "Desired state"

// editorState is the editor's text and what the last Apply said.
type editorState struct {
	// desired is the text as typed; text what the editor was last given
	// (the editor keeps its own value while the learner types).
	desired, text string
	// kept is the latest desired state within the limit on a file: the
	// one saved when the editor holds more.
	kept string
	// problems are the positions of the last Apply's errors.
	problems []problemAt
	// result is what the last Apply printed.
	result string
}

// problemAt is one error of the desired state at a line and column.
type problemAt struct {
	line, col int
	msg       string
}

// setEditor gives the editor a new text (a load, an import, Start over).
func (p *Playground) setEditor(text string) {
	p.editor.desired, p.editor.text, p.editor.kept = text, text, text
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
	if !p.idle() {
		return
	}
	p.pause()
	p.alert, p.editor.result, p.editor.problems = "", "", nil
	text := p.editor.desired
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
		a, err := p.ses.Try(sim.Apply{Manifests: text})
		if err != nil {
			p.refuse(err)
			return
		}
		if err := session.CheckLimits(a); err != nil {
			p.refuse(err)
			return
		}
		if a.Output.ExitCode != 0 {
			p.refuseOutput(ms, a.Output)
			return
		}
		a.Commit()
		p.logLines = nil
		p.editor.result = fmt.Sprintf("kubectl apply -f - after pass %d:\n%s", p.ses.N(), strings.TrimRight(a.Output.Output, "\n"))
		p.notice = "Applied. Press Next pass or Play and watch the loop make observed state match."
		applied = true
	})
	p.refresh()
	if applied {
		p.changed(ctx, change{inputs: true})
		p.focus(ctx, "apply-result")
		return
	}
	p.focus(ctx, "play-alert")
}

// refuse shows why nothing was applied, with each problem's position.
func (p *Playground) refuse(err error) {
	p.alert = "Nothing was applied. " + err.Error()
	var list yamlpos.ErrorList
	if errors.As(err, &list) {
		for _, e := range list {
			p.editor.problems = append(p.editor.problems, problemAt{line: e.Pos.Line, col: e.Pos.Col, msg: e.Msg})
		}
	}
}

// refuseOutput shows the API server's refusal of an apply, placed at the
// document of the object it names.
func (p *Playground) refuseOutput(ms []manifest.Manifest, out sim.Output) {
	msg := strings.TrimSpace(out.Output)
	for _, m := range ms {
		meta := m.Object.Meta()
		if strings.Contains(msg, `"`+meta.Name+`"`) || strings.Contains(msg, "/"+meta.Name+" ") {
			p.editor.problems = append(p.editor.problems, problemAt{line: m.Pos.Line, col: m.Pos.Col, msg: msg})
			msg = fmt.Sprintf("%s:%d:%d: %s", editorFile, m.Pos.Line, m.Pos.Col, msg)
			break
		}
	}
	p.alert = "Nothing was applied: the API server refused it. " + msg
}

func (p *Playground) onApply(ctx app.Context, e app.Event) { p.apply(ctx) }

// onEditorInput keeps the editor's text as the learner types, and saves it
// a little later.
func (p *Playground) onEditorInput(ctx app.Context, e app.Event) {
	p.editor.desired = ctx.JSSrc().Get("value").String()
	if len(p.editor.desired) <= limits.MaxFileSize {
		p.editor.kept = p.editor.desired
	}
	// The last Apply's problems stay marked until the next Apply: the page
	// does not move under the learner's hands while they type.
	p.scheduleSave(ctx, 800*time.Millisecond)
}

// onEditorKey applies with Ctrl+Enter (or ⌘+Enter).
func (p *Playground) onEditorKey(ctx app.Context, e app.Event) {
	if e.Get("key").String() == "Enter" && (e.Get("ctrlKey").Bool() || e.Get("metaKey").Bool()) {
		e.PreventDefault()
		p.editor.desired = ctx.JSSrc().Get("value").String()
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
	return app.Section().Class("editor-pane").Aria("labelledby", "editor-title").Body(
		app.H2().ID("editor-title").Text("Edit desired state"),
		app.P().ID("desired-hint").Class("muted").Text("Kubernetes YAML. Apply does what kubectl apply -f - does: each object is created or updated "+
			"(removing one from the text does not delete it). Errors are named by line and column and nothing is applied. Ctrl+Enter applies."),
		app.Label().For("desired").Text("Desired state"),
		app.Div().Class("editor").Body(
			app.Div().Class("gutter").Aria("hidden", "true").Body(
				app.Pre().Text(nums.String()),
				app.Range(marked).Slice(func(i int) app.UI {
					return app.Span().Class("mark").Style("top", fmt.Sprintf("calc(%d * var(--editor-line))", marked[i]-1)).Text("●")
				}),
			),
			app.Textarea().ID("desired").Class("desired").Rows(rows).Wrap("off").Spellcheck(false).
				Attr("autocapitalize", "off").Attr("autocomplete", "off").Attr("autocorrect", "off").
				Aria("describedby", "desired-hint").Aria("invalid", strconv.FormatBool(len(p.editor.problems) > 0)).
				OnInput(p.onEditorInput).OnKeyDown(p.onEditorKey).Text(p.editor.text),
		),
		app.Div().Class("buttons").Body(
			app.Button().Type("button").Class("primary").Text("Apply").Disabled(!p.view.Ready || p.loading).OnClick(p.onApply),
		),
		app.Pre().ID("apply-result").Class("result").TabIndex(-1).Role("region").Aria("live", "polite").Aria("label", "Apply result").Text(p.editor.result),
	)
}
