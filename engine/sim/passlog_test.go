package sim

import (
	"fmt"
	"reconcile/engine/queue"
	"slices"
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/store"
)

// testPass is a pass with values that differ from one n to the next.
func testPass(n int) Pass {
	return Pass{N: n, At: api.Time(n * 100), AtText: api.Time(n * 100).String(), Controller: "kubelet",
		Host: fmt.Sprintf("node-%d", n%3), Key: fmt.Sprintf("default/web-%d", n), Trigger: queue.Trigger{Cause: queue.Listed},
		Desired: controller.Statement{Words: "pod running"}, Observed: controller.Statement{Words: "pod pending"}, Difference: controller.Statement{Words: "not running"}, Actions: []controller.Action{controller.Do(controller.Set, fmt.Sprint("act ", n))},
		Outcome: "acted", Result: controller.Acted, Object: api.Ref{Kind: "Pod", Namespace: "default", Name: fmt.Sprintf("web-%d", n)}}
}

// TestPassLogBlocks: the log across its blocks, and the logs forked from
// it at a block's end, inside a block and at the start: each sees its
// passes, a fork's writes (passes and their actions) do not show in the
// log it left, and a fork shares the full blocks it starts with.
func TestPassLogBlocks(t *testing.T) {
	const total = 3*passBlock + 17
	forked := func(n int) Pass {
		p := testPass(n)
		p.Trigger, p.Actions = queue.Trigger{Cause: queue.Sync}, []controller.Action{controller.Do(controller.Apply, "forked"), controller.Do(controller.Set, fmt.Sprint(n))}
		return p
	}
	for _, at := range []int{0, 1, passBlock, passBlock + 5, 2 * passBlock, total} {
		var l *passLog
		l = l.fork(0)
		for n := 1; n <= total; n++ {
			p := testPass(n)
			l.push(l.tab.store(&p))
		}
		if len(l.blocks) != 4 || l.n != total {
			t.Fatalf("%d passes in %d blocks, want %d in 4", l.n, len(l.blocks), total)
		}
		f := l.fork(at)
		for n := at + 1; n <= at+passBlock+3; n++ {
			p := forked(n)
			f.push(f.tab.store(&p))
		}
		// The log goes on after the fork took its own way.
		for n := total + 1; n <= total+passBlock; n++ {
			p := testPass(n)
			l.push(l.tab.store(&p))
		}
		for i := range f.n {
			want := forked(i + 1)
			if i < at {
				want = testPass(i + 1)
			}
			if got := f.pass(i); !passEqual(&got, &want) {
				t.Fatalf("fork at %d: pass %d is\n%+v\nwant\n%+v", at, i+1, got, want)
			}
		}
		for i := range l.n {
			want := testPass(i + 1)
			if got := l.pass(i); !passEqual(&got, &want) {
				t.Fatalf("fork at %d: pass %d of the log it left is\n%+v\nwant\n%+v", at, i+1, got, want)
			}
		}
		if full := at / passBlock; full > 0 && f.blocks[full-1] != l.blocks[full-1] {
			t.Errorf("fork at %d copied its full blocks", at)
		}
	}
}

// TestStoredPass: a pass reads back from the log as it was given, whatever
// of it the stored form leaves to derive (the object from the key, the
// outcome from the result, the one change of the pass's own object) or
// keeps apart (lines, another object, an empty outcome with a result that
// has a word), and two stored passes are equal exactly when the passes are.
func TestStoredPass(t *testing.T) {
	base := testPass(7)
	other := api.Ref{Kind: "ReplicaSet", Namespace: "default", Name: "web-1"}
	variants := map[string]func(p *Pass){
		"as run":          func(p *Pass) {},
		"changed itself":  func(p *Pass) { p.Changed = []Change{{Ref: p.Object, Type: store.Modified}} },
		"created itself":  func(p *Pass) { p.Changed = []Change{{Ref: p.Object, Type: store.Added}} },
		"changed another": func(p *Pass) { p.Changed = []Change{{Ref: other, Type: store.Deleted}} },
		"changed two": func(p *Pass) {
			p.Changed = []Change{{Ref: p.Object, Type: store.Added}, {Ref: other, Type: store.Modified}}
		},
		"changed none, empty": func(p *Pass) { p.Changed = []Change{} },
		"no actions":          func(p *Pass) { p.Actions = nil },
		"empty actions":       func(p *Pass) { p.Actions = []controller.Action{} },
		"lines":               func(p *Pass) { p.Lines, p.Variant = []int{1, 2, 3}, "level" },
		"empty lines":         func(p *Pass) { p.Lines = []int{} },
		"object not the key":  func(p *Pass) { p.Object = other },
		"cluster-scoped key":  func(p *Pass) { p.Key, p.Object = "node-1", api.Ref{Kind: "Node", Name: "node-1"} },
		"in sync":             func(p *Pass) { p.Outcome, p.Result = "in sync", controller.InSync },
		"blocked":             func(p *Pass) { p.Outcome, p.Result = "0/3 nodes are available", controller.Blocked },
		"blocked, no why":     func(p *Pass) { p.Outcome, p.Result = "", controller.Blocked },
		"empty outcome":       func(p *Pass) { p.Outcome = "" },
		"error":               func(p *Pass) { p.Outcome, p.Result = "error: boom", controller.Failed },
		"crashed": func(p *Pass) {
			p.Outcome, p.Result = "crashed mid-pass after 1 action(s); restarts in 10s", controller.Crashed
		},
		"host": func(p *Pass) { p.Host = "node-9" },
		"at":   func(p *Pass) { p.At, p.AtText = 90*api.Second, (90 * api.Second).String() },
	}
	tab := newPassTable()
	names := make([]string, 0, len(variants))
	for name := range variants {
		names = append(names, name)
	}
	slices.Sort(names)
	stored := make([]storedPass, len(names))
	passes := make([]Pass, len(names))
	for i, name := range names {
		p := base
		p.Actions = slices.Clone(base.Actions)
		variants[name](&p)
		passes[i] = p
		q := p
		q.Actions = slices.Clone(p.Actions)
		stored[i] = tab.store(&q)
		got := stored[i].pass(p.N)
		if !passEqual(&got, &p) {
			t.Errorf("%s: read back as\n%+v\nwant\n%+v", name, got, p)
		}
	}
	for i := range names {
		for j := range names {
			if eq := stored[i].equal(&stored[j]); eq != passEqual(&passes[i], &passes[j]) {
				t.Errorf("%s and %s: stored equal %v, passes equal %v", names[i], names[j], eq, !eq)
			}
		}
	}
}
