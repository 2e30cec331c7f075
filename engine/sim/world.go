package sim

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/pmap"
	"reconcile/engine/store"
)

// Timings of the simulated control plane.
const (
	WatchLatency    = 100 * api.Millisecond
	HeartbeatPeriod = 10 * api.Second
	RelistPeriod    = 5 * api.Minute
	RestartDelay    = 10 * api.Second
	defaultHorizon  = 10 * api.Minute
	checkpointEvery = 64
)

// ctrl is the runtime of one controller process: its informer cache, its
// work queue and the faults aimed at it.
type ctrl struct {
	name string
	host string // node, for kubelets
	rec  controller.Reconciler
	edge controller.EventHandler

	cache   *controller.Cache
	queue   []queued
	head    int            // queue[head:] is waiting
	index   map[string]int // key → position in queue (level controllers)
	pending bool           // a pass item is scheduled
	running bool
	epoch   int

	// failures counts consecutive failed passes per key, for the
	// work queue's exponential back-off (5 ms doubling to 1000 s).
	failures map[string]int

	drop, dup int
	delay     api.Duration
	crashNext bool
	stopped   bool // stopped on purpose (not crashed)
}

type queued struct {
	key     string
	trigger string
	events  int
	ev      *store.WatchEvent // edge controllers: the event itself
}

func (c *ctrl) clone() *ctrl {
	out := *c
	if c.rec != nil {
		out.rec = c.rec.Clone()
	}
	if c.edge != nil {
		out.edge = c.edge.Clone()
	}
	out.cache = c.cache.Clone()
	out.queue = slices.Clone(c.queue)
	out.index = maps.Clone(c.index)
	out.failures = maps.Clone(c.failures)
	return &out
}

// world is everything a run changes. Checkpoints are clones of it that
// share what neither changes (see clone).
type world struct {
	now   api.Time
	seq   uint64
	rng   rng
	queue itemQueue
	// busy counts the queued items that are work for a controller
	// (deliveries, passes, steps): Quiet is busy == 0.
	busy  int
	store *store.Store
	ctrls []*ctrl
	// kubelets maps a node name to its kubelet's index in ctrls.
	kubelets map[string]int
	runtimes pmap.Map[*controller.Runtime]
	nodeUp   pmap.Map[bool]
	images   map[string]controller.Image

	passes  []Pass
	chain   [32]byte // hash chain over passes and outputs
	outputs []Output
	notes   []string // faults applied, in order
	// outside records what pods did outside the cluster (side effects),
	// which no rollback undoes.
	outside []SideEffect
	// waits are kubectl commands still watching (rollout status).
	waits []wait
	// beats are the kubelets' lease renewals, per node.
	beats pmap.Map[beat]
	// git is the GitOps source: what is committed, at which revision.
	git controller.Git
	// webhookDown holds the webhooks (or configurations) that time out.
	webhookDown map[string]bool
	// extraAdmit is an admission step a caller added (tests).
	extraAdmit func(string, api.Object) error
	// digestKey and digestVal memoize the digest of an unchanged world.
	digestKey, digestVal string

	// shared[i] says ctrls[i] is shared with a clone of this world (a
	// checkpoint): ctrl(i) copies it before it changes. rtOwned names the
	// runtimes this world has its own copy of. So a checkpoint costs the
	// controllers and nodes that change after it, not all of them.
	shared  []bool
	rtOwned map[string]bool
}

// ctrl returns controller i, ready to be changed.
func (w *world) ctrl(i int) *ctrl {
	if i < len(w.shared) && w.shared[i] {
		w.ctrls[i] = w.ctrls[i].clone()
		w.shared[i] = false
	}
	return w.ctrls[i]
}

