package sim

import (
	"slices"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/queue"
	"reconcile/engine/store"
)

// The passes of a run are one log that the worlds of the run share: the
// live world, its checkpoints, the world a seek restores and the copies of
// the run. A world sees the first world.npass passes of it. The log is
// append-only: a pass is written at the index nobody has written yet (the
// end of the log) and never changed after. A world behind the end of the
// log (restored from a checkpoint) that runs a pass equal to the one the
// log holds next takes it as its own and writes nothing: a seek replays
// the passes the run already recorded, so it copies none of them (copying
// the 10,000 passes before a checkpoint on every seek cost more than the
// replay). A world whose pass differs (its inputs differ after a Fork or
// an Inject) gets a log of its own, which shares the full blocks of the
// one it leaves.
//
// The log is kept in blocks of passBlock passes that are never
// reallocated: growing it allocates a block and copies nothing, and no
// outgrown array stays alive because a checkpoint taken before the growth
// still points into it (at scale-10000 the arrays a slice view left
// behind held four times the final one). A world holds the log and its
// count, not a view.
//
// A pass is stored compact (storedPass) and read back as the Pass it was:
// what a pass's place or other fields give is not stored, what is one per
// controller process is one passHead, and the strings that thousands of
// passes repeat ("1 container(s) running and ready", "requeue: container
// timer after 2s", a pod's key) are kept once (passTable.intern).

// passBlock is how many passes a block of the log holds.
const passBlock = 256

// passLog is the shared log, grown in place: every world that shares it
// sees it grown.
type passLog struct {
	blocks []*[passBlock]storedPass
	n      int        // the passes written
	tab    *passTable // shared with the logs forked from this one
}

// storedPass is a pass as the log keeps it (128 bytes; a Pass is 408).
// Not stored: N (its place in the log), AtText (At's text), Object (Key
// with the kind, unless the controller names another object), Outcome when
// it is only Result's word, and a Changed that is the one write of the
// pass's own object (self); what few passes have is in rare.
type storedPass struct {
	at   api.Time
	head *passHead
	key  string
	// trigger is the pass's trigger, interned (passTable.trigger);
	// desired, observed and difference are its words, interned.
	trigger                       *queue.Trigger
	desired, observed, difference string
	// facts are what the three state (Statement.Fact), interned; nil when
	// they state nothing beyond their words.
	facts   *[3]controller.Fact
	actions []controller.Action
	rare    *passRare
	result  controller.Outcome
	// self is 1 + the index in changeTypes of the one change of a pass
	// that wrote only its own object; 0 otherwise.
	self uint8
}

// passHead is what every pass of one controller process on one kind of
// object says alike.
type passHead struct{ controller, host, variant, kind string }

// passRare holds what few passes have: pseudocode lines (the lesson
// controllers), an object the key does not give, an outcome that is not
// only Result's word (an error, why a pass is blocked, a crash), changes
// other than one of the pass's own object (at scale-10000, 22 passes of
// 35,228 have any of these but lines).
type passRare struct {
	lines                            []int
	object                           api.Ref
	outcome                          string
	err                              string // Pass.Error
	changed                          []Change
	hasObject, hasOutcome, hasChange bool
}

// changeTypes are the watch event types a Change carries.
var changeTypes = [...]string{store.Added, store.Modified, store.Deleted}

// internSlots is the size of passTable's string cache.
const internSlots = 1 << 14

// passTable is what the logs of a run and its forks share: the heads, and
// a cache of strings the passes said. The cache is direct-mapped and
// bounded: a string takes the slot its hash names, and a string met again
// while it holds the slot is kept once. It changes which copy of a string
// a pass keeps, never its value.
type passTable struct {
	heads    map[passHead]*passHead // lookup only
	strings  [internSlots]string
	triggers [internSlots]*queue.Trigger
	facts    [internSlots]*[3]controller.Fact
}

// fact returns a pointer to f, or to equal facts met before (direct-mapped,
// as intern); nil when they are all zero.
func (t *passTable) fact(f [3]controller.Fact) *[3]controller.Fact {
	if f == ([3]controller.Fact{}) {
		return nil
	}
	h := uint32(2166136261)
	for _, x := range f {
		h = (h ^ uint32(x.Is) ^ uint32(x.N)<<8 ^ uint32(x.D)) * 16777619
		for i := 0; i < len(x.Name); i++ {
			h = (h ^ uint32(x.Name[i])) * 16777619
		}
	}
	slot := &t.facts[h%internSlots]
	if *slot != nil && **slot == f {
		return *slot
	}
	*slot = new([3]controller.Fact) // on a miss only: &f would move f to the heap at every call
	**slot = f
	return *slot
}

func newPassTable() *passTable { return &passTable{heads: map[passHead]*passHead{}} }

// intern returns s, or an equal string met before.
func (t *passTable) intern(s string) string {
	if s == "" {
		return s
	}
	h := uint32(2166136261) // FNV-1a
	for i := 0; i < len(s); i++ {
		h = (h ^ uint32(s[i])) * 16777619
	}
	slot := &t.strings[h%internSlots]
	if *slot == s {
		return *slot
	}
	*slot = s
	return s
}

