package controller

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"

	"reconcile/engine/api"
	"reconcile/engine/informer"
	"reconcile/engine/store"
)

// PodGCController is the pod garbage collector's name in
// kube-controller-manager.
const PodGCController = "pod-garbage-collector-controller"

// Pod garbage collector settings (pkg/controller/podgc, v1.34).
const (
	// PodGCCheckPeriod is how often it looks at every pod (gcCheckPeriod).
	PodGCCheckPeriod = 20 * api.Second
	// PodGCQuarantine is how long a node must be missing before its pods
	// are deleted (quarantineTime).
	PodGCQuarantine = 40 * api.Second
	// TerminatedPodGCThreshold is --terminated-pod-gc-threshold's default.
	TerminatedPodGCThreshold = 12500
	// OutOfServiceTaint marks a node shut down for good (non-graceful node
	// shutdown): the pods terminating on it are force-deleted.
	OutOfServiceTaint = "node.kubernetes.io/out-of-service"
)

// PodGC is the pod garbage collector (pkg/controller/podgc): it deletes
// the pods no kubelet will ever finish.
//
// Every 20s (gcCheckPeriod) it lists every pod and node from its cache and,
// in the source's order, finds:
//
//   - gcTerminated: terminated pods (Succeeded or Failed) beyond
//     --terminated-pod-gc-threshold (12500), evicted ones first, then the
//     oldest, are deleted;
//   - gcTerminating: pods being deleted on a node that is not ready and
//     carries the node.kubernetes.io/out-of-service taint are marked
//     Failed and force-deleted;
//   - gcOrphaned: a node that pods are bound to and the cache does not
//     hold is put in quarantine for 40s (quarantineTime); at the first
//     check after that, a node still missing from the cache and from the
//     API server (a live read) is gone, and its pods are marked Failed
//     with the condition DisruptionTarget (reason DeletionByPodGC, "PodGC:
//     node no longer exists"), then force-deleted (grace period 0). A pod
//     is so deleted 40 to 60s after its node;
//   - gcUnscheduledTerminating: pods being deleted that were never bound
//     to a node are marked Failed and force-deleted.
//
// Each pod found is a key ("namespace/name"), reconciled in a pass of its
// own: the pass checks again what the check found, against the cache (and,
// for a node gone, the API server), and acts as markFailedAndDeletePod
// does: the status patch to Failed first (unless the pod has finished),
// then the delete with a grace period of 0. The collector records no
// event; the pass's difference is the source's log line.
//
// Not simulated: a pod whose deletion the collector can no longer change
// (finished, being deleted with no grace period left, kept by a finalizer)
// is not deleted again every 20s, as the source does to no effect; the
// first check runs one period after the controller-manager starts, not at
// once.
type PodGC struct {
	// quarantine holds the nodes pods are bound to that the cache did not
	// hold at a check, each with when it is due to be looked at again: the
	// source's delaying queue of nodes (orphaned_pods_nodes).
	quarantine map[string]api.Time
	// due holds the pods the last check found, by key, each with the rule
	// that found it; the passes act on them.
	due map[string]podGCDue
	// threshold is --terminated-pod-gc-threshold (0: gcTerminated off).
	threshold int
}

// podGCDue is why the check found a pod.
type podGCDue struct {
	rule podGCRule
	// terminated is how many pods had finished (gcTerminated).
	terminated int
}

// podGCRule is one of the collector's searches.
type podGCRule uint8

const (
	_ podGCRule = iota
	gcTerminated
	gcTerminating
	gcOrphaned
	gcUnscheduledTerminating
)

// NewPodGC returns the pod garbage collector.
func NewPodGC() *PodGC { return &PodGC{threshold: TerminatedPodGCThreshold} }

func (g *PodGC) Name() string      { return PodGCController }
func (g *PodGC) Watches() []string { return []string{"Pod", "Node"} }
func (g *PodGC) Clone() Reconciler {
	return &PodGC{quarantine: maps.Clone(g.quarantine), due: maps.Clone(g.due), threshold: g.threshold}
}

