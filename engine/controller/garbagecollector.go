package controller

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/informer"
	"reconcile/engine/store"
	"reconcile/engine/validation"
)

// GarbageCollectorController is the garbage collector's name in
// kube-controller-manager.
const GarbageCollectorController = "garbage-collector-controller"

// GarbageCollector is the garbage collector: it keeps ownerReferences
// true.
//
// Desired: every dependent has an owner that exists (an object whose
// ownerReferences all name objects that are gone goes too), an owner
// deleted in the foreground goes only after the dependents that block it,
// and an owner deleted with the orphan policy leaves its dependents
// behind, without their references to it. Observed: the objects and their
// ownerReferences, from its cache (an owner missing from the cache is
// looked up live before a dependent is deleted for it). Difference: delete
// the dependents of an owner that is gone (background) or going
// (foreground), take the references off the dependents of an orphaning
// owner, and remove the foregroundDeletion or orphan finalizer once that is
// done, which lets the owner go.
//
// A key is "Kind/namespace/name" of one object. The collector watches the
// kinds that own and are owned here: Deployments, DaemonSets, StatefulSets,
// CronJobs, Services, ReplicaSets, Jobs, pods, EndpointSlices and
// ControllerRevisions.
type GarbageCollector struct{}

// NewGarbageCollector returns the garbage collector.
func NewGarbageCollector() *GarbageCollector { return &GarbageCollector{} }

func (g *GarbageCollector) Name() string      { return GarbageCollectorController }
func (g *GarbageCollector) Clone() Reconciler { return &GarbageCollector{} }

// Watches lists owners before dependents, so that a relisted cache knows
// an owner before it meets its dependents.
func (g *GarbageCollector) Watches() []string {
	return []string{"Deployment", "DaemonSet", "StatefulSet", "CronJob", "Service", "ReplicaSet", "Job", "Pod", "EndpointSlice", "ControllerRevision"}
}

// gcKey is the collector's key of an object.
func gcKey(o api.Object) string {
	r := api.RefOf(o)
	return r.Kind + "/" + r.Key()
}

// Object names the object of a key.
func (g *GarbageCollector) Object(key string) api.Ref {
	kind, rest, _ := strings.Cut(key, "/")
	if ns, name, ok := strings.Cut(rest, "/"); ok {
		return api.Ref{Kind: kind, Namespace: ns, Name: name}
	}
	return api.Ref{Kind: kind, Name: rest}
}

// Keys asks for a pass of an object when there is something to collect: it
// is deleted with the orphan or foreground policy (and, in the foreground,
// its dependents, which must go first), one of its owners is not in the
// cache or is waiting for its dependents, or it is gone and leaves
// dependents, or it no longer blocks an owner that waits.
func (g *GarbageCollector) Keys(c *informer.Cache, ev store.WatchEvent) []string {
	o := ev.Object
	m := o.Meta()
	var keys []string
	if ev.Type == store.Deleted {
		keys = append(keys, dependentKeys(c, o)...)
		keys = append(keys, waitingOwners(c, m)...)
		return unique(keys)
	}
	// Deleted with the collector's finalizer, newly (or on a resync): its
	// own pass, and in the foreground its dependents', which go first.
	if f := collecting(m); f != "" && (ev.Old == nil || ev.Old == o || collecting(ev.Old.Meta()) != f) {
		keys = append(keys, gcKey(o))
		if f == validation.FinalizerForeground {
			keys = append(keys, dependentKeys(c, o)...)
		}
	}
	// Its owners are looked at when its references are new to the cache
	// (an object added, references changed, a resync): the deletion of an
	// owner brings its dependents in by itself.
	if ev.Old == nil || ev.Old == o || !slices.Equal(ev.Old.Meta().OwnerReferences, m.OwnerReferences) {
		for _, ref := range m.OwnerReferences {
			owner := cachedOwner(c, m.Namespace, ref)
			if owner == nil || collecting(owner.Meta()) == validation.FinalizerForeground {
				keys = append(keys, gcKey(o))
				break
			}
		}
	}
	if old := ev.Old; old != nil && old != o && !slices.Equal(old.Meta().OwnerReferences, m.OwnerReferences) {
		keys = append(keys, waitingOwners(c, old.Meta())...) // a reference dropped or unblocked
	}
	return unique(keys)
}