// clone returns a copy of w. The two share what neither has changed since:
// objects, the store's and caches' maps, controllers and runtimes are
// copied when one of them writes.
func (w *world) clone() *world {
	out := *w
	out.queue = w.queue.Clone()
	out.ctrls = slices.Clone(w.ctrls)
	w.shared, out.shared = make([]bool, len(w.ctrls)), make([]bool, len(w.ctrls))
	for i := range w.shared {
		w.shared[i], out.shared[i] = true, true
	}
	out.runtimes = w.runtimes.Clone()
	w.rtOwned, out.rtOwned = map[string]bool{}, map[string]bool{}
	out.nodeUp = w.nodeUp.Clone()
	out.beats = w.beats.Clone()
	out.images = maps.Clone(w.images)
	out.git.Objects = slices.Clip(w.git.Objects)
	out.outside = slices.Clip(w.outside)
	out.waits = make([]wait, len(w.waits))
	for i, wt := range w.waits {
		wt.lines = slices.Clip(wt.lines)
		out.waits[i] = wt
	}
	out.passes = slices.Clip(w.passes)
	out.outputs = slices.Clip(w.outputs)
	out.notes = slices.Clip(w.notes)
	out.webhookDown = maps.Clone(w.webhookDown)
	out.store = w.store.Clone(out.clock, out.rng.intn, out.notify)
	out.store.SetAdmit(out.admit)
	out.store.OnRecord(out.eventRecorded)
	return &out
}

func (w *world) clock() api.Time { return w.now }

// Image implements controller.World: the simulated registry.
func (w *world) Image(ref string) controller.Image {
	if img, ok := w.images[ref]; ok {
		return img
	}
	if name, digest, ok := strings.Cut(ref, "@"); ok {
		// By digest: the registry's content for that digest, whatever tag
		// (the first tag by name, when several carry it).
		refs := make([]string, 0, len(w.images))
		for r := range w.images {
			refs = append(refs, r)
		}
		sort.Strings(refs)
		for _, r := range refs {
			img := w.images[r]
			if img.Digest == digest && strings.HasPrefix(img.Ref, name+":") {
				img.Ref = ref
				return img
			}
		}
		return controller.Image{Ref: ref, Digest: digest, Size: 24_117_248, Pull: api.Second, Start: 2 * api.Second, Ready: true, Healthy: true}
	}
	return controller.Image{Ref: ref, Digest: digestOf(ref), Size: 24_117_248, Pull: api.Second, Start: 2 * api.Second, Ready: true, Healthy: true}
}

func digestOf(s string) string {
	h := sha256.Sum256([]byte(s))
	return fmt.Sprintf("sha256:%x", h)
}

// Runtime implements controller.World.
func (w *world) Runtime(node string) *controller.Runtime {
	rt, _ := w.runtimes.Get(node)
	switch {
	case rt == nil:
		rt = controller.NewRuntime()
	case !w.rtOwned[node]:
		rt = rt.Clone()
	default:
		return rt
	}
	w.runtimes.Set(node, rt)
	if w.rtOwned == nil {
		w.rtOwned = map[string]bool{}
	}
	w.rtOwned[node] = true
	return rt
}

// SideEffect implements controller.World.
func (w *world) SideEffect(p *api.Pod, what string) {
	e := SideEffect{At: w.now, AtText: w.now.String(), Pod: p.Namespace + "/" + p.Name, What: what}
	w.outside = append(w.outside, e)
	w.hash(e)
}

// Git implements controller.World.
func (w *world) Git() controller.Git { return w.git }

// NodeUp implements controller.World.
func (w *world) NodeUp(node string) bool { return w.up(node) }

func (w *world) up(node string) bool {
	up, _ := w.nodeUp.Get(node)
	return up
}

// notify is the store's watch fan-out: each running controller watching the
// kind gets the event after WatchLatency, subject to its faults.
func (w *world) notify(ev store.WatchEvent) {
	kind := ev.Object.GetTypeMeta().Kind
	if kind == "Event" {
		return
	}
	if p, ok := ev.Object.(*api.Pod); ok {
		w.deliverToKubelet(p.Spec.NodeName, ev)
		if old, ok := ev.Old.(*api.Pod); ok && old.Spec.NodeName != p.Spec.NodeName {
			w.deliverToKubelet(old.Spec.NodeName, ev)
		}
	}
	if n, ok := ev.Object.(*api.Node); ok {
		w.deliverToKubelet(n.Name, ev)
	}
	for i, c := range w.ctrls {
		if c.host != "" {
			continue
		}
		if slices.Contains(watches(c), kind) {
			w.deliver(i, ev)
		}
	}
}

