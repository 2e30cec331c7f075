package app

import (
	"fmt"
	"time"

	"reconcile/engine/api"
	"reconcile/engine/manifest"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
)

// Look-ahead limits: how far a session runs ahead of the learner to learn
// where the run ends, so the timeline can show it.
const (
	lookAheadPasses = 2000
	lookAheadTime   = 150 * time.Millisecond
	// bigWorldObjects is the size of world from which looking ahead checks
	// the clock after every pass (a pass there can take a while).
	bigWorldObjects = 3000
)

// session is one run of a lesson as the player drives it: the run, and how
// far it is known to go. The run is the engine's; a session only adds the
// knowledge a timeline needs (the last pass known to exist) and the rule
// that an input given in the past starts a new future.
//
// A session is not safe for concurrent use: the player touches it on the UI
// goroutine only.
type session struct {
	run *sim.Sim
	// known is the last pass known to exist: the end of the timeline.
	known int
	// final reports that nothing happens after pass known before the
	// run's horizon.
	final bool

	// ahead is a copy of the run that looks ahead a slice at a time
	// (lookAheadSome), so the learner can act between slices; nil when no
	// look-ahead is under way. It started at pass aheadFrom and has run
	// for aheadSpent so far.
	ahead      *sim.Sim
	aheadFrom  int
	aheadSpent time.Duration
}

// newSession starts a run of sc with the real API server rules, kubectl
// and the manifest decoder, and looks ahead to find where it ends.
func newSession(sc *scenario.Scenario) (*session, error) {
	s, err := startSession(sc)
	if err != nil {
		return nil, err
	}
	s.lookAhead()
	return s, nil
}

// startSession is newSession without the look-ahead: the end of the
// timeline is not known yet. The caller looks ahead later, in slices
// (beginLookAhead, lookAheadSome), or all at once (lookAhead).
func startSession(sc *scenario.Scenario) (*session, error) {
	run, err := sim.New(sc.Config())
	if err != nil {
		return nil, err
	}
	return &session{run: run}, nil
}

// beginLookAhead starts a look-ahead from the current pass on a copy of the
// run: lookAheadSome runs it a slice at a time, within the limits of
// lookAhead, while the run itself stays where the learner is. The run is
// deterministic, so the copy meets the passes the run will meet, until an
// input is given (inject stops the look-ahead).
func (s *session) beginLookAhead() error {
	here := s.run.PassCount()
	f, err := s.run.Fork(here)
	if err != nil {
		return err
	}
	s.ahead, s.aheadFrom, s.aheadSpent = f, here, 0
	return nil
}