// collecting returns the collector's finalizer on an object being deleted
// (orphan first, as the collector handles it first), or "".
func collecting(m *api.ObjectMeta) string {
	if m.DeletionTimestamp == nil {
		return ""
	}
	for _, f := range []string{validation.FinalizerOrphan, validation.FinalizerForeground} {
		if slices.Contains(m.Finalizers, f) {
			return f
		}
	}
	return ""
}

// cachedOwner returns the cached object a reference names, if its UID is
// the reference's.
func cachedOwner(c *informer.Cache, namespace string, ref api.OwnerReference) api.Object {
	k := ref.Name
	if kind, _ := api.KindOf(ref.Kind); kind.Namespaced {
		k = namespace + "/" + ref.Name
	}
	if o := c.Get(ref.Kind, k); o != nil && o.Meta().UID == ref.UID {
		return o
	}
	return nil
}

// waitingOwners returns the keys of the cached owners m refers to that are
// waiting for their dependents to go.
func waitingOwners(c *informer.Cache, m *api.ObjectMeta) []string {
	var keys []string
	for _, ref := range m.OwnerReferences {
		if owner := cachedOwner(c, m.Namespace, ref); owner != nil && collecting(owner.Meta()) == validation.FinalizerForeground {
			keys = append(keys, gcKey(owner))
		}
	}
	return keys
}

// dependents returns the cached objects with a reference to owner, by kind
// in watch order, then by key. Pods own nothing here: a pod has no
// dependents to look for.
func dependents(c *informer.Cache, owner api.Object) []api.Object {
	if _, ok := owner.(*api.Pod); ok {
		return nil
	}
	om := owner.Meta()
	var out []api.Object
	for _, kind := range (&GarbageCollector{}).Watches() {
		for _, o := range c.List(kind) {
			if o.Meta().Namespace != om.Namespace && om.Namespace != "" {
				continue
			}
			if refTo(o.Meta(), om.UID) != nil {
				out = append(out, o)
			}
		}
	}
	return out
}

func dependentKeys(c *informer.Cache, owner api.Object) []string {
	var keys []string
	for _, d := range dependents(c, owner) {
		keys = append(keys, gcKey(d))
	}
	return keys
}

// refTo returns m's reference to the owner with uid, or nil.
func refTo(m *api.ObjectMeta, uid string) *api.OwnerReference {
	for i := range m.OwnerReferences {
		if m.OwnerReferences[i].UID == uid {
			return &m.OwnerReferences[i]
		}
	}
	return nil
}

