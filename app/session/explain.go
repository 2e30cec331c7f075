package session

import (
	"fmt"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/fault"
	"reconcile/engine/sim"
)

// Explanation is a pass in plain words: what it did, and why it ran.
type Explanation struct {
	// What is one sentence: "replicaset-controller counted 4 of the 5 pods
	// web-5c6b78cfd9 wants and created 1."
	What string
	// Why is one sentence: "It ran because pod web-x was deleted: the
	// watch told it."
	Why string
}

// Explain puts a pass of the built-in controllers in plain words
// (ExplainIn with controller.Builtin).
func Explain(p sim.Pass) Explanation { return ExplainIn(controller.Builtin, p) }

// ExplainIn puts a pass in plain words, built from what the pass itself
// says (its controller, object, desired, observed, difference, actions,
// outcome and trigger) and from its controller's entry in reg, the run's
// registry (its name in prose, what restarts it); it adds no fact the
// pass does not carry.
func ExplainIn(reg []controller.Spec, p sim.Pass) Explanation {
	return Explanation{What: what(reg, p), Why: why(p)}
}

// FieldHelp explains each field of the pass details in one line, for a
// learner.
var FieldHelp = map[string]string{
	"Key":        "What the pass is about: the one name the work queue handed the controller. The pass reads everything else from its cache.",
	"Trigger":    "Why the pass ran: a watch event, the first list when the controller started, a timer, or a requeue it asked for.",
	"Desired":    "What should be true, read from the object's spec: what someone asked for.",
	"Observed":   "What the controller sees is true now, read from its cache, which can lag behind the cluster.",
	"Difference": "The gap between desired and observed: what this pass should close.",
	"Actions":    "What the pass wrote through the API server to close the gap. Status writes report what is true; they close nothing.",
	"Outcome":    "How the pass ended: in sync (nothing to do for this key), acted, blocked, failed or crashed.",
	"Requeue":    "When the controller asked to look at the key again, and why, even if no event comes.",
}

// faultNames are the fault verbs in plain words.
var faultNames = map[string]string{
	fault.NodeDown:       "Node loses power",
	fault.NodeUp:         "Node comes back",
	fault.DropWatch:      "Controller misses watch events",
	fault.DuplicateWatch: "Controller gets watch events twice",
	fault.DelayWatch:     "Watch events arrive late",
	fault.Crash:          "Controller crashes mid-pass",
	fault.Stop:           "Controller stops",
	fault.Start:          "Controller starts",
	fault.Sync:           "Controller looks at everything now",
	fault.WebhookDown:    "Admission webhook stops answering",
	fault.WebhookUp:      "Admission webhook answers again",
	fault.PushImage:      "Tag moves to a new image",
	fault.DeletePod:      "Pod is deleted",
	fault.FailProbe:      "App starts failing a probe",
	fault.PassProbe:      "App passes a probe again",
	fault.CPU:            "CPU load changes",
}

// FaultName is a fault's verb in plain words ("node-down" → "Node loses
// power"), for the fault palette; the raw verb stays as a detail. An
// unknown verb is its own name.
func FaultName(verb string) string {
	if n, ok := faultNames[verb]; ok {
		return n
	}
	return verb
}

// quietFrom is the shortest gap between passes that QuietWords explains.
const quietFrom = 5 * api.Second

// QuietWords says what a stretch of simulated time in which no pass runs
// means, from the pass that ends it: "Nothing happens for 1m10s: every
// controller is waiting. The node lifecycle controller's grace period ends
// the wait." It returns "" when the gap is shorter than 5s.
func QuietWords(prev, next sim.Pass) string { return quietWords(controller.Builtin, prev, next) }

// quietWords is QuietWords for a run of registry reg.
func quietWords(reg []controller.Spec, prev, next sim.Pass) string {
	gap := next.At - prev.At
	if gap < quietFrom {
		return ""
	}
	return fmt.Sprintf("Nothing happens for %s: every controller is waiting. %s", api.FormatDuration(gap), endsWait(reg, next))
}

// plainName names a pass's controller for the start of a sentence, from
// its Spec: "The ReplicaSet controller", "The kubelet on worker-1".
func plainName(reg []controller.Spec, p sim.Pass) string {
	name := p.Controller
	if spec, ok := controller.Lookup(reg, p.Controller); ok {
		name = spec.Named()
	}
	if p.Host != "" {
		return "The " + name + " on " + p.Host
	}
	return "The " + name
}

// restarts says what restarts a pass's crashed controller, from its Spec.
func restarts(reg []controller.Spec, p sim.Pass) string {
	spec, _ := controller.Lookup(reg, p.Controller)
	return spec.Runs.Restarts()
}

// what says what a pass did, in one sentence.
func what(reg []controller.Spec, p sim.Pass) string {
	who := p.Controller
	if p.Host != "" {
		who += " on " + p.Host
	}
	obj := objectWords(p)
	steps, status := splitActions(p.Actions)
	switch p.Result {
	case controller.Crashed:
		restarts := restarts(reg, p)
		if len(steps) > 0 {
			return fmt.Sprintf("%s %s for %s, then crashed before it finished: %s (%s).", who, done(steps), obj, restarts, p.Outcome)
		}
		return fmt.Sprintf("%s crashed before it finished its pass on %s: %s (%s).", who, obj, restarts, p.Outcome)
	case controller.Failed:
		err := p.Error
		if len(steps) > 0 {
			return fmt.Sprintf("%s %s for %s, then failed: %s.", who, done(steps), obj, err)
		}
		return fmt.Sprintf("%s failed on %s: %s.", who, obj, err)
	case controller.Blocked:
		if p.Controller == controller.Scheduler {
			for _, a := range p.Actions {
				if a.Verb == controller.Unschedulable {
					return fmt.Sprintf("%s found no node for %s: %s", who, obj, a.Detail)
				}
			}
			return fmt.Sprintf("%s found no node for %s (%s).", who, obj, p.Outcome)
		}
		return fmt.Sprintf("%s could not act on %s: %s.", who, obj, p.Outcome)
	}
	var s string
	switch p.Controller {
	case controller.ReplicaSetController:
		if p.Variant == "edge" {
			s = edgeWhat(p, who, steps)
		} else {
			s = replicaSetWhat(p, who, steps, status)
		}
	case controller.DeploymentController:
		s = deploymentWhat(p, who, obj, steps, status)
	case controller.Scheduler:
		s = schedulerWhat(p, who, obj, steps)
	case controller.NodeLifecycleController:
		s = nodeWhat(p, who, steps)
	case controller.GitOpsController:
		s = gitopsWhat(p, who, obj, steps)
	case controller.JobController:
		s = jobWhat(p, who, obj, steps, status)
	case controller.Kubelet:
		s = kubeletWhat(p, who, obj, steps, status)
	case controller.ServiceAccountController, controller.RootCAPublisher:
		s = namespaceHoldsWhat(p, who, steps, status)
	}
	if s == "" {
		s = workloadWhat(p, who, obj, steps, status)
	}
	if s == "" {
		s = genericWhat(p, who, obj, steps, status)
	}
	return s
}

// objectWords names what a pass reconciled: "deployment web".
func objectWords(p sim.Pass) string {
	if p.Object.Kind == "" || p.Object.Name == "" {
		return p.Key
	}
	name := p.Object.Name
	if p.Object.Namespace != "" && p.Object.Namespace != "default" {
		name = p.Object.Namespace + "/" + name
	}
	return api.LowerKind(p.Object.Kind) + " " + name
}