func watches(c *ctrl) []string {
	if c.rec != nil {
		return c.rec.Watches()
	}
	return c.edge.Watches()
}

func (w *world) deliverToKubelet(node string, ev store.WatchEvent) {
	if node == "" {
		return
	}
	if i, ok := w.kubelets[node]; ok {
		w.deliver(i, ev)
	}
}

func (w *world) deliver(i int, ev store.WatchEvent) {
	c := w.ctrls[i]
	if !c.running {
		return
	}
	if c.drop > 0 || c.dup > 0 {
		c = w.ctrl(i)
	}
	if c.drop > 0 {
		c.drop--
		w.note(fmt.Sprintf("t=%s dropped %s %s on its way to %s", w.now, ev.Type, api.RefOf(ev.Object), c.name))
		return
	}
	at := w.now + WatchLatency + c.delay
	w.schedule(item{at: at, kind: itemDeliver, ctrl: i, epoch: c.epoch, ev: ev})
	if c.dup > 0 {
		c.dup--
		w.note(fmt.Sprintf("t=%s duplicated %s %s on its way to %s", w.now, ev.Type, api.RefOf(ev.Object), c.name))
		w.schedule(item{at: at, kind: itemDeliver, ctrl: i, epoch: c.epoch, ev: ev})
	}
}

func (w *world) note(s string) { w.notes = append(w.notes, s) }

func describeEvent(ev store.WatchEvent) string {
	return fmt.Sprintf("watch: %s %s", api.RefOf(ev.Object), ev.Type)
}

// enqueue adds key to a level controller's queue (coalescing duplicates)
// or an event to an edge controller's queue, and makes sure a pass runs.
func (w *world) enqueue(i int, key, trigger string, ev *store.WatchEvent) {
	c := w.ctrl(i)
	if ev == nil {
		if pos, ok := c.index[key]; ok {
			c.queue[pos].events++
			return
		}
		c.index[key] = len(c.queue)
	}
	c.queue = append(c.queue, queued{key: key, trigger: trigger, events: 1, ev: ev})
	if !c.pending {
		c.pending = true
		w.schedule(item{at: w.now, kind: itemPass, ctrl: i, epoch: c.epoch})
	}
}

func (w *world) dequeue(c *ctrl) queued {
	q := c.queue[c.head]
	c.queue[c.head] = queued{}
	c.head++
	if q.ev == nil {
		delete(c.index, q.key)
	}
	if c.head == len(c.queue) {
		c.queue, c.head = c.queue[:0], 0
	} else if c.head > 1024 && c.head > len(c.queue)/2 {
		rest := slices.Clone(c.queue[c.head:])
		for k, v := range c.index {
			c.index[k] = v - c.head
		}
		c.queue, c.head = rest, 0
	}
	return q
}

func (c *ctrl) waiting() int { return len(c.queue) - c.head }

