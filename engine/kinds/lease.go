package kinds

import (
	"reconcile/engine/api"
	"reconcile/engine/validation"
)

// Leases are written by the control plane itself: not validated.
var _ = Define(Def[*api.Lease]{
	Kind:         "Lease",
	NoGeneration: true,
	Validate:     func(*api.Lease) validation.ErrorList { return nil },
	Columns: []TypedColumn[*api.Lease]{Name[*api.Lease](),
		{Name: "HOLDER", Cell: func(l *api.Lease, _ api.Time) string { return l.Spec.HolderIdentity }},
		Age[*api.Lease](),
	},
})
