package controller

import (
	"fmt"

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
	case isScalingEvent(d, newRS, oldRSs):
		res, err = c.syncScale(ctx, d, newRS, oldRSs)
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
