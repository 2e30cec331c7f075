package pmap

import (
	"fmt"
	"testing"
)

// TestSwap: Swap returns what Get would have returned before it and leaves
// the map as Set does, in clones too; the clone it was cloned from keeps
// its values.
func TestSwap(t *testing.T) {
	for _, keys := range []int{3, 40, 2000} {
		t.Run(fmt.Sprint(keys), func(t *testing.T) {
			rng := xorshift(uint64(keys)*31 + 5)
			var m Map[int]
			want := map[string]int{}
			var before Map[int]
			var beforeWant map[string]int
			for step := 0; step < 10000; step++ {
				k := fmt.Sprintf("k%05d", rng.intn(keys))
				switch r := rng.intn(10); {
				case r < 7:
					w, wantHad := want[k]
					old, had := m.Swap(k, step)
					if had != wantHad || old != w {
						t.Fatalf("step %d: Swap(%s) = %d, %v; want %d, %v", step, k, old, had, w, wantHad)
					}
					want[k] = step
				case r < 9:
					m.Delete(k)
					delete(want, k)
				default:
					before = m.Clone()
					beforeWant = map[string]int{}
					for k, v := range want {
						beforeWant[k] = v
					}
				}
				if step%499 == 0 {
					check(t, &m, want, step)
				}
			}
			check(t, &m, want, -1)
			if beforeWant == nil {
				t.Fatal("no clone was taken")
			}
			check(t, &before, beforeWant, -2)
		})
	}
}
