package controller

import (
	"fmt"
	"math"
	"sort"
	"strconv"

	"reconcile/engine/api"
)

// A scaling event: spec.replicas changed while a rollout is under way
// (an active ReplicaSet's desired-replicas annotation says another
// count). The controller then only resizes, as Kubernetes' sync and
// scale do (pkg/controller/deployment/sync.go): one active ReplicaSet
// takes the whole count; otherwise the change is shared among the active
// ReplicaSets in proportion to their sizes, so a rollout keeps its mix of
// old and new pods rather than hastening or undoing itself.

// annotationInt reads an integer annotation of rs.
func annotationInt(rs *api.ReplicaSet, key string) (int32, bool) {
	n, err := strconv.ParseInt(rs.Annotations[key], 10, 32)
	return int32(n), err == nil
}

// isScalingEvent reports whether an active ReplicaSet was sized for
// another spec.replicas than d's.
func isScalingEvent(d *api.Deployment, newRS *api.ReplicaSet, oldRSs []*api.ReplicaSet) bool {
	all := oldRSs[:len(oldRSs):len(oldRSs)]
	if newRS != nil {
		all = append(all, newRS)
	}
	for _, rs := range activeRSs(all) {
		if n, ok := annotationInt(rs, DesiredReplicasAnnotation); ok && n != api.Deref(d.Spec.Replicas, 1) {
			return true
		}
	}
	return false
}

// syncScale is the pass of a scaling event: resize, then report status.
func (c *Deployment) syncScale(ctx *Context, d *api.Deployment, newRS *api.ReplicaSet, oldRSs []*api.ReplicaSet) (Result, error) {
	ctx.Difference = fmt.Sprintf("scaled to %d: resize the ReplicaSets in proportion", api.Deref(d.Spec.Replicas, 1))
	newRS, err := c.getNewReplicaSet(ctx, d, newRS, oldRSs, false)
	if err != nil {
		return Result{}, err
	}
	if err := c.scale(ctx, d, newRS, oldRSs); err != nil {
		return Result{}, err
	}
	return c.syncStatus(ctx, d, newRS, oldRSs)
}

// olderRS orders ReplicaSets by creation, then name.
func olderRS(a, b *api.ReplicaSet) bool {
	if a.CreationTimestamp != b.CreationTimestamp {
		return a.CreationTimestamp < b.CreationTimestamp
	}
	return a.Name < b.Name
}

// scale resizes d's ReplicaSets to spec.replicas (newRS may be nil).
func (c *Deployment) scale(ctx *Context, d *api.Deployment, newRS *api.ReplicaSet, oldRSs []*api.ReplicaSet) error {
	want := api.Deref(d.Spec.Replicas, 1)
	all := oldRSs[:len(oldRSs):len(oldRSs)]
	if newRS != nil {
		all = append(all, newRS)
	}
	active := activeRSs(all)
	// One active ReplicaSet (or none: the newest) takes the whole count.
	if rs := newRS; len(active) <= 1 && len(all) > 0 {
		switch {
		case len(active) == 1:
			rs = active[0]
		case rs == nil:
			rs = all[0]
			for _, o := range all {
				if olderRS(rs, o) {
					rs = o
				}
			}
		}
		if api.Deref(rs.Spec.Replicas, 1) == want {
			return nil
		}
		_, err := c.scaleReplicaSet(ctx, d, rs, want)
		return err
	}
	// A saturated new ReplicaSet: the old ones go.
	if saturated(d, newRS) {
		for _, rs := range activeRSs(oldRSs) {
			if _, err := c.scaleReplicaSet(ctx, d, rs, 0); err != nil {
				return err
			}
		}
		return nil
	}
	if d.Spec.Strategy.Type == api.RecreateStrategy {
		return nil
	}
	surge, _ := Fenceposts(d)
	allowed := int32(0)
	if want > 0 {
		allowed = want + surge
	}
	toAdd := allowed - specReplicas(active)
	// From the biggest to the smallest; of equal size, the newer first
	// when scaling up, the older first when scaling down.
	sort.SliceStable(active, func(i, j int) bool {
		a, b := api.Deref(active[i].Spec.Replicas, 1), api.Deref(active[j].Spec.Replicas, 1)
		if a != b {
			return a > b
		}
		if toAdd > 0 {
			return olderRS(active[j], active[i])
		}
		return olderRS(active[i], active[j])
	})
	sizes := make([]int32, len(active))
	added := int32(0)
	for i, rs := range active {
		sizes[i] = api.Deref(rs.Spec.Replicas, 1)
		if toAdd != 0 {
			p := proportion(rs, d, toAdd, added)
			sizes[i] += p
			added += p
		}
	}
	if toAdd != 0 {
		// The rounding's leftover goes to the biggest.
		sizes[0] = max(sizes[0]+toAdd-added, 0)
	}
	for i, rs := range active {
		if _, err := c.scaleReplicaSet(ctx, d, rs, sizes[i]); err != nil {
			return err
		}
	}
	return nil
}

// proportion is rs's share of toAdd (added of it given out already): its
// size scaled by the deployment's new maximum over the one it was sized
// for (its max-replicas annotation), rounded, within what is left.
func proportion(rs *api.ReplicaSet, d *api.Deployment, toAdd, added int32) int32 {
	size := api.Deref(rs.Spec.Replicas, 1)
	if size == 0 || toAdd == added {
		return 0
	}
	var frac int32
	want := api.Deref(d.Spec.Replicas, 1)
	switch before, ok := annotationInt(rs, MaxReplicasAnnotation); {
	case want == 0:
		frac = -size
	case (!ok || before == 0) && d.Status.Replicas == 0:
		frac = 0
	default:
		if !ok || before == 0 {
			before = d.Status.Replicas
		}
		surge, _ := Fenceposts(d)
		frac = int32(math.Round(float64(size)*float64(want+surge)/float64(before))) - size
	}
	if left := toAdd - added; toAdd > 0 {
		return min(frac, left)
	} else {
		return max(frac, left)
	}
}

// saturated reports whether the new ReplicaSet has the whole count,
// sized for it and available.
func saturated(d *api.Deployment, rs *api.ReplicaSet) bool {
	if rs == nil {
		return false
	}
	want := api.Deref(d.Spec.Replicas, 1)
	n, ok := annotationInt(rs, DesiredReplicasAnnotation)
	return ok && n == want && api.Deref(rs.Spec.Replicas, 1) == want && rs.Status.AvailableReplicas == want
}
