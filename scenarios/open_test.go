package scenarios_test

import (
	"errors"
	"reflect"
	"testing"

	"reconcile/scenarios"
)

// TestOpenIsLoad checks that Open, which skips the loader's checks whose
// only outcome is an error, gives for every bundled lesson what Load gives.
func TestOpenIsLoad(t *testing.T) {
	for _, id := range scenarios.IDs() {
		want, err := scenarios.Load(id)
		if err != nil {
			t.Errorf("%s: %v", id, err)
			continue
		}
		got, err := scenarios.Open(id)
		if err != nil {
			t.Errorf("%s: Open: %v", id, err)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: Open and Load differ:\n%+v\n%+v", id, got, want)
		}
	}
	if _, err := scenarios.Open("no-such-lesson"); !errors.Is(err, scenarios.ErrNotFound) {
		t.Errorf("Open(unknown) = %v, want ErrNotFound", err)
	}
}
