package sim

import (
	"slices"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/kubectl"
	"reconcile/engine/pmap"
	"reconcile/engine/store"
)

// What Converged reads of the pods, kept so that a call after a pass costs
// what the pass changed and not a walk over every pod (10,000 of them at
// scale, after every pass the player or the CLI runs):
//
//   - the pods being deleted, kept up to date as writes are drained;
//   - the active pods per controller and the pods not running or not
//     ready, computed once per state of the pods (podWrites counts the
//     writes to pods, and the nodes added or deleted, so a pass that
//     writes no pod reuses them).
//
// A world's memo is its own field: worlds cloned from it keep the pointer,
// which stays right for them until they write a pod, and then they count
// past it.
type podIndex struct {
	// podWrites counts the pod writes drained.
	podWrites uint64
	// terminating holds the pods with a deletion timestamp, by
	// namespace/name, valued by name.
	terminating pmap.Map[string]
	// owned and podLines are the memos, for the podWrites they carry.
	owned    *ownedMemo
	podLines *linesMemo
}

type ownedMemo struct {
	at    uint64
	count map[string]int // active pods per controller UID; lookup only
}

type linesMemo struct {
	at    uint64
	lines []string
}

// indexPod notes a written object in the pod index.
func (w *world) indexPod(ev store.WatchEvent) {
	p, ok := ev.Object.(*api.Pod)
	if !ok {
		if _, node := ev.Object.(*api.Node); node && ev.Type != store.Modified {
			w.pods.podWrites++ // a node added or gone: its pods' lines change
		}
		return
	}
	w.pods.podWrites++
	key := p.Namespace + "/" + p.Name
	if ev.Type != store.Deleted && p.DeletionTimestamp != nil {
		w.pods.terminating.Set(key, p.Name)
	} else if _, ok := w.pods.terminating.Get(key); ok {
		w.pods.terminating.Delete(key)
	}
}

// terminatingPods returns how many pods are being deleted and, for one,
// its name.
func (w *world) terminatingPods() (int, string) {
	n := w.pods.terminating.Len()
	if n != 1 {
		return n, ""
	}
	_, name, _ := w.pods.terminating.First()
	return n, name
}

// ownedActive returns the active pods per controller UID.
func (w *world) ownedActive() map[string]int {
	if m := w.pods.owned; m != nil && m.at == w.pods.podWrites {
		return m.count
	}
	owned := map[string]int{}
	// Each, not List: a pass that writes a pod counts them again, and at
	// scale a list of 10,000 pods was the reading's largest allocation.
	for o := range w.store.Each("Pod") {
		p := o.(*api.Pod)
		if ref := p.ControllerOf(); ref != nil && controller.IsPodActive(p) {
			owned[ref.UID]++
		}
	}
	w.pods.owned = &ownedMemo{at: w.pods.podWrites, count: owned}
	return owned
}

// podsNotReady returns podsMoving's lines: pods bound to a node that is
// gone (the pod garbage collector's to delete), then pods not running, or
// running and not ready, counted by what kubectl get pods shows of them.
func (w *world) podsNotReady() []string {
	if m := w.pods.podLines; m != nil && m.at == w.pods.podWrites {
		return m.lines
	}
	var g groups
	var orphans, gone []string // pods bound to a node that is gone; those nodes
	for _, o := range w.store.List("Pod") {
		p := o.(*api.Pod)
		finished := p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed
		if !finished && p.Spec.NodeName != "" && w.store.Get("Node", "", p.Spec.NodeName) == nil {
			if !slices.Contains(gone, p.Spec.NodeName) {
				gone = append(gone, p.Spec.NodeName)
			}
			orphans = append(orphans, p.Name)
			continue
		}
		status := kubectl.PodStatus(p)
		switch {
		case finished:
		case p.Status.Phase != api.PodRunning:
			g.note(p.Name, 0, "is", status)
		case !controller.IsPodReady(p):
			g.note(p.Name, 0, "not ready", status)
		}
	}
	var m reasons
	switch {
	case len(orphans) == 1:
		m.add("pod %s is bound to node %s, which is gone", orphans[0], gone[0])
	case len(gone) == 1:
		m.add("%d pods are bound to node %s, which is gone", len(orphans), gone[0])
	case len(gone) > 1:
		m.add("%d pods are bound to %d nodes that are gone", len(orphans), len(gone))
	}
	for _, e := range g.list {
		how, status := e.words[0], e.words[1]
		switch {
		case how == "is" && e.n == 1:
			m.add("pod %s is %s", e.first, status)
		case how == "is":
			m.add("%d pods are %s", e.n, status)
		case e.n == 1:
			m.add("pod %s is not ready (%s)", e.first, status)
		default:
			m.add("%d pods are not ready (%s)", e.n, status)
		}
	}
	w.pods.podLines = &linesMemo{at: w.pods.podWrites, lines: m.lines}
	return m.lines
}
