package app

import (
	"fmt"
	"reconcile/app/el"
	"reconcile/app/session"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// renderInspector draws the stage's inspector.
func (s *stage) renderInspector() app.UI {
	return renderInspector(s.inspection, s.view.Following, s.onFollow, s.asOfShown, s.inspectDue)
}

// inspectorKey is what the stage's inspector draws: the reading shown
// (counted), whether it follows the current pass, when it was read and
// whether a reading is on its way.
type inspectorKey struct {
	reading         int
	following, busy bool
	asOf            string
}

// inspectorPart is the stage's inspector, drawn again only when what it
// shows changes (not at each of the page's other renders: a save's
// status, a console's line).
func (s *stage) inspectorPart() app.UI {
	return memoize(inspectorKey{s.inspected, s.view.Following, s.inspectDue, s.asOfShown}, s.renderInspector)
}

// showInspection puts a reading in the inspector.
func (s *stage) showInspection(v session.Inspection) {
	s.inspection, s.asOfShown = v, s.asOf()
	s.inspected++
}

// renderInspector draws the inspector. following says whether it follows
// the current pass; follow, when set, lets the learner go back to that.
// asOf says when the object was read ("after pass 12, t=3.4s"); busy, that
// a reading of a later pass is on its way (aria-busy).
func renderInspector(v session.Inspection, following bool, follow app.EventHandler, asOf string, busy bool) app.UI {
	title := "Inspector"
	name := ""
	if v.Ref.Kind != "" {
		name = strings.ToLower(v.Ref.Kind) + "/" + v.Ref.Name
		title += ": " + name
	}
	return el.Section().Class("inspector").Aria("labelledby", "inspector-title").Aria("busy", busy).Body(
		el.H2().ID("inspector-title").Text(title),
		el.Div().Class("inspector-mode").Body(
			app.If(following, func() app.UI {
				return el.P().Class("muted").Text("Showing the object the current pass reconciled, " + asOf + ". Select an object in the cluster to keep it here.")
			}).Else(func() app.UI {
				return el.P().Class("muted").Body(
					app.Text("Showing the object you selected, "+asOf+". "),
					el.Button().Attr("type", "button").Class("quiet").Text("Follow the current pass").OnClick(follow),
				)
			}),
		),
		app.If(v.Ref.Kind == "", func() app.UI {
			return el.P().Text("No pass has run yet. Select an object in the cluster, or press Next pass.")
		}).ElseIf(v.Gone, func() app.UI {
			return el.P().Text(name + " is not stored: it was deleted, or it is not created yet at this pass.")
		}).Else(func() app.UI {
			return el.Div().Body(
				el.H3().Text("1. Has the controller seen my change?"),
				renderGenerations(v),
				el.H3().Text("2. What do its conditions say?"),
				renderConditions(v.Conditions),
				el.H3().Text("3. What do its events say?"),
				renderEvents(v),
				el.Details().Attr("open", true).Class("yaml").Body(
					el.Summary().Text("Live YAML"),
					el.Pre().TabIndex(0).Aria("label", "Live YAML of "+name).Text(v.YAML),
				),
			)
		}),
	)
}

func renderGenerations(v session.Inspection) app.UI {
	verdict, class := "", ""
	switch {
	case !v.HasObserved:
		verdict = "This kind reports no status.observedGeneration: read its conditions and events."
	case v.Observed >= v.Generation:
		verdict, class = "Yes: the controller has acted on the latest spec.", "ok"
	default:
		verdict, class = fmt.Sprintf("Not yet: the controller has not acted on generation %d. You are looking at the old spec running.", v.Generation), "bad"
	}
	observed := "not reported"
	if v.HasObserved {
		observed = strconv.FormatInt(v.Observed, 10)
	}
	return el.Div().Class("generations").Body(
		el.P().Body(el.Code().Text("metadata.generation"), app.Text(" "), el.B().Class("gen").Text(v.Generation)),
		el.P().Body(el.Code().Text("status.observedGeneration"), app.Text(" "), el.B().Class("gen").Text(observed)),
		el.P().Class("verdict "+class).Text(verdict),
	)
}

// renderConditions lists the conditions the way kubectl describe reads
// them: type, status, reason and age on a line, the message under it.
func renderConditions(rows []session.Condition) app.UI {
	if len(rows) == 0 {
		return el.P().Class("muted").Text("No conditions.")
	}
	return el.Ul().Class("entries").Body(app.Range(rows).Slice(func(i int) app.UI {
		c := rows[i]
		head := []app.UI{el.B().Text(c.Type), app.Text(" "), el.Span().Class("cond-" + strings.ToLower(c.Status)).Text(c.Status)}
		if c.Reason != "" {
			head = append(head, app.Text(" · "+c.Reason))
		}
		if c.Since != "" {
			head = append(head, el.Span().Class("muted").Text(" · "+c.Since))
		}
		return el.Li().Body(
			el.Div().Body(head...),
			app.If(c.Message != "", func() app.UI { return el.Div().Class("message").Text(c.Message) }),
		)
	}))
}

// renderEvents lists the events about the object, newest first, with
// their counts: "12s (x3 over 40s)".
func renderEvents(v session.Inspection) app.UI {
	if len(v.Events) == 0 {
		return el.P().Class("muted").Text("No events about this object.")
	}
	return el.Div().Body(
		el.Ul().Class("entries").Body(app.Range(v.Events).Slice(func(i int) app.UI {
			e := v.Events[i]
			return el.Li().Class("ev-"+strings.ToLower(e.Type)).Body(
				el.Div().Body(
					el.Span().Class("ev-type").Text(e.Type),
					app.Text(" "),
					el.B().Text(e.Reason),
					el.Span().Class("muted").Text(" · age "+e.Age+" · from "+e.From),
				),
				el.Div().Class("message").Text(e.Message),
			)
		})),
		app.If(v.MoreEvents > 0, func() app.UI {
			return el.P().Class("muted").Text(fmt.Sprintf("and %d older events", v.MoreEvents))
		}),
	)
}
