package store

import (
	"iter"

	"reconcile/engine/api"
)

// Each yields what List(kind) returns, in the same order, without making
// the list: a thousand kubelets starting each read the thousand nodes to
// find their own. The store must not be written while it yields.
func (s *Store) Each(kind string) iter.Seq[api.Object] {
	return func(yield func(api.Object) bool) {
		if kind == "Event" && s.events.Len() > 0 {
			for _, o := range s.allEvents() {
				if !yield(o) {
					return
				}
			}
			return
		}
		if m := s.kinds[kind]; m != nil {
			for _, o := range m.All() {
				if !yield(o) {
					return
				}
			}
		}
	}
}
