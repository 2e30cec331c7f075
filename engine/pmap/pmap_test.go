package pmap

import (
	"crypto/sha256"
	"fmt"
	"runtime"
	"slices"
	"testing"
)

// xorshift is the test's own deterministic source.
type xorshift uint64

func (x *xorshift) intn(n int) int {
	*x ^= *x << 13
	*x ^= *x >> 7
	*x ^= *x << 17
	return int(uint64(*x) % uint64(n))
}

func sum(k string, v int) [32]byte { return sha256.Sum256([]byte(fmt.Sprintf("%s=%d", k, v))) }

// check compares m with the plain map want: length, every lookup, order,
// From, and the tree's invariants.
func check(t *testing.T, m *Map[int], want map[string]int, step int) {
	t.Helper()
	if m.Len() != len(want) {
		t.Fatalf("step %d: Len %d, want %d", step, m.Len(), len(want))
	}
	keys := make([]string, 0, len(want))
	for k := range want { // any order: sorted below
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if got := m.Keys(); !slices.Equal(got, keys) {
		t.Fatalf("step %d: keys %v, want %v", step, got, keys)
	}
	for _, k := range keys {
		if v, ok := m.Get(k); !ok || v != want[k] {
			t.Fatalf("step %d: Get(%q) = %d, %v; want %d", step, k, v, ok, want[k])
		}
	}
	if _, ok := m.Get("absent"); ok {
		t.Fatalf("step %d: Get(absent) found", step)
	}
	if len(keys) > 0 {
		from := keys[len(keys)/2]
		var got []string
		for k := range m.From(from) {
			got = append(got, k)
		}
		if !slices.Equal(got, keys[len(keys)/2:]) {
			t.Fatalf("step %d: From(%q) = %v, want %v", step, from, got, keys[len(keys)/2:])
		}
	}
	if m.root != nil {
		depth := -1
		invariants(t, m.root, 0, &depth, step)
	}
}

func invariants(t *testing.T, n *node[int], d int, depth *int, step int) {
	t.Helper()
	if n.leaf() {
		if len(n.keys) == 0 || len(n.keys) > maxLeaf || len(n.vals) != len(n.keys) {
			t.Fatalf("step %d: leaf with %d keys, %d values", step, len(n.keys), len(n.vals))
		}
		if n.lo != n.keys[0] {
			t.Fatalf("step %d: leaf's smallest key %q, its first key %q", step, n.lo, n.keys[0])
		}
		if *depth == -1 {
			*depth = d
		} else if *depth != d {
			t.Fatalf("step %d: leaves at depths %d and %d", step, *depth, d)
		}
		return
	}
	if len(n.kids) == 0 || len(n.kids) > maxKids {
		t.Fatalf("step %d: interior with %d kids", step, len(n.kids))
	}
	if n.lo != n.kids[0].lo {
		t.Fatalf("step %d: interior's smallest key %q, its first kid's %q", step, n.lo, n.kids[0].lo)
	}
	for i, k := range n.kids {
		if i > 0 && n.kids[i-1].lo >= k.lo {
			t.Fatalf("step %d: kids out of order", step)
		}
		invariants(t, k, d+1, depth, step)
	}
}

// forget returns a copy of m's tree with nothing remembered.
func forget(m *Map[int]) *Map[int] {
	var cp func(n *node[int]) *node[int]
	cp = func(n *node[int]) *node[int] {
		if n == nil {
			return nil
		}
		c := &node[int]{lo: n.lo, keys: slices.Clone(n.keys), vals: slices.Clone(n.vals)}
		for _, k := range n.kids {
			c.kids = append(c.kids, cp(k))
		}
		return c
	}
	return &Map[int]{root: cp(m.root), n: m.n}
}

// TestAgainstMap runs random writes on a Map and a plain map side by side,
// cloning now and then and checking that every clone keeps what it had.
func TestAgainstMap(t *testing.T) {
	for _, keys := range []int{5, 60, 3000} {
		t.Run(fmt.Sprint(keys), func(t *testing.T) {
			rng := xorshift(uint64(keys)*7919 + 1)
			var m Map[int]
			want := map[string]int{}
			type snap struct {
				m    Map[int]
				want map[string]int
				hash [32]byte
			}
			var snaps []snap
			for step := 0; step < 20000; step++ {
				k := fmt.Sprintf("k%05d", rng.intn(keys))
				switch r := rng.intn(100); {
				case r < 55:
					m.Set(k, step)
					want[k] = step
				case r < 95:
					m.Delete(k)
					delete(want, k)
				case r < 97:
					m.Delete("absent")
				default:
					c := m.Clone()
					w := make(map[string]int, len(want))
					for k, v := range want { // any order: a copy
						w[k] = v
					}
					snaps = append(snaps, snap{c, w, c.Hash(sum)})
				}
				if step%997 == 0 {
					check(t, &m, want, step)
				}
				if step%101 == 0 {
					// the remembered hashes agree with hashing afresh
					if got, want := m.Hash(sum), forget(&m).Hash(sum); got != want {
						t.Fatalf("step %d: remembered hash differs from a fresh one", step)
					}
				}
			}
			check(t, &m, want, -1)
			for i := range snaps {
				check(t, &snaps[i].m, snaps[i].want, -2-i)
				if h := snaps[i].m.Hash(sum); h != snaps[i].hash {
					t.Fatalf("snapshot %d: hash changed after writes to the map it was cloned from", i)
				}
			}
			if len(snaps) == 0 {
				t.Fatal("no clone was taken")
			}
		})
	}
}

// TestHash: the same writes give the same hash; a change of one value
// changes it; a cached hash follows in-place writes.
func TestHash(t *testing.T) {
	build := func() *Map[int] {
		var m Map[int]
		for i := 0; i < 500; i++ {
			m.Set(fmt.Sprintf("k%03d", (i*37)%500), i)
		}
		return &m
	}
	a, b := build(), build()
	if a.Hash(sum) != b.Hash(sum) {
		t.Fatal("same writes, different hashes")
	}
	before := a.Hash(sum)
	a.Set("k100", -1)
	if a.Hash(sum) == before {
		t.Fatal("a changed value left the hash unchanged")
	}
	a.Set("k100", b.mustGet(t, "k100"))
	if a.Hash(sum) != before {
		t.Fatal("restoring the value did not restore the hash")
	}
	c := a.Clone()
	a.Delete("k250")
	if c.Hash(sum) != before {
		t.Fatal("a clone's hash moved with its origin")
	}
	if a.Hash(sum) == before {
		t.Fatal("a delete left the hash unchanged")
	}
	var empty Map[int]
	if empty.Hash(sum) == before {
		t.Fatal("empty map hashes like a full one")
	}
}

func (m *Map[V]) mustGet(t *testing.T, k string) V {
	v, ok := m.Get(k)
	if !ok {
		t.Fatalf("%q missing", k)
	}
	return v
}

// TestCloneIsCheap: a clone shares every node; one write copies one path.
func TestCloneIsCheap(t *testing.T) {
	var m Map[int]
	for i := 0; i < 10000; i++ {
		m.Set(fmt.Sprintf("pod-%05d", i), i)
	}
	allocs := testing.AllocsPerRun(100, func() {
		c := m.Clone()
		c.Set("pod-05000", -1)
	})
	// the two owners, and one node per level of a three-level tree with
	// its slices
	if allocs > 16 {
		t.Fatalf("clone and one write: %.0f allocations, want ≤ 16 (a plain map copy would be thousands)", allocs)
	}
}

func BenchmarkSet10k(b *testing.B) {
	var m Map[int]
	for i := 0; i < 10000; i++ {
		m.Set(fmt.Sprintf("pod-%05d", i), i)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%64 == 0 {
			m.Clone()
		}
		m.Set(fmt.Sprintf("pod-%05d", i%10000), i)
	}
}

// BenchmarkCheckpointed writes at random into a map of 10,000 keys shaped
// like the store's (namespace/name of a pod), keeping a clone after every
// 32 writes as the run's checkpoints do, and reports what the clones
// retain per write: the nodes the writes after each clone copied.
func BenchmarkCheckpointed(b *testing.B) {
	keys := make([]string, 10000)
	rng := xorshift(42)
	const alphabet = "bcdfghjklmnpqrstvwxz2456789"
	for i := range keys {
		k := []byte("default/web-7c9d8f6b5-")
		for range 5 {
			k = append(k, alphabet[rng.intn(len(alphabet))])
		}
		keys[i] = string(k)
	}
	const writes = 1 << 15
	var before, after runtime.MemStats
	for range b.N {
		var kept []Map[int]
		var m Map[int]
		for i, k := range keys {
			m.Set(k, i)
		}
		runtime.GC()
		runtime.ReadMemStats(&before)
		for i := range writes {
			if i%32 == 0 {
				kept = append(kept, m.Clone())
			}
			m.Set(keys[rng.intn(len(keys))], i)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(kept)
		runtime.KeepAlive(m)
	}
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/writes, "retained-B/write")
}

// BenchmarkGet10k looks keys up at random in a map of 10,000 keys shaped
// like the store's.
func BenchmarkGet10k(b *testing.B) {
	keys := make([]string, 10000)
	rng := xorshift(7)
	const alphabet = "bcdfghjklmnpqrstvwxz2456789"
	var m Map[int]
	for i := range keys {
		k := []byte("default/web-7c9d8f6b5-")
		for range 5 {
			k = append(k, alphabet[rng.intn(len(alphabet))])
		}
		keys[i] = string(k)
		m.Set(keys[i], i)
	}
	b.ResetTimer()
	for i := range b.N {
		if _, ok := m.Get(keys[(i*7919)%len(keys)]); !ok {
			b.Fatal("missing")
		}
	}
}

// TestClonesWrittenApart writes, inserts and deletes in a map and in its
// clones (and the clones' clones) in turn, where leaves share their keys
// until one of them inserts or deletes: each must keep its own contents.
func TestClonesWrittenApart(t *testing.T) {
	rng := xorshift(99)
	type copyOf struct {
		m    Map[int]
		want map[string]int
	}
	maps := []*copyOf{{want: map[string]int{}}}
	for i := 0; i < 400; i++ {
		k := fmt.Sprintf("k%04d", i)
		maps[0].m.Set(k, i)
		maps[0].want[k] = i
	}
	for step := 0; step < 30000; step++ {
		c := maps[rng.intn(len(maps))]
		k := fmt.Sprintf("k%04d", rng.intn(600))
		switch r := rng.intn(100); {
		case r < 60:
			c.m.Set(k, step)
			c.want[k] = step
		case r < 97:
			c.m.Delete(k)
			delete(c.want, k)
		default:
			w := make(map[string]int, len(c.want))
			for k, v := range c.want { // any order: a copy
				w[k] = v
			}
			maps = append(maps, &copyOf{m: c.m.Clone(), want: w})
		}
		if step%2999 == 0 {
			for i := range maps {
				check(t, &maps[i].m, maps[i].want, step*1000+i)
			}
		}
	}
	for i := range maps {
		check(t, &maps[i].m, maps[i].want, -1-i)
	}
	if len(maps) < 10 {
		t.Fatalf("only %d maps", len(maps))
	}
}
