package kinds

import (
	"reconcile/engine/api"
	"reconcile/engine/validation"
)

var _ = Define(Def[*api.Node]{
	Kind:           "Node",
	NoGeneration:   true,
	Validate:       validation.ValidateNode,
	ValidateUpdate: validation.ValidateNodeUpdate,
	KeepStatus:     func(obj, old *api.Node) { obj.Status = old.Status },
	KeepSpec:       func(obj, old *api.Node) { obj.Spec = old.Spec },
})
