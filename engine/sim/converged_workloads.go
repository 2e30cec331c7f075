package sim

import (
	"reconcile/engine/api"
)

// workloadsMoving: every DaemonSet whose eligible nodes do not all run an
// up-to-date, available pod, every StatefulSet without its replicas ready
// and of its latest revision, and every claim not yet bound.
func (w *world) workloadsMoving(m *reasons) {
	for _, o := range w.store.List("DaemonSet") {
		d := o.(*api.DaemonSet)
		s := d.Status
		switch {
		case s.ObservedGeneration < d.Generation:
			m.add("daemonset %s: its controller has not seen generation %d", d.Name, d.Generation)
		case s.NumberAvailable != s.DesiredNumberScheduled || s.CurrentNumberScheduled != s.DesiredNumberScheduled ||
			(s.UpdatedNumberScheduled != s.DesiredNumberScheduled && d.Spec.UpdateStrategy.Type != api.OnDeleteStrategy):
			m.add("daemonset %s: %d of %d updated pods are available", d.Name, s.NumberAvailable, s.DesiredNumberScheduled)
		}
	}
	for _, o := range w.store.List("StatefulSet") {
		st := o.(*api.StatefulSet)
		want := api.Deref(st.Spec.Replicas, 1)
		s := st.Status
		switch {
		case s.ObservedGeneration < st.Generation:
			m.add("statefulset %s: its controller has not seen generation %d", st.Name, st.Generation)
		case s.Replicas != want || s.ReadyReplicas != want:
			m.add("statefulset %s: %d of %d pods ready", st.Name, s.ReadyReplicas, want)
		case st.Spec.UpdateStrategy.Type == api.RollingUpdateStrategy && s.UpdatedReplicas < want-partitionOf(st):
			m.add("statefulset %s: rolling update to %s, %d of %d pods updated", st.Name, s.UpdateRevision, s.UpdatedReplicas, want)
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

// partitionOf is the ordinal below which a StatefulSet's rolling update
// keeps the old template.
func partitionOf(st *api.StatefulSet) int32 {
	if ru := st.Spec.UpdateStrategy.RollingUpdate; ru != nil && ru.Partition != nil {
		return min(*ru.Partition, api.Deref(st.Spec.Replicas, 1))
	}
	return 0
}
