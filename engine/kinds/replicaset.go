package kinds

import (
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
	Describe:    withEvents(describeReplicaSet),
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
