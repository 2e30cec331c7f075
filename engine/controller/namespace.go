package controller

import (
	"fmt"
	"sort"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/informer"
	"reconcile/engine/store"
)

// NamespaceController is the component that empties deleted namespaces.
const NamespaceController = "namespace-controller"

// NamespaceDeletionGracePeriod is how long the namespace controller waits
// after a namespace's deletion before it empties it, so that the creates
// already on their way finish (Kubernetes' namespaceDeletionGracePeriod).
const NamespaceDeletionGracePeriod = 5 * api.Second

// LiveReader is the part of the World that reads the API server directly,
// as the namespace controller does (it lists every resource through the
// API, not through informers).
type LiveReader interface {
	// LiveKinds returns the kinds with objects stored, sorted.
	LiveKinds() []string
	// LiveList returns the stored objects of kind, by namespace and name.
	LiveList(kind string) []api.Object
}

// NamespaceLoop is the namespace controller.
//
// Desired: a namespace being deleted (phase Terminating) holds nothing.
// Observed: what the API server still stores in it. Difference: delete
// every object left, wait for those that terminate gracefully (pods), and
// once it is empty remove the namespace's "kubernetes" finalizer, which
// lets the API server remove it.
type NamespaceLoop struct{}

// NewNamespace returns the namespace controller.
func NewNamespace() *NamespaceLoop { return &NamespaceLoop{} }

func (n *NamespaceLoop) Name() string      { return NamespaceController }
func (n *NamespaceLoop) Watches() []string { return []string{"Namespace"} }
func (n *NamespaceLoop) Clone() Reconciler { return &NamespaceLoop{} }

// Keys maps a namespace to its name.
func (n *NamespaceLoop) Keys(c *informer.Cache, ev store.WatchEvent) []string {
	if ns, ok := ev.Object.(*api.Namespace); ok && ev.Type != store.Deleted && ns.DeletionTimestamp != nil {
		return []string{ns.Name}
	}
	return nil
}

