package store

import (
	"fmt"

	"reconcile/engine/api"
	"reconcile/engine/validation"
)

// The API server's allocators for Services: a clusterIP from the service
// CIDR and, for NodePort and LoadBalancer Services, a nodePort per port
// from the node-port range. Real allocators pick at random in the upper
// part of each range (the lower part is kept for addresses asked for by
// name); here the pick is a hash of the Service's namespace and name,
// probed upwards to the first free value, so a run is deterministic and a
// Service keeps its address across runs.
const (
	// ServiceCIDR is the cluster's service range (kube-apiserver
	// --service-cluster-ip-range); its first address is the kubernetes
	// Service's.
	ServiceCIDR = "10.96.0.0/12"
	// NodePortRange is kube-apiserver's --service-node-port-range.
	NodePortRange = "30000-32767"

	serviceBase  = uint32(10)<<24 | uint32(96)<<16
	serviceSize  = uint32(1) << 20
	serviceLower = 256 // min(max(16, size/16), 256): the band kept for static picks
	nodePortMin  = 30000
	nodePortMax  = 32767
	nodePortLow  = 86 // min(max(16, size/32), 128)
	// KubernetesServiceIP is the address of the kubernetes Service in the
	// default namespace.
	KubernetesServiceIP = "10.96.0.1"
)

func fnv(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}

// allocateService gives a Service being created or updated (old is nil on
// create) its clusterIP and nodePorts, keeping those it already has, and
// refuses addresses and ports another Service holds, with the API server's
// messages.
func (s *Store) allocateService(svc, old *api.Service) error {
	sp := &svc.Spec
	usedIP := map[string]bool{}
	usedPort := map[int32]bool{}
	for _, o := range s.List("Service") {
		other := o.(*api.Service)
		if other.Namespace == svc.Namespace && other.Name == svc.Name {
			continue
		}
		usedIP[other.Spec.ClusterIP] = true
		for _, p := range other.Spec.Ports {
			if p.NodePort != 0 {
				usedPort[p.NodePort] = true
			}
		}
	}
	var errs validation.ErrorList
	if sp.Type == api.ServiceExternalName {
		sp.ClusterIP, sp.ClusterIPs = "", nil
	} else {
		if old != nil && sp.ClusterIP == "" {
			sp.ClusterIP = old.Spec.ClusterIP
		}
		switch ip := sp.ClusterIP; {
		case ip == "None":
		case ip == "":
			key := svc.Namespace + "/" + svc.Name
			span := serviceSize - serviceLower - 1
			start := fnv(key) % span
			for i := uint32(0); i < span; i++ {
				cand := api.FormatIPv4(serviceBase + serviceLower + (start+i)%span)
				if !usedIP[cand] {
					sp.ClusterIP = cand
					break
				}
			}
		case old != nil && old.Spec.ClusterIP == ip:
		default:
			v, ok := api.ParseIPv4(ip)
			path := validation.Path("spec.clusterIPs")
			switch {
			case !ok:
				errs = append(errs, validation.Invalid(path.Index(0), ip, "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"))
			case v < serviceBase || v >= serviceBase+serviceSize || v == serviceBase || v == serviceBase+serviceSize-1:
				errs = append(errs, validation.Invalid(path, []string{ip}, fmt.Sprintf(
					"failed to allocate IP %s: the provided IP (%s) is not in the valid range. The range of valid IPs is %s", ip, ip, ServiceCIDR)))
			case usedIP[ip]:
				errs = append(errs, validation.Invalid(path, []string{ip}, fmt.Sprintf("failed to allocate IP %s: provided IP is already allocated", ip)))
			}
		}
		if sp.ClusterIP != "" {
			sp.ClusterIPs = []string{sp.ClusterIP}
			if sp.ClusterIP != "None" || sp.IPFamilies == nil {
				sp.IPFamilies = []string{"IPv4"}
			}
			if sp.IPFamilyPolicy == "" {
				sp.IPFamilyPolicy = "SingleStack"
			}
		}
	}
	wantPorts := sp.Type == api.ServiceNodePort || sp.Type == api.ServiceLoadBalancer && (sp.AllocateLoadBalancerNodePorts == nil || *sp.AllocateLoadBalancerNodePorts)
	for i := range sp.Ports {
		p := &sp.Ports[i]
		if !wantPorts {
			if old != nil && i < len(old.Spec.Ports) && p.NodePort == old.Spec.Ports[i].NodePort {
				p.NodePort = 0 // a type change drops the ports it allocated
			}
			continue
		}
		path := validation.Path("spec.ports").Index(i).Child("nodePort")
		if p.NodePort == 0 && old != nil {
			for _, q := range old.Spec.Ports {
				if q.Port == p.Port && q.Protocol == p.Protocol {
					p.NodePort = q.NodePort
				}
			}
		}
		kept := false
		if old != nil {
			for _, q := range old.Spec.Ports {
				kept = kept || q.NodePort != 0 && q.NodePort == p.NodePort
			}
		}
		switch {
		case p.NodePort == 0:
			span := int32(nodePortMax - nodePortMin + 1 - nodePortLow)
			start := int32(fnv(fmt.Sprintf("%s/%s:%d", svc.Namespace, svc.Name, i)) % uint32(span))
			for j := int32(0); j < span; j++ {
				cand := nodePortMin + nodePortLow + (start+j)%span
				if !usedPort[cand] {
					p.NodePort = cand
					break
				}
			}
		case kept:
		case p.NodePort < nodePortMin || p.NodePort > nodePortMax:
			errs = append(errs, validation.Invalid(path, int64(p.NodePort), "provided port is not in the valid range. The range of valid ports is "+NodePortRange))
		case usedPort[p.NodePort]:
			errs = append(errs, validation.Invalid(path, int64(p.NodePort), "provided port is already allocated"))
		}
		usedPort[p.NodePort] = true
	}
	if len(errs) > 0 {
		return validation.NewError("Service", svc.Name, errs)
	}
	return nil
}

// KubernetesService is the Service the API server keeps in the default
// namespace for itself, at the first address of the service range.
func KubernetesService() *api.Service {
	return &api.Service{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Service"},
		ObjectMeta: api.ObjectMeta{Name: "kubernetes", Namespace: "default",
			Labels: map[string]string{"component": "apiserver", "provider": "kubernetes"}},
		Spec: api.ServiceSpec{ClusterIP: KubernetesServiceIP,
			Ports: []api.ServicePort{{Name: "https", Port: 443, Protocol: "TCP", TargetPort: api.FromInt(6443)}}}}
}
