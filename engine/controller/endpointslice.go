package controller

import (
	"fmt"
	"sort"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/informer"
	"reconcile/engine/store"
)

// Names of the endpoint controllers, as kube-controller-manager names them.
const (
	EndpointSliceController = "endpointslice-controller"
	EndpointsController     = "endpoints-controller"
)

// Labels the EndpointSlice controller puts on the slices it manages.
const (
	ServiceNameLabel = "kubernetes.io/service-name"
	ManagedByLabel   = "endpointslice.kubernetes.io/managed-by"
	managedByValue   = "endpointslice-controller.k8s.io"
)

// EndpointSliceLoop is the EndpointSlice controller.
//
// Desired: one endpoint per pod the Service selects that has an IP, with
// conditions read from the pod (serving = the pod is Ready, terminating =
// the pod is being deleted, ready = serving and not terminating).
// Observed: the Service's slice. Difference: endpoints to add, drop or
// change; the controller writes the slice whole. Traffic to a Service
// follows the slice, not the pods: until this controller has run, a pod
// that stopped being ready still gets requests.
//
// A Service without a selector is not this controller's (its endpoints are
// written by hand, as the kubernetes Service's are by the API server): its
// events are not enqueued. A slice holds at most MaxEndpointsPerSlice
// endpoints; a larger Service gets several, packed as Kubernetes packs
// them (planSlices): a pod's change rewrites the one slice that lists it.
type EndpointSliceLoop struct{}

// NewEndpointSlice returns the EndpointSlice controller.
func NewEndpointSlice() *EndpointSliceLoop { return &EndpointSliceLoop{} }

func (e *EndpointSliceLoop) Name() string      { return EndpointSliceController }
func (e *EndpointSliceLoop) Watches() []string { return []string{"Service", "Pod", "EndpointSlice"} }
func (e *EndpointSliceLoop) Clone() Reconciler { return &EndpointSliceLoop{} }

// Keys maps a Service to itself, a pod to the Services that select it (now
// or before the change), and a slice to its Service.
func (e *EndpointSliceLoop) Keys(c *informer.Cache, ev store.WatchEvent) []string {
	return serviceKeys(c, ev, func(o api.Object) (string, bool) {
		s, ok := o.(*api.EndpointSlice)
		if !ok {
			return "", false
		}
		name, ok := s.Labels[ServiceNameLabel]
		return name, ok && s.Labels[ManagedByLabel] == managedByValue
	})
}

// serviceKeys is the key function both endpoint controllers share; owned
// names the Service an object of the controller's own kind belongs to.
func serviceKeys(c *informer.Cache, ev store.WatchEvent, owned func(api.Object) (string, bool)) []string {
	switch o := ev.Object.(type) {
	case *api.Service:
		if len(o.Spec.Selector) == 0 {
			if old, ok := ev.Old.(*api.Service); !ok || len(old.Spec.Selector) == 0 {
				return nil
			}
		}
		return []string{api.RefOf(o).Key()}
	case *api.Pod:
		var keys []string
		for _, s := range c.List("Service") {
			svc := s.(*api.Service)
			if svc.Namespace != o.Namespace || len(svc.Spec.Selector) == 0 {
				continue
			}
			sel := &api.LabelSelector{MatchLabels: svc.Spec.Selector}
			old, _ := ev.Old.(*api.Pod)
			if sel.Matches(o.Labels) || old != nil && sel.Matches(old.Labels) {
				keys = append(keys, api.RefOf(svc).Key())
			}
		}
		return keys
	default:
		if name, ok := owned(ev.Object); ok {
			return []string{ev.Object.Meta().Namespace + "/" + name}
		}
	}
	return nil
}

// endpointOf is one pod behind a Service, as both controllers read it.
type endpointOf struct {
	pod                         *api.Pod
	ready, serving, terminating bool
}

