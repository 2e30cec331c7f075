package store

import (
	"testing"

	"reconcile/engine/api"
)

// TestRecycle: a slice given back logs the next changes, and only those;
// one given back while a change waits is not taken, so nothing is lost.
func TestRecycle(t *testing.T) {
	s := New(1)
	s.TakeChanges() // the bootstrap's
	pod := &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"}, ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default", UID: "u1"}}
	s.Record("kubelet", "n1", pod, "Normal", "Pulled", "one")
	s.Record("kubelet", "n1", pod, "Normal", "Created", "two")
	first := s.TakeChanges()
	if len(first) != 2 || first[0].Recorded.Message != "one" {
		t.Fatalf("changes %+v, want the two events", first)
	}
	s.Recycle(first)
	if first[:2][0].Recorded != nil {
		t.Fatal("a recycled slice still holds what it logged")
	}
	s.Record("kubelet", "n1", pod, "Normal", "Started", "three")
	second := s.TakeChanges()
	if len(second) != 1 || second[0].Recorded.Message != "three" {
		t.Fatalf("after Recycle: changes %+v, want the one event since", second)
	}
	if &second[:1][0] != &first[:1][0] {
		t.Error("the slice given back was not used again")
	}
	s.Record("kubelet", "n1", pod, "Normal", "Killing", "four")
	s.Recycle(second) // a change waits: not taken
	third := s.TakeChanges()
	if len(third) != 1 || third[0].Recorded.Message != "four" {
		t.Fatalf("a change logged before Recycle: changes %+v, want it", third)
	}
}
