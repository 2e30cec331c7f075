package api

// ClaimQuotaUsage is what a PersistentVolumeClaim counts against a
// ResourceQuota, as the quota evaluator of persistentvolumeclaims counts
// it: the claim itself (persistentvolumeclaims, count/persistentvolumeclaims)
// and the storage it requests (requests.storage, in bytes), each also by
// its storage class (CLASS.storageclass.storage.k8s.io/persistentvolumeclaims
// and .../requests.storage).
func ClaimQuotaUsage(c *PersistentVolumeClaim) map[string]int64 {
	const byClass = ".storageclass.storage.k8s.io/"
	class := ""
	if c.Spec.StorageClassName != nil {
		class = *c.Spec.StorageClassName
	}
	out := map[string]int64{"persistentvolumeclaims": 1, "count/persistentvolumeclaims": 1}
	if class != "" {
		out[class+byClass+"persistentvolumeclaims"] = 1
	}
	if q, ok := c.Spec.Resources.Requests["storage"]; ok {
		out["requests.storage"] = q.Value()
		if class != "" {
			out[class+byClass+"requests.storage"] = q.Value()
		}
	}
	return out
}

// ServiceQuotaUsage is what a Service counts against a ResourceQuota, as
// the quota evaluator of services counts it: the Service itself (services,
// count/services), a LoadBalancer one as services.loadbalancers, and, for
// NodePort and LoadBalancer Services, a node port per port
// (services.nodeports); a LoadBalancer with allocateLoadBalancerNodePorts
// false counts only the ports given a nodePort.
func ServiceQuotaUsage(s *Service) map[string]int64 {
	out := map[string]int64{"services": 1, "count/services": 1, "services.loadbalancers": 0, "services.nodeports": 0}
	switch s.Spec.Type {
	case ServiceNodePort:
		out["services.nodeports"] = int64(len(s.Spec.Ports))
	case ServiceLoadBalancer:
		out["services.loadbalancers"] = 1
		n := int64(len(s.Spec.Ports))
		if a := s.Spec.AllocateLoadBalancerNodePorts; a != nil && !*a {
			n = 0
			for _, p := range s.Spec.Ports {
				if p.NodePort != 0 {
					n++
				}
			}
		}
		out["services.nodeports"] = n
	}
	return out
}
