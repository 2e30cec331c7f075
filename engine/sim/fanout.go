package sim

import (
	"crypto/sha256"
	"fmt"
	"slices"
	"strconv"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/queue"
	"reconcile/engine/store"
)

// drain takes what the store did since the last drain, in order: each
// object written goes to the watches of the controllers that watch its kind
// (and to the pass under way's list of changes), each event recorded into
// the trace's hash chain; both to the kubectl commands watching, if any
// (watchFeed). It runs after every call that writes — a pass,
// an input, an edge-triggered controller's status report — and before the
// world records anything of its own, so that the order is the order things
// happened.
func (w *world) drain() {
	changes := w.store.TakeChanges()
	if len(w.watches) > 0 {
		w.watchFeed = append(w.watchFeed, changes...)
	}
	for _, ch := range changes {
		if ch.Recorded != nil {
			w.eventRecorded(ch.Recorded)
			continue
		}
		w.writes++
		w.indexPod(ch.Watch)
		if w.changed != nil {
			noteChange(w.changed, ch.Watch)
		}
		w.notify(ch.Watch)
	}
	w.store.Recycle(changes)
}

// notify is the watch fan-out: each running controller watching the
// kind gets the event after WatchLatency, subject to its faults. A kubelet
// watches its own node and the pods bound to it.
//
// The deliveries due after WatchLatency are one item of the agenda, which
// hands ev to each process in the order they were sent (see deliver):
// nothing can come due between them, as they would be items scheduled one
// after the other for the same moment. A delayed delivery (a delay
// fault) is an item of its own.
func (w *world) notify(ev store.WatchEvent) {
	kind := ev.Object.GetTypeMeta().Kind
	if kind == "Event" {
		return
	}
	w.fan = w.fan[:0]
	defer w.sendFan(kind, ev)
	var informed uint64 // the shared informers given ev, by bit
	if p, ok := ev.Object.(*api.Pod); ok {
		w.deliverToKubelet(p.Spec.NodeName, ev)
		if old, ok := ev.Old.(*api.Pod); ok && old.Spec.NodeName != p.Spec.NodeName {
			w.deliverToKubelet(old.Spec.NodeName, ev)
		}
	}
	if n, ok := ev.Object.(*api.Node); ok {
		w.deliverToKubelet(n.Name, ev)
	}
	for i, c := range w.procs {
		if c.host != "" {
			if kind != "ConfigMap" && kind != "Secret" {
				break // the per-node processes come last
			}
			// Kubelets also read the ConfigMaps and Secrets of their pods.
			if (kind == "ConfigMap" || kind == "Secret") && slices.Contains(c.watches(), kind) {
				w.deliver(i, ev, nil)
			}
			continue
		}
		if slices.Contains(c.watches(), kind) {
			w.deliver(i, ev, &informed)
		}
	}
}

func (w *world) deliverToKubelet(node string, ev store.WatchEvent) {
	if node == "" {
		return
	}
	if i, ok := w.kubelets[node]; ok {
		w.deliver(i, ev, nil)
	}
}

// deliver puts a watch event on its way to process i: after WatchLatency
// and any delay fault; lost or doubled by a drop or duplicate fault. The
// first delivery of ev to a controller that shares an informer is the one
// that folds ev into it (informed records which have been given it).
func (w *world) deliver(i int, ev store.WatchEvent, informed *uint64) {
	c := w.procs[i]
	if !c.running {
		return
	}
	inform := 0
	if c.inf > 0 && *informed&(1<<(c.inf-1)) == 0 {
		*informed |= 1 << (c.inf - 1)
		inform = c.inf
	}
	if w.listing && c.rec != nil {
		// Before the first pass a level-triggered controller has not read
		// anything yet: the change is in the list its informer starts from,
		// with no watch latency and no watch fault. (An edge-triggered one
		// takes its list as handled, so it hears of the change by watch.)
		c = w.proc(i)
		if inform > 0 {
			w.informers[inform-1].cache.Apply(ev)
		} else if c.inf == 0 {
			c.cache.Apply(ev)
		}
		for _, k := range c.rec.Keys(w.cacheOf(c), ev) {
			w.enqueue(i, k, queue.Trigger{Cause: queue.Listed}, nil)
		}
		return
	}
	if c.drop > 0 || c.dup > 0 {
		c = w.proc(i)
	}
	if c.drop > 0 {
		c.drop--
		w.note(Note{Words: fmt.Sprintf("dropped %s %s on its way to %s", ev.Type, api.RefOf(ev.Object), c.name)})
		return
	}
	r := recipient{ctrl: int32(i), epoch: int32(c.epoch), inform: int32(inform)}
	w.send(c, ev, r)
	if c.dup > 0 {
		c.dup--
		w.note(Note{Words: fmt.Sprintf("duplicated %s %s on its way to %s", ev.Type, api.RefOf(ev.Object), c.name)})
		r.inform = 0
		w.send(c, ev, r)
	}
}

