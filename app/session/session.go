package session

import (
	"fmt"
	"time"

	"reconcile/engine/api"
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

// Session is one run as a learner drives it: the run, and how far it is
// known to go. The run is the engine's; a session adds the knowledge a
// timeline needs (the last pass known to exist) and the rule that an input
// given in the past starts a new future.
//
// A Session is not safe for concurrent use: a page touches it on its UI
// goroutine only.
type Session struct {
	run *sim.Sim
	// known is the last pass known to exist: the end of the timeline.
	known int
	// final reports that nothing happens after pass known before the
	// run's horizon.
	final bool

	// ahead is a copy of the run that looks ahead a slice at a time
	// (LookAheadSome), so the learner can act between slices; nil when no
	// look-ahead is under way. It started at pass aheadFrom and has run
	// for aheadSpent so far.
	ahead      *sim.Sim
	aheadFrom  int
	aheadSpent time.Duration

	// times holds the simulated time of every pass met so far, by the run
	// or by a look-ahead: times[i] is pass i+1's. The run is deterministic,
	// so what a look-ahead met is what the run will meet, until an input
	// changes the future (Commit forgets the passes after it).
	times []api.Time
	// first is the run's first pass once the run or a look-ahead has met
	// it: what a page says the first pass will do before it runs.
	first *sim.Pass
	// crashes are the passes met so far that crashed their controller, in
	// order.
	crashes []int
	// round is how many passes run at t=0 before the inputs given at t=0
	// (each controller's first pass over the initial list); roundKnown says
	// it is known.
	round      int
	roundKnown bool
	// jumps counts the moves that were not steps forward: a seek, an input
	// given in the past. A reader marks what changed only between two
	// readings no jump separates.
	jumps int
	// startup is the end of the run's start-up, once looked for (pacing.go).
	startup startupEnd
	// judged is the challenge judged on this run (Judge): while its judge
	// follows the run, every move of the run is watched (challenge_judge.go).
	judged *Challenge
	// live holds the last LiveOf's documents by the object each was made
	// from: stored objects never change, so one not replaced since is not
	// written again.
	live map[*api.ObjectMeta]string
}

// New starts a run of cfg and looks ahead to find where it ends.
func New(cfg sim.Config) (*Session, error) {
	s, err := Start(cfg)
	if err != nil {
		return nil, err
	}
	s.LookAhead()
	return s, nil
}

// Start starts a run of cfg without looking ahead: the end of the timeline
// is not known yet. The caller looks ahead later, in slices
// (BeginLookAhead, LookAheadSome), or all at once (LookAhead).
func Start(cfg sim.Config) (*Session, error) {
	run, err := sim.New(cfg)
	if err != nil {
		return nil, err
	}
	return &Session{run: run}, nil
}

// Of makes a session of a run that is under way (restored work); it looks
// ahead to find where the run ends.
func Of(run *sim.Sim) *Session {
	s := Wrap(run)
	s.LookAhead()
	return s
}

// Wrap makes a session of a run without looking ahead: the end of the
// timeline is not known yet.
func Wrap(run *sim.Sim) *Session { return &Session{run: run} }

// N is the current pass.
func (s *Session) N() int { return s.run.PassCount() }

// Known is the last pass known to exist; Final reports that nothing
// happens after it.
func (s *Session) Known() int { return s.known }

// Final reports that the run is known to end at pass Known.
func (s *Session) Final() bool { return s.final }

// AtEnd reports whether nothing happens after the current pass.
func (s *Session) AtEnd() bool { return s.final && s.run.PassCount() >= s.known }

// Assume takes the end of the run from what a look-ahead elsewhere learned
// (the server's, for a prerendered page), until a look-ahead here says
// otherwise.
func (s *Session) Assume(known int, final bool) { s.known, s.final = known, final }

// startRound counts the passes at t=0 that come before the inputs given at
// t=0: every controller that had keys when it started takes its first one
// before them, in turn; its second pass comes after them. It reports
// whether the count is known: a pass after the round has been met (or the
// run ends).
func startRound(run *sim.Sim, final bool) (int, bool) {
	type process struct{ name, host string }
	seen := map[process]bool{}
	n := run.PassCount()
	for i := range n {
		p, _ := run.Pass(i + 1)
		k := process{p.Controller, p.Host}
		if p.At > 0 || seen[k] {
			return i, true
		}
		seen[k] = true
	}
	return n, final
}

// Next runs the next pass. It reports false at the end of the run.
func (s *Session) Next() (sim.Pass, bool) {
	p, ok := s.next()
	if !ok {
		s.final, s.known = true, s.run.PassCount()
		return p, false
	}
	s.known = max(s.known, p.N)
	s.learn(s.run)
	return p, true
}

// Seek moves to just after pass n (0 = the start).
func (s *Session) Seek(n int) error {
	if n < 0 {
		return fmt.Errorf("pass %d: passes count from 0", n)
	}
	if s.final && n > s.known {
		n = s.known
	}
	s.jumps++
	var err error
	if s.following() != nil && n >= s.run.PassCount() {
		err = s.forward(n) // every pass on the way, watched
	} else {
		err = s.run.Seek(n)
	}
	s.learn(s.run)
	s.known = max(s.known, s.run.PassCount())
	if err != nil {
		s.final, s.known = true, s.run.PassCount()
	}
	return err
}

// PlayTo runs forward to the simulated time t: every pass and every input
// up to t, and the clock at t (or at the end of the run, if that comes
// first). It never moves back.
func (s *Session) PlayTo(t api.Time) {
	for s.run.Now() < t {
		before := s.run.PassCount()
		s.runUntil(t, 1)
		if s.run.PassCount() == before {
			break // no pass before t: the clock is at t
		}
		s.known = max(s.known, s.run.PassCount())
	}
	s.learn(s.run)
	s.known = max(s.known, s.run.PassCount())
}

// StepTowards runs the next pass if it comes before the simulated time t
// (inputs up to it are applied) and reports true; when none does, it lets
// the clock run on to t and reports false. PlayTo is StepTowards until it
// reports false.
func (s *Session) StepTowards(t api.Time) bool {
	if s.run.Now() >= t {
		return false
	}
	before := s.run.PassCount()
	s.runUntil(t, 1)
	s.learn(s.run)
	s.known = max(s.known, s.run.PassCount())
	return s.run.PassCount() > before
}

// AtTime moves to just after pass n, then lets the clock run on to t
// without another pass: the moment a deep link ?pass=N&t=T names (inputs
// given after pass n, before t, are applied). It reports false, and stays
// just after pass n, when a pass comes before t.
func (s *Session) AtTime(n int, t api.Time) bool {
	if err := s.Seek(n); err != nil {
		return false
	}
	if t <= s.run.Now() {
		return true
	}
	s.runUntil(t, 1)
	if s.run.PassCount() != n {
		s.Seek(n)
		return false
	}
	return true
}

// BeyondLastPass is how far the clock has run past the current pass (by
// inputs or waiting that ran no pass): zero when it stands at the pass.
func (s *Session) BeyondLastPass() api.Time {
	n := s.run.PassCount()
	var at api.Time
	if p, ok := s.run.Pass(n); ok {
		at = p.At
	}
	return s.run.Now() - at
}

// ParseFault reads a fault line (FaultForm.Line) for this run: a
// controller it names is one of the run's registry.
func (s *Session) ParseFault(line string) (sim.Fault, error) { return s.run.ParseFault(line) }

// Inject gives an input now, as Try then Commit.
func (s *Session) Inject(in sim.Input) (sim.Output, error) {
	a, err := s.Try(in)
	if err != nil {
		return sim.Output{}, err
	}
	a.Commit()
	return a.Output, nil
}

// Fork starts a second future at the current pass: a session whose run
// shares this run's past and none of the inputs recorded after it.
func (s *Session) Fork() (*Session, error) {
	f, err := s.run.Fork(s.run.PassCount())
	if err != nil {
		return nil, err
	}
	return Of(f), nil
}

// SymptomAt is when a failure lesson shows its symptom (the scenario's
// SymptomAt: its last expectation's time, or a minute after its last step).
func SymptomAt(sc *scenario.Scenario) api.Time { return sc.SymptomAt() }
