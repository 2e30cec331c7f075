package queue

import (
	"fmt"
	"testing"

	"reconcile/engine/store"
)

// drain takes every waiting item and returns their keys and event counts.
func drain(q *Queue) []string {
	var out []string
	for {
		it, ok := q.Get()
		if !ok {
			return out
		}
		out = append(out, fmt.Sprintf("%s×%d", it.Key, it.Events))
	}
}

// TestAddCoalesces checks that a key added while it waits is counted on
// its one item, in both a small queue (found by looking) and a large one
// (indexed), and that order is the order keys first came.
func TestAddCoalesces(t *testing.T) {
	for _, n := range []int{3, indexAt - 1, indexAt, 3 * indexAt} {
		var q Queue
		for i := range n {
			if !q.Add(fmt.Sprintf("k%03d", i), Trigger{}) {
				t.Fatalf("n=%d: k%03d not newly queued", n, i)
			}
		}
		for i := 0; i < n; i += 2 {
			if q.Add(fmt.Sprintf("k%03d", i), Trigger{Cause: Sync}) {
				t.Fatalf("n=%d: k%03d queued twice", n, i)
			}
		}
		if q.Len() != n {
			t.Fatalf("n=%d: Len %d", n, q.Len())
		}
		got := drain(&q)
		for i, g := range got {
			want := fmt.Sprintf("k%03d×%d", i, 1+(i+1)%2)
			if g != want {
				t.Fatalf("n=%d: item %d is %s, want %s", n, i, g, want)
			}
		}
		if len(got) != n {
			t.Fatalf("n=%d: drained %d", n, len(got))
		}
		// Empty again: a key is new.
		if !q.Add("k000", Trigger{}) || q.Len() != 1 {
			t.Fatalf("n=%d: after draining, k000 not queued anew", n)
		}
	}
}

// TestGetThenAdd checks that a key taken is queued anew, after the
// queue dropped taken items (positions counted from the first item).
func TestGetThenAdd(t *testing.T) {
	var q Queue
	const n = 3000
	for i := range n {
		q.Add(fmt.Sprintf("k%04d", i), Trigger{})
	}
	for i := range 2000 { // past the drop of taken items
		it, _ := q.Get()
		if it.Key != fmt.Sprintf("k%04d", i) {
			t.Fatalf("Get %d: %s", i, it.Key)
		}
	}
	if q.Add("k2500", Trigger{Cause: Sync}) {
		t.Fatal("k2500 waits: queued twice")
	}
	if !q.Add("k0005", Trigger{Cause: Sync}) {
		t.Fatal("k0005 was taken: not queued anew")
	}
	it, _ := q.Get()
	if it.Key != "k2000" {
		t.Fatalf("next is %s, want k2000", it.Key)
	}
	got := drain(&q)
	if len(got) != 1000 || got[499] != "k2500×2" || got[999] != "k0005×1" {
		t.Fatalf("drained %d: [499]=%s [999]=%s", len(got), got[499], got[len(got)-1])
	}
}

// TestCloneApart checks that a clone and its source change apart, small
// or indexed, with events and failures.
func TestCloneApart(t *testing.T) {
	for _, n := range []int{2, 2 * indexAt} {
		var q Queue
		for i := range n {
			q.Add(fmt.Sprintf("k%03d", i), Trigger{})
		}
		q.AddEvent(store.WatchEvent{Type: store.Added}, Trigger{})
		q.Get() // k000 taken
		q.Failed("k001")
		c := q.Clone()
		q.Add("k001", Trigger{Cause: Sync})
		q.Add("new", Trigger{})
		q.Failed("k001")
		c.Add("k000", Trigger{Cause: Sync})
		c.Forget("k001")
		if q.Len() != n+1 || c.Len() != n+1 {
			t.Fatalf("n=%d: Len source %d clone %d, want %d each", n, q.Len(), c.Len(), n+1)
		}
		if d := q.Failed("k001"); d != 4*BackOffBase {
			t.Fatalf("n=%d: source's third failure waits %v", n, d)
		}
		if d := c.Failed("k001"); d != BackOffBase {
			t.Fatalf("n=%d: clone forgot the failure, first one waits %v", n, d)
		}
		qs, cs := drain(&q), drain(&c)
		if qs[0] != "k001×2" || qs[len(qs)-1] != "new×1" || qs[len(qs)-2] != "×1" {
			t.Fatalf("n=%d: source %v", n, qs)
		}
		if cs[0] != "k001×1" || cs[len(cs)-1] != "k000×1" || cs[len(cs)-2] != "×1" {
			t.Fatalf("n=%d: clone %v", n, cs)
		}
	}
}

// TestClonesShareApart checks that clones sharing their source's items
// (two of one source, the source itself) each append, count and take
// their own: none writes the array they share.
func TestClonesShareApart(t *testing.T) {
	var q Queue
	for i := range 5 {
		q.Add(fmt.Sprintf("k%d", i), Trigger{})
	}
	q.Get() // k0 taken; room left past the items
	a, b := q.Clone(), q.Clone()
	a.Add("a", Trigger{})
	b.Add("b", Trigger{})
	q.Add("q", Trigger{})
	a.Add("k1", Trigger{})
	b.Get()
	b.Add("k2", Trigger{})
	q.Add("k4", Trigger{})
	qs, as, bs := drain(&q), drain(&a), drain(&b)
	if want := "[k1×1 k2×1 k3×1 k4×2 q×1]"; fmt.Sprint(qs) != want {
		t.Errorf("source %v, want %s", qs, want)
	}
	if want := "[k1×2 k2×1 k3×1 k4×1 a×1]"; fmt.Sprint(as) != want {
		t.Errorf("first clone %v, want %s", as, want)
	}
	if want := "[k2×2 k3×1 k4×1 b×1]"; fmt.Sprint(bs) != want {
		t.Errorf("second clone %v, want %s", bs, want)
	}
}