// handle runs one item. It returns the pass it ran, if any.
func (w *world) handle(it item, s *Sim) (*Pass, error) {
	switch it.kind {
	case itemStep:
		s.applyStep(w, it.step)
	case itemDeliver:
		c := w.ctrls[it.ctrl]
		if c.epoch != it.epoch || !c.running {
			return nil, nil
		}
		c = w.ctrl(it.ctrl)
		c.cache.Apply(it.ev)
		if c.rec != nil {
			for _, k := range c.rec.Keys(c.cache, it.ev) {
				w.enqueue(it.ctrl, k, describeEvent(it.ev), nil)
			}
		} else {
			ev := it.ev
			w.enqueue(it.ctrl, "", describeEvent(ev), &ev)
			w.edgeStatus(it.ctrl, ev)
		}
	case itemRequeue:
		c := w.ctrls[it.ctrl]
		if c.epoch == it.epoch && c.running {
			w.enqueue(it.ctrl, it.key, "requeue: "+it.why, nil)
		}
	case itemTick:
		c := w.ctrls[it.ctrl]
		if c.epoch != it.epoch {
			return nil, nil
		}
		if !c.running {
			return nil, nil
		}
		c = w.ctrl(it.ctrl)
		keys, why := c.rec.(ticker).Tick(c.cache, w, w.now)
		for _, k := range keys {
			w.enqueue(it.ctrl, k, why, nil)
		}
		if p := c.rec.(periodic).Period(); p > 0 {
			w.schedule(item{at: w.now + p, kind: itemTick, ctrl: it.ctrl, epoch: c.epoch})
		}
	case itemTimeout:
		w.timeoutWait(it.key)
	case itemInput:
		s.apply(w, s.inputs[it.step])

	case itemRestart:
		c := w.ctrls[it.ctrl]
		if c.epoch == it.epoch && !c.running && !c.stopped {
			w.start(it.ctrl, "restarted after crash: initial list")
		}
	case itemRelist:
		c := w.ctrls[it.ctrl]
		if c.epoch == it.epoch && c.running {
			w.relist(it.ctrl)
			w.schedule(item{at: w.now + RelistPeriod, kind: itemRelist, ctrl: it.ctrl, epoch: c.epoch})
		}
	case itemPass:
		c := w.ctrls[it.ctrl]
		if c.epoch != it.epoch || !c.running {
			return nil, nil
		}
		c = w.ctrl(it.ctrl)
		c.pending = false
		if c.waiting() == 0 {
			return nil, nil
		}
		q := w.dequeue(c)
		p := w.runPass(it.ctrl, q)
		w.checkWaits()
		if c.waiting() > 0 && c.running && !c.pending {
			c.pending = true
			w.schedule(item{at: w.now, kind: itemPass, ctrl: it.ctrl, epoch: c.epoch})
		}
		return p, nil
	}
	return nil, nil
}

// ticker is a controller with periodic work besides its watches (the
// node monitor, a GitOps sync): Tick says which keys to look at.
type ticker interface {
	Period() api.Duration
	Tick(c *controller.Cache, w controller.World, now api.Time) ([]string, string)
}

type periodic interface{ Period() api.Duration }

type restartable interface{ Restarted() }

func (w *world) api() controller.API { return w.store }

func (w *world) runPass(i int, q queued) *Pass {
	c := w.ctrl(i)
	crashAfter := -1
	if c.crashNext {
		crashAfter = 1
	}
	ctx := controller.NewContext(c.name, w.now, c.cache, c.host, w.store, w, crashAfter)
	trigger := q.trigger
	if q.events > 1 {
		trigger = fmt.Sprintf("%s (+%d more events)", trigger, q.events-1)
	}
	key := q.key
	variant := ""
	var err error
	if c.rec != nil {
		err = c.rec.Reconcile(ctx, key)
		if c.name == controller.ReplicaSetController {
			variant = "level"
		}
	} else {
		var ok bool
		key, ok, err = c.edge.Handle(ctx, *q.ev)
		variant = "edge"
		if !ok {
			return nil
		}
	}
	p := Pass{N: len(w.passes) + 1, At: w.now, AtText: w.now.String(), Controller: c.name, Host: c.host, Key: key, Trigger: trigger,
		Desired: ctx.Desired, Observed: ctx.Observed, Difference: ctx.Difference, Actions: ctx.Actions, Outcome: ctx.Outcome,
		Lines: ctx.Lines, Variant: variant}
	if p.Actions == nil {
		p.Actions = []string{}
	}
	switch {
	case err == controller.ErrCrashed || ctx.Outcome == "crashed":
		p.Outcome = fmt.Sprintf("crashed mid-pass after %d action(s); restarts in %s", len(ctx.Actions), api.FormatDuration(RestartDelay))
		c.crashNext = false
		w.crash(i)
	case err != nil:
		p.Outcome = "error: " + err.Error()
		// Errors requeue with the work queue's per-item back-off.
		n := c.failures[key]
		c.failures[key] = n + 1
		back := 5 * api.Millisecond << min(n, 20)
		if back > 1000*api.Second || n >= 20 {
			back = 1000 * api.Second
		}
		ctx.RequeueAfter, ctx.RequeueReason = back, "rate-limited retry after an error"
	case p.Outcome == "" || err == nil:
		delete(c.failures, key)
		if p.Outcome != "" {
			break
		}
		if len(p.Actions) == 0 {
			p.Outcome = "converged"
		} else {
			p.Outcome = "acted"
		}
	}
	if c.crashNext && crashAfter >= 0 && err == nil {
		// the pass finished before reaching a second action: crash now
		p.Outcome = fmt.Sprintf("crashed at the end of the pass after %d action(s); restarts in %s", len(ctx.Actions), api.FormatDuration(RestartDelay))
		c.crashNext = false
		w.crash(i)
	}
	if ctx.RequeueAfter > 0 && c.running {
		w.schedule(item{at: w.now + ctx.RequeueAfter, kind: itemRequeue, ctrl: i, epoch: c.epoch, key: key,
			why: fmt.Sprintf("%s after %s", ctx.RequeueReason, api.FormatDuration(ctx.RequeueAfter))})
	}
	w.passes = append(w.passes, p)
	w.hash(p)
	return &w.passes[len(w.passes)-1]
}

