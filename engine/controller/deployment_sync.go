package controller

import (
	"errors"
	"fmt"
	"hash/fnv"
	"reflect"
	"sort"
	"strconv"

	"reconcile/engine/api"
	"reconcile/engine/store"
)

// templateHash is the pod-template-hash of a template: FNV-32a of its
// canonical JSON (and the collision count), rendered in the safe alphabet.
func templateHash(t *api.PodTemplateSpec, collisionCount *int32) string {
	t2 := t.DeepCopy()
	delete(t2.Labels, PodTemplateHashLabel)
	b := hashInput(&t2)
	h := fnv.New32a()
	h.Write(b)
	if collisionCount != nil {
		h.Write([]byte(strconv.Itoa(int(*collisionCount))))
	}
	dec := strconv.FormatUint(uint64(h.Sum32()), 10)
	out := make([]byte, len(dec))
	const alphabet = "bcdfghjklmnpqrstvwxz2456789"
	for i := range dec {
		out[i] = alphabet[int(dec[i])%len(alphabet)]
	}
	return string(out)
}

func specReplicas(rss []*api.ReplicaSet) int32 {
	var n int32
	for _, rs := range rss {
		if rs != nil {
			n += api.Deref(rs.Spec.Replicas, 1)
		}
	}
	return n
}

var skipCopyAnnotations = map[string]bool{
	"kubectl.kubernetes.io/last-applied-configuration": true,
	RevisionAnnotation: true, RevisionHistoryAnnotation: true, DesiredReplicasAnnotation: true, MaxReplicasAnnotation: true,
	"deprecated.deployment.rollback.to": true,
}

// getNewReplicaSet returns the ReplicaSet for the current template, creating
// it when asked, and keeps revision annotations in step.
func (c *Deployment) getNewReplicaSet(ctx *Context, d *api.Deployment, newRS *api.ReplicaSet, oldRSs []*api.ReplicaSet, create bool) (*api.ReplicaSet, error) {
	maxOld := maxRevision(oldRSs)
	newRevision := strconv.FormatInt(maxOld+1, 10)
	if newRS != nil {
		rs := newRS.DeepCopy()
		changed := false
		if rs.Annotations == nil {
			rs.Annotations = map[string]string{}
		}
		if cur := rs.Annotations[RevisionAnnotation]; cur != newRevision && revision(rs) < maxOld+1 {
			if cur != "" {
				h := rs.Annotations[RevisionHistoryAnnotation]
				if h != "" {
					h += ","
				}
				rs.Annotations[RevisionHistoryAnnotation] = h + cur
			}
			rs.Annotations[RevisionAnnotation] = newRevision
			changed = true
		}
		// Any order: each annotation is copied on its own.
		for k, v := range d.Annotations {
			if !skipCopyAnnotations[k] && rs.Annotations[k] != v {
				rs.Annotations[k] = v
				changed = true
			}
		}
		if changed {
			out, err := ctx.Update(rs, Do(Update, fmt.Sprintf("%s revision to %s", rs.Name, rs.Annotations[RevisionAnnotation])))
			if err != nil {
				return nil, err
			}
			rs = out.(*api.ReplicaSet)
		}
		c.setRevision(d, rs.Annotations[RevisionAnnotation])
		if condition(d, "Progressing") == nil && hasProgressDeadline(d) {
			setCondition(d, "Progressing", "True", "FoundNewReplicaSet", fmt.Sprintf("Found new replica set %q", rs.Name), ctx.Now)
		}
		return rs, nil
	}
	if !create {
		return nil, nil
	}
	hash := templateHash(&d.Spec.Template, d.Status.CollisionCount)
	t := d.Spec.Template.DeepCopy()
	if t.Labels == nil {
		t.Labels = map[string]string{}
	}
	t.Labels[PodTemplateHashLabel] = hash
	sel := d.Spec.Selector.DeepCopy()
	if sel.MatchLabels == nil {
		sel.MatchLabels = map[string]string{}
	}
	sel.MatchLabels[PodTemplateHashLabel] = hash
	labels := map[string]string{}
	for k, v := range t.Labels {
		labels[k] = v
	}
	surge, _ := Fenceposts(d)
	ann := map[string]string{}
	for k, v := range d.Annotations {
		if !skipCopyAnnotations[k] {
			ann[k] = v
		}
	}
	ann[RevisionAnnotation] = newRevision
	ann[DesiredReplicasAnnotation] = strconv.Itoa(int(api.Deref(d.Spec.Replicas, 1)))
	ann[MaxReplicasAnnotation] = strconv.Itoa(int(api.Deref(d.Spec.Replicas, 1) + surge))
	all := append([]*api.ReplicaSet(nil), oldRSs...)
	size := newRSNewReplicas(d, all, nil)
	rs := &api.ReplicaSet{
		TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSet"},
		ObjectMeta: api.ObjectMeta{Name: d.Name + "-" + hash, Namespace: d.Namespace, Labels: labels, Annotations: ann,
			OwnerReferences: []api.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: d.Name, UID: d.UID, Controller: true, BlockOwnerDeletion: true}}},
		Spec: api.ReplicaSetSpec{Replicas: api.Int32(size), MinReadySeconds: d.Spec.MinReadySeconds, Selector: sel, Template: t},
	}
	out, err := ctx.Create(rs, func(o api.Object) Action {
		return On(Create, "ReplicaSet", o.Meta().Name, fmt.Sprintf("with %d replicas", size))
	})
	if errors.Is(err, store.ErrExists) {
		return c.replicaSetExists(ctx, d, rs, err, newRevision)
	}
	if err != nil {
		if err != ErrCrashed {
			msg := fmt.Sprintf("Failed to create new replica set %q: %v", rs.Name, err)
			ctx.Event(d, "Warning", "ReplicaSetCreateError", "%s", msg)
			if hasProgressDeadline(d) {
				setCondition(d, "Progressing", "False", "ReplicaSetCreateError", msg, ctx.Now)
				c.writeStatus(ctx, d)
			}
		}
		return nil, err
	}
	created := out.(*api.ReplicaSet)
	if size > 0 {
		ctx.Event(d, "Normal", "ScalingReplicaSet", "Scaled up replica set %s to %d", created.Name, size)
	}
	if hasProgressDeadline(d) {
		setCondition(d, "Progressing", "True", "NewReplicaSetCreated", fmt.Sprintf("Created new replica set %q", created.Name), ctx.Now)
	}
	c.setRevision(d, newRevision)
	return created, nil
}

