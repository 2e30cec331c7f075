package store

import (
	"fmt"

	"reconcile/engine/api"
)

// eventIndex finds the stored event an identical occurrence folds into:
// same source, object, type, reason and message.
type eventIndex map[string]string

// similarEvents counts, per source, object, type and reason, the distinct
// messages seen since first.
type similarEvents struct {
	first api.Time
	n     int
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
	k := component + "\x00" + host + "\x00" + kind + "\x00" + ns + "\x00" + m.Name + "\x00" + m.UID + "\x00" + typ + "\x00" + reason + "\x00" + message
	now := s.now()
	// Aggregation: similar events with many different messages combine.
	similar := "\x01" + component + "\x00" + host + "\x00" + kind + "\x00" + ns + "\x00" + m.Name + "\x00" + m.UID + "\x00" + typ + "\x00" + reason
	if _, seen := s.events[k]; !seen {
		rec, ok := s.similar[similar]
		if !ok || now-rec.first > aggregateInterval {
			rec = similarEvents{first: now}
		}
		rec.n++
		s.similar[similar] = rec
		if rec.n >= aggregateMaxEvents {
			message = "(combined from similar events): " + message
			k = similar + "\x00combined"
			if name, ok := s.events[k]; ok {
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
	if name, ok := s.events[k]; ok {
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
	s.events[k] = e.Name
	a := kind + "/" + m.Namespace + "/" + m.Name
	s.about[a] = append(s.about[a], e.Name)
	s.order = append(s.order, ns+"/"+e.Name)
}

// EventsFor returns the events about one object, oldest first, without
// looking at any other event.
func (s *Store) EventsFor(kind, namespace, name string) []*api.Event {
	names := s.about[kind+"/"+namespace+"/"+name]
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
		if e, ok := s.kinds["Event"][k].(*api.Event); ok {
			out = append(out, e)
		}
	}
	return out
}

func (s *Store) recorded(e *api.Event) {
	if s.onRecord != nil {
		s.onRecord(e)
	}
}

// OnRecord sets a function told of every event recorded or bumped (the
// trace hashes events as they happen instead of listing them all).
func (s *Store) OnRecord(f func(*api.Event)) { s.onRecord = f }
