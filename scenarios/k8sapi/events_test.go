package k8sapi_test

import (
	"encoding/json"
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// TestEventsAreWhatTheAPIServerStores holds every event of every bundled
// lesson, at three moments, to the core/v1 Event the API server would
// return: read into k8s.io/api's type and written again, its JSON has
// exactly the fields ours has, with the same values (eventTime null,
// reportingComponent and reportingInstance as the legacy recorder sets
// them, count, both timestamps).
func TestEventsAreWhatTheAPIServerStores(t *testing.T) {
	n := 0
	for _, m := range moments(t) {
		for _, o := range m.store.List("Event") {
			ours, err := json.Marshal(o)
			if err != nil {
				t.Fatal(err)
			}
			var e corev1.Event
			if err := json.Unmarshal(ours, &e); err != nil {
				t.Fatalf("%s at %v: %v", m.lesson, m.at, err)
			}
			theirs, err := json.Marshal(&e)
			if err != nil {
				t.Fatal(err)
			}
			var a, b map[string]any
			if err := json.Unmarshal(ours, &a); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(theirs, &b); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("%s at %v: event %s is not what the API server returns:\nours:   %s\ntheirs: %s", m.lesson, m.at, e.Name, ours, theirs)
			}
			n++
		}
	}
	if n < 1000 {
		t.Fatalf("only %d events compared: the lessons record more", n)
	}
	t.Logf("%d events compared", n)
}
