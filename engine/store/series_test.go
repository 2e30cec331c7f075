package store

import (
	"testing"

	"reconcile/engine/api"
)

// TestRecordEventSeries records events as client-go's events.k8s.io
// recorder sees them: an isomorphic event (another note too) makes the
// stored one a series of 2 at once; later ones are written on the
// 30-minute refresh, not before; a series last observed more than 6
// minutes before a 6-minute tick is written a last time and forgotten, so
// the next occurrence is a new Event, as it is after the recording
// process stopped; a clone records as the original.
func TestRecordEventSeries(t *testing.T) {
	s := New(1)
	pod := &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"}, ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default", UID: "u1"}}
	rec := func(at api.Time, note string) {
		s.SetNow(at)
		s.RecordEvent("default-scheduler", "default-scheduler-control-plane", pod, "Warning", "FailedScheduling", "Scheduling", note)
		s.TakeChanges()
	}
	series := func(e *api.Event) (int32, api.Time) {
		if e.Series == nil {
			return 0, 0
		}
		return e.Series.Count, api.Time(e.Series.LastObservedTime)
	}
	rec(10*api.Second, "first")
	evs := s.EventsFor("Pod", "default", "p")
	if len(evs) != 1 || evs[0].Series != nil || evs[0].Count != 0 || evs[0].EventTime == nil || *evs[0].EventTime != api.MicroTime(10*api.Second) ||
		evs[0].FirstTimestamp != api.NoTime || evs[0].LastTimestamp != api.NoTime || evs[0].Action != "Scheduling" || evs[0].Source != (api.EventSource{}) {
		t.Fatalf("first occurrence: %+v", evs)
	}
	rec(20*api.Second, "second, another note")
	c := s.Clone()
	for i := 1; i <= 25; i++ { // one a minute, till 25m20s
		rec(20*api.Second+api.Time(i)*api.Minute, "again")
	}
	evs = s.EventsFor("Pod", "default", "p")
	if n, last := series(evs[0]); len(evs) != 1 || n != 2 || last != 20*api.Second || evs[0].Message != "first" {
		t.Fatalf("series before the refresh: %d at %v, %+v", n, last, evs)
	}
	s.SetNow(30 * api.Minute) // the refresh
	if n, last := series(s.EventsFor("Pod", "default", "p")[0]); n != 27 || last != 25*api.Minute+20*api.Second {
		t.Fatalf("series after the refresh: %d at %v", n, last)
	}
	s.TakeChanges()
	rec(35*api.Minute, "again") // the tick at 30m saw it last at 25m20s, not before 24m: not over
	if evs := s.EventsFor("Pod", "default", "p"); len(evs) != 1 {
		t.Fatalf("a repeat within the series made a new event: %d", len(evs))
	}
	s.SetNow(41 * api.Minute) // the 36m tick: last observed 35m, not before 30m
	if n, _ := series(s.EventsFor("Pod", "default", "p")[0]); n != 27 {
		t.Fatalf("series written before its end: %d", n)
	}
	s.SetNow(42 * api.Minute) // the 42m tick: before 36m, it ends
	if n, last := series(s.EventsFor("Pod", "default", "p")[0]); n != 28 || last != 35*api.Minute {
		t.Fatalf("series at its end: %d at %v", n, last)
	}
	s.TakeChanges()
	rec(49*api.Minute, "new")
	if evs := s.EventsFor("Pod", "default", "p"); len(evs) != 2 || evs[1].Series != nil || evs[1].Message != "new" {
		t.Fatalf("a repeat after the series ended: %+v", evs)
	}
	// The recording process stops: its cache goes, and with it the
	// count not written; the next occurrence is a new Event.
	rec(50*api.Minute, "again")
	s.ForgetEventSeries("default-scheduler")
	rec(51*api.Minute, "after a restart")
	if evs := s.EventsFor("Pod", "default", "p"); len(evs) != 3 || evs[1].Series == nil || evs[1].Series.Count != 2 || evs[2].Message != "after a restart" {
		t.Fatalf("after the recorder's process stopped: %+v", evs)
	}
	// The clone, taken at the second occurrence, goes on as s did.
	c.SetNow(7 * api.Minute)
	if n, _ := series(c.EventsFor("Pod", "default", "p")[0]); n != 2 {
		t.Fatalf("clone: %d", n)
	}
	c.SetNow(12 * api.Minute) // last observed 20s: over at the 12m tick
	if n, last := series(c.EventsFor("Pod", "default", "p")[0]); n != 2 || last != 20*api.Second || c.series.Len() != 0 {
		t.Fatalf("clone at its series' end: %d at %v, %d cached", n, last, c.series.Len())
	}
}
