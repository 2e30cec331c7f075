package controller

import (
	"errors"
	"fmt"

	"reconcile/engine/api"
	"reconcile/engine/informer"
	"reconcile/engine/store"
)

// NodeIPAMController is kube-controller-manager's node IPAM controller
// (--allocate-node-cidrs) with its range allocator.
const NodeIPAMController = "node-ipam-controller"

// CIDRAllocatorComponent is the source its events carry.
const CIDRAllocatorComponent = "cidrAllocator"

// ErrNoCIDRsRemaining is the range allocator's error when every node range
// of the cluster's is taken.
var ErrNoCIDRsRemaining = errors.New("CIDR allocation failed; there are no remaining CIDRs left to allocate in the accepted range")

// NodeIPAM gives every node a range of pod addresses.
//
// Desired: each node has spec.podCIDR (and spec.podCIDRs), a /24 of the
// cluster's range no other node has. Observed: the node's spec, and the
// ranges the allocator holds as taken. Difference: a node without one gets
// the next free /24 — looking on from the one handed out last, so a range
// a deleted node gave back is handed out again only once the search wraps
// (or after the controller restarts, which starts it from the first). A
// node deleted gives its range back at once, from the watch event. When no
// range is left the node keeps none: a Warning CIDRNotAvailable event, and
// the key is retried with back-off.
type NodeIPAM struct {
	clusterCIDR string
	base        uint32
	size        int // node ranges in the cluster's range
	used        bitset
	next        int // where the next search starts (cidrset's nextCandidate)
}

// NewNodeIPAM returns the allocator of clusterCIDR ("" means
// DefaultClusterCIDR), which must pass CheckClusterCIDR.
func NewNodeIPAM(clusterCIDR string) *NodeIPAM {
	if clusterCIDR == "" {
		clusterCIDR = DefaultClusterCIDR
	}
	base, prefix, err := ParseCIDR(clusterCIDR)
	if err == nil {
		err = CheckClusterCIDR(clusterCIDR)
	}
	if err != nil {
		panic("controller: cluster CIDR not checked: " + err.Error())
	}
	size := 1 << (NodeCIDRMaskSize - prefix)
	return &NodeIPAM{clusterCIDR: clusterCIDR, base: base, size: size, used: newBitset(size)}
}

func (c *NodeIPAM) Name() string      { return NodeIPAMController }
func (c *NodeIPAM) Watches() []string { return []string{"Node"} }

// Clone copies the allocator's map of ranges (a few words).
func (c *NodeIPAM) Clone() Reconciler {
	out := *c
	out.used = append(bitset(nil), c.used...)
	return &out
}

// Restarted forgets the ranges taken: the relist that follows takes the
// ranges the nodes hold again, and the search starts from the first.
func (c *NodeIPAM) Restarted() {
	c.used, c.next = newBitset(c.size), 0
}

// Allocate hands out the next free node range, as the controller would:
// the simulation gives the nodes a run starts with theirs this way, in
// node order, as if they had registered one by one before the run.
func (c *NodeIPAM) Allocate() (string, bool) {
	i := c.used.nextFree(c.next, c.size)
	if i < 0 {
		return "", false
	}
	c.used.set(i)
	c.next = (i + 1) % c.size
	return c.cidrAt(i), true
}

func (c *NodeIPAM) cidrAt(i int) string {
	return fmt.Sprintf("%s/%d", api.FormatIPv4(c.base+uint32(i)<<(32-NodeCIDRMaskSize)), NodeCIDRMaskSize)
}

// index returns the node range cidr is, if it is one of the cluster's.
func (c *NodeIPAM) index(cidr string) (int, bool) {
	base, prefix, err := ParseCIDR(cidr)
	if err != nil || prefix != NodeCIDRMaskSize || base < c.base {
		return 0, false
	}
	i := int((base - c.base) >> (32 - NodeCIDRMaskSize))
	return i, i < c.size
}

// Keys takes the ranges of the nodes it sees (and gives back a deleted
// node's), and queues a node that has none.
func (c *NodeIPAM) Keys(_ *informer.Cache, ev store.WatchEvent) []string {
	n, ok := ev.Object.(*api.Node)
	if !ok {
		return nil
	}
	for _, cidr := range n.Spec.PodCIDRs {
		if i, ok := c.index(cidr); ok {
			if ev.Type == store.Deleted {
				c.used.clear(i)
			} else {
				c.used.set(i)
			}
		}
	}
	if ev.Type == store.Deleted || len(n.Spec.PodCIDRs) > 0 {
		return nil
	}
	return []string{n.Name}
}

// Reconcile gives a node without a range the next free one.
func (c *NodeIPAM) Reconcile(ctx *Context, req Request) (Result, error) {
	n, _ := ctx.Cache.Get("Node", req.Key).(*api.Node)
	ctx.Desired = fmt.Sprintf("spec.podCIDR set: a /%d of %s", NodeCIDRMaskSize, c.clusterCIDR)
	if n == nil {
		ctx.Observed = "node deleted (its range was given back)"
		return ctx.NothingToDo(), nil
	}
	if len(n.Spec.PodCIDRs) > 0 {
		ctx.Observed = "spec.podCIDR " + n.Spec.PodCIDR
		return ctx.NothingToDo(), nil
	}
	free := c.size - c.used.count()
	ctx.Observed = fmt.Sprintf("no spec.podCIDR; %d of %d node ranges free", free, c.size)
	cidr, ok := c.Allocate()
	if !ok {
		ctx.Difference = "no range left to give"
		ctx.API.RecordAbout(CIDRAllocatorComponent, "", NodeStatusRef(n), "Warning", "CIDRNotAvailable", fmt.Sprintf("Node %s status is now: CIDRNotAvailable", n.Name))
		return Result{}, fmt.Errorf("failed to allocate cidr from cluster cidr at idx:0: %w", ErrNoCIDRsRemaining)
	}
	ctx.Difference = "assign " + cidr
	nn := n.DeepCopy()
	nn.Spec.PodCIDR, nn.Spec.PodCIDRs = cidr, []string{cidr}
	if _, err := ctx.Update(nn, Do(Set, fmt.Sprintf("node %s spec.podCIDR %s", n.Name, cidr))); err != nil {
		if i, ok := c.index(cidr); ok {
			c.used.clear(i) // not written: back to the pool
		}
		return Result{}, err
	}
	return Result{Outcome: Acted}, nil
}
