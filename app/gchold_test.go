package app

import (
	"runtime/debug"
	"testing"
)

// TestHeldGC: the pause a deep link's open begins is the catch-up's once
// it takes it over (open's release leaves it), and the catch-up's end
// restores the collector's setting; with no catch-up, open's release
// does.
func TestHeldGC(t *testing.T) {
	before := debug.SetGCPercent(77)
	defer debug.SetGCPercent(before)

	holdGC()
	c := &catchUp{}
	c.takeHeldGC()
	releaseGC() // open ends: the catch-up holds the pause now
	if got := debug.SetGCPercent(-1); got != -1 || !c.gcPaused || heldGC.on {
		t.Fatalf("after the take-over: GC percent %d, catch-up paused %v, held %v; want -1, true, false", got, c.gcPaused, heldGC.on)
	}
	c.resumeGC()
	if got := debug.SetGCPercent(77); got != 77 {
		t.Fatalf("the catch-up's end left GC percent %d, want 77", got)
	}

	holdGC()
	holdGC() // twice: one pause
	releaseGC()
	if got := debug.SetGCPercent(77); got != 77 {
		t.Fatalf("open's release left GC percent %d, want 77", got)
	}
}
