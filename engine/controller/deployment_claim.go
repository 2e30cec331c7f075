package controller

import (
	"errors"
	"fmt"

	"reconcile/engine/api"
	"reconcile/engine/informer"
	"reconcile/engine/store"
)

// Which ReplicaSets a Deployment controls, worked out before every sync as
// Kubernetes' deployment controller does (its ControllerRefManager): those
// whose controller reference names the Deployment and whose labels its
// selector matches; an orphan its selector matches is adopted (the
// reference is added); one of its own the selector no longer matches is
// released (the reference is removed). A ReplicaSet another owner controls
// is never touched.

// claimReplicaSets returns the ReplicaSets d controls, adopting and
// releasing as it goes. A Deployment with an empty selector, or being
// deleted, adopts and releases nothing.
func (c *Deployment) claimReplicaSets(ctx *Context, d *api.Deployment) ([]*api.ReplicaSet, error) {
	var out []*api.ReplicaSet
	var errs []error
	settled := d.Spec.Selector.Empty() || d.DeletionTimestamp != nil
	for _, o := range ctx.Cache.List("ReplicaSet") {
		rs := o.(*api.ReplicaSet)
		if rs.Namespace != d.Namespace {
			continue
		}
		ref := rs.ControllerOf()
		matches := !d.Spec.Selector.Empty() && d.Spec.Selector.Matches(rs.Labels)
		switch {
		case ref != nil && ref.UID != d.UID:
			// another owner's
		case ref != nil && (matches || settled):
			out = append(out, rs)
		case ref != nil:
			n := rs.DeepCopy()
			n.ResourceVersion = "" // a patch of the references, not a whole update
			n.OwnerReferences = nil
			for _, r := range rs.OwnerReferences {
				if r.UID != d.UID {
					n.OwnerReferences = append(n.OwnerReferences, r)
				}
			}
			if _, err := ctx.Update(n, On(Release, "ReplicaSet", rs.Name, "(its labels no longer match the selector)")); err != nil && !errors.Is(err, store.ErrNotFound) {
				errs = append(errs, err)
			}
		case !matches || settled || rs.DeletionTimestamp != nil:
			// an orphan that is not d's to adopt
		default:
			n := rs.DeepCopy()
			n.ResourceVersion = ""
			n.OwnerReferences = append(n.OwnerReferences, api.OwnerReference{APIVersion: "apps/v1", Kind: "Deployment",
				Name: d.Name, UID: d.UID, Controller: true, BlockOwnerDeletion: true})
			adopted, err := ctx.Update(n, On(Adopt, "ReplicaSet", rs.Name, "(an orphan its selector matches)"))
			switch {
			case err == nil:
				out = append(out, adopted.(*api.ReplicaSet))
			case !errors.Is(err, store.ErrNotFound):
				errs = append(errs, err)
			}
		}
	}
	return out, errors.Join(errs...)
}

// deploymentsSelecting returns the keys of the cached Deployments in rs's
// namespace whose selector matches its labels: who may adopt an orphan. An
// empty selector matches nothing here.
func deploymentsSelecting(cache *informer.Cache, rs *api.ReplicaSet) []string {
	var keys []string
	for _, o := range cache.List("Deployment") {
		d := o.(*api.Deployment)
		if d.Namespace == rs.Namespace && !d.Spec.Selector.Empty() && d.Spec.Selector.Matches(rs.Labels) {
			keys = append(keys, api.RefOf(d).Key())
		}
	}
	return keys
}

// replicaSetExists handles a create of the new ReplicaSet refused because
// one of its name exists, as the real controller does. When the cache shows
// it, controlled by d and with d's template, it is d's new ReplicaSet (an
// earlier pass created it, and its status write failed before the cache
// caught up): it is used as it is, with no event. When the cache does not
// show it yet, the pass fails quietly and is retried. Otherwise the name
// collides with another template's: status.collisionCount goes up, so the
// next pass hashes to another name.
func (c *Deployment) replicaSetExists(ctx *Context, d *api.Deployment, want *api.ReplicaSet, createErr error, newRevision string) (*api.ReplicaSet, error) {
	cur, _ := ctx.Cache.Get("ReplicaSet", want.Namespace+"/"+want.Name).(*api.ReplicaSet)
	if cur == nil {
		ctx.Difference = fmt.Sprintf("ReplicaSet %s exists but is not in the cache yet: try again", want.Name)
		return nil, fmt.Errorf("replicaset.apps %q not found", want.Name)
	}
	if ref := cur.ControllerOf(); ref != nil && ref.UID == d.UID && EqualIgnoreHash(&cur.Spec.Template, &d.Spec.Template) {
		ctx.Difference = fmt.Sprintf("ReplicaSet %s for this template exists already: use it", cur.Name)
		c.setRevision(d, newRevision)
		return cur, nil
	}
	var n int32
	if d.Status.CollisionCount != nil {
		n = *d.Status.CollisionCount
	}
	d.Status.CollisionCount = api.Int32(n + 1)
	ctx.Difference = fmt.Sprintf("the name %s is taken by another template: collisionCount %d", want.Name, n+1)
	_ = c.writeStatus(ctx, d) // the create's error is the one retried
	return nil, createErr
}
