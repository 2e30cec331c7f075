package sim

import (
	"container/heap"

	"reconcile/engine/api"
	"reconcile/engine/store"
)

type itemKind uint8

const (
	itemStep    itemKind = iota // a scripted input at a simulated time
	itemDeliver                 // a watch event reaches a controller
	itemPass                    // a controller takes the next key off its queue
	itemRequeue                 // a key comes back after a delay
	itemTick                    // a periodic check (node monitor)
	itemRestart                 // a crashed controller comes back
	itemRelist                  // a controller's watch restarts and re-lists
	itemTimeout                 // a waiting kubectl command gives up
	itemInput                   // a recorded input replayed at its moment
)

// item is one thing the discrete-event scheduler will do. Items are plain
// values so the queue copies cheaply into a checkpoint.
type item struct {
	at    api.Time
	seq   uint64
	kind  itemKind
	ctrl  int
	epoch int
	key   string
	why   string
	ev    store.WatchEvent
	step  int
	node  string
}

type itemHeap []item

func (h itemHeap) Len() int { return len(h) }
func (h itemHeap) Less(i, j int) bool {
	if h[i].at != h[j].at {
		return h[i].at < h[j].at
	}
	// A replayed input comes after everything else due at its moment, as
	// it did when it was given.
	if li, lj := h[i].kind == itemInput, h[j].kind == itemInput; li != lj {
		return lj
	}
	return h[i].seq < h[j].seq
}
func (h itemHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *itemHeap) Push(x any)   { *h = append(*h, x.(item)) }
func (h *itemHeap) Pop() any {
	old := *h
	n := len(old)
	it := old[n-1]
	*h = old[:n-1]
	return it
}

func (w *world) schedule(it item) {
	w.seq++
	it.seq = w.seq
	heap.Push(&w.queue, it)
}

func (w *world) pop() item { return heap.Pop(&w.queue).(item) }

func (w *world) peek() (item, bool) {
	if len(w.queue) == 0 {
		return item{}, false
	}
	return w.queue[0], true
}
