package session

import (
	"fmt"
	"reflect"

	"reconcile/engine/api"
	"reconcile/engine/challenge"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
)

// Challenge follows a learner's run of a lesson's challenge: the judge
// (challenge.Judge) sees every pass and every input of the run, as a
// replay of the challenge would (challenge.Play), whatever way the page
// moved the run (a step, Play, Next event, a seek, a jump).
//
// It watches the learner's run itself: every move of the session's run
// goes through a watched step of the engine (sim.Sim.NextWatched,
// RunUntilWatched), so the judge sees the world after every pass and every
// input, every second when the goal counts traffic or the challenge has a
// budget, and at the moments the goal will have held long enough or the
// time runs out. When the run moves in a way it did not see (a jump back,
// inputs changed in the past, a first look at a run already under way), it
// catches up on a replay of its own: the same inputs at the same moments
// give the same world, pass by pass. Once that replay is where the
// learner's run is, and the run holds no input ahead of it, the replay is
// dropped and the judge watches the learner's run again.
type Challenge struct {
	sc   *scenario.Scenario
	file []byte
	// moving says the goal counts traffic or the challenge has a budget
	// of failed requests: they change as the clock moves, passes or not,
	// so the judge sees the run every second.
	moving bool

	judge  *challenge.Judge
	status challenge.Status
	// seen is the moment the judge last saw a run at.
	seen api.Time
	// live is the learner's run the judge watches, and at where it saw it
	// last; nil while the judge does not follow it (it catches up first).
	live *sim.Sim
	at   position
	// shadow is the judge's own replay while it catches up, and given the
	// inputs given to it, as the learner's run received them.
	shadow *sim.Sim
	given  []sim.Given
	// solved is the run's digest when the judge said solved, and inputs
	// the inputs given until then.
	solved string
	inputs []sim.Given
	// taken are the hints taken, in order; opened the evidence the
	// learner opened, and right the questions last answered right
	// (challenge_hints.go).
	taken  []HintLevel
	opened []Opened
	right  [3]bool
	// replays counts the catch-ups made on a replay of the judge's own.
	replays int
}

// position is where a run is: its pass, its clock and how many inputs it
// holds.
type position struct {
	pass   int
	now    api.Time
	inputs int
}

func positionOf(run *sim.Sim) position {
	return position{run.PassCount(), run.Now(), len(run.Inputs())}
}

// NewChallenge starts following sc's challenge; file is the scenario's
// text (a completion record names its version).
func NewChallenge(sc *scenario.Scenario, file []byte) (*Challenge, error) {
	ch := sc.Challenge
	if ch == nil {
		return nil, fmt.Errorf("%s has no challenge", sc.ID)
	}
	moving := ch.FailedRequests != nil
	for _, e := range ch.Goal {
		moving = moving || e.Assertion != nil && e.Assertion.Traffic != nil
	}
	return &Challenge{sc: sc, file: file, moving: moving}, nil
}

// Scenario is the lesson the challenge is of.
func (c *Challenge) Scenario() *scenario.Scenario { return c.sc }

// Begin moves a new session of the lesson to the challenge's start: the
// moment it names (its symptom), played to, and the judge watches the run
// from there. Trying again is a new session.
func (s *Session) Begin(c *Challenge) {
	if start := c.sc.Challenge.Start; start > s.run.Now() {
		s.PlayTo(start)
	}
	s.judged = c
	_ = c.catchUp(s.run) // an error is the next Judge's to say
}

// Judge says where the challenge stands on the run as it is now; from
// here on the judge watches the run as it moves.
func (s *Session) Judge(c *Challenge) ChallengeView {
	s.judged = c
	if !c.follows(s.run) {
		if err := c.catchUp(s.run); err != nil {
			return ChallengeView{Headline: "The challenge cannot be judged", Detail: err.Error()}
		}
	}
	return c.view(s)
}

// follows reports whether the judge has seen run move to where it is.
func (c *Challenge) follows(run *sim.Sim) bool {
	return c.live == run && c.at == positionOf(run)
}

// following is the challenge whose judge watches the session's run, or
// nil.
func (s *Session) following() *Challenge {
	if c := s.judged; c != nil && c.follows(s.run) {
		return c
	}
	return nil
}

// next is s.run.Next(), watched by the judge that follows the run.
func (s *Session) next() (sim.Pass, bool) {
	if c := s.following(); c != nil {
		return s.run.NextWatched(watcher{c})
	}
	return s.run.Next()
}

// runUntil is s.run.RunUntil(t, maxPasses), watched by the judge that
// follows the run, which sees it where it stops.
func (s *Session) runUntil(t api.Time, maxPasses int) {
	c := s.following()
	if c == nil {
		s.run.RunUntil(t, maxPasses)
		return
	}
	s.run.RunUntilWatched(t, maxPasses, watcher{c})
	// Where the clock stopped, the judge has seen every moment it must:
	// it is where the run is (ChallengeView counts a hold on to now).
	c.at = positionOf(s.run)
}

// forward runs the next passes up to pass n, watched.
func (s *Session) forward(n int) error {
	for s.run.PassCount() < n {
		if _, ok := s.next(); !ok {
			return fmt.Errorf("pass %d: the run has only %d passes before %s", n, s.run.PassCount(), s.run.Until())
		}
	}
	return nil
}

// watcher lets a challenge's judge watch a run as it moves.
type watcher struct{ c *Challenge }

