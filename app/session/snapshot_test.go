package session

import (
	"testing"

	"reconcile/scenarios"
)

// TestAddCheckpointSeekSome: once a session keeps a snapshot of pass 150
// as a checkpoint, a seek a slice at a time towards pass 160 starts there:
// its first slice (one pass at this budget) is at pass 151, not 1, and the
// world at 160 is the one computed from the start. A snapshot of another
// lesson is refused.
func TestAddCheckpointSeekSome(t *testing.T) {
	sc, err := scenarios.Load("edge-vs-level")
	if err != nil {
		t.Fatal(err)
	}
	ref, err := Start(sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	if err := ref.Seek(150); err != nil {
		t.Fatal(err)
	}
	data, err := ref.run.Snapshot("edge-vs-level")
	if err != nil {
		t.Fatal(err)
	}
	if err := ref.Seek(160); err != nil {
		t.Fatal(err)
	}
	s, err := Start(sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddCheckpoint(data, "self-healing"); err == nil {
		t.Fatal("a snapshot written under another label was kept")
	}
	if n, err := s.AddCheckpoint(data, "edge-vs-level"); err != nil || n != 150 {
		t.Fatalf("AddCheckpoint = %d, %v", n, err)
	}
	done, err := s.SeekSome(160, 0)
	if err != nil || done {
		t.Fatalf("SeekSome = %v, %v", done, err)
	}
	if s.N() != 151 {
		t.Fatalf("after the first slice the run is at pass %d, want 151 (the snapshot's 150, and one)", s.N())
	}
	for !done {
		if done, err = s.SeekSome(160, 0); err != nil {
			t.Fatal(err)
		}
	}
	if s.run.Digest() != ref.run.Digest() {
		t.Fatal("pass 160 reached from the snapshot differs from pass 160 computed")
	}
}
