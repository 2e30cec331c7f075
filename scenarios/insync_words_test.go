package scenarios_test

import (
	"strings"
	"testing"

	"reconcile/engine/controller"
	"reconcile/engine/sim"
	"reconcile/scenarios"
)

// TestInSyncNeverContradicts: a pass that ends in sync (difference none)
// never says it wants a pod ready beside an observed pod that is not: the
// kubelet's part is to run and probe a container, not to make it ready.
func TestInSyncNeverContradicts(t *testing.T) {
	for _, id := range scenarios.IDs() {
		sc, err := scenarios.Load(id)
		if err != nil {
			t.Fatal(err)
		}
		s, err := sim.New(sc.Config())
		if err != nil {
			t.Fatal(err)
		}
		s.RunUntil(sc.Horizon(), 20000)
		for _, p := range s.PassesFrom(0) {
			if p.Result == controller.InSync && strings.Contains(p.Desired.String(), "ready") && strings.Contains(p.Observed.String(), "not ready") {
				t.Errorf("%s: pass %d (%s) in sync: desired %q, observed %q", id, p.N, p.Controller, p.Desired, p.Observed)
				break
			}
		}
	}
}