// scaleReplicaSet resizes a ReplicaSet (one API write, one event).
func (c *Deployment) scaleReplicaSet(ctx *Context, d *api.Deployment, rs *api.ReplicaSet, size int32) (*api.ReplicaSet, error) {
	cur := api.Deref(rs.Spec.Replicas, 1)
	surge, _ := Fenceposts(d)
	desiredAnn := strconv.Itoa(int(api.Deref(d.Spec.Replicas, 1)))
	maxAnn := strconv.Itoa(int(api.Deref(d.Spec.Replicas, 1) + surge))
	if cur == size && rs.Annotations[DesiredReplicasAnnotation] == desiredAnn && rs.Annotations[MaxReplicasAnnotation] == maxAnn {
		return rs, nil
	}
	n := rs.DeepCopy()
	n.Spec.Replicas = api.Int32(size)
	if n.Annotations == nil {
		n.Annotations = map[string]string{}
	}
	n.Annotations[DesiredReplicasAnnotation] = desiredAnn
	n.Annotations[MaxReplicasAnnotation] = maxAnn
	dir := "up"
	if size < cur {
		dir = "down"
	}
	act := Do(Scale, fmt.Sprintf("%s %s from %d to %d", rs.Name, dir, cur, size))
	if cur == size {
		act = Do(Annotate, fmt.Sprintf("%s with desired %s, max %s", rs.Name, desiredAnn, maxAnn))
	}
	out, err := ctx.Update(n, act)
	if err != nil {
		return nil, err
	}
	if cur != size {
		ctx.Event(d, "Normal", "ScalingReplicaSet", "Scaled %s replica set %s to %d from %d", dir, rs.Name, size, cur)
	}
	return out.(*api.ReplicaSet), nil
}

func complete(d *api.Deployment, newRS *api.ReplicaSet, oldRSs []*api.ReplicaSet) bool {
	want := api.Deref(d.Spec.Replicas, 1)
	st := calculateStatus(d, newRS, oldRSs)
	return st.UpdatedReplicas == want && st.Replicas == want && st.AvailableReplicas == want
}

func (c *Deployment) syncPaused(ctx *Context, d *api.Deployment, newRS *api.ReplicaSet, oldRSs []*api.ReplicaSet) (Result, error) {
	ctx.Difference = "paused: no rollout"
	newRS, err := c.getNewReplicaSet(ctx, d, newRS, oldRSs, false)
	if err != nil {
		return Result{}, err
	}
	// Paused, it still follows spec.replicas, in proportion.
	if err := c.scale(ctx, d, newRS, oldRSs); err != nil {
		return Result{}, err
	}
	if cond := condition(d, "Progressing"); hasProgressDeadline(d) && (cond == nil || cond.Reason != "ProgressDeadlineExceeded") {
		setCondition(d, "Progressing", "Unknown", "DeploymentPaused", "Deployment is paused", ctx.Now)
	}
	if complete(d, newRS, oldRSs) {
		if err := c.cleanup(ctx, d, oldRSs); err != nil {
			return Result{}, err
		}
	}
	return c.syncStatus(ctx, d, newRS, oldRSs)
}

