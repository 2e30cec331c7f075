package controller

import (
	"fmt"
	"maps"
	"slices"
	"sort"

	"reconcile/engine/api"
	"reconcile/engine/informer"
	"reconcile/engine/store"
)

// NodeLifecycle is the node lifecycle controller (with taint-based eviction).
//
// Desired: every node's kubelet renews its lease within the grace period.
// Observed: the time since each node's last heartbeat. Difference: a node
// silent for longer than the grace period becomes Ready=Unknown and is
// tainted unreachable; once the pods' toleration (300 s by default) runs
// out they are evicted, so their ReplicaSets replace them elsewhere. When
// every node is silent, nothing is evicted.
type NodeLifecycle struct {
	// seen is when it first saw each NoExecute taint a user set
	// (taint_eviction.go), by node and taint.
	seen map[string]api.Time
}

// Node lifecycle settings (Kubernetes v1.32+ defaults).
const (
	NodeMonitorPeriod      = 5 * api.Second
	NodeMonitorGracePeriod = 50 * api.Second
	DefaultTolerationSecs  = 300
	UnreachableTaint       = "node.kubernetes.io/unreachable"
	NotReadyTaint          = "node.kubernetes.io/not-ready"
	UnschedulableTaint     = "node.kubernetes.io/unschedulable"
)

// NewNodeLifecycle returns the node lifecycle controller.
func NewNodeLifecycle() *NodeLifecycle { return &NodeLifecycle{} }

func (c *NodeLifecycle) Name() string      { return NodeLifecycleController }
func (c *NodeLifecycle) Watches() []string { return []string{"Node", "Pod"} }
func (c *NodeLifecycle) Clone() Reconciler { return &NodeLifecycle{seen: maps.Clone(c.seen)} }

// Restarted forgets when it saw the users' taints: it starts their
// clocks again, as the controller's queue of timed evictions is lost.
func (c *NodeLifecycle) Restarted() { c.seen = nil }

// Keys queues a node whose kubelet posted Ready while it is still tainted.
func (c *NodeLifecycle) Keys(cache *informer.Cache, ev store.WatchEvent) []string {
	if n, ok := ev.Object.(*api.Node); ok && ev.Type != store.Deleted {
		// A user's NoExecute taint set or taken off: its pods are looked at.
		var old []api.Taint
		if o, ok := ev.Old.(*api.Node); ok {
			old = o.Spec.Taints
		}
		if (slices.ContainsFunc(n.Spec.Taints, userNoExecute) || slices.ContainsFunc(old, userNoExecute)) && !slices.EqualFunc(old, n.Spec.Taints, func(a, b api.Taint) bool {
			return a.Key == b.Key && a.Value == b.Value && a.Effect == b.Effect
		}) {
			return []string{n.Name}
		}
		if cond := nodeCondition(n, "Ready"); cond != nil && cond.Status == "True" && (hasTaint(n, UnreachableTaint) || hasTaint(n, NotReadyTaint)) {
			return []string{n.Name}
		}
		if needsNotReadyTaints(n) {
			return []string{n.Name} // the kubelet posted NotReady
		}
		if cordonTainted(n) != n.Spec.Unschedulable {
			return []string{n.Name} // cordoned or uncordoned
		}
	}
	return nil
}

// cordonTainted reports whether n carries the unschedulable NoSchedule
// taint that the controller keeps on a cordoned node.
func cordonTainted(n *api.Node) bool {
	return slices.ContainsFunc(n.Spec.Taints, func(t api.Taint) bool { return t.Key == UnschedulableTaint && t.Effect == "NoSchedule" })
}