// itemPerDelivery, set by tests, makes every delivery an item of its own
// (as before the deliveries of a fan-out were gathered), to check that
// gathering them changes no run.
var itemPerDelivery bool

// send puts one delivery on its way: with the others of the fan-out under
// way (w.fan), or, delayed by a fault, as an item of its own.
func (w *world) send(c *process, ev store.WatchEvent, r recipient) {
	if c.delay == 0 && !itemPerDelivery {
		w.fan = append(w.fan, r)
		return
	}
	w.schedule(item{at: w.now + WatchLatency + c.delay, kind: itemDeliver, ev: ev, to: &roster{[]recipient{r}}})
}

// sendFan schedules the deliveries of ev gathered in w.fan, as one item.
func (w *world) sendFan(kind string, ev store.WatchEvent) {
	if len(w.fan) == 0 {
		return
	}
	w.schedule(item{at: w.now + WatchLatency, kind: itemDeliver, ev: ev, to: w.roster(kind)})
	w.fan = w.fan[:0]
}

// rosterKey names the recipients of a watch event: its kind and the
// process it reaches first (a pod's kubelet, for a pod).
type rosterKey struct {
	kind  string
	first int32
}

// roster returns the recipients gathered in w.fan as a slice shared with
// the watch events before of the same kind that reached the same
// processes, the same way: a change of a pod reaches its kubelet and the
// same dozen controllers as the change before it on that node, so the
// items of the agenda (and the checkpoints that hold them) share one list.
func (w *world) roster(kind string) *roster {
	k := rosterKey{kind: kind, first: w.fan[0].ctrl}
	if r, ok := w.rosters[k]; ok && slices.Equal(r.list, w.fan) {
		return r
	}
	r := &roster{slices.Clone(w.fan)}
	if w.rosters == nil {
		w.rosters = map[rosterKey]*roster{}
	}
	w.rosters[k] = r
	return r
}

// receive hands a watch event to the process r names, when a delivery
// comes due: the shared informer first folds it in (when r is the first
// process sharing it), then the process's handlers run, unless it has
// crashed or restarted since the event was sent. trigger is the event in
// words, made by the first process that needs them.
func (w *world) receive(r recipient, ev store.WatchEvent, trigger *queue.Trigger) {
	if r.inform > 0 {
		w.informers[r.inform-1].cache.Apply(ev) // once, for all who share it
	}
	i := int(r.ctrl)
	c := w.procs[i]
	if c.epoch != int(r.epoch) || !c.running {
		return
	}
	c = w.proc(i)
	if c.inf == 0 {
		c.cache.Apply(ev)
	}
	if c.rec != nil {
		keys := c.rec.Keys(w.cacheOf(c), ev)
		if len(keys) == 0 {
			return // most controllers that watch a kind care for few of its events
		}
		if trigger.Cause == 0 {
			*trigger = describeEvent(ev)
		}
		for _, k := range keys {
			w.enqueue(i, k, *trigger, nil)
		}
		return
	}
	if trigger.Cause == 0 {
		*trigger = describeEvent(ev)
	}
	w.enqueue(i, "", *trigger, &ev)
	if rep, ok := c.edge.(controller.StatusReporter); ok {
		ctx := controller.NewContext(c.name, w.now, c.cache, "", w.store, w, -1)
		rep.ReportStatus(ctx, ev)
		w.drain()
	}
}

func describeEvent(ev store.WatchEvent) queue.Trigger {
	return queue.WatchTrigger(api.RefOf(ev.Object), ev.Type)
}

// eventRecorded folds an event occurrence into the trace chain: events are
// part of the trace, and hashing them as they happen spares the digest a
// walk over tens of thousands of them.
//
// The link hashes the chain, then kind, name, reason, message, reporting
// component (the legacy recorder's source component), count and when
// last seen (decimal; a series' count and lastObservedTime for an event of
// the events.k8s.io recorder), apart by NULs: written into a buffer on the
// stack and hashed at once, as there is one per event recorded.
func (w *world) eventRecorded(e *api.Event) {
	b := make([]byte, 0, 512)
	b = append(b, w.chain[:]...)
	for _, s := range [...]string{e.InvolvedObject.Kind, e.InvolvedObject.Name, e.Reason, e.Message, e.ReportingController} {
		b = append(append(b, s...), 0)
	}
	b = strconv.AppendInt(b, int64(e.Repeats()), 10)
	b = append(b, 0)
	b = strconv.AppendInt(b, int64(e.LastSeen()), 10)
	w.chain = sha256.Sum256(b)
}
