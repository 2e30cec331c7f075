package controller

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"reflect"

	"reconcile/engine/api"
	"reconcile/engine/informer"
)

// A pod's address, as the node's CNI plugin gives it: host-local IPAM over
// the node's spec.podCIDR. The first address is the bridge's gateway, so
// pods get .2, .3, … .254, each the next free one after the address handed
// out last (host-local's last reserved IP), wrapping around at the end: an
// address a pod gave back is handed out again only once the others have
// been. The pod keeps its address while its sandbox lives — until its
// containers are removed, or it has finished — and the plugin's state
// lives on the node, so a kubelet that restarts keeps it.

// firstHost and lastHost bound the addresses of a /24 pods can get: .1 is
// the gateway, .255 the broadcast address, .0 the network's.
const firstHost, lastHost = 2, 254

// podAddrs is the host-local state of one node: which addresses of its
// range are taken, by which pod, and the last one handed out. It is small
// (a pod is two string headers and a byte) and copied whole when a clone
// of the kubelet first changes it.
type podAddrs struct {
	owner *KubeletLoop // the kubelet that may change it in place
	cidr  string
	base  uint32
	used  [4]uint64 // a bit per address of the /24, by host number
	last  int       // the host number handed out last
	pods  []podAddr
}

type podAddr struct {
	key, uid string
	host     uint8
}

// share makes a (nil or not) shared by a kubelet and its clone: the
// receiver of Clone goes on too (a scratch copy of the world), so neither
// may change it in place any more; the first to change it copies it.
func (a *podAddrs) share() *podAddrs {
	if a != nil {
		a.owner = nil
	}
	return a
}

// find returns the index of the pod at key in a.pods, or -1.
func (a *podAddrs) find(key string) int {
	for i := range a.pods {
		if a.pods[i].key == key {
			return i
		}
	}
	return -1
}

// free gives back the address of a.pods[i].
func (a *podAddrs) free(i int) {
	bitset(a.used[:]).clear(int(a.pods[i].host))
	a.pods = append(a.pods[:i], a.pods[i+1:]...)
}

// next takes the next free host number after the last handed out,
// wrapping from lastHost to firstHost; false when none is free.
func (a *podAddrs) next() (int, bool) {
	used := bitset(a.used[:])
	n := lastHost - firstHost + 1
	for i := 1; i <= n; i++ {
		h := firstHost + (a.last-firstHost+i)%n
		if !used.has(h) {
			used.set(h)
			a.last = h
			return h, true
		}
	}
	return 0, false
}

// addrs returns the node's address state ready to change, for range cidr:
// a clone of the kubelet shares it until one of them changes it.
func (k *KubeletLoop) addrs(cidr string, base uint32) *podAddrs {
	a := k.ips
	switch {
	case a == nil || a.cidr != cidr:
		// A first range, or the node was given another: the plugin starts
		// over in it.
		a = &podAddrs{cidr: cidr, base: base, last: lastHost}
	case a.owner != k:
		cp := *a
		cp.pods = append(make([]podAddr, 0, len(a.pods)+1), a.pods...)
		a = &cp
	default:
		return a
	}
	a.owner, k.ips = k, a
	return a
}

// podCIDR returns the range of this kubelet's node, "" while it has none.
func (k *KubeletLoop) podCIDR(ctx *Context) string {
	if n, _ := ctx.Cache.Get("Node", k.node).(*api.Node); n != nil {
		return n.Spec.PodCIDR
	}
	return ""
}

// podAddress returns the address of the pod at key, giving it the next
// free one of the node's range if it has none yet. A pod on the host's
// network has the node's address. ok is false when the node has no range
// or the range has no address left (the reason in why).
func (k *KubeletLoop) podAddress(ctx *Context, key string, p *api.Pod) (ip string, ok bool, why string) {
	if p.Spec.More().HostNetwork {
		return k.hostIP, true, ""
	}
	if a := k.ips; a != nil {
		// A node's podCIDR never changes once set (the API server refuses
		// it): an address given is good while the pod holds it.
		if i := a.find(key); i >= 0 && a.pods[i].uid == p.UID {
			return api.FormatIPv4(a.base + uint32(a.pods[i].host)), true, ""
		}
	}
	cidr := k.podCIDR(ctx)
	base, prefix, err := ParseCIDR(cidr)
	if cidr == "" || err != nil || prefix != NodeCIDRMaskSize {
		return "", false, "the node has no spec.podCIDR: no pod network"
	}
	a := k.addrs(cidr, base)
	k.freeOrphans(ctx, a)
	if i := a.find(key); i >= 0 { // an earlier pod of that name
		a.free(i)
	}
	host, ok := a.next()
	if !ok {
		return "", false, fmt.Sprintf("no IP addresses available in range set: %s-%s", api.FormatIPv4(base+1), api.FormatIPv4(base+lastHost))
	}
	a.pods = append(a.pods, podAddr{key: key, uid: p.UID, host: uint8(host)})
	return api.FormatIPv4(base + uint32(host)), true, ""
}

