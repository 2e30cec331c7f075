package controller

import (
	"fmt"

	"reconcile/engine/api"
)

func (c *Deployment) rolloutRecreate(ctx *Context, d *api.Deployment, newRS *api.ReplicaSet, oldRSs []*api.ReplicaSet) (Result, error) {
	scaled := false
	for i, rs := range oldRSs {
		if api.Deref(rs.Spec.Replicas, 1) > 0 {
			n, err := c.scaleReplicaSet(ctx, d, rs, 0)
			if err != nil {
				return Result{}, err
			}
			oldRSs[i] = n
			scaled = true
		}
	}
	if scaled {
		ctx.Difference = "old ReplicaSets → 0 before anything new starts"
		return c.syncRolloutStatus(ctx, d, newRS, oldRSs)
	}
	for _, rs := range oldRSs {
		running := rs.Status.Replicas > 0
		for _, o := range ctx.Cache.Owned("Pod", rs.UID) {
			if p := o.(*api.Pod); p.Status.Phase != api.PodFailed && p.Status.Phase != api.PodSucceeded {
				running = true
			}
		}
		if running {
			ctx.Difference = "waiting for old pods to stop"
			return c.syncRolloutStatus(ctx, d, newRS, oldRSs)
		}
	}
	hadNew := newRS != nil
	newRS, err := c.getNewReplicaSet(ctx, d, newRS, oldRSs, true)
	if err != nil {
		return Result{}, err
	}
	if want := api.Deref(d.Spec.Replicas, 1); hadNew && api.Deref(newRS.Spec.Replicas, 1) != want {
		ctx.Difference = fmt.Sprintf("new ReplicaSet → %d", want)
		if newRS, err = c.scaleReplicaSet(ctx, d, newRS, want); err != nil {
			return Result{}, err
		}
	}
	if complete(d, newRS, oldRSs) {
		if err := c.cleanup(ctx, d, oldRSs); err != nil {
			return Result{}, err
		}
	}
	return c.syncRolloutStatus(ctx, d, newRS, oldRSs)
}
