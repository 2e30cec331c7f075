package scenarios_test

import (
	"errors"
	"testing"

	"reconcile/engine/check"
	"reconcile/scenarios"
)

// TestBundledScenariosHoldTheirExpectations loads every bundled lesson, checks
// that its id is its file name and that every expect block holds.
func TestLoadUnknown(t *testing.T) {
	if _, err := scenarios.Load("no-such-lesson"); !errors.Is(err, scenarios.ErrNotFound) {
		t.Errorf("Load(unknown) = %v, want ErrNotFound", err)
	}
}

func TestBundledScenariosHoldTheirExpectations(t *testing.T) {
	for _, id := range scenarios.IDs() {
		t.Run(id, func(t *testing.T) {
			sc, err := scenarios.Load(id)
			if err != nil {
				t.Fatal(err)
			}
			name := sc.File
			if sc.ID != id {
				t.Errorf("%s: id %q, want the file name %q", name, sc.ID, id)
			}
			if sc.Title == "" || sc.Summary == "" {
				t.Errorf("%s: a lesson needs a title and a summary", name)
			}
			if len(sc.Expect) == 0 {
				t.Errorf("%s: a lesson needs at least one expect", name)
			}
			res, err := check.Run(sc)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range res.Failures {
				t.Error(f)
			}
		})
	}
}
