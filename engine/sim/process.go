package sim

import (
	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/informer"
	"reconcile/engine/queue"
	"reconcile/engine/store"
)

// process is one running controller, as the controller-manager (or a
// node, for a kubelet) runs it: the controller, its informer cache, its
// work queue, and the faults aimed at it.
//
// A checkpoint shares every process, and the first change to one after it
// copies it: what never changes (procInfo) is behind a pointer the copies
// share, so a copy is the small rest.
type process struct {
	*procInfo
	rec  controller.Reconciler   // level-triggered
	edge controller.EventHandler // edge-triggered

	cache *informer.Cache
	// inf is 1 + the index of the shared informer the process reads in
	// place of cache (informers.go), 0 when cache is its own.
	inf     int
	queue   queue.Queue
	pending bool // a pass item is on the agenda
	running bool
	stopped bool // stopped on purpose (not crashed)
	// epoch counts the process's starts: an item scheduled for an older
	// epoch is for a process that has since crashed or stopped.
	epoch int

	drop, dup int
	delay     api.Duration
	crashNext bool
}

// procInfo is what a process is all its life, set when it is made and
// shared by its copies.
type procInfo struct {
	name string
	host string // the node, for a kubelet
	mode controller.Mode
	spec controller.Spec
	// kinds memoizes watches(); it is asked before the process is first
	// copied (sim.go), so copies never write it.
	kinds []string
}

func (p *process) clone() *process {
	if k, ok := p.rec.(*controller.KubeletLoop); ok && p.edge == nil {
		// A kubelet's process, its kubelet and its cache in one
		// allocation: one object for the collector where there were
		// three, at each of a thousand nodes' first change after every
		// checkpoint.
		b := new(kubeletCopy)
		b.p = *p
		k.CloneInto(&b.k)
		b.p.rec = &b.k
		if p.cache != nil {
			b.p.cache = p.cache.CloneIn(&b.c)
		}
		b.p.queue = p.queue.Clone()
		return &b.p
	}
	out := *p
	if p.rec != nil {
		out.rec = p.rec.Clone()
	}
	if p.edge != nil {
		out.edge = p.edge.Clone()
	}
	if p.cache != nil {
		out.cache = p.cache.Clone()
	}
	out.queue = p.queue.Clone()
	return &out
}

// kubeletCopy is a copy of a kubelet's process and what it holds.
type kubeletCopy struct {
	p process
	k controller.KubeletLoop
	c informer.CacheRoom
}

// impl is the controller the process runs, level- or edge-triggered.
func (p *process) impl() any {
	if p.rec != nil {
		return p.rec
	}
	return p.edge
}

func (p *process) watches() []string {
	if p.kinds == nil {
		// Asked once: a controller watches the same kinds all its life.
		if p.rec != nil {
			p.kinds = p.rec.Watches()
		} else {
			p.kinds = p.edge.Watches()
		}
	}
	return p.kinds
}

// proc returns process i, ready to be changed.
func (w *world) proc(i int) *process {
	if i < len(w.shared) && w.shared[i] {
		w.procs[i] = w.procs[i].clone()
		w.shared[i] = false
	}
	return w.procs[i]
}

// enqueue adds key to a level-triggered process's queue (coalescing
// duplicates), or an event to an edge-triggered one's, and makes sure a
// pass is on the agenda.
func (w *world) enqueue(i int, key string, trigger queue.Trigger, ev *store.WatchEvent) {
	c := w.proc(i)
	if ev == nil {
		if !c.queue.Add(key, trigger) {
			return
		}
	} else {
		c.queue.AddEvent(*ev, trigger)
	}
	if !c.pending {
		c.pending = true
		w.schedule(item{at: w.now, kind: itemPass, ctrl: i, epoch: c.epoch})
	}
}

// crash kills a process: its queue and cache are gone, and what runs it
// (its Spec's Runs) restarts it after RestartDelay.
func (w *world) crash(i int) {
	c := w.proc(i)
	w.halt(c)
	w.schedule(item{at: w.now + RestartDelay, kind: itemRestart, ctrl: i, epoch: c.epoch})
}

// halt stops a process: what it held in memory is gone.
func (w *world) halt(c *process) {
	c.running = false
	c.epoch++
	c.queue = queue.Queue{}
	c.pending = false
	c.cache, c.inf = informer.NewCache(), 0
	w.store.ForgetEventSeries(c.name) // its event recorder's cache (the scheduler's)
	if c.host != "" {
		// A kubelet's legacy recorder: a new process records anew.
		w.store.ForgetEvents(c.name, c.host)
	}
	if r, ok := c.impl().(controller.Restarter); ok {
		r.Restarted()
	}
}

