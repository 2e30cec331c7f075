package session

import (
	"time"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/sim"
)

// BeginLookAhead starts a look-ahead from the current pass on a copy of the
// run: LookAheadSome runs it a slice at a time, within the limits of
// LookAhead, while the run itself stays where the learner is. The run is
// deterministic, so the copy meets the passes the run will meet, until an
// input is given (which stops the look-ahead).
func (s *Session) BeginLookAhead() {
	s.ahead, s.aheadFrom, s.aheadSpent = s.run.Copy(), s.run.PassCount(), 0
}

// LookingAhead reports whether a look-ahead is under way.
func (s *Session) LookingAhead() bool { return s.ahead != nil }

// StopLookAhead gives up the look-ahead under way.
func (s *Session) StopLookAhead() { s.ahead = nil }

// LookAheadSome runs the look-ahead begun by BeginLookAhead on for about d
// and learns from it how far the run goes. It reports whether the
// look-ahead is over (or there is none).
func (s *Session) LookAheadSome(d time.Duration) bool {
	f := s.ahead
	if f == nil {
		return true
	}
	start := time.Now()
	ended := false
	for f.PassCount()-s.aheadFrom < lookAheadPasses {
		p, ok := f.Next()
		s.noteStartup(f, s.aheadFrom, p, ok)
		if !ok {
			ended = true
			break
		}
		if time.Since(start) > d {
			break
		}
	}
	s.aheadSpent += time.Since(start)
	s.learn(f)
	s.known = max(s.known, f.PassCount())
	if ended {
		s.final, s.known = true, f.PassCount()
	}
	if ended || f.PassCount()-s.aheadFrom >= lookAheadPasses || s.aheadSpent > lookAheadTime {
		s.ahead = nil
		return true
	}
	return false
}

// LookAhead runs ahead of the current pass, within limits, on a copy of
// the run, to learn how far the run goes.
func (s *Session) LookAhead() {
	s.ahead = nil
	f := s.run.Copy()
	start := time.Now()
	st := f.Store()
	big := bigWorld(st)
	s.final = false
	from := f.PassCount()
	for i := 0; i < lookAheadPasses; i++ {
		p, ok := f.Next()
		s.noteStartup(f, from, p, ok)
		if !ok {
			s.final = true
			break
		}
		// A small world checks the clock now and then (its first passes
		// also warm the browser up); a big one after every pass.
		if (big || i%64 == 63) && time.Since(start) > lookAheadTime {
			break
		}
	}
	s.learn(f)
	s.known = max(s.known, f.PassCount())
	if s.final {
		s.known = f.PassCount()
	}
}

// learn keeps the times of the passes of run not met before. run is the
// session's run or a copy of it, so its passes are the session's.
func (s *Session) learn(run *sim.Sim) {
	if s.first == nil {
		if p, ok := run.Pass(1); ok {
			s.first = &p
		}
	}
	run.PassTimes(len(s.times), func(n int, at api.Time, r controller.Outcome) {
		s.times = append(s.times, at)
		if r == controller.Crashed {
			s.crashes = append(s.crashes, n)
		}
	})
	if !s.roundKnown {
		s.round, s.roundKnown = startRound(run, s.final)
	}
}

// FirstPass returns the run's first pass once the run or a look-ahead has
// met it (ok is false before that): before it runs, a page can say what it
// will do.
func (s *Session) FirstPass() (sim.Pass, bool) {
	if s.first == nil {
		return s.run.Pass(1)
	}
	return *s.first, true
}
