package controller

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/informer"
	"reconcile/engine/pmap"
	"reconcile/engine/store"
)

// SchedulerLoop is the default scheduler.
//
// Desired: every pod bound to a node. Observed: a pod with no
// spec.nodeName. Difference: find the nodes that pass every filter
// (NodeUnschedulable, TaintToleration, NodeAffinity, NodeResourcesFit,
// PodTopologySpread, InterPodAffinity: see scheduler_pods.go), bind to the
// best-scored one, or report why none fits. A pod with scheduling gates
// waits, SchedulingGated, until they are removed.
type SchedulerLoop struct {
	// usage is what the scheduler has counted on each node, by pod key.
	usage pmap.Map[podUsage]
	// list holds the nodes seen, sorted by name; unseen, the usage
	// counted on nodes not seen yet.
	list   []*nodeUsage
	unseen map[string]*nodeUsage
	// next is where the next search starts, so that work spreads over
	// the nodes as the real scheduler's does.
	next int
	// own tags the entries this scheduler may change in place; list and
	// unseen are its own when listOwned. A clone shares them all and
	// copies what it changes (a checkpoint costs the nodes that change).
	own       *schedOwner
	listOwned bool
	// anti are the keys of pods with required anti-affinity: they
	// constrain where every other pod may go (see scheduler_pods.go).
	anti map[string]bool
}

type schedOwner struct{ _ int }

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
	own      *schedOwner
	name     string
	node     *api.Node
	cpu, mem int64
	pods     int32
	// what the node offers, parsed once per node update
	allocCPU, allocMem, maxPods int64
	// open: the node is schedulable and has no NoSchedule or NoExecute
	// taint, so filter need not read it for them (set with node).
	open bool
}

// NewScheduler returns the default scheduler.
func NewScheduler() *SchedulerLoop {
	return &SchedulerLoop{own: &schedOwner{}, listOwned: true, unseen: map[string]*nodeUsage{}}
}

func (s *SchedulerLoop) Name() string      { return Scheduler }
func (s *SchedulerLoop) Watches() []string { return []string{"Pod", "Node", "PersistentVolumeClaim"} }

// Clone copies the scheduler with its accounting, sharing it until one of
// the two changes it.
func (s *SchedulerLoop) Clone() Reconciler {
	s.own, s.listOwned = &schedOwner{}, false
	return &SchedulerLoop{usage: s.usage.Clone(), list: s.list, unseen: s.unseen, next: s.next, own: &schedOwner{}, anti: maps.Clone(s.anti)}
}

// ownList makes list and unseen s's own to change.
func (s *SchedulerLoop) ownList() {
	if !s.listOwned {
		s.list = slices.Clone(s.list)
		s.unseen = maps.Clone(s.unseen)
		if s.unseen == nil {
			s.unseen = map[string]*nodeUsage{}
		}
		s.listOwned = true
	}
}

func (s *SchedulerLoop) find(name string) (int, bool) {
	i := sort.Search(len(s.list), func(i int) bool { return s.list[i].name >= name })
	return i, i < len(s.list) && s.list[i].name == name
}

// usageOf returns the usage of node name ready to change, creating a
// unseen one if create and the node is unknown; nil otherwise.
func (s *SchedulerLoop) usageOf(name string, create bool) *nodeUsage {
	if i, ok := s.find(name); ok {
		u := s.list[i]
		if u.own != s.own {
			s.ownList()
			c := *u
			c.own = s.own
			u = &c
			s.list[i] = u
		}
		return u
	}
	u := s.unseen[name]
	switch {
	case u == nil && !create:
		return nil
	case u == nil:
		s.ownList()
		u = &nodeUsage{own: s.own, name: name}
		s.unseen[name] = u
	case u.own != s.own:
		s.ownList()
		c := *u
		c.own = s.own
		u = &c
		s.unseen[name] = u
	}
	return u
}

