package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/el"
	"reconcile/engine/sim"
)

// loopMini is the loop of the current pass small enough for a phone or a
// frame in a course page: desired, observed, difference and action in a
// ring of four boxes, the controller in the middle. Wide screens draw the
// ring picture (loop.go) instead; CSS shows one or the other.
func loopMini(p *sim.Pass) app.UI {
	type step struct{ key, label, value string }
	steps := []step{
		{stepDesired, "desired", "what you declared"},
		{stepObserved, "observed", "what is true now"},
		{stepDifference, "difference", "the instruction"},
		{stepAction, "action", "one API call"},
	}
	who := "a controller"
	lit := litSteps(p)
	if p != nil {
		who = controllerName(*p)
		for i := range steps {
			switch steps[i].key {
			case stepDesired:
				steps[i].value = orDash(p.Desired.Words)
			case stepObserved:
				steps[i].value = orDash(p.Observed.Words)
			case stepDifference:
				steps[i].value = orDash(p.Difference.Words)
			case stepAction:
				steps[i].value = sim.SummarizeActions(*p)
			}
		}
	}
	return el.Figure().Class("loop-mini").Aria("labelledby", "loopm-title").Body(
		el.P().ID("loopm-title").Class("visually-hidden").Text("The reconciliation loop, as this pass ran it"),
		// The order in the document is the loop's; the grid places the
		// boxes around the ring.
		el.Ol().Class("loopm-steps").Body(app.Range(steps).Slice(func(i int) app.UI {
			st := steps[i]
			class := "loopm-step loopm-" + st.key
			if lit[st.key] {
				class += " on"
			}
			return el.Li().Class(class).Body(
				el.Span().Class("loopm-label").Text(st.label),
				el.Span().Class("loopm-value").Text(st.value),
			)
		})),
		el.P().Class("loopm-who").Body(el.Span().Aria("hidden", "true").Text("↻ "), app.Text(who)),
	)
}
