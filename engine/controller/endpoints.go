package controller

import (
	"fmt"
	"reflect"

	"reconcile/engine/api"
	"reconcile/engine/informer"
	"reconcile/engine/store"
)

// EndpointsLoop is the endpoints controller, which keeps the legacy v1
// Endpoints object of each Service (deprecated since v1.33; still written
// and served in v1.34).
//
// Desired: one subset listing the addresses of the Service's ready pods,
// and of its unready ones under notReadyAddresses; pods being deleted are
// left out. Past 1,000 addresses the list is truncated, ready ones kept
// first, and annotated endpoints.kubernetes.io/over-capacity: truncated. Observed: the Endpoints object named after the Service.
// Difference: create, rewrite or delete it.
type EndpointsLoop struct{}

// NewEndpoints returns the endpoints controller.
func NewEndpoints() *EndpointsLoop { return &EndpointsLoop{} }

func (e *EndpointsLoop) Name() string      { return EndpointsController }
func (e *EndpointsLoop) Watches() []string { return []string{"Service", "Pod", "Endpoints"} }
func (e *EndpointsLoop) Clone() Reconciler { return &EndpointsLoop{} }

// Keys maps a Service to itself, a pod to the Services that select it, and
// an Endpoints object to the Service of its name.
func (e *EndpointsLoop) Keys(c *informer.Cache, ev store.WatchEvent) []string {
	return serviceKeys(c, ev, func(o api.Object) (string, bool) {
		ep, ok := o.(*api.Endpoints)
		if !ok {
			return "", false
		}
		svc, _ := c.Get("Service", ep.Namespace+"/"+ep.Name).(*api.Service)
		return ep.Name, svc != nil && len(svc.Spec.Selector) > 0
	})
}

// Reconcile runs one pass for a Service.
func (e *EndpointsLoop) Reconcile(ctx *Context, req Request) (Result, error) {
	svc, _ := ctx.Cache.Get("Service", req.Key).(*api.Service)
	have, _ := ctx.Cache.Get("Endpoints", req.Key).(*api.Endpoints)
	if svc == nil || len(svc.Spec.Selector) == 0 {
		ctx.Desired = "no Endpoints (the Service is gone or has no selector)"
		if have == nil {
			ctx.Observed = "none"
			return ctx.NothingToDo(), nil
		}
		ctx.Observed, ctx.Difference = "endpoints "+have.Name, "-1"
		if err := ctx.Delete("Endpoints", have.Namespace, have.Name, false, On(Delete, "endpoints", have.Name, "")); err != nil {
			return Result{}, err
		}
		return Result{}, nil
	}
	eps, ports := selected(ctx.Cache, svc)
	// Addresses past the capacity are counted, not built: the object
	// keeps at most MaxEndpointsAddresses (markCapacity cuts the extra one
	// of each kind built here, and sees that it has to).
	var sub api.EndpointSubset
	ready, notReady := 0, 0
	for _, ep := range eps {
		if ep.terminating && !svc.Spec.PublishNotReadyAddresses {
			continue
		}
		list := &sub.NotReadyAddresses
		if ep.ready {
			list, ready = &sub.Addresses, ready+1
		} else {
			notReady++
		}
		if len(*list) > MaxEndpointsAddresses {
			continue
		}
		p := ep.pod
		*list = append(*list, api.EndpointAddress{IP: p.Status.PodIP, NodeName: p.Spec.NodeName,
			TargetRef: &api.ObjectReference{Kind: "Pod", Namespace: p.Namespace, Name: p.Name, UID: p.UID}})
	}
	var subsets []api.EndpointSubset
	if len(sub.Addresses)+len(sub.NotReadyAddresses) > 0 && len(ports) > 0 {
		sub.Ports = ports
		subsets = []api.EndpointSubset{sub}
	}
	ctx.Desired = fmt.Sprintf("%d ready and %d not-ready address(es)", ready, notReady)
	if ready+notReady > MaxEndpointsAddresses {
		ctx.Desired += fmt.Sprintf(", truncated to %d (annotation %s)", MaxEndpointsAddresses, OverCapacityAnnotation)
	}
	labels := map[string]string{}
	for k, v := range svc.Labels {
		labels[k] = v
	}
	if have == nil {
		ctx.Observed, ctx.Difference = "no Endpoints", "+1"
		n := &api.Endpoints{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Endpoints"},
			ObjectMeta: api.ObjectMeta{Name: svc.Name, Namespace: svc.Namespace, Labels: labels}, Subsets: subsets}
		markCapacity(n)
		if _, err := ctx.Create(n, func(o api.Object) Action { return On(Create, "endpoints", o.Meta().Name, "") }); err != nil {
			return Result{}, err
		}
		return Result{Outcome: Acted}, nil
	}
	r, nr := countAddresses(have)
	ctx.Observed = fmt.Sprintf("%d ready and %d not-ready address(es)", r, nr)
	cp := *have // its subsets are replaced, not copied
	cp.ObjectMeta = have.ObjectMeta.DeepCopy()
	n := &cp
	n.Subsets, n.Labels = subsets, labels
	if len(n.Labels) == 0 {
		n.Labels = nil
	}
	markCapacity(n)
	if reflect.DeepEqual(n.Subsets, have.Subsets) && reflect.DeepEqual(n.Labels, have.Labels) &&
		reflect.DeepEqual(n.Annotations, have.Annotations) {
		return ctx.NothingToDo(), nil
	}
	r2, nr2 := countAddresses(n)
	ctx.Difference = fmt.Sprintf("%+d ready, %+d not ready", r2-r, nr2-nr)
	if _, err := ctx.Update(n, On(Update, "endpoints", n.Name, "")); err != nil {
		return Result{}, err
	}
	return Result{Outcome: Acted}, nil
}
