package store

import (
	"fmt"
	"slices"

	"reconcile/engine/api"
)

// objectEvents is what the recorder remembers about the events of one
// involved object. It is never changed in place (the store's clones share
// it): a change makes a new one.
type objectEvents struct {
	// names are its events' names, in the order first recorded.
	names []string
	// folds finds the stored event an identical occurrence folds into:
	// same source, UID, type, reason and message.
	folds []fold
	// similar counts, per source, UID, type and reason, the distinct
	// messages seen since first.
	similar []similarEvents
}

type fold struct{ key, name string }

type similarEvents struct {
	key   string
	first api.Time
	n     int
}

func (o *objectEvents) fold(k string) (string, bool) {
	if o == nil {
		return "", false
	}
	for _, f := range o.folds {
		if f.key == k {
			return f.name, true
		}
	}
	return "", false
}

func (o *objectEvents) similarTo(k string) (similarEvents, bool) {
	if o == nil {
		return similarEvents{}, false
	}
	for _, r := range o.similar {
		if r.key == k {
			return r, true
		}
	}
	return similarEvents{}, false
}

// with returns a copy of o (nil: empty) to change.
func (o *objectEvents) with() *objectEvents {
	if o == nil {
		return &objectEvents{}
	}
	return &objectEvents{names: slices.Clip(o.names), folds: slices.Clip(o.folds), similar: slices.Clip(o.similar)}
}

func (o *objectEvents) setSimilar(r similarEvents) {
	for i := range o.similar {
		if o.similar[i].key == r.key {
			o.similar = slices.Clone(o.similar)
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
	kind := obj.GetTypeMeta().Kind
	ns := m.Namespace
	if ns == "" {
		ns = "default"
	}
	a := kind + "/" + m.Namespace + "/" + m.Name
	old, _ := s.about.Get(a)
	o := old.with()
	defer func() { s.about.Set(a, o) }()
	similar := component + "\x00" + host + "\x00" + m.UID + "\x00" + typ + "\x00" + reason
	k := similar + "\x00" + message
	now := s.now
	// Aggregation: similar events with many different messages combine.
	if _, seen := old.fold(k); !seen {
		rec, ok := old.similarTo(similar)
		if !ok || now-rec.first > aggregateInterval {
			rec = similarEvents{key: similar, first: now}
		}
		rec.n++
		o.setSimilar(rec)
		if rec.n >= aggregateMaxEvents {
			message = "(combined from similar events): " + message
			k = similar + "\x01combined"
			if name, ok := old.fold(k); ok {
				if old, ok := s.Get("Event", ns, name).(*api.Event); ok {
					e := old.DeepCopy()
					e.Count++
					e.LastTimestamp = now
					e.Message = message
					s.put("Event", e)
					s.recorded(e)
					return
				}
			}
		}
	}
	if name, ok := old.fold(k); ok {
		if old, ok := s.Get("Event", ns, name).(*api.Event); ok {
			e := old.DeepCopy()
			e.Count++
			e.LastTimestamp = now
			s.put("Event", e)
			s.recorded(e)
			return
		}
	}
	e := &api.Event{
		TypeMeta:       api.TypeMeta{APIVersion: "v1", Kind: "Event"},
		ObjectMeta:     api.ObjectMeta{Name: fmt.Sprintf("%s.%x", m.Name, now.Wall().UnixNano()+int64(s.rv)), Namespace: ns, CreationTimestamp: now},
		InvolvedObject: api.ObjectReference{Kind: kind, Namespace: m.Namespace, Name: m.Name, UID: m.UID, APIVersion: obj.GetTypeMeta().APIVersion},
		Reason:         reason, Message: message, Type: typ, Count: 1,
		Source:         api.EventSource{Component: component, Host: host},
		FirstTimestamp: now, LastTimestamp: now,
	}
	s.uid++
	e.UID = fmt.Sprintf("%08x-0000-4000-8000-%012x", s.uid, s.uid)
	s.put("Event", e)
	s.recorded(e)
	o.folds = append(o.folds, fold{k, e.Name})
	o.names = append(o.names, e.Name)
	s.order = append(s.order, ns+"/"+e.Name)
}

// EventsFor returns the events about one object, oldest first, without
// looking at any other event.
func (s *Store) EventsFor(kind, namespace, name string) []*api.Event {
	o, _ := s.about.Get(kind + "/" + namespace + "/" + name)
	var names []string
	if o != nil {
		names = o.names
	}
	out := make([]*api.Event, 0, len(names))
	ns := namespace
	if ns == "" {
		ns = "default"
	}
	for _, n := range names {
		if e, ok := s.Get("Event", ns, n).(*api.Event); ok {
			out = append(out, e)
		}
	}
	return out
}

// Events returns the stored events in the order they were first recorded.
func (s *Store) Events() []*api.Event {
	out := make([]*api.Event, 0, len(s.order))
	for _, k := range s.order {
		if e, ok := s.getKey("Event", k).(*api.Event); ok {
			out = append(out, e)
		}
	}
	return out
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