// Restarted forgets the quarantine: a new process starts its clocks again.
func (g *PodGC) Restarted() { g.quarantine, g.due = nil, nil }

// Keys asks for nothing: the collector works from its periodic check.
func (g *PodGC) Keys(*informer.Cache, store.WatchEvent) []string { return nil }

// Period is gcCheckPeriod.
func (g *PodGC) Period() api.Duration { return PodGCCheckPeriod }

// settled reports whether the collector can change nothing more of p: it
// has finished and is being deleted with no grace period left (a
// finalizer keeps it).
func settled(p *api.Pod) bool {
	return podFinished(p) && p.DeletionTimestamp != nil && p.DeletionGracePeriodSeconds != nil && *p.DeletionGracePeriodSeconds == 0
}

// podFinished is the source's isPodTerminated: Succeeded or Failed.
func podFinished(p *api.Pod) bool {
	return p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed
}

// outOfService reports whether a node is not ready and tainted
// out-of-service.
func outOfService(n *api.Node) bool {
	ready := nodeCondition(n, "Ready")
	return (ready == nil || ready.Status != "True") && hasTaint(n, OutOfServiceTaint)
}

// podGCScan is what one look at every pod finds.
type podGCScan struct {
	terminated  []*api.Pod // finished pods the collector can still delete
	nTerminated int        // finished pods, all of them
	terminating []*api.Pod
	missing     []string // nodes pods are bound to that the cache lacks, sorted
	unscheduled []*api.Pod
}

// scan looks at every cached pod, as the check's lists do; when quick, it
// stops at the first pod the collector would act on, now or at a later
// check, and says why (Idle).
func (g *PodGC) scan(c *informer.Cache, quick bool) (s podGCScan, busy string) {
	for _, o := range c.List("Pod") {
		p := o.(*api.Pod)
		if podFinished(p) {
			s.nTerminated++
			if !settled(p) {
				s.terminated = append(s.terminated, p)
			}
		}
		if settled(p) {
			continue
		}
		if p.Spec.NodeName == "" {
			if p.DeletionTimestamp != nil && !podFinished(p) {
				if quick {
					return s, fmt.Sprintf("pod %s is being deleted and was never scheduled: the pod garbage collector force-deletes it at its next check (every %s)",
						p.Name, api.FormatDuration(PodGCCheckPeriod))
				}
				s.unscheduled = append(s.unscheduled, p)
			}
			continue
		}
		n, _ := c.Get("Node", p.Spec.NodeName).(*api.Node)
		switch {
		case n == nil:
			if quick {
				return s, fmt.Sprintf("pod %s is bound to node %s, which is gone: the pod garbage collector deletes it once the node has been missing for %s (it checks every %s)",
					p.Name, p.Spec.NodeName, api.FormatDuration(PodGCQuarantine), api.FormatDuration(PodGCCheckPeriod))
			}
			if !slices.Contains(s.missing, p.Spec.NodeName) {
				s.missing = append(s.missing, p.Spec.NodeName)
			}
		case p.DeletionTimestamp != nil && outOfService(n):
			if quick {
				return s, fmt.Sprintf("pod %s is terminating on node %s, which is out of service: the pod garbage collector force-deletes it at its next check", p.Name, n.Name)
			}
			s.terminating = append(s.terminating, p)
		}
	}
	if g.threshold > 0 && s.nTerminated > g.threshold && len(s.terminated) > 0 {
		busy = fmt.Sprintf("%d pods have finished, more than --terminated-pod-gc-threshold %d: the pod garbage collector deletes the oldest", s.nTerminated, g.threshold)
	}
	sort.Strings(s.missing)
	return s, busy
}