// trigger returns a pointer to tr, or to an equal trigger met before
// (direct-mapped, as intern).
func (t *passTable) trigger(tr queue.Trigger) *queue.Trigger {
	h := uint32(2166136261) ^ uint32(tr.Cause)
	for _, s := range [...]string{tr.Object.Kind, tr.Object.Namespace, tr.Object.Name, tr.Event, tr.Reason} {
		for i := 0; i < len(s); i++ {
			h = (h ^ uint32(s[i])) * 16777619
		}
		h = (h ^ 0xff) * 16777619
	}
	h = (h ^ uint32(tr.After) ^ uint32(tr.More)<<16) * 16777619
	slot := &t.triggers[h%internSlots]
	if *slot != nil && **slot == tr {
		return *slot
	}
	tr.Object.Name, tr.Reason = t.intern(tr.Object.Name), t.intern(tr.Reason)
	*slot = new(queue.Trigger) // on a miss only, as fact
	**slot = tr
	return *slot
}

// head returns the one passHead equal to h.
func (t *passTable) head(h passHead) *passHead {
	if p, ok := t.heads[h]; ok {
		return p
	}
	p := new(passHead)
	*p = h
	t.heads[h] = p
	return p
}

// objectOf is the object a pass on key of kind reconciles, unless its
// controller says otherwise (controller.ObjectOf without an Objecter).
func objectOf(kind, key string) api.Ref {
	if ns, name, ok := strings.Cut(key, "/"); ok {
		return api.Ref{Kind: kind, Namespace: ns, Name: name}
	}
	return api.Ref{Kind: kind, Name: key}
}

// store returns p as the log keeps it. Its strings are interned in place
// (p's actions too): their values stay. p.AtText must be p.At's text and
// p.N its place, as runPass makes them.
func (t *passTable) store(p *Pass) storedPass {
	for i := range p.Actions {
		a := &p.Actions[i]
		a.Name, a.Rest, a.Tail, a.Detail = t.intern(a.Name), t.intern(a.Rest), t.intern(a.Tail), t.intern(a.Detail)
	}
	sp := storedPass{at: p.At, key: t.intern(p.Key), trigger: t.trigger(p.Trigger), desired: t.intern(p.Desired.Words),
		observed: t.intern(p.Observed.Words), difference: t.intern(p.Difference.Words),
		facts: t.fact([3]controller.Fact{p.Desired.Fact, p.Observed.Fact, p.Difference.Fact}), actions: p.Actions, result: p.Result}
	sp.head = t.head(passHead{controller: p.Controller, host: p.Host, variant: p.Variant, kind: p.Object.Kind})
	var rare passRare
	if p.Object != objectOf(p.Object.Kind, p.Key) {
		rare.object, rare.hasObject = p.Object, true
	}
	if p.Outcome != outcomeText(p.Result, "") {
		rare.outcome, rare.hasOutcome = t.intern(p.Outcome), true
		rare.err = p.Error
	}
	if p.Changed != nil {
		i := -1
		if len(p.Changed) == 1 && p.Changed[0].Ref == p.Object {
			i = slices.Index(changeTypes[:], p.Changed[0].Type)
		}
		if i >= 0 {
			sp.self = uint8(i + 1)
		} else {
			rare.changed, rare.hasChange = p.Changed, true
		}
	}
	rare.lines = p.Lines
	if rare.lines != nil || rare.hasObject || rare.hasOutcome || rare.hasChange {
		sp.rare = new(passRare)
		*sp.rare = rare
	}
	return sp
}

// pass returns the pass sp keeps, the nth of its log.
func (sp *storedPass) pass(n int) Pass {
	h := sp.head
	p := Pass{N: n, At: sp.at, AtText: sp.at.String(), Controller: h.controller, Host: h.host, Key: sp.key,
		Trigger: *sp.trigger, Desired: controller.Statement{Words: sp.desired}, Observed: controller.Statement{Words: sp.observed},
		Difference: controller.Statement{Words: sp.difference},
		Actions:    sp.actions, Outcome: outcomeText(sp.result, ""), Variant: h.variant, Result: sp.result}
	if r := sp.rare; r != nil {
		p.Lines = r.lines
		if r.hasObject {
			p.Object = r.object
		}
		if r.hasOutcome {
			p.Outcome, p.Error = r.outcome, r.err
		}
		if r.hasChange {
			p.Changed = r.changed
		}
	}
	if f := sp.facts; f != nil {
		p.Desired.Fact, p.Observed.Fact, p.Difference.Fact = f[0], f[1], f[2]
	}
	if sp.rare == nil || !sp.rare.hasObject {
		p.Object = objectOf(h.kind, sp.key)
	}
	if sp.self > 0 {
		p.Changed = []Change{{Ref: p.Object, Type: changeTypes[sp.self-1]}}
	}
	return p
}

