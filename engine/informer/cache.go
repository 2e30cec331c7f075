package informer

import (
	"iter"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/pmap"
	"reconcile/engine/store"
)

// Cache is a controller's informer cache: the objects of the kinds it
// watches, as last delivered to it. It can be stale, and a lost watch
// event leaves it wrong until the next relist.
//
// Its maps share their structure with its clones (checkpoints): a clone
// costs one small slice (of the kinds it holds), and each copy then pays
// for what it changes.
type Cache struct {
	objs []kindObjs // the kinds held, in the order they came
	// idx holds the indexes, once one is built (nil before).
	idx *indexes
	// prev is what the last Apply replaced (nil if nothing).
	prev api.Object

	// base, when set, makes this cache a view of base that sees only the
	// kinds in kinds (a controller's handle on a shared informer): reads go
	// to base, and kinds outside kinds read as empty.
	base  *Cache
	kinds []string
}

// indexes are a cache's indexes, each built on its first use (Owned,
// PodsOnNode) and kept from then on: a cache never asked (a kubelet's for
// owners, the scheduler's) pays for neither.
type indexes struct {
	// owned indexes dependents by their controller's UID:
	// "uid\x00kind\x00key".
	owned pmap.Map[bool]
	// onNode indexes pods by spec.nodeName: "node\x00key".
	onNode pmap.Map[bool]
	// hasOwned, hasOnNode: the index is built.
	hasOwned, hasOnNode bool
}

// clone returns indexes sharing x's until either writes; nil for nil.
func (x *indexes) clone() *indexes {
	if x == nil {
		return nil
	}
	return &indexes{owned: share(&x.owned), onNode: share(&x.onNode), hasOwned: x.hasOwned, hasOnNode: x.hasOnNode}
}

// built returns the indexes, made if none was.
func (c *Cache) built() *indexes {
	if c.idx == nil {
		c.idx = &indexes{}
	}
	return c.idx
}

// kindObjs are the objects of one kind, by namespace/name.
type kindObjs struct {
	kind string
	m    pmap.Map[api.Object]
}

// NewCache returns an empty cache.
func NewCache() *Cache {
	return &Cache{}
}

// of returns the objects of kind, or nil when none came. The pointer is
// good until the next kind is added.
func (c *Cache) of(kind string) *pmap.Map[api.Object] {
	for i := range c.objs {
		if c.objs[i].kind == kind {
			return &c.objs[i].m
		}
	}
	return nil
}

// share returns a clone of m; an empty one shares nothing and costs
// nothing.
func share[V any](m *pmap.Map[V]) pmap.Map[V] {
	if m.Len() == 0 {
		return pmap.Map[V]{}
	}
	return m.Clone()
}

// Clone returns a cache sharing the immutable objects and, until either
// writes, the structure of c.
func (c *Cache) Clone() *Cache { return c.CloneIn(nil) }

// CloneIn is Clone, in room when the cache's kinds fit it (nil: room of
// its own), so that a process's copy can carry its cache's.
func (c *Cache) CloneIn(room *CacheRoom) *Cache {
	var out *Cache
	if len(c.objs) <= len(CacheRoom{}.kinds) {
		// A kubelet's cache holds its node, its pods and the ConfigMaps
		// (every namespace's kube-root-ca.crt): the cache and its kinds in
		// one allocation (a clone after every checkpoint).
		b := room
		if b == nil {
			b = &CacheRoom{}
		}
		out, b.c.objs = &b.c, b.kinds[:len(c.objs)]
	} else {
		out = &Cache{objs: make([]kindObjs, len(c.objs))}
	}
	for i := range c.objs {
		out.objs[i] = kindObjs{kind: c.objs[i].kind, m: share(&c.objs[i].m)}
	}
	out.idx = c.idx.clone()
	return out
}

// CacheRoom is a cache and room for the kinds of a small one (CloneIn).
type CacheRoom struct {
	c     Cache
	kinds [3]kindObjs
}

// Apply folds a watch event into the cache.
func (c *Cache) Apply(ev store.WatchEvent) {
	if c.base != nil {
		c.base.Apply(ev)
		return
	}
	o := ev.Object
	kind := o.GetTypeMeta().Kind
	k := api.RefOf(o).Key()
	if ev.Type == store.Deleted {
		c.prev = c.Get(kind, k)
		if c.prev != nil && c.idx != nil {
			c.unindex(kind, k, c.prev)
		}
		if m := c.of(kind); m != nil {
			m.Delete(k)
		}
		return
	}
	m := c.of(kind)
	if m == nil {
		c.objs = append(c.objs, kindObjs{kind: kind})
		m = &c.objs[len(c.objs)-1].m
	}
	c.prev, _ = m.Swap(k, o) // the previous version and the write, in one walk
	if c.idx != nil && (c.prev == nil || indexedBy(c.prev) != indexedBy(o)) {
		if c.prev != nil {
			c.unindex(kind, k, c.prev)
		}
		c.index(kind, k, o)
	}
}

// indexedBy is what the cache indexes an object by: its controller's UID
// and, for a pod, its node. Most updates (status) change neither.
func indexedBy(o api.Object) [2]string {
	var out [2]string
	if ref := o.Meta().ControllerOf(); ref != nil {
		out[0] = ref.UID
	}
	if p, ok := o.(*api.Pod); ok {
		out[1] = p.Spec.NodeName
	}
	return out
}

func (c *Cache) index(kind, k string, o api.Object) {
	x := c.idx
	if ref := o.Meta().ControllerOf(); ref != nil && x.hasOwned {
		x.owned.Set(ref.UID+"\x00"+kind+"\x00"+k, true)
	}
	if p, ok := o.(*api.Pod); ok && p.Spec.NodeName != "" && x.hasOnNode {
		x.onNode.Set(p.Spec.NodeName+"\x00"+k, true)
	}
}