// cordonTaint taints a node cordoned (spec.unschedulable) with
// node.kubernetes.io/unschedulable:NoSchedule, or takes the taint off a
// node uncordoned, as doNoScheduleTaintingPass does (TaintNodesByCondition).
func (c *NodeLifecycle) cordonTaint(ctx *Context, n *api.Node) (Result, error) {
	ctx.Desired = fmt.Sprintf("taint %s:NoSchedule only while the node is cordoned", UnschedulableTaint)
	ctx.Observed = fmt.Sprintf("spec.unschedulable=%v, tainted=%v", n.Spec.Unschedulable, cordonTainted(n))
	ctx.DifferenceFact = Fact{Is: CordonTaint, Name: "uncordoned"}
	nn := n.DeepCopy()
	step := Do(Taint, n.Name+" "+UnschedulableTaint+":NoSchedule")
	if n.Spec.Unschedulable {
		ctx.DifferenceFact.Name = "cordoned"
		ctx.Difference = "node cordoned: taint " + UnschedulableTaint
		now := ctx.Now
		nn.Spec.Taints = append(nn.Spec.Taints, api.Taint{Key: UnschedulableTaint, Effect: "NoSchedule", TimeAdded: &now})
	} else {
		ctx.Difference = "node uncordoned: remove taint " + UnschedulableTaint
		nn.Spec.Taints = slices.DeleteFunc(nn.Spec.Taints, func(t api.Taint) bool { return t.Key == UnschedulableTaint && t.Effect == "NoSchedule" })
		if len(nn.Spec.Taints) == 0 {
			nn.Spec.Taints = nil
		}
		step = Do(Remove, "taint "+UnschedulableTaint+" from "+n.Name)
	}
	if _, err := ctx.Update(nn, step); err != nil {
		return Result{}, err
	}
	return Result{Outcome: Acted}, nil
}

// Period is how often Tick runs.
func (c *NodeLifecycle) Period() api.Duration { return NodeMonitorPeriod }

// Tick is the monitor: it queues nodes whose heartbeat is overdue and nodes
// whose pods are due for eviction.
func (c *NodeLifecycle) Tick(cache *informer.Cache, w World, now api.Time) (keys []string, reason string) {
	// Checked in key order, queued in name order (sorted below).
	for _, o := range cache.List("Node") {
		n := o.(*api.Node)
		ready := nodeCondition(n, "Ready")
		silent := now - lastHeartbeat(w, n)
		switch {
		case silent > NodeMonitorGracePeriod && (ready == nil || ready.Status != "Unknown"):
			keys = append(keys, n.Name)
		case ready != nil && ready.Status != "True" && dueEviction(cache, n, now) > 0:
			keys = append(keys, n.Name)
		case c.userDue(cache, n, now) > 0:
			keys = append(keys, n.Name)
		}
	}
	sort.Strings(keys)
	return keys, "node-monitor-period 5s"
}

// Idle reports whether the node monitor's next ticks would find nothing:
// every node's kubelet renews its lease, and no pod on an unreachable node
// is due for eviction.
func (c *NodeLifecycle) Idle(cache *informer.Cache, w World, now api.Time) (bool, string) {
	for _, o := range cache.List("Node") {
		n := o.(*api.Node)
		ready := nodeCondition(n, "Ready")
		switch {
		case !w.Heartbeating(n.Name) && (ready == nil || ready.Status != "Unknown"):
			return false, fmt.Sprintf("the kubelet of node %s stopped renewing its lease (last at t=%s): the node monitor marks the node Unknown %s after that",
				n.Name, lastHeartbeat(w, n), api.FormatDuration(NodeMonitorGracePeriod))
		case ready != nil && ready.Status != "True" && dueEviction(cache, n, now) > 0,
			c.userDue(cache, n, now) > 0:
			return false, fmt.Sprintf("pods on node %s are due for eviction", n.Name)
		}
	}
	return true, ""
}

// lastHeartbeat is the node's last lease renewal (its creation if later).
func lastHeartbeat(w World, n *api.Node) api.Time {
	return max(n.CreationTimestamp, w.LastHeartbeat(n.Name))
}

func hasTaint(n *api.Node, key string) bool {
	for _, t := range n.Spec.Taints {
		if t.Key == key {
			return true
		}
	}
	return false
}

