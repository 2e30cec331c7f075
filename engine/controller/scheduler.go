package controller

import (
	"fmt"
	"sort"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/pmap"
	"reconcile/engine/store"
)

// SchedulerLoop is the default scheduler.
//
// Desired: every pod bound to a node. Observed: a pod with no
// spec.nodeName. Difference: find the nodes that pass every filter
// (NodeUnschedulable, TaintToleration, NodeAffinity, NodeResourcesFit),
// bind to the best-scored one, or report why none fits.
type SchedulerLoop struct {
	// usage is what the scheduler has counted on each node, by pod key.
	usage pmap.Map[podUsage]
	// nodes are the known nodes by name, and list the same sorted by name.
	nodes map[string]*nodeUsage
	list  []*nodeUsage
	// next is where the next search starts, so that work spreads over
	// the nodes as the real scheduler's does.
	next int
}

// feasibleToFind is how many fitting nodes the scheduler looks for before
// it stops searching: all of them in small clusters, an adaptive share
// (50% minus 1% per 125 nodes, at least 5%, at least 100 nodes) in big ones.
func feasibleToFind(all int) int {
	if all < 100 {
		return all
	}
	pct := max(50-all/125, 5)
	return max(all*pct/100, 100)
}

type podUsage struct {
	node     string
	cpu, mem int64
}

type nodeUsage struct {
	node     *api.Node
	cpu, mem int64
	pods     int32
	// what the node offers, parsed once per node update
	allocCPU, allocMem, maxPods int64
}

// NewScheduler returns the default scheduler.
func NewScheduler() *SchedulerLoop {
	return &SchedulerLoop{nodes: map[string]*nodeUsage{}}
}

func (s *SchedulerLoop) Name() string      { return Scheduler }
func (s *SchedulerLoop) Watches() []string { return []string{"Pod", "Node"} }

// Clone copies the scheduler with its accounting.
func (s *SchedulerLoop) Clone() Reconciler {
	out := &SchedulerLoop{usage: s.usage.Clone(), nodes: make(map[string]*nodeUsage, len(s.nodes)), list: make([]*nodeUsage, len(s.list)), next: s.next}
	// Any order: each entry is copied on its own.
	for name, u := range s.nodes {
		c := *u
		out.nodes[name] = &c
	}
	for i, u := range s.list {
		out.list[i] = out.nodes[u.node.Name]
	}
	return out
}

func (s *SchedulerLoop) trackNode(n *api.Node, deleted bool) {
	i := sort.Search(len(s.list), func(i int) bool { return s.list[i].node.Name >= n.Name })
	present := i < len(s.list) && s.list[i].node.Name == n.Name
	switch {
	case deleted && present:
		s.list = append(s.list[:i], s.list[i+1:]...)
		delete(s.nodes, n.Name)
		return
	case deleted:
		return
	case !present:
		u := s.nodes[n.Name] // usage counted before the node was seen
		if u == nil {
			u = &nodeUsage{}
			s.nodes[n.Name] = u
		}
		s.list = append(s.list, nil)
		copy(s.list[i+1:], s.list[i:])
		s.list[i] = u
	}
	u := s.nodes[n.Name]
	u.node = n
	alloc := n.Status.Allocatable
	if alloc == nil {
		alloc = n.Status.Capacity
	}
	u.allocCPU, u.allocMem, u.maxPods = alloc["cpu"].Milli(), alloc["memory"].Value(), -1
	if p, ok := alloc["pods"]; ok {
		u.maxPods = p.Value()
	}
}

// Restarted recounts from scratch on the next deliveries.
func (s *SchedulerLoop) Restarted() {
	s.usage = pmap.Map[podUsage]{}
	s.nodes = map[string]*nodeUsage{}
	s.list = nil
}

func podRequests(p *api.Pod) (cpu, mem int64) {
	for _, c := range p.Spec.Containers {
		cpu += c.Resources.Requests["cpu"].Milli()
		mem += c.Resources.Requests["memory"].Value()
	}
	return cpu, mem
}

