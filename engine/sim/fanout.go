package sim

import (
	"crypto/sha256"
	"fmt"
	"slices"

	"reconcile/engine/api"
	"reconcile/engine/store"
)

// drain takes what the store did since the last drain, in order: each
// object written goes to the watches of the controllers that watch its kind
// (and to the pass under way's list of changes), each event recorded into
// the trace's hash chain. It runs after every call that writes — a pass,
// an input, an edge-triggered controller's status report — and before the
// world records anything of its own, so that the order is the order things
// happened.
func (w *world) drain() {
	for _, ch := range w.store.TakeChanges() {
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
}

// notify is the watch fan-out: each running controller watching the
// kind gets the event after WatchLatency, subject to its faults. A kubelet
// watches its own node and the pods bound to it.
func (w *world) notify(ev store.WatchEvent) {
	kind := ev.Object.GetTypeMeta().Kind
	if kind == "Event" {
		return
	}
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
			w.enqueue(i, k, "initial list", nil)
		}
		return
	}
	if c.drop > 0 || c.dup > 0 {
		c = w.proc(i)
	}
	if c.drop > 0 {
		c.drop--
		w.note(fmt.Sprintf("t=%s dropped %s %s on its way to %s", w.now, ev.Type, api.RefOf(ev.Object), c.name))
		return
	}
	at := w.now + WatchLatency + c.delay
	w.schedule(item{at: at, kind: itemDeliver, ctrl: i, epoch: c.epoch, ev: ev, inform: inform})
	if c.dup > 0 {
		c.dup--
		w.note(fmt.Sprintf("t=%s duplicated %s %s on its way to %s", w.now, ev.Type, api.RefOf(ev.Object), c.name))
		w.schedule(item{at: at, kind: itemDeliver, ctrl: i, epoch: c.epoch, ev: ev})
	}
}

func describeEvent(ev store.WatchEvent) string {
	return fmt.Sprintf("watch: %s %s", api.RefOf(ev.Object), ev.Type)
}

// eventRecorded folds an event occurrence into the trace chain: events are
// part of the trace, and hashing them as they happen spares the digest a
// walk over tens of thousands of them.
func (w *world) eventRecorded(e *api.Event) {
	h := sha256.New()
	h.Write(w.chain[:])
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00%s\x00%d\x00%d", e.InvolvedObject.Kind, e.InvolvedObject.Name, e.Reason, e.Message, e.Source.Component, e.Count, e.LastTimestamp)
	copy(w.chain[:], h.Sum(nil))
}
