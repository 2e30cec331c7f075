package app

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/el"
	"reconcile/app/session"
	"reconcile/engine/controller"
	"reconcile/engine/sim"
)

// comment is the lesson's pseudocode comment about the mishap given, if any.
func comment(given bool, text string) string {
	if !given {
		return ""
	}
	return text
}

// focusCount is a twin's count of Deployment name, or of all its pods
// when name is empty (or unknown).
func focusCount(v session.TwinView, name string) session.DeploymentCount {
	all := session.DeploymentCount{Name: "all pods", Settled: true}
	for _, d := range v.Each {
		if d.Name == name {
			return d
		}
		all.Pods, all.Wanted, all.Final = all.Pods+d.Pods, all.Wanted+d.Wanted, all.Final+d.Final
		all.Settled = all.Settled && d.Settled
	}
	return all
}

// renderTwin draws one twin: its counts (the Deployment the mishap acts on
// large, with the gap in words), the pseudocode its ReplicaSet controller
// runs with the lines of the pass just run lit, and what that pass was.
// While the learner is guessing, the gap is said as it is now, without
// whether it lasts (which would give the answer away).
func renderTwin(key, title string, v session.TwinView, all session.TwinsView, note string, guessing bool) app.UI {
	main := focusCount(v, all.Focus)
	gap := main.Gap()
	if guessing {
		gap = main.Difference()
	}
	offs := v.Off()
	class := "twin " + key
	if len(offs) > 0 {
		class += " off"
	}
	var others []session.DeploymentCount
	for _, d := range v.Each {
		if d.Name != main.Name {
			others = append(others, d)
		}
	}
	mainKey := "deployment" // the total, before any mishap, is no Deployment's
	if all.Focus == "" {
		mainKey = "total"
	}
	lit, ranN, ranBy := "", "", ""
	if v.HasRan {
		lit, ranN, ranBy = joinInts(v.Lit), itoa(v.Ran.N), v.Ran.Controller
	}
	last := ""
	if v.HasLast {
		last = itoa(v.Last.N)
	}
	return el.Section().Class(class).Aria("labelledby", key+"-title").
		DataSet("pass", v.Pass).DataSet("at", all.Now).DataSet("ran", ranN).DataSet("ran-controller", ranBy).
		DataSet("lit", lit).DataSet("last", last).DataSet("pods", v.Pods).DataSet("wanted", v.Wanted).Body(
		el.Div().Class("twin-head").Body(
			el.H2().ID(key+"-title").Text(title),
			el.Span().Class("twin-pass").Text(fmt.Sprintf("pass %d · t=%s", v.Pass, orDash(all.Now))),
		),
		el.P().Class("verdict").Text(verdict(offs, v.Crashed)),
		el.P().Class("count main "+gapClass(main)).DataSet(mainKey, main.Name).DataSet("pods", main.Pods).DataSet("wanted", main.Wanted).Body(
			el.Span().Class("dep").Text(main.Name),
			el.Strong().Class("big").Text(fmt.Sprintf("%d of %d", main.Pods, main.Wanted)),
			el.Span().Class("gap").Text(gap),
		),
		el.P().Class("others").Body(app.Range(others).Slice(func(i int) app.UI {
			d := others[i]
			return el.Span().Class("count "+gapClass(d)).DataSet("deployment", d.Name).DataSet("pods", d.Pods).DataSet("wanted", d.Wanted).
				Text(fmt.Sprintf("%s %d of %d", d.Name, d.Pods, d.Wanted))
		})),
		renderLitCode(title+" pseudocode", v),
		app.If(note != "", func() app.UI { return el.P().Class("lesson-comment").Body(el.Code().Text(note)) }),
		el.P().Class("passline").Text(twinPassLine(v, all)),
	)
}

// verdict names the Deployments that are off in a twin, in words.
func verdict(offs []session.DeploymentCount, crashed string) string {
	var names []string
	for _, d := range offs {
		names = append(names, d.Name)
	}
	out := "Every Deployment as desired"
	switch len(names) {
	case 0:
	case 1:
		out = names[0] + " is off"
	default:
		out = "Off: " + strings.Join(names, ", ")
	}
	if crashed != "" {
		out += " · replicaset-controller " + crashed
	}
	return out
}

// gapClass colours a count: off (short or over) or met.
func gapClass(d session.DeploymentCount) string {
	if d.Pods != d.Wanted {
		return "gap-off"
	}
	return "gap-met"
}

// renderLitCode draws a twin's pseudocode: the lines the pass just run ran
// lit, the last of them marked as this pass's; when this pass ran none,
// the lines the twin's latest ReplicaSet pass ran, marked as from then.
func renderLitCode(label string, v session.TwinView) app.UI {
	ran, lastRan := map[int]bool{}, map[int]bool{}
	current, lastLine := 0, 0
	for _, l := range v.Lit {
		ran[l], current = true, l
	}
	if len(v.Lit) == 0 && v.HasLast {
		for _, l := range v.LastLit {
			lastRan[l], lastLine = true, l
		}
	}
	return el.Ol().Class("code cmp-code").Aria("label", label).DataSet("lit", joinInts(v.Lit)).Body(
		app.Range(v.Block).Slice(func(i int) app.UI {
			n := i + 1
			text := el.Code().Text(v.Block[i])
			switch {
			case n == current:
				return el.Li().Class("ran current").Aria("current", "step").Body(text, el.Span().Class("tag").Text(fmt.Sprintf(" ◀ ran in pass %d", v.Ran.N)))
			case ran[n]:
				return el.Li().Class("ran").Body(text)
			case n == lastLine:
				return el.Li().Class("last").Body(text, el.Span().Class("tag").Text(fmt.Sprintf(" last ran at pass %d", v.Last.N)))
			case lastRan[n]:
				return el.Li().Class("last").Body(text)
			}
			return el.Li().Body(text)
		}),
	)
}

// twinPassLine says what the pass just run in this twin was, or why no line of
// its pseudocode is lit.
func twinPassLine(v session.TwinView, all session.TwinsView) string {
	p := v.Ran
	switch {
	case !all.Stepped && all.Demo != "":
		return fmt.Sprintf("(the mishap was given at t=%s: no pass has run since)", all.Now)
	case !all.Stepped:
		return "(no pass yet)"
	case !v.HasRan && v.Done:
		return "(nothing more happens in this twin before the end of the run)"
	case !v.HasRan:
		return fmt.Sprintf("(no pass in this twin at t=%s: the other twin has one)", all.Now)
	case p.Controller != controller.ReplicaSetController:
		return fmt.Sprintf("(this pass, %d, was the %s's: no ReplicaSet line runs)", p.N, p.Controller)
	}
	parts := []string{orDash(p.Desired.Words)}
	if p.Variant != string(controller.Edge) {
		// The edge-triggered controller observes nothing: its lit
		// code says where its count comes from.
		parts = append(parts, orDash(p.Observed.Words))
	}
	parts = append(parts, orDash(p.Difference.Words))
	what := sim.SummarizeActions(p)
	if p.Result == controller.Crashed && onlyStatus(p.Actions) {
		what += "; " + p.Outcome // SummarizeActions said "report status only"
	}
	return fmt.Sprintf("Pass %d: %s → %s", p.N, strings.Join(parts, " · "), what)
}

// onlyStatus reports whether a pass's actions are status writes, and
// some.
func onlyStatus(actions []controller.Action) bool {
	for _, a := range actions {
		if !a.IsStatus() {
			return false
		}
	}
	return len(actions) > 0
}

// joinInts writes line numbers as data attributes hold them: "1,2,3".
func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ",")
}
