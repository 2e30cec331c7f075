package session

import (
	"sort"

	"reconcile/engine/sim"
)

// Attempt is an input given to a copy of the session's run: what it
// printed and the world it made, to look at before Commit makes the copy
// the session's run. Not committing it changes nothing.
type Attempt struct {
	// Output is what the input printed.
	Output sim.Output
	ses    *Session
	run    *sim.Sim
	here   int
	beyond bool
	// forked says the copy forgot inputs recorded after here: it was
	// replayed, not copied.
	forked bool
}

// Commit makes the attempt's run the session's: the input is given.
func (a *Attempt) Commit() {
	s := a.ses
	// The judge watching the run sees the input given, unless it was
	// given in the past (the judge catches up then).
	c := s.following()
	s.run = a.run
	if c != nil && !a.forked {
		c.live = s.run
		c.see(s.run)
	}
	s.ahead = nil // the run's future is no longer the look-ahead's
	s.known, s.final = a.here, false
	// The passes after the input are not those met before it.
	s.times = s.times[:min(len(s.times), a.here)]
	s.crashes = s.crashes[:sort.SearchInts(s.crashes, a.here+1)]
	s.roundKnown, s.startup = false, startupEnd{}
	if a.here == 0 {
		s.first = nil // an input before the first pass: another first pass
	}
	if a.forked {
		s.jumps++ // a replayed past: the same world, other stored versions
	}
	s.learn(s.run)
	// Looking ahead on a run whose clock went on past its pass (inputs or
	// waiting with no pass, as at a failure's symptom) is left for later:
	// the timeline grows as the run goes on.
	if !a.beyond {
		s.LookAhead()
	}
}

// Try gives an input, now, to a copy of the run. An input given in the
// past (the learner stepped back, then acted) starts a new future: the
// copy forgets the inputs recorded after the current pass, as a fork of
// the run does.
func (s *Session) Try(in sim.Input) (*Attempt, error) {
	here := s.run.PassCount()
	var run *sim.Sim
	forked := false
	for _, old := range s.run.Inputs() {
		if old.After > here {
			f, err := s.run.Fork(here)
			if err != nil {
				return nil, err
			}
			run, forked = f, true
			break
		}
	}
	if run == nil {
		run = s.run.Copy()
	}
	beyond := s.BeyondLastPass() > 0
	out, err := run.Inject(in)
	if err != nil {
		return nil, err
	}
	return &Attempt{Output: out, ses: s, run: run, here: here, beyond: beyond, forked: forked}, nil
}
