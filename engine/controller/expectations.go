package controller

import (
	"maps"

	"reconcile/engine/api"
	"reconcile/engine/store"
)

// expectations are the pod creates and deletes a controller's passes made
// that its cache has not shown yet, per owner key: a pass that counts pods
// before they are seen would make them twice. The DaemonSet controller
// keeps them as the ReplicaSet controller does (see ReplicaSet.expect).
type expectations map[string]expectation

func (e expectations) clone() expectations { return maps.Clone(e) }

// expect records what a pass is about to do for key.
func (e expectations) expect(key string, adds, dels int, now api.Time) {
	if adds == 0 && dels == 0 {
		delete(e, key)
		return
	}
	e[key] = expectation{adds: adds, dels: dels, at: now}
}

// lower takes back creates that were refused.
func (e expectations) lower(key string, adds int) {
	if x, ok := e[key]; ok {
		x.adds = max(0, x.adds-adds)
		e[key] = x
	}
}

// observe counts a delivered pod event of key's against what is expected.
func (e expectations) observe(key string, ev store.WatchEvent) {
	x, ok := e[key]
	if !ok {
		return
	}
	p, _ := ev.Object.(*api.Pod)
	switch {
	case ev.Type == store.Added && x.adds > 0:
		x.adds--
	case ev.Type == store.Deleted && x.dels > 0:
		x.dels--
	case ev.Type == store.Modified && p != nil && p.DeletionTimestamp != nil && x.dels > 0:
		if old, ok := ev.Old.(*api.Pod); ok && old.DeletionTimestamp == nil {
			x.dels--
		}
	}
	e[key] = x
}

// pending reports whether key still waits to see its own writes, and what
// it waits for; it gives up after ExpectationsTimeout.
func (e expectations) pending(key string, now api.Time) (adds, dels int, waiting bool) {
	x, ok := e[key]
	if !ok || (x.adds <= 0 && x.dels <= 0) || now-x.at >= ExpectationsTimeout {
		delete(e, key)
		return 0, 0, false
	}
	return x.adds, x.dels, true
}
