package controller

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"reconcile/engine/api"
)

// MaxEndpointsPerSlice is how many endpoints the EndpointSlice controller
// puts in one slice: kube-controller-manager's --max-endpoints-per-slice,
// 100 by default (the API allows up to 1,000).
const MaxEndpointsPerSlice = 100

// endpointGroup is the endpoints that share one set of ports: a Service's
// endpoints go to slices by the ports their pods resolve the Service's
// ports to (a named targetPort can resolve to different numbers on
// different pods).
type endpointGroup struct {
	ports []api.EndpointPort
	key   string
	eps   []endpointOf
}

// portsKey names a set of endpoint ports, for grouping.
func portsKey(ports []api.EndpointPort) string {
	var b strings.Builder
	for _, p := range ports {
		b.WriteString(p.Name)
		b.WriteByte('/')
		b.WriteString(p.Protocol)
		b.WriteByte('/')
		b.WriteString(strconv.Itoa(int(p.Port)))
		b.WriteByte(';')
	}
	return b.String()
}

// podEndpointPorts resolves a Service's ports on one pod; a port whose
// named targetPort the pod does not declare is left out.
func podEndpointPorts(svc *api.Service, p *api.Pod) []api.EndpointPort {
	var ports []api.EndpointPort
	for _, sp := range svc.Spec.Ports {
		if port, ok := targetPort(p, sp); ok {
			ports = append(ports, api.EndpointPort{Name: sp.Name, Protocol: sp.Protocol, Port: port})
		}
	}
	return ports
}

// groupEndpoints groups the pods behind a Service by the ports they
// resolve its ports to, the groups in the order of their first pod. When
// no port is named the ports are the same on every pod and are worked out
// once.
func groupEndpoints(svc *api.Service, eps []endpointOf) []*endpointGroup {
	if len(eps) == 0 {
		return nil
	}
	named := false
	for _, sp := range svc.Spec.Ports {
		named = named || sp.TargetPort.IsString
	}
	if !named {
		ports := podEndpointPorts(svc, eps[0].pod)
		return []*endpointGroup{{ports: ports, key: portsKey(ports), eps: eps}}
	}
	var groups []*endpointGroup
	for _, ep := range eps {
		ports := podEndpointPorts(svc, ep.pod)
		key := portsKey(ports)
		var g *endpointGroup
		for _, h := range groups {
			if h.key == key {
				g = h
			}
		}
		if g == nil {
			g = &endpointGroup{ports: ports, key: key}
			groups = append(groups, g)
		}
		g.eps = append(g.eps, ep)
	}
	return groups
}

// endpointFor is the endpoint a slice lists for a pod.
func endpointFor(ep endpointOf) api.Endpoint {
	p := ep.pod
	return api.Endpoint{Addresses: []string{p.Status.PodIP},
		Conditions: api.EndpointConditions{Ready: api.Bool(ep.ready), Serving: api.Bool(ep.serving), Terminating: api.Bool(ep.terminating)},
		NodeName:   p.Spec.NodeName,
		TargetRef:  &api.ObjectReference{Kind: "Pod", Namespace: p.Namespace, Name: p.Name, UID: p.UID}}
}

// endpointID is what makes two endpoints the same one: the object behind
// it and its addresses (what Kubernetes hashes its endpoint sets by; a pod
// that comes back with a new IP is a new endpoint).
type endpointID struct{ namespace, name, addresses string }

func idOfPod(ep endpointOf) endpointID {
	return endpointID{ep.pod.Namespace, ep.pod.Name, ep.pod.Status.PodIP}
}

func idOf(e *api.Endpoint) endpointID {
	var id endpointID
	if len(e.Addresses) == 1 {
		id.addresses = e.Addresses[0]
	} else {
		id.addresses = strings.Join(e.Addresses, ",")
	}
	if e.TargetRef != nil {
		id.namespace, id.name = e.TargetRef.Namespace, e.TargetRef.Name
	}
	return id
}

// listsPodAsIs reports whether e, an endpoint of ep's identity, says what
// endpointFor(ep) would: conditions, node and the object it points at.
func listsPodAsIs(e *api.Endpoint, ep endpointOf) bool {
	is := func(b *bool, v bool) bool { return b != nil && *b == v }
	p := ep.pod
	return is(e.Conditions.Ready, ep.ready) && is(e.Conditions.Serving, ep.serving) &&
		is(e.Conditions.Terminating, ep.terminating) && e.NodeName == p.Spec.NodeName && e.TargetRef != nil &&
		*e.TargetRef == api.ObjectReference{Kind: "Pod", Namespace: p.Namespace, Name: p.Name, UID: p.UID}
}

