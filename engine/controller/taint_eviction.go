package controller

import (
	"fmt"
	"slices"

	"reconcile/engine/api"
)

// Taint-based eviction of the NoExecute taints a user sets (kubectl taint
// ... :NoExecute), as the taint-eviction-controller does: a pod that does
// not tolerate one is deleted at once; one that tolerates every one for a
// tolerationSeconds is deleted when the shortest of them has run out,
// counted from when the controller saw the taint (a user's taint carries
// no timeAdded); one that tolerates them for ever stays. The node
// lifecycle controller's own unreachable and not-ready taints keep their
// path (nodelifecycle.go).

// userNoExecute reports whether t is a NoExecute taint the node lifecycle
// controller did not set.
func userNoExecute(t api.Taint) bool {
	return t.Effect == "NoExecute" && t.Key != UnreachableTaint && t.Key != NotReadyTaint
}

func taintID(node string, t api.Taint) string {
	return node + "/" + t.Key + "=" + t.Value + ":" + t.Effect
}

// taintStart is when the eviction clock of node's taint t started: its
// timeAdded, or when this controller first saw it; false if not yet seen.
func (c *NodeLifecycle) taintStart(node string, t api.Taint) (api.Time, bool) {
	if t.TimeAdded != nil {
		return *t.TimeAdded, true
	}
	at, ok := c.seen[taintID(node, t)]
	return at, ok
}

// noteTaints starts the clock of n's user NoExecute taints not seen yet
// and forgets those gone.
func (c *NodeLifecycle) noteTaints(n *api.Node, now api.Time) {
	for _, t := range n.Spec.Taints {
		if id := taintID(n.Name, t); userNoExecute(t) && t.TimeAdded == nil && !hasKey(c.seen, id) {
			if c.seen == nil {
				c.seen = map[string]api.Time{}
			}
			c.seen[id] = now
		}
	}
	for id := range c.seen {
		if node, _, _ := cutNode(id); node == n.Name && !slices.ContainsFunc(n.Spec.Taints, func(t api.Taint) bool { return userNoExecute(t) && taintID(n.Name, t) == id }) {
			delete(c.seen, id)
		}
	}
}

func hasKey(m map[string]api.Time, k string) bool { _, ok := m[k]; return ok }

func cutNode(id string) (node, rest string, ok bool) {
	for i := 0; i < len(id); i++ {
		if id[i] == '/' {
			return id[:i], id[i+1:], true
		}
	}
	return "", id, false
}

// userEvictionAt is when pod p is due to leave node n for its user
// NoExecute taints; false when it tolerates them for ever (or none is
// set, or one is not seen yet).
func (c *NodeLifecycle) userEvictionAt(n *api.Node, p *api.Pod) (api.Time, bool) {
	var due api.Time
	found := false
	for _, t := range n.Spec.Taints {
		if !userNoExecute(t) {
			continue
		}
		start, ok := c.taintStart(n.Name, t)
		if !ok {
			continue
		}
		at, evict := start, true
		if i := slices.IndexFunc(p.Spec.Tolerations, func(tol api.Toleration) bool { return tol.Tolerates(t) }); i >= 0 {
			s := p.Spec.Tolerations[i].TolerationSeconds
			if s == nil {
				evict = false
			} else {
				at = start + api.Duration(max(*s, 0))*api.Second
			}
		}
		if evict && (!found || at < due) {
			due, found = at, true
		}
	}
	return due, found
}

// userEvictions evicts the pods of n whose user NoExecute taints are
// due, and returns when the next one is.
func (c *NodeLifecycle) userEvictions(ctx *Context, n *api.Node) (next api.Time, err error) {
	for _, p := range ctx.Cache.PodsOnNode(n.Name) {
		if p.DeletionTimestamp != nil {
			continue
		}
		due, ok := c.userEvictionAt(n, p)
		switch {
		case !ok:
		case due > ctx.Now:
			if next == 0 || due < next {
				next = due
			}
		default:
			if err := evictPod(ctx, p); err != nil {
				return 0, err
			}
		}
	}
	return next, nil
}

// userDue counts the pods of n due for eviction by its user taints.
func (c *NodeLifecycle) userDue(cache interface{ PodsOnNode(string) []*api.Pod }, n *api.Node, now api.Time) int {
	if !slices.ContainsFunc(n.Spec.Taints, userNoExecute) {
		// No pod is due without such a taint: the node monitor's tick
		// asks this of every node every 5s, and listing the pods of a
		// thousand nodes to find none was most of what it allocated.
		return 0
	}
	due := 0
	for _, p := range cache.PodsOnNode(n.Name) {
		if at, ok := c.userEvictionAt(n, p); ok && p.DeletionTimestamp == nil && at <= now {
			due++
		}
	}
	return due
}

// evictPod is the taint-eviction-controller's deletion of p.
func evictPod(ctx *Context, p *api.Pod) error {
	// emitPodDeletionEvent names the pod by a reference of its own, with
	// no resourceVersion.
	ref := api.ReferenceTo(p)
	ref.ResourceVersion = ""
	ctx.API.RecordAbout("taint-eviction-controller", "", ref, "Normal", "TaintManagerEviction", fmt.Sprintf("Marking for deletion Pod %s/%s", p.Namespace, p.Name))
	np := p.DeepCopy()
	setPodCondition(np, api.PodCondition{Type: "DisruptionTarget", Status: "True", Reason: "DeletionByTaintManager", Message: "Taint manager: deleting due to NoExecute taint"}, ctx.Now)
	if _, err := ctx.UpdateStatus(np, Action{}); err != nil {
		return err
	}
	return ctx.Delete("Pod", p.Namespace, p.Name, false, OnPod(Evict, p.Name, ""))
}
