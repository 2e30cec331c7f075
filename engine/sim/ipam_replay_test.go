package sim

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"reconcile/engine/api"
)

// podAddresses lists every pod's node and address, by name.
func podAddresses(s *Sim) string {
	var out []string
	for _, o := range s.Store().List("Pod") {
		p := o.(*api.Pod)
		out = append(out, fmt.Sprintf("%s@%s=%s", p.Name, p.Spec.NodeName, p.Status.PodIP))
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

// TestAddressesReplay: the kubelets' address state lives in the world, so
// a seek back to any checkpoint replays to the same addresses — pods that
// come and go on a node included (each new one takes the next address).
func TestAddressesReplay(t *testing.T) {
	labels := map[string]string{"app": "web"}
	cfg := Config{Seed: 1, Until: 4 * api.Minute,
		Steps: []Step{
			{At: 40 * api.Second, Input: Kubectl{Line: "scale deployment/web --replicas=2"}},
			{At: 80 * api.Second, Input: Kubectl{Line: "scale deployment/web --replicas=9"}},
			{At: 2 * api.Minute, Input: Kubectl{Line: "rollout restart deployment/web"}},
		},
		Objects: []Object{{Object: &api.Deployment{
			TypeMeta:   api.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
			ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
			Spec: api.DeploymentSpec{Replicas: api.Int32(6), Selector: &api.LabelSelector{MatchLabels: labels},
				Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels},
					Spec: api.PodSpec{Containers: []api.Container{{Name: "web", Image: "shop/web:1.0"}}}}},
		}}}}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, ok := s.Next(); ok; _, ok = s.Next() {
	}
	want, wantIPs := s.Digest(), podAddresses(s)
	// Every pod has an address of its node's /24 that no other pod has;
	// the churn moved each node's addresses on: the first pods' .2 to .4
	// are free again but not handed out yet (round robin).
	seen := map[string]bool{}
	for _, f := range strings.Fields(wantIPs) {
		node, ip, _ := strings.Cut(f[strings.Index(f, "@")+1:], "=")
		var n, host int
		if _, err := fmt.Sscanf(node+" "+ip, "worker-%d 10.244.%d.", &n, &host); err != nil || host != n-1 {
			t.Errorf("%s: not an address of its node's range 10.244.%d.0/24", f, n-1)
		}
		var last int
		fmt.Sscanf(ip[strings.LastIndex(ip, ".")+1:], "%d", &last)
		if seen[ip] || last < 5 {
			t.Errorf("%s: given twice, or handed out again too soon: %s", ip, wantIPs)
		}
		seen[ip] = true
	}
	last := s.PassCount()
	for _, n := range []int{1, last / 3, last / 2, last - 1} {
		if err := s.Seek(n); err != nil {
			t.Fatal(err)
		}
		for _, ok := s.Next(); ok; _, ok = s.Next() {
		}
		if got, ips := s.Digest(), podAddresses(s); got != want || ips != wantIPs {
			t.Errorf("seek to pass %d and replay: %s\n%s\nfirst run %s\n%s", n, got, ips, want, wantIPs)
		}
	}
}
