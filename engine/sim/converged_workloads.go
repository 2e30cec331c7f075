package sim

import (
	"reconcile/engine/api"
	"reconcile/engine/kinds"
)

// workloadsMoving: every object whose kind has a convergence check
// (kinds.Moving: Deployments in kubectl rollout status's words,
// ReplicaSets, DaemonSets, StatefulSets) and is not settled, and every
// claim not yet bound.
func (w *world) workloadsMoving(m *reasons) {
	for _, k := range kinds.All() {
		if !k.HasMoving() {
			continue
		}
		for _, o := range w.store.List(k.Kind) {
			if why := kinds.Moving(o, w); why != "" {
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

// ActivePods counts the active pods the object with uid controls, for the
// kinds' convergence checks (kinds.Progress).
func (w *world) ActivePods(uid string) int { return w.ownedActive()[uid] }
