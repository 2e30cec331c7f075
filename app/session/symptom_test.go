package session

import (
	"testing"

	"reconcile/engine/controller"
	"reconcile/scenarios"
)

// TestSymptomPass: stuck-rollout's symptom shows in the
// deployment-controller's pass that wrote ProgressDeadlineExceeded, not in
// the kubelet's quiet pass that happens to be the last before the
// symptom's moment.
func TestSymptomPass(t *testing.T) {
	sc, err := scenarios.Load("stuck-rollout")
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	s.PlayTo(SymptomAt(sc))
	last, _ := s.run.Pass(s.N())
	if last.Controller != "kubelet" || last.Result != controller.InSync {
		t.Fatalf("the last pass before the symptom is %s %s: the test expects a quiet kubelet pass", last.Controller, last.Result)
	}
	p, ok := SymptomPass(s.run, sc)
	if !ok {
		t.Fatal("no symptom pass")
	}
	if p.Controller != "deployment-controller" || p.Result != controller.Acted || p.Object.Name != "web" {
		t.Errorf("symptom pass %d: %s %s on %s, want the deployment-controller acting on web", p.N, p.Controller, p.Result, p.Object)
	}
	if p.N >= last.N {
		t.Errorf("symptom pass %d after the last pass %d", p.N, last.N)
	}
}
