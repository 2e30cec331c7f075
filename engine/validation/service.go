package validation

import (
	"reconcile/engine/api"
)

// Service, EndpointSlice and Endpoints: the defaults and checks of
// core/v1 and discovery.k8s.io/v1. The API server's allocation of a
// Service's clusterIP and nodePorts is the store's (it needs the other
// Services); what is checked here is the object alone.

const (
	dns1035LabelFmt = "[a-z]([-a-z0-9]*[a-z0-9])?"
	dns1035LabelMsg = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character"
)

// IsDNS1035Label returns why value is not a DNS-1035 label (a Service's
// name), nil if it is.
func IsDNS1035Label(value string) []string {
	var errs []string
	if len(value) > DNS1123LabelMaxLength {
		errs = append(errs, maxLenError(DNS1123LabelMaxLength))
	}
	if !matchDNS1035Label(value) {
		errs = append(errs, regexError(dns1035LabelMsg, dns1035LabelFmt, "my-name", "abc-123"))
	}
	return errs
}

func defaultService(s *api.Service) {
	sp := &s.Spec
	if sp.Type == "" {
		sp.Type = api.ServiceClusterIP
	}
	if sp.SessionAffinity == "" {
		sp.SessionAffinity = "None"
	}
	for i := range sp.Ports {
		p := &sp.Ports[i]
		if p.Protocol == "" {
			p.Protocol = "TCP"
		}
		if !p.TargetPort.IsString && p.TargetPort.Int == 0 {
			p.TargetPort = api.FromInt(p.Port)
		}
	}
	if sp.Type != api.ServiceExternalName && sp.InternalTrafficPolicy == "" {
		sp.InternalTrafficPolicy = "Cluster"
	}
	if (sp.Type == api.ServiceNodePort || sp.Type == api.ServiceLoadBalancer) && sp.ExternalTrafficPolicy == "" {
		sp.ExternalTrafficPolicy = "Cluster"
	}
	if sp.Type == api.ServiceLoadBalancer && sp.AllocateLoadBalancerNodePorts == nil {
		sp.AllocateLoadBalancerNodePorts = api.Bool(true)
	}
}

func defaultEndpointSlice(e *api.EndpointSlice) {
	for i := range e.Ports {
		if e.Ports[i].Protocol == "" {
			e.Ports[i].Protocol = "TCP"
		}
	}
}

var protocols = []string{"SCTP", "TCP", "UDP"}

func validateService(s *api.Service) ErrorList {
	meta := Path("metadata")
	var errs ErrorList
	m := s.ObjectMeta
	name := m.Name
	m.Name = "x" // the name is a DNS-1035 label, checked below
	errs = append(errs, validateObjectMeta(&m, "Service", meta)...)
	if name == "" {
		errs = append(errs, Required(meta.Child("name"), "name or generateName is required"))
	} else {
		for _, msg := range IsDNS1035Label(name) {
			errs = append(errs, Invalid(meta.Child("name"), name, msg))
		}
	}
	sp := &s.Spec
	p := Path("spec")
	switch sp.Type {
	case api.ServiceClusterIP, api.ServiceNodePort, api.ServiceLoadBalancer, api.ServiceExternalName:
	default:
		errs = append(errs, NotSupported(p.Child("type"), sp.Type, "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"))
	}
	headless := sp.ClusterIP == "None"
	if len(sp.Ports) == 0 && !headless && sp.Type != api.ServiceExternalName {
		errs = append(errs, Required(p.Child("ports"), ""))
	}
	names := map[string]bool{}
	for i, port := range sp.Ports {
		pp := p.Child("ports").Index(i)
		if len(sp.Ports) > 1 && port.Name == "" {
			errs = append(errs, Required(pp.Child("name"), ""))
		} else if port.Name != "" {
			for _, msg := range IsDNS1123Label(port.Name) {
				errs = append(errs, Invalid(pp.Child("name"), port.Name, msg))
			}
			if names[port.Name] {
				errs = append(errs, Duplicate(pp.Child("name"), port.Name))
			}
			names[port.Name] = true
		}
		if port.Port < 1 || port.Port > 65535 {
			errs = append(errs, Invalid(pp.Child("port"), int64(port.Port), "must be between 1 and 65535, inclusive"))
		}
		if port.Protocol != "TCP" && port.Protocol != "UDP" && port.Protocol != "SCTP" {
			errs = append(errs, NotSupported(pp.Child("protocol"), port.Protocol, protocols...))
		}
		if t := port.TargetPort; !t.IsString && (t.Int < 1 || t.Int > 65535) {
			errs = append(errs, Invalid(pp.Child("targetPort"), int64(t.Int), "must be between 1 and 65535, inclusive"))
		}
		if port.NodePort != 0 && sp.Type == api.ServiceClusterIP {
			errs = append(errs, Forbidden(pp.Child("nodePort"), "may not be used when `type` is 'ClusterIP'"))
		}
	}
	errs = append(errs, validateLabels(sp.Selector, p.Child("selector"))...)
	return errs
}

func validateServiceUpdate(old, new *api.Service) ErrorList {
	if old.Spec.ClusterIP != "" && new.Spec.ClusterIP != "" && old.Spec.ClusterIP != new.Spec.ClusterIP {
		return ErrorList{Invalid(Path("spec.clusterIPs").Index(0), []string{new.Spec.ClusterIP}, "may not change once set")}
	}
	return nil
}

func validateEndpointSlice(e *api.EndpointSlice) ErrorList {
	errs := validateObjectMeta(&e.ObjectMeta, "EndpointSlice", Path("metadata"))
	switch e.AddressType {
	case "IPv4", "IPv6", "FQDN":
	default:
		errs = append(errs, NotSupported(Path("addressType"), e.AddressType, "FQDN", "IPv4", "IPv6"))
	}
	for i, p := range e.Ports {
		if p.Port < 1 || p.Port > 65535 {
			errs = append(errs, Invalid(Path("ports").Index(i).Child("port"), int64(p.Port), "must be between 1 and 65535, inclusive"))
		}
	}
	return errs
}