// equal reports whether a and b keep the same pass (the stored forms of
// two passes are equal when the passes are).
func (a *storedPass) equal(b *storedPass) bool {
	if a.at != b.at || a.head != b.head || a.key != b.key || *a.trigger != *b.trigger || a.desired != b.desired ||
		a.observed != b.observed || a.difference != b.difference || !factsEqual(a.facts, b.facts) || a.result != b.result || a.self != b.self ||
		!slices.Equal(a.actions, b.actions) || (a.actions == nil) != (b.actions == nil) ||
		(a.rare == nil) != (b.rare == nil) {
		return false
	}
	if a.rare == nil {
		return true
	}
	r, s := a.rare, b.rare
	return r.object == s.object && r.hasObject == s.hasObject && r.outcome == s.outcome && r.err == s.err && r.hasOutcome == s.hasOutcome &&
		slices.Equal(r.lines, s.lines) && (r.lines == nil) == (s.lines == nil) &&
		slices.Equal(r.changed, s.changed) && r.hasChange == s.hasChange && (r.changed == nil) == (s.changed == nil)
}

// at returns pass i (0-based) of the log as the log keeps it.
func (l *passLog) at(i int) *storedPass { return &l.blocks[i/passBlock][i%passBlock] }

// pass returns pass i (0-based) of the log.
func (l *passLog) pass(i int) Pass { return l.at(i).pass(i + 1) }

// push writes sp at the end of the log.
func (l *passLog) push(sp storedPass) {
	if l.n%passBlock == 0 {
		l.blocks = append(l.blocks, new([passBlock]storedPass))
	}
	*l.at(l.n) = sp
	l.n++
}

// fork returns a log of its own holding the first n passes of l (l may be
// nil when n is 0: a new log): the full blocks are shared, the block n
// ends in is copied.
func (l *passLog) fork(n int) *passLog {
	if l == nil {
		return &passLog{tab: newPassTable()}
	}
	out := &passLog{n: n, tab: l.tab}
	full := n / passBlock
	out.blocks = make([]*[passBlock]storedPass, full, full+1)
	copy(out.blocks, l.blocks[:full])
	if n%passBlock != 0 {
		b := new([passBlock]storedPass)
		copy(b[:n%passBlock], l.blocks[full][:n%passBlock])
		out.blocks = append(out.blocks, b)
	}
	return out
}

// appendPass adds p to w's passes and returns it (valid until the next
// pass of w).
func (w *world) appendPass(p Pass) *Pass {
	w.last = p
	if w.scratch {
		return &w.last // a try on a scratch copy (scratchCopy): kept apart
	}
	n := w.npass
	if w.log == nil {
		w.log = w.log.fork(0)
	}
	sp := w.log.tab.store(&p)
	switch {
	case n < w.log.n && w.log.at(n).equal(&sp):
		// The pass the run recorded there.
	case n == w.log.n:
		w.log.push(sp) // at the end
	default:
		// A future that differs from the one recorded: a log of its own.
		w.log = w.log.fork(n)
		w.log.push(sp)
	}
	w.npass = n + 1
	return &w.last
}

func factsEqual(a, b *[3]controller.Fact) bool {
	return a == b || a != nil && b != nil && *a == *b
}

// passesFrom returns a copy of the world's passes after the first from.
func (w *world) passesFrom(from int) []Pass {
	from = min(max(from, 0), w.npass)
	out := make([]Pass, w.npass-from)
	for i := range out {
		out[i] = w.log.pass(from + i)
	}
	return out
}

// passEqual reports whether two passes are the same in every field.
func passEqual(a, b *Pass) bool {
	return a.N == b.N && a.At == b.At && a.AtText == b.AtText && a.Controller == b.Controller && a.Host == b.Host &&
		a.Key == b.Key && a.Trigger == b.Trigger && a.Desired == b.Desired && a.Observed == b.Observed &&
		a.Difference == b.Difference && slices.Equal(a.Actions, b.Actions) && a.Outcome == b.Outcome && a.Error == b.Error &&
		slices.Equal(a.Lines, b.Lines) && a.Variant == b.Variant && a.Object == b.Object && a.Result == b.Result &&
		slices.Equal(a.Changed, b.Changed) && (a.Actions == nil) == (b.Actions == nil) &&
		(a.Lines == nil) == (b.Lines == nil) && (a.Changed == nil) == (b.Changed == nil)
}

// scratchCopy returns a copy of w to try a pass on and throw away (Converged's
// and Quiet's requeue checks). Unlike clone, it leaves w as it was: w goes
// on changing its own processes and runtimes in place, which is safe
// because the copy is dropped before w changes (the copy copies them
// before it writes), and its passes go nowhere, so a try does not copy
// the run's passes.
func (w *world) scratchCopy() *world {
	d := w.copyApart()
	d.scratch = true
	return d
}

// PassTimes calls f with the number, time and result of each pass of the
// run after the first from, in order, without making the passes: a
// reader that needs only these (the session's timeline) reads 30,000 of
// them at no more cost than the loop.
func (s *Sim) PassTimes(from int, f func(n int, at api.Time, r controller.Outcome)) {
	w := s.w
	for i := min(max(from, 0), w.npass); i < w.npass; i++ {
		sp := w.log.at(i)
		f(i+1, sp.at, sp.result)
	}
}
