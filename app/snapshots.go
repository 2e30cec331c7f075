package app

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/session"
	"reconcile/engine/sim"
	"reconcile/scenarios"
)

// Snapshots shipped with the site. A lesson whose run is long (tens of
// thousands of passes) has snapshots of its world written when the site
// is built, every few thousand passes (wasm/snapshots.go): a deep link far
// into it fetches the nearest one at or before its pass and the catch-up
// starts there, instead of computing every pass before it in the tab.
//
// The files of lesson id are under /snapshots/<id>/: index.json says
// which passes have one and under which label they were written, and
// <pass>.snap is the snapshot, gzip-compressed (not named .gz: the site
// serves .gz files only as the compressed variants of others, chosen by
// Accept-Encoding). A snapshot is taken
// only when its label is the one this build gives the lesson: the lesson's
// id, the build's version and a hash of the lesson's source, so a site
// built from another version of the code or of the lesson computes
// instead. Whatever goes wrong (no index, a damaged file, a refused
// snapshot), the catch-up goes on computing, and the player says why when
// the snapshot was there but could not be used.

// SnapshotIndex is index.json.
type SnapshotIndex struct {
	Label  string `json:"label"`
	Passes []int  `json:"passes"`
}

// snapshotDir is where the snapshots of lesson id are, under the site's
// root.
func snapshotDir(id string) string { return "/snapshots/" + id + "/" }

// SnapshotLabel is the label the snapshots of lesson id are written and
// read under; "" when there is no such lesson.
func SnapshotLabel(id string) string {
	_, data, ok := scenarios.File(id)
	if !ok {
		return ""
	}
	sum := sha256.Sum256(data)
	return id + " " + Version + " " + hex.EncodeToString(sum[:8])
}

// nearestSnapshot is the pass of the index's snapshot nearest at or before
// want and after from (0: none).
func (x SnapshotIndex) nearestSnapshot(from, want int) int {
	best := 0
	for _, n := range x.Passes {
		if n > from && n <= want && n > best {
			best = n
		}
	}
	return best
}

// fetchSnapshot looks, once a catch-up to want is under way, for a
// shipped snapshot nearer to want than the run is; the catch-up waits
// meanwhile (the fetch is off the UI goroutine), then goes on from the
// snapshot, or computing when there is none.
func (p *Player) fetchSnapshot(ctx app.Context) {
	c := p.catching
	if c == nil || c.looked || !app.IsClient {
		return
	}
	c.looked = true
	label := SnapshotLabel(p.id)
	if label == "" || !shipsSnapshots(p.id) {
		return // the site says it has none for the lesson: nothing to ask for
	}
	c.waiting = true
	id, want, ses := p.id, c.to, p.ses
	from := want - replay(ses, want) // a snapshot helps only after this
	ctx.Async(func() {
		n, data, err := findSnapshot(id, label, from, want)
		var read *sim.SnapshotRead
		if err == nil && n > 0 && readingSnapshot(ctx, p, c, ses) {
			// The world is read here, off the UI goroutine, a slice at a
			// time: between slices the browser paints and takes a click
			// (the UI goroutine runs while this one waits).
			read, err = ses.ReadSnapshot(data, label, sliceYield())
		}
		ctx.Dispatch(func(ctx app.Context) {
			if p.catching != c || p.ses != ses {
				return // cancelled, or another lesson opened
			}
			c.waiting, c.reading = false, false
			if read != nil {
				kept := guard(&p.alert, "Reading the snapshot", func() {
					_, err = ses.KeepSnapshot(read)
				})
				if err == nil && kept {
					// The rate shown counts the passes computed from here.
					c.snapshot, c.from, c.began = n, n, time.Now()
				}
			}
			if err != nil {
				c.snapshotErr = fmt.Sprintf("The snapshot of the world shipped with the lesson could not be used (%v): every pass before this one was computed instead.", err)
			}
			p.catchUpLater(ctx)
		})
	})
}

// readingSnapshot prepares, on the UI goroutine, the read of a snapshot
// fetched for catch-up c: it reports false when c was cancelled meanwhile
// (or another lesson opened). A world read in one go allocates what the
// passes before it would have built (about 80 MB for 10,000 pods) with
// little garbage: collecting on the way would only mark it again and
// again. The collector waits until the pass is on screen (endCatchUp); a
// cycle begun before (in a tab its marking waits for idle time) is
// finished first, or its assists would go on through the read. The
// memory limit stands.
func readingSnapshot(ctx app.Context, p *Player, c *catchUp, ses *session.Session) bool {
	ok := make(chan bool, 1)
	ctx.Dispatch(func(ctx app.Context) {
		if p.catching != c || p.ses != ses {
			ok <- false
			return
		}
		c.reading = true
		if !c.gcPaused { // paused since the lesson opened: no cycle is under way
			c.pauseGC()
			runtime.GC()
		}
		ok <- true
	})
	return <-ok
}

// sliceYield is the yield of a snapshot's read: once a slice's time
// (catchUpSlice) has gone by, it waits for the browser's turn.
func sliceYield() func() {
	start := time.Now()
	return func() {
		if time.Since(start) < catchUpSlice {
			return
		}
		yieldToBrowser()
		start = time.Now()
	}
}

// findSnapshot fetches the snapshot of lesson id nearest at or before
// want and after from, written under label: its pass, or 0 when the site
// has none for the lesson (no index, or one written by another build:
// not an error), or why the one it has cannot be read.
func findSnapshot(id, label string, from, want int) (int, []byte, error) {
	// The page may have downloaded it while app.wasm loaded.
	if l, n, data, ok := prefetched(id, want); ok && l == label && n > from && n <= want {
		return n, data, nil
	}
	raw, err := fetchBytes(snapshotDir(id)+"index.json", false)
	if err != nil {
		return 0, nil, nil
	}
	var x SnapshotIndex
	if json.Unmarshal(raw, &x) != nil || x.Label != label {
		return 0, nil, nil
	}
	n := x.nearestSnapshot(from, want)
	if n == 0 {
		return 0, nil, nil
	}
	data, err := fetchBytes(fmt.Sprintf("%s%d.snap", snapshotDir(id), n), true)
	return n, data, err
}

// pauseGC turns the collector off until resumeGC.
func (c *catchUp) pauseGC() {
	if c.gcPaused {
		return
	}
	c.gcPercent, c.gcPaused = debug.SetGCPercent(-1), true
}

// resumeGC turns the collector back on. Its first cycle marks the world
// read from a snapshot in one go (a second or so in a tab).
func (c *catchUp) resumeGC() {
	if c.gcPaused {
		debug.SetGCPercent(c.gcPercent)
		c.gcPaused = false
	}
}
