package session

import (
	"strings"
	"testing"

	"reconcile/engine/scenario"
)

// TestCreatedPodsMarked: on the pass that creates pods, each created pod's
// chip is marked ChangeAdded, wherever it is drawn (no node yet).
func TestCreatedPodsMarked(t *testing.T) {
	sc, err := scenario.Load("w.yaml", []byte(watchLesson))
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	var r Reader
	r.Read(s, false)
	for range 40 {
		p, ok := s.Next()
		if !ok {
			t.Fatal("no pass created pods")
		}
		v := r.Read(s, false)
		created := map[string]bool{}
		for _, c := range p.Changed {
			if c.Kind == "Pod" && c.Type == "ADDED" {
				created[c.Name] = true
			}
		}
		if len(created) == 0 {
			continue
		}
		marked := map[string]string{}
		for _, nv := range append(v.Cluster.Nodes, v.Cluster.Unscheduled) {
			for _, c := range nv.Pods {
				marked[c.Ref.Name] = c.Change
			}
		}
		for name := range created {
			if marked[name] != ChangeAdded {
				t.Errorf("pass %d (%s) created %s; its chip is marked %q, want %q (chips: %v)", p.N, p.Controller, name, marked[name], ChangeAdded, marked)
			}
		}
		if !strings.Contains(p.Controller, "replicaset") {
			t.Errorf("pods created by %s", p.Controller)
		}
		return
	}
	t.Fatal("no pass created pods")
}