// lookAheadSome runs the look-ahead begun by beginLookAhead on for about d
// and learns from it how far the run goes. It reports whether the
// look-ahead is over (or there is none).
func (s *session) lookAheadSome(d time.Duration) bool {
	f := s.ahead
	if f == nil {
		return true
	}
	start := time.Now()
	ended := false
	for f.PassCount()-s.aheadFrom < lookAheadPasses {
		if _, ok := f.Next(); !ok {
			ended = true
			break
		}
		if time.Since(start) > d {
			break
		}
	}
	s.aheadSpent += time.Since(start)
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

// lookAhead runs ahead of the current pass, within limits, to learn how far
// the run goes, then returns to where it was.
func (s *session) lookAhead() {
	s.ahead = nil
	here := s.run.PassCount()
	start := time.Now()
	st := s.run.Store()
	big := st.Count("Pod") > bigWorldObjects || st.Count("Node") > bigWorldObjects/10
	s.final = false
	for i := 0; i < lookAheadPasses; i++ {
		if _, ok := s.run.Next(); !ok {
			s.final = true
			break
		}
		// A small world checks the clock now and then (its first passes
		// also warm the browser up); a big one after every pass.
		if (big || i%64 == 63) && time.Since(start) > lookAheadTime {
			break
		}
	}
	s.known = max(s.known, s.run.PassCount())
	if s.final {
		s.known = s.run.PassCount()
	}
	if s.run.PassCount() != here {
		if err := s.run.Seek(here); err != nil {
			panic("seeking back to a pass that ran: " + err.Error()) // broken invariant
		}
	}
}

// n is the current pass.
func (s *session) n() int { return s.run.PassCount() }

// atEnd reports whether nothing happens after the current pass.
func (s *session) atEnd() bool { return s.final && s.run.PassCount() >= s.known }

// next runs the next pass. It reports false at the end of the run.
func (s *session) next() (sim.Pass, bool) {
	p, ok := s.run.Next()
	if !ok {
		s.final, s.known = true, s.run.PassCount()
		return p, false
	}
	s.known = max(s.known, p.N)
	return p, true
}

// seek moves to just after pass n (0 = the start).
func (s *session) seek(n int) error {
	if n < 0 {
		return fmt.Errorf("pass %d: passes count from 0", n)
	}
	if s.final && n > s.known {
		n = s.known
	}
	err := s.run.Seek(n)
	s.known = max(s.known, s.run.PassCount())
	if err != nil {
		s.final, s.known = true, s.run.PassCount()
	}
	return err
}

// playTo runs forward to the simulated time t: every pass and every input
// up to t, and the clock at t (or at the end of the run, if that comes
// first). It never moves back.
func (s *session) playTo(t api.Time) {
	for s.run.Now() < t {
		before := s.run.PassCount()
		s.run.RunUntil(t, 1)
		if s.run.PassCount() == before {
			break // no pass before t: the clock is at t
		}
		s.known = max(s.known, s.run.PassCount())
	}
	if s.final && s.run.PassCount() >= s.known {
		return
	}
	if s.run.PassCount() > s.known {
		s.known = s.run.PassCount()
	}
}

// atTime moves to just after pass n, then lets the clock run on to t
// without another pass: the moment a deep link ?pass=N&t=T names (inputs
// given after pass n, before t, are applied). It reports false, and stays
// just after pass n, when a pass comes before t.
func (s *session) atTime(n int, t api.Time) bool {
	if err := s.seek(n); err != nil {
		return false
	}
	if t <= s.run.Now() {
		return true
	}
	s.run.RunUntil(t, 1)
	if s.run.PassCount() != n {
		s.seek(n)
		return false
	}
	return true
}

// beyondLastPass is how far the clock has run past the current pass (by
// inputs or waiting that ran no pass): zero when it stands at the pass.
func (s *session) beyondLastPass() api.Time {
	n := s.run.PassCount()
	var at api.Time
	if p, ok := s.run.Pass(n); ok {
		at = p.At
	}
	return s.run.Now() - at
}

// inject applies an input now. An input given in the past (the learner
// stepped back, then acted) starts a new future: the inputs recorded after
// the current pass are forgotten, as in a fork of the run.
func (s *session) inject(in sim.Input) (sim.Output, error) {
	here := s.run.PassCount()
	for _, old := range s.run.Inputs() {
		if old.After > here {
			f, err := s.run.Fork(here)
			if err != nil {
				return sim.Output{}, err
			}
			s.run, s.ahead = f, nil
			break
		}
	}
	// Looking ahead ends with a seek back to this pass. The engine replays
	// an input right after the pass it followed, so when the clock has run
	// on past the pass (inputs or waiting with no pass, as at a failure's
	// symptom), the seek would move the input back to the pass's time: then
	// the timeline only grows as the run goes on.
	beyond := s.beyondLastPass() > 0
	out, err := s.run.Inject(in)
	if err != nil {
		return out, err
	}
	s.ahead = nil // the run's future is no longer the copy's
	s.known, s.final = here, false
	if !beyond {
		s.lookAhead()
	}
	return out, nil
}

// symptomAt is when a failure scenario shows its symptom: the time of its
// last expectation (expectations describe the world the lesson breaks), or
// a minute after its last step when it has none.
func symptomAt(sc *scenario.Scenario) api.Time {
	var t api.Time
	for _, e := range sc.Expect {
		t = max(t, e.At)
	}
	if t > 0 {
		return t
	}
	for _, st := range sc.Steps {
		t = max(t, st.At)
	}
	return t + api.Minute
}

// stepText describes a scripted step the way a learner would type it.
func stepText(st scenario.Step) string {
	switch st.Input.(type) {
	case sim.Apply:
		return "kubectl apply -f - (" + manifestNames(st.Manifests) + ")"
	case sim.Commit:
		return "git commit (" + manifestNames(st.Manifests) + ")"
	case nil:
		return ""
	}
	return st.Input.Text()
}

func manifestNames(ms []manifest.Manifest) string {
	out := ""
	for i, m := range ms {
		if i > 0 {
			out += ", "
		}
		out += api.RefOf(m.Object).String()
	}
	if out == "" {
		return "manifests"
	}
	return out
}
