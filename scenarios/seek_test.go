package scenarios_test

import (
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/scenarios"
)

// TestSeekRestoresEveryLesson: in every lesson, seeking to a pass (back
// across checkpoints, forward, to the same pass twice) gives the world the
// first run had after that pass, digest for digest, and a fresh run told
// nothing but the pass agrees. Checkpoints share structure with the live
// world (copy on write); a write that leaked into a checkpoint, or a
// remembered hash that outlived its object, shows here.
func TestSeekRestoresEveryLesson(t *testing.T) {
	for _, id := range scenarios.IDs() {
		t.Run(id, func(t *testing.T) {
			sc := load(t, id)
			s := newSim(t, sc)
			digests := []string{s.Digest()}
			for _, ok := s.Next(); ok; _, ok = s.Next() {
				digests = append(digests, s.Digest())
			}
			n := len(digests) - 1
			if n < 10 {
				t.Fatalf("%s: %d passes, too few to seek through", id, n)
			}
			// back and forth, across the checkpoints (every 64 passes)
			order := []int{n / 2, 1, n, n - 1, 63, 64, 65, n / 3, n / 3, 0, n * 2 / 3, 129, 2}
			for _, p := range order {
				if p > n {
					continue
				}
				if err := s.Seek(p); err != nil {
					t.Fatalf("seek %d: %v", p, err)
				}
				if got := s.Digest(); got != digests[p] {
					t.Fatalf("%s: after seeking to pass %d the digest is %s, the first run had %s", id, p, got, digests[p])
				}
			}
			// a fresh run that never computed a digest on the way
			p := n * 3 / 4
			f := newSim(t, sc)
			for f.PassCount() < p {
				if _, ok := f.Next(); !ok {
					break
				}
			}
			if got := f.Digest(); got != digests[p] {
				t.Fatalf("%s: a fresh run at pass %d has digest %s, the first run had %s", id, p, got, digests[p])
			}
		})
	}
}

// TestPassTimes: PassTimes gives every lesson's passes' numbers, times and
// results as Passes does, from any pass.
func TestPassTimes(t *testing.T) {
	for _, id := range scenarios.IDs() {
		s := newSim(t, load(t, id))
		for _, ok := s.Next(); ok; _, ok = s.Next() {
		}
		passes := s.Passes()
		for _, from := range []int{0, len(passes) / 2, len(passes)} {
			i := from
			s.PassTimes(from, func(n int, at api.Time, r controller.Outcome) {
				if i >= len(passes) || passes[i].N != n || passes[i].At != at || passes[i].Result != r {
					t.Fatalf("%s: PassTimes(%d) gives pass %d at %s (%s) where Passes has %+v", id, from, n, at, r, passes[min(i, len(passes)-1)])
				}
				i++
			})
			if i != len(passes) {
				t.Fatalf("%s: PassTimes(%d) stopped at %d of %d", id, from, i, len(passes))
			}
		}
	}
}
