package session

import (
	"math"

	"reconcile/engine/api"
	"reconcile/engine/sim"
)

// startupEnd is the end of a run's start-up, once looked for: the first
// pass after which the world has converged, before any input is given.
type startupEnd struct {
	looked, found bool
	n             int
}

// InStartup reports whether the run is still in its start-up: before the
// first moment its world has converged, and before the first input (a
// step of the config, or the learner's). A page offers to skip it then.
// A run whose first input comes before its world converges has no
// start-up to skip (its lesson is the start-up).
func (s *Session) InStartup() bool { return s.inStartup(true) }

// inStartup is InStartup; without search, it does not run the start-up
// again to find its end, and reports false while it is not known.
func (s *Session) inStartup(search bool) bool {
	n := s.N()
	stepAt, bound := firstInput(s.run)
	if n >= maxEventPasses || n >= bound || s.run.Now() >= stepAt || !search && !s.startup.looked {
		return false
	}
	end, found := s.startupPass()
	return found && n < end
}

// SkipStartup moves, when the run is in its start-up, to the first moment
// its world has converged (before the first input); it reports whether it
// moved.
func (s *Session) SkipStartup() bool {
	if !s.InStartup() {
		return false
	}
	end, _ := s.startupPass()
	return s.Seek(end) == nil
}

// startupPass returns the pass that ends the start-up, looking for it the
// first time on a second run of the same past.
func (s *Session) startupPass() (int, bool) {
	if !s.startup.looked {
		s.startup = findStartup(s.run)
	}
	return s.startup.n, s.startup.found
}

// findStartup runs run's past again from the start, up to its first
// input, and returns the first pass after which the world has converged.
func findStartup(run *sim.Sim) startupEnd {
	stepAt, bound := firstInput(run)
	if bound == 0 || stepAt <= 0 {
		return startupEnd{looked: true}
	}
	f, err := run.Fork(0)
	if err != nil {
		return startupEnd{looked: true}
	}
	for {
		p, ok := f.Next()
		if end := startupAfter(f, p, ok, stepAt, bound); end.looked {
			return end
		}
	}
}

// startupAfter looks at a run that has just run pass p (ok false: the run
// ended) in search of the end of its start-up, given when its first input
// comes (firstInput). It returns the end once the search is over: found
// after p, or given up (the first input or maxEventPasses reached, or a big
// world: more than bigWorldObjects pods, or a tenth as many nodes, whose
// start-up is the lesson).
func startupAfter(f *sim.Sim, p sim.Pass, ok bool, stepAt api.Time, bound int) startupEnd {
	st := f.Store()
	switch {
	case !ok || p.At >= stepAt || p.N >= bound || p.N >= maxEventPasses,
		bigWorld(st):
		return startupEnd{looked: true}
	case wrote(p):
		// A pass that wrote something leaves a watch event on its way: the
		// world is still moving.
		return startupEnd{}
	}
	if converged, _ := f.Converged(); converged {
		return startupEnd{looked: true, found: true, n: p.N}
	}
	return startupEnd{}
}

// noteStartup has a look-ahead f that began at pass from learn the end of
// the start-up on its way, after its pass p (ok false: the run ended), when
// it began at the start of the run: so the start-up is known without
// running it again.
func (s *Session) noteStartup(f *sim.Sim, from int, p sim.Pass, ok bool) {
	if from != 0 || s.startup.looked {
		return
	}
	stepAt, bound := firstInput(f)
	if end := startupAfter(f, p, ok, stepAt, bound); end.looked {
		s.startup = end
	}
}

// wrote reports whether a pass stored anything but events.
func wrote(p sim.Pass) bool {
	for _, c := range p.Changed {
		if c.Kind != "Event" {
			return true
		}
	}
	return false
}

// firstInput returns when the run's first input is given: the time of its
// earliest timed step, and the earliest pass an input is given right after
// (a step given after a pass, or the learner's first input). Either is the
// largest value when there is none.
func firstInput(run *sim.Sim) (api.Time, int) {
	at, pass := api.Time(math.MaxInt64), math.MaxInt
	for _, st := range run.Config().Steps {
		switch {
		case st.Input == nil:
		case st.AfterPass > 0:
			pass = min(pass, st.AfterPass)
		default:
			at = min(at, st.At)
		}
	}
	for _, g := range run.Inputs() {
		pass = min(pass, g.After)
	}
	return at, pass
}
