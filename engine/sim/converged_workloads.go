package sim

import (
	"reconcile/engine/api"
	"reconcile/engine/kinds"
)

// workloadsMoving: every object whose kind has a convergence check
// (kinds.Moving: DaemonSets, StatefulSets) and is not settled, and every
// claim not yet bound.
func (w *world) workloadsMoving(m *reasons) {
	for _, k := range kinds.All() {
		if !k.HasMoving() {
			continue
		}
		for _, o := range w.store.List(k.Kind) {
			if why := kinds.Moving(o); why != "" {
				m.add("%s", why)
			}
		}
	}
	var pending []string
	for _, o := range w.store.List("PersistentVolumeClaim") {
		if c := o.(*api.PersistentVolumeClaim); c.Status.Phase != api.ClaimBound {
			pending = append(pending, c.Name)
		}
	}
	m.count(pending, "claim %s is Pending", "%d claims are Pending")
}
