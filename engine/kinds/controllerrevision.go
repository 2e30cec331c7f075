package kinds

import (
	"reconcile/engine/api"
	"reconcile/engine/validation"
	"strings"
)

var _ = Define(Def[*api.ControllerRevision]{
	Kind:           "ControllerRevision",
	NoGeneration:   true,
	Validate:       validation.ValidateControllerRevision,
	ValidateUpdate: validation.ValidateControllerRevisionUpdate,
	Columns: []TypedColumn[*api.ControllerRevision]{Name[*api.ControllerRevision](),
		{Name: "CONTROLLER", Cell: func(r *api.ControllerRevision, _ api.Time) string {
			ref := r.ControllerOf()
			if ref == nil {
				return "<none>"
			}
			owner := strings.ToLower(ref.Kind)
			if group, _, ok := strings.Cut(ref.APIVersion, "/"); ok {
				owner += "." + group
			}
			return owner + "/" + ref.Name
		}},
		{Name: "REVISION", Cell: func(r *api.ControllerRevision, _ api.Time) string { return itoa(r.Revision) }},
		Age[*api.ControllerRevision](),
	},
})
