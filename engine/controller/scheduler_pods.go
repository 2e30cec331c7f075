package controller

import (
	"sort"

	"reconcile/engine/api"
	"reconcile/engine/informer"
)

// The scheduler's filters that look at other pods: PodTopologySpread and
// InterPodAffinity, after the node's own filters, in the real scheduler's
// order. Both read where the pods of the cluster run as the scheduler has
// counted them (a pod it bound a pass ago counts before the watch says
// so), and the nodes' labels: a topology domain is the set of nodes that
// share the value of a label (topologyKey: kubernetes.io/hostname is one
// node per domain, topology.kubernetes.io/zone a zone).

// placedPod is a pod bound to a node the scheduler knows.
type placedPod struct {
	pod  *api.Pod
	node *api.Node
}

// neighbours is what the pod filters need for one pod being scheduled.
type neighbours struct {
	// placed are the bound pods (all of them when the incoming pod has
	// affinity or spread rules; else only those with required
	// anti-affinity, which constrain every pod).
	placed []placedPod
	// eligible are the nodes the incoming pod's node affinity and node
	// selector allow: the domains topology spread counts.
	eligible []*api.Node
}

// hasPodRules reports whether scheduling p needs to look at other pods.
func hasPodRules(p *api.Pod) bool {
	a := p.Spec.Affinity
	return len(p.Spec.More().TopologySpreadConstraints) > 0 || (a != nil && (a.PodAffinity != nil || a.PodAntiAffinity != nil))
}

// requiredAnti reports whether p keeps other pods away (required
// anti-affinity): the scheduler tracks such pods (SchedulerLoop.anti).
func requiredAnti(p *api.Pod) bool {
	a := p.Spec.Affinity
	return a != nil && a.PodAntiAffinity != nil && len(a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution) > 0
}

// neighboursOf gathers what the pod filters need to place p, or nil when
// no pod rule applies.
func (s *SchedulerLoop) neighboursOf(c *informer.Cache, p *api.Pod) *neighbours {
	var keys []string
	if hasPodRules(p) {
		keys = c.Keys("Pod")
	} else if len(s.anti) > 0 {
		for k := range s.anti {
			keys = append(keys, k)
		}
		sort.Strings(keys)
	} else {
		return nil
	}
	nb := &neighbours{}
	self := api.RefOf(p).Key()
	for _, k := range keys {
		u, ok := s.usage.Get(k)
		if !ok || k == self {
			continue
		}
		q, _ := c.Get("Pod", k).(*api.Pod)
		i, found := s.find(u.node)
		if q == nil || !found || s.list[i].node == nil {
			continue
		}
		nb.placed = append(nb.placed, placedPod{pod: q, node: s.list[i].node})
	}
	if len(p.Spec.More().TopologySpreadConstraints) > 0 {
		for _, u := range s.list {
			if u.node != nil && nodeAffinityAllows(p, u.node) {
				nb.eligible = append(nb.eligible, u.node)
			}
		}
	}
	return nb
}

// nodeAffinityAllows is the NodeAffinity filter: required node affinity
// and the node selector.
func nodeAffinityAllows(p *api.Pod, n *api.Node) bool {
	if a := p.Spec.Affinity; a != nil && a.NodeAffinity != nil && !a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.Matches(n.Labels) {
		return false
	}
	// Any order: every mismatch gives the same answer.
	for k, v := range p.Spec.NodeSelector {
		if n.Labels[k] != v {
			return false
		}
	}
	return true
}

// termMatches reports whether pod q is one a term of owner's selects: its
// labels match the selector, in the term's namespaces (owner's own when
// the term names none; every namespace for an empty namespaceSelector).
func termMatches(t api.PodAffinityTerm, owner, q *api.Pod) bool {
	if !t.LabelSelector.Matches(q.Labels) {
		return false
	}
	switch {
	case t.NamespaceSelector != nil && t.NamespaceSelector.Empty():
		return true
	case len(t.Namespaces) > 0:
		for _, ns := range t.Namespaces {
			if ns == q.Namespace {
				return true
			}
		}
		return false
	}
	return q.Namespace == owner.Namespace
}

