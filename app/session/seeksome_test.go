package session

import (
	"testing"
	"time"

	"reconcile/scenarios"
)

// TestSeekSome checks that seeking a slice at a time (a pass per slice at
// this budget) reaches the world Seek reaches, forwards from the start,
// backwards, and forwards again over passes a checkpoint holds; and that a
// pass beyond the end of the run is refused in Seek's words, with the end
// learnt.
func TestSeekSome(t *testing.T) {
	sc, err := scenarios.Load("edge-vs-level")
	if err != nil {
		t.Fatal(err)
	}
	ref, err := Start(sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	s, err := Start(sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	slices := func(n int) int {
		t.Helper()
		k := 0
		for {
			k++
			done, err := s.SeekSome(n, 0)
			if err != nil {
				t.Fatalf("SeekSome(%d): %v", n, err)
			}
			if done {
				return k
			}
			if k > 1000 {
				t.Fatalf("SeekSome(%d): not there after %d slices (at %d)", n, k, s.N())
			}
		}
	}
	for _, step := range []struct{ to, minSlices, maxSlices int }{
		{150, 150, 150}, // a pass a slice, from the start
		{20, 1, -1},     // back: from the checkpoint before it
		{140, 1, -1},    // forward again: from the nearest checkpoint
		{140, 1, 1},     // where it is
	} {
		if step.maxSlices < 0 {
			// A pass a slice from the checkpoint before it.
			step.maxSlices = max(1, step.to-s.run.NearestCheckpoint(step.to))
			if step.to == 140 && step.maxSlices >= 140-20 {
				t.Fatalf("no checkpoint between pass 20 and pass %d", step.to)
			}
		}
		k := slices(step.to)
		if k < step.minSlices || k > step.maxSlices {
			t.Errorf("to pass %d: %d slices; want %d to %d", step.to, k, step.minSlices, step.maxSlices)
		}
		if err := ref.Seek(step.to); err != nil {
			t.Fatal(err)
		}
		if s.N() != step.to || s.run.Digest() != ref.run.Digest() {
			t.Errorf("to pass %d: at %d, digest %s; Seek: %s", step.to, s.N(), s.run.Digest(), ref.run.Digest())
		}
		if s.Known() < step.to {
			t.Errorf("to pass %d: known %d", step.to, s.Known())
		}
	}
	_, err = s.SeekSome(100000, time.Second)
	wantErr := ref.Seek(100000)
	if err == nil || wantErr == nil || err.Error() != wantErr.Error() {
		t.Errorf("beyond the end: %v; Seek: %v", err, wantErr)
	}
	if !s.Final() || s.Known() != s.N() || s.N() != ref.N() {
		t.Errorf("beyond the end: final %v, known %d, at %d; Seek stops at %d", s.Final(), s.Known(), s.N(), ref.N())
	}
}