func unique(keys []string) []string {
	var out []string
	for _, k := range keys {
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// describeRef names an owner or dependent as kubectl does: "replicaset/web-6d4f".
func describeRef(kind, name string) string { return api.LowerKind(kind) + "/" + name }

// Reconcile runs one pass for an object.
func (g *GarbageCollector) Reconcile(ctx *Context, req Request) (Result, error) {
	ref := g.Object(req.Key)
	k := ref.Key()
	o := ctx.Cache.Get(ref.Kind, k)
	if o == nil {
		ctx.Desired, ctx.Observed = "-", describeRef(ref.Kind, ref.Name)+" is gone"
		return ctx.NothingToDo(), nil
	}
	switch collecting(o.Meta()) {
	case validation.FinalizerOrphan:
		return g.orphan(ctx, o)
	case validation.FinalizerForeground:
		return g.foreground(ctx, o)
	}
	return g.collect(ctx, o)
}

// orphan takes owner's references off its dependents, then its orphan
// finalizer off owner.
func (g *GarbageCollector) orphan(ctx *Context, owner api.Object) (Result, error) {
	om := owner.Meta()
	name := describeRef(kindName(owner))
	deps := dependents(ctx.Cache, owner)
	ctx.Desired = name + " deleted, its dependents left behind (propagationPolicy Orphan)"
	ctx.Observed = dependentsText(len(deps)) + " with a reference to it"
	ctx.Difference = "take the references off " + dependentsText(len(deps)) + ", then the orphan finalizer off it"
	for _, d := range deps {
		act := Do(Remove, fmt.Sprintf("the ownerReference to %s from %s", name, describeRef(kindName(d))))
		if err := patchMeta(ctx, d, act, func(m *api.ObjectMeta) {
			m.OwnerReferences = slices.DeleteFunc(m.OwnerReferences, func(r api.OwnerReference) bool { return r.UID == om.UID })
		}); err != nil {
			return Result{}, err
		}
	}
	return g.removeFinalizer(ctx, owner, validation.FinalizerOrphan)
}

// foreground deletes owner's dependents and removes its foregroundDeletion
// finalizer once no dependent that blocks it is left.
func (g *GarbageCollector) foreground(ctx *Context, owner api.Object) (Result, error) {
	om := owner.Meta()
	name := describeRef(kindName(owner))
	var blocking []string
	for _, d := range dependents(ctx.Cache, owner) {
		if r := refTo(d.Meta(), om.UID); r.BlockOwnerDeletion {
			blocking = append(blocking, describeRef(kindName(d)))
		}
	}
	ctx.Desired = name + " deleted after its dependents (propagationPolicy Foreground)"
	if len(blocking) > 0 {
		verb := "block"
		if len(blocking) == 1 {
			verb = "blocks"
		}
		ctx.Observed = fmt.Sprintf("%s %s its deletion: %s", dependentsText(len(blocking)), verb, strings.Join(blocking, ", "))
		ctx.Difference = "wait for them to go"
		return Result{Outcome: Blocked, Why: "waiting for " + dependentsText(len(blocking)) + " to be deleted"}, nil
	}
	ctx.Observed = "no dependent blocks its deletion"
	ctx.Difference = "remove the foregroundDeletion finalizer"
	return g.removeFinalizer(ctx, owner, validation.FinalizerForeground)
}

func (g *GarbageCollector) removeFinalizer(ctx *Context, o api.Object, finalizer string) (Result, error) {
	text := fmt.Sprintf("finalizer %s from %s", finalizer, describeRef(kindName(o)))
	if len(o.Meta().Finalizers) == 1 {
		text += " (nothing holds it now: it goes)"
	}
	err := patchMeta(ctx, o, Do(Remove, text), func(m *api.ObjectMeta) {
		m.Finalizers = slices.DeleteFunc(m.Finalizers, func(f string) bool { return f == finalizer })
	})
	if err != nil {
		return Result{}, err
	}
	return Result{Outcome: Acted}, nil
}

// patchMeta changes the metadata of o as a patch does: applied to the
// object as it is now (a live read), if it is still the same object (its
// UID), with no write when the change changes nothing. An object gone
// meanwhile needs nothing more.
func patchMeta(ctx *Context, o api.Object, act Action, change func(*api.ObjectMeta)) error {
	_, err := patchLive(ctx, o, act, nil, change)
	return err
}

// patchLive is patchMeta with a precondition on the live object (ok), and
// returns what was written (nil when nothing was).
func patchLive(ctx *Context, o api.Object, act Action, ok func(live api.Object) bool, change func(*api.ObjectMeta)) (api.Object, error) {
	m := o.Meta()
	live := ctx.API.Get(o.GetTypeMeta().Kind, m.Namespace, m.Name)
	if live == nil || live.Meta().UID != m.UID || (ok != nil && !ok(live)) {
		return nil, nil
	}
	n := live.DeepCopyObject()
	change(n.Meta())
	if reflect.DeepEqual(n.Meta(), live.Meta()) {
		return nil, nil
	}
	out, err := ctx.Update(n, act)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	return out, err
}

// collect looks at o as a dependent: with no owner left it is deleted;
// with one, references to owners that are gone are removed.
func (g *GarbageCollector) collect(ctx *Context, o api.Object) (Result, error) {
	m := o.Meta()
	name := describeRef(kindName(o))
	if len(m.OwnerReferences) == 0 {
		ctx.Desired, ctx.Observed = name+" kept by its owners", "no ownerReferences"
		return ctx.NothingToDo(), nil
	}
	var solid, dangling, waiting []string
	for _, r := range m.OwnerReferences {
		owner := cachedOwner(ctx.Cache, m.Namespace, r)
		if owner == nil {
			// Not in the cache: confirm with a live read before acting on it.
			ns := m.Namespace
			if kind, _ := api.KindOf(r.Kind); !kind.Namespaced {
				ns = ""
			}
			if live := ctx.API.Get(r.Kind, ns, r.Name); live != nil && live.Meta().UID == r.UID {
				owner = live
			}
		}
		switch {
		case owner == nil:
			dangling = append(dangling, r.UID)
		case collecting(owner.Meta()) == validation.FinalizerForeground:
			waiting = append(waiting, r.UID)
		default:
			solid = append(solid, r.UID)
		}
	}
	ctx.Desired = "an owner keeps " + name + ", or it goes"
	ctx.Observed = describeOwners(m, dangling, waiting)
	switch {
	case len(dangling) == 0 && len(waiting) == 0:
		return ctx.NothingToDo(), nil
	case len(solid) > 0:
		// Another owner keeps it: only the references change.
		ctx.Difference = "drop the references to owners that are gone"
		err := patchMeta(ctx, o, Do(Update, "the ownerReferences of "+name), func(nm *api.ObjectMeta) {
			nm.OwnerReferences = slices.DeleteFunc(nm.OwnerReferences, func(r api.OwnerReference) bool { return slices.Contains(dangling, r.UID) })
			for i := range nm.OwnerReferences {
				if slices.Contains(waiting, nm.OwnerReferences[i].UID) {
					nm.OwnerReferences[i].BlockOwnerDeletion = false
				}
			}
		})
		if err != nil {
			return Result{}, err
		}
		return Result{Outcome: Acted}, nil
	case m.DeletionTimestamp != nil:
		ctx.Difference = "none: it is being deleted already"
		return Result{Outcome: InSync}, nil
	}
	policy := store.Background
	if len(waiting) > 0 && len(dependents(ctx.Cache, o)) > 0 {
		policy = store.Foreground // its own dependents go before it, as its owner waits
	}
	ctx.Difference = "no owner is left to keep it: delete it"
	if len(waiting) > 0 {
		ctx.Difference = "its owner waits for it to go: delete it"
	}
	kind := o.GetTypeMeta().Kind
	err := ctx.act(Do(Delete, fmt.Sprintf("%s (propagationPolicy %s)", name, policy)), func() error {
		_, err := ctx.API.DeleteWith(kind, m.Namespace, m.Name, store.DeleteOptions{PropagationPolicy: policy})
		return err
	})
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return Result{}, err
	}
	return Result{Outcome: Acted}, nil
}

// describeOwners says which of m's owners are gone or going.
func describeOwners(m *api.ObjectMeta, dangling, waiting []string) string {
	var parts []string
	for _, r := range m.OwnerReferences {
		what := "exists"
		switch {
		case slices.Contains(dangling, r.UID):
			what = "is gone"
		case slices.Contains(waiting, r.UID):
			what = "is being deleted in the foreground"
		}
		parts = append(parts, fmt.Sprintf("owner %s %s", describeRef(r.Kind, r.Name), what))
	}
	return strings.Join(parts, ", ")
}

func dependentsText(n int) string {
	if n == 1 {
		return "1 dependent"
	}
	return fmt.Sprintf("%d dependents", n)
}

func kindName(o api.Object) (string, string) { return o.GetTypeMeta().Kind, o.Meta().Name }
