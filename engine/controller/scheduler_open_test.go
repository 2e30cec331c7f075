package controller

import (
	"testing"

	"reconcile/engine/api"
)

// TestSchedulerOpenNode: a node is open (filter skips reading its mark and
// taints) exactly when filter would find nothing there to refuse a pod
// that tolerates nothing; a node update that cordons or taints it closes
// it again.
func TestSchedulerOpenNode(t *testing.T) {
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"}}
	for _, tc := range []struct {
		name string
		spec api.NodeSpec
		open bool
	}{
		{"plain", api.NodeSpec{}, true},
		{"cordoned", api.NodeSpec{Unschedulable: true}, false},
		{"NoSchedule", api.NodeSpec{Taints: []api.Taint{{Key: "k", Value: "v", Effect: "NoSchedule"}}}, false},
		{"NoExecute", api.NodeSpec{Taints: []api.Taint{{Key: "k", Effect: "NoExecute"}}}, false},
		{"PreferNoSchedule", api.NodeSpec{Taints: []api.Taint{{Key: "k", Effect: "PreferNoSchedule"}}}, true},
	} {
		s := NewScheduler()
		plain := &api.Node{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Node"}, ObjectMeta: api.ObjectMeta{Name: "n1"}}
		s.trackNode(plain, false)
		n := *plain
		n.Spec = tc.spec
		s.trackNode(&n, false) // an update of the node
		u := s.usageOf("n1", false)
		if u.open != tc.open {
			t.Errorf("%s: open = %v, want %v", tc.name, u.open, tc.open)
		}
		if got := untolerated(pod, &n) == ""; got != tc.open {
			t.Errorf("%s: untolerated finds nothing = %v, but open = %v", tc.name, got, tc.open)
		}
		rs, _ := s.filter(pod, 0, 0, u)
		if want := untolerated(pod, &n); want != "" && (len(rs) == 0 || rs[0] != want) {
			t.Errorf("%s: filter gives %v, want %q", tc.name, rs, want)
		}
	}
}
