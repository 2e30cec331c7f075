package sim

import (
	"testing"

	"reconcile/engine/api"
)

// BenchmarkAgenda: the agenda's own work in a run's pattern, per item
// handled: take the first of 512 items, schedule the one it leads to (a
// pass now, a watch delivery after WatchLatency, now and then a requeue
// seconds ahead), and every 64 items keep a clone, as a checkpoint does
// (the last 32 kept).
func BenchmarkAgenda(b *testing.B) {
	w := &world{}
	for i := range 512 {
		w.schedule(item{at: api.Time(i), kind: itemDeliver})
	}
	var kept [32]agenda
	r := uint64(1)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		it := w.pop()
		w.now = it.at
		r = r*6364136223846793005 + 1442695040888963407
		switch x := r >> 60; {
		case it.kind == itemPass && x == 0:
			w.schedule(item{at: w.now + api.Time(r>>40%30000), kind: itemRequeue})
		case it.kind == itemPass:
			w.schedule(item{at: w.now + WatchLatency, kind: itemDeliver})
		case x < 8:
			w.schedule(item{at: w.now, kind: itemPass})
		default:
			w.schedule(item{at: w.now + WatchLatency, kind: itemDeliver})
		}
		if i%64 == 0 {
			kept[i/64%len(kept)] = w.agenda.Clone()
		}
	}
}

// TestAgendaOrderAndClones drives agendas and their clones with a long
// deterministic mix of adds (at times behind, at and ahead of the clock;
// replayed inputs among them) and takes, against plain sorted slices: each
// takes its items in agenda order and sees none of the others' changes.
func TestAgendaOrderAndClones(t *testing.T) {
	type run struct {
		a    agenda
		want []*item // in order
		seq  uint64
		now  api.Time
	}
	less := func(x, y *item) bool { // the order the agenda promises, said plainly
		if x.at != y.at {
			return x.at < y.at
		}
		if (x.kind == itemInput) != (y.kind == itemInput) {
			return y.kind == itemInput
		}
		return x.seq < y.seq
	}
	runs := []*run{{}}
	r := uint64(7)
	next := func(n uint64) uint64 {
		r = r*6364136223846793005 + 1442695040888963407
		return (r >> 33) % n
	}
	for step := range 200000 {
		u := runs[next(uint64(len(runs)))]
		switch x := next(100); {
		case x < 2 && len(runs) < 40: // a checkpoint
			c := &run{a: u.a.Clone(), want: append([]*item(nil), u.want...), seq: u.seq, now: u.now}
			runs = append(runs, c)
		case x < 50 || step < 100000 && x < 60 || len(u.want) == 0: // grows, then shrinks
			u.seq++
			kind := itemKind(next(uint64(itemInput) + 1))
			it := &item{at: u.now + api.Time(next(3000)) - 50, seq: u.seq, kind: kind}
			if next(4) == 0 {
				it.at = u.now // many at one moment
			}
			u.a.add(it)
			i := 0
			for i < len(u.want) && !less(it, u.want[i]) {
				i++
			}
			u.want = append(u.want[:i], append([]*item{it}, u.want[i:]...)...)
		default:
			first, ok := u.a.first()
			got := u.a.takeFirst()
			if !ok || got != first || got != u.want[0] {
				t.Fatalf("step %d: took %+v (first said %+v), want %+v", step, got, first, u.want[0])
			}
			u.want = u.want[1:]
			u.now = max(u.now, got.at)
		}
		if u.a.Len() != len(u.want) {
			t.Fatalf("step %d: %d items, want %d", step, u.a.Len(), len(u.want))
		}
	}
	deepest := 0
	for _, u := range runs {
		d := 0
		for n := u.a.root; n != nil && !n.leaf(); n = n.kids[0] {
			d++
		}
		deepest = max(deepest, d)
	}
	if deepest < 2 {
		t.Errorf("the deepest tree has %d interior levels: the test reaches too few items", deepest)
	}
	for i, u := range runs {
		got := u.a.Values()
		if len(got) != len(u.want) {
			t.Fatalf("run %d: %d items, want %d", i, len(got), len(u.want))
		}
		for j := range got {
			if got[j] != u.want[j] {
				t.Fatalf("run %d: item %d is %+v, want %+v", i, j, got[j], u.want[j])
			}
		}
	}
}