// sameDomain reports whether nodes a and b share key's value (both must
// have the label).
func sameDomain(key string, a, b *api.Node) bool {
	va, oka := a.Labels[key]
	vb, okb := b.Labels[key]
	return oka && okb && va == vb
}

// podFilters runs PodTopologySpread then InterPodAffinity for p on n, and
// returns the first failure's reason and whether preemption could help.
func podFilters(p *api.Pod, n *api.Node, nb *neighbours) (reason string, resolvable bool) {
	if nb == nil {
		return "", true
	}
	if r, res := spreadFilter(p, n, nb); r != "" {
		return r, res
	}
	// In the real plugin's order: the pod's affinity, its anti-affinity,
	// then the anti-affinity of the pods already placed.
	if r := affinityFilter(p, n, nb); r != "" {
		return r, false
	}
	if a := p.Spec.Affinity; a != nil && a.PodAntiAffinity != nil {
		for _, t := range a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution {
			for _, q := range nb.placed {
				if termMatches(t, p, q.pod) && sameDomain(t.TopologyKey, n, q.node) {
					return "node(s) didn't match pod anti-affinity rules", true
				}
			}
		}
	}
	for _, q := range nb.placed {
		if !requiredAnti(q.pod) {
			continue
		}
		for _, t := range q.pod.Spec.Affinity.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution {
			if termMatches(t, q.pod, p) && sameDomain(t.TopologyKey, n, q.node) {
				return "node(s) didn't satisfy existing pods anti-affinity rules", true
			}
		}
	}
	return "", true
}

// affinityFilter checks p's required pod affinity on n: every term needs
// a pod it selects in n's domain; the first pod of a group that selects
// itself may go anywhere its topology keys exist.
func affinityFilter(p *api.Pod, n *api.Node, nb *neighbours) string {
	a := p.Spec.Affinity
	if a == nil || a.PodAffinity == nil || len(a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution) == 0 {
		return ""
	}
	allHere, anyAnywhere, selfMatch := true, false, true
	for _, t := range a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution {
		if _, ok := n.Labels[t.TopologyKey]; !ok {
			return "node(s) didn't match pod affinity rules"
		}
		here := false
		for _, q := range nb.placed {
			if termMatches(t, p, q.pod) {
				anyAnywhere = true
				here = here || sameDomain(t.TopologyKey, n, q.node)
			}
		}
		allHere = allHere && here
		selfMatch = selfMatch && termMatches(t, p, p)
	}
	if !allHere && (anyAnywhere || !selfMatch) {
		return "node(s) didn't match pod affinity rules"
	}
	return ""
}

// spreadFilter is PodTopologySpread's filter for the DoNotSchedule
// constraints: placing p on n may not make its domain hold more than
// maxSkew matching pods above the emptiest eligible domain.
func spreadFilter(p *api.Pod, n *api.Node, nb *neighbours) (string, bool) {
	for _, c := range p.Spec.More().TopologySpreadConstraints {
		if c.WhenUnsatisfiable != "DoNotSchedule" {
			continue
		}
		domain, ok := n.Labels[c.TopologyKey]
		if !ok {
			return "node(s) didn't match pod topology spread constraints (missing required label)", false
		}
		counts := spreadCounts(c, p, nb)
		least := int32(-1)
		for _, d := range sortedDomains(counts) {
			if least < 0 || counts[d] < least {
				least = counts[d]
			}
		}
		if c.MinDomains != nil && int32(len(counts)) < *c.MinDomains {
			least = 0
		}
		self := int32(0)
		if c.LabelSelector.Matches(p.Labels) {
			self = 1
		}
		if counts[domain]+self-least > c.MaxSkew {
			return "node(s) didn't match pod topology spread constraints", true
		}
	}
	return "", true
}