func taintAdded(n *api.Node, key, effect string) (api.Time, bool) {
	for _, t := range n.Spec.Taints {
		if t.Key == key && t.Effect == effect && t.TimeAdded != nil {
			return *t.TimeAdded, true
		}
	}
	return 0, false
}

func tolerationSeconds(p *api.Pod, key string) (int64, bool) {
	for _, t := range p.Spec.Tolerations {
		if t.Tolerates(api.Taint{Key: key, Effect: "NoExecute"}) {
			if t.TolerationSeconds == nil {
				return 0, false // tolerated forever
			}
			return *t.TolerationSeconds, true
		}
	}
	return 0, true
}

// evictionTaint is the NoExecute taint the controller sets on a node that
// is not ready: unreachable when its kubelet went silent (Ready=Unknown),
// not-ready when the kubelet says so (Ready=False).
func evictionTaint(n *api.Node) string {
	if cond := nodeCondition(n, "Ready"); cond != nil && cond.Status == "False" {
		return NotReadyTaint
	}
	return UnreachableTaint
}

// dueEviction counts the pods on n whose toleration of its NoExecute
// taint (unreachable or not-ready) has run out.
func dueEviction(cache *informer.Cache, n *api.Node, now api.Time) int {
	key := evictionTaint(n)
	added, ok := taintAdded(n, key, "NoExecute")
	if !ok {
		return 0
	}
	due := 0
	for _, p := range cache.PodsOnNode(n.Name) {
		if p.DeletionTimestamp != nil {
			continue
		}
		if secs, evict := tolerationSeconds(p, key); evict && added+api.Duration(secs)*api.Second <= now {
			due++
		}
	}
	return due
}

// Reconcile runs one pass for a node.
func (c *NodeLifecycle) Reconcile(ctx *Context, req Request) (Result, error) {
	key := req.Key
	n, _ := ctx.Cache.Get("Node", key).(*api.Node)
	if n == nil {
		ctx.Deleted("node deleted")
		return ctx.NothingToDo(), nil
	}
	c.noteTaints(n, ctx.Now)
	if slices.ContainsFunc(n.Spec.Taints, userNoExecute) {
		ctx.Desired = "no pod on " + n.Name + " that does not tolerate its NoExecute taints"
		ctx.Observed = fmt.Sprintf("%d pods on the node", len(ctx.Cache.PodsOnNode(n.Name)))
		next, err := c.userEvictions(ctx, n)
		if err != nil {
			return Result{}, err
		}
		if len(ctx.Actions) > 0 || next > 0 {
			ctx.Difference, ctx.DifferenceFact = "evict pods whose toleration ran out", Fact{Is: EvictPods}
			res := Result{Outcome: Acted}
			if len(ctx.Actions) == 0 {
				res.Outcome = ctx.NothingToDo().Outcome
			}
			if next > 0 {
				res.RequeueAfter, res.RequeueReason = next-ctx.Now, RequeueEviction
			}
			return res, nil
		}
	}
	if cordonTainted(n) != n.Spec.Unschedulable {
		return c.cordonTaint(ctx, n)
	}
	silent := ctx.Now - lastHeartbeat(ctx.World, n)
	ready := nodeCondition(n, "Ready")
	ctx.Desired = fmt.Sprintf("heartbeat within %s", api.FormatDuration(NodeMonitorGracePeriod))
	ctx.Observed = fmt.Sprintf("last heartbeat %s ago, Ready=%s", api.FormatDuration(silent), condStatus(ready))
	ctx.DesiredFact, ctx.ObservedFact = Fact{Is: HeartbeatWithin, D: NodeMonitorGracePeriod}, Fact{Is: LastHeartbeat, D: silent}
	switch {
	case silent > NodeMonitorGracePeriod && (ready == nil || ready.Status != "Unknown"):
		return c.markUnknown(ctx, n)
	case ready != nil && ready.Status == "True" && (hasTaint(n, UnreachableTaint) || hasTaint(n, NotReadyTaint)):
		ctx.Difference, ctx.DifferenceFact = "node is back: remove unreachable taints", Fact{Is: NodeBack}
		removed := UnreachableTaint
		if !hasTaint(n, UnreachableTaint) {
			ctx.Difference = "node is ready: remove not-ready taints"
			removed = NotReadyTaint
		}
		nn := n.DeepCopy()
		var keep []api.Taint
		for _, t := range nn.Spec.Taints {
			if t.Key != UnreachableTaint && t.Key != NotReadyTaint {
				keep = append(keep, t)
			}
		}
		nn.Spec.Taints = keep
		if _, err := ctx.Update(nn, Do(Remove, "taint "+removed+" from "+n.Name)); err != nil {
			return Result{}, err
		}
		return Result{Outcome: Acted}, nil
	case needsNotReadyTaints(n):
		return c.markNotReady(ctx, n, ready.Message)
	case ready != nil && ready.Status != "True":
		return c.evict(ctx, n)
	}
	return ctx.NothingToDo(), nil
}

