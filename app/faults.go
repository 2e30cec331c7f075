package app

import (
	"slices"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/el"
	"reconcile/app/session"
	"reconcile/engine/fault"
)

// renderFaults draws the stage's fault palette.
func (s *stage) renderFaults() app.UI {
	return renderFaults(s.fault, s.view.Targets, s.view.History, !s.view.Ready || !s.idle(), s.onVerb, s, s.onExtra, s.onInject)
}

// faultsKey is what the fault palette draws, as a key: the form, which
// faults have targets and the chosen one's, the inputs so far.
type faultsKey struct {
	form     session.FaultForm
	targets  string
	history  string
	disabled bool
}

func (s *stage) faultsKey() faultsKey {
	var b strings.Builder
	verb := s.fault.Verb
	if verb == "" {
		verb = fault.Verbs[0]
	}
	for _, v := range fault.Verbs {
		b.WriteString(strconv.Itoa(len(s.view.Targets[v])))
		b.WriteByte(' ')
	}
	b.WriteString(strings.Join(s.view.Targets[verb], "\x00"))
	return faultsKey{s.fault, b.String(), strings.Join(s.view.History, "\x00"), !s.view.Ready || !s.idle()}
}

// renderFaults draws the fault palette: a fault, its target, and the inputs
// given so far.
func renderFaults(f session.FaultForm, targets session.Targets, history []string, disabled bool,
	onVerb app.EventHandler, tp targetPicker, onExtra, onInject app.EventHandler) app.UI {
	verb := f.Verb
	if verb == "" {
		verb = fault.Verbs[0]
	}
	options := targets[verb]
	var extras []string
	extraLabel := ""
	switch verb {
	case "drop-watch", "duplicate-watch":
		extras, extraLabel = []string{"1", "2", "3", "5"}, "Events"
	case "delay-watch":
		extras, extraLabel = []string{"5s", "30s", "2m"}, "Delay"
	case "fail-probe", "pass-probe":
		extras, extraLabel = []string{"readiness", "liveness", "startup"}, "Probe"
	case "cpu":
		extras, extraLabel = []string{"0", "25%", "50%", "85%", "150%", "300%"}, "CPU of request"
	}
	extra := f.Extra
	if !slices.Contains(extras, extra) && len(extras) > 0 {
		extra = extras[0]
		if verb == "delay-watch" {
			extra = "30s"
		}
		if verb == "cpu" {
			extra = "85%"
		}
	}
	return el.Section().Class("faults").Aria("labelledby", "faults-title").Body(
		el.H2().ID("faults-title").Text("Break something"),
		el.P().Class("muted").Text("A fault is an input like any other: it is recorded with the pass it followed, and replays identically when you step back and forth."),
		el.Div().Class("fault-form").Body(
			el.Div().Class("field").Body(
				el.Label().Attr("for", "fault-verb").Text("Fault"),
				el.Select().ID("fault-verb").OnChange(onVerb).Body(app.Range(fault.Verbs).Slice(func(i int) app.UI {
					v := fault.Verbs[i]
					label := session.FaultName(v) + " (" + v + ")"
					if len(targets[v]) == 0 {
						label += ", nothing to target"
					}
					return el.Option().Attr("value", v).Text(label).Attr("selected", el.Flag(v == verb))
				})),
			),
			el.Div().Class("field").Body(
				el.Label().Attr("for", "fault-target").Text("Target"),
				&targetSelect{Options: options, Selected: f.Target, Picker: tp},
			),
			app.If(len(extras) > 0, func() app.UI {
				return el.Div().Class("field").Body(
					el.Label().Attr("for", "fault-extra").Text(extraLabel),
					el.Select().ID("fault-extra").OnChange(onExtra).Body(app.Range(extras).Slice(func(i int) app.UI {
						return el.Option().Attr("value", extras[i]).Text(extras[i]).Attr("selected", el.Flag(extras[i] == extra))
					})),
				)
			}),
			el.Button().Attr("type", "button").Class("inject").Text("Inject").Attr("disabled", disabled || len(options) == 0).OnClick(onInject),
		),
		el.P().Class("fault-help").Text(session.FaultHelp[verb]),
		app.If(len(history) > 0, func() app.UI {
			return el.Div().Class("history").Body(
				el.H3().Text("Inputs so far"),
				el.Ul().Body(app.Range(history).Slice(func(i int) app.UI {
					return el.Li().Body(el.Code().Text(history[i]))
				})),
			)
		}),
	)
}

// targetPicker is a page whose fault palette takes the target chosen.
type targetPicker interface {
	onTarget(ctx app.Context, e app.Event)
}

// targetSelect is the palette's Target control, a component of its own: a
// fault can have as many targets as the cluster has nodes, and go-app
// compares its fields, not its options, with those of the last render
// (the list of targets is the same slice while the targets stay the same).
type targetSelect struct {
	app.Compo

	Options  []string
	Selected string
	Picker   targetPicker
}

func (t *targetSelect) Render() app.UI {
	options := t.Options
	return el.Select().ID("fault-target").OnChange(t.Picker.onTarget).Attr("disabled", len(options) == 0).Body(app.Range(options).Slice(func(i int) app.UI {
		return el.Option().Attr("value", options[i]).Text(options[i]).Attr("selected", el.Flag(options[i] == t.Selected))
	}))
}
