package validation

import "reconcile/engine/api"

// validateNodeUpdate refuses a change to a node's pod ranges once set:
// the node IPAM controller sets them once, from nothing.
func validateNodeUpdate(old, new *api.Node) ErrorList {
	if len(old.Spec.PodCIDRs) == 0 {
		return nil
	}
	same := len(old.Spec.PodCIDRs) == len(new.Spec.PodCIDRs)
	for i := 0; same && i < len(old.Spec.PodCIDRs); i++ {
		same = old.Spec.PodCIDRs[i] == new.Spec.PodCIDRs[i]
	}
	if same {
		return nil
	}
	return ErrorList{Forbidden(Path("spec.podCIDRs"), `node updates may not change podCIDR except from "" to valid`)}
}
