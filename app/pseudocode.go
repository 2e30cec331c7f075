package app

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/el"
	"reconcile/app/session"
)

// renderSide draws the loop figure lit for the current pass, and the
// pseudocode it ran.
func (s *stage) renderSide() app.UI {
	return el.Div().Class("stage-side").Body(
		el.Figure().Class("loop-figure").Body(app.Raw(s.loop)),
		renderPseudocode(s.view.Pseudocode),
	)
}

// renderPseudocode shows which lines of the lesson's pseudocode the
// current pass ran (the view's, from its controller's Spec; most
// controllers run no block of the lesson's). The box keeps its height
// whatever the pass, so the page does not jump while playing.
func renderPseudocode(pc session.Pseudocode) app.UI {
	if len(pc.Lines) == 0 {
		return el.Div().Class("pseudo").Body(
			el.P().Class("muted").Text("When the replicaset-controller runs, the lines of the lesson's pseudocode it executed show here."),
		)
	}
	name := "Level-triggered"
	if pc.Edge {
		name = "Edge-triggered"
	}
	return el.Div().Class("pseudo").Body(
		el.P().Class("pseudo-title").Text(name+" pseudocode, as this pass ran it"),
		renderCode(name+" pseudocode", pc.Lines, pc.Ran),
	)
}

// renderCode draws a pseudocode block of the lesson with the lines a pass
// executed (1-based) marked, and the last of them as the current step.
func renderCode(label string, lines []string, executed []int) app.UI {
	ran := map[int]bool{}
	current := 0
	for _, l := range executed {
		ran[l] = true
		current = l
	}
	return el.Ol().Class("code").Aria("label", label).Body(
		app.Range(lines).Slice(func(i int) app.UI {
			n := i + 1
			switch {
			case n == current:
				return el.Li().Class("ran current").Aria("current", "step").Body(el.Code().Text(lines[i]))
			case ran[n]:
				return el.Li().Class("ran").Body(el.Code().Text(lines[i]))
			}
			return el.Li().Body(el.Code().Text(lines[i]))
		}),
	)
}

// pseudoKey is what renderPseudocode draws, as a key.
type pseudoKey struct {
	controller, variant, lines string
}

func pseudoKeyOf(pc session.Pseudocode) pseudoKey {
	if len(pc.Lines) == 0 {
		return pseudoKey{}
	}
	return pseudoKey{pc.Controller, fmt.Sprint(pc.Edge), fmt.Sprint(pc.Ran)}
}