// start (re)starts a process: a fresh informer lists everything it
// watches; a level-triggered controller queues every key it sees, an
// edge-triggered one takes the list as already handled.
func (w *world) start(i int, why queue.Cause) {
	c := w.proc(i)
	c.running, c.stopped = true, false
	c.epoch++
	c.cache = informer.NewCache()
	c.queue, c.pending = queue.Queue{}, false
	for _, kind := range c.watches() {
		for o := range w.startList(c, kind) {
			if !visible(c, o) {
				continue
			}
			ev := store.WatchEvent{Type: store.Added, Object: o}
			c.cache.Apply(ev)
			if c.rec != nil {
				for _, k := range c.rec.Keys(c.cache, ev) {
					w.enqueue(i, k, queue.Trigger{Cause: why}, nil)
				}
			}
		}
	}
	if c.inf > 0 {
		w.joinInformer(c)
	}
	if t, ok := c.impl().(controller.Ticker); ok && t.Period() > 0 {
		w.schedule(item{at: w.now + t.Period(), kind: itemTick, ctrl: i, epoch: c.epoch})
	}
	if c.host == "" {
		w.schedule(item{at: w.now + RelistPeriod, kind: itemRelist, ctrl: i, epoch: c.epoch})
	}
}

// visible reports whether a kubelet's informer sees o (its node and the
// pods bound to it); other controllers see everything they watch.
func visible(c *process, o api.Object) bool {
	if c.host == "" {
		return true
	}
	switch t := o.(type) {
	case *api.Pod:
		return t.Spec.NodeName == c.host
	case *api.Node:
		return t.Name == c.host
	case *api.Unstructured:
		// A kubelet reads the ConfigMaps and Secrets its pods name.
		return t.Kind == "ConfigMap" || t.Kind == "Secret"
	}
	return false
}

// relist repairs a cache from the store, the way a restarted watch does:
// what differs is delivered as an event; what is equal is not.
func (w *world) relist(i int) {
	if w.procs[i].inf > 0 {
		w.relistShared(i)
		return
	}
	c := w.proc(i)
	for _, kind := range c.watches() {
		seen := map[string]bool{}
		for _, o := range w.store.List(kind) {
			k := api.RefOf(o).Key()
			seen[k] = true
			old := c.cache.Get(kind, k)
			if old != nil && old.Meta().ResourceVersion == o.Meta().ResourceVersion {
				continue
			}
			typ := store.Modified
			if old == nil {
				typ = store.Added
			}
			w.relistEvent(i, store.WatchEvent{Type: typ, Object: o, Old: old})
		}
		for _, k := range c.cache.Keys(kind) {
			if !seen[k] {
				old := c.cache.Get(kind, k)
				w.relistEvent(i, store.WatchEvent{Type: store.Deleted, Object: old, Old: old})
			}
		}
	}
}

func (w *world) relistEvent(i int, ev store.WatchEvent) {
	c := w.proc(i)
	c.cache.Apply(ev)
	if c.rec != nil {
		for _, k := range c.rec.Keys(c.cache, ev) {
			w.enqueue(i, k, queue.Trigger{Cause: queue.Relist, Object: api.RefOf(ev.Object)}, nil)
		}
	}
}

// sync makes a running controller look at everything now: its periodic
// work runs at once (a GitOps sync, a node check) and every key it knows is
// queued (a resync).
func (w *world) sync(i int) {
	c := w.proc(i)
	if !c.running || c.rec == nil {
		return
	}
	var keys []string
	if t, ok := c.rec.(controller.Ticker); ok {
		keys, _ = t.Tick(c.cache, w, w.now)
	}
	for _, kind := range c.watches() {
		for _, k := range c.cache.Keys(kind) {
			ev := store.WatchEvent{Type: store.Modified, Object: c.cache.Get(kind, k), Old: c.cache.Get(kind, k)}
			c.cache.Apply(ev) // the same object again: Keys sees it as just delivered
			keys = append(keys, c.rec.Keys(c.cache, ev)...)
		}
	}
	for _, k := range keys {
		w.enqueue(i, k, queue.Trigger{Cause: queue.Sync}, nil)
	}
}

// procIndex returns the indexes of the processes of controller name (one
// per node for a kubelet).
func (w *world) procIndex(name string) []int {
	var out []int
	for i, c := range w.procs {
		if c.name == name {
			out = append(out, i)
		}
	}
	return out
}
