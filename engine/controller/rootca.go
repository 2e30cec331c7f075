package controller

import (
	"reconcile/engine/api"
	"reconcile/engine/informer"
	"reconcile/engine/store"
)

// RootCAPublisher is the component that publishes the cluster's CA in
// every namespace.
const RootCAPublisher = "root-ca-certificate-publisher-controller"

// RootCALoop is the root-ca-certificate-publisher
// (pkg/controller/certificates/rootcacertpublisher, publisher.go).
//
// Desired: every Active namespace holds the ConfigMap "kube-root-ca.crt"
// whose data is the cluster's CA under ca.crt, with a description
// annotation. Observed: the informer's copy. Difference: create it when
// it is missing; put its data (and annotation) back when they changed. A
// namespace being deleted gets nothing new.
//
// Its keys are namespaces. Kubernetes queues every namespace added or
// updated while Active, and the namespace of every kube-root-ca.crt
// updated or deleted; here those whose ConfigMap the cache holds as
// published are not queued: their pass would find nothing to do.
type RootCALoop struct{}

// NewRootCA returns the root-ca-certificate-publisher.
func NewRootCA() *RootCALoop { return &RootCALoop{} }

func (r *RootCALoop) Name() string { return RootCAPublisher }

// Watches lists ConfigMaps first, so that the namespaces listed at start
// find theirs in the cache.
func (r *RootCALoop) Watches() []string { return []string{"ConfigMap", "Namespace"} }
func (r *RootCALoop) Clone() Reconciler { return &RootCALoop{} }

// Keys maps an Active namespace without its kube-root-ca.crt as
// published, and the deletion or change of one, to the namespace.
func (r *RootCALoop) Keys(c *informer.Cache, ev store.WatchEvent) []string {
	return namespaceLacks(c, ev, "ConfigMap", store.RootCAConfigMap, published, true)
}

func published(o api.Object) bool {
	cm, ok := o.(*api.Unstructured)
	return ok && store.RootCAPublished(cm)
}

// Reconcile runs one pass for a namespace.
func (r *RootCALoop) Reconcile(ctx *Context, req Request) (Result, error) {
	ns, ok := activeNamespace(ctx, req.Key)
	if !ok {
		return ctx.NothingToDo(), nil
	}
	want := "configmap " + store.RootCAConfigMap
	ctx.holds(ns, want)
	have, _ := ctx.Cache.Get("ConfigMap", ns+"/"+store.RootCAConfigMap).(*api.Unstructured)
	switch {
	case have == nil:
		ctx.Observed, ctx.ObservedFact = "no "+want, Fact{Is: Missing, Name: want}
		ctx.Difference, ctx.DifferenceFact = want+" to create", Fact{Is: ToCreate, Name: want}
		_, err := ctx.Create(store.NewRootCAConfigMap(ns), func(o api.Object) Action {
			return On(Create, "configmap", o.Meta().Name, "")
		})
		return createdInNamespace(err)
	case store.RootCAPublished(have):
		ctx.Observed, ctx.ObservedFact = want+" holds the cluster's CA", Fact{Is: Present, Name: want}
		return ctx.NothingToDo(), nil
	}
	what := "data"
	if len(have.Data) == 1 && have.Data[store.RootCAKey] == store.ClusterCA {
		what = "description"
	}
	ctx.Observed, ctx.ObservedFact = want+" changed: its "+what, Fact{Is: Altered, Name: what}
	ctx.Difference, ctx.DifferenceFact = "its "+what+" to restore", Fact{Is: ToRestore, Name: what}
	// A copy: the cache's object is never written.
	upd := have.DeepCopy()
	upd.Data = store.NewRootCAConfigMap(ns).Data
	if upd.Annotations == nil {
		upd.Annotations = map[string]string{}
	}
	upd.Annotations[store.DescriptionAnnotation] = store.RootCADescription
	if _, err := ctx.Update(upd, On(Update, "configmap", upd.Name, "")); err != nil {
		return Result{}, err
	}
	return Result{Outcome: Acted}, nil
}
