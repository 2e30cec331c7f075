package store

import (
	"slices"

	"reconcile/engine/api"
)

// objectEvents is what the recorder remembers about the events of one
// involved object. It is never changed in place (the store's clones share
// it): a change makes a new one. It makes no strings of its own: its keys
// are the strings of the events and of the calls that recorded them.
type objectEvents struct {
	// folds are its events, in the order first recorded: the stored event
	// an identical occurrence folds into (same source, UID, type, reason,
	// fieldPath and message, as getEventKey; for a combined event, the
	// aggregator's key: neither fieldPath nor message is compared).
	folds []fold
	// similar counts, per source, UID, type and reason, the distinct
	// messages seen since first.
	similar []similarEvents
	// owned: folds and similar are arrays of this one's own, with room for
	// one more each (withRoom), to change in place; otherwise they are
	// the clipped slices of the one it copies.
	owned bool
}

// eventKey is what makes events similar (EventAggregatorByReasonFunc):
// their source, the involved object's UID, their type and reason; not the
// fieldPath, so two containers' events of one reason combine.
type eventKey struct{ component, host, uid, typ, reason string }

func keyOf(e *api.Event) eventKey {
	return eventKey{e.Source.Component, e.Source.Host, e.InvolvedObject.UID, e.Type, e.Reason}
}

type fold struct {
	// ev is the event's first version: its name and key.
	ev *api.Event
	// seq is where the store keeps its versions (Store.events).
	seq      uint64
	combined bool
	// forgotten: the process that recorded it has restarted since
	// (ForgetEvents); it is listed still, but nothing folds into it.
	forgotten bool
}

type similarEvents struct {
	// ev is an event with the key: the first recorded since first.
	ev    *api.Event
	first api.Time
	n     int
}

// fold finds the stored event an occurrence with key k folds into:
// for one not combined, the fieldPath and message must be the same too.
func (o *objectEvents) fold(k eventKey, fieldPath, message string, combined bool) (uint64, bool) {
	if o == nil {
		return 0, false
	}
	for _, f := range o.folds {
		if !f.forgotten && f.combined == combined && (combined || f.ev.Message == message && f.ev.InvolvedObject.FieldPath == fieldPath) && keyOf(f.ev) == k {
			return f.seq, true
		}
	}
	return 0, false
}

func (o *objectEvents) similarTo(k eventKey) (similarEvents, bool) {
	if o == nil {
		return similarEvents{}, false
	}
	for _, r := range o.similar {
		if keyOf(r.ev) == k {
			return r, true
		}
	}
	return similarEvents{}, false
}

// with returns a copy of o (nil: empty) to change.
func (o *objectEvents) with() *objectEvents {
	if o == nil {
		return withRoom(0, 0)
	}
	if c := withRoom(len(o.folds), len(o.similar)); c != nil {
		c.folds = append(c.folds, o.folds...)
		c.similar = append(c.similar, o.similar...)
		return c
	}
	return &objectEvents{folds: slices.Clip(o.folds), similar: slices.Clip(o.similar)}
}

func (o *objectEvents) setSimilar(r similarEvents) {
	k := keyOf(r.ev)
	for i := range o.similar {
		if keyOf(o.similar[i].ev) == k {
			if !o.owned {
				o.similar = slices.Clone(o.similar)
			}
			o.similar[i] = r
			return
		}
	}
	o.similar = append(o.similar, r)
}

// ForgetEvents drops what the legacy recorder of component on host
// remembers (its EventCorrelator's caches, the memory of the process that
// records): the process has stopped. Its events stay stored and listed;
// its next occurrence of each is a new Event, not a count on the old one,
// as a restarted kubelet's is.
func (s *Store) ForgetEvents(component, host string) {
	by := func(e *api.Event) bool { return e.Source.Component == component && e.Source.Host == host }
	var keys []string
	var forgot []*objectEvents
	for k, o := range s.about.All() {
		if !slices.ContainsFunc(o.folds, func(f fold) bool { return !f.forgotten && by(f.ev) }) &&
			!slices.ContainsFunc(o.similar, func(r similarEvents) bool { return by(r.ev) }) {
			continue
		}
		n := &objectEvents{folds: slices.Clone(o.folds)}
		for i := range n.folds {
			n.folds[i].forgotten = n.folds[i].forgotten || by(n.folds[i].ev)
		}
		for _, r := range o.similar {
			if !by(r.ev) {
				n.similar = append(n.similar, r)
			}
		}
		keys, forgot = append(keys, k), append(forgot, n)
	}
	for i, k := range keys {
		s.about.Set(k, forgot[i])
	}
}

// Event correlation, as the legacy recorder does it: after
// aggregateMaxEvents distinct messages for similar events within
// aggregateInterval, they fold into one "(combined from similar events)".
const (
	aggregateMaxEvents = 10
	aggregateInterval  = 600 * api.Second
)

// Record stores an event about obj, or bumps the count and lastTimestamp of
// the identical one already stored, as the legacy event recorder does.
// Events are not watched by any controller.
func (s *Store) Record(component, host string, obj api.Object, typ, reason, message string) {
	s.RecordAbout(component, host, api.ReferenceTo(obj), typ, reason, message)
}

