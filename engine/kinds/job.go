package kinds

import (
	"reconcile/engine/api"
	"reconcile/engine/validation"
)

// A Job's status is written with its spec (no status subresource is
// simulated), and its generation is not bumped.
var _ = Define(Def[*api.Job]{
	Kind:           "Job",
	Default:        validation.DefaultJob,
	Validate:       validation.ValidateJob,
	ValidateUpdate: validation.ValidateJobUpdate,
})