// spreadCounts counts the pods a constraint selects in each domain of the
// eligible nodes (every domain present, empty ones at 0).
func spreadCounts(c api.TopologySpreadConstraint, p *api.Pod, nb *neighbours) map[string]int32 {
	counts := map[string]int32{}
	for _, e := range nb.eligible {
		if v, ok := e.Labels[c.TopologyKey]; ok {
			counts[v] += 0
		}
	}
	for _, q := range nb.placed {
		v, ok := q.node.Labels[c.TopologyKey]
		if _, eligible := counts[v]; ok && eligible && q.pod.Namespace == p.Namespace && c.LabelSelector.Matches(q.pod.Labels) {
			counts[v]++
		}
	}
	return counts
}

func sortedDomains(m map[string]int32) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// preference scores n for p's soft rules: each preferred node affinity
// term whose preference n matches adds its weight, preferred pod affinity
// adds its weight for each matching pod in n's domain, preferred
// anti-affinity takes it away, and each ScheduleAnyway spread constraint
// takes away the matching pods already in n's domain. The scheduler
// prefers the highest preference, then the least requested node.
func preference(p *api.Pod, n *api.Node, nb *neighbours) int64 {
	var score int64
	if a := p.Spec.Affinity; a != nil && a.NodeAffinity != nil {
		for _, w := range a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution {
			if (&api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{w.Preference}}).MatchesNode(n.Name, n.Labels) {
				score += int64(w.Weight)
			}
		}
	}
	if nb == nil {
		return score
	}
	if a := p.Spec.Affinity; a != nil {
		for sign, pa := range []*api.PodAffinity{a.PodAffinity, a.PodAntiAffinity} {
			if pa == nil {
				continue
			}
			for _, w := range pa.PreferredDuringSchedulingIgnoredDuringExecution {
				for _, q := range nb.placed {
					if termMatches(w.PodAffinityTerm, p, q.pod) && sameDomain(w.PodAffinityTerm.TopologyKey, n, q.node) {
						score += int64(w.Weight) * int64(1-2*sign)
					}
				}
			}
		}
	}
	for _, c := range p.Spec.More().TopologySpreadConstraints {
		if c.WhenUnsatisfiable != "ScheduleAnyway" {
			continue
		}
		if d, ok := n.Labels[c.TopologyKey]; ok {
			score -= int64(spreadCounts(c, p, &neighbours{placed: nb.placed, eligible: []*api.Node{n}})[d])
		}
	}
	return score
}

// trackAnti keeps SchedulerLoop.anti: the pods with required
// anti-affinity.
func (s *SchedulerLoop) trackAnti(key string, p *api.Pod, deleted bool) {
	has := !deleted && requiredAnti(p)
	if has == s.anti[key] {
		return
	}
	if has {
		if s.anti == nil {
			s.anti = map[string]bool{}
		}
		s.anti[key] = true
		return
	}
	delete(s.anti, key)
}

// schedulingGatedMessage is the PodScheduled condition's message while a
// pod has scheduling gates.
const schedulingGatedMessage = "Scheduling is blocked due to non-empty scheduling gates"

// gated holds back a pod with scheduling gates: PodScheduled=False with
// reason SchedulingGated (kubectl shows it as the pod's STATUS), no event,
// no attempt, until an update removes the last gate.
func (s *SchedulerLoop) gated(ctx *Context, p *api.Pod) (Result, error) {
	ctx.Difference = "none while the pod has scheduling gates"
	for _, c := range p.Status.Conditions {
		if c.Type == "PodScheduled" && c.Reason == "SchedulingGated" {
			return Result{Outcome: Blocked, Why: "scheduling gated"}, nil
		}
	}
	np := p.DeepCopy()
	setPodCondition(np, api.PodCondition{Type: "PodScheduled", Status: "False", Reason: "SchedulingGated", Message: schedulingGatedMessage}, ctx.Now)
	if _, err := ctx.UpdateStatus(np, Action{Verb: Unschedulable, Detail: "SchedulingGated", Rest: "SchedulingGated"}); err != nil {
		return Result{}, err
	}
	return Result{Outcome: Blocked, Why: "scheduling gated"}, nil
}