func (w watcher) Wake(now api.Time) (api.Time, bool) { return w.c.wake(now) }
func (w watcher) See(run *sim.Sim)                   { w.c.see(run) }

// see lets the judge see run as it is now; it reports a final verdict.
func (c *Challenge) see(run *sim.Sim) bool {
	c.status = c.judge.Observe(run)
	c.seen = run.Now()
	if run == c.live {
		c.at = positionOf(run)
	}
	if c.status.State == challenge.Solved && c.solved == "" {
		c.solved, c.inputs = run.Digest(), append([]sim.Given(nil), run.Inputs()...)
	}
	return c.status.State.Final()
}

// wake is the next moment after now the judge must see the run at when
// no pass comes before it, as a replay judges it (challenge.Play): the
// challenge's start, a second after it last saw the run when the goal
// counts traffic or there is a budget, the moment the goal will have held
// long enough, the time limit.
func (c *Challenge) wake(now api.Time) (api.Time, bool) {
	if c.status.State.Final() {
		return 0, false
	}
	best, ok := api.Time(0), false
	consider := func(t api.Time) {
		if t > now && (!ok || t < best) {
			best, ok = t, true
		}
	}
	start := c.judge.Start()
	consider(start)
	if c.moving {
		tick := c.seen + api.Second
		if tick <= now {
			tick = now + api.Second
		}
		consider(tick)
	}
	if t, holds := c.judge.HoldsUntil(); holds {
		consider(t)
	}
	if d := c.sc.Challenge.Within; d > 0 {
		consider(start + d)
	}
	return best, ok
}

// catchUp brings the judge to run as it is now, when it did not see it
// move there. Before the learner's first input, at or before the
// challenge's start, nothing has happened yet the judge must have seen:
// it starts on the run itself. Otherwise it replays the run's inputs on a
// run of its own, from the beginning or from where its replay still
// follows the learner's.
func (c *Challenge) catchUp(run *sim.Sim) error {
	c.live = nil
	inputs := run.Inputs()
	n, now := run.PassCount(), run.Now()
	if len(inputs) == 0 && now <= c.sc.Challenge.Start {
		if err := c.restart(nil); err != nil {
			return err
		}
		c.live = run
		c.see(run)
		return nil
	}
	if c.shadow == nil || !c.shadowFollows(run) {
		if err := c.restart(run.Config()); err != nil {
			return err
		}
	}
	sh, w := c.shadow, watcher{c}
	// The inputs the learner's run has been given by now, at their moments.
	for len(c.given) < len(inputs) && !c.status.State.Final() {
		g := inputs[len(c.given)]
		if g.After > n || g.After == n && g.At > now {
			break // ahead of the learner: not given yet
		}
		for sh.PassCount() < g.After {
			if _, ok := sh.NextWatched(w); !ok {
				return c.parted(g.After)
			}
		}
		if g.At > sh.Now() {
			sh.RunUntilWatched(g.At, 0, w)
			if sh.PassCount() != g.After {
				return c.parted(g.After)
			}
		}
		if _, err := sh.Inject(g.Input); err != nil {
			c.shadow = nil
			return err
		}
		c.given = append(c.given, g)
		c.see(sh)
	}
	for sh.PassCount() < n && !c.status.State.Final() {
		if _, ok := sh.NextWatched(w); !ok {
			return c.parted(n)
		}
	}
	if sh.Now() < now && !c.status.State.Final() {
		sh.RunUntilWatched(now, 0, w)
		if sh.PassCount() != n {
			return c.parted(n)
		}
	}
	// Where the learner's run holds no input ahead of it, the judge
	// watches it from here, and the replay goes.
	ahead := len(c.given) < len(inputs)
	if ahead && !c.status.State.Final() {
		return nil
	}
	c.shadow, c.given = nil, nil
	c.live, c.at = run, positionOf(run)
	return nil
}

// parted says the replay did not reach the learner's pass n: never, in a
// deterministic engine.
func (c *Challenge) parted(n int) error {
	c.shadow = nil
	return fmt.Errorf("the judge's replay did not reach pass %d", n)
}

// shadowFollows reports whether the judge's replay is the learner's run
// so far: its inputs are the first of the run's, and it is not ahead.
func (c *Challenge) shadowFollows(run *sim.Sim) bool {
	live := run.Inputs()
	if len(c.given) > len(live) || c.shadow.PassCount() > run.PassCount() || c.shadow.Now() > run.Now() {
		return false
	}
	for i, g := range c.given {
		if g.After != live[i].After || g.At != live[i].At || !reflect.DeepEqual(g.Input, live[i].Input) {
			return false
		}
	}
	return true
}

// restart starts the judge afresh; with cfg, on a replay of its own.
func (c *Challenge) restart(cfg *sim.Config) error {
	j, err := challenge.New(c.sc)
	if err != nil {
		return err
	}
	var sh *sim.Sim
	if cfg != nil {
		if sh, err = sim.New(*cfg); err != nil {
			return err
		}
		sh.DropCheckpoints()
		c.replays++
	}
	c.judge, c.shadow, c.given, c.solved, c.inputs = j, sh, nil, "", nil
	c.status, c.seen = challenge.Status{}, 0
	return nil
}

// KeepHints carries the hints taken in an earlier try over to this one
// (they were taken), and the evidence opened (it was read).
func (c *Challenge) KeepHints(from *Challenge) {
	if from != nil {
		c.taken = append([]HintLevel(nil), from.taken...)
		c.opened = append([]Opened(nil), from.opened...)
	}
}
