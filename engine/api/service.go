package api

import (
	"encoding/json"
	"maps"
)

// Service names a set of pods and the virtual IP (and, for NodePort, the
// port on every node) that spreads traffic over them (core/v1). The API
// server allocates its clusterIP and nodePorts when it is created; the
// EndpointSlice controller lists the pods behind it.
type Service struct {
	TypeMeta   `json:",inline" yaml:",inline"`
	ObjectMeta `json:"metadata" yaml:"metadata"`
	Spec       ServiceSpec   `json:"spec" yaml:"spec"`
	Status     ServiceStatus `json:"status" yaml:"status,omitempty"`
}

// Service types.
const (
	ServiceClusterIP    = "ClusterIP"
	ServiceNodePort     = "NodePort"
	ServiceLoadBalancer = "LoadBalancer"
	ServiceExternalName = "ExternalName"
)

// ServiceSpec is the desired state of a Service.
type ServiceSpec struct {
	Type                          string            `json:"type,omitempty" yaml:"type,omitempty"`
	Selector                      map[string]string `json:"selector,omitempty" yaml:"selector,omitempty"`
	Ports                         []ServicePort     `json:"ports,omitempty" yaml:"ports,omitempty"`
	ClusterIP                     string            `json:"clusterIP,omitempty" yaml:"clusterIP,omitempty"`
	ClusterIPs                    []string          `json:"clusterIPs,omitempty" yaml:"clusterIPs,omitempty"`
	ExternalIPs                   []string          `json:"externalIPs,omitempty" yaml:"externalIPs,omitempty"`
	ExternalName                  string            `json:"externalName,omitempty" yaml:"externalName,omitempty"`
	SessionAffinity               string            `json:"sessionAffinity,omitempty" yaml:"sessionAffinity,omitempty"`
	ExternalTrafficPolicy         string            `json:"externalTrafficPolicy,omitempty" yaml:"externalTrafficPolicy,omitempty"`
	InternalTrafficPolicy         string            `json:"internalTrafficPolicy,omitempty" yaml:"internalTrafficPolicy,omitempty"`
	IPFamilies                    []string          `json:"ipFamilies,omitempty" yaml:"ipFamilies,omitempty"`
	IPFamilyPolicy                string            `json:"ipFamilyPolicy,omitempty" yaml:"ipFamilyPolicy,omitempty"`
	PublishNotReadyAddresses      bool              `json:"publishNotReadyAddresses,omitempty" yaml:"publishNotReadyAddresses,omitempty"`
	LoadBalancerIP                string            `json:"loadBalancerIP,omitempty" yaml:"loadBalancerIP,omitempty"`
	AllocateLoadBalancerNodePorts *bool             `json:"allocateLoadBalancerNodePorts,omitempty" yaml:"allocateLoadBalancerNodePorts,omitempty"`
}

// ServicePort is one port of a Service and the pods' port behind it.
type ServicePort struct {
	Name        string      `json:"name,omitempty" yaml:"name,omitempty"`
	Protocol    string      `json:"protocol,omitempty" yaml:"protocol,omitempty"`
	AppProtocol string      `json:"appProtocol,omitempty" yaml:"appProtocol,omitempty"`
	Port        int32       `json:"port" yaml:"port"`
	TargetPort  IntOrString `json:"targetPort,omitempty" yaml:"targetPort,omitempty"`
	NodePort    int32       `json:"nodePort,omitempty" yaml:"nodePort,omitempty"`
}

// ServiceStatus holds a load balancer's addresses; none is ever
// provisioned here (no cloud provider is simulated).
type ServiceStatus struct {
	LoadBalancer LoadBalancerStatus `json:"loadBalancer" yaml:"loadBalancer,omitempty"`
}

// LoadBalancerStatus lists a load balancer's ingress points.
type LoadBalancerStatus struct {
	Ingress []LoadBalancerIngress `json:"ingress,omitempty" yaml:"ingress,omitempty"`
}

