package app

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/engine/api"
	"reconcile/engine/kubectl"
	"reconcile/engine/sim"
)

// maxEventsShown bounds the events table of one object.
const maxEventsShown = 20

// inspectorView is one object as the inspector shows it, answering the
// lesson's three questions in its order: has the controller seen my change
// (metadata.generation beside status.observedGeneration), what do its
// conditions say, what do its events say; then the object itself.
type inspectorView struct {
	ref api.Ref
	// gone is set when the object is not (or no longer) stored.
	gone       bool
	generation int64
	// observed is status.observedGeneration; hasObserved is false for kinds
	// that do not report it.
	observed    int64
	hasObserved bool
	conditions  []conditionRow
	events      []eventRow
	moreEvents  int
	yaml        string
}

type conditionRow struct {
	typ, status, reason, message, since string
}

type eventRow struct {
	typ, reason, age, from, message string
}

// objectProbe reads, from any kind's JSON, the fields the three questions
// need.
type objectProbe struct {
	Metadata struct {
		Generation int64 `json:"generation"`
	} `json:"metadata"`
	Status struct {
		ObservedGeneration *int64 `json:"observedGeneration"`
		Conditions         []struct {
			Type               string `json:"type"`
			Status             string `json:"status"`
			Reason             string `json:"reason"`
			Message            string `json:"message"`
			LastTransitionTime string `json:"lastTransitionTime"`
		} `json:"conditions"`
	} `json:"status"`
}

// objectText is what the inspector reads from one stored version of an
// object: its YAML and the fields the three questions need. The store never
// changes an object it holds (a change stores a new one), so this is
// computed once per version, not once per pass.
type objectText struct {
	obj   api.Object
	yaml  string
	probe objectProbe
	ok    bool
}

// readObject returns the text of obj, reusing last when it is the same
// stored version.
func readObject(obj api.Object, last *objectText) *objectText {
	if last != nil && last.obj == obj {
		return last
	}
	t := &objectText{obj: obj}
	data, err := json.Marshal(obj)
	if err != nil {
		t.yaml = "cannot render: " + err.Error()
		return t
	}
	t.ok = json.Unmarshal(data, &t.probe) == nil
	// The YAML kubectl get -o yaml prints, from the object as the API
	// writes it (timestamps as RFC 3339, quantities as strings).
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		t.yaml = "cannot render: " + err.Error()
		return t
	}
	t.yaml = kubectl.YAML(doc)
	return t
}

// inspect reads the view of ref from the run. cache holds the text of the
// object's last version read, and is updated. It reads the events about
// the object only, not every event of the world.
func inspect(run *sim.Sim, ref api.Ref, cache **objectText) inspectorView {
	v := inspectorView{ref: ref}
	obj := run.Store().Get(ref.Kind, ref.Namespace, ref.Name)
	if obj == nil {
		v.gone = true
		return v
	}
	text := readObject(obj, *cache)
	*cache = text
	v.yaml = text.yaml
	if probe := text.probe; text.ok {
		v.generation = probe.Metadata.Generation
		if g := probe.Status.ObservedGeneration; g != nil {
			v.observed, v.hasObserved = *g, true
		} else if ref.Kind == "Deployment" || ref.Kind == "ReplicaSet" {
			v.hasObserved = true // omitted when 0: the controller has not reported yet
		}
		for _, c := range probe.Status.Conditions {
			v.conditions = append(v.conditions, conditionRow{
				typ: c.Type, status: c.Status, reason: c.Reason, message: c.Message, since: sinceText(run.Now(), c.LastTransitionTime),
			})
		}
	}
	now := run.Now()
	evs := run.Store().EventsFor(ref.Kind, ref.Namespace, ref.Name)
	for i := len(evs) - 1; i >= 0; i-- { // newest first
		e := evs[i]
		if len(v.events) >= maxEventsShown {
			v.moreEvents++
			continue
		}
		v.events = append(v.events, eventRow{
			typ: e.Type, reason: e.Reason, age: eventAge(now, e), from: e.Source.Component, message: e.Message,
		})
	}
	return v
}

// eventAge is the age column of kubectl describe: "12s", or
// "12s (x3 over 40s)" for an event seen more than once.
func eventAge(now api.Time, e *api.Event) string {
	age := api.HumanDuration(now - e.LastTimestamp)
	if e.Count > 1 {
		age += fmt.Sprintf(" (x%d over %s)", e.Count, api.HumanDuration(now-e.FirstTimestamp))
	}
	return age
}

// sinceText renders an RFC 3339 timestamp of the run as an age.
func sinceText(now api.Time, stamp string) string {
	if stamp == "" {
		return ""
	}
	t, err := parseStamp(stamp)
	if err != nil {
		return stamp
	}
	return api.HumanDuration(now-t) + " ago"
}

// parseStamp turns a timestamp rendered from api.Epoch back into a
// simulated time.
func parseStamp(stamp string) (api.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, stamp)
	if err != nil {
		return 0, err
	}
	return api.Time(t.Sub(api.Epoch).Milliseconds()), nil
}

