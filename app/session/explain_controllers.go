package session

import (
	"fmt"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/sim"
)

// The sentences of the lesson controllers' passes: the ReplicaSet
// controller and its edge twin, the deployment controller, the scheduler,
// the node lifecycle controller, the GitOps controller, the Job controller
// and the kubelet.

// replicaSetWhat: "replicaset-controller counted 4 of the 5 pods
// web-5c6b78cfd9 wants and created 1."
func replicaSetWhat(p sim.Pass, who string, steps, status []controller.Action) string {
	name := p.Object.Name
	if p.Desired.Is == controller.Deleted {
		return fmt.Sprintf("%s found replicaset %s deleted: nothing to do.", who, name)
	}
	if p.Desired.Is != controller.Replicas || p.Observed.Is != controller.ActivePods {
		return ""
	}
	want, have := p.Desired.N, p.Observed.N
	var counted string
	switch {
	case have == want:
		counted = fmt.Sprintf("counted the %d %s %s wants", want, plural(want, "pod", "pods"), name)
	case have < want:
		counted = fmt.Sprintf("counted %d of the %d %s %s wants", have, want, plural(want, "pod", "pods"), name)
	default:
		counted = fmt.Sprintf("counted %d pods where %s wants %d", have, name, want)
	}
	created, deleted := countOnPods(steps, controller.Create), countOnPods(steps, controller.Delete)
	switch {
	case created > 0 && deleted == 0:
		return fmt.Sprintf("%s %s and created %d.", who, counted, created)
	case deleted > 0 && created == 0:
		return fmt.Sprintf("%s %s and deleted %d.", who, counted, deleted)
	case len(steps) > 0:
		return fmt.Sprintf("%s %s and %s.", who, counted, done(steps))
	}
	if p.Difference.Is == controller.WaitingOwnWrites {
		return fmt.Sprintf("%s %s and waited: its cache does not show its own last writes yet (%s.", who, counted, p.Difference.Name)
	}
	return fmt.Sprintf("%s %s: %s", who, counted, nothingToDo(status))
}

// countOnPods counts the steps of verb v on pods.
func countOnPods(actions []controller.Action, v controller.Verb) int {
	n := 0
	for _, a := range actions {
		if a.Verb == v && a.Noun == "pod" {
			n++
		}
	}
	return n
}

// edgeWhat: the edge-triggered twin acts on the event, not on a count.
func edgeWhat(p sim.Pass, who string, steps []controller.Action) string {
	ev := p.Desired.Words
	switch p.Desired.Is {
	case controller.EdgeCreated, controller.EdgeResized, controller.EdgeLost:
		ev = p.Desired.Name
	}
	if len(steps) == 0 {
		return fmt.Sprintf("%s, edge-triggered, read the event (%s) and did nothing: it does not count pods.", who, ev)
	}
	return fmt.Sprintf("%s, edge-triggered, acted on the event alone (%s) without counting pods, and %s.", who, ev, done(steps))
}

// deploymentWhat: "deployment-controller found deployment web in sync:
// nothing to do."
func deploymentWhat(p sim.Pass, who, obj string, steps, status []controller.Action) string {
	switch {
	case p.Desired.Is == controller.Deleted:
		return fmt.Sprintf("%s found %s deleted: nothing to do.", who, obj)
	case p.Difference.Is == controller.NoReplicaSetForTemplate && len(steps) > 0:
		return fmt.Sprintf("%s found no ReplicaSet for the template of %s and %s.", who, obj, done(steps))
	case len(steps) > 0:
		return fmt.Sprintf("%s moved %s towards %s: %s, so it %s.", who, obj, p.Desired, p.Difference, done(steps))
	case differs(p):
		return noStep(who, obj, p.Difference.Words, status)
	}
	return fmt.Sprintf("%s found %s in sync: %s", who, obj, nothingToDo(status))
}

// schedulerWhat: "default-scheduler bound pod web-5c6b78cfd9-x7k2p to
// worker-2."
func schedulerWhat(p sim.Pass, who, obj string, steps []controller.Action) string {
	for _, a := range steps {
		if a.Verb == controller.Bind && a.Node != "" {
			return fmt.Sprintf("%s bound pod %s to %s.", who, a.Name, a.Node)
		}
	}
	if len(steps) == 0 && p.Observed.Is == controller.GoneOrBound {
		return fmt.Sprintf("%s found %s already bound, or gone: nothing to do.", who, obj)
	}
	return ""
}

