package kinds

import (
	"reconcile/engine/api"
	"reconcile/engine/validation"
)

// A pod's generation is set at create and never bumped: its spec barely
// changes (validation says what may).
var _ = Define(Def[*api.Pod]{
	Kind:           "Pod",
	Default:        validation.DefaultPod,
	Validate:       validation.ValidatePod,
	ValidateUpdate: validation.ValidatePodUpdate,
	KeepStatus:     func(obj, old *api.Pod) { obj.Status = old.Status },
	KeepSpec:       func(obj, old *api.Pod) { obj.Spec = old.Spec },
})
