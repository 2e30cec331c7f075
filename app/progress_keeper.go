package app

import (
	"sort"
	"sync"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// progressKept is the page's keeper of progress.
var progressKept = newProgressKeeper(time.Second, time.Now, time.Sleep, func(id string, rec progress) error {
	st, err := storage()
	if err != nil {
		return err
	}
	return st.saveProgress(id, rec)
})

// progressKeeper throttles the writes of progress records: the first note
// of a lesson, and one that reaches a milestone, are written at once; the
// others at most once every `every`, the newest of them last (a trailing
// write, so that where the learner stopped is what is kept).
//
// note runs on the UI goroutine and only decides; the writes run in the
// goroutines it spawns. A keeper is safe for concurrent use.
type progressKeeper struct {
	every time.Duration
	now   func() time.Time
	sleep func(time.Duration)
	// save writes a record (read, merge, write); it may block.
	save func(id string, rec progress) error

	mu sync.Mutex
	// last is the record of each lesson last sent to be written; pending
	// the newer ones that wait for their turn.
	last, pending map[string]noted
	// waiting says a trailing write is scheduled.
	waiting bool
	// writing counts the writes under way; idle is signalled when one ends.
	writing int
	idle    *sync.Cond
	// seq orders the notes; written is the seq of each lesson's record
	// last written, so that an older write that comes late is dropped.
	seq     int
	written map[string]int
	// gen changes when the progress is forgotten: writes noted before
	// are dropped.
	gen int
	// wmu makes one write at a time.
	wmu sync.Mutex
}

// noted is a record noted, with its milestone and when it was sent.
type noted struct {
	rec  progress
	mile milestone
	at   time.Time
	seq  int
	gen  int
}

func newProgressKeeper(every time.Duration, now func() time.Time, sleep func(time.Duration), save func(string, progress) error) *progressKeeper {
	k := &progressKeeper{every: every, now: now, sleep: sleep, save: save,
		last: map[string]noted{}, pending: map[string]noted{}, written: map[string]int{}}
	k.idle = sync.NewCond(&k.mu)
	return k
}

// note takes the progress rec (at milestone mile) of lesson id and writes
// it, now or later, through spawn (ctx.Async on a page), which runs a
// function off the UI goroutine.
func (k *progressKeeper) note(id string, rec progress, mile milestone, spawn func(func())) {
	if job := k.decide(id, rec, mile); job != nil {
		spawn(job)
	}
}

// decide notes rec and returns what to run off the UI goroutine: a write
// now, a trailing write later, or nothing.
func (k *progressKeeper) decide(id string, rec progress, mile milestone) func() {
	k.mu.Lock()
	defer k.mu.Unlock()
	last, seen := k.last[id]
	if p, ok := k.pending[id]; ok {
		rec.Furthest = max(rec.Furthest, p.rec.Furthest)
	}
	if seen {
		rec.Furthest = max(rec.Furthest, last.rec.Furthest)
		if rec == last.rec {
			delete(k.pending, id) // back where it was last written
			return nil
		}
	}
	k.seq++
	now := k.now()
	n := noted{rec: rec, mile: mile, at: now, seq: k.seq, gen: k.gen}
	if !seen || mile != last.mile || now.Sub(last.at) >= k.every {
		delete(k.pending, id)
		k.last[id] = n
		k.writing++
		return func() { k.write(id, n) }
	}
	k.pending[id] = n
	if k.waiting {
		return nil // the trailing write will take it
	}
	k.waiting = true
	wait := k.every - now.Sub(last.at)
	return func() {
		k.sleep(wait)
		k.flush()
	}
}

// flush writes the records waiting for their turn; it blocks.
func (k *progressKeeper) flush() {
	k.mu.Lock()
	due := k.pending
	k.pending, k.waiting = map[string]noted{}, false
	ids := make([]string, 0, len(due))
	for id, n := range due {
		n.at = k.now()
		k.last[id] = n
		due[id] = n
		ids = append(ids, id)
	}
	k.writing += len(ids)
	k.mu.Unlock()
	sort.Strings(ids)
	for _, id := range ids {
		k.write(id, due[id])
	}
}

// settleWait is the longest settle waits for the writes under way.
const settleWait = 3 * time.Second

// settle writes what waits and returns once every write under way has
// ended (or after settleWait), so that what is read next includes them.
// It blocks.
func (k *progressKeeper) settle() {
	k.flush()
	timedOut := false
	t := time.AfterFunc(settleWait, func() {
		k.mu.Lock()
		timedOut = true
		k.idle.Broadcast()
		k.mu.Unlock()
	})
	defer t.Stop()
	k.mu.Lock()
	for k.writing > 0 && !timedOut {
		k.idle.Wait()
	}
	k.mu.Unlock()
}

// write saves n unless a newer record of the lesson was written already or
// the progress was forgotten since n was noted. Losing a record costs
// little (the next one carries the same), so a failure is only logged.
func (k *progressKeeper) write(id string, n noted) {
	k.wmu.Lock()
	defer func() {
		k.wmu.Unlock()
		k.mu.Lock()
		k.writing--
		k.idle.Broadcast()
		k.mu.Unlock()
	}()
	k.mu.Lock()
	stale := n.gen != k.gen || n.seq <= k.written[id]
	k.mu.Unlock()
	if stale {
		return
	}
	rec := n.rec
	rec.Seen = k.now().UnixMilli()
	if err := k.save(id, rec); err != nil {
		app.Logf("reconcile: keeping the progress of %s: %v", id, err)
		return
	}
	k.mu.Lock()
	k.written[id] = n.seq
	k.mu.Unlock()
}

// forget drops what waits and what was noted, and then, with no write
// under way, runs wipe. It blocks.
func (k *progressKeeper) forget(wipe func() error) error {
	k.mu.Lock()
	k.gen++
	k.pending = map[string]noted{}
	k.last = map[string]noted{}
	k.mu.Unlock()
	k.wmu.Lock()
	defer k.wmu.Unlock()
	return wipe()
}
