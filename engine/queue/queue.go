// Package queue is a controller's work queue, in the shape of client-go's
// workqueue: keys waiting for a pass, each at most once (a key added again
// while it waits is not queued twice: the events that named it are counted
// on the one entry), and a per-key back-off for keys whose pass failed.
//
// A level-triggered controller queues keys: a pass re-reads the world for
// the key, so ten events about one object need one pass. An
// edge-triggered controller queues the events themselves, each handled once
// and in order: that is what makes it lose count when one is lost or
// doubled.
//
// A Queue is a value the simulation checkpoints: Clone shares the items
// waiting and the rest until either copy writes.
package queue

import (
	"maps"
	"slices"

	"reconcile/engine/api"
	"reconcile/engine/pmap"
	"reconcile/engine/store"
)

// Item is one entry waiting for a pass.
type Item struct {
	// Key is what the pass is about ("default/web"); empty for an event of
	// an edge-triggered controller.
	Key string
	// Trigger is why the key was queued first (a watch event about
	// pod/web-x, a requeue, ...).
	Trigger Trigger
	// Events counts how many times the key was added while it waited.
	Events int
	// Event is the watch event itself, for an edge-triggered controller.
	Event *store.WatchEvent
}

// Back-off of a key whose passes fail: 5 ms, doubling each time, at most
// 1000 s (client-go's default controller rate limiter, per item).
const (
	BackOffBase = 5 * api.Millisecond
	BackOffMax  = 1000 * api.Second
)

// Queue holds the items waiting, in the order they came.
//
// A queue of a few keys finds a key by looking at each (a kubelet's holds
// one or two pods); past indexAt keys it indexes them in a pmap.Map, which
// a clone shares until either writes. Positions in the index are counted
// from the first item ever queued (off is the count of items dropped
// before items[0]), so dropping taken items renumbers nothing.
type Queue struct {
	items   []Item
	head    int // items[head:] are waiting
	off     int // items dropped before items[0]
	indexed bool
	index   pmap.Map[int] // key → off + its position in items, while it waits (when indexed)
	// failures counts the consecutive failed passes of each key.
	failures map[string]int
	// shared says items[:len(items)] is shared with a clone or the queue
	// this one was cloned from: never written in place. An append past
	// it writes none of it.
	shared bool
}

// push appends it.
func (q *Queue) push(it Item) {
	if q.shared && len(q.items) == cap(q.items) {
		q.shared = false // the append moves the items to an array of their own
	}
	q.items = append(q.items, it)
}

// own gives q an items array of its own, to write in place.
func (q *Queue) own() {
	if q.shared {
		out := make([]Item, len(q.items))
		copy(out[q.head:], q.items[q.head:])
		q.items, q.shared = out, false
	}
}

// indexAt is how many waiting items make a queue index its keys.
const indexAt = 32

// find returns the position in items of key, waiting, or -1.
func (q *Queue) find(key string) int {
	if q.indexed {
		if seq, ok := q.index.Get(key); ok {
			return seq - q.off
		}
		return -1
	}
	for i := q.head; i < len(q.items); i++ {
		if it := &q.items[i]; it.Event == nil && it.Key == key {
			return i
		}
	}
	return -1
}

// Add queues key, or counts one more event on it when it is already
// waiting. It reports whether the key was newly queued.
func (q *Queue) Add(key string, trigger Trigger) bool {
	if pos := q.find(key); pos >= 0 {
		q.own()
		q.items[pos].Events++
		return false
	}
	if q.indexed {
		q.index.Set(key, q.off+len(q.items))
	}
	q.push(Item{Key: key, Trigger: trigger, Events: 1})
	if !q.indexed && q.Len() >= indexAt {
		q.indexed = true
		for i := q.head; i < len(q.items); i++ {
			if q.items[i].Event == nil {
				q.index.Set(q.items[i].Key, q.off+i)
			}
		}
	}
	return true
}

// AddEvent queues a watch event (edge-triggered controllers): every event
// is an item of its own.
func (q *Queue) AddEvent(ev store.WatchEvent, trigger Trigger) {
	q.push(Item{Trigger: trigger, Events: 1, Event: &ev})
}

// Len returns how many items wait.
func (q *Queue) Len() int { return len(q.items) - q.head }

// Get takes the oldest waiting item. It reports false when none waits.
func (q *Queue) Get() (Item, bool) {
	if q.Len() == 0 {
		return Item{}, false
	}
	it := q.items[q.head]
	if !q.shared {
		q.items[q.head] = Item{} // what was taken is not kept (a shared array's is kept by the queue it came from)
	}
	q.head++
	if it.Event == nil && q.indexed {
		q.index.Delete(it.Key)
	}
	switch {
	case q.head == len(q.items):
		q.off += q.head
		q.items, q.head = q.items[:0], 0
		if q.shared {
			q.items, q.shared = nil, false // appends must not write the shared array
		}
		q.indexed, q.index = false, pmap.Map[int]{}
	case q.head > 1024 && q.head > len(q.items)/2:
		// Drop what was taken, so a long run does not keep it.
		q.off += q.head
		q.items, q.head, q.shared = slices.Clone(q.items[q.head:]), 0, false
	}
	return it, true
}

// Failed counts one more failed pass of key and returns how long to wait
// before its next pass.
func (q *Queue) Failed(key string) api.Duration {
	n := q.failures[key]
	if q.failures == nil {
		q.failures = map[string]int{}
	}
	q.failures[key] = n + 1
	back := BackOffBase << min(n, 20)
	if back > BackOffMax || n >= 20 {
		back = BackOffMax
	}
	return back
}

// Forget clears the failures of key: its pass succeeded.
func (q *Queue) Forget(key string) { delete(q.failures, key) }

// Clone returns a copy of q that changes apart from it: the waiting items
// (not those taken) and the index shared until either writes, the
// failures copied.
func (q *Queue) Clone() Queue {
	out := Queue{off: q.off + q.head, indexed: q.indexed}
	if q.Len() > 0 {
		out.items, out.shared = slices.Clip(q.items[q.head:]), true
		if !q.shared {
			q.shared = true
		}
	}
	if q.indexed {
		out.index = q.index.Clone()
	}
	if len(q.failures) > 0 {
		out.failures = maps.Clone(q.failures)
	}
	return out
}