// slicePlan is what one pass writes: slices to create, to update and to
// delete.
type slicePlan struct {
	create, update, del []*api.EndpointSlice
}

// planSlices works out the writes that take a Service's slices (existing,
// by name) to the desired endpoint groups, as the EndpointSlice controller
// packs them: for each group of ports, endpoints that stay stay where
// they are (updated in place when they changed), endpoints no longer
// wanted are dropped from their slice (a slice left empty is deleted),
// and new endpoints go first into the slices already being updated,
// fullest first, then into the one unchanged slice they fit in best, then
// into new slices of at most max. A slice about to be deleted is reused
// for one that would be created. A Service with no endpoints keeps one
// empty placeholder slice. Updating few slices comes before tight
// packing: slices are never rebalanced.
//
// Kubernetes picks endpoints from a set in no particular order; here new
// endpoints are taken in the order given (pods by name) and slices are
// visited by name, so a run is deterministic.
func planSlices(svc *api.Service, existing []*api.EndpointSlice, groups []*endpointGroup, labels map[string]string, max int) slicePlan {
	var plan slicePlan
	byPorts := map[string][]*api.EndpointSlice{}
	for _, s := range existing {
		if !ownedBy(s, svc) {
			plan.del = append(plan.del, s)
			continue
		}
		k := portsKey(s.Ports)
		byPorts[k] = append(byPorts[k], s)
	}
	wanted := map[string]bool{}
	for _, g := range groups {
		wanted[g.key] = true
		c, u, d := planGroup(svc, byPorts[g.key], g, labels, max)
		plan.create = append(plan.create, c...)
		plan.update = append(plan.update, u...)
		plan.del = append(plan.del, d...)
	}
	for _, s := range existing {
		if ownedBy(s, svc) && !wanted[portsKey(s.Ports)] {
			plan.del = append(plan.del, s)
		}
	}
	if len(existing) == len(plan.del) && len(plan.create) == 0 {
		placeholder := newSlice(svc, nil, labels)
		if len(plan.del) == 1 && isPlaceholder(plan.del[0], placeholder) {
			plan.del = nil
		} else {
			plan.create = append(plan.create, placeholder)
		}
	}
	// A slice that would be deleted takes the place of one to create.
	for i := 0; i < len(plan.del) && len(plan.create) > 0; {
		old := plan.del[i]
		if !ownedBy(old, svc) || old.AddressType != "IPv4" {
			i++
			continue
		}
		c := plan.create[len(plan.create)-1]
		plan.create = plan.create[:len(plan.create)-1]
		n := copySlice(old)
		n.Endpoints, n.Ports, n.Labels = c.Endpoints, c.Ports, c.Labels
		plan.update = append(plan.update, n)
		plan.del = append(plan.del[:i:i], plan.del[i+1:]...)
	}
	return plan
}

