package app

import (
	"slices"
	"sort"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/engine/api"
	"reconcile/engine/fault"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
)

// maxPodTargets bounds the pods offered to delete-pod.
const maxPodTargets = 40

// faultHelp says in one sentence what each fault does to the world.
var faultHelp = map[string]string{
	"node-down":       "The node stops. Its kubelet stops reporting; 50 s later the node lifecycle controller marks it NotReady, and 5 min later evicts its pods.",
	"node-up":         "The node comes back: its kubelet lists its pods again and reports status.",
	"delete-pod":      "Deletes a pod. Nothing is lost for good: the ReplicaSet controller sees a difference and makes a new one.",
	"drop-watch":      "The controller misses its next watch events. A level-triggered controller fixes that on its next pass.",
	"duplicate-watch": "The controller receives its next watch events twice. A level-triggered pass run twice is a no-op.",
	"delay-watch":     "The controller receives its watch events late: its cache, and what it observes, is stale for a while.",
	"crash":           "The controller crashes in the middle of its next pass, after some of its actions. It restarts 10 s later and looks again.",
	"stop":            "The controller stops. Desired state is still stored; nothing acts on it until it starts again.",
	"start":           "Starts a stopped controller: it lists the world and reconciles everything it owns.",
	"push-image":      "Pushes a new image under an existing tag. The digest changes; the spec does not, so no controller sees a difference.",
	"webhook-down":    "The admission webhook stops answering: writes it checks time out, and fail when its failurePolicy is Fail.",
	"webhook-up":      "The admission webhook answers again.",
	"sync":            "Makes the controller look at everything now: a resync, or a run of a GitOps controller that only acts when run.",
}

// faultTargets are the sensible targets of each fault verb in the current
// world.
type faultTargets map[string][]string

// readTargets lists, for every fault verb, what it can hit now; x has just
// read the run's nodes and pods, ctrls are its controllers.
func readTargets(run *sim.Sim, sc *scenario.Scenario, x *worldIndex, ctrls []sim.ControllerState) faultTargets {
	t := faultTargets{}
	st := run.Store()
	if len(x.nodeNames) > 0 {
		// The same list for both, kept while no node comes or goes.
		t["node-down"], t["node-up"] = x.nodeNames, x.nodeNames
	}
	for _, p := range x.activePods(maxPodTargets) {
		name := p.Name
		if p.Namespace != "default" {
			name = p.Namespace + "/" + p.Name
		}
		t["delete-pod"] = append(t["delete-pod"], name)
	}
	seen := map[string]bool{}
	for _, c := range ctrls {
		if seen[c.Name] {
			continue
		}
		seen[c.Name] = true
		for _, v := range []string{"drop-watch", "duplicate-watch", "delay-watch", "crash", "sync"} {
			t[v] = append(t[v], c.Name)
		}
		switch c.State {
		case "running":
			t["stop"] = append(t["stop"], c.Name)
		default:
			t["start"] = append(t["start"], c.Name)
		}
	}
	images := map[string]bool{}
	for _, im := range sc.Cluster.Images {
		images[im.Ref] = true
	}
	for _, o := range st.List("Deployment") {
		for _, c := range o.(*api.Deployment).Spec.Template.Spec.Containers {
			images[c.Image] = true
		}
	}
	for ref := range images {
		t["push-image"] = append(t["push-image"], ref)
	}
	sort.Strings(t["push-image"])
	for _, kind := range st.Kinds() {
		if strings.HasSuffix(kind, "WebhookConfiguration") {
			for _, o := range st.List(kind) {
				t["webhook-down"] = append(t["webhook-down"], o.Meta().Name)
				t["webhook-up"] = append(t["webhook-up"], o.Meta().Name)
			}
		}
	}
	return t
}

// faultForm is what the learner has chosen in the fault palette.
type faultForm struct {
	verb, target, extra string
}

