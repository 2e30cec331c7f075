package kinds

import (
	"reconcile/engine/api"
	"reconcile/engine/validation"
	"strconv"
	"strings"
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
	Describe: withEvents(describeEndpointSlice),
})

func describeEndpointSlice(w *Describer, e *api.EndpointSlice) {
	w.Line(0, "Name:\t%s\n", e.Name)
	w.Line(0, "Namespace:\t%s\n", e.Namespace)
	labelsBlock(w, "Labels", e.Labels)
	annotationsBlock(w, "Annotations", e.Annotations)
	w.Line(0, "AddressType:\t%s\n", e.AddressType)
	if len(e.Ports) == 0 {
		w.Line(0, "Ports: <unset>\n") // one space, as kubectl writes it
	} else {
		w.Line(0, "Ports:\n")
		portsTable(w, 1, e.Ports)
	}
	if len(e.Endpoints) == 0 {
		w.Line(0, "Endpoints: <none>\n")
		return
	}
	w.Line(0, "Endpoints:\n")
	for _, ep := range e.Endpoints {
		w.Line(1, "- Addresses:\t%s\n", strings.Join(ep.Addresses, ","))
		w.Line(2, "Conditions:\n")
		w.Line(3, "Ready:\t%s\n", boolText(ep.Conditions.Ready))
		w.Line(2, "Hostname:\t<unset>\n")
		if ep.TargetRef != nil {
			w.Line(2, "TargetRef:\t%s/%s\n", ep.TargetRef.Kind, ep.TargetRef.Name)
		}
		w.Line(2, "NodeName:\t%s\n", orUnset(ep.NodeName))
		w.Line(2, "Zone:\t<unset>\n")
	}
}

func boolText(b *bool) string {
	if b == nil {
		return "<unset>"
	}
	return strconv.FormatBool(*b)
}