// eventRecorded folds an event occurrence into the trace chain: events are
// part of the trace, and hashing them as they happen spares the digest a
// walk over tens of thousands of them.
func (w *world) eventRecorded(e *api.Event) {
	h := sha256.New()
	h.Write(w.chain[:])
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00%s\x00%d\x00%d", e.InvolvedObject.Kind, e.InvolvedObject.Name, e.Reason, e.Message, e.Source.Component, e.Count, e.LastTimestamp)
	copy(w.chain[:], h.Sum(nil))
}

func (w *world) hash(v any) {
	b, _ := json.Marshal(v)
	h := sha256.New()
	h.Write(w.chain[:])
	h.Write(b)
	copy(w.chain[:], h.Sum(nil))
}

// edgeStatus lets the edge twin report ReplicaSet status from its cache
// (outside any pass: it observes for reporting, never for deciding).
func (w *world) edgeStatus(i int, ev store.WatchEvent) {
	c := w.ctrl(i)
	e, ok := c.edge.(*controller.ReplicaSetEdge)
	if !ok {
		return
	}
	key := ""
	switch o := ev.Object.(type) {
	case *api.ReplicaSet:
		key = api.RefOf(o).Key()
	case *api.Pod:
		if ref := o.ControllerOf(); ref != nil && ref.Kind == "ReplicaSet" {
			key = o.Namespace + "/" + ref.Name
		}
	}
	if key != "" {
		ctx := controller.NewContext(c.name, w.now, c.cache, "", w.store, w, -1)
		e.ReportStatus(ctx, key)
	}
}

// crash kills a controller process: its queue and cache are gone, and the
// controller-manager restarts it after RestartDelay.
func (w *world) crash(i int) {
	c := w.ctrl(i)
	w.halt(c)
	w.schedule(item{at: w.now + RestartDelay, kind: itemRestart, ctrl: i, epoch: c.epoch})
}

func (w *world) halt(c *ctrl) {
	c.running = false
	c.epoch++
	c.queue, c.head = nil, 0
	c.index = map[string]int{}
	c.failures = map[string]int{}
	c.pending = false
	c.cache = controller.NewCache()
	if r, ok := c.rec.(restartable); ok {
		r.Restarted()
	}
	if c.edge != nil {
		c.edge.Restarted()
	}
}

// start (re)starts a controller: a fresh informer lists everything it
// watches; a level controller queues every key it sees, an edge controller
// takes the list as already handled.
func (w *world) start(i int, why string) {
	c := w.ctrl(i)
	c.running = true
	c.stopped = false
	c.epoch++
	c.cache = controller.NewCache()
	c.queue, c.head, c.index, c.pending = nil, 0, map[string]int{}, false
	for _, kind := range watches(c) {
		for _, o := range w.store.List(kind) {
			if !w.visible(c, o) {
				continue
			}
			ev := store.WatchEvent{Type: store.Added, Object: o}
			c.cache.Apply(ev)
			if c.rec != nil {
				for _, k := range c.rec.Keys(c.cache, ev) {
					w.enqueue(i, k, why, nil)
				}
			}
		}
	}
	if t, ok := c.rec.(periodic); ok && t.Period() > 0 {
		w.schedule(item{at: w.now + t.Period(), kind: itemTick, ctrl: i, epoch: c.epoch})
	}
	if c.host == "" {
		w.schedule(item{at: w.now + RelistPeriod, kind: itemRelist, ctrl: i, epoch: c.epoch})
	}
}

