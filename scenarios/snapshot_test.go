package scenarios_test

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"reconcile/engine/sim"
	"reconcile/scenarios"
)

// TestSnapshotEveryLesson: in every lesson, a snapshot written after a
// pass and kept by a fresh run as its checkpoint gives that run the world
// the first run had, digest for digest, and the same future: every pass
// after it, and every digest on the way, is the first run's. Seeking back
// before the snapshot computes from the start, as before.
func TestSnapshotEveryLesson(t *testing.T) {
	for _, id := range scenarios.IDs() {
		t.Run(id, func(t *testing.T) {
			sc := load(t, id)
			s := newSim(t, sc)
			digests := []string{s.Digest()}
			for _, ok := s.Next(); ok; _, ok = s.Next() {
				digests = append(digests, s.Digest())
			}
			passes := s.Passes()
			n := len(digests) - 1
			for _, k := range []int{1, n / 3, n * 2 / 3, n} {
				if k < 1 {
					continue
				}
				if err := s.Seek(k); err != nil {
					t.Fatal(err)
				}
				data, err := s.Snapshot(id)
				if err != nil {
					t.Fatalf("snapshot at pass %d: %v", k, err)
				}
				// The same world, written again, is the same bytes
				// (maps are written in key order).
				if again, err := s.Snapshot(id); err != nil || !bytes.Equal(again, data) {
					t.Fatalf("pass %d: the world written twice gave different bytes (%d and %d, %v)", k, len(data), len(again), err)
				}
				if p, label, err := sim.SnapshotPass(data); err != nil || p != k || label != id {
					t.Fatalf("SnapshotPass = %d, %q, %v; want %d, %q", p, label, err, k, id)
				}
				f := newSim(t, sc)
				got, err := f.AddCheckpoint(data, id)
				if err != nil || got != k {
					t.Fatalf("AddCheckpoint at pass %d = %d, %v", k, got, err)
				}
				if f.NearestCheckpoint(n) != k && k != n {
					// a later checkpoint of the fresh run cannot exist yet
					t.Fatalf("nearest checkpoint to %d is %d, want %d", n, f.NearestCheckpoint(n), k)
				}
				if err := f.Seek(k); err != nil {
					t.Fatal(err)
				}
				if f.PassCount() != k || f.Digest() != digests[k] {
					t.Fatalf("restored at pass %d: digest %s, the first run had %s", k, f.Digest(), digests[k])
				}
				for i := k + 1; i <= n; i++ {
					if _, ok := f.Next(); !ok {
						t.Fatalf("restored at pass %d: the run ended at pass %d, the first at %d", k, i-1, n)
					}
					if f.Digest() != digests[i] {
						t.Fatalf("restored at pass %d: pass %d's digest differs", k, i)
					}
				}
				if _, ok := f.Next(); ok {
					t.Fatalf("restored at pass %d: the run goes on past pass %d", k, n)
				}
				if !reflect.DeepEqual(f.Passes(), passes) {
					t.Fatalf("restored at pass %d: the passes differ from the first run's", k)
				}
				if b := k / 2; b > 0 {
					if err := f.Seek(b); err != nil || f.Digest() != digests[b] {
						t.Fatalf("restored at pass %d, then back to pass %d: digest differs (%v)", k, b, err)
					}
				}
			}
		})
	}
}

// TestSnapshotRefused: a snapshot of another label, of another shape of
// bytes, truncated or damaged anywhere, or of a pass after an input, is
// refused with a reason and leaves the run as it was.
func TestSnapshotRefused(t *testing.T) {
	id := scenarios.IDs()[0]
	sc := load(t, id)
	s := newSim(t, sc)
	for s.PassCount() < 8 {
		if _, ok := s.Next(); !ok {
			t.Fatal("the lesson is too short")
		}
	}
	data, err := s.Snapshot(id)
	if err != nil {
		t.Fatal(err)
	}
	f := newSim(t, sc)
	refused := func(what string, b []byte, label, want string) {
		t.Helper()
		before := f.NearestCheckpoint(1 << 30)
		_, err := f.AddCheckpoint(b, label)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("%s: error %v, want one saying %q", what, err, want)
		}
		if f.NearestCheckpoint(1<<30) != before {
			t.Fatalf("%s: a refused snapshot became a checkpoint", what)
		}
	}
	refused("another label", data, "another-lesson", `it is of "`+id+`", not of "another-lesson"`)
	refused("not a snapshot", []byte("apiVersion: v1\nkind: Pod\n"), id, "not a snapshot")
	for _, cut := range []int{0, 5, len(data) / 2, len(data) - 1} {
		refused("truncated", data[:cut], id, "snapshot: ")
	}
	for i := 0; i < len(data); i += max(1, len(data)/97) {
		b := bytes.Clone(data)
		b[i] ^= 0x20
		refused("a byte changed", b, id, "snapshot: ")
	}
	// the right bytes still work after all that
	if k, err := f.AddCheckpoint(data, id); err != nil || k != 8 {
		t.Fatalf("AddCheckpoint = %d, %v", k, err)
	}
}

// TestSnapshotKeepsOne: a run keeps one world read from a snapshot: an
// earlier snapshot read after a later one makes the later one go, with
// the checkpoints after it, and a seek past it computes from the earlier.
func TestSnapshotKeepsOne(t *testing.T) {
	id := "edge-vs-level"
	sc := load(t, id)
	s := newSim(t, sc)
	snap := func(n int) ([]byte, string) {
		if err := s.Seek(n); err != nil {
			t.Fatal(err)
		}
		b, err := s.Snapshot(id)
		if err != nil {
			t.Fatal(err)
		}
		return b, s.Digest()
	}
	late, _ := snap(150)
	early, _ := snap(100)
	_, at160 := snap(160)
	f := newSim(t, sc)
	if _, err := f.AddCheckpoint(late, id); err != nil {
		t.Fatal(err)
	}
	if err := f.Seek(155); err != nil || f.NearestCheckpoint(200) < 150 {
		t.Fatalf("seek 155: %v; nearest checkpoint to 200 is %d", err, f.NearestCheckpoint(200))
	}
	if _, err := f.AddCheckpoint(early, id); err != nil {
		t.Fatal(err)
	}
	if got := f.NearestCheckpoint(200); got != 100 {
		t.Fatalf("after the earlier snapshot, the nearest checkpoint to pass 200 is %d, want 100", got)
	}
	if err := f.Seek(160); err != nil || f.Digest() != at160 {
		t.Fatalf("seek 160 from the earlier snapshot: %v, digest differs: %v", err, f.Digest() != at160)
	}
}