// nodeWhat: the node lifecycle controller and a node's heartbeat.
func nodeWhat(p sim.Pass, who string, steps []controller.Action) string {
	node := p.Object.Name
	switch {
	case p.Difference.Is == controller.HeartbeatOverdue && len(steps) > 0:
		return fmt.Sprintf("%s heard nothing from node %s for %s, longer than the %s it allows, and %s.",
			who, node, api.FormatDuration(p.Observed.D), api.FormatDuration(p.Desired.D), done(steps))
	case p.Difference.Is == controller.EvictPods && len(steps) > 0:
		return fmt.Sprintf("%s %s from node %s: their toleration of its unreachable taint ran out.", who, done(steps), node)
	case p.Difference.Is == controller.EvictPods:
		return fmt.Sprintf("%s looked at node %s (%s): no pod is due for eviction yet.", who, node, p.Observed)
	case p.Difference.Is == controller.NodeBack && len(steps) > 0:
		return fmt.Sprintf("%s saw node %s Ready again and %s.", who, node, done(steps))
	case p.Difference.Is == controller.CordonTaint && len(steps) > 0:
		return fmt.Sprintf("%s saw node %s %s (spec.unschedulable) and %s.", who, node, p.Difference.Name, done(steps))
	}
	return ""
}

// gitopsWhat: drift from git, reverted.
func gitopsWhat(p sim.Pass, who, obj string, steps []controller.Action) string {
	rev := ""
	if p.Desired.Is == controller.GitRevision {
		rev = p.Desired.Name
	}
	switch {
	case p.Observed.Is == controller.LiveDiffers && len(steps) > 0:
		return fmt.Sprintf("%s compared %s with %s, found %s, and %s.", who, obj, rev, p.Observed.Name, done(steps))
	case p.Observed.Is == controller.MissingFromCluster && len(steps) > 0:
		return fmt.Sprintf("%s found %s missing from the cluster and %s.", who, obj, done(steps))
	case p.Observed.Is == controller.MatchesGit && rev != "":
		return fmt.Sprintf("%s found %s as committed in %s: nothing to do.", who, obj, rev)
	case p.Observed.Is == controller.NotInGit:
		return fmt.Sprintf("%s found %s no longer in git: nothing to do.", who, obj)
	}
	return ""
}

// jobWhat: a Job's pods counted, and started.
func jobWhat(p sim.Pass, who, obj string, steps, status []controller.Action) string {
	if p.Desired.Is == controller.Deleted {
		return fmt.Sprintf("%s found %s deleted: nothing to do.", who, obj)
	}
	counted := fmt.Sprintf("%s counted the pods of %s (%s; it wants %s)", who, obj, p.Observed, p.Desired)
	if len(steps) > 0 {
		return fmt.Sprintf("%s and %s.", counted, done(steps))
	}
	return fmt.Sprintf("%s: %s", counted, nothingToDo(status))
}

// kubeletWhat: a pod's containers on the kubelet's node.
func kubeletWhat(p sim.Pass, who, obj string, steps, status []controller.Action) string {
	if p.Object.Kind != "Pod" {
		return ""
	}
	switch {
	case p.Desired.Is == controller.PodGone:
		return fmt.Sprintf("%s found %s gone from its node: nothing to run.", who, obj)
	case p.Desired.Is == controller.PodFinished:
		return fmt.Sprintf("%s found %s finished (%s): nothing to run.", who, obj, p.Observed)
	case len(steps) == 0 && len(status) == 0:
		return fmt.Sprintf("%s found %s as it should be (%s): nothing to do.", who, obj, p.Observed)
	case p.Desired.Is == controller.PodDeleted:
		return fmt.Sprintf("%s found %s deleted and %s.", who, obj, done(steps))
	}
	acts := doneParts(steps)
	for _, st := range status {
		acts = append(acts, "reported it "+st.Rest)
	}
	return fmt.Sprintf("%s looked at %s (%s) and %s.", who, obj, p.Observed, listWords(acts))
}

// heartbeatOverdue reports whether a node lifecycle pass found a node's
// heartbeat overdue.
func heartbeatOverdue(p sim.Pass) bool { return p.Difference.Is == controller.HeartbeatOverdue }
