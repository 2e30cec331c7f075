package app

import (
	"fmt"
	"reconcile/engine/limits"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// maxGutterLines bounds the editor's line numbers (a huge paste is refused
// at Apply anyway).
const maxGutterLines = 5000

// consoleView is one console command as the page shows it.
type consoleView struct {
	line, out, note string
	code            int
}

// consoleViews reads the console's commands against the active run: a
// recorded command shows what the run printed for it (a watching rollout
// status grows as passes run), or says it comes later when the learner
// stepped back before it.
func (p *Playground) consoleViews() []consoleView {
	s := p.ses()
	var out []consoleView
	for _, e := range p.transcript {
		v := consoleView{line: e.line, out: e.out, code: e.code}
		if e.recorded && s != nil {
			found := false
			outs := s.run.Outputs()
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

// Render draws the page.
func (p *Playground) Render() app.UI {
	s := shell{embed: p.embed, updatable: p.updatable}
	return s.render(
		app.Div().Class("play").Body(
			app.Section().Class("intro").Body(
				app.H1().Text(p.title()),
				app.If(p.sc != nil && p.sc.Summary != "", func() app.UI {
					return app.Div().Class("summary").Body(paragraphs(p.sc.Summary)...)
				}),
				app.P().Class("muted").Body(
					app.Text("Your own cluster: edit its desired state, run kubectl, break it on purpose, step back, fork the future. "),
					app.If(p.from != "", func() app.UI {
						return app.Span().Body(app.A().Href("/s/"+p.from).Text("Back to the lesson"), app.Text("."))
					}),
				),
			),
			p.renderAlert(),
			app.P().ID("play-notice").Class("notice").TabIndex(-1).Aria("live", "polite").Text(p.notice),
			p.renderTransport(),
			app.P().Class("muted fork-hint").Text("Fork here keeps the past up to this pass and starts a second future beside this one: "+
				"leave a fault out or try another fix, and compare. What if this event had not been lost?"),
			app.Div().Class("workspace play-tools").Body(
				p.renderEditor(),
				p.renderConsole(),
			),
			app.Div().Class("workspace").Body(
				renderFaults(p.fault, p.view.targets, p.view.history, !p.view.ready || p.loading, p.onVerb, p, p.onExtra, p.onInject),
				p.renderLog(),
			),
			p.renderFutures(),
			app.Div().Class("workspace").Body(
				renderCluster(p.view.cluster, p.view.inspector.ref, p),
				renderInspector(p.view.inspector, p.view.following, p.onFollow, fmt.Sprintf("as read after pass %d, at t=%s", p.view.n, orDash(p.view.now))),
			),
			p.renderWork(),
		),
	)
}

// renderAlert draws the alert. Its element is always there (empty when
// all is well), so that the page around it keeps its elements and the
// focus can land on it.
func (p *Playground) renderAlert() app.UI {
	class := "alert"
	if p.alert == "" {
		class = "alert-none"
	}
	return app.Div().ID("play-alert").Class(class).Role("alert").TabIndex(-1).Body(
		app.If(p.alert != "", func() app.UI {
			return app.P().Class("alert-text").Text(p.alert)
		}),
		app.If(len(p.problems) > 0 && p.alert != "", func() app.UI {
			return app.Ul().Class("problems").Body(app.Range(p.problems).Slice(func(i int) app.UI {
				pr := p.problems[i]
				return app.Li().Body(
					app.Button().Type("button").Class("quiet").
						DataSet("line", pr.line).DataSet("col", pr.col).OnClick(p.onGoTo).
						Text(fmt.Sprintf("Go to line %d, column %d", pr.line, pr.col)),
				)
			}))
		}),
		app.If(p.alert != "", func() app.UI {
			return app.Button().Type("button").Class("quiet").Text("Dismiss").OnClick(p.onDismiss)
		}),
	)
}

func (p *Playground) renderTransport() app.UI {
	off := !p.view.ready || p.loading
	status := fmt.Sprintf("Pass %d · t=%s", p.view.n, orDash(p.view.now))
	switch {
	case p.loading:
		status += " · opening your saved work…"
	case p.view.converged && p.view.n > 0 && p.view.atEnd:
		status += " · converged: nothing more happens"
	case p.view.atEnd:
		status += " · nothing more happens before the end of the run"
	case p.view.converged && p.view.n > 0:
		status += " · converged"
	}
	if len(p.futures) == 2 {
		status += " · " + strings.ToLower(futureNames[p.active])
	}
	playing := p.clock.running()
	playLabel := "Play"
	if playing {
		playLabel = "Pause"
	}
	return app.Section().Class("transport").Aria("label", "Transport").Body(
		app.Div().Class("buttons").Body(
			app.Button().Type("button").Text("Reset").Disabled(off).OnClick(p.onReset).Title("Back to the start (Home)"),
			app.Button().Type("button").Text("Previous pass").Disabled(off || p.view.n == 0).OnClick(p.onPrevious).Title("Step back one pass (←)"),
			app.Button().Type("button").Class("play").Text(playLabel).Disabled(off || (p.view.atEnd && !playing)).OnClick(p.onPlay).Title("Run passes one after another (Space)"),
			app.Button().Type("button").Class("primary").Text("Next pass").Disabled(off || p.view.atEnd).OnClick(p.onNext).Title("Run the next pass (→)"),
			app.Button().Type("button").Class("fork").Text("Fork here").Disabled(off).OnClick(p.onFork).
				Title("Keep the past up to this pass and try another future beside this one"),
		),
		app.P().Class("status").Role("status").Text(status),
	)
}

func (p *Playground) renderEditor() app.UI {
	lines := strings.Count(p.desired, "\n") + 1
	shown := min(lines, maxGutterLines)
	var nums strings.Builder
	for i := 1; i <= shown; i++ {
		if i > 1 {
			nums.WriteByte('\n')
		}
		nums.WriteString(strconv.Itoa(i))
	}
	marks := map[int]bool{}
	for _, pr := range p.problems {
		if pr.line >= 1 && pr.line <= shown {
			marks[pr.line] = true
		}
	}
	var marked []int
	for l := range marks {
		marked = append(marked, l)
	}
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
				Aria("describedby", "desired-hint").Aria("invalid", strconv.FormatBool(len(p.problems) > 0)).
				OnInput(p.onEditorInput).OnKeyDown(p.onEditorKey).Text(p.editorText),
		),
		app.Div().Class("buttons").Body(
			app.Button().Type("button").Class("primary").Text("Apply").Disabled(!p.view.ready || p.loading).OnClick(p.onApply),
		),
		app.Pre().ID("apply-result").Class("result").TabIndex(-1).Role("region").Aria("live", "polite").Aria("label", "Apply result").Text(p.applyResult),
	)
}

func (p *Playground) renderConsole() app.UI {
	entries := p.view.console
	return app.Section().Class("console").Aria("labelledby", "console-title").Body(
		app.H2().ID("console-title").Text("kubectl console"),
		app.P().ID("console-hint").Class("muted").Text("Type a command and press Enter: get, describe, scale, set image, delete, rollout status, undo, history, cordon, drain, label … "+
			"↑ and ↓ bring back earlier commands; help lists them all."),
		app.Form().Class("console-form").OnSubmit(p.onConsoleSubmit).Body(
			app.Label().For("kubectl").Text("kubectl"),
			app.Div().Class("console-line").Body(
				app.Input().Type("text").ID("kubectl").Name("kubectl").AutoComplete(false).Spellcheck(false).
					Attr("autocapitalize", "off").Attr("autocorrect", "off").Placeholder("get pods").
					Aria("describedby", "console-hint").OnKeyDown(p.onConsoleKey).Disabled(!p.view.ready || p.loading),
				app.Button().Type("submit").Text("Run").Disabled(!p.view.ready || p.loading),
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

func (p *Playground) renderLog() app.UI {
	log := p.view.log
	note := "No pass has run yet. Press Next pass."
	if len(log) > 0 {
		note = fmt.Sprintf("Passes %d to %d.", log[0].N, log[len(log)-1].N)
	}
	return renderPassLog(log, p.clock.running(), app.P().Class("empty").Text(note), passLine)
}

func (p *Playground) renderFutures() app.UI {
	if len(p.futures) != 2 {
		return app.Div().Class("futures-none")
	}
	var views [2]futureView
	if p.compare != nil {
		views = *p.compare
	}
	at := views[0].at
	return app.Section().Class("futures").Aria("labelledby", "futures-title").Body(
		app.H2().ID("futures-title").TabIndex(-1).Text("Two futures"),
		app.P().Text(fmt.Sprintf("Both futures share the past up to pass %d. Each runs on with its own inputs to t=%s, and is read there.", p.forkedAt, orDash(at))),
		app.Div().Class("buttons").Body(
			app.Range(p.futures).Slice(func(i int) app.UI {
				return app.Button().Type("button").DataSet("future", i).Aria("pressed", strconv.FormatBool(i == p.active)).
					OnClick(p.onSwitch).Text("Work in " + strings.ToLower(futureNames[i]))
			}),
			app.Button().Type("button").Class("quiet").Text("Keep only this future").OnClick(p.onKeepOnly),
		),
		app.Div().Class("future-pair").Body(
			app.Range(views[:]).Slice(func(i int) app.UI {
				return renderFuture(views[i], i, i == p.active)
			}),
		),
	)
}

func renderFuture(v futureView, i int, active bool) app.UI {
	id := fmt.Sprintf("future-%d-title", i)
	title := futureNames[i]
	if active {
		title += " (you are here)"
	}
	if v.err != "" {
		return app.Section().Class("future").Aria("labelledby", id).Body(
			app.H3().ID(id).Text(title),
			app.P().Class("error").Text("This future does not replay: "+v.err),
		)
	}
	matches := "no: observed state differs from desired state"
	if v.matches {
		matches = "yes: every Deployment has all its pods, ready"
	}
	own := v.own
	if len(own) == 0 {
		own = []string{"nothing more: only the shared past"}
	}
	if v.stopped {
		matches += fmt.Sprintf(" (stopped after %d passes)", futureMaxPasses)
	}
	log := make([]string, len(v.log))
	for j, ps := range v.log {
		log[j] = passLine(ps)
	}
	return app.Section().Class("future").Aria("labelledby", id).Body(
		app.H3().ID(id).Text(title),
		definitions(
			[]string{"What it did after the fork", "At t=" + orDash(v.at), "Observed matches desired", fmt.Sprintf("Last passes (of %d)", v.passes), "Digest"},
			textList(app.Ul(), own), textList(app.Ul().Class("counts"), v.counts), app.Text(matches),
			textList(app.Ol().Class("compact").Start(max(1, v.passes-len(v.log)+1)), log), app.Code().Text(shortDigest(v.digest)),
		),
	)
}

// definitions is a <dl> of terms, each with its description.
func definitions(terms []string, descs ...app.UI) app.UI {
	items := make([]app.UI, 0, 2*len(terms))
	for i, t := range terms {
		items = append(items, app.Dt().Text(t), app.Dd().Body(descs[i]))
	}
	return app.Dl().Body(items...)
}

// textList fills list (a <ul> or an <ol>) with one item per line of text.
func textList[L interface{ Body(...app.UI) E }, E app.UI](list L, lines []string) app.UI {
	items := make([]app.UI, len(lines))
	for i, l := range lines {
		items[i] = app.Li().Text(l)
	}
	return list.Body(items...)
}

func (p *Playground) renderWork() app.UI {
	return app.Section().Class("work").Aria("labelledby", "work-title").Body(
		app.H2().ID("work-title").Text("Your work"),
		app.P().ID("save-status").Class("muted").Aria("live", "polite").Text(p.saveStatus),
		app.Div().Class("buttons").Body(
			app.Button().Type("button").Text("Export").OnClick(p.onExport).Disabled(!p.view.ready).Title("Download this work as a file"),
			app.Button().Type("button").Text("Copy share link").OnClick(p.onShare).Disabled(!p.view.ready),
			app.Button().Type("button").Class("quiet").Text("Start over").OnClick(p.onStartOver).Disabled(!p.view.ready || p.loading),
			app.If(p.undo != nil, func() app.UI {
				return app.Button().Type("button").Class("quiet").Text("Undo").OnClick(p.onUndo)
			}),
		),
		app.Div().Class("field import").Body(
			app.Label().For("import").Text("Import a file"),
			app.Input().Type("file").ID("import").Accept(".json,application/json").OnChange(p.onImport).Disabled(p.loading),
		),
		app.Div().Class("share-link").Body(
			app.If(p.shareLink != "", func() app.UI {
				return app.Div().Body(
					app.P().Aria("live", "polite").Text(p.shareNote),
					app.Label().For("share-link").Text("Share link"),
					app.Input().Type("text").ID("share-link").ReadOnly(true).Value(p.shareLink),
				)
			}),
		),
		app.Div().Class("saved").Body(
			app.If(len(p.saved) > 0, func() app.UI {
				return app.Div().Body(
					app.H3().Text("Saved in this browser"),
					app.Ul().Class("slots").Body(app.Range(p.saved).Slice(func(i int) app.UI {
						sl := p.saved[i]
						a := app.A().Href(sl.href).Text(sl.title)
						if sl.slot == p.slot {
							a = a.Aria("current", "page")
						}
						return app.Li().Body(a)
					})),
				)
			}),
			app.If(len(p.setAside) > 0, func() app.UI {
				return app.Div().Body(
					app.H3().Text("Set aside: could not be read"),
					app.Ul().Body(app.Range(p.setAside).Slice(func(i int) app.UI { return app.Li().Body(app.Code().Text(p.setAside[i])) })),
				)
			}),
		),
		app.P().Class("digest").Body(
			app.Text("Trace digest "),
			app.Code().DataSet("digest", p.view.digest).DataSet("pass", p.view.n).Text(orDash(p.view.digest)),
		),
		app.P().Class("muted").Text(fmt.Sprintf("Limits: a scenario or desired state of %d bytes (MaxFileSize), %d objects (MaxObjects), %d replicas per workload (MaxReplicas), %d YAML aliases (MaxAliases); a share link of %d bytes (64 KiB).",
			limits.MaxFileSize, limits.MaxObjects, limits.MaxReplicas, limits.MaxAliases, maxShareBytes)),
	)
}