// selected returns the pods behind svc that have an address, by name,
// and the ports the Service's ports reach on them.
func selected(c *informer.Cache, svc *api.Service) ([]endpointOf, []api.EndpointPort) {
	sel := &api.LabelSelector{MatchLabels: svc.Spec.Selector}
	var out []endpointOf
	for _, o := range c.List("Pod") {
		p := o.(*api.Pod)
		if p.Namespace != svc.Namespace || !sel.Matches(p.Labels) || p.Status.PodIP == "" ||
			p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed {
			continue
		}
		serving := podReady(p)
		terminating := p.DeletionTimestamp != nil
		ready := svc.Spec.PublishNotReadyAddresses || serving && !terminating
		out = append(out, endpointOf{pod: p, ready: ready, serving: serving, terminating: terminating})
	}
	// The cache lists by namespace/name, so the pods of one namespace come
	// sorted already; the check costs a pass over them, a sort more.
	byName := func(i, j int) bool { return out[i].pod.Name < out[j].pod.Name }
	if !sort.SliceIsSorted(out, byName) {
		sort.Slice(out, byName)
	}
	var ports []api.EndpointPort
	if len(out) > 0 {
		for _, sp := range svc.Spec.Ports {
			if port, ok := targetPort(out[0].pod, sp); ok {
				ports = append(ports, api.EndpointPort{Name: sp.Name, Protocol: sp.Protocol, Port: port})
			}
		}
	}
	return out, ports
}

// targetPort resolves a Service port's targetPort on a pod, as
// Kubernetes' FindPort: a number as it is, a name by the container ports
// of the pod's containers and sidecars that have that name and the
// Service port's protocol (a UDP port named dns is no target of a TCP
// Service port).
func targetPort(p *api.Pod, sp api.ServicePort) (int32, bool) {
	if !sp.TargetPort.IsString {
		return sp.TargetPort.Int, true
	}
	proto := ProtocolOf(sp.Protocol)
	if cp, ok := FindContainerPort(p, func(cp api.ContainerPort) bool {
		return cp.Name == sp.TargetPort.Str && ProtocolOf(cp.Protocol) == proto
	}); ok {
		return cp.ContainerPort, true
	}
	return 0, false
}

// FindContainerPort returns the first port declared by the pod's
// containers, then its sidecars, that match accepts.
func FindContainerPort(p *api.Pod, match func(api.ContainerPort) bool) (api.ContainerPort, bool) {
	for kind, list := range [2][]api.Container{p.Spec.Containers, p.Spec.More().InitContainers} {
		for i := range list {
			if kind == 1 && !list[i].IsSidecar() {
				continue
			}
			for _, cp := range list[i].Ports {
				if match(cp) {
					return cp, true
				}
			}
		}
	}
	return api.ContainerPort{}, false
}

// ProtocolOf is a port's protocol, TCP when none is set (the API server's
// default).
func ProtocolOf(p string) string {
	if p == "" {
		return "TCP"
	}
	return p
}

func podReady(p *api.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == "Ready" {
			return c.Status == "True"
		}
	}
	return false
}

func countReady(eps []endpointOf) int {
	n := 0
	for _, e := range eps {
		if e.ready {
			n++
		}
	}
	return n
}

