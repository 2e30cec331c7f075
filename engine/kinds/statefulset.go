package kinds

import (
	"fmt"
	"reflect"

	"reconcile/engine/api"
	"reconcile/engine/validation"
)

var _ = Define(Def[*api.StatefulSet]{
	Kind:            "StatefulSet",
	Default:         validation.DefaultStatefulSet,
	Validate:        validation.ValidateStatefulSet,
	ValidateUpdate:  validation.ValidateStatefulSetUpdate,
	BumpsGeneration: func(old, new *api.StatefulSet) bool { return !reflect.DeepEqual(new.Spec, old.Spec) },
	KeepStatus:      func(obj, old *api.StatefulSet) { obj.Status = old.Status },
	KeepSpec:        func(obj, old *api.StatefulSet) { obj.Spec = old.Spec },
	Columns: append([]TypedColumn[*api.StatefulSet]{Name[*api.StatefulSet](),
		{Name: "READY", Cell: func(s *api.StatefulSet, _ api.Time) string {
			return fmt.Sprintf("%d/%d", s.Status.ReadyReplicas, api.Deref(s.Spec.Replicas, 1))
		}},
		Age[*api.StatefulSet](),
	}, Workload(func(s *api.StatefulSet) (*api.PodTemplateSpec, *api.LabelSelector) {
		return &s.Spec.Template, s.Spec.Selector
	}, false)...),
})
