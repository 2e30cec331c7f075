package scenarios_test

import (
	"os"
	"testing"

	"reconcile/engine/check"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
)

// TestImmutableFieldIsReadyButNotBundled covers the failure-table row
// "Field change refused". Its scenario, testdata/immutable-field.yaml, holds
// when run as the player runs it (the API server's validation refuses the
// selector change with "field is immutable"), but reconcile check runs
// without that validation and stores the change, so the scenario cannot be
// bundled yet. When reconcile check refuses the change too, this test fails:
// move the file into scenarios/, list it in order.go after
// webhook-fail-closed, and drop the row from notPlayableYet.
func TestImmutableFieldIsReadyButNotBundled(t *testing.T) {
	const file = "testdata/immutable-field.yaml"
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Load(file, data)
	if err != nil {
		t.Fatal(err)
	}
	s := newPlayerSim(t, sc)
	for _, e := range sc.Expect {
		s.RunUntil(e.At, 0)
		if f := check.Expect(s, e); f != nil {
			t.Errorf("as the player runs it: %v", f)
		}
	}
	respond(t, sc, newPlayerSim(t, sc))
	res, err := check.Run(sc, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.OK() {
		t.Errorf("reconcile check now refuses the selector change: bundle %s (see this test's comment)", file)
	}
}
