package kinds

import (
	"fmt"
	"strings"

	"reconcile/engine/api"
)

var _ = Define(Def[*api.Endpoints]{
	Kind:         "Endpoints",
	NoGeneration: true,
	Columns: []TypedColumn[*api.Endpoints]{Name[*api.Endpoints](),
		{Name: "ENDPOINTS", Cell: func(e *api.Endpoints, _ api.Time) string { return endpointsText(e) }},
		Age[*api.Endpoints](),
	},
	Describe: withEvents(describeEndpoints),
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

func describeEndpoints(w *Describer, e *api.Endpoints) {
	w.Line(0, "Name:\t%s\n", e.Name)
	w.Line(0, "Namespace:\t%s\n", e.Namespace)
	labelsBlock(w, "Labels", e.Labels)
	annotationsBlock(w, "Annotations", e.Annotations)
	w.Line(0, "Subsets:\n")
	for _, s := range e.Subsets {
		var ready, notReady []string
		for _, a := range s.Addresses {
			ready = append(ready, a.IP)
		}
		for _, a := range s.NotReadyAddresses {
			notReady = append(notReady, a.IP)
		}
		w.Line(1, "Addresses:\t%s\n", OrNone(strings.Join(ready, ",")))
		w.Line(1, "NotReadyAddresses:\t%s\n", OrNone(strings.Join(notReady, ",")))
		if len(s.Ports) > 0 {
			w.Line(1, "Ports:\n")
			portsTable(w, 2, s.Ports)
		}
		w.Line(0, "\n") // kubectl's describer ends each subset with a blank line
	}
}

// portsTable prints endpoint ports as describe does: Name, Port, Protocol.
func portsTable(w *Describer, level int, ports []api.EndpointPort) {
	w.Line(level, "Name\tPort\tProtocol\n")
	w.Line(level, "----\t----\t--------\n")
	for _, p := range ports {
		name := p.Name
		if name == "" {
			name = "<unset>"
		}
		w.Line(level, "%s\t%d\t%s\n", name, p.Port, p.Protocol)
	}
}
