package controller

import (
	"errors"
	"fmt"
	"hash/fnv"
	"reflect"
	"sort"
	"strconv"

	"reconcile/engine/api"
	"reconcile/engine/informer"
	"reconcile/engine/store"
)

// Deployment is the deployment controller.
//
// Desired: spec.replicas pods of spec.template. Observed: the ReplicaSets it
// owns and their status. Difference: a ReplicaSet for the current template
// scaled up, old ones scaled down, within maxSurge and maxUnavailable (or
// all old ones to zero first, for Recreate). It never creates pods itself.
type Deployment struct{}

// Annotations the deployment controller keeps on ReplicaSets.
const (
	RevisionAnnotation        = "deployment.kubernetes.io/revision"
	RevisionHistoryAnnotation = "deployment.kubernetes.io/revision-history"
	DesiredReplicasAnnotation = "deployment.kubernetes.io/desired-replicas"
	MaxReplicasAnnotation     = "deployment.kubernetes.io/max-replicas"
	PodTemplateHashLabel      = "pod-template-hash"
)

// NewDeployment returns the deployment controller.
func NewDeployment() *Deployment { return &Deployment{} }

func (c *Deployment) Name() string      { return DeploymentController }
func (c *Deployment) Watches() []string { return []string{"Deployment", "ReplicaSet", "Pod"} }
func (c *Deployment) Clone() Reconciler { return &Deployment{} }

// Keys maps Deployment events to themselves, ReplicaSet events to their
// owning Deployment, and pod deletions to the Deployment (Recreate waits
// for old pods to go).
func (c *Deployment) Keys(cache *informer.Cache, ev store.WatchEvent) []string {
	switch o := ev.Object.(type) {
	case *api.Deployment:
		return []string{api.RefOf(o).Key()}
	case *api.ReplicaSet:
		var keys []string
		ref := o.ControllerOf()
		switch {
		case ref != nil && ref.Kind == "Deployment":
			keys = []string{o.Namespace + "/" + ref.Name}
		case ref == nil && ev.Type != store.Deleted:
			keys = deploymentsSelecting(cache, o) // an orphan: who may adopt it
		}
		// Released or handed over: its old owner hears of it too.
		if old, ok := ev.Old.(*api.ReplicaSet); ok {
			if oref := old.ControllerOf(); oref != nil && oref.Kind == "Deployment" && (ref == nil || ref.UID != oref.UID) {
				keys = append(keys, o.Namespace+"/"+oref.Name)
			}
		}
		return keys
	case *api.Pod:
		if ev.Type != store.Deleted {
			return nil
		}
		ref := o.ControllerOf()
		if ref == nil || ref.Kind != "ReplicaSet" {
			return nil
		}
		rs, _ := cache.Get("ReplicaSet", o.Namespace+"/"+ref.Name).(*api.ReplicaSet)
		if rs == nil {
			return nil
		}
		if dref := rs.ControllerOf(); dref != nil {
			if d, _ := cache.Get("Deployment", o.Namespace+"/"+dref.Name).(*api.Deployment); d != nil && d.Spec.Strategy.Type == api.RecreateStrategy {
				return []string{o.Namespace + "/" + dref.Name}
			}
		}
	}
	return nil
}

// Reconcile runs one pass for a Deployment key.
func (c *Deployment) Reconcile(ctx *Context, req Request) (Result, error) {
	key := req.Key
	cached, _ := ctx.Cache.Get("Deployment", key).(*api.Deployment)
	if cached == nil {
		ctx.Deleted("Deployment deleted")
		return ctx.NothingToDo(), nil
	}
	d := cached.DeepCopy()
	rsList, claimErr := c.claimReplicaSets(ctx, d)
	newRS, oldRSs := findNewReplicaSet(d, rsList)
	ctx.Desired = fmt.Sprintf("%d replicas of template %s (generation %d)", api.Deref(d.Spec.Replicas, 1), templateHash(&d.Spec.Template, d.Status.CollisionCount), d.Generation)
	ctx.Observed = describeReplicaSets(newRS, oldRSs)
	if d.Spec.Selector.Empty() {
		ctx.Event(d, "Warning", "SelectingAll", "This deployment is selecting all pods. A non-empty selector is required.")
		ctx.Difference = "selector selects everything: refuse to act"
		return c.syncStatusOnly(ctx, d, newRS, oldRSs)
	}
	if claimErr != nil {
		return Result{}, claimErr
	}
	if d.DeletionTimestamp != nil {
		return c.syncStatusOnly(ctx, d, newRS, oldRSs)
	}
	before := len(ctx.Actions)
	var res Result
	var err error
	switch {
	case d.Spec.Paused:
		res, err = c.syncPaused(ctx, d, newRS, oldRSs)
	case d.Spec.Strategy.Type == api.RecreateStrategy:
		res, err = c.rolloutRecreate(ctx, d, newRS, oldRSs)
	default:
		res, err = c.rolloutRolling(ctx, d, newRS, oldRSs)
	}
	if ctx.Difference == "" {
		ctx.Difference, ctx.DifferenceFact = "none", Fact{Is: Nothing}
	}
	if err != nil {
		return Result{}, err // retried with the queue's back-off
	}
	res.Outcome = Acted
	if len(ctx.Actions) == before {
		res.Outcome = InSync
	}
	return res, nil
}

