package kinds

import (
	"reconcile/engine/api"
	"reconcile/engine/validation"
)

var _ = Define(Def[*api.ControllerRevision]{
	Kind:           "ControllerRevision",
	NoGeneration:   true,
	Validate:       validation.ValidateControllerRevision,
	ValidateUpdate: validation.ValidateControllerRevisionUpdate,
})