// freeOrphans gives back the addresses of pods no longer on this node that
// the kubelet never saw go (deleted while the node was down): a kubelet
// that starts again removes their sandboxes, and the plugin frees their
// addresses. Looked at only when an address is handed out, which is when
// it matters.
func (k *KubeletLoop) freeOrphans(ctx *Context, a *podAddrs) {
	for i := len(a.pods) - 1; i >= 0; i-- {
		p, _ := ctx.Cache.Get("Pod", a.pods[i].key).(*api.Pod)
		if p == nil || p.UID != a.pods[i].uid || p.Spec.NodeName != k.node {
			a.free(i)
		}
	}
}

// addressOf returns the address of a pod with a running container (so a
// sandbox): the one it holds, or the next free one; "" when the node has
// none to give.
func (k *KubeletLoop) addressOf(ctx *Context, p *api.Pod) string {
	ip, _, _ := k.podAddress(ctx, api.RefOf(p).Key(), p)
	return ip
}

// releaseAddress gives back the address of the pod at key (its sandbox is
// gone).
func (k *KubeletLoop) releaseAddress(key string) {
	if k.ips == nil || k.ips.find(key) < 0 {
		return
	}
	a := k.addrs(k.ips.cidr, k.ips.base)
	a.free(a.find(key))
}

// podsWithoutNetwork returns the keys of this node's pods still waiting
// for an address.
func (k *KubeletLoop) podsWithoutNetwork(c *informer.Cache) []string {
	var keys []string
	for _, p := range c.PodsOnNode(k.node) {
		if p.Status.PodIP == "" && p.Status.Phase == api.PodPending && p.DeletionTimestamp == nil && !p.Spec.More().HostNetwork {
			keys = append(keys, api.RefOf(p).Key())
		}
	}
	return keys
}

// NetworkNotReadyMessage is what the kubelet says of a pod it cannot start
// while the container runtime has no pod network: the CNI plugin (kindnet,
// flannel) writes its configuration only once the node has a podCIDR.
const NetworkNotReadyMessage = "network is not ready: container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized"

// networkNotReady ends the pass of a pod on a node without a pod range:
// nothing starts; the node getting its range brings the pod back (the
// kubelet's own retry every second is not simulated: one event per try
// the node's changes cause).
func (k *KubeletLoop) networkNotReady(s *podSync) (Result, error) {
	ctx := s.ctx
	ctx.Observed = "the node has no spec.podCIDR: the pod network is not ready"
	ctx.Difference = "wait for the node's pod range (node-ipam-controller)"
	k.podEvent(ctx, s.p, "Warning", "NetworkNotReady", NetworkNotReadyMessage)
	return k.reportWaiting(s, Result{Outcome: Blocked, Why: "network not ready"})
}

// sandboxFailed ends the pass of a pod whose sandbox the CNI plugin could
// not give an address: every address of the node's range is taken.
func (k *KubeletLoop) sandboxFailed(s *podSync, why string) (Result, error) {
	ctx := s.ctx
	ctx.Observed = why
	ctx.Difference = "wait for a pod of this node to give its address back"
	sum := sha256.Sum256([]byte("sandbox/" + s.p.UID))
	k.podEvent(ctx, s.p, "Warning", "FailedCreatePodSandBox", fmt.Sprintf(
		"Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox %q: plugin type=\"bridge\" failed (add): failed to allocate for range 0: %s",
		hex.EncodeToString(sum[:]), why))
	return k.reportWaiting(s, Result{Outcome: Blocked, Why: "no pod address", RequeueAfter: BackOffInitial, RequeueReason: "sandbox back-off"})
}

// reportWaiting writes the status of a pod whose containers cannot start
// yet (Pending, ContainerCreating).
func (k *KubeletLoop) reportWaiting(s *podSync, res Result) (Result, error) {
	st := k.podStatus(s.p, s.rt, s.key, s.ctx, false)
	if !reflect.DeepEqual(st, s.p.Status) {
		np := s.p.WithStatus(st)
		if _, err := s.ctx.UpdateStatus(np, reportStatus(np)); err != nil {
			return Result{}, err
		}
	}
	return res, nil
}