// Reconcile runs one pass for a Service.
func (e *EndpointSliceLoop) Reconcile(ctx *Context, req Request) (Result, error) {
	svc, _ := ctx.Cache.Get("Service", req.Key).(*api.Service)
	if svc == nil {
		ctx.Deleted("Service deleted")
		ctx.Difference = "none: the garbage collector deletes its slices"
		return ctx.NothingToDo(), nil
	}
	var mine []*api.EndpointSlice
	for _, o := range ctx.Cache.List("EndpointSlice") {
		s := o.(*api.EndpointSlice)
		if s.Namespace == svc.Namespace && s.Labels[ServiceNameLabel] == svc.Name && s.Labels[ManagedByLabel] == managedByValue {
			mine = append(mine, s)
		}
	}
	if len(svc.Spec.Selector) == 0 {
		ctx.Desired = "no selector: endpoints are not this controller's"
		ctx.Observed = fmt.Sprintf("%d managed slice(s)", len(mine))
		ctx.Difference = fmt.Sprintf("-%d slice(s)", len(mine))
		for _, s := range mine {
			if err := ctx.Delete("EndpointSlice", s.Namespace, s.Name, false, On(Delete, "endpointslice", s.Name, "")); err != nil {
				return Result{}, err
			}
		}
		return Result{}, nil
	}
	eps, _ := selected(ctx.Cache, svc)
	groups := groupEndpoints(svc, eps)
	ctx.Desired = fmt.Sprintf("%d endpoint(s) of pods matching %s, %d ready", len(eps), selectorString(svc.Spec.Selector), countReady(eps))
	if len(eps) > MaxEndpointsPerSlice {
		ctx.Desired += fmt.Sprintf(", at most %d per slice", MaxEndpointsPerSlice)
	}
	labels := map[string]string{}
	for k, v := range svc.Labels {
		labels[k] = v
	}
	labels[ServiceNameLabel] = svc.Name
	labels[ManagedByLabel] = managedByValue
	ctx.Observed = observedSlices(mine)
	plan := planSlices(svc, mine, groups, labels, MaxEndpointsPerSlice)
	if svc.DeletionTimestamp != nil {
		// Creating slices while the garbage collector deletes them would
		// race it.
		plan.create = nil
	}
	if len(plan.create)+len(plan.update)+len(plan.del) == 0 {
		return ctx.NothingToDo(), nil
	}
	ctx.Difference = planDifference(mine, eps, plan)
	for _, c := range plan.create {
		if _, err := ctx.Create(c, func(o api.Object) Action {
			return On(Create, "endpointslice", o.Meta().Name, "("+sliceSummary(o.(*api.EndpointSlice))+")")
		}); err != nil {
			return Result{}, err
		}
	}
	for _, n := range plan.update {
		if _, err := ctx.Update(n, On(Update, "endpointslice", n.Name, "("+sliceSummary(n)+")")); err != nil {
			return Result{}, err
		}
	}
	for _, d := range plan.del {
		if err := ctx.Delete("EndpointSlice", d.Namespace, d.Name, false, On(Delete, "endpointslice", d.Name, "")); err != nil {
			return Result{}, err
		}
	}
	return Result{Outcome: Acted}, nil
}

// observedSlices says what the Service's slices list: "no slice", "slice
// web-x: 3 endpoint(s), 3 ready" or "3 slices: 250 endpoint(s), 250 ready".
func observedSlices(mine []*api.EndpointSlice) string {
	switch len(mine) {
	case 0:
		return "no slice"
	case 1:
		return fmt.Sprintf("slice %s: %s", mine[0].Name, sliceSummary(mine[0]))
	}
	n, ready, term := 0, 0, 0
	for _, s := range mine {
		n += len(s.Endpoints)
		r, t := countConditions(s)
		ready, term = ready+r, term+t
	}
	return fmt.Sprintf("%d slices: %s", len(mine), summaryText(n, ready, term))
}

// maxNamed is how many endpoint changes a pass's difference names before it
// counts the rest.
const maxNamed = 5