// Tick is the check (gc): it finds the pods to delete, and moves nodes
// into and out of quarantine.
func (g *PodGC) Tick(c *informer.Cache, _ World, now api.Time) ([]string, string) {
	s, _ := g.scan(c, false)
	g.due = nil
	var keys []string
	find := func(p *api.Pod, d podGCDue) {
		k := api.RefOf(p).Key()
		if _, ok := g.due[k]; ok {
			return
		}
		if g.due == nil {
			g.due = map[string]podGCDue{}
		}
		g.due[k] = d
		keys = append(keys, k)
	}
	if del := s.nTerminated - g.threshold; g.threshold > 0 && del > 0 {
		slices.SortStableFunc(s.terminated, evictedThenOldest)
		for _, p := range s.terminated[:min(del, len(s.terminated))] {
			find(p, podGCDue{rule: gcTerminated, terminated: s.nTerminated})
		}
	}
	for _, p := range s.terminating {
		find(p, podGCDue{rule: gcTerminating})
	}
	// Nodes whose quarantine is over leave the queue; every node missing
	// now is queued for 40s, unless it waits already.
	var ready []string
	for _, n := range slices.Sorted(maps.Keys(g.quarantine)) {
		if g.quarantine[n] <= now {
			ready = append(ready, n)
			delete(g.quarantine, n)
		}
	}
	for _, n := range s.missing {
		if _, waiting := g.quarantine[n]; !waiting {
			if g.quarantine == nil {
				g.quarantine = map[string]api.Time{}
			}
			g.quarantine[n] = now + PodGCQuarantine
		}
	}
	for _, n := range ready {
		if c.Get("Node", n) != nil {
			continue // back
		}
		for _, p := range c.PodsOnNode(n) {
			if !settled(p) {
				find(p, podGCDue{rule: gcOrphaned})
			}
		}
	}
	for _, p := range s.unscheduled {
		find(p, podGCDue{rule: gcUnscheduledTerminating})
	}
	return keys, "gcCheckPeriod 20s"
}

// evictedThenOldest orders finished pods as the source deletes them:
// evicted first, then by creation, then by name.
func evictedThenOldest(a, b *api.Pod) int {
	ea, eb := a.Status.Phase == api.PodFailed && a.Status.Reason == "Evicted", b.Status.Phase == api.PodFailed && b.Status.Reason == "Evicted"
	switch {
	case ea != eb:
		if ea {
			return -1
		}
		return 1
	case a.CreationTimestamp != b.CreationTimestamp:
		if a.CreationTimestamp < b.CreationTimestamp {
			return -1
		}
		return 1
	}
	if a.Name < b.Name {
		return -1
	} else if a.Name > b.Name {
		return 1
	}
	return 0
}

// Idle reports whether the next checks would find nothing: no pod bound
// to a node that is missing, being deleted unscheduled or on a node out of
// service, and no more finished pods than the threshold.
func (g *PodGC) Idle(c *informer.Cache, _ World, _ api.Time) (bool, string) {
	if _, busy := g.scan(c, true); busy != "" {
		return false, busy
	}
	return true, ""
}

