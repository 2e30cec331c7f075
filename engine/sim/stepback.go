package sim

// Stepping back. A learner who steps back one pass (Previous pass) steps
// back again: a seek back restores the checkpoint at or before its pass and
// replays the passes after it, and the next step back would replay the same
// passes again, less one. So a seek back that replays keeps the worlds of
// the stepBackWorlds passes just before its own, taken as checkpoints are
// (after the pass, before the inputs given after it), and the seeks back
// that follow restore one of them: nothing to replay.
//
// They describe the run as long as it keeps its inputs: an input given at
// a pass drops those after it, as it drops the checkpoints after it. A
// copy or a fork of the run starts without them, and so does a run that
// keeps no checkpoints (DropCheckpoints).

// stepBackWorlds is how many worlds a seek back keeps.
const stepBackWorlds = 16

// keepBack keeps the world after pass n when a seek back replaying to
// pass s.backTo is within stepBackWorlds passes of it.
func (s *Sim) keepBack(n int) {
	if s.backTo == 0 || n >= s.backTo || n < s.backTo-stepBackWorlds {
		return
	}
	s.back = append(s.back, checkpoint{pass: n, w: s.w.clone()})
}

// startOf is what a seek to pass n starts from: the latest of the
// checkpoint at or before n and the worlds kept for stepping back.
func (s *Sim) startOf(n int) checkpoint {
	start := s.checkpoints[s.nearest(n)]
	for _, b := range s.back {
		if b.pass <= n && b.pass > start.pass {
			start = b
		}
	}
	return start
}

// keepBackFrom starts the worlds kept for a seek back to pass n that
// replays from start: of those kept so far, the ones within
// stepBackWorlds passes before n and not after start (the replay keeps
// the passes after it), in a slice of their own.
func (s *Sim) keepBackFrom(start checkpoint, n int) {
	var kept []checkpoint
	for _, b := range s.back {
		if b.pass >= n-stepBackWorlds && b.pass <= start.pass {
			kept = append(kept, b)
		}
	}
	s.back, s.backTo = kept, n
}

// dropBackAfter forgets the worlds kept after pass n.
func (s *Sim) dropBackAfter(n int) {
	var kept []checkpoint
	for _, b := range s.back {
		if b.pass <= n {
			kept = append(kept, b)
		}
	}
	s.back = kept
}
