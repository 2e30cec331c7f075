package scenarios_test

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"strings"
	"testing"
)

// TestReadSnapshotThenKeep: a snapshot read with ReadSnapshot changes
// nothing of the run until KeepSnapshot keeps it, which gives the world
// the first run had; a world read for one run is refused by another.
func TestReadSnapshotThenKeep(t *testing.T) {
	id := "edge-vs-level"
	sc := load(t, id)
	s := newSim(t, sc)
	if err := s.Seek(150); err != nil {
		t.Fatal(err)
	}
	data, err := s.Snapshot(id)
	if err != nil {
		t.Fatal(err)
	}
	f, g := newSim(t, sc), newSim(t, sc)
	r, err := f.ReadSnapshot(data, id, nil)
	if err != nil || r.Pass() != 150 {
		t.Fatalf("ReadSnapshot = %v, %v", r, err)
	}
	if f.NearestCheckpoint(1<<30) != 0 || f.PassCount() != 0 {
		t.Fatalf("the read changed the run: nearest checkpoint %d, pass %d", f.NearestCheckpoint(1<<30), f.PassCount())
	}
	if _, err := g.KeepSnapshot(r); err == nil || !strings.Contains(err.Error(), "read for another run") {
		t.Fatalf("another run kept it: %v", err)
	}
	if g.NearestCheckpoint(1<<30) != 0 {
		t.Fatal("a refused world became a checkpoint")
	}
	if n, err := f.KeepSnapshot(r); err != nil || n != 150 {
		t.Fatalf("KeepSnapshot = %d, %v", n, err)
	}
	if err := f.Seek(150); err != nil || f.Digest() != s.Digest() {
		t.Fatalf("kept at pass 150: %v, the digest differs: %v", err, f.Digest() != s.Digest())
	}
}

// TestSnapshotDamagedBehindItsCRC: bytes changed behind a CRC that
// matches them (what the CRC cannot catch) end the read with an error or
// a world, never a crash, and a refused one changes nothing. The reader
// writes memory directly: this is where a check it lacks would show.
func TestSnapshotDamagedBehindItsCRC(t *testing.T) {
	id := "edge-vs-level"
	sc := load(t, id)
	s := newSim(t, sc)
	if err := s.Seek(120); err != nil {
		t.Fatal(err)
	}
	data, err := s.Snapshot(id)
	if err != nil {
		t.Fatal(err)
	}
	table := crc32.MakeTable(crc32.Castagnoli)
	resum := func(b []byte) []byte {
		n := len(b) - 4
		binary.LittleEndian.PutUint32(b[n:], crc32.Checksum(b[:n], table))
		return b
	}
	refused := 0
	step := max(1, len(data)/301)
	for i := 20; i < len(data)-4; i += step {
		for _, x := range []byte{0x01, 0x80, 0xff} {
			b := bytes.Clone(data)
			b[i] ^= x
			f := newSim(t, sc)
			if _, err := f.AddCheckpoint(resum(b), id); err != nil {
				refused++
				if !strings.HasPrefix(err.Error(), "snapshot: ") || f.NearestCheckpoint(1<<30) != 0 {
					t.Fatalf("byte %d ^ %#x: %v; nearest checkpoint %d", i, x, err, f.NearestCheckpoint(1<<30))
				}
				continue
			}
			// Read: a world of other values. It runs as any world does,
			// or fails the way a pass fails; it does not crash.
			func() {
				defer func() { recover() }()
				for range 5 {
					f.Next()
				}
			}()
		}
	}
	if refused == 0 {
		t.Fatal("no damaged snapshot was refused")
	}
	t.Logf("%d of %d damaged snapshots refused", refused, 3*((len(data)-24)/step+1))
}
