package store

import (
	"encoding/binary"
	"slices"
	"strconv"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/pmap"
)

// The events the store records (Record) are kept apart from the objects
// written through the API, in Store.events, keyed by the number their
// name ends with: the clock's nanoseconds plus the resourceVersion when
// the event was first recorded, which grows with every event. So a new
// event goes at the end of the map: after a checkpoint (a clone of the
// store), the events recorded copy one path of it, not one path each,
// and its order is the order they were first recorded. An event's name
// gives its key back (recordedKey). The kinds map holds only the events
// created through Create.

// seqKey is the map key of the event numbered seq: 8 bytes, big-endian, so
// keys sort as numbers.
func seqKey(seq uint64) string {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], seq)
	return string(b[:])
}

// putRecorded stores a version of the recorded event numbered seq.
func (s *Store) putRecorded(seq uint64, e *api.Event) {
	s.rv++
	e.ResourceVersion = strconv.FormatInt(s.rv, 10)
	s.events.Set(seqKey(seq), e)
}

// recordedKey returns the map key of the recorded event named name in
// namespace, if there is one.
func (s *Store) recordedKey(namespace, name string) (string, bool) {
	if s.events.Len() == 0 {
		return "", false
	}
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		if v, err := strconv.ParseUint(name[i+1:], 16, 64); err == nil {
			k := seqKey(v)
			if e, ok := s.events.Get(k); ok && e.Name == name && e.Namespace == namespace {
				return k, true
			}
		}
	}
	if s.renamed {
		for k, e := range s.events.All() {
			if e.Name == name && e.Namespace == namespace {
				return k, true
			}
		}
	}
	return "", false
}

// recordedNamed returns the recorded event named name in namespace, or nil.
func (s *Store) recordedNamed(namespace, name string) api.Object {
	if k, ok := s.recordedKey(namespace, name); ok {
		e, _ := s.events.Get(k)
		return e
	}
	return nil
}

// allEvents returns the stored events, those recorded and those created,
// sorted by namespace and name as the other kinds are.
func (s *Store) allEvents() []api.Object {
	type keyed struct {
		k string
		o api.Object
	}
	all := make([]keyed, 0, s.events.Len()+s.created("Event"))
	for _, e := range s.events.All() {
		all = append(all, keyed{key(e.Namespace, e.Name), e})
	}
	if m := s.kinds["Event"]; m != nil {
		for k, o := range m.All() {
			all = append(all, keyed{k, o})
		}
	}
	slices.SortFunc(all, func(a, b keyed) int { return strings.Compare(a.k, b.k) })
	out := make([]api.Object, len(all))
	for i, a := range all {
		out[i] = a.o
	}
	return out
}

// eventMap returns every stored event in a map of its own, keyed by
// namespace/name like the other kinds' (built: what Hash and Snapshot of
// events cost).
func (s *Store) eventMap() *pmap.Map[api.Object] {
	if s.events.Len() == 0 {
		if m := s.kinds["Event"]; m != nil {
			return m
		}
		return &pmap.Map[api.Object]{}
	}
	var m pmap.Map[api.Object]
	for _, o := range s.allEvents() {
		m.Set(key(o.Meta().Namespace, o.Meta().Name), o)
	}
	return &m
}

// created returns how many objects of kind are in the kinds map.
func (s *Store) created(kind string) int {
	if m := s.kinds[kind]; m != nil {
		return m.Len()
	}
	return 0
}
