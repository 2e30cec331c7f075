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
