package kinds

import (
	"fmt"

	"reconcile/engine/api"
)

var _ = Define(Def[*api.Endpoints]{
	Kind:         "Endpoints",
	NoGeneration: true,
	Columns: []TypedColumn[*api.Endpoints]{Name[*api.Endpoints](),
		{Name: "ENDPOINTS", Cell: func(e *api.Endpoints, _ api.Time) string { return endpointsText(e) }},
		Age[*api.Endpoints](),
	},
})

// endpointsText is the ENDPOINTS column of an Endpoints object: the ready
// addresses with their ports.
func endpointsText(e *api.Endpoints) string {
	if len(e.Subsets) == 0 {
		return "<none>"
	}
	var list []string
	for _, s := range e.Subsets {
		for _, p := range s.Ports {
			for _, ad := range s.Addresses {
				list = append(list, fmt.Sprintf("%s:%d", ad.IP, p.Port))
			}
		}
	}
	return ListWithMore(list, "")
}