func (c *NodeLifecycle) allSilent(ctx *Context) bool {
	for _, o := range ctx.Cache.List("Node") {
		if ctx.Now-lastHeartbeat(ctx.World, o.(*api.Node)) <= NodeMonitorGracePeriod {
			return false
		}
	}
	return true
}

// NodeStatusRef is how the node controllers name a node in its status
// events (pkg/controller/util/node RecordNodeStatusChange): a reference of
// their own, apiVersion v1, kind, name and UID, no resourceVersion.
func NodeStatusRef(n *api.Node) api.ObjectReference {
	return api.ObjectReference{Kind: "Node", Name: n.Name, UID: n.UID, APIVersion: "v1"}
}

func (c *NodeLifecycle) markUnknown(ctx *Context, n *api.Node) (Result, error) {
	ctx.Difference, ctx.DifferenceFact = "heartbeat overdue: mark Ready=Unknown", Fact{Is: HeartbeatOverdue}
	nn := n.DeepCopy()
	for _, t := range []string{"MemoryPressure", "DiskPressure", "PIDPressure", "Ready"} {
		cond := nodeCondition(nn, t)
		if cond == nil {
			nn.Status.Conditions = append(nn.Status.Conditions, api.NodeCondition{Type: t})
			cond = &nn.Status.Conditions[len(nn.Status.Conditions)-1]
		}
		cond.Status, cond.Reason, cond.Message, cond.LastTransitionTime = "Unknown", "NodeStatusUnknown", "Kubelet stopped posting node status.", ctx.Now
	}
	out, err := ctx.UpdateStatus(nn, Do(Set, n.Name+" Ready=Unknown (Kubelet stopped posting node status.)"))
	if err != nil {
		return Result{}, err
	}
	ctx.API.RecordAbout("node-controller", "", NodeStatusRef(n), "Normal", "NodeNotReady", fmt.Sprintf("Node %s status is now: NodeNotReady", n.Name))
	for _, p := range ctx.Cache.PodsOnNode(n.Name) {
		if !IsPodReady(p) {
			continue
		}
		np := p.DeepCopy()
		setPodCondition(np, api.PodCondition{Type: "Ready", Status: "False"}, ctx.Now)
		if _, err := ctx.UpdateStatus(np, OnPod(Mark, p.Name, "not ready")); err != nil {
			return Result{}, err
		}
		ctx.API.Record("node-controller", "", p, "Warning", "NodeNotReady", "Node is not ready")
	}
	if c.allSilent(ctx) {
		// Kubernetes logs this; it records no event.
		ctx.Difference += "; Controller detected that all Nodes are not-Ready. Entering master disruption mode: no taints, no evictions"
		return Result{Outcome: Acted}, nil
	}
	nn = out.(*api.Node).DeepCopy()
	now := ctx.Now
	// A node that was not ready (Ready=False) swaps those taints.
	nn.Spec.Taints = slices.DeleteFunc(nn.Spec.Taints, func(t api.Taint) bool { return t.Key == NotReadyTaint })
	nn.Spec.Taints = append(nn.Spec.Taints, NodeTaints(UnreachableTaint, now)...)
	if _, err := ctx.Update(nn, Do(Taint, n.Name+" "+UnreachableTaint+":NoSchedule and :NoExecute")); err != nil {
		return Result{}, err
	}
	return Result{Outcome: Acted, RequeueAfter: DefaultTolerationSecs * api.Second, RequeueReason: RequeueToleration}, nil
}

