package sim

import (
	"fmt"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/queue"
)

// Quiet reports whether the run would change nothing more if it went on:
// the moment a bounded run (Sim.Run) stops. It is weaker than Converged: a
// world can be quiet with pods Pending for want of room, with a pod never
// ready, or with pods stuck terminating on a node that is down, because
// nothing in the loop would change them. When it is not quiet, the string
// says what would still act.
//
// The world is quiet when no input is scheduled ahead and, on the agenda:
//
//   - no watch event is on its way to a running controller, no key is
//     queued, no crashed controller waits for its restart and no kubectl
//     command is still watching;
//   - every periodic check is idle (controller.Idler: a Ticker that is not
//     an Idler is taken to act, so a run with one stops only at a bound);
//   - every re-list would find its cache in step with the API server (a
//     dropped watch event is repaired by the next re-list: that acts);
//   - every requeue would repeat itself: its pass, tried on a copy of the
//     world at the time it is due, writes no object (it may record an
//     event again, as the scheduler's "0/3 nodes are available" every five
//     minutes does: Kubernetes counts the event up, nothing else changes),
//     does not crash, and asks for no requeue or the same again (a deadline
//     check that finds its deadline ahead and asks to come back then
//     counts as acting: a rollout's progress deadline passing is a change).
func (s *Sim) Quiet() (bool, string) {
	w := s.w
	if s.quiet.w != w {
		s.quiet = quietMemo{w: w, repeats: map[string]uint64{}, inStep: map[int]uint64{}}
	}
	version := w.writes<<16 + uint64(len(w.notes))
	var requeues []*item
	for it := range w.agenda.All() {
		if it.kind == itemDeliver {
			for _, r := range it.to.list {
				if c := w.procs[r.ctrl]; c.epoch == int(r.epoch) && c.running {
					return false, fmt.Sprintf("a watch event is on its way to %s", c.name)
				}
			}
			continue
		}
		c := (*process)(nil)
		if it.kind != itemStep && it.kind != itemInput && it.kind != itemTimeout && it.kind != itemAct {
			c = w.procs[it.ctrl]
			if c.epoch != it.epoch {
				continue // for a process that has since restarted
			}
		}
		switch it.kind {
		case itemStep, itemInput:
			return false, fmt.Sprintf("an input is scheduled at t=%s", it.at)
		case itemTimeout:
			return false, fmt.Sprintf("a kubectl command is still watching until t=%s", it.at)
		case itemAct:
			// A drain whose evictions would be refused again, its evicted
			// pods still there, repeats itself: it changes nothing.
			if wt := w.watchDue(it.key, it.at); wt != nil && wt.cmd.WouldAct(w.store, it.at) {
				return false, fmt.Sprintf("%s acts again at t=%s", wt.cmd.Command, it.at)
			}
		case itemPass:
			if c.running && c.queue.Len() > 0 {
				return false, fmt.Sprintf("%s has %d key(s) queued", c.name, c.queue.Len())
			}
		case itemRestart:
			if !c.running && !c.stopped {
				return false, fmt.Sprintf("%s crashed: %s at t=%s", c.name, c.spec.Runs.Restarts(), it.at)
			}
		case itemTick:
			if !c.running {
				continue
			}
			idler, ok := c.impl().(controller.Idler)
			if !ok {
				return false, fmt.Sprintf("%s runs a periodic check every %s", c.name, c.impl().(controller.Ticker).Period())
			}
			if idle, why := idler.Idle(w.cacheOf(c), w, w.now); !idle {
				return false, why
			}
		case itemRelist:
			if !c.running {
				continue
			}
			if s.quiet.inStep[it.ctrl] != version+1 {
				if !w.cacheInStep(c) {
					return false, fmt.Sprintf("%s's cache is out of date: its re-list at t=%s repairs it", c.name, it.at)
				}
				s.quiet.inStep[it.ctrl] = version + 1
			}
		case itemRequeue:
			if c.running {
				requeues = append(requeues, it)
			}
		}
	}
	for _, c := range w.procs {
		if c.running && c.queue.Len() > 0 && !c.pending {
			return false, fmt.Sprintf("%s has %d key(s) queued", c.name, c.queue.Len())
		}
	}
	// The requeues run in turn, in the order they are due, on one copy of
	// the world: as the run would run them, when none writes.
	var d *world
	for _, it := range requeues {
		memo := fmt.Sprintf("%d\x00%s\x00%d", it.ctrl, it.key, it.at)
		if s.quiet.repeats[memo] == version+1 {
			continue
		}
		if d == nil {
			d = w.scratchCopy()
		}
		if d.requeueActs(*it) {
			return false, fmt.Sprintf("%s requeued %s at t=%s would act", w.procs[it.ctrl].name, it.key, it.at)
		}
		s.quiet.repeats[memo] = version + 1
	}
	return true, ""
}

// quietMemo remembers, for one world, the requeues (by controller, key and
// time) and re-lists found to
// change nothing at a version of it (world.writes and the faults applied,
// plus one so that zero means unknown): Quiet, asked before each jump of
// the clock, tries each requeue once while nothing is written.
type quietMemo struct {
	w       *world
	repeats map[string]uint64 // "ctrl\x00key" → version; lookup only
	inStep  map[int]uint64    // process index → version; lookup only
}

// requeueActs runs a requeue's pass on d, a copy of the world, at the time
// it is due and reports whether it would write an object or crash.
func (d *world) requeueActs(it item) bool {
	d.setNow(it.at)
	before := d.writes
	p := d.runPass(it.ctrl, queue.Item{Key: it.key, Trigger: queue.RequeueTrigger(it.why, it.after), Events: 1})
	if p == nil {
		return false // an edge-triggered handler not interested
	}
	// The same requeue again (the scheduler's every 5m) repeats; another
	// (a deadline check that finds the deadline ahead and asks to come
	// back at it) is a chain that may act later: it counts as acting.
	return d.writes != before || p.Result == controller.Crashed || (d.requeued != requeueAsked{} && d.requeued != requeueAsked{it.why, it.after})
}

// cacheInStep reports whether a process's informer cache holds what the
// API server holds of every kind it watches (what a re-list compares).
func (w *world) cacheInStep(c *process) bool {
	cache := w.cacheOf(c)
	for _, kind := range c.watches() {
		n := 0
		for _, o := range w.store.List(kind) {
			if c.host != "" && !visible(c, o) {
				continue
			}
			n++
			old := cache.Get(kind, api.RefOf(o).Key())
			if old == nil || old.Meta().ResourceVersion != o.Meta().ResourceVersion {
				return false
			}
		}
		if cache.Len(kind) != n {
			return false
		}
	}
	return true
}