func describeReplicaSets(newRS *api.ReplicaSet, old []*api.ReplicaSet) string {
	s := "no ReplicaSet for the current template"
	if newRS != nil {
		s = fmt.Sprintf("new %s %d/%d available", newRS.Name, newRS.Status.AvailableReplicas, api.Deref(newRS.Spec.Replicas, 1))
	}
	var total int32
	n := 0
	for _, rs := range old {
		if r := api.Deref(rs.Spec.Replicas, 1); r > 0 || rs.Status.Replicas > 0 {
			total += max(r, rs.Status.Replicas)
			n++
		}
	}
	if n > 0 {
		s += fmt.Sprintf("; %d old ReplicaSet(s) with %d pods", n, total)
	}
	return s
}

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

// EqualIgnoreHash reports whether two pod templates are the same but for
// their pod-template-hash label: whether a ReplicaSet's template is a
// Deployment's.
func EqualIgnoreHash(a, b *api.PodTemplateSpec) bool {
	x, y := a.DeepCopy(), b.DeepCopy()
	delete(x.Labels, PodTemplateHashLabel)
	delete(y.Labels, PodTemplateHashLabel)
	if len(x.Labels) == 0 {
		x.Labels = nil
	}
	if len(y.Labels) == 0 {
		y.Labels = nil
	}
	x.CreationTimestamp, y.CreationTimestamp = 0, 0
	return reflect.DeepEqual(x, y)
}

// findNewReplicaSet splits the owned ReplicaSets into the one whose template
// matches the Deployment's (oldest first if several) and the rest.
func findNewReplicaSet(d *api.Deployment, all []*api.ReplicaSet) (*api.ReplicaSet, []*api.ReplicaSet) {
	sorted := append([]*api.ReplicaSet(nil), all...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if sorted[i].CreationTimestamp != sorted[j].CreationTimestamp {
			return sorted[i].CreationTimestamp < sorted[j].CreationTimestamp
		}
		return sorted[i].Name < sorted[j].Name
	})
	var newRS *api.ReplicaSet
	var old []*api.ReplicaSet
	for _, rs := range sorted {
		if newRS == nil && EqualIgnoreHash(&rs.Spec.Template, &d.Spec.Template) {
			newRS = rs
			continue
		}
		old = append(old, rs)
	}
	return newRS, old
}

func revision(o api.Object) int64 {
	v, _ := strconv.ParseInt(o.Meta().Annotations[RevisionAnnotation], 10, 64)
	return v
}

func maxRevision(rss []*api.ReplicaSet) int64 {
	var m int64
	for _, rs := range rss {
		m = max(m, revision(rs))
	}
	return m
}

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

