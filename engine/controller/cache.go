package controller

import (
	"maps"
	"sort"

	"reconcile/engine/api"
	"reconcile/engine/store"
)

// Cache is a controller's informer cache: the objects of the kinds it
// watches, as last delivered to it. It can be stale, and a lost watch
// event leaves it wrong until the next relist.
type Cache struct {
	objs map[string]map[string]api.Object // kind → namespace/name
	// owned indexes dependents by their controller's UID.
	owned map[string]map[string]string // owner UID → key → kind
	// onNode indexes pods by spec.nodeName.
	onNode map[string]map[string]struct{}
	// prev is what the last Apply replaced (nil if nothing).
	prev api.Object
}

// NewCache returns an empty cache.
func NewCache() *Cache {
	return &Cache{objs: map[string]map[string]api.Object{}, owned: map[string]map[string]string{}, onNode: map[string]map[string]struct{}{}}
}

// Clone returns a cache with its own maps sharing the immutable objects.
func (c *Cache) Clone() *Cache {
	out := &Cache{objs: make(map[string]map[string]api.Object, len(c.objs)),
		owned: make(map[string]map[string]string, len(c.owned)), onNode: make(map[string]map[string]struct{}, len(c.onNode))}
	for k, m := range c.objs {
		out.objs[k] = maps.Clone(m)
	}
	for k, m := range c.owned {
		out.owned[k] = maps.Clone(m)
	}
	for k, m := range c.onNode {
		out.onNode[k] = maps.Clone(m)
	}
	return out
}

// Apply folds a watch event into the cache.
func (c *Cache) Apply(ev store.WatchEvent) {
	o := ev.Object
	kind := o.GetTypeMeta().Kind
	k := api.RefOf(o).Key()
	c.prev = c.Get(kind, k)
	if c.prev != nil {
		c.unindex(kind, k, c.prev)
	}
	if ev.Type == store.Deleted {
		delete(c.objs[kind], k)
		return
	}
	m := c.objs[kind]
	if m == nil {
		m = map[string]api.Object{}
		c.objs[kind] = m
	}
	m[k] = o
	c.index(kind, k, o)
}

func (c *Cache) index(kind, k string, o api.Object) {
	if ref := o.Meta().ControllerOf(); ref != nil {
		m := c.owned[ref.UID]
		if m == nil {
			m = map[string]string{}
			c.owned[ref.UID] = m
		}
		m[k] = kind
	}
	if p, ok := o.(*api.Pod); ok && p.Spec.NodeName != "" {
		m := c.onNode[p.Spec.NodeName]
		if m == nil {
			m = map[string]struct{}{}
			c.onNode[p.Spec.NodeName] = m
		}
		m[k] = struct{}{}
	}
}

func (c *Cache) unindex(kind, k string, o api.Object) {
	if ref := o.Meta().ControllerOf(); ref != nil {
		delete(c.owned[ref.UID], k)
		if len(c.owned[ref.UID]) == 0 {
			delete(c.owned, ref.UID)
		}
	}
	if p, ok := o.(*api.Pod); ok && p.Spec.NodeName != "" {
		delete(c.onNode[p.Spec.NodeName], k)
	}
}

// Replaced returns the object the last Apply replaced or removed: the
// cache's own previous version, which after a lost event is not the
// event's Old.
func (c *Cache) Replaced() api.Object { return c.prev }

// Get returns the cached object of kind at key (namespace/name), or nil.
func (c *Cache) Get(kind, key string) api.Object { return c.objs[kind][key] }

// Len returns how many objects of kind are cached.
func (c *Cache) Len(kind string) int { return len(c.objs[kind]) }

// List returns the cached objects of kind sorted by key.
func (c *Cache) List(kind string) []api.Object {
	m := c.objs[kind]
	keys := api.SortedKeys(m)
	out := make([]api.Object, len(keys))
	for i, k := range keys {
		out[i] = m[k]
	}
	return out
}

// Owned returns the cached objects of kind controlled by the owner with
// uid, sorted by key.
func (c *Cache) Owned(kind, uid string) []api.Object {
	var keys []string
	for k, kd := range c.owned[uid] {
		if kd == kind {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	out := make([]api.Object, 0, len(keys))
	for _, k := range keys {
		if o := c.objs[kind][k]; o != nil {
			out = append(out, o)
		}
	}
	return out
}

// OwnedAnyOrder returns the cached objects of kind controlled by the owner
// with uid, in no particular order: for callers that count, or sort by a
// total order of their own.
func (c *Cache) OwnedAnyOrder(kind, uid string) []api.Object {
	out := make([]api.Object, 0, len(c.owned[uid]))
	// Any order: callers count or sort.
	for k, kd := range c.owned[uid] {
		if kd == kind {
			if o := c.objs[kind][k]; o != nil {
				out = append(out, o)
			}
		}
	}
	return out
}

// PodsOnNode returns the cached pods bound to node, sorted by key.
func (c *Cache) PodsOnNode(node string) []*api.Pod {
	keys := api.SortedKeys(c.onNode[node])
	out := make([]*api.Pod, 0, len(keys))
	for _, k := range keys {
		if p, ok := c.objs["Pod"][k].(*api.Pod); ok {
			out = append(out, p)
		}
	}
	return out
}

// Keys returns the sorted keys of the cached objects of kind.
func (c *Cache) Keys(kind string) []string { return api.SortedKeys(c.objs[kind]) }
