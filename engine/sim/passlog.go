package sim

import "slices"

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

// passBlock is how many passes a block of the log holds.
const passBlock = 256

// passLog is the shared log, grown in place: every world that shares it
// sees it grown.
type passLog struct {
	blocks []*[passBlock]Pass
	n      int // the passes written
}

// at returns pass i (0-based) of the log.
func (l *passLog) at(i int) *Pass { return &l.blocks[i/passBlock][i%passBlock] }

// push writes p at the end of the log.
func (l *passLog) push(p Pass) {
	if l.n%passBlock == 0 {
		l.blocks = append(l.blocks, new([passBlock]Pass))
	}
	*l.at(l.n) = p
	l.n++
}

// fork returns a log of its own holding the first n passes of l (l may be
// nil when n is 0): the full blocks are shared, the block n ends in is
// copied.
func (l *passLog) fork(n int) *passLog {
	out := &passLog{n: n}
	if n == 0 {
		return out
	}
	full := n / passBlock
	out.blocks = make([]*[passBlock]Pass, full, full+1)
	copy(out.blocks, l.blocks[:full])
	if n%passBlock != 0 {
		b := new([passBlock]Pass)
		copy(b[:n%passBlock], l.blocks[full][:n%passBlock])
		out.blocks = append(out.blocks, b)
	}
	return out
}

// appendPass adds p to w's passes and returns where it is.
func (w *world) appendPass(p Pass) *Pass {
	n := w.npass
	switch {
	case w.scratch != nil:
		*w.scratch = p // a try on a scratch copy (scratchCopy): kept apart
		return w.scratch
	case w.log != nil && n < w.log.n && passEqual(w.log.at(n), &p):
		// The pass the run recorded there.
	case w.log != nil && n == w.log.n:
		w.log.push(p) // at the end
	default:
		// The first pass, or a future that differs from the one recorded:
		// a log of its own.
		w.log = w.log.fork(n)
		w.log.push(p)
	}
	w.npass = n + 1
	return w.log.at(n)
}

// passesFrom returns a copy of the world's passes after the first from.
func (w *world) passesFrom(from int) []Pass {
	from = min(max(from, 0), w.npass)
	out := make([]Pass, w.npass-from)
	for i := range out {
		out[i] = *w.log.at(from + i)
	}
	return out
}
// passEqual reports whether two passes are the same in every field.
func passEqual(a, b *Pass) bool {
	return a.N == b.N && a.At == b.At && a.AtText == b.AtText && a.Controller == b.Controller && a.Host == b.Host &&
		a.Key == b.Key && a.Trigger == b.Trigger && a.Desired == b.Desired && a.Observed == b.Observed &&
		a.Difference == b.Difference && slices.Equal(a.Actions, b.Actions) && a.Outcome == b.Outcome &&
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
	shared, owned := w.shared, w.rtOwned
	d := w.clone()
	w.shared, w.rtOwned = shared, owned
	d.scratch = new(Pass)
	return d
}
