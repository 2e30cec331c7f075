package kinds

import (
	"reconcile/engine/api"
	"reconcile/engine/validation"
)

var _ = Define(Def[*api.Service]{
	Kind:           "Service",
	NoGeneration:   true,
	Default:        validation.DefaultService,
	Validate:       validation.ValidateService,
	ValidateUpdate: validation.ValidateServiceUpdate,
})
