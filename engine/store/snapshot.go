package store

import (
	"reconcile/engine/api"
	"reconcile/engine/pmap"
)

// Snapshot returns the stored objects of kind as they are now: a map of
// its own, sharing its structure with the store's, in O(1). The store
// copies the nodes it writes next (see pmap), so the snapshot does not
// change; a reader that keeps it learns what was written since with
// pmap.Map.Diff against a later snapshot, at the cost of those writes,
// however many objects are stored.
func (s *Store) Snapshot(kind string) pmap.Map[api.Object] {
	m := s.kinds[kind]
	if kind == "Event" {
		m = s.eventMap()
	}
	if m == nil {
		return pmap.Map[api.Object]{}
	}
	return m.Clone()
}