// LoadBalancerIngress is one ingress point of a load balancer.
type LoadBalancerIngress struct {
	IP       string `json:"ip,omitempty" yaml:"ip,omitempty"`
	Hostname string `json:"hostname,omitempty" yaml:"hostname,omitempty"`
}

// EndpointSlice lists some of the endpoints behind a Service
// (discovery.k8s.io/v1), as the EndpointSlice controller sees them.
type EndpointSlice struct {
	TypeMeta    `json:",inline" yaml:",inline"`
	ObjectMeta  `json:"metadata" yaml:"metadata"`
	AddressType string         `json:"addressType" yaml:"addressType"`
	Endpoints   []Endpoint     `json:"endpoints" yaml:"endpoints"`
	Ports       []EndpointPort `json:"ports" yaml:"ports"`
}

// Endpoint is one pod behind a Service: its addresses and whether it
// should get traffic.
type Endpoint struct {
	Addresses  []string           `json:"addresses" yaml:"addresses"`
	Conditions EndpointConditions `json:"conditions" yaml:"conditions"`
	NodeName   string             `json:"nodeName,omitempty" yaml:"nodeName,omitempty"`
	TargetRef  *ObjectReference   `json:"targetRef,omitempty" yaml:"targetRef,omitempty"`
}

// EndpointConditions: ready (send it traffic), serving (its pod is ready,
// terminating or not) and terminating (its pod is being deleted).
type EndpointConditions struct {
	Ready       *bool `json:"ready,omitempty" yaml:"ready,omitempty"`
	Serving     *bool `json:"serving,omitempty" yaml:"serving,omitempty"`
	Terminating *bool `json:"terminating,omitempty" yaml:"terminating,omitempty"`
}

// EndpointPort is a port the endpoints of a slice listen on.
type EndpointPort struct {
	Name     string `json:"name" yaml:"name"`
	Protocol string `json:"protocol,omitempty" yaml:"protocol,omitempty"`
	Port     int32  `json:"port" yaml:"port"`
}

// Endpoints is the legacy list of a Service's endpoints (core/v1),
// deprecated since v1.33 in favour of EndpointSlice.
type Endpoints struct {
	TypeMeta   `json:",inline" yaml:",inline"`
	ObjectMeta `json:"metadata" yaml:"metadata"`
	Subsets    []EndpointSubset `json:"subsets,omitempty" yaml:"subsets,omitempty"`
}

// EndpointSubset is a set of addresses sharing a set of ports.
type EndpointSubset struct {
	Addresses         []EndpointAddress `json:"addresses,omitempty" yaml:"addresses,omitempty"`
	NotReadyAddresses []EndpointAddress `json:"notReadyAddresses,omitempty" yaml:"notReadyAddresses,omitempty"`
	Ports             []EndpointPort    `json:"ports,omitempty" yaml:"ports,omitempty"`
}

// MarshalJSON writes the subset as core/v1 does: an unnamed port has no
// name (in discovery/v1 a slice's port name is a pointer, and an unnamed
// one is written "").
func (s EndpointSubset) MarshalJSON() ([]byte, error) {
	type port struct {
		Name     string `json:"name,omitempty"`
		Protocol string `json:"protocol,omitempty"`
		Port     int32  `json:"port"`
	}
	out := struct {
		Addresses         []EndpointAddress `json:"addresses,omitempty"`
		NotReadyAddresses []EndpointAddress `json:"notReadyAddresses,omitempty"`
		Ports             []port            `json:"ports,omitempty"`
	}{Addresses: s.Addresses, NotReadyAddresses: s.NotReadyAddresses}
	for _, p := range s.Ports {
		out.Ports = append(out.Ports, port(p))
	}
	return json.Marshal(out)
}