func activeRSs(rss []*api.ReplicaSet) []*api.ReplicaSet {
	var out []*api.ReplicaSet
	for _, rs := range rss {
		if api.Deref(rs.Spec.Replicas, 1) > 0 {
			out = append(out, rs)
		}
	}
	return out
}

// cleanup deletes the oldest old ReplicaSets beyond revisionHistoryLimit.
func (c *Deployment) cleanup(ctx *Context, d *api.Deployment, oldRSs []*api.ReplicaSet) error {
	limit := int(api.Deref(d.Spec.RevisionHistoryLimit, 10))
	var cand []*api.ReplicaSet
	for _, rs := range oldRSs {
		if rs.DeletionTimestamp == nil {
			cand = append(cand, rs)
		}
	}
	if len(cand) <= limit {
		return nil
	}
	sort.SliceStable(cand, func(i, j int) bool { return revision(cand[i]) < revision(cand[j]) })
	for _, rs := range cand[:len(cand)-limit] {
		if rs.Status.Replicas != 0 || api.Deref(rs.Spec.Replicas, 1) != 0 || rs.Generation > rs.Status.ObservedGeneration {
			continue
		}
		if err := ctx.Delete("ReplicaSet", rs.Namespace, rs.Name, false, Do(Delete, "old ReplicaSet "+rs.Name+" (revisionHistoryLimit)")); err != nil {
			return err
		}
	}
	return nil
}

func calculateStatus(d *api.Deployment, newRS *api.ReplicaSet, oldRSs []*api.ReplicaSet) api.DeploymentStatus {
	all := append([]*api.ReplicaSet{newRS}, oldRSs...)
	st := api.DeploymentStatus{ObservedGeneration: d.Generation, CollisionCount: d.Status.CollisionCount}
	for _, rs := range all {
		if rs == nil {
			continue
		}
		st.Replicas += rs.Status.Replicas
		st.ReadyReplicas += rs.Status.ReadyReplicas
		st.AvailableReplicas += rs.Status.AvailableReplicas
	}
	if newRS != nil {
		st.UpdatedReplicas = newRS.Status.Replicas
	}
	st.UnavailableReplicas = max(0, specReplicas(all)-st.AvailableReplicas)
	st.Conditions = append([]api.DeploymentCondition(nil), d.Status.Conditions...)
	return st
}

func (c *Deployment) setAvailability(d *api.Deployment, st *api.DeploymentStatus, now api.Time) {
	tmp := &api.Deployment{Status: *st}
	tmp.Status.Conditions = st.Conditions
	if st.AvailableReplicas >= api.Deref(d.Spec.Replicas, 1)-MaxUnavailable(d) {
		setCondition(tmp, "Available", "True", "MinimumReplicasAvailable", "Deployment has minimum availability.", now)
	} else {
		setCondition(tmp, "Available", "False", "MinimumReplicasUnavailable", "Deployment does not have minimum availability.", now)
	}
	st.Conditions = tmp.Status.Conditions
}

// syncStatus writes status without judging progress (paused, scaling).
func (c *Deployment) syncStatus(ctx *Context, d *api.Deployment, newRS *api.ReplicaSet, oldRSs []*api.ReplicaSet) (Result, error) {
	st := calculateStatus(d, newRS, oldRSs)
	c.setAvailability(d, &st, ctx.Now)
	d.Status = st
	return Result{}, c.writeStatus(ctx, d)
}

func (c *Deployment) syncStatusOnly(ctx *Context, d *api.Deployment, newRS *api.ReplicaSet, oldRSs []*api.ReplicaSet) (Result, error) {
	if _, err := c.syncStatus(ctx, d, newRS, oldRSs); err != nil {
		return Result{}, err
	}
	return Result{Outcome: InSync}, nil
}

func (c *Deployment) writeStatus(ctx *Context, d *api.Deployment) error {
	cached, _ := ctx.Cache.Get("Deployment", api.RefOf(d).Key()).(*api.Deployment)
	if cached != nil && reflect.DeepEqual(cached.Status, d.Status) && reflect.DeepEqual(cached.Annotations, d.Annotations) {
		return nil
	}
	_, err := ctx.UpdateStatus(d, Status(fmt.Sprintf("updated %d, ready %d, available %d of %d",
		d.Status.UpdatedReplicas, d.Status.ReadyReplicas, d.Status.AvailableReplicas, api.Deref(d.Spec.Replicas, 1))))
	return err
}
