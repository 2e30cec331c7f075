package controller

import (
	"fmt"

	"reconcile/engine/api"
)

// Fenceposts resolves maxSurge (rounded up) and maxUnavailable (rounded
// down) against the desired replicas; both zero becomes unavailable 1.
func Fenceposts(d *api.Deployment) (surge, unavailable int32) {
	if d.Spec.Strategy.Type != api.RollingUpdateStrategy && d.Spec.Strategy.Type != "" {
		return 0, 0
	}
	desired := api.Deref(d.Spec.Replicas, 1)
	ms, mu := api.FromString("25%"), api.FromString("25%")
	if ru := d.Spec.Strategy.RollingUpdate; ru != nil {
		if ru.MaxSurge != nil {
			ms = *ru.MaxSurge
		}
		if ru.MaxUnavailable != nil {
			mu = *ru.MaxUnavailable
		}
	}
	surge, _ = ms.Scaled(desired, true)
	unavailable, _ = mu.Scaled(desired, false)
	if surge == 0 && unavailable == 0 {
		unavailable = 1
	}
	return surge, unavailable
}

// MaxUnavailable is the fencepost capped at spec.replicas (0 for Recreate).
func MaxUnavailable(d *api.Deployment) int32 {
	if d.Spec.Strategy.Type == api.RecreateStrategy || api.Deref(d.Spec.Replicas, 1) == 0 {
		return 0
	}
	_, u := Fenceposts(d)
	return min(u, api.Deref(d.Spec.Replicas, 1))
}

// newRSNewReplicas is how big the new ReplicaSet may be now.
func newRSNewReplicas(d *api.Deployment, all []*api.ReplicaSet, newRS *api.ReplicaSet) int32 {
	want := api.Deref(d.Spec.Replicas, 1)
	if d.Spec.Strategy.Type == api.RecreateStrategy {
		return want
	}
	surge, _ := Fenceposts(d)
	current := specReplicas(all)
	newSize := int32(0)
	if newRS != nil {
		newSize = api.Deref(newRS.Spec.Replicas, 1)
	}
	maxTotal := want + surge
	if current >= maxTotal {
		return newSize
	}
	up := min(maxTotal-current, want-newSize)
	return newSize + up
}

func (c *Deployment) rolloutRolling(ctx *Context, d *api.Deployment, newRS *api.ReplicaSet, oldRSs []*api.ReplicaSet) (Result, error) {
	if newRS == nil {
		ctx.Difference, ctx.DifferenceFact = "no ReplicaSet for this template: create one", Fact{Is: NoReplicaSetForTemplate}
	}
	newRS, err := c.getNewReplicaSet(ctx, d, newRS, oldRSs, true)
	if err != nil {
		return Result{}, err
	}
	all := append([]*api.ReplicaSet{newRS}, oldRSs...)
	want := api.Deref(d.Spec.Replicas, 1)
	// Scale up the new ReplicaSet, if there is room.
	if cur := api.Deref(newRS.Spec.Replicas, 1); cur != want {
		size := want
		if cur < want {
			size = newRSNewReplicas(d, all, newRS)
		}
		if size != cur {
			ctx.Difference = fmt.Sprintf("new ReplicaSet %d → %d", cur, size)
			rs, err := c.scaleReplicaSet(ctx, d, newRS, size)
			if err != nil {
				return Result{}, err
			}
			all[0] = rs
			return c.syncRolloutStatus(ctx, d, rs, oldRSs)
		}
	}
	// Scale down old ReplicaSets, if availability allows.
	scaled, oldRSs, err := c.reconcileOldReplicaSets(ctx, d, newRS, oldRSs)
	if err != nil {
		return Result{}, err
	}
	if scaled {
		return c.syncRolloutStatus(ctx, d, newRS, oldRSs)
	}
	if complete(d, newRS, oldRSs) {
		if err := c.cleanup(ctx, d, oldRSs); err != nil {
			return Result{}, err
		}
	}
	return c.syncRolloutStatus(ctx, d, newRS, oldRSs)
}

func (c *Deployment) reconcileOldReplicaSets(ctx *Context, d *api.Deployment, newRS *api.ReplicaSet, oldRSs []*api.ReplicaSet) (bool, []*api.ReplicaSet, error) {
	oldPods := specReplicas(oldRSs)
	if oldPods == 0 {
		return false, oldRSs, nil
	}
	all := append([]*api.ReplicaSet{newRS}, oldRSs...)
	allPods := specReplicas(all)
	want := api.Deref(d.Spec.Replicas, 1)
	minAvailable := want - MaxUnavailable(d)
	newUnavailable := api.Deref(newRS.Spec.Replicas, 1) - newRS.Status.AvailableReplicas
	maxScaledDown := allPods - minAvailable - newUnavailable
	if maxScaledDown <= 0 {
		if ctx.Difference == "" {
			ctx.Difference = fmt.Sprintf("old ReplicaSets must wait: %d available, at least %d must stay", availableOf(all), minAvailable)
		}
		return false, oldRSs, nil
	}
	out := append([]*api.ReplicaSet(nil), oldRSs...)
	var total int32
	// First remove unhealthy old pods, oldest ReplicaSet first.
	for i, rs := range out {
		if total >= maxScaledDown {
			break
		}
		cur := api.Deref(rs.Spec.Replicas, 1)
		if cur == 0 || cur == rs.Status.AvailableReplicas {
			continue
		}
		down := min(maxScaledDown-total, cur-rs.Status.AvailableReplicas)
		if down <= 0 {
			continue // status not caught up with a recent resize
		}
		n, err := c.scaleReplicaSet(ctx, d, rs, cur-down)
		if err != nil {
			return false, out, err
		}
		out[i] = n
		total += down
	}
	// Then scale down what availability allows.
	available := availableOf(append([]*api.ReplicaSet{newRS}, out...))
	if available > minAvailable {
		budget := available - minAvailable
		var done int32
		for i, rs := range out {
			if done >= budget {
				break
			}
			cur := api.Deref(rs.Spec.Replicas, 1)
			if cur == 0 {
				continue
			}
			down := min(cur, budget-done)
			n, err := c.scaleReplicaSet(ctx, d, rs, cur-down)
			if err != nil {
				return false, out, err
			}
			out[i] = n
			done += down
		}
		total += done
	}
	if total > 0 {
		ctx.Difference = fmt.Sprintf("old ReplicaSets -%d (keep ≥ %d available)", total, minAvailable)
	}
	return total > 0, out, nil
}

// availableOf counts the available pods the ReplicaSets will keep: a
// ReplicaSet just scaled down still reports the pods it is about to delete,
// and counting them would let a rollout take availability below its floor.
func availableOf(rss []*api.ReplicaSet) int32 {
	var n int32
	for _, rs := range rss {
		if rs != nil {
			n += min(rs.Status.AvailableReplicas, api.Deref(rs.Spec.Replicas, 1))
		}
	}
	return n
}
