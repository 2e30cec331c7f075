package kinds

import (
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
})
