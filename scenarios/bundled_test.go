package scenarios_test

import (
	"testing"

	"reconcile/engine/check"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
	"reconcile/scenarios"
)

// TestBundledScenariosHoldTheirExpectations loads every bundled lesson, checks
// that its id is its file name and that every expect block holds.
func TestBundledScenariosHoldTheirExpectations(t *testing.T) {
	for _, id := range scenarios.IDs() {
		t.Run(id, func(t *testing.T) {
			name, data, _ := scenarios.File(id)
			sc, err := scenario.Load(name, data)
			if err != nil {
				t.Fatal(err)
			}
			if sc.ID != id {
				t.Errorf("%s: id %q, want the file name %q", name, sc.ID, id)
			}
			if sc.Title == "" || sc.Summary == "" {
				t.Errorf("%s: a lesson needs a title and a summary", name)
			}
			if len(sc.Expect) == 0 {
				t.Errorf("%s: a lesson needs at least one expect", name)
			}
			res, err := check.Run(sc, sim.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range res.Failures {
				t.Error(f)
			}
		})
	}
}
