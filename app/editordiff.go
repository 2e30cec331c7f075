package app

import (
	"fmt"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/el"
	"reconcile/engine/manifest"
	"reconcile/engine/sim"
)

// Diff: what Apply would change, as kubectl diff -f - prints it, without
// changing anything. The editor's text is given to the run as a diff
// input (sim.Diff, what a lesson's diff: step gives), so that it is
// recorded and replays with the others; the live objects, the passes and
// the editor's text stay as they were.

// diffCommand is what the result names.
const diffCommand = "kubectl diff -f -"

// diff runs kubectl diff -f - of the editor's text. Text that does not
// decode, or that the API server's dry run refuses, is refused as Apply
// refuses it, and nothing is recorded.
func (p *Playground) diff(ctx app.Context) {
	text, ok := p.beginEditorAct()
	if !ok {
		return
	}
	kept := false
	p.act(ctx, "diff", "Diff", func() {
		ms, err := manifest.Decode(editorFile, text, 1, 1)
		if err != nil {
			p.refuse(err)
			p.editor.alert = notCompared(p.editor.alert)
			return
		}
		if len(ms) == 0 {
			p.editor.alert = "Nothing was compared: the desired state holds no Kubernetes object."
			return
		}
		a, err := p.ses.Try(sim.Diff{Manifests: text})
		if err != nil {
			p.refuse(err)
			p.editor.alert = notCompared(p.editor.alert)
			return
		}
		if a.Output.ExitCode > 1 {
			// kubectl diff's error (1 says differences were found).
			p.refuseOutput(text, ms, a.Output)
			p.editor.alert = notCompared(p.editor.alert)
			return
		}
		// Recorded, unless inputs were given after this pass: an input in
		// the past starts a new future without them, and a diff, which
		// changes nothing, never throws them away.
		if kept = !p.inputsAhead(); kept {
			a.Commit()
			p.logLines = nil
		}
		n := p.ses.N()
		out := strings.TrimRight(a.Output.Output, "\n")
		if a.Output.ExitCode == 0 {
			// Nothing printed but what the text warns of, if anything.
			out = strings.TrimLeft(out+"\nNo difference: applying this text would change nothing.", "\n")
		}
		p.editor.result = fmt.Sprintf("%s after pass %d:\n%s", diffCommand, n, out)
		p.editor.diffed = true
	})
	// Recorded, as every input is; the world is as it was, and the editor
	// holds what it held.
	p.editorActed(ctx, kept)
}

// beginEditorAct starts an action of the editor's on its text, unless
// the page is busy: play stops, and the last action's result and alert go.
func (p *Playground) beginEditorAct() (text string, ok bool) {
	if !p.idle() {
		return "", false
	}
	p.pause()
	p.alert, p.editor.alert, p.editor.result, p.editor.diffed, p.editor.problems = "", "", "", false, nil
	return p.editor.desired, true
}

// editorActed draws the page after an action of the editor's (Apply,
// Commit to git, Diff): an input recorded is a change like any other, and
// its result is announced where it is (role=status), the focus staying on
// the button or in the editor, where the learner is; a refusal takes the
// focus to the alert.
func (p *Playground) editorActed(ctx app.Context, recorded bool) {
	p.refresh()
	if recorded {
		p.changed(ctx, change{inputs: true})
		return
	}
	if p.editor.alert != "" {
		p.focus(ctx, "apply-alert")
	}
}

// notCompared rewords Apply's refusal for a diff.
func notCompared(alert string) string {
	for _, pre := range []string{"Nothing was applied. ", "Nothing was applied: "} {
		if rest, ok := strings.CutPrefix(alert, pre); ok {
			return "Nothing was compared" + pre[len("Nothing was applied"):] + rest
		}
	}
	return alert
}

// inputsAhead reports whether the run holds inputs given after the pass
// it stands at (the learner stepped back).
func (p *Playground) inputsAhead() bool {
	for _, in := range p.ses.Inputs() {
		if in.After > p.ses.N() {
			return true
		}
	}
	return false
}

func (p *Playground) onDiff(ctx app.Context, e app.Event) { p.diff(ctx) }

// diffButton is Diff, beside Apply.
func (p *Playground) diffButton(off bool) app.UI {
	return el.Button().Attr("type", "button").ID("diff").Text("Diff").Attr("disabled", off).OnClick(p.onDiff).
		Title("Show what Apply would change in the cluster, as kubectl diff -f - prints it, without changing anything")
}

// renderResult is what the last Apply, Commit to git or Diff printed. A
// diff's lines are marked: those Apply would remove, those it would add,
// and the hunks' and files' headers. It scrolls in itself, sideways too
// (kubectl's long lines are not wrapped), and takes the keyboard focus for
// that.
func (p *Playground) renderResult() app.UI {
	e := &p.editor
	pre := el.Pre().ID("apply-result").Role("status")
	if !e.diffed {
		return pre.Class("result").Aria("label", "Apply result").Text(e.result)
	}
	lines := strings.SplitAfter(e.result, "\n")
	return pre.Class("result diff").Aria("label", "Diff result").TabIndex(0).Body(
		app.Range(lines).Slice(func(i int) app.UI {
			return el.Span().Class(diffLineClass(lines[i], i)).Text(lines[i])
		}),
	)
}

// diffLineClass is the class of line i of a diff's result.
func diffLineClass(line string, i int) string {
	switch {
	case i == 0:
		return "d-cmd"
	case strings.HasPrefix(line, "+++ "), strings.HasPrefix(line, "--- "), strings.HasPrefix(line, "diff -u -N "):
		return "d-file"
	case strings.HasPrefix(line, "@@ "):
		return "d-hunk"
	case strings.HasPrefix(line, "+"):
		return "d-add"
	case strings.HasPrefix(line, "-"):
		return "d-del"
	}
	return "d-same"
}
