package controller

import (
	"errors"

	"reconcile/engine/api"
	"reconcile/engine/informer"
	"reconcile/engine/store"
)

// ServiceAccountController is the component that gives every namespace its
// ServiceAccount "default".
const ServiceAccountController = "serviceaccount-controller"

// ServiceAccountLoop is the serviceaccount-controller
// (pkg/controller/serviceaccount, serviceaccounts_controller.go).
//
// Desired: every Active namespace holds the ServiceAccount "default".
// Observed: whether the informer's cache has it. Difference: create it
// when it is missing. A namespace being deleted gets nothing new.
//
// Its keys are namespaces. Kubernetes queues every namespace added or
// updated while Active, and the namespace of every ServiceAccount deleted;
// here a namespace whose account the cache already holds is not queued:
// its pass would find nothing to do.
type ServiceAccountLoop struct{}

// NewServiceAccount returns the serviceaccount-controller.
func NewServiceAccount() *ServiceAccountLoop { return &ServiceAccountLoop{} }

func (s *ServiceAccountLoop) Name() string { return ServiceAccountController }

// Watches lists ServiceAccounts first, so that the namespaces listed at
// start find their accounts in the cache.
func (s *ServiceAccountLoop) Watches() []string { return []string{"ServiceAccount", "Namespace"} }
func (s *ServiceAccountLoop) Clone() Reconciler { return &ServiceAccountLoop{} }

// Keys maps an Active namespace without its account, and the deletion of
// an account "default", to the namespace.
func (s *ServiceAccountLoop) Keys(c *informer.Cache, ev store.WatchEvent) []string {
	return namespaceLacks(c, ev, "ServiceAccount", store.DefaultServiceAccount, func(api.Object) bool { return true }, false)
}

// Reconcile runs one pass for a namespace.
func (s *ServiceAccountLoop) Reconcile(ctx *Context, req Request) (Result, error) {
	ns, ok := activeNamespace(ctx, req.Key)
	if !ok {
		return ctx.NothingToDo(), nil
	}
	want := "serviceaccount " + store.DefaultServiceAccount
	ctx.holds(ns, want)
	if ctx.Cache.Get("ServiceAccount", ns+"/"+store.DefaultServiceAccount) != nil {
		ctx.Observed, ctx.ObservedFact = want+" present", Fact{Is: Present, Name: want}
		return ctx.NothingToDo(), nil
	}
	ctx.Observed, ctx.ObservedFact = "no "+want, Fact{Is: Missing, Name: want}
	ctx.Difference, ctx.DifferenceFact = want+" to create", Fact{Is: ToCreate, Name: want}
	_, err := ctx.Create(store.NewDefaultServiceAccount(ns), func(o api.Object) Action {
		return On(Create, "serviceaccount", o.Meta().Name, "")
	})
	return createdInNamespace(err)
}

// namespaceLacks is the event handler of a controller that keeps the
// object kind/name in every Active namespace: it queues the namespace of
// a namespace event when the cache's copy of the object is missing or not
// good, and of the object's deletion (and, with updates, of its change to
// one not good) while the namespace is Active.
func namespaceLacks(c *informer.Cache, ev store.WatchEvent, kind, name string, good func(api.Object) bool, updates bool) []string {
	ns := ""
	switch o := ev.Object.(type) {
	case *api.Namespace:
		if ev.Type == store.Deleted {
			return nil
		}
		if have := c.Get(kind, o.Name+"/"+name); have != nil && good(have) {
			return nil
		}
		ns = o.Name
	case *api.Unstructured:
		if o.Kind != kind || o.Name != name {
			return nil
		}
		if ev.Type != store.Deleted && !(updates && ev.Type == store.Modified && !good(o)) {
			return nil
		}
		ns = o.Namespace
	default:
		return nil
	}
	if n, _ := c.Get("Namespace", ns).(*api.Namespace); n == nil || n.Status.Phase != api.NamespaceActive {
		return nil
	}
	return []string{ns}
}

// activeNamespace reads the namespace of a pass from the cache. A gone or
// Terminating one is reported (nothing is created in it) and not ok.
func activeNamespace(ctx *Context, name string) (string, bool) {
	ns, _ := ctx.Cache.Get("Namespace", name).(*api.Namespace)
	switch {
	case ns == nil:
		ctx.Deleted("namespace gone")
		return "", false
	case ns.Status.Phase != api.NamespaceActive:
		ctx.Desired, ctx.DesiredFact = "nothing new in namespace "+name+": it is being deleted", Fact{Is: NamespaceTerminating}
		ctx.Observed = "phase " + ns.Status.Phase
		return "", false
	}
	return ns.Name, true
}

// holds states a pass's desired: namespace ns holds want ("serviceaccount
// default").
func (ctx *Context) holds(ns, want string) {
	ctx.Desired, ctx.DesiredFact = want+" in namespace "+ns, Fact{Is: NamespaceHolds, Name: want}
}

// createdInNamespace ends a pass that created an object in a namespace:
// as in Kubernetes, finding it there already, or the namespace being
// deleted (the Forbidden of NamespaceLifecycle, the one Forbidden these
// creates meet here), is no failure.
func createdInNamespace(err error) (Result, error) {
	var se *store.StatusError
	if err != nil && !errors.Is(err, store.ErrExists) && !(errors.As(err, &se) && se.Reason == "Forbidden") {
		return Result{}, err
	}
	return Result{Outcome: Acted}, nil
}