// planGroup packs one group's endpoints into the slices that carry its
// ports. Only the slices it writes get new endpoint values; an endpoint
// that did not change is kept as it is.
func planGroup(svc *api.Service, existing []*api.EndpointSlice, g *endpointGroup, labels map[string]string, max int) (create, update, del []*api.EndpointSlice) {
	// The pods are all in the Service's namespace: a name finds the pod,
	// and the identity check (its address) follows.
	index := make(map[string]int, len(g.eps))
	for i, ep := range g.eps {
		index[ep.pod.Name] = i
	}
	placed := make([]bool, len(g.eps))
	var unchanged []*api.EndpointSlice
	var match []int
	for _, s := range existing {
		match = match[:0]
		changed := false
		for j := range s.Endpoints {
			e := &s.Endpoints[j]
			i, ok := -1, false
			if e.TargetRef != nil {
				i, ok = index[e.TargetRef.Name]
			}
			if !ok || placed[i] || idOf(e) != idOfPod(g.eps[i]) {
				match = append(match, -1)
				changed = true
				continue
			}
			placed[i] = true
			match = append(match, i)
			changed = changed || !listsPodAsIs(&s.Endpoints[j], g.eps[i])
		}
		switch {
		case changed:
			kept := make([]api.Endpoint, 0, len(s.Endpoints))
			for j, i := range match {
				switch {
				case i < 0:
				case listsPodAsIs(&s.Endpoints[j], g.eps[i]):
					kept = append(kept, s.Endpoints[j])
				default:
					kept = append(kept, endpointFor(g.eps[i]))
				}
			}
			if len(kept) == 0 {
				del = append(del, s)
				continue
			}
			n := copySlice(s)
			n.Endpoints, n.Labels = kept, labels
			update = append(update, n)
		case !sameLabels(s.Labels, labels):
			n := copySlice(s)
			n.Endpoints, n.Labels = s.Endpoints, labels
			update = append(update, n)
		default:
			unchanged = append(unchanged, s)
		}
	}
	var rest []int
	for i := range g.eps {
		if !placed[i] {
			rest = append(rest, i)
		}
	}
	take := func(s *api.EndpointSlice) {
		n := min(len(rest), max-len(s.Endpoints))
		if n <= 0 {
			return
		}
		eps := make([]api.Endpoint, len(s.Endpoints), len(s.Endpoints)+n)
		copy(eps, s.Endpoints)
		for _, i := range rest[:n] {
			eps = append(eps, endpointFor(g.eps[i]))
		}
		s.Endpoints = eps
		rest = rest[n:]
	}
	if len(rest) > 0 && len(update) > 0 {
		fullest := append([]*api.EndpointSlice(nil), update...)
		sort.SliceStable(fullest, func(i, j int) bool { return len(fullest[i].Endpoints) > len(fullest[j].Endpoints) })
		for _, s := range fullest {
			take(s)
		}
	}
	for len(rest) > 0 {
		var fill *api.EndpointSlice
		if len(rest) < max {
			fill = sliceToFill(unchanged, len(rest), max)
		}
		if fill == nil {
			n := newSlice(svc, g.ports, labels)
			take(n)
			create = append(create, n)
			continue
		}
		for i, s := range unchanged {
			if s == fill {
				unchanged = append(unchanged[:i:i], unchanged[i+1:]...)
				break
			}
		}
		n := copySlice(fill)
		n.Endpoints = fill.Endpoints
		take(n)
		update = append(update, n)
	}
	return create, update, del
}

// sliceToFill returns the slice that n more endpoints fit in and leave the
// fewest free places, or nil when they fit in none.
func sliceToFill(slices []*api.EndpointSlice, n, max int) *api.EndpointSlice {
	var best *api.EndpointSlice
	bestFree := max
	for _, s := range slices {
		free := max - len(s.Endpoints) - n
		if free >= 0 && free < bestFree {
			best, bestFree = s, free
			if free == 0 {
				break
			}
		}
	}
	return best
}

// newSlice is a slice of the Service to create, named by generateName.
func newSlice(svc *api.Service, ports []api.EndpointPort, labels map[string]string) *api.EndpointSlice {
	return &api.EndpointSlice{TypeMeta: api.TypeMeta{APIVersion: "discovery.k8s.io/v1", Kind: "EndpointSlice"},
		ObjectMeta: api.ObjectMeta{GenerateName: svc.Name + "-", Namespace: svc.Namespace, Labels: labels,
			OwnerReferences: []api.OwnerReference{{APIVersion: "v1", Kind: "Service", Name: svc.Name, UID: svc.UID, Controller: true, BlockOwnerDeletion: true}}},
		AddressType: "IPv4", Ports: ports}
}

// copySlice copies a slice's metadata and fields; the caller sets its
// endpoints.
func copySlice(s *api.EndpointSlice) *api.EndpointSlice {
	n := *s
	n.ObjectMeta = s.ObjectMeta.DeepCopy()
	n.Ports = append([]api.EndpointPort(nil), s.Ports...)
	n.Endpoints = nil
	return &n
}

// ownedBy reports whether a slice belongs to this Service (not to an
// earlier Service of the same name).
func ownedBy(s *api.EndpointSlice, svc *api.Service) bool {
	for _, o := range s.OwnerReferences {
		if o.Controller && o.Kind == "Service" && o.UID == svc.UID {
			return true
		}
	}
	return false
}

// isPlaceholder reports whether s is the empty placeholder slice p would
// be: no endpoints, no ports, the same labels and owner.
func isPlaceholder(s, p *api.EndpointSlice) bool {
	return len(s.Endpoints) == 0 && len(s.Ports) == 0 && s.AddressType == p.AddressType &&
		s.Namespace == p.Namespace && sameLabels(s.Labels, p.Labels) &&
		fmt.Sprint(s.OwnerReferences) == fmt.Sprint(p.OwnerReferences)
}