func (s *SchedulerLoop) account(key string, p *api.Pod) {
	counted := p != nil && p.Spec.NodeName != "" && p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed
	var u podUsage
	if counted {
		cpu, mem := podRequests(p)
		u = podUsage{node: p.Spec.NodeName, cpu: cpu, mem: mem}
	}
	old, had := s.usage.Get(key)
	if had && counted && old == u {
		return // a status change: the same requests on the same node
	}
	if had {
		if n := s.nodes[old.node]; n != nil {
			n.cpu, n.mem, n.pods = n.cpu-old.cpu, n.mem-old.mem, n.pods-1
		}
		if !counted {
			s.usage.Delete(key)
		}
	}
	if !counted {
		return
	}
	s.usage.Set(key, u)
	n := s.nodes[u.node]
	if n == nil {
		n = &nodeUsage{} // counted now, filled in when the node is seen
		s.nodes[u.node] = n
	}
	n.cpu, n.mem, n.pods = n.cpu+u.cpu, n.mem+u.mem, n.pods+1
}

func needsScheduling(p *api.Pod) bool {
	return p.Spec.NodeName == "" && p.DeletionTimestamp == nil && (p.Spec.SchedulerName == "" || p.Spec.SchedulerName == Scheduler) &&
		p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed
}

// Keys queues pods that need a node; a change to nodes or a pod leaving a
// node re-queues the pods that did not fit.
func (s *SchedulerLoop) Keys(c *Cache, ev store.WatchEvent) []string {
	switch o := ev.Object.(type) {
	case *api.Pod:
		k := api.RefOf(o).Key()
		if ev.Type == store.Deleted {
			s.account(k, nil)
		} else {
			s.account(k, o)
		}
		if ev.Type != store.Deleted && needsScheduling(o) {
			return []string{k}
		}
		if ev.Type == store.Deleted || o.DeletionTimestamp != nil {
			return s.pending(c)
		}
	case *api.Node:
		s.trackNode(o, ev.Type == store.Deleted)
		return s.pending(c)
	}
	return nil
}

func (s *SchedulerLoop) pending(c *Cache) []string {
	var out []string
	for _, k := range c.Keys("Pod") {
		if p := c.Get("Pod", k).(*api.Pod); needsScheduling(p) {
			out = append(out, k)
		}
	}
	return out
}

// filter returns why node cannot take pod ("" when it can), and whether
// preemption could help.
func (s *SchedulerLoop) filter(p *api.Pod, cpu, mem int64, u *nodeUsage) (reasons []string, resolvable bool) {
	n := u.node
	if n.Spec.Unschedulable {
		tolerated := false
		for _, t := range p.Spec.Tolerations {
			if t.Tolerates(api.Taint{Key: "node.kubernetes.io/unschedulable", Effect: "NoSchedule"}) {
				tolerated = true
			}
		}
		if !tolerated {
			return []string{"node(s) were unschedulable"}, false
		}
	}
	for _, taint := range n.Spec.Taints {
		if taint.Effect != "NoSchedule" && taint.Effect != "NoExecute" {
			continue
		}
		ok := false
		for _, t := range p.Spec.Tolerations {
			if t.Tolerates(taint) {
				ok = true
				break
			}
		}
		if !ok {
			return []string{fmt.Sprintf("node(s) had untolerated taint {%s: %s}", taint.Key, taint.Value)}, false
		}
	}
	if a := p.Spec.Affinity; a != nil && a.NodeAffinity != nil && !a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.Matches(n.Labels) {
		return []string{"node(s) didn't match Pod's node affinity/selector"}, false
	}
	// Any order: every mismatch gives the same reason.
	for k, v := range p.Spec.NodeSelector {
		if n.Labels[k] != v {
			return []string{"node(s) didn't match Pod's node affinity/selector"}, false
		}
	}
	if u.maxPods >= 0 && int64(u.pods)+1 > u.maxPods {
		reasons = append(reasons, "Too many pods")
	}
	if cpu > 0 && u.cpu+cpu > u.allocCPU {
		reasons = append(reasons, "Insufficient cpu")
	}
	if mem > 0 && u.mem+mem > u.allocMem {
		reasons = append(reasons, "Insufficient memory")
	}
	return reasons, true
}