// EndpointAddress is one pod's address in an Endpoints object.
type EndpointAddress struct {
	IP        string           `json:"ip" yaml:"ip"`
	NodeName  string           `json:"nodeName,omitempty" yaml:"nodeName,omitempty"`
	TargetRef *ObjectReference `json:"targetRef,omitempty" yaml:"targetRef,omitempty"`
}

// DeepCopy returns an independent copy of s.
func (s *Service) DeepCopy() *Service {
	out := *s
	out.ObjectMeta = s.ObjectMeta.DeepCopy()
	out.Spec.Selector = maps.Clone(s.Spec.Selector)
	out.Spec.Ports = append([]ServicePort(nil), s.Spec.Ports...)
	out.Spec.ClusterIPs = append([]string(nil), s.Spec.ClusterIPs...)
	out.Spec.ExternalIPs = append([]string(nil), s.Spec.ExternalIPs...)
	out.Spec.IPFamilies = append([]string(nil), s.Spec.IPFamilies...)
	if s.Spec.AllocateLoadBalancerNodePorts != nil {
		out.Spec.AllocateLoadBalancerNodePorts = Bool(*s.Spec.AllocateLoadBalancerNodePorts)
	}
	out.Status.LoadBalancer.Ingress = append([]LoadBalancerIngress(nil), s.Status.LoadBalancer.Ingress...)
	return &out
}

func copyBool(p *bool) *bool {
	if p == nil {
		return nil
	}
	return Bool(*p)
}

func copyRef(r *ObjectReference) *ObjectReference {
	if r == nil {
		return nil
	}
	v := *r
	return &v
}

// DeepCopy returns an independent copy of e.
func (e *EndpointSlice) DeepCopy() *EndpointSlice {
	out := *e
	out.ObjectMeta = e.ObjectMeta.DeepCopy()
	out.Ports = append([]EndpointPort(nil), e.Ports...)
	out.Endpoints = nil
	for _, ep := range e.Endpoints {
		ep.Addresses = append([]string(nil), ep.Addresses...)
		ep.Conditions = EndpointConditions{Ready: copyBool(ep.Conditions.Ready), Serving: copyBool(ep.Conditions.Serving), Terminating: copyBool(ep.Conditions.Terminating)}
		ep.TargetRef = copyRef(ep.TargetRef)
		out.Endpoints = append(out.Endpoints, ep)
	}
	return &out
}

// DeepCopy returns an independent copy of e.
func (e *Endpoints) DeepCopy() *Endpoints {
	out := *e
	out.ObjectMeta = e.ObjectMeta.DeepCopy()
	out.Subsets = nil
	for _, s := range e.Subsets {
		cp := func(in []EndpointAddress) []EndpointAddress {
			if in == nil {
				return nil
			}
			o := make([]EndpointAddress, len(in))
			for i, a := range in {
				a.TargetRef = copyRef(a.TargetRef)
				o[i] = a
			}
			return o
		}
		out.Subsets = append(out.Subsets, EndpointSubset{Addresses: cp(s.Addresses), NotReadyAddresses: cp(s.NotReadyAddresses), Ports: append([]EndpointPort(nil), s.Ports...)})
	}
	return &out
}

func (s *Service) Meta() *ObjectMeta            { return &s.ObjectMeta }
func (e *EndpointSlice) Meta() *ObjectMeta      { return &e.ObjectMeta }
func (e *Endpoints) Meta() *ObjectMeta          { return &e.ObjectMeta }
func (s *Service) GetTypeMeta() *TypeMeta       { return &s.TypeMeta }
func (e *EndpointSlice) GetTypeMeta() *TypeMeta { return &e.TypeMeta }
func (e *Endpoints) GetTypeMeta() *TypeMeta     { return &e.TypeMeta }
func (s *Service) DeepCopyObject() Object       { return s.DeepCopy() }
func (e *EndpointSlice) DeepCopyObject() Object { return e.DeepCopy() }
func (e *Endpoints) DeepCopyObject() Object     { return e.DeepCopy() }