// Reconcile runs one pass for a pod the check found: it looks again, and
// deletes the pod as the check's rule says.
func (g *PodGC) Reconcile(ctx *Context, req Request) (Result, error) {
	p, _ := ctx.Cache.Get("Pod", req.Key).(*api.Pod)
	if p == nil {
		ctx.Deleted("pod deleted")
		return ctx.NothingToDo(), nil
	}
	d, ok := g.due[req.Key]
	if !ok || settled(p) {
		ctx.Desired, ctx.Observed = "no pod left that no kubelet will finish", "pod "+p.Name+": nothing the last check found"
		return ctx.NothingToDo(), nil
	}
	var cond *api.PodCondition
	switch d.rule {
	case gcTerminated:
		ctx.Desired = fmt.Sprintf("at most %d finished pods (--terminated-pod-gc-threshold)", g.threshold)
		ctx.Observed = fmt.Sprintf("%d finished pods; pod %s %s", d.terminated, p.Name, p.Status.Phase)
		if !podFinished(p) {
			return ctx.NothingToDo(), nil
		}
		ctx.Difference = "Garbage collecting pods"
	case gcTerminating:
		ctx.Desired = "no pod terminating on a node that is out of service"
		n, _ := ctx.Cache.Get("Node", p.Spec.NodeName).(*api.Node)
		if p.DeletionTimestamp == nil || n == nil || !outOfService(n) {
			ctx.Observed = "pod " + p.Name + " not terminating on a node out of service"
			return ctx.NothingToDo(), nil
		}
		ctx.Observed = fmt.Sprintf("pod %s terminating on node %s, not ready and tainted %s", p.Name, n.Name, OutOfServiceTaint)
		ctx.Difference = "Garbage collecting pod that is terminating"
	case gcOrphaned:
		ctx.Desired = "no pod bound to a node that no longer exists"
		node := p.Spec.NodeName
		if node == "" || ctx.Cache.Get("Node", node) != nil || ctx.API.Get("Node", "", node) != nil {
			ctx.Observed = fmt.Sprintf("pod %s bound to node %q, which exists", p.Name, node)
			return ctx.NothingToDo(), nil
		}
		ctx.Observed = fmt.Sprintf("pod %s bound to node %s: not found after %s of quarantine", p.Name, node, api.FormatDuration(PodGCQuarantine))
		ctx.Difference = "Found orphaned Pod assigned to the Node, deleting"
		cond = &api.PodCondition{Type: "DisruptionTarget", Status: "True", Reason: "DeletionByPodGC", Message: "PodGC: node no longer exists"}
	case gcUnscheduledTerminating:
		ctx.Desired = "no pod being deleted that was never scheduled"
		if p.DeletionTimestamp == nil || p.Spec.NodeName != "" {
			ctx.Observed = "pod " + p.Name + " not terminating unscheduled"
			return ctx.NothingToDo(), nil
		}
		ctx.Observed = fmt.Sprintf("pod %s being deleted, bound to no node", p.Name)
		ctx.Difference = "Found unscheduled terminating Pod not assigned to any Node, deleting"
	}
	if err := g.markFailedAndDelete(ctx, p, cond); err != nil && !errors.Is(err, store.ErrNotFound) {
		return Result{}, err // a not-found is the end of it, as the source ignores it
	}
	delete(g.due, req.Key)
	if len(ctx.Actions) == 0 {
		ctx.Difference = "none: the pod is gone"
		return ctx.NothingToDo(), nil
	}
	return Result{Outcome: Acted}, nil
}

// markFailedAndDelete is markFailedAndDeletePodWithCondition ("PodGC is
// force deleting Pod"): a pod that has not finished is patched to Failed
// first (with cond, if any), as no kubelet will ever report it, then it is
// deleted with a grace period of 0.
func (g *PodGC) markFailedAndDelete(ctx *Context, p *api.Pod, cond *api.PodCondition) error {
	if !podFinished(p) {
		live, _ := ctx.API.Get("Pod", p.Namespace, p.Name).(*api.Pod)
		if live == nil || live.UID != p.UID {
			return store.NotFound("Pod", p.Name) // the patch's UID precondition
		}
		np := live.DeepCopy()
		np.Status.Phase = api.PodFailed
		tail := "Failed"
		if cond != nil {
			setPodCondition(np, *cond, ctx.Now)
			tail += fmt.Sprintf(", %s=%s (%s)", cond.Type, cond.Status, cond.Reason)
		}
		if _, err := ctx.UpdateStatus(np, OnPod(Mark, p.Name, tail)); err != nil {
			return err
		}
	}
	return ctx.Delete("Pod", p.Namespace, p.Name, true, OnPod(Delete, p.Name, "(force: grace period 0)"))
}
