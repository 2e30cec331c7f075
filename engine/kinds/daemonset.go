package kinds

import (
	"reflect"

	"reconcile/engine/api"
	"reconcile/engine/validation"
)

var _ = Define(Def[*api.DaemonSet]{
	Kind:            "DaemonSet",
	Default:         validation.DefaultDaemonSet,
	Validate:        validation.ValidateDaemonSet,
	ValidateUpdate:  validation.ValidateDaemonSetUpdate,
	BumpsGeneration: func(old, new *api.DaemonSet) bool { return !reflect.DeepEqual(new.Spec, old.Spec) },
	KeepStatus:      func(obj, old *api.DaemonSet) { obj.Status = old.Status },
	KeepSpec:        func(obj, old *api.DaemonSet) { obj.Spec = old.Spec },
})
