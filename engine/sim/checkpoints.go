package sim

import "slices"

// The checkpoint policy (see the package doc for its figures).
//
// Passes differ hugely in cost: a kubelet pass on one node handles one item
// of the agenda and writes one object; the ReplicaSet pass that creates
// 500 pods writes 500, and the Next that leads to it first hands thousands
// of watch events to the informers. So checkpoints are spaced by work, not
// by passes: the world counts the items of the agenda it handled and the
// objects it wrote (world.work), a deterministic measure that follows the
// time a replay takes, and a checkpoint is taken after the pass that
// brings the work since the last one to checkpointWork. A seek replays
// from the last checkpoint at or before its pass, so it replays less than
// checkpointWork (or nothing, to a checkpoint's own pass, however much
// that pass did).
//
// Checkpoints thin out with age. The newest recentCheckpoints are kept as
// taken; an older one is dropped when the replay from the one before it to
// the pass before the one after it stays within thinWork, and so older
// seeks replay at most thinWork. A hard cap (maxCheckpoints) bounds their
// count: past it the older checkpoint whose neighbours are closest in work
// goes, whatever that costs a seek into its span.
const (
	// writeWork is what an object written weighs against an item of the
	// agenda handled: a write is a pass's store call, its watch fan-out
	// (about 13 deliveries for a pod, one item) and the pass around it.
	// Measured on scale-10000, when each delivery was an item of its own:
	// an item handled costs ~8 µs natively, a pass that writes one object
	// ~270 µs.
	writeWork = 32
	// checkpointWork is the work between two checkpoints near the present.
	checkpointWork = 1024
	// thinWork is the most work a seek replays into the older past.
	thinWork = 2048
	// recentCheckpoints are the newest ones, never thinned.
	recentCheckpoints = 64
	// maxCheckpoints caps the checkpoints of a run (the start included).
	maxCheckpoints = 512
)

// work is the replay cost of the world's past so far, in items of the
// agenda handled (deliveries, passes, timers; a watch event's deliveries,
// one item, count one per process they reach) plus writeWork per object
// written.
func (w *world) work() uint64 { return w.handled + writeWork*w.writes }

// takeCheckpoint keeps a copy of the world after pass n when the work
// since the last checkpoint reaches checkpointWork, then thins.
func (s *Sim) takeCheckpoint(n int) {
	work := s.w.work()
	before := s.w.passEnd
	s.w.passEnd = work
	last := &s.checkpoints[len(s.checkpoints)-1]
	if s.noCheckpoints || n <= last.pass || work-last.work < checkpointWork {
		return
	}
	s.checkpoints = append(s.checkpoints, checkpoint{pass: n, w: s.w.clone(), work: work, before: before})
	s.thin()
}

// span is the most work a seek replays from checkpoint i-1 when checkpoint
// i is gone: up to the pass before checkpoint i+1.
func (s *Sim) span(i int) uint64 { return s.checkpoints[i+1].before - s.checkpoints[i-1].work }

// thin drops older checkpoints that their neighbours cover within thinWork
// and then, over maxCheckpoints, the one whose neighbours are closest. A
// slice shared with copies of the run (Copy) is rebuilt, not changed in
// place; a run's own loses the checkpoint in place (at scale, a rebuilt
// slice at every checkpoint taken was 8 MB of garbage a converge).
func (s *Sim) thin() {
	old := len(s.checkpoints) - recentCheckpoints // checkpoints [1, old) may go
	if old < 2 {
		return
	}
	// The newest older checkpoint is the one that just aged: try it
	// against its older neighbour, once.
	drop := -1
	if i := old - 1; i > 1 && s.span(i-1) <= thinWork {
		drop = i - 1
	}
	if drop < 0 && len(s.checkpoints) > maxCheckpoints {
		best := uint64(0)
		for i := 1; i < old; i++ {
			if sp := s.span(i); drop < 0 || sp < best {
				drop, best = i, sp
			}
		}
	}
	if drop < 0 {
		return
	}
	if !s.checkpointsShared {
		s.checkpoints = slices.Delete(s.checkpoints, drop, drop+1)
		return
	}
	out := make([]checkpoint, 0, len(s.checkpoints))
	out = append(out, s.checkpoints[:drop]...)
	s.checkpoints = append(out, s.checkpoints[drop+1:]...)
	s.checkpointsShared = false
}