// visible reports whether a kubelet's informer sees o (its node and the
// pods bound to it); other controllers see everything they watch.
func (w *world) visible(c *ctrl, o api.Object) bool {
	if c.host == "" {
		return true
	}
	switch t := o.(type) {
	case *api.Pod:
		return t.Spec.NodeName == c.host
	case *api.Node:
		return t.Name == c.host
	}
	return false
}

// relist repairs a cache from the store, the way a restarted watch does:
// what differs is delivered as an event; what is equal is not.
func (w *world) relist(i int) {
	c := w.ctrl(i)
	for _, kind := range watches(c) {
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
	c := w.ctrl(i)
	c.cache.Apply(ev)
	if c.rec != nil {
		for _, k := range c.rec.Keys(c.cache, ev) {
			w.enqueue(i, k, "relist: "+api.RefOf(ev.Object).String()+" was out of date in the cache", nil)
		}
	}
}

// sync makes a running controller look at everything now: its periodic
// work runs at once (a GitOps sync, a node check) and every key it knows is
// queued (a resync).
func (w *world) sync(i int) {
	c := w.ctrl(i)
	if !c.running || c.rec == nil {
		return
	}
	why := "sync requested"
	var keys []string
	if t, ok := c.rec.(ticker); ok {
		keys, _ = t.Tick(c.cache, w, w.now)
	}
	for _, kind := range watches(c) {
		for _, k := range c.cache.Keys(kind) {
			ev := store.WatchEvent{Type: store.Modified, Object: c.cache.Get(kind, k), Old: c.cache.Get(kind, k)}
			c.cache.Apply(ev) // the same object again: Keys sees it as just delivered
			keys = append(keys, c.rec.Keys(c.cache, ev)...)
		}
	}
	for _, k := range keys {
		w.enqueue(i, k, why, nil)
	}
}

// A kubelet renews its node's lease every HeartbeatPeriod while it runs.
// The renewals are not stored as writes: only the node lifecycle
// controller reads them, so the last one is computed when it asks.
type beat struct {
	since   api.Time // when the kubelet began renewing
	stopped api.Time // when it stopped, if it has
	running bool
}

func (w *world) beatStart(node string) {
	if b, _ := w.beats.Get(node); !b.running {
		w.beats.Set(node, beat{since: w.now, running: true})
	}
}

func (w *world) beatStop(node string) {
	if b, _ := w.beats.Get(node); b.running {
		b.running, b.stopped = false, w.now
		w.beats.Set(node, b)
	}
}

// LastHeartbeat implements controller.World.
func (w *world) LastHeartbeat(node string) api.Time {
	b, ok := w.beats.Get(node)
	if !ok {
		return 0
	}
	if !b.running {
		// the renewals strictly before it stopped
		if b.stopped <= b.since {
			return b.since
		}
		return b.since + (b.stopped-b.since-1)/HeartbeatPeriod*HeartbeatPeriod
	}
	return b.since + (w.now-b.since)/HeartbeatPeriod*HeartbeatPeriod
}

func (w *world) ctrlIndex(name string) []int {
	var out []int
	for i, c := range w.ctrls {
		if c.name == name {
			out = append(out, i)
		}
	}
	return out
}

// objectSum hashes one stored object version. The store remembers it per
// version, in every world that shares the version.
func objectSum(_ string, o api.Object) [32]byte {
	b, _ := json.Marshal(o)
	return sha256.Sum256(b)
}

// digest hashes the trace chain, every stored object but leases and events
// (per kind, through the store's remembered hashes, so it costs what
// changed since the last digest), the outputs and the faults.
func (w *world) digest() string {
	h := sha256.New()
	h.Write(w.chain[:])
	for _, kind := range w.store.Kinds() {
		if kind == "Lease" || kind == "Event" {
			continue // leases carry heartbeats only; events are in the chain
		}
		sum := w.store.Hash(kind, objectSum)
		h.Write([]byte(kind))
		h.Write(sum[:])
	}
	b, _ := json.Marshal(w.outputs)
	h.Write(b)
	h.Write([]byte(strings.Join(w.notes, "\n")))
	return fmt.Sprintf("sha256:%x", h.Sum(nil))
}
