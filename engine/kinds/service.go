package kinds

import (
	"fmt"
	"reconcile/engine/api"
	"reconcile/engine/validation"
	"strconv"
	"strings"
)

var _ = Define(Def[*api.Service]{
	Kind:           "Service",
	NoGeneration:   true,
	Default:        validation.DefaultService,
	Validate:       validation.ValidateService,
	ValidateUpdate: validation.ValidateServiceUpdate,
	Columns: []TypedColumn[*api.Service]{Name[*api.Service](),
		{Name: "TYPE", Cell: func(s *api.Service, _ api.Time) string { return s.Spec.Type }},
		{Name: "CLUSTER-IP", Cell: func(s *api.Service, _ api.Time) string { return OrNone(s.Spec.ClusterIP) }},
		{Name: "EXTERNAL-IP", Cell: func(s *api.Service, _ api.Time) string { return serviceExternalIP(s) }},
		{Name: "PORT(S)", Cell: func(s *api.Service, _ api.Time) string { return servicePorts(s) }},
		Age[*api.Service](),
		{Name: "SELECTOR", Wide: true, Cell: func(s *api.Service, _ api.Time) string { return FormatLabels(s.Spec.Selector) }},
	},
})

func servicePorts(s *api.Service) string {
	var ports []string
	for _, p := range s.Spec.Ports {
		t := strconv.Itoa(int(p.Port))
		if p.NodePort != 0 {
			t += ":" + strconv.Itoa(int(p.NodePort))
		}
		ports = append(ports, t+"/"+p.Protocol)
	}
	return OrNone(strings.Join(ports, ","))
}

// serviceExternalIP is the EXTERNAL-IP column: <pending> for a load
// balancer no cloud provides (none is simulated), the name an
// ExternalName Service points at, the externalIPs, or <none>.
func serviceExternalIP(s *api.Service) string {
	switch s.Spec.Type {
	case api.ServiceExternalName:
		return s.Spec.ExternalName
	case api.ServiceLoadBalancer:
		var ips []string
		for _, i := range s.Status.LoadBalancer.Ingress {
			ips = append(ips, i.IP+i.Hostname)
		}
		ips = append(ips, s.Spec.ExternalIPs...)
		if len(ips) == 0 {
			return "<pending>"
		}
		return strings.Join(ips, ",")
	}
	return OrNone(strings.Join(s.Spec.ExternalIPs, ","))
}

// ListWithMore joins the first three values and counts the rest, as
// kubectl's printers do; empty when there are none.
func ListWithMore(list []string, empty string) string {
	if len(list) == 0 {
		return empty
	}
	if len(list) > 3 {
		return fmt.Sprintf("%s + %d more...", strings.Join(list[:3], ","), len(list)-3)
	}
	return strings.Join(list, ",")
}
