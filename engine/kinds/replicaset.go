package kinds

import (
	"fmt"
	"reflect"

	"reconcile/engine/api"
	"reconcile/engine/validation"
)

var _ = Define(Def[*api.ReplicaSet]{
	Kind:            "ReplicaSet",
	Default:         validation.DefaultReplicaSet,
	Validate:        validation.ValidateReplicaSet,
	ValidateUpdate:  validation.ValidateReplicaSetUpdate,
	BumpsGeneration: func(old, new *api.ReplicaSet) bool { return !reflect.DeepEqual(new.Spec, old.Spec) },
	KeepStatus:      func(obj, old *api.ReplicaSet) { obj.Status = old.Status },
	KeepSpec:        func(obj, old *api.ReplicaSet) { obj.Spec = old.Spec },
	Columns: append([]TypedColumn[*api.ReplicaSet]{Name[*api.ReplicaSet](),
		{Name: "DESIRED", Cell: func(r *api.ReplicaSet, _ api.Time) string { return itoa(api.Deref(r.Spec.Replicas, 1)) }},
		{Name: "CURRENT", Cell: func(r *api.ReplicaSet, _ api.Time) string { return itoa(r.Status.Replicas) }},
		{Name: "READY", Cell: func(r *api.ReplicaSet, _ api.Time) string { return itoa(r.Status.ReadyReplicas) }},
		Age[*api.ReplicaSet](),
	}, Workload(func(r *api.ReplicaSet) (*api.PodTemplateSpec, *api.LabelSelector) {
		return &r.Spec.Template, r.Spec.Selector
	}, true)...),
	Replicas:    func(r *api.ReplicaSet) **int32 { return &r.Spec.Replicas },
	PodTemplate: func(r *api.ReplicaSet) *api.PodTemplateSpec { return &r.Spec.Template },
	// Settled when it has its pods, has seen its latest spec, and has its
	// replicas ready and available.
	Moving: func(rs *api.ReplicaSet, p Progress) string {
		if rs.DeletionTimestamp != nil {
			return "" // going: the check of objects being deleted says so
		}
		want, have := api.Deref(rs.Spec.Replicas, 1), p.ActivePods(rs.UID)
		switch {
		case int32(have) != want:
			return fmt.Sprintf("replicaset %s has %d of %d pods", rs.Name, have, want)
		case rs.Status.ObservedGeneration < rs.Generation:
			return fmt.Sprintf("replicaset %s: its controller has not seen generation %d", rs.Name, rs.Generation)
		case rs.Status.Replicas != want || rs.Status.ReadyReplicas != want || rs.Status.AvailableReplicas != want:
			return fmt.Sprintf("replicaset %s: %d of %d replicas ready, %d available", rs.Name, rs.Status.ReadyReplicas, want, rs.Status.AvailableReplicas)
		}
		return ""
	},
	Describe: withEvents(describeReplicaSet),
})

func describeReplicaSet(w *Describer, rs *api.ReplicaSet) {
	w.Line(0, "Name:\t%s\n", rs.Name)
	w.Line(0, "Namespace:\t%s\n", rs.Namespace)
	w.Line(0, "Selector:\t%s\n", FormatSelector(rs.Spec.Selector))
	labelsBlock(w, "Labels", rs.Labels)
	annotationsBlock(w, "Annotations", rs.Annotations)
	if ref := rs.ControllerOf(); ref != nil {
		w.Line(0, "Controlled By:\t%s/%s\n", ref.Kind, ref.Name)
	}
	w.Line(0, "Replicas:\t%d current / %d desired\n", rs.Status.Replicas, api.Deref(rs.Spec.Replicas, 1))
	r, wt, s, f := w.podCounts(rs.UID)
	w.Line(0, "Pods Status:\t%d Running / %d Waiting / %d Succeeded / %d Failed\n", r, wt, s, f)
	DescribePodTemplate(w, &rs.Spec.Template)
	if len(rs.Status.Conditions) > 0 {
		w.Line(0, "Conditions:\n  Type\tStatus\tReason\n")
		w.Line(1, "----\t------\t------\n")
		for _, c := range rs.Status.Conditions {
			w.Line(1, "%v \t%v\t%v\n", c.Type, c.Status, c.Reason)
		}
	}
}
