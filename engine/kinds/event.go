package kinds

import (
	"reconcile/engine/api"
	"reconcile/engine/validation"
)

// Events are written by the control plane itself: not validated.
var _ = Define(Def[*api.Event]{
	Kind:         "Event",
	NoGeneration: true,
	Validate:     func(*api.Event) validation.ErrorList { return nil },
})
