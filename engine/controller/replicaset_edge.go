package controller

import (
	"fmt"

	"reconcile/engine/api"
	"reconcile/engine/store"
)

// ReplicaSetEdge is the edge-triggered twin of the ReplicaSet controller:
// the lesson's first block. It reacts to each event it is told about —
// a ReplicaSet created or resized, a pod lost — by starting or stopping
// the number of pods the event implies. It never counts the pods that
// exist, so a lost event leaves it short forever, a doubled one makes it
// run too many, and a crash between two actions leaves it wrong.
type ReplicaSetEdge struct{}

// The lines of EdgeLines a pass lights (1-based).
const (
	lineOnFailure = iota + 1
	lineCountLost
	lineStartMore
)

// EdgeLines is the lesson's edge-triggered block, line by line; the
// line* constants name them.
var EdgeLines = []string{
	"on node_failure(node):",
	"  count = pods_lost(node)",
	"  start(count) more pods",
}

// NewReplicaSetEdge returns the edge-triggered ReplicaSet controller.
func NewReplicaSetEdge() *ReplicaSetEdge { return &ReplicaSetEdge{} }

func (e *ReplicaSetEdge) Name() string        { return ReplicaSetController }
func (e *ReplicaSetEdge) Watches() []string   { return []string{"ReplicaSet", "Pod"} }
func (e *ReplicaSetEdge) Clone() EventHandler { return &ReplicaSetEdge{} }

// lost reports whether an event says a pod just stopped counting.
func lost(ev store.WatchEvent) bool {
	p, ok := ev.Object.(*api.Pod)
	if !ok {
		return false
	}
	old, _ := ev.Old.(*api.Pod)
	switch ev.Type {
	case store.Modified:
		return old != nil && IsPodActive(old) && !IsPodActive(p)
	case store.Deleted:
		return IsPodActive(p)
	}
	return false
}

// Handle reacts to one event.
func (e *ReplicaSetEdge) Handle(ctx *Context, ev store.WatchEvent) (Request, Result, error) {
	var rs *api.ReplicaSet
	count := int32(0)
	switch o := ev.Object.(type) {
	case *api.ReplicaSet:
		rs = o
		switch ev.Type {
		case store.Added:
			count = api.Deref(o.Spec.Replicas, 1)
			ctx.DesiredFact = Fact{Is: EdgeCreated, N: int(count), Name: fmt.Sprintf("ReplicaSet %s created with %d replicas", o.Name, count)}
			ctx.Desired = "event: " + ctx.DesiredFact.Name
		case store.Modified:
			old, _ := ev.Old.(*api.ReplicaSet)
			if old == nil || api.Deref(old.Spec.Replicas, 1) == api.Deref(o.Spec.Replicas, 1) {
				return Request{}, Result{}, nil
			}
			count = api.Deref(o.Spec.Replicas, 1) - api.Deref(old.Spec.Replicas, 1)
			ctx.DesiredFact = Fact{Is: EdgeResized, N: int(count), Name: fmt.Sprintf("ReplicaSet %s resized %d → %d", o.Name, api.Deref(old.Spec.Replicas, 1), api.Deref(o.Spec.Replicas, 1))}
			ctx.Desired = "event: " + ctx.DesiredFact.Name
		default:
			return Request{}, Result{}, nil
		}
	case *api.Pod:
		ref := o.ControllerOf()
		if ref == nil || ref.Kind != "ReplicaSet" || !lost(ev) {
			return Request{}, Result{}, nil
		}
		rs, _ = ctx.Cache.Get("ReplicaSet", o.Namespace+"/"+ref.Name).(*api.ReplicaSet)
		if rs == nil {
			return Request{}, Result{}, nil
		}
		count = 1
		ctx.DesiredFact = Fact{Is: EdgeLost, N: int(count), Name: fmt.Sprintf("pod %s lost", o.Name)}
		ctx.Desired = "event: " + ctx.DesiredFact.Name
	default:
		return Request{}, Result{}, nil
	}
	key := api.RefOf(rs).Key()
	ctx.Lines = []int{lineOnFailure, lineCountLost, lineStartMore}
	ctx.Observed = "not observed: the count comes from the event"
	ctx.Difference = fmt.Sprintf("count = %+d", count)
	if cur, ok := ctx.Cache.Get("ReplicaSet", key).(*api.ReplicaSet); ok {
		rs = cur
	}
	for i := int32(0); i < count; i++ {
		pod, err := ctx.Create(podFromTemplate(rs), func(o api.Object) Action { return OnPod(Start, o.Meta().Name, "") })
		if err != nil {
			if err != ErrCrashed {
				ctx.Event(rs, "Warning", "FailedCreate", "Error creating: %v", err)
			}
			return Request{Key: key}, Result{}, err
		}
		ctx.Event(rs, "Normal", "SuccessfulCreate", "Created pod: %s", pod.Meta().Name)
	}
	if count < 0 {
		pods := activePods(ctx.Cache, rs)
		for _, p := range podsToDelete(pods, min(int(-count), len(pods)), ctx.Now) {
			if err := ctx.Delete("Pod", p.Namespace, p.Name, false, OnPod(Stop, p.Name, "")); err != nil {
				return Request{Key: key}, Result{}, err
			}
			ctx.Event(rs, "Normal", "SuccessfulDelete", "Deleted pod: %s", p.Name)
		}
	}
	return Request{Key: key}, Result{Outcome: Acted}, nil
}

// ReportStatus writes the status of the ReplicaSet an event is about (the
// ReplicaSet, or the owner of the pod) from the cache: the edge twin still
// reports what it sees, it just never acts on it.
func (e *ReplicaSetEdge) ReportStatus(ctx *Context, ev store.WatchEvent) error {
	key := ""
	switch o := ev.Object.(type) {
	case *api.ReplicaSet:
		key = api.RefOf(o).Key()
	case *api.Pod:
		if ref := o.ControllerOf(); ref != nil && ref.Kind == "ReplicaSet" {
			key = o.Namespace + "/" + ref.Name
		}
	}
	if key == "" {
		return nil
	}
	rs, _ := ctx.Cache.Get("ReplicaSet", key).(*api.ReplicaSet)
	if rs == nil {
		return nil
	}
	st := CalculateReplicaSetStatus(rs, activePods(ctx.Cache, rs), nil, ctx.Now)
	if equalRSStatus(rs.Status, st) {
		return nil
	}
	n := rs.DeepCopy()
	n.Status = st
	_, err := ctx.UpdateStatus(n, Action{})
	return err
}
