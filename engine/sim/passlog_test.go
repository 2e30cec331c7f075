package sim

import (
	"fmt"
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/controller"
)

// testPass is a pass with values that differ from one n to the next.
func testPass(n int) Pass {
	return Pass{N: n, At: api.Time(n * 100), AtText: api.Time(n * 100).String(), Controller: "kubelet",
		Host: fmt.Sprintf("node-%d", n%3), Key: fmt.Sprintf("default/web-%d", n), Trigger: "initial list",
		Desired: "pod running", Observed: "pod pending", Difference: "not running", Actions: []string{fmt.Sprint("act ", n)},
		Outcome: "acted", Result: controller.Acted, Object: api.Ref{Kind: "Pod", Namespace: "default", Name: fmt.Sprintf("web-%d", n)}}
}

// TestPassLogBlocks: the log across its blocks, and the logs forked from
// it at a block's end, inside a block and at the start: each sees its
// passes, a fork's writes do not show in the log it left, and a fork
// shares the full blocks it starts with.
func TestPassLogBlocks(t *testing.T) {
	var l *passLog
	l = l.fork(0)
	const total = 3*passBlock + 17
	for n := 1; n <= total; n++ {
		l.push(testPass(n))
	}
	if len(l.blocks) != 4 || l.n != total {
		t.Fatalf("%d passes in %d blocks, want %d in 4", l.n, len(l.blocks), total)
	}
	for _, at := range []int{0, 1, passBlock, passBlock + 5, 2 * passBlock, total} {
		f := l.fork(at)
		for n := at + 1; n <= at+passBlock+3; n++ {
			p := testPass(n)
			p.Trigger = "forked"
			f.push(p)
		}
		for i := range at {
			want := testPass(i + 1)
			if !passEqual(f.at(i), &want) {
				t.Fatalf("fork at %d: pass %d differs from the log's", at, i+1)
			}
		}
		if got := f.at(at).Trigger; got != "forked" {
			t.Errorf("fork at %d: pass %d has trigger %q, want the fork's", at, at+1, got)
		}
		for i := range total {
			want := testPass(i + 1)
			if !passEqual(l.at(i), &want) {
				t.Fatalf("fork at %d wrote pass %d of the log it left", at, i+1)
			}
		}
		if full := at / passBlock; full > 0 && f.blocks[full-1] != l.blocks[full-1] {
			t.Errorf("fork at %d copied its full blocks", at)
		}
	}
}
