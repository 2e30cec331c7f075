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
	Describe: withEvents(describeService),
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

func selectorText(sel map[string]string) string {
	var parts []string
	for _, k := range sortedKeys(sel) {
		parts = append(parts, k+"="+sel[k])
	}
	return strings.Join(parts, ",")
}

// serviceEndpoints is describe's Endpoints line: the ready addresses of
// the Service's slices, with the port that serves the Service port named.
func serviceEndpoints(w *Describer, s *api.Service, port api.ServicePort) string {
	list, found := []string{}, false
	for _, o := range w.Store.List("EndpointSlice") {
		es := o.(*api.EndpointSlice)
		if es.Namespace != s.Namespace || es.Labels["kubernetes.io/service-name"] != s.Name {
			continue
		}
		found = true
		for _, p := range es.Ports {
			if p.Name != port.Name {
				continue
			}
			for _, e := range es.Endpoints {
				if e.Conditions.Ready != nil && !*e.Conditions.Ready {
					continue
				}
				for _, ad := range e.Addresses {
					list = append(list, fmt.Sprintf("%s:%d", ad, p.Port))
				}
			}
		}
	}
	if !found {
		return "<none>"
	}
	return ListWithMore(list, "")
}

func describeService(w *Describer, s *api.Service) {
	w.Line(0, "Name:\t%s\n", s.Name)
	w.Line(0, "Namespace:\t%s\n", s.Namespace)
	labelsBlock(w, "Labels", s.Labels)
	annotationsBlock(w, "Annotations", s.Annotations)
	w.Line(0, "Selector:\t%s\n", OrNone(selectorText(s.Spec.Selector)))
	w.Line(0, "Type:\t%s\n", s.Spec.Type)
	if s.Spec.IPFamilyPolicy != "" {
		w.Line(0, "IP Family Policy:\t%s\n", s.Spec.IPFamilyPolicy)
	}
	if len(s.Spec.IPFamilies) > 0 {
		w.Line(0, "IP Families:\t%s\n", strings.Join(s.Spec.IPFamilies, ","))
	}
	if s.Spec.ClusterIP != "" {
		w.Line(0, "IP:\t%s\n", s.Spec.ClusterIP)
		w.Line(0, "IPs:\t%s\n", strings.Join(s.Spec.ClusterIPs, ","))
	}
	if len(s.Spec.ExternalIPs) > 0 {
		w.Line(0, "External IPs:\t%v\n", strings.Join(s.Spec.ExternalIPs, ","))
	}
	if s.Spec.Type == api.ServiceExternalName {
		w.Line(0, "External Name:\t%s\n", s.Spec.ExternalName)
	}
	for _, p := range s.Spec.Ports {
		name := p.Name
		if name == "" {
			name = "<unset>"
		}
		w.Line(0, "Port:\t%s\t%d/%s\n", name, p.Port, p.Protocol)
		if p.TargetPort.IsString {
			w.Line(0, "TargetPort:\t%s/%s\n", p.TargetPort.Str, p.Protocol)
		} else {
			w.Line(0, "TargetPort:\t%d/%s\n", p.TargetPort.Int, p.Protocol)
		}
		if p.NodePort != 0 {
			w.Line(0, "NodePort:\t%s\t%d/%s\n", name, p.NodePort, p.Protocol)
		}
		w.Line(0, "Endpoints:\t%s\n", serviceEndpoints(w, s, p))
	}
	w.Line(0, "Session Affinity:\t%s\n", s.Spec.SessionAffinity)
	if s.Spec.ExternalTrafficPolicy != "" {
		w.Line(0, "External Traffic Policy:\t%s\n", s.Spec.ExternalTrafficPolicy)
	}
	if s.Spec.InternalTrafficPolicy != "" {
		w.Line(0, "Internal Traffic Policy:\t%s\n", s.Spec.InternalTrafficPolicy)
	}
	if s.Spec.Type == api.ServiceLoadBalancer && len(s.Status.LoadBalancer.Ingress) == 0 {
		// Not kubectl's: said where the learner looks, as every gap is.
		w.Line(0, "LoadBalancer Ingress:\t<pending> (no cloud load balancer is simulated: the address stays pending)\n")
	}
}
