package api

// PodQOSClass is the QoS class the API server records in a new pod's
// status.qosClass: BestEffort when no container (init containers
// included) requests or limits cpu or memory, Guaranteed when every
// container limits both and requests what it limits, else Burstable.
func PodQOSClass(spec *PodSpec) string {
	any, guaranteed := false, true
	check := func(cs []Container) {
		for _, c := range cs {
			r, l := c.Resources.Requests, c.Resources.Limits
			for _, res := range []string{"cpu", "memory"} {
				req, hasReq := r[res]
				lim, hasLim := l[res]
				if (hasReq && req.Milli() != 0) || (hasLim && lim.Milli() != 0) {
					any = true
				}
				if !hasLim || lim.Milli() == 0 || (hasReq && req.Milli() != lim.Milli()) {
					guaranteed = false
				}
			}
		}
	}
	check(spec.More().InitContainers)
	check(spec.Containers)
	switch {
	case !any:
		return "BestEffort"
	case guaranteed:
		return "Guaranteed"
	}
	return "Burstable"
}
