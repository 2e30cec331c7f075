package store

import (
	"reconcile/engine/api"
)

// The events.k8s.io recorder: what kube-scheduler records its events
// through (client-go tools/events), a second path beside the legacy
// recorder (Record) that every other component uses. Its rules, from
// client-go v0.34.1:
//
//   - tools/events/event_recorder.go makeEvent: an events.k8s.io/v1 Event
//     with eventTime now (a MicroTime), reportingController,
//     reportingInstance, action, reason, regarding, note, type, and no
//     series. Read as core/v1 (what kubectl reads), it has eventTime,
//     action, reportingComponent and reportingInstance, source {}, no
//     count, firstTimestamp and lastTimestamp null.
//   - tools/events/event_broadcaster.go getKey: events are isomorphic when
//     their type, action, reason, reportingController, reportingInstance,
//     regarding and related are the same (not their note).
//   - recordToSink: an isomorphic event of a cached event without a series
//     gives it series {count: 2, lastObservedTime: now} and writes it (a
//     PATCH of the series alone, createPatchBytesForSeries: the note and
//     eventTime stay the first's); of one with a series, it only counts
//     in the cache (count+1, lastObservedTime now), written later.
//   - refreshExistingEventSeries, every refreshTime (30 minutes): every
//     cached series is written (its count and lastObservedTime).
//   - finishSeries, every finishTime (6 minutes): a series last observed
//     more than 6 minutes before is written a last time and leaves the
//     cache; an event without a series whose eventTime is more than 6
//     minutes before leaves it. An isomorphic event after that is a new
//     Event object.
//   - StartRecordingToSinkWithContext runs both with wait.UntilWithContext
//     from the recorder's start: here, the start of the run, so the ticks
//     fall on the multiples of 6 and 30 minutes of simulated time; at a
//     multiple of 30 minutes the refresh runs first. A write that changes
//     nothing (a refresh of a series the finish writes again) changes
//     nothing stored, as the API server's no-op patch.
//
// The cache (Store.series) is kept in the store, cloned with it, so a
// fork or a seek records as the run it copies would; it is the recording
// process's memory, though: when that process stops or crashes, its
// entries go (ForgetEventSeries), and the counts of its series not yet
// written are lost, as a restarted kube-scheduler's are.
const (
	seriesFinishTime  = 6 * api.Minute
	seriesRefreshTime = 30 * api.Minute
)

// cachedEvent is the recorder's cache entry of one isomorphic key: the
// stored event it writes (by its number, Store.events) and the series it
// counts. It is never changed in place (the store's clones share it).
type cachedEvent struct {
	controller   string
	seq          uint64
	eventTime    api.Time
	series       bool
	count        int32
	lastObserved api.Time
}

// isomorphicKey is getKey's key as one string: type, action, reason,
// reporting controller and instance, the regarding object, every field of
// its reference (the recorder relates none). Its resourceVersion is one:
// an occurrence about the object after a write is not isomorphic to one
// before it, and starts a new Event.
func isomorphicKey(ref api.ObjectReference, controller, instance, typ, reason, action string) string {
	b := make([]byte, 0, 160)
	for _, s := range [...]string{typ, action, reason, controller, instance, ref.Kind, ref.Namespace, ref.Name, ref.UID, ref.APIVersion, ref.ResourceVersion, ref.FieldPath} {
		b = append(append(b, s...), 0)
	}
	return string(b)
}

// RecordEvent records an event about obj as the events.k8s.io recorder
// does (see above): controller and instance are its reportingController
// and reportingInstance, action what the recorder was doing, note the
// message.
func (s *Store) RecordEvent(controller, instance string, obj api.Object, typ, reason, action, note string) {
	ref := api.ReferenceTo(obj)
	key := isomorphicKey(ref, controller, instance, typ, reason, action)
	now := s.now
	if c, ok := s.series.Get(key); ok {
		n := *c
		if n.series {
			n.count++
			n.lastObserved = now
			s.series.Set(key, &n)
			return
		}
		n.series, n.count, n.lastObserved = true, 2, now
		if s.writeSeries(&n) {
			s.series.Set(key, &n)
			return
		}
		// The event is gone (its namespace deleted): client-go creates it
		// again; here the occurrence starts a new one.
	}
	if s.series.Len() == 0 {
		s.seriesTick = (now/seriesFinishTime + 1) * seriesFinishTime
	}
	e := s.newEvent(ref, now)
	t := api.MicroTime(now)
	e.EventTime = &t
	e.FirstTimestamp, e.LastTimestamp = api.NoTime, api.NoTime
	e.ReportingController, e.ReportingInstance = controller, instance
	e.Reason, e.Message, e.Type, e.Action = reason, note, typ, action
	s.recorded(e)
	a := ref.Kind + "/" + ref.Namespace + "/" + ref.Name
	old, _ := s.about.Get(a)
	o := old.with()
	o.folds = append(o.folds, fold{ev: e, seq: s.lastSeq})
	s.about.Set(a, o)
	s.series.Set(key, &cachedEvent{controller: controller, seq: s.lastSeq, eventTime: now})
}

// writeSeries writes c's series into its stored event, as the recorder's
// PATCH does, and reports whether the event is still stored. A write that
// changes nothing is not made.
func (s *Store) writeSeries(c *cachedEvent) bool {
	old, ok := s.events.Get(seqKey(c.seq))
	if !ok {
		return false
	}
	series := api.EventSeries{Count: c.count, LastObservedTime: api.MicroTime(c.lastObserved)}
	if old.Series != nil && *old.Series == series {
		return true
	}
	e := old.DeepCopy()
	e.Series = &series
	s.putRecorded(c.seq, e)
	s.recorded(e)
	return true
}

// seriesTicks runs the recorder's periodic work due up to t: the refresh
// and the finish at each tick since the last, in order.
func (s *Store) seriesTicks(t api.Time) {
	for tick := s.seriesTick; tick <= t && s.series.Len() > 0; tick += seriesFinishTime {
		if tick%seriesRefreshTime == 0 {
			for _, c := range s.series.All() {
				if c.series {
					s.writeSeries(c)
				}
			}
		}
		var done []string
		for k, c := range s.series.All() {
			last := c.eventTime
			if c.series {
				last = c.lastObserved
			}
			if last < tick-seriesFinishTime {
				if c.series {
					s.writeSeries(c)
				}
				done = append(done, k)
			}
		}
		for _, k := range done {
			s.series.Delete(k)
		}
	}
	s.seriesTick = (t/seriesFinishTime + 1) * seriesFinishTime
}

// ForgetEventSeries drops the recorder's cache of controller's events: the
// process that kept it has stopped. Its series are not written again; its
// next occurrence of each is a new Event.
func (s *Store) ForgetEventSeries(controller string) {
	if s.series.Len() == 0 {
		return
	}
	var gone []string
	for k, c := range s.series.All() {
		if c.controller == controller {
			gone = append(gone, k)
		}
	}
	for _, k := range gone {
		s.series.Delete(k)
	}
}
