package app

import (
	"fmt"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/el"
	"reconcile/app/session"
	"reconcile/engine/controller"
	"reconcile/engine/sim"
)

// maxActionsShown is how many of a pass's actions the pass details list.
const maxActionsShown = 5

// renderPass draws the current pass as the controller recorded it: which
// controller, on what, why it ran, what it desired, observed and found
// different, what it did and how it ended. "Explain each field" adds a
// line under each field that says what it means.
func (s *stage) renderPass() app.UI {
	c := s.view.Current
	if c == nil {
		notes := s.view.LoadNotes
		return el.Section().Class("pass").Aria("labelledby", "pass-title").Body(
			el.H2().ID("pass-title").Text("Pass details"),
			el.P().Text("The API server has stored the manifests. No controller has looked at them yet, so nothing runs. "+
				"Press Next pass (or →) to run the first controller pass."),
			app.If(s.view.First.What != "", func() app.UI {
				return el.P().Class("first-pass").Body(
					el.B().Text("The first pass: "),
					app.Text(s.view.First.What+" "+s.view.First.Why),
				)
			}),
			app.If(len(notes) > 0, func() app.UI {
				return el.Ul().Class("load-notes").Aria("label", "Not simulated").Body(
					app.Range(notes).Slice(func(i int) app.UI { return el.Li().Text(notes[i]) }),
				)
			}),
		)
	}
	help := s.explainFields
	field := func(name string, value app.UI) []app.UI {
		dd := el.Dd().Body(value)
		if help {
			dd = el.Dd().Body(value, el.Span().Class("field-help").Text(session.FieldHelp[name]))
		}
		return []app.UI{el.Dt().Text(name), dd}
	}
	text := func(s string) app.UI { return app.Text(orDash(s)) }
	var actions app.UI = app.Text("none")
	if len(c.Actions) > 0 {
		// At most a few lines, so the page below does not jump while playing.
		shown, more := c.Actions, 0
		if len(shown) > maxActionsShown {
			shown, more = shown[:maxActionsShown-1], len(shown)-maxActionsShown+1
		}
		actions = el.Ul().Body(
			app.Range(shown).Slice(func(i int) app.UI { return el.Li().Text(shown[i].String()) }),
			app.If(more > 0, func() app.UI {
				return el.Li().Class("muted").Text(fmt.Sprintf("and %d more (%s)", more, sim.SummarizeActions(*c)))
			}),
		)
	}
	var rows []app.UI
	rows = append(rows, el.Dt().Text("Controller"), el.Dd().Text(controllerName(*c)))
	rows = append(rows, el.Dt().Text("When"), el.Dd().Text(fmt.Sprintf("pass %d, t=%s", c.N, orDash(c.AtText))))
	rows = append(rows, field("Key", el.Code().Text(c.Key))...)
	rows = append(rows, field("Trigger", text(c.Trigger.String()))...)
	rows = append(rows, field("Desired", text(c.Desired.Words))...)
	rows = append(rows, field("Observed", text(c.Observed.Words))...)
	rows = append(rows, field("Difference", text(c.Difference.Words))...)
	rows = append(rows, field("Actions", actions)...)
	rows = append(rows, field("Outcome", el.Span().Class("outcome "+outcomeClass(c.Result)).Text(orDash(c.Outcome)))...)

	return el.Section().Class("pass").Aria("labelledby", "pass-title").Body(
		el.Div().Class("pass-head").Body(
			el.H2().ID("pass-title").Text(fmt.Sprintf("Pass %d in detail", c.N)),
			el.Button().Attr("type", "button").Class("quiet").Aria("pressed", strconv.FormatBool(help)).
				Text("Explain each field").OnClick(s.onExplainFields),
		),
		el.Dl().Body(rows...),
	)
}

// litSteps says which steps of the loop picture a pass went through: every
// pass reads desired and observed state and computes the difference; only a
// pass that acted reaches the action.
func litSteps(ps *sim.Pass) map[string]bool {
	if ps == nil {
		return map[string]bool{stepDesired: true}
	}
	return map[string]bool{
		stepDesired:    true,
		stepController: true,
		stepObserved:   true,
		stepDifference: true,
		stepAction:     len(ps.Actions) > 0,
	}
}

func captionFor(ps *sim.Pass) string {
	switch {
	case ps == nil:
		return "stored, not running"
	case ps.Outcome != "":
		return ps.Outcome
	default:
		return ""
	}
}

func outcomeClass(o controller.Outcome) string {
	switch o {
	case controller.InSync:
		return "ok"
	case controller.Failed, controller.Crashed, controller.Blocked:
		return "bad"
	default:
		return "acted"
	}
}

// controllerName names the controller of a pass, and its node for a kubelet.
func controllerName(ps sim.Pass) string {
	if ps.Host != "" {
		return ps.Controller + " on " + ps.Host
	}
	return ps.Controller
}
