package sim

import "reconcile/engine/api"

// Watcher sees a run as it moves (Sim.NextWatched, Sim.RunUntilWatched):
// after every pass, and at the moments it asks for while the clock moves
// on without one, as a challenge's judge must (every second of a goal on
// traffic, the moment a goal will have held long enough). Watching changes
// nothing in the run: the same passes, the same digest.
type Watcher interface {
	// Wake is the next moment after now the watcher would see the run at;
	// false for none.
	Wake(now api.Time) (api.Time, bool)
	// See is given the run after every pass, and at each moment Wake named
	// that comes before the next thing due.
	See(s *Sim)
}

// NextWatched is Next, with w seeing the run at the moments it asks for
// before the pass and after it (a nil w: Next).
func (s *Sim) NextWatched(w Watcher) (Pass, bool) {
	for {
		it, ok := s.w.peek()
		if !ok || it.at > s.until {
			return Pass{}, false
		}
		if s.wake(w, it.at, s.until) {
			continue
		}
		s.w.pop()
		s.w.setNow(it.at)
		p := s.handle(s.w, it)
		if p == nil {
			continue
		}
		s.maybeCheckpoint(p.N)
		s.applyRecorded(s.w, p.N)
		if w != nil {
			w.See(s)
		}
		return *p, true
	}
}

// RunUntilWatched is RunUntil, with w seeing the run after every pass and
// at the moments it asks for on the way to t (a nil w: RunUntil).
func (s *Sim) RunUntilWatched(t api.Time, maxPasses int, w Watcher) {
	if t > s.until {
		s.until = t
	}
	n := 0
	for {
		it, ok := s.w.peek()
		if ok && it.at <= t && maxPasses > 0 && n >= maxPasses {
			return
		}
		// The next thing due; with nothing due by t, the watcher may see
		// t itself.
		due := t + 1
		if ok && it.at <= t {
			due = it.at
		}
		if s.wake(w, due, t) {
			continue
		}
		if !ok || it.at > t {
			break
		}
		s.w.pop()
		s.w.setNow(it.at)
		if p := s.handle(s.w, it); p != nil {
			n++
			s.maybeCheckpoint(p.N)
			s.applyRecorded(s.w, p.N)
			if w != nil {
				w.See(s)
			}
		}
	}
	s.w.setNow(t)
}

// wake moves the clock to the moment w asks for, and lets it see the run
// there, when that moment comes before next (the next thing due) and no
// later than limit; it reports whether it did.
func (s *Sim) wake(w Watcher, next, limit api.Time) bool {
	if w == nil {
		return false
	}
	at, ok := w.Wake(s.w.now)
	if !ok || at <= s.w.now || at >= next || at > limit {
		return false
	}
	s.w.setNow(at)
	w.See(s)
	return true
}
