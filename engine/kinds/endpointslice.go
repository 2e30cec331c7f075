package kinds

import (
	"reconcile/engine/api"
	"reconcile/engine/validation"
	"strconv"
)

var _ = Define(Def[*api.EndpointSlice]{
	Kind:     "EndpointSlice",
	Default:  validation.DefaultEndpointSlice,
	Validate: validation.ValidateEndpointSlice,
	Columns: []TypedColumn[*api.EndpointSlice]{Name[*api.EndpointSlice](),
		{Name: "ADDRESSTYPE", Cell: func(e *api.EndpointSlice, _ api.Time) string { return e.AddressType }},
		{Name: "PORTS", Cell: func(e *api.EndpointSlice, _ api.Time) string {
			var ports []string
			for _, p := range e.Ports {
				ports = append(ports, strconv.Itoa(int(p.Port)))
			}
			return ListWithMore(ports, "<unset>")
		}},
		{Name: "ENDPOINTS", Cell: func(e *api.EndpointSlice, _ api.Time) string {
			var addrs []string
			for _, ep := range e.Endpoints {
				addrs = append(addrs, ep.Addresses...)
			}
			return ListWithMore(addrs, "<unset>")
		}},
		Age[*api.EndpointSlice](),
	},
})
