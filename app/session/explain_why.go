package session

import (
	"fmt"
	"time"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/queue"
	"reconcile/engine/sim"
)

// why says why a pass ran, from its trigger.
func why(p sim.Pass) string {
	t := p.Trigger
	var s string
	switch t.Cause {
	case queue.Listed:
		s = "Its first look at the cluster: every controller lists what it watches when it starts."
	case queue.Restarted:
		s = "It ran because it restarted after a crash: it lists everything it watches again, so nothing it missed is lost."
	case queue.NodeStarted:
		s = "It ran because its node came back: the kubelet started and listed the pods bound to its node."
	case queue.Started:
		s = "It ran because it was started: a controller lists what it watches when it starts."
	case queue.Watch:
		s = fmt.Sprintf("It ran because %s: the watch told it.", eventWords(t))
	case queue.Requeue:
		s = requeueWhy(p)
	case queue.Timer:
		s = fmt.Sprintf("It ran on a timer: its periodic check (%s) queued the key, with no watch event.", t.Reason)
	case queue.Relist:
		s = fmt.Sprintf("It ran because its watch was listed again and %s was out of date in the cache: a relist repairs what the watch missed.", t.Object)
	case queue.Sync:
		s = "It ran because a sync was asked for: the controller looks at everything it knows, now."
	default:
		first := t
		first.More = 0
		s = fmt.Sprintf("It ran because of %s.", first)
	}
	if t.More > 0 {
		s = fmt.Sprintf("%s; the work queue folded %d more %s for the key into this pass.", s[:len(s)-1], t.More, plural(t.More, "event", "events"))
	}
	return s
}

// eventWords reads a watch event as "pod web-x was deleted".
func eventWords(t queue.Trigger) string {
	kind, name := api.LowerKind(t.Object.Kind), t.Object.Name
	switch t.Event {
	case "ADDED":
		return fmt.Sprintf("%s %s was created", kind, name)
	case "MODIFIED":
		return fmt.Sprintf("%s %s changed", kind, name)
	case "DELETED":
		return fmt.Sprintf("%s %s was deleted", kind, name)
	}
	return fmt.Sprintf("of %s %s (%s)", kind, name, t.Event)
}

// requeueFor words the reasons the built-in controllers give a requeue as
// what the controller looks again for.
var requeueFor = map[string]string{
	controller.RequeueProgressDeadline: "for the progress deadline",
	controller.RequeueContainerTimer:   "for a container's next step (a pull, a start, a back-off, a probe)",
	controller.RequeueMinReady:         "for minReadySeconds to pass",
	controller.RequeueToleration:       "for the moment the pods' toleration of the unreachable taint runs out",
	controller.RequeueEviction:         "for the next eviction",
}

// requeueWhy says why a requeued pass ran; it runs when the requeue comes
// due, so a CronJob's next scheduled time is the pass's.
func requeueWhy(p sim.Pass) string {
	reason := p.Trigger.Reason
	later := api.FormatDuration(p.Trigger.After) + " later"
	switch {
	case reason == controller.RequeueRetry:
		return fmt.Sprintf("It ran because its last pass on this key failed: the work queue retried it %s, with a back-off that grows with each failure.", later)
	case reason == controller.RequeueUnschedulable:
		return fmt.Sprintf("It ran because the pod did not fit anywhere: %s.", reason)
	case p.Controller == controller.CronJobController && reason == controller.RequeueNextSchedule(p.At):
		return fmt.Sprintf("It ran because it asked to look again %s, when its schedule next fires (%s).", later, p.At.Wall().Format(time.RFC3339))
	case requeueFor[reason] != "":
		return fmt.Sprintf("It ran because it asked to look again %s, %s.", later, requeueFor[reason])
	}
	return fmt.Sprintf("It ran because it asked to look again %s: %s.", later, reason)
}

// endsWait says what the pass that ends a quiet stretch was waiting for.
func endsWait(reg []controller.Spec, p sim.Pass) string {
	who := plainName(reg, p)
	t := p.Trigger
	switch {
	case p.Controller == controller.NodeLifecycleController && heartbeatOverdue(p):
		return who + "'s grace period ends the wait."
	case t.Cause == queue.Requeue:
		return fmt.Sprintf("%s's requeue ends the wait: %s.", who, t.Reason)
	case t.Cause == queue.Timer:
		return who + "'s periodic check ends the wait."
	case t.Cause == queue.Watch:
		return fmt.Sprintf("A watch event ends the wait: %s.", eventWords(t))
	case t.Cause == queue.Restarted:
		return who + " restarting after its crash ends the wait."
	case t.Cause == queue.Listed, t.Cause == queue.Started, t.Cause == queue.NodeStarted:
		return who + " starting ends the wait."
	case t.Cause == queue.Sync:
		return "A sync someone asked for ends the wait."
	}
	return fmt.Sprintf("%s ends the wait (%s).", who, t)
}
