package kubectl

import (
	"fmt"
	"strconv"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/kinds"
)

// Services, EndpointSlices and Endpoints as kubectl prints them: get's
// columns (NAME TYPE CLUSTER-IP EXTERNAL-IP PORT(S) AGE; NAME ADDRESSTYPE
// PORTS ENDPOINTS AGE; NAME ENDPOINTS AGE) and describe.

// EndpointsDeprecation is the warning the API server sends with every
// request for v1 Endpoints (from v1.33), which kubectl prints to stderr.
const EndpointsDeprecation = "Warning: v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice\n"

func selectorText(sel map[string]string) string {
	var parts []string
	for _, k := range sortedMapKeys(sel) {
		parts = append(parts, k+"="+sel[k])
	}
	return strings.Join(parts, ",")
}

// listWithMore joins the first three values and counts the rest, as
// kubectl's printers do.
func listWithMore(list []string, empty string) string { return kinds.ListWithMore(list, empty) }

// serviceEndpoints is describe's Endpoints line: the ready addresses of
// the Service's slices, with the port that serves the Service port named.
func (k *cmd) serviceEndpoints(s *api.Service, port api.ServicePort) string {
	list, found := []string{}, false
	for _, o := range k.st.List("EndpointSlice") {
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
	return listWithMore(list, "")
}

func (k *cmd) describeService(w *pw, s *api.Service) {
	w.line(0, "Name:\t%s\n", s.Name)
	w.line(0, "Namespace:\t%s\n", s.Namespace)
	labelsBlock(w, "Labels", s.Labels)
	annotationsBlock(w, "Annotations", s.Annotations)
	w.line(0, "Selector:\t%s\n", orNone(selectorText(s.Spec.Selector)))
	w.line(0, "Type:\t%s\n", s.Spec.Type)
	if s.Spec.IPFamilyPolicy != "" {
		w.line(0, "IP Family Policy:\t%s\n", s.Spec.IPFamilyPolicy)
	}
	if len(s.Spec.IPFamilies) > 0 {
		w.line(0, "IP Families:\t%s\n", strings.Join(s.Spec.IPFamilies, ","))
	}
	if s.Spec.ClusterIP != "" {
		w.line(0, "IP:\t%s\n", s.Spec.ClusterIP)
		w.line(0, "IPs:\t%s\n", strings.Join(s.Spec.ClusterIPs, ","))
	}
	if len(s.Spec.ExternalIPs) > 0 {
		w.line(0, "External IPs:\t%v\n", strings.Join(s.Spec.ExternalIPs, ","))
	}
	if s.Spec.Type == api.ServiceExternalName {
		w.line(0, "External Name:\t%s\n", s.Spec.ExternalName)
	}
	for _, p := range s.Spec.Ports {
		name := p.Name
		if name == "" {
			name = "<unset>"
		}
		w.line(0, "Port:\t%s\t%d/%s\n", name, p.Port, p.Protocol)
		if p.TargetPort.IsString {
			w.line(0, "TargetPort:\t%s/%s\n", p.TargetPort.Str, p.Protocol)
		} else {
			w.line(0, "TargetPort:\t%d/%s\n", p.TargetPort.Int, p.Protocol)
		}
		if p.NodePort != 0 {
			w.line(0, "NodePort:\t%s\t%d/%s\n", name, p.NodePort, p.Protocol)
		}
		w.line(0, "Endpoints:\t%s\n", k.serviceEndpoints(s, p))
	}
	w.line(0, "Session Affinity:\t%s\n", s.Spec.SessionAffinity)
	if s.Spec.ExternalTrafficPolicy != "" {
		w.line(0, "External Traffic Policy:\t%s\n", s.Spec.ExternalTrafficPolicy)
	}
	if s.Spec.InternalTrafficPolicy != "" {
		w.line(0, "Internal Traffic Policy:\t%s\n", s.Spec.InternalTrafficPolicy)
	}
	if s.Spec.Type == api.ServiceLoadBalancer && len(s.Status.LoadBalancer.Ingress) == 0 {
		// Not kubectl's: said where the learner looks, as every gap is.
		w.line(0, "LoadBalancer Ingress:\t<pending> (no cloud load balancer is simulated: the address stays pending)\n")
	}
}

func boolText(b *bool) string {
	if b == nil {
		return "<unset>"
	}
	return strconv.FormatBool(*b)
}

func (k *cmd) describeEndpointSlice(w *pw, e *api.EndpointSlice) {
	w.line(0, "Name:\t%s\n", e.Name)
	w.line(0, "Namespace:\t%s\n", e.Namespace)
	labelsBlock(w, "Labels", e.Labels)
	annotationsBlock(w, "Annotations", e.Annotations)
	w.line(0, "AddressType:\t%s\n", e.AddressType)
	if len(e.Ports) == 0 {
		w.line(0, "Ports: <unset>\n") // one space, as kubectl writes it
	} else {
		w.line(0, "Ports:\n")
		portsTable(w, 1, e.Ports)
	}
	if len(e.Endpoints) == 0 {
		w.line(0, "Endpoints: <none>\n")
		return
	}
	w.line(0, "Endpoints:\n")
	for _, ep := range e.Endpoints {
		w.line(1, "- Addresses:\t%s\n", strings.Join(ep.Addresses, ","))
		w.line(2, "Conditions:\n")
		w.line(3, "Ready:\t%s\n", boolText(ep.Conditions.Ready))
		w.line(2, "Hostname:\t<unset>\n")
		if ep.TargetRef != nil {
			w.line(2, "TargetRef:\t%s/%s\n", ep.TargetRef.Kind, ep.TargetRef.Name)
		}
		w.line(2, "NodeName:\t%s\n", orUnset(ep.NodeName))
		w.line(2, "Zone:\t<unset>\n")
	}
}

func (k *cmd) describeEndpoints(w *pw, e *api.Endpoints) {
	w.line(0, "Name:\t%s\n", e.Name)
	w.line(0, "Namespace:\t%s\n", e.Namespace)
	labelsBlock(w, "Labels", e.Labels)
	annotationsBlock(w, "Annotations", e.Annotations)
	w.line(0, "Subsets:\n")
	for _, s := range e.Subsets {
		var ready, notReady []string
		for _, a := range s.Addresses {
			ready = append(ready, a.IP)
		}
		for _, a := range s.NotReadyAddresses {
			notReady = append(notReady, a.IP)
		}
		w.line(1, "Addresses:\t%s\n", orNone(strings.Join(ready, ",")))
		w.line(1, "NotReadyAddresses:\t%s\n", orNone(strings.Join(notReady, ",")))
		if len(s.Ports) > 0 {
			w.line(1, "Ports:\n")
			portsTable(w, 2, s.Ports)
		}
		w.line(0, "\n") // kubectl's describer ends each subset with a blank line
	}
}

// warnEndpoints adds the API server's deprecation warning when a command
// names v1 Endpoints.
func (k *cmd) warnEndpoints(ts []target) {
	for _, t := range ts {
		if t.kind.Name == "Endpoints" {
			k.in.Warnings = append(k.in.Warnings, EndpointsDeprecation)
			return
		}
	}
}

// portsTable prints endpoint ports as describe does: Name, Port, Protocol.
func portsTable(w *pw, level int, ports []api.EndpointPort) {
	w.line(level, "Name\tPort\tProtocol\n")
	w.line(level, "----\t----\t--------\n")
	for _, p := range ports {
		name := p.Name
		if name == "" {
			name = "<unset>"
		}
		w.line(level, "%s\t%d\t%s\n", name, p.Port, p.Protocol)
	}
}