// FitErrorMessage renders the scheduler's aggregated message: reasons
// counted per node, each "<count> <reason>", sorted as strings, then the
// preemption verdict.
func FitErrorMessage(total int, reasons map[string]int, preemption map[string]int) string {
	hist := func(m map[string]int) string {
		var parts []string
		for r, n := range m {
			parts = append(parts, fmt.Sprintf("%d %s", n, r))
		}
		sort.Strings(parts)
		return strings.Join(parts, ", ")
	}
	msg := fmt.Sprintf("0/%d nodes are available: %s.", total, hist(reasons))
	if len(preemption) > 0 {
		msg += fmt.Sprintf(" preemption: 0/%d nodes are available: %s.", total, hist(preemption))
	}
	return msg
}

// Reconcile schedules one pod.
func (s *SchedulerLoop) Reconcile(ctx *Context, key string) error {
	p, _ := ctx.Cache.Get("Pod", key).(*api.Pod)
	if p == nil || !needsScheduling(p) {
		ctx.Desired = "pod bound to a node"
		ctx.Observed = "pod gone or already bound"
		ctx.Converged()
		return nil
	}
	ctx.Desired = "pod bound to a node"
	ctx.Observed = "spec.nodeName is empty"
	reasons := map[string]int{}
	preempt := map[string]int{}
	var best *api.Node
	var bestScore int64 = -1
	cpu, mem := podRequests(p)
	nodes, feasible, want := 0, 0, feasibleToFind(len(s.list))
	for j := range s.list {
		if feasible >= want {
			break
		}
		u := s.list[(s.next+j)%len(s.list)]
		n := u.node
		nodes++
		rs, resolvable := s.filter(p, cpu, mem, u)
		if len(rs) > 0 {
			for _, r := range rs {
				reasons[r]++
			}
			if resolvable {
				preempt["No preemption victims found for incoming pod"]++
			} else {
				preempt["Preemption is not helpful for scheduling"]++
			}
			continue
		}
		feasible++
		if sc := score(cpu, mem, u); sc > bestScore || (sc == bestScore && n.Name < best.Name) {
			best, bestScore = n, sc
		}
	}
	if len(s.list) > 0 {
		s.next = (s.next + nodes) % len(s.list)
	}
	if best == nil {
		msg := "no nodes available to schedule pods"
		if nodes > 0 {
			msg = FitErrorMessage(nodes, reasons, preempt)
		}
		ctx.Difference = "no node fits"
		ctx.Event(p, "Warning", "FailedScheduling", "%s", msg)
		np := p.DeepCopy()
		setPodCondition(np, api.PodCondition{Type: "PodScheduled", Status: "False", Reason: "Unschedulable", Message: msg}, ctx.Now)
		if _, err := ctx.UpdateStatus(np, "mark PodScheduled=False: "+msg); err != nil {
			return err
		}
		ctx.Outcome = "unschedulable"
		ctx.RequeueAfter, ctx.RequeueReason = 5*api.Minute, "unschedulable pods are retried every 5m or when the cluster changes"
		return nil
	}
	ctx.Difference = "bind to " + best.Name
	if err := ctx.Bind(p.Namespace, p.Name, best.Name, fmt.Sprintf("bind %s to %s", p.Name, best.Name)); err != nil {
		return err
	}
	bound := p.DeepCopy()
	bound.Spec.NodeName = best.Name
	s.account(key, bound)
	ctx.Event(p, "Normal", "Scheduled", "Successfully assigned %s/%s to %s", p.Namespace, p.Name, best.Name)
	ctx.Outcome = "acted"
	return nil
}

// score prefers the least requested node, by the share of CPU and memory
// left free, then the node with fewer pods.
func score(cpu, mem int64, u *nodeUsage) int64 {
	free := func(used, req, total int64) int64 {
		if total <= 0 {
			return 0
		}
		return (total - used - req) * 1000 / total
	}
	return (free(u.cpu, cpu, u.allocCPU)+free(u.mem, mem, u.allocMem))*1000 - int64(u.pods)
}

func setPodCondition(p *api.Pod, c api.PodCondition, now api.Time) {
	c.LastTransitionTime = now
	for i := range p.Status.Conditions {
		if p.Status.Conditions[i].Type == c.Type {
			if p.Status.Conditions[i].Status == c.Status {
				c.LastTransitionTime = p.Status.Conditions[i].LastTransitionTime
			}
			p.Status.Conditions[i] = c
			return
		}
	}
	p.Status.Conditions = append(p.Status.Conditions, c)
}
