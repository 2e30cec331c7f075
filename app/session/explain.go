package session

import (
	"fmt"
	"strconv"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/fault"
	"reconcile/engine/sim"
)

// Explanation is a pass in plain words: what it did, and why it ran.
type Explanation struct {
	// What is one sentence: "replicaset-controller counted 4 of the 5 pods
	// web-6d667cb46b wants and created 1."
	What string
	// Why is one sentence: "It ran because pod web-x was deleted: the
	// watch told it."
	Why string
}

// Explain puts a pass in plain words, built from what the pass itself
// says (its controller, object, desired, observed, difference, actions,
// outcome and trigger); it adds no fact the pass does not carry.
func Explain(p sim.Pass) Explanation {
	return Explanation{What: what(p), Why: why(p.Trigger)}
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
func QuietWords(prev, next sim.Pass) string {
	gap := next.At - prev.At
	if gap < quietFrom {
		return ""
	}
	return fmt.Sprintf("Nothing happens for %s: every controller is waiting. %s", api.FormatDuration(gap), endsWait(next))
}

// endsWait says what the pass that ends a quiet stretch was waiting for.
func endsWait(p sim.Pass) string {
	who := plainName(p)
	trigger, _ := splitMore(p.Trigger)
	switch {
	case p.Controller == controller.NodeLifecycleController && strings.HasPrefix(p.Difference, "heartbeat overdue"):
		return who + "'s grace period ends the wait."
	case strings.HasPrefix(trigger, "requeue: "):
		reason, _ := requeueReason(trigger)
		return fmt.Sprintf("%s's requeue ends the wait: %s.", who, reason)
	case strings.HasPrefix(trigger, "timer: "):
		return who + "'s periodic check ends the wait."
	case strings.HasPrefix(trigger, "watch: "):
		return fmt.Sprintf("A watch event ends the wait: %s.", eventWords(strings.TrimPrefix(trigger, "watch: ")))
	case strings.HasPrefix(trigger, "restarted after crash"):
		return who + " restarting after its crash ends the wait."
	case strings.HasSuffix(trigger, "initial list"):
		return who + " starting ends the wait."
	case trigger == "sync requested":
		return "A sync someone asked for ends the wait."
	}
	return fmt.Sprintf("%s ends the wait (%s).", who, p.Trigger)
}

// plainName names a pass's controller for the start of a sentence.
func plainName(p sim.Pass) string {
	switch p.Controller {
	case controller.DeploymentController:
		return "The deployment controller"
	case controller.ReplicaSetController:
		return "The ReplicaSet controller"
	case controller.Scheduler:
		return "The scheduler"
	case controller.NodeLifecycleController:
		return "The node lifecycle controller"
	case controller.JobController:
		return "The Job controller"
	case controller.GitOpsController:
		return "The GitOps controller"
	case controller.GarbageCollectorController:
		return "The garbage collector"
	case controller.Kubelet:
		if p.Host != "" {
			return "The kubelet on " + p.Host
		}
		return "The kubelet"
	}
	if n := workloadNames[p.Controller]; n != "" {
		return n
	}
	return "The " + p.Controller
}

// why says why a pass ran, from its trigger.
func why(trigger string) string {
	t, more := splitMore(trigger)
	var s string
	switch {
	case t == "initial list":
		s = "Its first look at the cluster: every controller lists what it watches when it starts."
	case t == "restarted after crash: initial list":
		s = "It ran because it restarted after a crash: it lists everything it watches again, so nothing it missed is lost."
	case t == "kubelet started: initial list":
		s = "It ran because its node came back: the kubelet started and listed the pods bound to its node."
	case strings.HasSuffix(t, "initial list"):
		s = "It ran because it was started: a controller lists what it watches when it starts."
	case strings.HasPrefix(t, "watch: "):
		s = fmt.Sprintf("It ran because %s: the watch told it.", eventWords(strings.TrimPrefix(t, "watch: ")))
	case strings.HasPrefix(t, "requeue: "):
		s = requeueWhy(t)
	case strings.HasPrefix(t, "timer: "):
		s = fmt.Sprintf("It ran on a timer: its periodic check (%s) queued the key, with no watch event.", strings.TrimPrefix(t, "timer: "))
	case strings.HasPrefix(t, "relist: "):
		s = fmt.Sprintf("It ran because its watch was listed again and %s: a relist repairs what the watch missed.", strings.TrimPrefix(t, "relist: "))
	case t == "sync requested":
		s = "It ran because a sync was asked for: the controller looks at everything it knows, now."
	default:
		s = fmt.Sprintf("It ran because of %s.", t)
	}
	if more > 0 {
		s = fmt.Sprintf("%s; the work queue folded %d more %s for the key into this pass.", strings.TrimSuffix(s, "."), more, plural(more, "event", "events"))
	}
	return s
}

// splitMore splits "watch: pod/x ADDED (+5 more events)" into the trigger
// and the 5 events the queue folded into it.
func splitMore(trigger string) (string, int) {
	i := strings.LastIndex(trigger, " (+")
	if i < 0 || !strings.HasSuffix(trigger, " more events)") {
		return trigger, 0
	}
	n, err := strconv.Atoi(strings.TrimSuffix(trigger[i+3:], " more events)"))
	if err != nil {
		return trigger, 0
	}
	return trigger[:i], n
}

// eventWords reads a watch event, "pod/web-x DELETED", as "pod web-x was
// deleted".
func eventWords(ev string) string {
	ref, typ, _ := strings.Cut(ev, " ")
	kind, name, _ := strings.Cut(ref, "/")
	switch typ {
	case "ADDED":
		return fmt.Sprintf("%s %s was created", kind, name)
	case "MODIFIED":
		return fmt.Sprintf("%s %s changed", kind, name)
	case "DELETED":
		return fmt.Sprintf("%s %s was deleted", kind, name)
	}
	return fmt.Sprintf("of %s %s (%s)", kind, name, typ)
}

// requeueReason splits "requeue: progress deadline check after 10m1s"
// into its reason and its delay.
func requeueReason(t string) (reason, after string) {
	r := strings.TrimPrefix(t, "requeue: ")
	if i := strings.LastIndex(r, " after "); i >= 0 {
		return r[:i], r[i+len(" after "):]
	}
	return r, ""
}

// requeueFor words the reasons the built-in controllers give a requeue as
// what the controller looks again for.
var requeueFor = map[string]string{
	"progress deadline check":                      "for the progress deadline",
	"container timer":                              "for a container's next step (a pull, a start, a back-off, a probe)",
	"minReadySeconds":                              "for minReadySeconds to pass",
	"toleration of the unreachable taint runs out": "for the moment the pods' toleration of the unreachable taint runs out",
	"next eviction due":                            "for the next eviction",
}

func requeueWhy(t string) string {
	reason, after := requeueReason(t)
	later := "later"
	if after != "" {
		later = after + " later"
	}
	switch {
	case reason == "rate-limited retry after an error":
		return fmt.Sprintf("It ran because its last pass on this key failed: the work queue retried it %s, with a back-off that grows with each failure.", later)
	case strings.HasPrefix(reason, "unschedulable pods are retried"):
		return fmt.Sprintf("It ran because the pod did not fit anywhere: %s.", reason)
	case strings.HasPrefix(reason, "next scheduled time "):
		return fmt.Sprintf("It ran because it asked to look again %s, when its schedule next fires (%s).", later, strings.TrimPrefix(reason, "next scheduled time "))
	case requeueFor[reason] != "":
		return fmt.Sprintf("It ran because it asked to look again %s, %s.", later, requeueFor[reason])
	}
	return fmt.Sprintf("It ran because it asked to look again %s: %s.", later, reason)
}

// what says what a pass did, in one sentence.
func what(p sim.Pass) string {
	who := p.Controller
	if p.Host != "" {
		who += " on " + p.Host
	}
	obj := objectWords(p)
	steps, status := splitActions(p.Actions)
	switch p.Result {
	case controller.Crashed:
		restarts := "it is restarted"
		if inControllerManager(p.Controller) {
			restarts = "the controller-manager restarts it"
		}
		if len(steps) > 0 {
			return fmt.Sprintf("%s %s for %s, then crashed before it finished: %s (%s).", who, done(steps), obj, restarts, p.Outcome)
		}
		return fmt.Sprintf("%s crashed before it finished its pass on %s: %s (%s).", who, obj, restarts, p.Outcome)
	case controller.Failed:
		err := strings.TrimPrefix(p.Outcome, "error: ")
		if len(steps) > 0 {
			return fmt.Sprintf("%s %s for %s, then failed: %s.", who, done(steps), obj, err)
		}
		return fmt.Sprintf("%s failed on %s: %s.", who, obj, err)
	case controller.Blocked:
		if p.Controller == controller.Scheduler {
			for _, a := range p.Actions {
				if msg, ok := strings.CutPrefix(a, "mark PodScheduled=False: "); ok {
					return fmt.Sprintf("%s found no node for %s: %s", who, obj, msg)
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
	}
	if s == "" {
		s = workloadWhat(p, who, obj, steps, status)
	}
	if s == "" {
		s = genericWhat(p, who, obj, steps, status)
	}
	return s
}

// inControllerManager reports whether a controller runs in
// kube-controller-manager (the scheduler, the kubelets and a GitOps
// controller are processes of their own).
func inControllerManager(name string) bool {
	switch name {
	case controller.DeploymentController, controller.ReplicaSetController, controller.JobController, controller.NodeLifecycleController,
		controller.GarbageCollectorController:
		return true
	case controller.DaemonSetController, controller.StatefulSetController, controller.CronJobController, controller.VolumeController:
		return true
	}
	return false
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

// splitActions separates the steps a pass took from its status writes
// (which report what is true) and from writes the API server refused
// (the pass's error says those).
func splitActions(actions []string) (steps, status []string) {
	for _, a := range actions {
		switch {
		case strings.Contains(a, " → refused: "):
		case strings.HasPrefix(a, "update status"), strings.HasPrefix(a, "report status"):
			status = append(status, a)
		default:
			steps = append(steps, a)
		}
	}
	return steps, status
}

// statusWords reads status writes as what they reported: "replicas 5,
// ready 0, available 0".
func statusWords(status []string) string {
	words := make([]string, len(status))
	for i, a := range status {
		a = strings.TrimPrefix(strings.TrimPrefix(a, "update status"), "report status")
		a = strings.TrimSpace(a)
		words[i] = strings.TrimSuffix(strings.TrimPrefix(a, "("), ")")
	}
	return strings.Join(words, "; ")
}

// pastTense turns the verb an action starts with into the past.
var pastTense = []struct{ verb, past string }{
	{"back off ", "backed off "},
	{"retry pull ", "retried pulling "},
	{"pull ", "started pulling "},
	{"create ", "created "},
	{"delete ", "deleted "},
	{"bind ", "bound "},
	{"start ", "started "},
	{"stop ", "stopped "},
	{"remove ", "removed "},
	{"post ", "posted "},
	{"set ", "set "},
	{"mark ", "marked "},
	{"taint ", "tainted "},
	{"evict ", "evicted "},
	{"scale ", "scaled "},
	{"annotate ", "annotated "},
	{"apply ", "applied "},
	{"kill ", "killed "},
	{"label ", "labeled "},
	{"update ", "updated "},
}

func past(a string) string {
	switch {
	case strings.HasPrefix(a, "pull ") && strings.Contains(a, " failed: "):
		img, rest, _ := strings.Cut(strings.TrimPrefix(a, "pull "), " failed: ")
		return fmt.Sprintf("failed to pull %s (%s)", img, rest)
	case strings.HasPrefix(a, "container ") && strings.Contains(a, " exited with code "):
		name, code, _ := strings.Cut(strings.TrimPrefix(a, "container "), " exited with code ")
		return fmt.Sprintf("saw container %s exit with code %s", name, code)
	case strings.HasPrefix(a, "readiness probe of ") && strings.HasSuffix(a, " passed"):
		return "saw the " + strings.TrimSuffix(a, " passed") + " pass"
	case strings.HasPrefix(a, "outside the cluster: "):
		return "recorded what the pod did " + a
	}
	for _, v := range pastTense {
		if rest, ok := strings.CutPrefix(a, v.verb); ok {
			return v.past + rest
		}
	}
	return a
}

// done lists actions in the past tense, alike actions on pods counted
// ("created 3 pods"): "a", "a and b", "a, b and c".
func done(actions []string) string { return listWords(doneParts(actions)) }

// doneParts are the actions in the past tense, alike actions on pods
// counted, one part each.
func doneParts(actions []string) []string {
	type group struct {
		key, first, verb, suffix string
		n                        int
	}
	var groups []*group
	for _, a := range actions {
		g := &group{key: a, first: a, n: 1}
		if i := strings.Index(a, " pod "); i >= 0 {
			_, suffix, _ := strings.Cut(a[i+len(" pod "):], " ")
			if suffix != "" {
				suffix = " " + suffix
			}
			g.verb, g.suffix, g.key = a[:i], suffix, a[:i]+"\x00"+suffix
		}
		if n := len(groups); n > 0 && groups[n-1].key == g.key && g.verb != "" {
			groups[n-1].n++
			continue
		}
		groups = append(groups, g)
	}
	parts := make([]string, len(groups))
	for i, g := range groups {
		if g.n == 1 {
			parts[i] = past(g.first)
		} else {
			parts[i] = past(fmt.Sprintf("%s %d pods%s", g.verb, g.n, g.suffix))
		}
	}
	return parts
}

// listWords joins "a", "a and b", "a, b and c".
func listWords(parts []string) string {
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// nothingToDo ends an in-sync sentence, with the status the pass reported.
func nothingToDo(status []string) string {
	if len(status) == 0 {
		return "nothing to do."
	}
	return fmt.Sprintf("nothing to do but report its status (%s).", statusWords(status))
}

// noStep is the sentence of a pass that took no step although its
// difference was not none: the difference says what holds it.
func noStep(who, obj, difference string, status []string) string {
	if len(status) == 0 {
		return fmt.Sprintf("%s took no step on %s (%s).", who, obj, difference)
	}
	return fmt.Sprintf("%s took no step on %s (%s) and only reported its status (%s).", who, obj, difference, statusWords(status))
}

// genericWhat is the sentence for a controller without words of its own.
func genericWhat(p sim.Pass, who, obj string, steps, status []string) string {
	seen := ""
	if p.Observed != "" && p.Observed != "-" {
		seen = " (" + p.Observed + ")"
	}
	switch {
	case len(steps) > 0:
		return fmt.Sprintf("%s looked at %s%s and %s.", who, obj, seen, done(steps))
	case p.Difference != "" && p.Difference != "none":
		return noStep(who, obj, p.Difference, status)
	}
	return fmt.Sprintf("%s found %s in sync: %s", who, obj, nothingToDo(status))
}

// replicaSetWhat: "replicaset-controller counted 4 of the 5 pods
// web-6d667cb46b wants and created 1."
func replicaSetWhat(p sim.Pass, who string, steps, status []string) string {
	name := p.Object.Name
	if p.Desired == "ReplicaSet deleted" {
		return fmt.Sprintf("%s found replicaset %s deleted: nothing to do.", who, name)
	}
	want, ok := intBetween(p.Desired, "spec.replicas = ", "")
	if !ok {
		return ""
	}
	have, ok := intBetween(p.Observed, "", " active pods")
	if !ok {
		return ""
	}
	var counted string
	switch {
	case have == want:
		counted = fmt.Sprintf("counted the %d %s %s wants", want, plural(want, "pod", "pods"), name)
	case have < want:
		counted = fmt.Sprintf("counted %d of the %d %s %s wants", have, want, plural(want, "pod", "pods"), name)
	default:
		counted = fmt.Sprintf("counted %d pods where %s wants %d", have, name, want)
	}
	created, deleted := countPrefix(steps, "create pod "), countPrefix(steps, "delete pod ")
	switch {
	case created > 0 && deleted == 0:
		return fmt.Sprintf("%s %s and created %d.", who, counted, created)
	case deleted > 0 && created == 0:
		return fmt.Sprintf("%s %s and deleted %d.", who, counted, deleted)
	case len(steps) > 0:
		return fmt.Sprintf("%s %s and %s.", who, counted, done(steps))
	}
	if _, waiting, ok := strings.Cut(p.Difference, " ("); ok {
		return fmt.Sprintf("%s %s and waited: its cache does not show its own last writes yet (%s.", who, counted, waiting)
	}
	return fmt.Sprintf("%s %s: %s", who, counted, nothingToDo(status))
}

func countPrefix(actions []string, prefix string) int {
	n := 0
	for _, a := range actions {
		if strings.HasPrefix(a, prefix) {
			n++
		}
	}
	return n
}

// edgeWhat: the edge-triggered twin acts on the event, not on a count.
func edgeWhat(p sim.Pass, who string, steps []string) string {
	ev := strings.TrimPrefix(p.Desired, "event: ")
	if len(steps) == 0 {
		return fmt.Sprintf("%s, edge-triggered, read the event (%s) and did nothing: it does not count pods.", who, ev)
	}
	return fmt.Sprintf("%s, edge-triggered, acted on the event alone (%s) without counting pods, and %s.", who, ev, done(steps))
}

// deploymentWhat: "deployment-controller found deployment web in sync:
// nothing to do."
func deploymentWhat(p sim.Pass, who, obj string, steps, status []string) string {
	switch {
	case p.Desired == "Deployment deleted":
		return fmt.Sprintf("%s found %s deleted: nothing to do.", who, obj)
	case strings.HasPrefix(p.Difference, "no ReplicaSet for this template") && len(steps) > 0:
		return fmt.Sprintf("%s found no ReplicaSet for the template of %s and %s.", who, obj, done(steps))
	case len(steps) > 0:
		return fmt.Sprintf("%s moved %s towards %s: %s, so it %s.", who, obj, p.Desired, p.Difference, done(steps))
	case p.Difference != "" && p.Difference != "none":
		return noStep(who, obj, p.Difference, status)
	}
	return fmt.Sprintf("%s found %s in sync: %s", who, obj, nothingToDo(status))
}

// schedulerWhat: "default-scheduler bound pod web-6d667cb46b-x7k2p to
// worker-2."
func schedulerWhat(p sim.Pass, who, obj string, steps []string) string {
	for _, a := range steps {
		if rest, ok := strings.CutPrefix(a, "bind "); ok {
			if i := strings.LastIndex(rest, " to "); i >= 0 {
				return fmt.Sprintf("%s bound pod %s to %s.", who, rest[:i], rest[i+len(" to "):])
			}
		}
	}
	if len(steps) == 0 && p.Observed == "pod gone or already bound" {
		return fmt.Sprintf("%s found %s already bound, or gone: nothing to do.", who, obj)
	}
	return ""
}

// nodeWhat: the node lifecycle controller and a node's heartbeat.
func nodeWhat(p sim.Pass, who string, steps []string) string {
	node := p.Object.Name
	switch {
	case strings.HasPrefix(p.Difference, "heartbeat overdue") && len(steps) > 0:
		ago, _, _ := strings.Cut(strings.TrimPrefix(p.Observed, "last heartbeat "), " ago")
		return fmt.Sprintf("%s heard nothing from node %s for %s, longer than the %s it allows, and %s.",
			who, node, ago, strings.TrimPrefix(p.Desired, "heartbeat within "), done(steps))
	case strings.HasPrefix(p.Difference, "evict pods") && len(steps) > 0:
		return fmt.Sprintf("%s %s from node %s: their toleration of its unreachable taint ran out.", who, done(steps), node)
	case strings.HasPrefix(p.Difference, "evict pods"):
		return fmt.Sprintf("%s looked at node %s (%s): no pod is due for eviction yet.", who, node, p.Observed)
	case strings.HasPrefix(p.Difference, "node is back") && len(steps) > 0:
		return fmt.Sprintf("%s saw node %s Ready again and %s.", who, node, done(steps))
	}
	return ""
}

// gitopsWhat: drift from git, reverted.
func gitopsWhat(p sim.Pass, who, obj string, steps []string) string {
	rev := ""
	if i := strings.LastIndex(p.Desired, "(git revision "); i >= 0 {
		rev = strings.TrimSuffix(p.Desired[i+1:], ")")
	}
	switch {
	case strings.HasPrefix(p.Observed, "live object differs: ") && len(steps) > 0:
		return fmt.Sprintf("%s compared %s with %s, found %s, and %s.", who, obj, rev, strings.TrimPrefix(p.Observed, "live object differs: "), done(steps))
	case p.Observed == "missing from the cluster" && len(steps) > 0:
		return fmt.Sprintf("%s found %s missing from the cluster and %s.", who, obj, done(steps))
	case p.Observed == "live object matches git" && rev != "":
		return fmt.Sprintf("%s found %s as committed in %s: nothing to do.", who, obj, rev)
	case p.Observed == "no longer in git":
		return fmt.Sprintf("%s found %s no longer in git: nothing to do.", who, obj)
	}
	return ""
}

// jobWhat: a Job's pods counted, and started.
func jobWhat(p sim.Pass, who, obj string, steps, status []string) string {
	if p.Desired == "Job deleted" {
		return fmt.Sprintf("%s found %s deleted: nothing to do.", who, obj)
	}
	counted := fmt.Sprintf("%s counted the pods of %s (%s; it wants %s)", who, obj, p.Observed, p.Desired)
	if len(steps) > 0 {
		return fmt.Sprintf("%s and %s.", counted, done(steps))
	}
	return fmt.Sprintf("%s: %s", counted, nothingToDo(status))
}

// kubeletWhat: a pod's containers on the kubelet's node.
func kubeletWhat(p sim.Pass, who, obj string, steps, status []string) string {
	if p.Object.Kind != "Pod" {
		return ""
	}
	switch {
	case p.Desired == "pod gone from this node":
		return fmt.Sprintf("%s found %s gone from its node: nothing to run.", who, obj)
	case strings.HasPrefix(p.Desired, "pod finished"):
		return fmt.Sprintf("%s found %s finished (%s): nothing to run.", who, obj, p.Observed)
	case len(steps) == 0 && len(status) == 0:
		return fmt.Sprintf("%s found %s as it should be (%s): nothing to do.", who, obj, p.Observed)
	case strings.HasPrefix(p.Desired, "pod deleted"):
		return fmt.Sprintf("%s found %s deleted and %s.", who, obj, done(steps))
	}
	acts := doneParts(steps)
	for _, st := range status {
		acts = append(acts, "reported it "+strings.TrimPrefix(st, "report status "))
	}
	return fmt.Sprintf("%s looked at %s (%s) and %s.", who, obj, p.Observed, listWords(acts))
}