// line is the fault as the engine reads it.
func (f faultForm) line(targets faultTargets) string {
	target := f.target
	if !slices.Contains(targets[f.verb], target) {
		if len(targets[f.verb]) == 0 {
			return ""
		}
		target = targets[f.verb][0]
	}
	out := f.verb + " " + target
	switch f.verb {
	case "drop-watch", "duplicate-watch":
		if f.extra != "" && f.extra != "1" {
			out += " " + f.extra
		}
	case "delay-watch":
		extra := f.extra
		if extra == "" {
			extra = "30s"
		}
		out += " " + extra
	}
	return out
}

// renderFaults draws the fault palette: a fault, its target, and the inputs
// given so far.
func renderFaults(f faultForm, targets faultTargets, history []string, disabled bool,
	onVerb app.EventHandler, tp targetPicker, onExtra, onInject app.EventHandler) app.UI {
	verb := f.verb
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
	}
	extra := f.extra
	if !slices.Contains(extras, extra) && len(extras) > 0 {
		extra = extras[0]
		if verb == "delay-watch" {
			extra = "30s"
		}
	}
	return app.Section().Class("faults").Aria("labelledby", "faults-title").Body(
		app.H2().ID("faults-title").Text("Break something"),
		app.P().Class("muted").Text("A fault is an input like any other: it is recorded with the pass it followed, and replays identically when you step back and forth."),
		app.Div().Class("fault-form").Body(
			app.Div().Class("field").Body(
				app.Label().For("fault-verb").Text("Fault"),
				app.Select().ID("fault-verb").OnChange(onVerb).Body(app.Range(fault.Verbs).Slice(func(i int) app.UI {
					v := fault.Verbs[i]
					label := v
					if len(targets[v]) == 0 {
						label += " (nothing to target)"
					}
					return app.Option().Value(v).Text(label).Selected(v == verb)
				})),
			),
			app.Div().Class("field").Body(
				app.Label().For("fault-target").Text("Target"),
				&targetSelect{Options: options, Selected: f.target, Picker: tp},
			),
			app.If(len(extras) > 0, func() app.UI {
				return app.Div().Class("field").Body(
					app.Label().For("fault-extra").Text(extraLabel),
					app.Select().ID("fault-extra").OnChange(onExtra).Body(app.Range(extras).Slice(func(i int) app.UI {
						return app.Option().Value(extras[i]).Text(extras[i]).Selected(extras[i] == extra)
					})),
				)
			}),
			app.Button().Type("button").Class("inject").Text("Inject").Disabled(disabled || len(options) == 0).OnClick(onInject),
		),
		app.P().Class("fault-help").Text(faultHelp[verb]),
		app.If(len(history) > 0, func() app.UI {
			return app.Div().Class("history").Body(
				app.H3().Text("Inputs so far"),
				app.Ul().Body(app.Range(history).Slice(func(i int) app.UI {
					return app.Li().Body(app.Code().Text(history[i]))
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
	return app.Select().ID("fault-target").OnChange(t.Picker.onTarget).Disabled(len(options) == 0).Body(app.Range(options).Slice(func(i int) app.UI {
		return app.Option().Value(options[i]).Text(options[i]).Selected(options[i] == t.Selected)
	}))
}

// inputHistory lists the latest faults and commands of a run, newest last.
func inputHistory(run *sim.Sim, max int) []string {
	var out []string
	out = append(out, run.Notes()...)
	for _, o := range run.Outputs() {
		line := "t=" + o.AtText + " " + o.Command
		if o.ExitCode != 0 {
			line += " (exit " + itoa(o.ExitCode) + ")"
		}
		if first := firstLine(o.Output); first != "" {
			line += " → " + first
		}
		out = append(out, line)
	}
	sort.SliceStable(out, func(i, j int) bool { return timeOf(out[i]) < timeOf(out[j]) })
	if len(out) > max {
		out = out[len(out)-max:]
	}
	return out
}

// timeOf reads the simulated time a history line starts with ("t=1m30s ...").
func timeOf(line string) api.Time {
	s := strings.TrimPrefix(line, "t=")
	if i := strings.IndexByte(s, ' '); i >= 0 {
		s = s[:i]
	}
	d, err := api.ParseDuration(s)
	if err != nil {
		return 0
	}
	return d
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}
