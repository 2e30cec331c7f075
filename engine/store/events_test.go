package store

import (
	"fmt"
	"testing"

	"reconcile/engine/api"
)

func TestUIDOfIsTheFormattedUID(t *testing.T) {
	for _, n := range []int64{0, 1, 15, 16, 0xfffffff, 0xffffffff, 0x1_0000_0000, 0xffff_ffff_ffff, 0x1_0000_0000_0000} {
		if got, want := uidOf(n), fmt.Sprintf("%08x-0000-4000-8000-%012x", n, n); got != want {
			t.Errorf("uidOf(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestRecordFoldsAndCombines records events as the legacy recorder sees
// them: an identical event bumps the count of the stored one; the tenth
// similar event with a new message (same source, object, type and reason)
// starts one "(combined from similar events)" event, which later ones bump.
func TestRecordFoldsAndCombines(t *testing.T) {
	s := New(1)
	pod := &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"}, ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default", UID: "u1"}}
	s.SetNow(10 * api.Second)
	s.Record("kubelet", "n1", pod, "Normal", "Pulled", "same")
	s.SetNow(20 * api.Second)
	s.Record("kubelet", "n1", pod, "Normal", "Pulled", "same")
	s.Record("kubelet", "n2", pod, "Normal", "Pulled", "same") // another source: another event
	evs := s.EventsFor("Pod", "default", "p")
	if len(evs) != 2 || evs[0].Count != 2 || evs[0].LastTimestamp != 20*api.Second || evs[0].FirstTimestamp != 10*api.Second || evs[1].Count != 1 {
		t.Fatalf("identical events did not fold: %+v", evs)
	}
	for i := 0; i < 12; i++ {
		s.Record("kubelet", "n1", pod, "Warning", "Failed", fmt.Sprintf("message %d", i))
	}
	evs = s.EventsFor("Pod", "default", "p")
	// 2 above, messages 0-8 (the first nine), then one combined event for
	// messages 9, 10 and 11.
	if len(evs) != 2+9+1 {
		t.Fatalf("got %d events, want 12", len(evs))
	}
	last := evs[len(evs)-1]
	if last.Message != "(combined from similar events): message 11" || last.Count != 3 {
		t.Fatalf("combined event: %q count %d", last.Message, last.Count)
	}
	if got := len(s.Events()); got != len(evs) {
		t.Fatalf("Events lists %d, EventsFor %d", got, len(evs))
	}
}

// TestRecordedEventsAreObjects checks that the events Record keeps apart
// (recorded.go) are still objects of the API: Get by name, List sorted by
// namespace and name beside an Event created through Create, Count, Kinds,
// Update and Delete, a clone unchanged by what the store does after it,
// and Events in the order first recorded, even when the clock goes back.
func TestRecordedEventsAreObjects(t *testing.T) {
	s := New(1)
	pod := func(name string) *api.Pod {
		return &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"}, ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: "u-" + name}}
	}
	s.SetNow(10 * api.Second)
	s.Record("kubelet", "n1", pod("b"), "Normal", "Pulled", "one")
	s.Record("kubelet", "n1", pod("a"), "Normal", "Pulled", "two")
	s.Record("kubelet", "n1", pod("b.x"), "Normal", "Pulled", "three")
	created, err := s.Create(&api.Event{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Event"},
		ObjectMeta: api.ObjectMeta{Name: "a.manual", Namespace: "default"}, Reason: "Manual", Message: "by hand", Type: "Normal",
		InvolvedObject: api.ObjectReference{Kind: "Pod", Namespace: "default", Name: "a"}})
	if err != nil {
		t.Fatal(err)
	}
	s.TakeChanges()
	evs := s.Events()
	if len(evs) != 3 || evs[0].Message != "one" || evs[1].Message != "two" || evs[2].Message != "three" {
		t.Fatalf("Events: %v, want the three recorded in order", evs)
	}
	for _, e := range evs {
		if got := s.Get("Event", "default", e.Name); got != e {
			t.Fatalf("Get(%s) = %v, want the recorded event", e.Name, got)
		}
	}
	if got := s.Get("Event", "kube-system", evs[0].Name); got != nil {
		t.Fatalf("Get in another namespace found %v", got)
	}
	if got := s.Get("Event", "default", "b.ffff"); got != nil {
		t.Fatalf("Get(b.ffff) found %v", got)
	}
	var names []string
	for _, o := range s.List("Event") {
		names = append(names, o.Meta().Name)
	}
	// ns/name order: "a.1…" < "a.manual" < "b.1…" < "b.x.1…"
	want := []string{evs[1].Name, created.Meta().Name, evs[0].Name, evs[2].Name}
	if fmt.Sprint(names) != fmt.Sprint(want) {
		t.Fatalf("List(Event) = %v, want %v", names, want)
	}
	if n := s.Count("Event"); n != 4 {
		t.Fatalf("Count(Event) = %d, want 4", n)
	}
	if k := s.Kinds(); fmt.Sprint(k) != "[ConfigMap Event Namespace ServiceAccount]" {
		t.Fatalf("Kinds = %v", k)
	}
	before := s.Clone()
	e := evs[0].DeepCopy()
	e.Message = "edited"
	if _, err := s.Update(e); err != nil {
		t.Fatal(err)
	}
	if got := s.Get("Event", "default", e.Name).(*api.Event); got.Message != "edited" || s.Count("Event") != 4 {
		t.Fatalf("Update: %q, %d events", got.Message, s.Count("Event"))
	}
	if _, err := s.Delete("Event", "default", evs[1].Name, false); err != nil {
		t.Fatal(err)
	}
	if s.Get("Event", "default", evs[1].Name) != nil || len(s.Events()) != 2 || s.Count("Event") != 3 {
		t.Fatalf("Delete: still there, or %d events", len(s.Events()))
	}
	if len(before.Events()) != 3 || before.Get("Event", "default", evs[0].Name).(*api.Event).Message != "one" {
		t.Fatal("the clone changed with the store")
	}
	// A clock that goes back: the event still comes last, and is found.
	s.TakeChanges()
	s.SetNow(1 * api.Second)
	s.Record("kubelet", "n1", pod("c"), "Normal", "Pulled", "late")
	evs = s.Events()
	last := evs[len(evs)-1]
	if last.Message != "late" || s.Get("Event", "default", last.Name) != last {
		t.Fatalf("after the clock went back: last %q, Get %v", last.Message, s.Get("Event", "default", last.Name))
	}
}
