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
})
