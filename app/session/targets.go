package session

import (
	"iter"
	"slices"
	"sort"
	"strconv"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/registry"
	"reconcile/engine/sim"
)

// maxPodTargets bounds the pods offered to delete-pod.
const maxPodTargets = 40

// FaultHelp says in one sentence what each fault does to the world.
var FaultHelp = map[string]string{
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
	"fail-probe":      "The image's containers start failing a probe: the kubelet sees it at the probe's next period, then marks them unready (readiness) or restarts them (liveness, startup).",
	"pass-probe":      "The image's containers pass the probe again: ready after successThreshold successes, no more restarts.",
	"cpu":             "Sets how much CPU each pod of a Deployment uses, as a share of its request. Only a HorizontalPodAutoscaler reads it: at its next sync, every 15 s.",
}

// Targets are the sensible targets of each fault verb in the current
// world.
type Targets map[string][]string

// readTargets lists, for every fault verb, what it can hit now; x has just
// read the run's nodes and pods, ctrls are its controllers.
func readTargets(run *sim.Sim, x *worldIndex, ctrls iter.Seq[sim.ControllerState]) Targets {
	t := Targets{}
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
	for _, o := range st.List("Deployment") {
		name := "deployment/" + o.Meta().Name
		if ns := o.Meta().Namespace; ns != "default" {
			name = "deployment/" + ns + "/" + o.Meta().Name
		}
		t["cpu"] = append(t["cpu"], name)
	}
	seen := map[string]bool{}
	for c := range ctrls {
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
	for _, im := range run.Config().Images {
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
	t["fail-probe"], t["pass-probe"] = t["push-image"], t["push-image"]
	for _, kind := range st.Kinds() {
		if strings.HasSuffix(kind, "WebhookConfiguration") {
			for _, o := range st.List(kind) {
				t["webhook-down"] = append(t["webhook-down"], o.Meta().Name)
				t["webhook-up"] = append(t["webhook-up"], o.Meta().Name)
				// A webhook is also named on its own (policy.example.com),
				// as the scenarios' webhook faults name it: the palette must
				// offer that name, or a webhook taken down by it cannot be
				// brought back from the page.
				if cfg, ok := o.(*api.ValidatingWebhookConfiguration); ok {
					for _, wh := range cfg.Webhooks {
						if wh.Name != "" && wh.Name != cfg.Name {
							t["webhook-down"] = append(t["webhook-down"], wh.Name)
							t["webhook-up"] = append(t["webhook-up"], wh.Name)
						}
					}
				}
			}
		}
	}
	return t
}

// FaultForm is what the learner has chosen in the fault palette.
type FaultForm struct {
	Verb, Target, Extra string
}

// Line is the fault as the engine reads it.
func (f FaultForm) Line(targets Targets) string {
	target := f.Target
	if !slices.Contains(targets[f.Verb], target) {
		if len(targets[f.Verb]) == 0 {
			return ""
		}
		target = targets[f.Verb][0]
	}
	out := f.Verb + " " + target
	switch f.Verb {
	case "drop-watch", "duplicate-watch":
		if f.Extra != "" && f.Extra != "1" {
			out += " " + f.Extra
		}
	case "delay-watch":
		extra := f.Extra
		if extra == "" {
			extra = "30s"
		}
		out += " " + extra
	case "fail-probe", "pass-probe":
		extra := f.Extra
		if !slices.Contains(registry.Probes, extra) {
			extra = "readiness"
		}
		out += " " + extra
	case "cpu":
		extra := f.Extra
		if extra == "" {
			extra = "85%"
		}
		out += " " + extra
	}
	return out
}

// History lists the latest faults and commands of a run, newest last.
func History(run *sim.Sim, max int) []string {
	type line struct {
		at   api.Time
		text string
	}
	var out []line
	for _, n := range run.Notes() {
		out = append(out, line{n.At, n.String()})
	}
	for _, o := range run.Outputs() {
		text := "t=" + o.AtText + " " + o.Command
		if o.ExitCode != 0 {
			text += " (exit " + strconv.Itoa(o.ExitCode) + ")"
		}
		if first := firstLine(o.Output); first != "" {
			text += " → " + first
		}
		out = append(out, line{o.At, text})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].at < out[j].at })
	if len(out) > max {
		out = out[len(out)-max:]
	}
	lines := make([]string, len(out))
	for i, l := range out {
		lines[i] = l.text
	}
	return lines
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}
