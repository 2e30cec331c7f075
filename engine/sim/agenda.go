package sim

import (
	"encoding/binary"

	"reconcile/engine/api"
	"reconcile/engine/pmap"
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
	why   string
	ev    store.WatchEvent
	step  int
	// to are the processes ev reaches when a delivery comes due, in the
	// order they take it (fanout.go).
	to []recipient
}

// recipient is one process a watch event is on its way to.
type recipient struct {
	ctrl, epoch int32
	// inform is 1 + the index of a shared informer that folds the event
	// into its cache as it reaches this process (the first of the
	// processes sharing it), 0 for none.
	inform int32
}

// agenda holds the scheduled items in the order they run: by time; at one
// moment, a replayed input after everything else due then (as it came when
// it was given), and otherwise in the order they were scheduled. It is a
// persistent map keyed by that order, so a checkpoint shares it.
type agenda = pmap.Map[*item]

// order is an item's key in the agenda: its time, whether it is a replayed
// input, and its sequence number, as bytes that sort in that order.
func order(it *item) string {
	var b [17]byte
	binary.BigEndian.PutUint64(b[:8], uint64(it.at)^(1<<63)) // signed → unsigned order
	if it.kind == itemInput {
		b[8] = 1
	}
	binary.BigEndian.PutUint64(b[9:], it.seq)
	return string(b[:])
}

func (w *world) schedule(it item) {
	w.seq++
	it.seq = w.seq
	w.agenda.Set(order(&it), &it)
}

func (w *world) pop() item {
	k, it, _ := w.agenda.First()
	w.handled += uint64(max(len(it.to), 1)) // a delivery counts per process it reaches
	w.agenda.Delete(k)
	return *it
}

func (w *world) peek() (item, bool) {
	_, it, ok := w.agenda.First()
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
	}
}