func (c *Cache) unindex(kind, k string, o api.Object) {
	x := c.idx
	if ref := o.Meta().ControllerOf(); ref != nil && x.hasOwned {
		x.owned.Delete(ref.UID + "\x00" + kind + "\x00" + k)
	}
	if p, ok := o.(*api.Pod); ok && p.Spec.NodeName != "" && x.hasOnNode {
		x.onNode.Delete(p.Spec.NodeName + "\x00" + k)
	}
}

// buildOwned builds the owner index from what the cache holds.
func (c *Cache) buildOwned() {
	x := c.built()
	x.hasOwned = true
	for i := range c.objs {
		kind := c.objs[i].kind
		for k, o := range c.objs[i].m.All() {
			if ref := o.Meta().ControllerOf(); ref != nil {
				x.owned.Set(ref.UID+"\x00"+kind+"\x00"+k, true)
			}
		}
	}
}

// buildOnNode builds the node index from the pods the cache holds.
func (c *Cache) buildOnNode() {
	x := c.built()
	x.hasOnNode = true
	if m := c.of("Pod"); m != nil {
		for k, o := range m.All() {
			if p, ok := o.(*api.Pod); ok && p.Spec.NodeName != "" {
				x.onNode.Set(p.Spec.NodeName+"\x00"+k, true)
			}
		}
	}
}

// Replaced returns the object the last Apply replaced or removed: the
// cache's own previous version, which after a lost event is not the
// event's Old.
func (c *Cache) Replaced() api.Object {
	if c.base != nil {
		return c.base.prev
	}
	return c.prev
}

// Get returns the cached object of kind at key (namespace/name), or nil.
func (c *Cache) Get(kind, key string) api.Object {
	if c.base != nil {
		if !c.sees(kind) {
			return nil
		}
		return c.base.Get(kind, key)
	}
	m := c.of(kind)
	if m == nil {
		return nil
	}
	o, _ := m.Get(key)
	return o
}

// Len returns how many objects of kind are cached.
func (c *Cache) Len(kind string) int {
	if c.base != nil {
		if !c.sees(kind) {
			return 0
		}
		return c.base.Len(kind)
	}
	if m := c.of(kind); m != nil {
		return m.Len()
	}
	return 0
}

// List returns the cached objects of kind sorted by key.
func (c *Cache) List(kind string) []api.Object {
	if c.base != nil {
		if !c.sees(kind) {
			return []api.Object{}
		}
		return c.base.List(kind)
	}
	m := c.of(kind)
	if m == nil {
		return []api.Object{}
	}
	return m.Values()
}

// withPrefix yields the rest of each key of m that starts with prefix, in
// order.
func withPrefix(m *pmap.Map[bool], prefix string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for k := range m.From(prefix) {
			rest, ok := strings.CutPrefix(k, prefix)
			if !ok || !yield(rest) {
				return
			}
		}
	}
}

// Owned returns the cached objects of kind controlled by the owner with
// uid, sorted by key.
func (c *Cache) Owned(kind, uid string) []api.Object {
	if c.base != nil {
		if !c.sees(kind) {
			return []api.Object{}
		}
		return c.base.Owned(kind, uid)
	}
	if c.idx == nil || !c.idx.hasOwned {
		c.buildOwned()
	}
	out := []api.Object{}
	for k := range withPrefix(&c.idx.owned, uid+"\x00"+kind+"\x00") {
		if o := c.Get(kind, k); o != nil {
			out = append(out, o)
		}
	}
	return out
}

// PodsOnNode returns the cached pods bound to node, sorted by key.
func (c *Cache) PodsOnNode(node string) []*api.Pod {
	if c.base != nil {
		if !c.sees("Pod") {
			return []*api.Pod{}
		}
		return c.base.PodsOnNode(node)
	}
	if c.idx == nil || !c.idx.hasOnNode {
		c.buildOnNode()
	}
	out := []*api.Pod{}
	for k := range withPrefix(&c.idx.onNode, node+"\x00") {
		if p, ok := c.Get("Pod", k).(*api.Pod); ok {
			out = append(out, p)
		}
	}
	return out
}

// Keys returns the sorted keys of the cached objects of kind.
func (c *Cache) Keys(kind string) []string {
	if c.base != nil {
		if !c.sees(kind) {
			return nil
		}
		return c.base.Keys(kind)
	}
	m := c.of(kind)
	if m == nil {
		return nil
	}
	return m.Keys()
}

// View returns a cache that reads c but sees only the given kinds: what one
// controller reads of an informer it shares with others, each of which
// registered the kinds it watches. Apply on the view applies to c.
func (c *Cache) View(kinds []string) *Cache {
	if c.base != nil {
		c = c.base
	}
	return &Cache{base: c, kinds: kinds}
}

func (c *Cache) sees(kind string) bool {
	for _, k := range c.kinds {
		if k == kind {
			return true
		}
	}
	return false
}

// CloneKinds returns a cache of its own holding what c holds of the given
// kinds (sharing structure with c until either writes): a controller that
// leaves a shared informer for a watch of its own starts from it.
func (c *Cache) CloneKinds(kinds []string) *Cache {
	if c.base != nil {
		c = c.base
	}
	out := &Cache{objs: make([]kindObjs, 0, len(kinds))}
	for _, k := range kinds {
		if m := c.of(k); m != nil {
			out.objs = append(out.objs, kindObjs{kind: k, m: share(m)})
		}
	}
	// The indexes are keyed by kind (owned) or hold pods only (onNode): an
	// entry of a kind out of kinds finds no object and reads as absent.
	out.idx = c.idx.clone()
	return out
}
