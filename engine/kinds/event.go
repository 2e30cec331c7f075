package kinds

import (
	"reconcile/engine/api"
	"reconcile/engine/validation"
	"strings"
)

// Events are written by the control plane itself: not validated.
var _ = Define(Def[*api.Event]{
	Kind:         "Event",
	NoGeneration: true,
	Validate:     func(*api.Event) validation.ErrorList { return nil },
	Columns: []TypedColumn[*api.Event]{
		{Name: "LAST SEEN", Cell: func(e *api.Event, now api.Time) string { return AgeOf(now, e.LastTimestamp) }},
		{Name: "TYPE", Cell: func(e *api.Event, _ api.Time) string { return e.Type }},
		{Name: "REASON", Cell: func(e *api.Event, _ api.Time) string { return e.Reason }},
		{Name: "OBJECT", Cell: func(e *api.Event, _ api.Time) string {
			target := api.LowerKind(e.InvolvedObject.Kind)
			if e.InvolvedObject.Name != "" {
				target += "/" + e.InvolvedObject.Name
			}
			return target
		}},
		{Name: "MESSAGE", Cell: func(e *api.Event, _ api.Time) string { return strings.TrimSpace(e.Message) }},
	},
})