// planDifference says what a plan changes, from the slices it writes
// only (an endpoint never moves between slices): the endpoints added,
// dropped or changed (the first few by name, then a count), the ports,
// and the slices created and deleted.
func planDifference(mine []*api.EndpointSlice, eps []endpointOf, plan slicePlan) string {
	if len(mine) == 0 {
		if n := len(plan.create); n != 1 {
			return fmt.Sprintf("+%d slices with %d endpoint(s)", n, len(eps))
		}
		return fmt.Sprintf("+1 slice with %d endpoint(s)", len(eps))
	}
	before := map[string]*api.EndpointSlice{}
	for _, s := range mine {
		before[s.Name] = s
	}
	var parts []string
	ports := false
	diff := func(have, want *api.EndpointSlice) {
		for _, p := range sliceDiffParts(have, want) {
			if p == "ports" {
				ports = true
			} else {
				parts = append(parts, p)
			}
		}
	}
	none := &api.EndpointSlice{}
	for _, c := range plan.create {
		diff(none, c)
	}
	for _, u := range plan.update {
		if old := before[u.Name]; old != nil {
			diff(old, u)
		} else {
			diff(none, u)
		}
	}
	for _, d := range plan.del {
		diff(d, none)
	}
	if len(parts) > maxNamed {
		parts = append(parts[:maxNamed:maxNamed], fmt.Sprintf("and %d more", len(parts)-maxNamed))
	}
	if ports {
		parts = append(parts, "ports")
	}
	if len(plan.create) > 0 {
		parts = append(parts, fmt.Sprintf("+%d slice(s)", len(plan.create)))
	}
	if len(plan.del) > 0 {
		parts = append(parts, fmt.Sprintf("-%d slice(s)", len(plan.del)))
	}
	if len(parts) == 0 {
		return "labels"
	}
	return strings.Join(parts, ", ")
}

func sameLabels(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func selectorString(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for i, k := range keys {
		keys[i] = k + "=" + m[k]
	}
	return strings.Join(keys, ",")
}

// sliceSummary says what a slice lists: "3 endpoints, 2 ready, 1 terminating".
func sliceSummary(s *api.EndpointSlice) string {
	ready, term := countConditions(s)
	return summaryText(len(s.Endpoints), ready, term)
}

func countConditions(s *api.EndpointSlice) (ready, terminating int) {
	for _, e := range s.Endpoints {
		if e.Conditions.Ready != nil && *e.Conditions.Ready {
			ready++
		}
		if e.Conditions.Terminating != nil && *e.Conditions.Terminating {
			terminating++
		}
	}
	return ready, terminating
}

func summaryText(n, ready, term int) string {
	out := fmt.Sprintf("%d endpoint(s), %d ready", n, ready)
	if term > 0 {
		out += fmt.Sprintf(", %d terminating", term)
	}
	return out
}

func endpointKey(e api.Endpoint) string {
	if e.TargetRef != nil {
		return e.TargetRef.Name
	}
	return strings.Join(e.Addresses, ",")
}

func condText(e api.Endpoint) string {
	b := func(p *bool) bool { return p != nil && *p }
	switch {
	case b(e.Conditions.Terminating):
		return "terminating"
	case b(e.Conditions.Ready):
		return "ready"
	}
	return "not ready"
}

// sliceDiffParts names what changes from have to want: endpoints added,
// dropped, or whose conditions or address changed, and ports.
func sliceDiffParts(have, want *api.EndpointSlice) []string {
	old := map[string]api.Endpoint{}
	for _, e := range have.Endpoints {
		old[endpointKey(e)] = e
	}
	var parts []string
	seen := map[string]bool{}
	for _, e := range want.Endpoints {
		k := endpointKey(e)
		seen[k] = true
		o, ok := old[k]
		switch {
		case !ok:
			parts = append(parts, "+"+k+" ("+condText(e)+")")
		case condText(o) != condText(e) || strings.Join(o.Addresses, ",") != strings.Join(e.Addresses, ",") ||
			fmt.Sprint(o.Conditions.Serving != nil && *o.Conditions.Serving) != fmt.Sprint(e.Conditions.Serving != nil && *e.Conditions.Serving) ||
			o.NodeName != e.NodeName:
			parts = append(parts, k+" "+condText(o)+" → "+condText(e))
		}
	}
	for _, e := range have.Endpoints {
		if k := endpointKey(e); !seen[k] {
			parts = append(parts, "-"+k)
		}
	}
	if fmt.Sprint(have.Ports) != fmt.Sprint(want.Ports) {
		parts = append(parts, "ports")
	}
	return parts
}
