package controller

import (
	"fmt"
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/informer"
	"reconcile/engine/store"
)

func TestParseCIDR(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"10.244.0.0/16", "10.244.0.0 16 <nil>"},
		{"10.0.0.0/14", "10.0.0.0 14 <nil>"},
		{"10.244.1.0/16", "0.0.0.0 0 10.244.1.0/16 has host bits set: the range starts at 10.244.0.0/16"},
		{"10.244.0.0", "0.0.0.0 0 invalid CIDR address: 10.244.0.0"},
		{"10.244.0.256/24", "0.0.0.0 0 invalid CIDR address: 10.244.0.256/24"},
		{"10.244.0.0/33", "0.0.0.0 0 invalid CIDR address: 10.244.0.0/33"},
	} {
		base, prefix, err := ParseCIDR(tc.in)
		if got := fmt.Sprintf("%s %d %v", api.FormatIPv4(base), prefix, err); got != tc.want {
			t.Errorf("ParseCIDR(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
	for in, ok := range map[string]bool{"10.244.0.0/16": true, "10.244.0.0/24": true, "10.0.0.0/8": true, "10.244.0.0/25": false, "10.0.0.0/7": false} {
		if err := CheckClusterCIDR(in); (err == nil) != ok {
			t.Errorf("CheckClusterCIDR(%q) = %v, want ok=%v", in, err, ok)
		}
	}
}

// A /22 holds four node ranges: they go in order, a freed one comes back
// only when the search wraps, and none is left once all four are taken.
func TestNodeIPAMAllocate(t *testing.T) {
	c := NewNodeIPAM("10.244.0.0/22")
	var got []string
	for range 4 {
		cidr, ok := c.Allocate()
		got = append(got, fmt.Sprintf("%s %v", cidr, ok))
	}
	if want := "[10.244.0.0/24 true 10.244.1.0/24 true 10.244.2.0/24 true 10.244.3.0/24 true]"; fmt.Sprint(got) != want {
		t.Fatalf("got %v, want %s", got, want)
	}
	if cidr, ok := c.Allocate(); ok {
		t.Fatalf("a fifth range %s from a /22", cidr)
	}
	clone := c.Clone().(*NodeIPAM)
	// node-b is deleted: its range is free, in c only.
	c.Keys(informer.NewCache(), store.WatchEvent{Type: store.Deleted, Object: &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-b"},
		Spec: api.NodeSpec{PodCIDR: "10.244.1.0/24", PodCIDRs: []string{"10.244.1.0/24"}}}})
	if cidr, ok := c.Allocate(); cidr != "10.244.1.0/24" || !ok {
		t.Errorf("after the release: %q %v, want 10.244.1.0/24", cidr, ok)
	}
	if cidr, ok := clone.Allocate(); ok {
		t.Errorf("the clone saw the release: %s", cidr)
	}
}

// The kubelet hands out .2 to .254 round robin; a freed address comes back
// once the others have been handed out; with all 253 taken a pod gets none.
func TestKubeletAddresses(t *testing.T) {
	cache := informer.NewCache()
	cache.Apply(store.WatchEvent{Type: store.Added, Object: &api.Node{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Node"}, ObjectMeta: api.ObjectMeta{Name: "w"},
		Spec: api.NodeSpec{PodCIDR: "10.244.7.0/24", PodCIDRs: []string{"10.244.7.0/24"}}}})
	ctx := &Context{Cache: cache}
	k := NewKubelet("w")
	pod := func(i int) (string, *api.Pod) {
		p := &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
			ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("p%d", i), Namespace: "default", UID: fmt.Sprint(i)}, Spec: api.PodSpec{NodeName: "w"}}
		if cache.Get("Pod", api.RefOf(p).Key()) == nil {
			cache.Apply(store.WatchEvent{Type: store.Added, Object: p})
		}
		return api.RefOf(p).Key(), p
	}
	addr := func(i int) string {
		key, p := pod(i)
		ip, ok, why := k.podAddress(ctx, key, p)
		if !ok {
			return why
		}
		return ip
	}
	if a, b, again := addr(0), addr(1), addr(0); a != "10.244.7.2" || b != "10.244.7.3" || again != a {
		t.Fatalf("first addresses %s %s, again %s", a, b, again)
	}
	snapshot := k.Clone().(*KubeletLoop)
	k.releaseAddress("default/p0")
	if got := addr(2); got != "10.244.7.4" {
		t.Errorf("after .2 was freed the next is %s, want .4 (round robin)", got)
	}
	for i := 3; i < 253; i++ {
		addr(i)
	}
	if got := addr(253); got != "10.244.7.2" {
		t.Errorf("after the wrap: %s, want the freed .2", got)
	}
	if got := addr(254); got != "no IP addresses available in range set: 10.244.7.1-10.244.7.254" {
		t.Errorf("a full range: %q", got)
	}
	key, p := pod(0)
	if ip, _, _ := snapshot.podAddress(ctx, key, p); ip != "10.244.7.2" {
		t.Errorf("the clone lost pod p0's address: %q", ip)
	}
	key, p = pod(2)
	if ip, _, _ := snapshot.podAddress(ctx, key, p); ip != "10.244.7.4" {
		t.Errorf("the clone's next address is %q, want .4 (it did not see the others)", ip)
	}
	// Pod p5 went while the kubelet was not looking (gone from its cache):
	// the next address handed out finds .7 free.
	key, p = pod(5)
	cache.Apply(store.WatchEvent{Type: store.Deleted, Object: p})
	if got := addr(300); got != "10.244.7.7" {
		t.Errorf("with p5 gone the next address is %q, want its .7", got)
	}
}
