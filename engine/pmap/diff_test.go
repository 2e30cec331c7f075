package pmap

import (
	"fmt"
	"maps"
	"slices"
	"testing"
)

// TestDiff checks Diff against a plain comparison of two maps' contents:
// a map and a clone of it, each written a little or a lot (splits, merges,
// a root that grows or shrinks), every key reported once, in order, with
// both values; and that shared subtrees are skipped: after one write to a
// map of thousands of keys, Diff looks at about one leaf.
func TestDiff(t *testing.T) {
	rnd := xorshift(7)
	for round := 0; round < 300; round++ {
		var a Map[int]
		want := map[string]int{}
		n := []int{0, 3, 40, 600, 3000}[round%5]
		for i := 0; i < n; i++ {
			k := fmt.Sprintf("k%05d", rnd.intn(5000))
			a.Set(k, i)
			want[k] = i
		}
		b := a.Clone()
		wantB := maps.Clone(want)
		writes := []int{0, 1, 5, 50, 2000}[rnd.intn(5)]
		for i := 0; i < writes; i++ {
			k := fmt.Sprintf("k%05d", rnd.intn(5000))
			switch rnd.intn(3) {
			case 0:
				b.Delete(k)
				delete(wantB, k)
			default:
				b.Set(k, -i)
				wantB[k] = -i
			}
			if rnd.intn(4) == 0 { // the old map is written too, sometimes
				k := fmt.Sprintf("k%05d", rnd.intn(5000))
				a.Set(k, 7)
				want[k] = 7
			}
		}
		type change struct {
			key      string
			was, now int
			had, has bool
		}
		var got []change
		b.Diff(&a, func(x, y int) bool { return x == y }, func(k string, was int, had bool, now int, has bool) {
			got = append(got, change{k, was, now, had, has})
		})
		var exp []change
		keys := slices.Sorted(maps.Keys(want))
		for k := range wantB {
			if _, ok := want[k]; !ok {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			was, had := want[k]
			now, has := wantB[k]
			if had != has || was != now {
				exp = append(exp, change{k, was, now, had, has})
			}
		}
		if !slices.Equal(got, exp) {
			t.Fatalf("round %d (%d keys, %d writes): Diff %v\nwant %v", round, n, writes, got, exp)
		}
	}

	// Shared subtrees are skipped: Diff compares no value of a leaf both
	// maps share.
	var a Map[int]
	for i := 0; i < 5000; i++ {
		a.Set(fmt.Sprintf("k%05d", i), i)
	}
	b := a.Clone()
	b.Set("k02500", -1)
	compared, reported := 0, 0
	b.Diff(&a, func(x, y int) bool { compared++; return x == y }, func(string, int, bool, int, bool) { reported++ })
	if reported != 1 || compared > maxLeaf {
		t.Errorf("one write in 5,000 keys: %d reported, %d values compared; want 1 reported, at most %d compared", reported, compared, maxLeaf)
	}
}
