package sim

import "slices"

// The passes of a run are one array that the worlds of the run share: the
// live world, its checkpoints, the world a seek restores and the copies of
// the run. A world sees the first len(world.passes) of it. The array is
// append-only: a pass is written at the index nobody has written yet
// (the end of passLog.arr) and never changed after, so what a caller holds of
// Passes stays as it was. A world behind the end of the array (restored
// from a checkpoint) that runs a pass equal to the one the array holds
// next takes it as its own and writes nothing: a seek replays the passes
// the run already recorded, so it copies none of them (copying the
// 10,000 passes before a checkpoint on every seek cost more than the
// replay). A world whose pass differs (its inputs differ after a Fork or
// an Inject) gets an array of its own, a copy of what it sees.

// passLog is the shared array, grown in place: every world that shares it
// sees it grown.
type passLog struct{ arr []Pass }

// appendPass adds p to w's passes and returns where it is.
func (w *world) appendPass(p Pass) *Pass {
	n := len(w.passes)
	switch {
	case w.scratch != nil:
		*w.scratch = p // a try on a scratch copy (scratchCopy): kept apart
		return w.scratch
	case w.log != nil && n < len(w.log.arr) && passEqual(&w.log.arr[n], &p):
		// The pass the run recorded there.
	case w.log != nil && n == len(w.log.arr):
		w.log.arr = append(w.log.arr, p) // at the end (a new array when full)
	default:
		// The first pass, or a future that differs from the one recorded:
		// an array of its own.
		w.log = &passLog{arr: append(slices.Clip(w.passes), p)}
	}
	w.passes = w.log.arr[:n+1]
	return &w.passes[n]
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
