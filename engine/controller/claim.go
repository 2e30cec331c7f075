package controller

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/informer"
)

// Which pods a ReplicaSet or a Job controls, worked out at the start of
// its pass as Kubernetes' controllers do (their ControllerRefManager): the
// pods whose controller reference names it. A pod with no controller that
// its selector matches — an orphan, not being deleted — is adopted (the
// reference is added, with controller: true and blockOwnerDeletion: true);
// a pod of its own that its selector no longer matches is released (the
// reference is removed). A pod another controller owns is never touched,
// and an owner being deleted adopts and releases nothing. Each write is a
// patch of the live pod, made only if the pod is still what the cache
// showed (no controller yet, for an adoption).

// claimed is what one pass's claim did.
type claimed struct {
	adopted, released []*api.Pod
}

// changed reports whether the claim wrote anything.
func (c claimed) changed() bool { return len(c.adopted)+len(c.released) > 0 }

// apply returns pods (the owner's active pods as the cache shows them) as
// they are after the claim: released pods out, adopted ones in.
func (c claimed) apply(pods []*api.Pod) []*api.Pod {
	var out []*api.Pod
	for _, p := range pods {
		if !slices.ContainsFunc(c.released, func(r *api.Pod) bool { return r.UID == p.UID }) {
			out = append(out, p)
		}
	}
	for _, p := range c.adopted {
		if IsPodActive(p) && !slices.ContainsFunc(out, func(o *api.Pod) bool { return o.UID == p.UID }) {
			out = append(out, p)
		}
	}
	return out
}

// claimPods adopts the orphans (by key, from the cache) that sel matches
// and releases the owned pods it no longer matches, for owner, whose
// controller reference is ref. The finalizers (the Job's job-tracking
// finalizer) are added to a pod adopted and removed from one released, in
// the same patch (NewPodControllerRefManager's finalizers).
func claimPods(ctx *Context, owner api.Object, sel *api.LabelSelector, ref api.OwnerReference, orphans []string, owned []*api.Pod, finalizers ...string) (claimed, error) {
	var out claimed
	om := owner.Meta()
	if om.DeletionTimestamp != nil || sel.Empty() {
		return out, nil
	}
	var errs []error
	what := api.LowerKind(ref.Kind)
	for _, p := range owned {
		if sel.Matches(p.Labels) {
			continue
		}
		act := OnPod(Release, p.Name, fmt.Sprintf("(its labels no longer match the %s's selector)", what))
		n, err := patchLive(ctx, p, act, func(live api.Object) bool {
			c := live.Meta().ControllerOf()
			return c != nil && c.UID == om.UID
		}, func(m *api.ObjectMeta) {
			m.OwnerReferences = slices.DeleteFunc(m.OwnerReferences, func(r api.OwnerReference) bool { return r.UID == om.UID })
			if len(finalizers) > 0 {
				m.Finalizers = slices.DeleteFunc(slices.Clone(m.Finalizers), func(f string) bool { return slices.Contains(finalizers, f) })
			}
		})
		switch {
		case err != nil:
			errs = append(errs, err)
		case n != nil:
			out.released = append(out.released, n.(*api.Pod))
		}
	}
	for _, k := range orphans {
		p, _ := ctx.Cache.Get("Pod", k).(*api.Pod)
		if p == nil || p.Namespace != om.Namespace || p.ControllerOf() != nil || p.DeletionTimestamp != nil || !sel.Matches(p.Labels) {
			continue
		}
		act := OnPod(Adopt, p.Name, fmt.Sprintf("(an orphan the %s's selector matches)", what))
		n, err := patchLive(ctx, p, act, func(live api.Object) bool {
			return live.Meta().ControllerOf() == nil && live.Meta().DeletionTimestamp == nil && sel.Matches(live.Meta().Labels)
		}, func(m *api.ObjectMeta) {
			m.OwnerReferences = append(m.OwnerReferences, ref)
			for _, f := range finalizers {
				if !slices.Contains(m.Finalizers, f) {
					m.Finalizers = append(slices.Clone(m.Finalizers), f)
				}
			}
		})
		switch {
		case err != nil:
			errs = append(errs, err)
		case n != nil:
			out.adopted = append(out.adopted, n.(*api.Pod))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return out, fmt.Errorf("claiming pods: %w", err)
	}
	return out, nil
}

// orphanSet is a controller's record of the cached pods with no controller
// and not being deleted, by key: who may be adopted. Kept from the pod
// events it hears of, so that a pass need not list every pod.
type orphanSet map[string]bool

// note updates the set from a delivered pod event.
func (s orphanSet) note(p *api.Pod, deleted bool) {
	if !deleted && p.ControllerOf() == nil && p.DeletionTimestamp == nil {
		s[api.RefOf(p).Key()] = true
		return
	}
	if len(s) > 0 { // most pods have a controller and the set is empty: no key to make
		delete(s, api.RefOf(p).Key())
	}
}

// in returns the orphans of namespace, sorted.
func (s orphanSet) in(namespace string) []string {
	var out []string
	for k := range s {
		if ns, _, ok := strings.Cut(k, "/"); ok && ns == namespace {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// previousController returns the key ("namespace/name") of the controller
// of kind that the cache's previous version of a pod named, when the pod
// just delivered no longer names it (released, or handed over), or "".
func previousController(c *informer.Cache, p *api.Pod, kind string) string {
	old, ok := c.Replaced().(*api.Pod)
	if !ok {
		return ""
	}
	oref := old.ControllerOf()
	if oref == nil || oref.Kind != kind {
		return ""
	}
	if ref := p.ControllerOf(); ref != nil && ref.UID == oref.UID {
		return ""
	}
	return p.Namespace + "/" + oref.Name
}
