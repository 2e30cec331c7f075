package sim

import (
	"reconcile/engine/api"
	"reconcile/engine/store"
)

// The agenda is the discrete-event scheduler: everything the world will do
// (a watch event reaching a controller, a pass, a requeue, a timer, a
// scripted input), ordered by time, then by the order it was scheduled.
// Ties never depend on map order.

type itemKind uint8

const (
	itemStep    itemKind = iota // a scripted input at a simulated time
	itemDeliver                 // a watch event reaches controllers (to)
	itemPass                    // a controller takes the next key off its queue
	itemRequeue                 // a key comes back after a delay
	itemTick                    // a periodic check (node monitor, GitOps sync)
	itemRestart                 // a crashed controller comes back
	itemRelist                  // a controller's watch restarts and re-lists
	itemTimeout                 // a watching kubectl command gives up
	itemInput                   // a recorded input replayed at its moment
	itemAct                     // a watching kubectl command acts on its own clock (drain)
)

// item is one thing the agenda will do. An item is never changed once
// scheduled, so worlds share them.
type item struct {
	at    api.Time
	seq   uint64
	kind  itemKind
	ctrl  int
	epoch int
	key   string
	// why and after are a requeue's reason and delay.
	why   string
	after api.Duration
	ev    store.WatchEvent
	step  int
	// to are the processes ev reaches when a delivery comes due, in the
	// order they take it (fanout.go); items share them.
	to *roster
}

// roster is the processes a watch event is on its way to, in order.
type roster struct{ list []recipient }

// recipient is one process a watch event is on its way to.
type recipient struct {
	ctrl, epoch int32
	// inform is 1 + the index of a shared informer that folds the event
	// into its cache as it reaches this process (the first of the
	// processes sharing it), 0 for none.
	inform int32
}

func (w *world) schedule(it item) {
	w.seq++
	it.seq = w.seq
	w.agenda.add(&it)
}

func (w *world) pop() item {
	it := w.agenda.takeFirst()
	w.handled++
	if it.to != nil {
		w.handled += uint64(len(it.to.list)) - 1 // a delivery counts per process it reaches
	}
	return *it
}

func (w *world) peek() (item, bool) {
	it, ok := w.agenda.first()
	if !ok {
		return item{}, false
	}
	return *it, true
}

// setNow moves the clock of the world and of its API server.
func (w *world) setNow(t api.Time) {
	if t > w.now {
		w.serveTraffic(t) // requests sent before the world changes at t
		w.now = t
		w.store.SetNow(t)
		if len(w.store.Pending()) > 0 {
			w.drain() // the scheduler's event series written on their ticks
		}
	}
}
