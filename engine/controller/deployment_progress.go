package controller

import (
	"strconv"

	"reconcile/engine/api"
)

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
