package kinds

import (
	"reconcile/engine/api"
	"reconcile/engine/validation"
)

var _ = Define(Def[*api.EndpointSlice]{
	Kind:     "EndpointSlice",
	Default:  validation.DefaultEndpointSlice,
	Validate: validation.ValidateEndpointSlice,
})