// RecordAbout is Record for an event whose involved object is ref as its
// recorder names it: a kubelet names its node by a reference of its own,
// whose UID is the node's name and which has no apiVersion, and a
// container by its pod's with a fieldPath. An occurrence folded into a
// stored event changes its count, lastTimestamp and message only (the
// recorder's patch): its involvedObject stays the first's, resourceVersion
// and all.
func (s *Store) RecordAbout(component, host string, ref api.ObjectReference, typ, reason, message string) {
	a := ref.Kind + "/" + ref.Namespace + "/" + ref.Name
	old, _ := s.about.Get(a)
	o := old.with()
	defer func() {
		if old == nil || len(o.folds) != len(old.folds) || !slices.Equal(o.similar, old.similar) {
			s.about.Set(a, o) // an event bumped changes nothing here
		}
	}()
	similar := eventKey{component, host, ref.UID, typ, reason}
	combined := false
	now := s.now
	// rec, when it has no event yet, gets the one recorded (or bumped).
	var rec similarEvents
	recorded := func(e *api.Event) {
		if rec.n > 0 && rec.ev == nil {
			rec.ev = e
			o.setSimilar(rec)
		}
		s.recorded(e)
	}
	// Aggregation: similar events with many different messages combine.
	if _, seen := old.fold(similar, ref.FieldPath, message, false); !seen {
		var ok bool
		rec, ok = old.similarTo(similar)
		if !ok || now-rec.first > aggregateInterval {
			rec = similarEvents{ev: rec.ev, first: now}
		}
		rec.n++
		if rec.ev != nil {
			o.setSimilar(rec)
		}
		if rec.n >= aggregateMaxEvents {
			message = "(combined from similar events): " + message
			combined = true
			if seq, ok := old.fold(similar, "", "", true); ok {
				if old, ok := s.events.Get(seqKey(seq)); ok {
					e := old.DeepCopy()
					e.Count++
					e.LastTimestamp = now
					e.Message = message
					s.putRecorded(seq, e)
					recorded(e)
					return
				}
			}
		}
	}
	if seq, ok := old.fold(similar, ref.FieldPath, message, combined); ok {
		if old, ok := s.events.Get(seqKey(seq)); ok {
			e := old.DeepCopy()
			e.Count++
			e.LastTimestamp = now
			s.putRecorded(seq, e)
			recorded(e)
			return
		}
	}
	e := s.newEvent(ref, now)
	e.Count = 1
	e.Source = api.EventSource{Component: component, Host: host}
	e.FirstTimestamp, e.LastTimestamp = now, now
	e.ReportingController, e.ReportingInstance = component, host
	e.Reason, e.Message, e.Type = reason, message, typ
	recorded(e)
	o.folds = append(o.folds, fold{ev: e, seq: s.lastSeq, combined: combined})
}

// newEvent stores a new event about ref, first recorded at now, with its
// name, namespace, UID and resourceVersion, for the caller to fill in
// before it is read (it is the stored one); its number is s.lastSeq.
func (s *Store) newEvent(ref api.ObjectReference, now api.Time) *api.Event {
	ns := ref.Namespace
	if ns == "" {
		ns = "default"
	}
	v := now.Wall().UnixNano() + s.rv
	s.uid++
	seq := uint64(v)
	if v < 0 || seq <= s.lastSeq {
		// The clock went back (no run does that): the event keeps its
		// place in the order, and its name is found the long way.
		seq, s.renamed = s.lastSeq+1, true
	}
	s.lastSeq = seq
	s.rv++
	str := newEventStrings(ref.Name, v, s.uid, s.rv, seq)
	e := &api.Event{
		TypeMeta:       api.TypeMeta{APIVersion: "v1", Kind: "Event"},
		ObjectMeta:     api.ObjectMeta{Name: str.name, Namespace: ns, CreationTimestamp: now, UID: str.uid, ResourceVersion: str.rv},
		InvolvedObject: ref,
	}
	s.events.Set(str.key, e)
	return e
}

// uidOf is the UID the store gives its n-th object:
// fmt.Sprintf("%08x-0000-4000-8000-%012x", n, n) without fmt.
func uidOf(n int64) string {
	var b [64]byte
	return string(appendUID(b[:0], n))
}

// EventsFor returns the events about one object, oldest first, without
// looking at any other event.
func (s *Store) EventsFor(kind, namespace, name string) []*api.Event {
	o, _ := s.about.Get(kind + "/" + namespace + "/" + name)
	var folds []fold
	if o != nil {
		folds = o.folds
	}
	out := make([]*api.Event, 0, len(folds))
	for _, f := range folds {
		if e, ok := s.events.Get(seqKey(f.seq)); ok {
			out = append(out, e)
		}
	}
	return out
}

// Events returns the recorded events in the order they were first recorded.
func (s *Store) Events() []*api.Event {
	return s.events.Values()
}

// recorded logs an event write for the owner (the trace hashes events as
// they happen instead of listing them all).
func (s *Store) recorded(e *api.Event) { s.changes = append(s.changes, Change{Recorded: e}) }

// getKey returns the stored object of kind at key (namespace/name), or nil.
func (s *Store) getKey(kind, k string) api.Object {
	m := s.kinds[kind]
	if m == nil {
		return nil
	}
	o, _ := m.Get(k)
	return o
}
