package queue

import (
	"fmt"

	"reconcile/engine/api"
)

// Trigger is why a key was queued, as a fact: what kind of cause, the
// object of a watch event, a requeue's reason and delay. String gives it
// in the trace's words ("watch: pod/web-x DELETED").
type Trigger struct {
	Cause Cause
	// Object is the object of a watch event (Watch) or of a re-listed
	// one (Relist).
	Object api.Ref
	// Event is a watch event's type: ADDED, MODIFIED or DELETED.
	Event string
	// Reason is a requeue's reason, as the controller gave it (Requeue),
	// a periodic check (Timer: "node-monitor-period 5s"), or what a
	// probe worker saw (Probe).
	Reason string
	// After is the delay a requeue asked for.
	After api.Duration
	// More counts the events the work queue folded into the pass besides
	// the first.
	More int
}

// Cause is what kind of thing queued a key.
type Cause uint8

// Causes.
const (
	_ Cause = iota
	// Listed: the controller's first list, when the run starts.
	Listed
	// Started: the controller was started (a start fault).
	Started
	// NodeStarted: a kubelet whose node came back.
	NodeStarted
	// Restarted: the controller restarted after a crash.
	Restarted
	// Watch: a watch event.
	Watch
	// Relist: a re-list found the object out of date in the cache.
	Relist
	// Requeue: the controller asked to look again (Reason, After).
	Requeue
	// Timer: the controller's periodic check (Reason).
	Timer
	// Sync: a sync someone asked for.
	Sync
	// Probe: a kubelet's probe worker saw a probe's result change (Reason).
	Probe
)

// WatchTrigger is the trigger of a watch event about ref.
func WatchTrigger(ref api.Ref, event string) Trigger {
	return Trigger{Cause: Watch, Object: ref, Event: event}
}

// RequeueTrigger is the trigger of a requeue.
func RequeueTrigger(reason string, after api.Duration) Trigger {
	return Trigger{Cause: Requeue, Reason: reason, After: after}
}

// RequeueWords is a requeue's reason and delay in words: "progress
// deadline check after 10m1s".
func RequeueWords(reason string, after api.Duration) string {
	return reason + " after " + api.FormatDuration(after)
}

// String gives the trigger in the trace's words.
func (t Trigger) String() string {
	var s string
	switch t.Cause {
	case Listed:
		s = "initial list"
	case Started:
		s = "started: initial list"
	case NodeStarted:
		s = "kubelet started: initial list"
	case Restarted:
		s = "restarted after crash: initial list"
	case Watch:
		s = "watch: " + t.Object.String() + " " + t.Event
	case Relist:
		s = "relist: " + t.Object.String() + " was out of date in the cache"
	case Requeue:
		s = "requeue: " + RequeueWords(t.Reason, t.After)
	case Timer:
		s = "timer: " + t.Reason
	case Sync:
		s = "sync requested"
	case Probe:
		s = "probe worker: " + t.Reason
	}
	if t.More > 0 {
		s = fmt.Sprintf("%s (+%d more events)", s, t.More)
	}
	return s
}

// MarshalText writes the trigger in words, as the trace keeps it.
func (t Trigger) MarshalText() ([]byte, error) { return []byte(t.String()), nil }