// markNotReady taints a node whose kubelet posted Ready=False: not-ready
// NoSchedule, so the scheduler places nothing there, and NoExecute, so its
// pods are evicted once their toleration (300 s by default) runs out. A
// node back from unreachable swaps those taints for these.
func (c *NodeLifecycle) markNotReady(ctx *Context, n *api.Node, why string) (Result, error) {
	ctx.Difference = "kubelet posted Ready=False: taint " + NotReadyTaint
	if !hasTaint(n, NotReadyTaint) {
		ctx.API.RecordAbout("node-controller", "", NodeStatusRef(n), "Normal", "NodeNotReady", fmt.Sprintf("Node %s status is now: NodeNotReady", n.Name))
	}
	nn := n.DeepCopy()
	now := ctx.Now
	nn.Spec.Taints = slices.DeleteFunc(nn.Spec.Taints, func(t api.Taint) bool { return t.Key == UnreachableTaint || t.Key == NotReadyTaint })
	nn.Spec.Taints = append(nn.Spec.Taints, NodeTaints(NotReadyTaint, now)...)
	if _, err := ctx.Update(nn, Do(Taint, n.Name+" "+NotReadyTaint+":NoSchedule and :NoExecute ("+why+")")); err != nil {
		return Result{}, err
	}
	return Result{Outcome: Acted, RequeueAfter: DefaultTolerationSecs * api.Second, RequeueReason: RequeueToleration}, nil
}

// NodeTaints are the pair the node lifecycle controller sets on a node
// that is not ready or unreachable (key), added at: NoSchedule, so the
// scheduler places nothing there, and NoExecute, so its pods are evicted
// once their toleration runs out.
func NodeTaints(key string, at api.Time) []api.Taint {
	return []api.Taint{{Key: key, Effect: "NoSchedule", TimeAdded: &at}, {Key: key, Effect: "NoExecute", TimeAdded: &at}}
}

// needsNotReadyTaints reports whether n's kubelet posts Ready=False while
// the node is not tainted not-ready, or still tainted unreachable.
func needsNotReadyTaints(n *api.Node) bool {
	cond := nodeCondition(n, "Ready")
	return cond != nil && cond.Status == "False" && (!hasTaint(n, NotReadyTaint) || hasTaint(n, UnreachableTaint))
}

func (c *NodeLifecycle) evict(ctx *Context, n *api.Node) (Result, error) {
	var res Result
	key := evictionTaint(n)
	added, ok := taintAdded(n, key, "NoExecute")
	if !ok {
		ctx.Difference = "no NoExecute taint: nothing to evict"
		return ctx.NothingToDo(), nil
	}
	ctx.Difference, ctx.DifferenceFact = "evict pods whose toleration ran out", Fact{Is: EvictPods}
	for _, p := range ctx.Cache.PodsOnNode(n.Name) {
		if p.DeletionTimestamp != nil {
			continue
		}
		secs, evict := tolerationSeconds(p, key)
		if !evict {
			continue
		}
		if due := added + api.Duration(secs)*api.Second; due > ctx.Now {
			res.requeueSooner(due-ctx.Now, RequeueEviction)
			continue
		}
		if err := evictPod(ctx, p); err != nil {
			return Result{}, err
		}
	}
	if len(ctx.Actions) == 0 {
		res.Outcome = ctx.NothingToDo().Outcome
	} else {
		res.Outcome = Acted
	}
	return res, nil
}