func (s *SchedulerLoop) trackNode(n *api.Node, deleted bool) {
	i, present := s.find(n.Name)
	switch {
	case deleted && present:
		s.ownList()
		s.list = append(s.list[:i], s.list[i+1:]...)
		return
	case deleted:
		return
	case !present:
		s.ownList()
		u := s.usageOf(n.Name, true) // usage counted before the node was seen
		delete(s.unseen, n.Name)
		s.list = slices.Insert(s.list, i, u)
	}
	u := s.usageOf(n.Name, false)
	u.node = n
	alloc := n.Status.Allocatable
	if alloc == nil {
		alloc = n.Status.Capacity
	}
	// A node that reports no pods allocatable (a Node object no kubelet
	// posts status for) takes none, as NodeResourcesFit reads it; a
	// kubelet reports its maxPods, 110 unless told otherwise.
	u.allocCPU, u.allocMem, u.maxPods = alloc["cpu"].Milli(), alloc["memory"].Value(), alloc["pods"].Value()
	u.open = !n.Spec.Unschedulable && !slices.ContainsFunc(n.Spec.Taints, func(t api.Taint) bool {
		return t.Effect == "NoSchedule" || t.Effect == "NoExecute"
	})
}

// Restarted recounts from scratch on the next deliveries.
func (s *SchedulerLoop) Restarted() {
	s.usage = pmap.Map[podUsage]{}
	s.list, s.unseen, s.listOwned = nil, map[string]*nodeUsage{}, true
	s.anti = nil
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
		if n := s.usageOf(old.node, false); n != nil {
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
	n := s.usageOf(u.node, true) // if unseen: counted now, filled in when the node is seen
	n.cpu, n.mem, n.pods = n.cpu+u.cpu, n.mem+u.mem, n.pods+1
}

func needsScheduling(p *api.Pod) bool {
	return p.Spec.NodeName == "" && p.DeletionTimestamp == nil && (p.Spec.SchedulerName == "" || p.Spec.SchedulerName == Scheduler) &&
		p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed
}

// Keys queues pods that need a node; a change to nodes or a pod leaving a
// node re-queues the pods that did not fit.
func (s *SchedulerLoop) Keys(c *informer.Cache, ev store.WatchEvent) []string {
	switch o := ev.Object.(type) {
	case *api.Pod:
		k := api.RefOf(o).Key()
		if ev.Type == store.Deleted {
			s.account(k, nil)
		} else {
			s.account(k, o)
		}
		s.trackAnti(k, o, ev.Type == store.Deleted)
		if ev.Type != store.Deleted && needsScheduling(o) {
			return []string{k}
		}
		if ev.Type == store.Deleted || o.DeletionTimestamp != nil {
			return s.pending(c)
		}
	case *api.Node:
		s.trackNode(o, ev.Type == store.Deleted)
		return s.pending(c)
	case *api.PersistentVolumeClaim:
		if o.Status.Phase == api.ClaimBound {
			return s.pending(c) // a pod waiting for its claim may fit now
		}
	}
	return nil
}

func (s *SchedulerLoop) pending(c *informer.Cache) []string {
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
	if !u.open { // an open node has no unschedulable mark nor taint to read
		if r := untolerated(p, n); r != "" {
			return []string{r}, false
		}
	}
	if a := p.Spec.Affinity; a != nil && a.NodeAffinity != nil && !a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.MatchesNode(n.Name, n.Labels) {
		return []string{"node(s) didn't match Pod's node affinity/selector"}, false
	}
	// An empty selector is common and costs a map iteration per node:
	// skipped. Any order: every mismatch gives the same reason.
	for k, v := range nonEmpty(p.Spec.NodeSelector) {
		if n.Labels[k] != v {
			return []string{"node(s) didn't match Pod's node affinity/selector"}, false
		}
	}
	if int64(u.pods)+1 > u.maxPods {
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
func (s *SchedulerLoop) Reconcile(ctx *Context, req Request) (Result, error) {
	key := req.Key
	p, _ := ctx.Cache.Get("Pod", key).(*api.Pod)
	if p == nil || !needsScheduling(p) {
		ctx.Desired = "pod bound to a node"
		ctx.Observed, ctx.ObservedFact = "pod gone or already bound", Fact{Is: GoneOrBound}
		return ctx.NothingToDo(), nil
	}
	ctx.Desired = "pod bound to a node"
	ctx.Observed = "spec.nodeName is empty"
	if len(p.Spec.More().SchedulingGates) > 0 {
		return s.gated(ctx, p)
	}
	nb := s.neighboursOf(ctx.Cache, p)
	reasons := map[string]int{}
	preempt := map[string]int{}
	var best *api.Node
	var bestScore, bestPref int64 = -1, 0
	if why := unboundClaims(ctx.Cache, p); why != "" && len(s.list) > 0 {
		// The VolumeBinding plugin's PreFilter refuses the pod on every node.
		n := len(s.list)
		msg := fmt.Sprintf("0/%d nodes are available: %s. preemption: 0/%d nodes are available: %d Preemption is not helpful for scheduling.", n, why, n, n)
		ctx.Difference = "its claims are not bound"
		return unschedulable(ctx, p, msg, "unbound claims")
	}
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
		if len(rs) == 0 {
			if r, res := podFilters(p, n, nb); r != "" {
				rs, resolvable = []string{r}, res
			}
		}
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
		pref := preference(p, n, nb)
		if sc := score(cpu, mem, u); best == nil || pref > bestPref || (pref == bestPref && (sc > bestScore || (sc == bestScore && n.Name < best.Name))) {
			best, bestScore, bestPref = n, sc, pref
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
		return unschedulable(ctx, p, msg, "unschedulable")
	}
	ctx.Difference = "bind to " + best.Name
	if err := ctx.Bind(p.Namespace, p.Name, best.Name); err != nil {
		return Result{}, err
	}
	// account reads the copy and keeps nothing of it: a shallow copy with
	// the node set does.
	bound := *p
	bound.Spec.NodeName = best.Name
	s.account(key, &bound)
	ctx.Eventf(SchedulerInstance, p, "Normal", "Scheduled", "Binding", "Successfully assigned "+p.Namespace+"/"+p.Name+" to "+best.Name)
	return Result{Outcome: Acted}, nil
}

// unschedulable reports that no node takes the pod: the FailedScheduling
// event, PodScheduled=False, and a retry in 5 minutes (or sooner, when the
// cluster changes).
func unschedulable(ctx *Context, p *api.Pod, msg, why string) (Result, error) {
	ctx.Eventf(SchedulerInstance, p, "Warning", "FailedScheduling", "Scheduling", msg)
	np := p.DeepCopy()
	setPodCondition(np, api.PodCondition{Type: "PodScheduled", Status: "False", Reason: "Unschedulable", Message: msg}, ctx.Now)
	if _, err := ctx.UpdateStatus(np, Action{Verb: Unschedulable, Detail: msg, Rest: msg}); err != nil {
		return Result{}, err
	}
	return Result{Outcome: Blocked, Why: why, RequeueAfter: 5 * api.Minute,
		RequeueReason: RequeueUnschedulable}, nil
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

// nonEmpty returns m, or nil when it is empty: nothing to range over.
func nonEmpty(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	return m
}

// untolerated returns why pod cannot go to node for its unschedulable mark
// or a NoSchedule or NoExecute taint the pod does not tolerate, or "".
func untolerated(p *api.Pod, n *api.Node) string {
	if n.Spec.Unschedulable {
		tolerated := false
		for _, t := range p.Spec.Tolerations {
			if t.Tolerates(api.Taint{Key: "node.kubernetes.io/unschedulable", Effect: "NoSchedule"}) {
				tolerated = true
			}
		}
		if !tolerated {
			return "node(s) were unschedulable"
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
			return fmt.Sprintf("node(s) had untolerated taint {%s: %s}", taint.Key, taint.Value)
		}
	}
	return ""
}