// Reconcile runs one pass for a namespace.
func (n *NamespaceLoop) Reconcile(ctx *Context, req Request) (Result, error) {
	ns, _ := ctx.Cache.Get("Namespace", req.Key).(*api.Namespace)
	if ns == nil {
		ctx.Deleted("namespace gone")
		return ctx.NothingToDo(), nil
	}
	if ns.DeletionTimestamp == nil {
		ctx.Desired, ctx.Observed = "namespace not being deleted", "phase "+ns.Status.Phase
		return ctx.NothingToDo(), nil
	}
	if start := *ns.DeletionTimestamp + NamespaceDeletionGracePeriod; ctx.Now < start {
		ctx.Desired, ctx.Observed = fmt.Sprintf("namespace %s empty, then gone", ns.Name), "Terminating"
		ctx.Difference = "not yet: creates already under way finish first"
		return Result{Outcome: Blocked, Why: "deletion grace period", RequeueAfter: start - ctx.Now, RequeueReason: "namespace deletion grace period"}, nil
	}
	live, ok := ctx.World.(LiveReader)
	if !ok {
		return Result{}, Terminal(fmt.Errorf("the namespace controller needs to list the API server"))
	}
	ctx.Desired = fmt.Sprintf("namespace %s empty, then gone", ns.Name)
	// Delete what is left, kind by kind (an owner's deletion takes its
	// dependents with it), events last: they tell what happened.
	var left []string
	count := map[string]int{}
	var wait api.Duration
	kinds := live.LiveKinds()
	sort.SliceStable(kinds, func(i, j int) bool { return kinds[j] == "Event" && kinds[i] != "Event" })
	for _, kind := range kinds {
		k, _ := api.KindOf(kind)
		if !k.Namespaced || kind == "Event" && len(left) > 0 {
			continue
		}
		events := 0
		for _, o := range live.LiveList(kind) {
			m := o.Meta()
			if m.Namespace != ns.Name {
				continue
			}
			if kind == "Event" {
				// Events go in one action: they are many, and alike.
				if _, err := ctx.API.Delete(kind, m.Namespace, m.Name, true); err == nil {
					events++
				}
				continue
			}
			if m.DeletionTimestamp == nil {
				err := ctx.Delete(kind, m.Namespace, m.Name, false, Do(Delete, api.LowerKind(kind)+"/"+m.Name))
				if err == ErrCrashed {
					return Result{}, err
				}
			}
		}
		if events > 0 {
			ctx.Note(Do(Delete, fmt.Sprintf("%d events", events)))
		}
		// What is still stored after the deletes: pods terminating.
		for _, o := range live.LiveList(kind) {
			m := o.Meta()
			if m.Namespace != ns.Name || kind == "Event" {
				continue
			}
			if count[k.GroupResource()] == 0 {
				left = append(left, k.GroupResource())
			}
			count[k.GroupResource()]++
			if _, ok := o.(*api.Pod); ok && m.DeletionTimestamp != nil {
				// its deletionTimestamp is the end of its grace period
				remaining := api.Duration(*m.DeletionTimestamp) - api.Duration(ctx.Now)
				wait = max(wait, remaining)
			}
		}
	}
	var parts []string
	for _, gr := range left {
		parts = append(parts, fmt.Sprintf("%s has %d resource instances", gr, count[gr]))
	}
	st := namespaceConditions(ns, ctx.Now, parts)
	if len(parts) > 0 {
		ctx.Observed = "remaining: " + strings.Join(parts, ", ")
		ctx.Difference = "content to remove"
		if !conditionsEqual(ns.Status.Conditions, st) {
			upd := ns.DeepCopy()
			upd.Status.Conditions = st
			if _, err := ctx.UpdateStatus(upd, Action{}); err != nil {
				return Result{}, err
			}
		}
		wait = max(wait, api.Second)
		wait = (wait + api.Second - 1) / api.Second * api.Second
		return Result{Outcome: Blocked, Why: "waiting for content to go: " + strings.Join(parts, ", "),
			RequeueAfter: wait, RequeueReason: "estimate of graceful termination"}, nil
	}
	ctx.Observed = "namespace empty"
	ctx.Difference = "finalizer kubernetes to remove"
	upd := ns.DeepCopy()
	upd.Status.Conditions = st
	upd.Spec.Finalizers = nil
	// The finalize write removes the namespace itself: no new version to
	// compare, so the action is recorded here.
	if _, err := ctx.API.UpdateStatus(upd); err != nil {
		ctx.Note(Action{Verb: Remove, Rest: "finalizer kubernetes", Refused: err.Error()})
		return Result{}, err
	}
	ctx.Note(Do(Remove, "finalizer kubernetes: the API server removes namespace "+ns.Name))
	return Result{Outcome: Acted}, nil
}

// namespaceConditions are the namespace controller's five deletion
// conditions; remaining lists the content left ("pods has 2 resource
// instances").
func namespaceConditions(ns *api.Namespace, now api.Time, remaining []string) []api.NamespaceCondition {
	content := api.NamespaceCondition{Type: "NamespaceContentRemaining", Status: "False", Reason: "ContentRemoved", Message: "All content successfully removed"}
	if len(remaining) > 0 {
		content = api.NamespaceCondition{Type: "NamespaceContentRemaining", Status: "True", Reason: "SomeResourcesRemain",
			Message: "Some resources are remaining: " + strings.Join(remaining, ", ")}
	}
	want := []api.NamespaceCondition{
		{Type: "NamespaceDeletionDiscoveryFailure", Status: "False", Reason: "ResourcesDiscovered", Message: "All resources successfully discovered"},
		{Type: "NamespaceDeletionGroupVersionParsingFailure", Status: "False", Reason: "ParsedGroupVersions", Message: "All legacy kube types successfully parsed"},
		{Type: "NamespaceDeletionContentFailure", Status: "False", Reason: "ContentDeleted", Message: "All content successfully deleted, may be waiting on finalization"},
		content,
		{Type: "NamespaceFinalizersRemaining", Status: "False", Reason: "ContentHasNoFinalizers", Message: "All content-preserving finalizers finished"},
	}
	for i := range want {
		want[i].LastTransitionTime = now
		for _, c := range ns.Status.Conditions {
			if c.Type == want[i].Type && c.Status == want[i].Status {
				want[i].LastTransitionTime = c.LastTransitionTime
			}
		}
	}
	return want
}

func conditionsEqual(a, b []api.NamespaceCondition) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
