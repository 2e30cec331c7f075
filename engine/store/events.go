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
	// an identical occurrence folds into (same source, UID, type, reason
	// and message; for a combined event, the message is not compared).
	folds []fold
	// similar counts, per source, UID, type and reason, the distinct
	// messages seen since first.
	similar []similarEvents
	// owned: folds and similar are arrays of this one's own, with room for
	// one more each (withRoom), to change in place; otherwise they are
	// the clipped slices of the one it copies.
	owned bool
}

// eventKey is what makes events similar: their source, the involved
// object's UID, their type and reason.
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
}

type similarEvents struct {
	// ev is an event with the key: the first recorded since first.
	ev    *api.Event
	first api.Time
	n     int
}

func (o *objectEvents) fold(k eventKey, message string, combined bool) (uint64, bool) {
	if o == nil {
		return 0, false
	}
	for _, f := range o.folds {
		if f.combined == combined && (combined || f.ev.Message == message) && keyOf(f.ev) == k {
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
	m := obj.Meta()
	s.RecordAbout(component, host, api.ObjectReference{Kind: obj.GetTypeMeta().Kind, Namespace: m.Namespace, Name: m.Name, UID: m.UID, APIVersion: obj.GetTypeMeta().APIVersion}, typ, reason, message)
}

// RecordAbout is Record for an event whose involved object is ref as its
// recorder names it: a kubelet names its node by a reference of its own,
// whose UID is the node's name and which has no apiVersion.
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
	if _, seen := old.fold(similar, message, false); !seen {
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
			if seq, ok := old.fold(similar, "", true); ok {
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
	if seq, ok := old.fold(similar, message, combined); ok {
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