func specReplicas(rss []*api.ReplicaSet) int32 {
	var n int32
	for _, rs := range rss {
		if rs != nil {
			n += api.Deref(rs.Spec.Replicas, 1)
		}
	}
	return n
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

func (c *Deployment) setRevision(d *api.Deployment, rev string) {
	if d.Annotations == nil {
		d.Annotations = map[string]string{}
	}
	d.Annotations[RevisionAnnotation] = rev
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

func complete(d *api.Deployment, newRS *api.ReplicaSet, oldRSs []*api.ReplicaSet) bool {
	want := api.Deref(d.Spec.Replicas, 1)
	st := calculateStatus(d, newRS, oldRSs)
	return st.UpdatedReplicas == want && st.Replicas == want && st.AvailableReplicas == want
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

func (c *Deployment) syncPaused(ctx *Context, d *api.Deployment, newRS *api.ReplicaSet, oldRSs []*api.ReplicaSet) (Result, error) {
	ctx.Difference = "paused: no rollout"
	newRS, err := c.getNewReplicaSet(ctx, d, newRS, oldRSs, false)
	if err != nil {
		return Result{}, err
	}
	if newRS != nil && len(activeRSs(oldRSs)) == 0 && api.Deref(newRS.Spec.Replicas, 1) != api.Deref(d.Spec.Replicas, 1) {
		if newRS, err = c.scaleReplicaSet(ctx, d, newRS, api.Deref(d.Spec.Replicas, 1)); err != nil {
			return Result{}, err
		}
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

// syncRolloutStatus judges progress: Progressing (and its deadline),
// Available and ReplicaFailure, then writes status if it changed.
func (c *Deployment) syncRolloutStatus(ctx *Context, d *api.Deployment, newRS *api.ReplicaSet, oldRSs []*api.ReplicaSet) (Result, error) {
	st := calculateStatus(d, newRS, oldRSs)
	c.setAvailability(d, &st, ctx.Now)
	tmp := &api.Deployment{ObjectMeta: d.ObjectMeta, Spec: d.Spec, Status: st}
	if !hasProgressDeadline(d) {
		removeCondition(tmp, "Progressing")
	}
	cur := condition(d, "Progressing")
	want := api.Deref(d.Spec.Replicas, 1)
	isComplete := st.UpdatedReplicas == want && st.Replicas == want && st.AvailableReplicas == want && st.ObservedGeneration >= d.Generation
	// A rollout that already completed is not judged again.
	completed := st.Replicas == st.UpdatedReplicas && cur != nil && cur.Reason == "NewReplicaSetAvailable"
	name := "Deployment " + strconv.Quote(d.Name)
	if newRS != nil {
		name = "ReplicaSet " + strconv.Quote(newRS.Name)
	}
	if hasProgressDeadline(d) && !completed {
		switch {
		case isComplete:
			setCondition(tmp, "Progressing", "True", "NewReplicaSetAvailable", name+" has successfully progressed.", ctx.Now)
		case progressed(&d.Status, &st):
			setCondition(tmp, "Progressing", "True", "ReplicaSetUpdated", name+" is progressing.", ctx.Now)
			// every observed progress refreshes lastUpdateTime
			if pc := condition(tmp, "Progressing"); pc != nil {
				pc.LastUpdateTime = ctx.Now
			}
		case timedOut(d, cur, ctx.Now):
			setCondition(tmp, "Progressing", "False", "ProgressDeadlineExceeded", name+" has timed out progressing.", ctx.Now)
		}
	}
	// ReplicaFailure is copied from the ReplicaSets.
	var failure *api.ReplicaSetCondition
	for _, rs := range append([]*api.ReplicaSet{newRS}, oldRSs...) {
		if rs == nil {
			continue
		}
		for i := range rs.Status.Conditions {
			if rs.Status.Conditions[i].Type == "ReplicaFailure" && failure == nil {
				failure = &rs.Status.Conditions[i]
			}
		}
	}
	if failure != nil {
		setCondition(tmp, "ReplicaFailure", failure.Status, failure.Reason, failure.Message, ctx.Now)
	} else {
		removeCondition(tmp, "ReplicaFailure")
	}
	d.Status = tmp.Status
	// Come back when the deadline would pass.
	var res Result
	if pc := condition(d, "Progressing"); pc != nil && hasProgressDeadline(d) && !isComplete && pc.Reason != "ProgressDeadlineExceeded" && pc.Reason != "NewReplicaSetAvailable" {
		after := pc.LastUpdateTime + api.Duration(api.Deref(d.Spec.ProgressDeadlineSeconds, 600))*api.Second - ctx.Now + api.Second
		if after > 0 {
			res.RequeueAfter, res.RequeueReason = after, RequeueProgressDeadline
		}
	}
	return res, c.writeStatus(ctx, d)
}

// timedOut reports whether the rollout has made no progress for
// progressDeadlineSeconds (and stays timed out once it has).
func timedOut(d *api.Deployment, cur *api.DeploymentCondition, now api.Time) bool {
	switch {
	case cur == nil || cur.Reason == "NewReplicaSetAvailable":
		return false
	case cur.Reason == "ProgressDeadlineExceeded":
		return true
	}
	return cur.LastUpdateTime+api.Duration(api.Deref(d.Spec.ProgressDeadlineSeconds, 600))*api.Second < now
}

func progressed(old, st *api.DeploymentStatus) bool {
	oldOld := old.Replicas - old.UpdatedReplicas
	newOld := st.Replicas - st.UpdatedReplicas
	return st.UpdatedReplicas > old.UpdatedReplicas || newOld < oldOld || st.ReadyReplicas > old.ReadyReplicas || st.AvailableReplicas > old.AvailableReplicas
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

func hasProgressDeadline(d *api.Deployment) bool {
	return d.Spec.ProgressDeadlineSeconds != nil && *d.Spec.ProgressDeadlineSeconds != 1<<31-1
}

func condition(d *api.Deployment, t string) *api.DeploymentCondition {
	for i := range d.Status.Conditions {
		if d.Status.Conditions[i].Type == t {
			return &d.Status.Conditions[i]
		}
	}
	return nil
}

func removeCondition(d *api.Deployment, t string) {
	var out []api.DeploymentCondition
	for _, c := range d.Status.Conditions {
		if c.Type != t {
			out = append(out, c)
		}
	}
	d.Status.Conditions = out
}

// setCondition is a no-op when status and reason are unchanged; otherwise
// it replaces the condition (appended last), keeping lastTransitionTime when
// only the reason changed.
func setCondition(d *api.Deployment, t, status, reason, message string, now api.Time) {
	c := api.DeploymentCondition{Type: t, Status: status, Reason: reason, Message: message, LastUpdateTime: now, LastTransitionTime: now}
	if cur := condition(d, t); cur != nil {
		if cur.Status == status && cur.Reason == reason {
			return
		}
		if cur.Status == status {
			c.LastTransitionTime = cur.LastTransitionTime
		}
	}
	removeCondition(d, t)
	d.Status.Conditions = append(d.Status.Conditions, c)
}