// followed is the object a pass reconciled: what the inspector shows when
// the learner has not picked one.
func followed(run *sim.Sim, p *sim.Pass) (api.Ref, bool) {
	if p == nil || p.Object.Kind == "" {
		return api.Ref{}, false
	}
	return p.Object, true
}

// renderInspector draws the inspector. following says whether it follows
// the current pass; follow, when set, lets the learner go back to that.
// asOf says when the object was read ("after pass 12, t=3.4s").
func renderInspector(v inspectorView, following bool, follow app.EventHandler, asOf string) app.UI {
	title := "Inspector"
	name := ""
	if v.ref.Kind != "" {
		name = strings.ToLower(v.ref.Kind) + "/" + v.ref.Name
		title += ": " + name
	}
	return app.Section().Class("inspector").Aria("labelledby", "inspector-title").Body(
		app.H2().ID("inspector-title").Text(title),
		app.Div().Class("inspector-mode").Body(
			app.If(following, func() app.UI {
				return app.P().Class("muted").Text("Showing the object the current pass reconciled, " + asOf + ". Select an object in the cluster to keep it here.")
			}).Else(func() app.UI {
				return app.P().Class("muted").Body(
					app.Text("Showing the object you selected, "+asOf+". "),
					app.Button().Type("button").Class("quiet").Text("Follow the current pass").OnClick(follow),
				)
			}),
		),
		app.If(v.ref.Kind == "", func() app.UI {
			return app.P().Text("No pass has run yet. Select an object in the cluster, or press Next pass.")
		}).ElseIf(v.gone, func() app.UI {
			return app.P().Text(name + " is not stored: it was deleted, or it is not created yet at this pass.")
		}).Else(func() app.UI {
			return app.Div().Body(
				app.H3().Text("1. Has the controller seen my change?"),
				renderGenerations(v),
				app.H3().Text("2. What do its conditions say?"),
				renderConditions(v.conditions),
				app.H3().Text("3. What do its events say?"),
				renderEvents(v),
				app.Details().Open(true).Class("yaml").Body(
					app.Summary().Text("Live YAML"),
					app.Pre().TabIndex(0).Aria("label", "Live YAML of "+name).Text(v.yaml),
				),
			)
		}),
	)
}

func renderGenerations(v inspectorView) app.UI {
	verdict, class := "", ""
	switch {
	case !v.hasObserved:
		verdict = "This kind reports no status.observedGeneration: read its conditions and events."
	case v.observed >= v.generation:
		verdict, class = "Yes: the controller has acted on the latest spec.", "ok"
	default:
		verdict, class = fmt.Sprintf("Not yet: the controller has not acted on generation %d. You are looking at the old spec running.", v.generation), "bad"
	}
	observed := "not reported"
	if v.hasObserved {
		observed = strconv.FormatInt(v.observed, 10)
	}
	return app.Div().Class("generations").Body(
		app.P().Body(app.Code().Text("metadata.generation"), app.Text(" "), app.B().Class("gen").Text(v.generation)),
		app.P().Body(app.Code().Text("status.observedGeneration"), app.Text(" "), app.B().Class("gen").Text(observed)),
		app.P().Class("verdict "+class).Text(verdict),
	)
}

// renderConditions lists the conditions the way kubectl describe reads
// them: type, status, reason and age on a line, the message under it.
func renderConditions(rows []conditionRow) app.UI {
	if len(rows) == 0 {
		return app.P().Class("muted").Text("No conditions.")
	}
	return app.Ul().Class("entries").Body(app.Range(rows).Slice(func(i int) app.UI {
		c := rows[i]
		head := []app.UI{app.B().Text(c.typ), app.Text(" "), app.Span().Class("cond-" + strings.ToLower(c.status)).Text(c.status)}
		if c.reason != "" {
			head = append(head, app.Text(" · "+c.reason))
		}
		if c.since != "" {
			head = append(head, app.Span().Class("muted").Text(" · "+c.since))
		}
		return app.Li().Body(
			app.Div().Body(head...),
			app.If(c.message != "", func() app.UI { return app.Div().Class("message").Text(c.message) }),
		)
	}))
}

// renderEvents lists the events about the object, newest first, with
// their counts: "12s (x3 over 40s)".
func renderEvents(v inspectorView) app.UI {
	if len(v.events) == 0 {
		return app.P().Class("muted").Text("No events about this object.")
	}
	return app.Div().Body(
		app.Ul().Class("entries").Body(app.Range(v.events).Slice(func(i int) app.UI {
			e := v.events[i]
			return app.Li().Class("ev-"+strings.ToLower(e.typ)).Body(
				app.Div().Body(
					app.Span().Class("ev-type").Text(e.typ),
					app.Text(" "),
					app.B().Text(e.reason),
					app.Span().Class("muted").Text(" · "+e.age+" · "+e.from),
				),
				app.Div().Class("message").Text(e.message),
			)
		})),
		app.If(v.moreEvents > 0, func() app.UI {
			return app.P().Class("muted").Text(fmt.Sprintf("and %d older events", v.moreEvents))
		}),
	)
}
