package controller

import (
	"fmt"
	"math/bits"
	"reconcile/engine/api"
	"strconv"
	"strings"
)

// The address arithmetic of pod networking: the cluster's range cut into
// one /24 per node (kube-controller-manager's --cluster-cidr and
// --node-cidr-mask-size), and a node's /24 handed out one address per pod
// (the CNI plugin's host-local IPAM). IPv4 only.

// DefaultClusterCIDR is the cluster's pod range when a run names none: the
// one kind and flannel's manifests use.
const DefaultClusterCIDR = "10.244.0.0/16"

// NodeCIDRMaskSize is the size of the range each node gets (the default of
// --node-cidr-mask-size for IPv4).
const NodeCIDRMaskSize = 24

// ParseCIDR reads an IPv4 range "a.b.c.d/n" into its first address and its
// prefix length. The address must be the range's first (no host bits set),
// as the API server asks of a Node's podCIDR.
func ParseCIDR(s string) (base uint32, prefix int, err error) {
	addr, p, ok := strings.Cut(s, "/")
	if !ok {
		return 0, 0, fmt.Errorf("invalid CIDR address: %s", s)
	}
	base, ok = api.ParseIPv4(addr)
	n, perr := strconv.Atoi(p)
	if !ok || perr != nil || n < 0 || n > 32 || p != strconv.Itoa(n) {
		return 0, 0, fmt.Errorf("invalid CIDR address: %s", s)
	}
	if n < 32 && base<<n != 0 {
		return 0, 0, fmt.Errorf("%s has host bits set: the range starts at %s/%d", s, api.FormatIPv4(base&^(1<<(32-n)-1)), n)
	}
	return base, n, nil
}

// CheckClusterCIDR reports why s cannot be a cluster's pod range cut into
// /24s, or nil.
func CheckClusterCIDR(s string) error {
	_, prefix, err := ParseCIDR(s)
	if err != nil {
		return err
	}
	if prefix > NodeCIDRMaskSize || prefix < NodeCIDRMaskSize-16 {
		return fmt.Errorf("%s: the prefix must be between /%d and /%d: each node gets a /%d of it (--node-cidr-mask-size), and at most 2^16 of them",
			s, NodeCIDRMaskSize-16, NodeCIDRMaskSize, NodeCIDRMaskSize)
	}
	return nil
}

// bitset is a set of small integers, copied on clone (a few words: 256
// node ranges of a /16 are four).
type bitset []uint64

func newBitset(n int) bitset { return make(bitset, (n+63)/64) }

func (b bitset) has(i int) bool { return b[i/64]&(1<<(i%64)) != 0 }
func (b bitset) set(i int)      { b[i/64] |= 1 << (i % 64) }
func (b bitset) clear(i int)    { b[i/64] &^= 1 << (i % 64) }

func (b bitset) count() int {
	n := 0
	for _, w := range b {
		n += bits.OnesCount64(w)
	}
	return n
}

// nextFree returns the first index in [0, n) not in b, looking from start
// and wrapping around, or -1 when all n are taken: the node range
// allocator's search from its next candidate, so a range just freed is not
// the next one handed out.
func (b bitset) nextFree(start, n int) int {
	for i := range n {
		c := (start + i) % n
		if !b.has(c) {
			return c
		}
	}
	return -1
}
