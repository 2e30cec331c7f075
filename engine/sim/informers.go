package sim

import (
	"slices"

	"reconcile/engine/api"
	"reconcile/engine/informer"
	"reconcile/engine/queue"
	"reconcile/engine/store"
)

// Shared informers. In Kubernetes the controllers of one binary share one
// informer factory: kube-controller-manager runs one watch and keeps one
// cache per kind, and each of its controllers registers its own event
// handlers and has its own work queue. The scheduler and every kubelet are
// other binaries, with informers of their own.
//
// So here: the level-triggered controllers of kube-controller-manager read
// one cache (a view of it with the kinds each watches). A watch event is
// folded into it once, when it reaches the first of them, and each
// controller's handler (Keys) then runs in turn, in the order of the
// deliveries of the event's one item of the agenda (fanout.go).
// What a lesson teaches per controller stays per controller:
//
//   - a fault aimed at one controller (a dropped, duplicated or delayed
//     watch event, a crash, a stop, a sync) gives it a watch and a cache
//     of its own from then on, a copy of the shared one: the event it
//     loses is lost for it alone, as if it ran its own informer;
//   - edge-triggered controllers and controllers of other binaries keep
//     their own cache.
//
// Every controller sees the same cache as with one cache each, so runs do
// not change; the world holds one pod cache where it held one per
// controller that watches pods.

// sharedInformer is the informer of one binary, shared by its controllers.
type sharedInformer struct {
	binary string
	cache  *informer.Cache
	// listed are the kinds listed into cache so far.
	listed []string
	// relisted is when it last re-listed (relisting says so).
	relisted  api.Time
	relisting bool
	// views are the controllers' views of cache, by controller name
	// (lookup only; a clone starts without).
	views map[string]*informer.Cache
}

// binaryOf names the binary whose informer a process shares ("" for one
// that keeps its own: a kubelet, the scheduler, a controller deployed in
// the cluster), from its registry entry.
func binaryOf(c *process) string {
	if !c.spec.Runs.SharesInformers() {
		return ""
	}
	return c.spec.Runs.Binary()
}

// ownInformers, set by tests, gives every controller a cache of its own (as
// before informers were shared), to check that sharing changes no run.
var ownInformers bool

// shareInformers has the level-triggered controllers of a binary, started
// with the world, read one informer.
func (w *world) shareInformers(stopped func(name string) bool) {
	if ownInformers {
		return
	}
	for _, c := range w.procs {
		b := binaryOf(c)
		if b == "" || c.host != "" || c.rec == nil || stopped(c.name) {
			continue
		}
		g := slices.IndexFunc(w.informers, func(s *sharedInformer) bool { return s.binary == b })
		if g < 0 {
			w.informers = append(w.informers, &sharedInformer{binary: b, cache: informer.NewCache()})
			g = len(w.informers) - 1
		}
		c.inf = g + 1
	}
}

// cloneInformers gives a clone of the world informers of its own; both
// share the caches' structure until either writes.
func cloneInformers(in []*sharedInformer) []*sharedInformer {
	if in == nil {
		return nil
	}
	out := make([]*sharedInformer, len(in))
	for i, s := range in {
		c := *s
		c.cache = s.cache.Clone()
		c.listed = slices.Clip(s.listed)
		c.views = nil
		out[i] = &c
	}
	return out
}

// cacheOf is what process c reads: its own cache, or its view of the
// informer it shares.
func (w *world) cacheOf(c *process) *informer.Cache {
	if c.inf == 0 {
		return c.cache
	}
	s := w.informers[c.inf-1]
	v := s.views[c.name]
	if v == nil {
		if s.views == nil {
			s.views = map[string]*informer.Cache{}
		}
		v = s.cache.View(c.watches())
		s.views[c.name] = v
	}
	return v
}

// joinInformer lists into c's shared informer the kinds c watches that it
// has not listed yet. c has listed them in a cache of its own (start), so
// that its handlers saw the initial list as it came; that cache goes.
func (w *world) joinInformer(c *process) {
	s := w.informers[c.inf-1]
	for _, kind := range c.watches() {
		if slices.Contains(s.listed, kind) {
			continue
		}
		s.listed = append(s.listed, kind)
		for _, o := range w.store.List(kind) {
			s.cache.Apply(store.WatchEvent{Type: store.Added, Object: o})
		}
	}
	c.cache = nil
}

// detach gives process i a watch and a cache of its own, a copy of the
// shared informer's: a fault is about to be aimed at it.
func (w *world) detach(i int) {
	c := w.procs[i]
	if c.inf == 0 {
		return
	}
	c = w.proc(i)
	c.cache = w.informers[c.inf-1].cache.CloneKinds(c.watches())
	c.inf = 0
}

// relistShared re-lists a shared informer, once for all the controllers
// that share it (their re-lists fall due together: they started together).
// Each controller's handlers see the re-list as they would on a cache of
// their own: the events, in the order of the kinds it watches, each folded
// into a copy of the cache as it was before the re-list.
func (w *world) relistShared(i int) {
	s := w.informers[w.procs[i].inf-1]
	if s.relisting && s.relisted == w.now {
		return
	}
	s.relisting, s.relisted = true, w.now
	for j, c := range w.procs {
		if c.inf != w.procs[i].inf {
			continue
		}
		c = w.proc(j)
		view := s.cache.CloneKinds(c.watches())
		for _, ev := range relistEvents(w.store, view, c.watches()) {
			view.Apply(ev)
			for _, k := range c.rec.Keys(view, ev) {
				w.enqueue(j, k, queue.Trigger{Cause: queue.Relist, Object: api.RefOf(ev.Object)}, nil)
			}
		}
	}
	// The shared cache is repaired once, for every kind.
	for _, ev := range relistEvents(w.store, s.cache, s.listed) {
		s.cache.Apply(ev)
	}
}

// relistEvents are what a re-list of kinds delivers to a cache: what
// differs from the store, in the store's order, then what the store no
// longer has.
func relistEvents(st *store.Store, cache *informer.Cache, kinds []string) []store.WatchEvent {
	var out []store.WatchEvent
	for _, kind := range kinds {
		seen := map[string]bool{}
		for _, o := range st.List(kind) {
			k := api.RefOf(o).Key()
			seen[k] = true
			old := cache.Get(kind, k)
			if old != nil && old.Meta().ResourceVersion == o.Meta().ResourceVersion {
				continue
			}
			typ := store.Modified
			if old == nil {
				typ = store.Added
			}
			out = append(out, store.WatchEvent{Type: typ, Object: o, Old: old})
		}
		for _, k := range cache.Keys(kind) {
			if !seen[k] {
				old := cache.Get(kind, k)
				out = append(out, store.WatchEvent{Type: store.Deleted, Object: old, Old: old})
			}
		}
	}
	return out
}
