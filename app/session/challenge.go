package session

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/challenge"
	"reconcile/engine/check"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
)

// Challenge follows a learner's run of a lesson's challenge: the judge
// (challenge.Judge) sees every pass and every input of the run, as a
// replay of the challenge would (challenge.Play), whatever way the page
// moved the run (a step, Play, Next event, a jump). It does so on a run of
// its own that follows the learner's: the same inputs at the same moments
// give the same world, pass by pass. A jump back, or inputs changed in the
// past, start it again from the beginning.
type Challenge struct {
	sc   *scenario.Scenario
	file []byte

	judge  *challenge.Judge
	shadow *sim.Sim
	// given are the inputs the shadow has been given, as the learner's
	// run received them.
	given  []sim.Given
	status challenge.Status
	// solved is the run's digest when the judge said solved, and inputs
	// the inputs given until then.
	solved string
	inputs []sim.Given
	// taken are the hints taken, in order.
	taken []HintLevel
}

// NewChallenge starts following sc's challenge; file is the scenario's
// text (a completion record names its version).
func NewChallenge(sc *scenario.Scenario, file []byte) (*Challenge, error) {
	if sc.Challenge == nil {
		return nil, fmt.Errorf("%s has no challenge", sc.ID)
	}
	return &Challenge{sc: sc, file: file}, nil
}

// Scenario is the lesson the challenge is of.
func (c *Challenge) Scenario() *scenario.Scenario { return c.sc }

// Begin moves a new session of the lesson to the challenge's start: the
// moment it names (its symptom), played to. Trying again is a new session.
func (s *Session) Begin(c *Challenge) {
	if start := c.sc.Challenge.Start; start > s.run.Now() {
		s.PlayTo(start)
	}
}

// Judge judges the run as it is now and says where the challenge stands.
func (s *Session) Judge(c *Challenge) ChallengeView {
	live := s.run.Inputs()
	if c.shadow != nil && !c.follows(s.run) {
		c.shadow = nil
	}
	if c.shadow == nil {
		if err := c.restart(*s.run.Config()); err != nil {
			return ChallengeView{Headline: "The challenge cannot be judged", Detail: err.Error()}
		}
	}
	sh := c.shadow
	n, now := s.run.PassCount(), s.run.Now()
	observe := c.observe
	for !c.status.State.Final() {
		// The inputs given after the shadow's pass, at their moments.
		for len(c.given) < len(live) && live[len(c.given)].After == sh.PassCount() {
			g := live[len(c.given)]
			if g.At > sh.Now() {
				if c.tick(g.At) {
					break
				}
				sh.RunUntil(g.At, 0)
				if observe() {
					break
				}
			}
			if _, err := sh.Inject(g.Input); err != nil {
				return ChallengeView{Headline: "The challenge cannot be judged", Detail: err.Error()}
			}
			c.given = append(c.given, g)
			if observe() {
				break
			}
		}
		if c.status.State.Final() || sh.PassCount() >= n {
			break
		}
		p, ok := s.run.Pass(sh.PassCount() + 1)
		if !ok {
			break
		}
		if c.tick(p.At) {
			break
		}
		sh.RunUntil(p.At, 1)
		if sh.PassCount() != p.N {
			c.shadow = nil // the runs parted: never, in a deterministic engine
			return ChallengeView{Headline: "The challenge cannot be judged", Detail: fmt.Sprintf("the judge's replay did not reach pass %d", p.N)}
		}
		observe()
	}
	if !c.status.State.Final() && sh.Now() < now && sh.PassCount() == n && !c.tick(now) {
		sh.RunUntil(now, 0)
		observe()
	}
	return c.view(s)
}

func (c *Challenge) observe() bool {
	c.status = c.judge.Observe(c.shadow)
	if c.status.State == challenge.Solved && c.solved == "" {
		c.solved, c.inputs = c.shadow.Digest(), append([]sim.Given(nil), c.shadow.Inputs()...)
	}
	return c.status.State.Final()
}

// tick runs the shadow's clock towards t (no pass comes before it), a
// second at a time when the goal counts traffic or the challenge has a
// budget of failed requests (they change as the clock moves, passes or
// not), judging each second, as a replay does. It reports a final verdict.
func (c *Challenge) tick(t api.Time) bool {
	ch := c.sc.Challenge
	moving := ch.FailedRequests != nil
	for _, e := range ch.Goal {
		moving = moving || e.Assertion != nil && e.Assertion.Traffic != nil
	}
	if !moving {
		return false
	}
	for c.shadow.Now()+api.Second < t {
		c.shadow.RunUntil(c.shadow.Now()+api.Second, 0)
		if c.observe() {
			return true
		}
	}
	return false
}

// KeepHints carries the hints taken in an earlier try over to this one:
// they were taken.
func (c *Challenge) KeepHints(from *Challenge) {
	if from != nil {
		c.taken = append([]HintLevel(nil), from.taken...)
	}
}

// follows reports whether the shadow is the learner's run so far: its
// inputs are the first of the run's, and it is not ahead.
func (c *Challenge) follows(run *sim.Sim) bool {
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

func (c *Challenge) restart(cfg sim.Config) error {
	j, err := challenge.New(c.sc)
	if err != nil {
		return err
	}
	sh, err := sim.New(cfg)
	if err != nil {
		return err
	}
	sh.DropCheckpoints()
	c.judge, c.shadow, c.given, c.solved, c.inputs = j, sh, nil, "", nil
	c.status = challenge.Status{}
	return nil
}

// ChallengeView is where a challenge stands, in words.
type ChallengeView struct {
	State challenge.State
	// Final says nothing the learner does now changes the verdict.
	Final bool
	// Headline is the verdict in a few words ("Holding: 12s of 30s");
	// Detail says why, in a sentence.
	Headline, Detail string
	// Failing are the goal's assertions that do not hold now, each with
	// what was found; Got is what was found for each assertion of the goal
	// in order ("" where it holds).
	Failing []string
	Got     []string
	// HoldsAt is when the goal, holding now, will have held long enough
	// (Holding only): the learner may run the clock on to it.
	HoldsAt api.Time
	// Failed and Budget are the requests failed since the start and the
	// budget (-1: none); Replaced the pods gone since the first input.
	Failed, Budget, Replaced int
	// Since is when the goal began to hold (Solved); Deadline when the
	// time limit passes (0: none).
	Since, Deadline api.Time
	// Retry says the learner should start again (a final verdict other
	// than solved).
	Retry bool
}

func (c *Challenge) view(s *Session) ChallengeView {
	st := c.status
	v := ChallengeView{State: st.State, Final: st.State.Final(), Failed: st.Failed, Budget: st.Budget, Replaced: st.PodsReplaced, Since: st.Since, Deadline: st.Deadline}
	v.Retry = v.Final && st.State != challenge.Solved
	for _, f := range st.Failing {
		v.Failing = append(v.Failing, f.What+": "+f.Got)
	}
	if st.State != challenge.Waiting {
		v.Got = make([]string, len(c.sc.Challenge.Goal))
		for i, e := range c.sc.Challenge.Goal {
			for _, f := range st.Failing {
				if f.What == e.That {
					v.Got[i] = f.Got
				}
			}
		}
	}
	ch := c.sc.Challenge
	switch st.State {
	case challenge.Waiting:
		v.Headline = "Not started"
		v.Detail = fmt.Sprintf("The challenge starts at t=%s.", check.Duration(ch.Start))
	case challenge.NotYet:
		v.Headline = "Not yet"
		v.Detail = "The goal does not hold yet: what you change must bring the world there."
		if st.Deadline > 0 {
			v.Detail += fmt.Sprintf(" Time left: until t=%s.", check.Duration(st.Deadline))
		}
	case challenge.Holding:
		v.Headline = fmt.Sprintf("Holding: %s of %s", check.Duration(st.Held), check.Duration(st.Hold))
		v.HoldsAt = st.Since + st.Hold
		v.Detail = fmt.Sprintf("The goal holds since t=%s. It must keep holding until t=%s: a fix that flaps back does not count.", check.Duration(st.Since), check.Duration(v.HoldsAt))
	case challenge.Solved:
		v.Headline = "Solved"
		v.Detail = fmt.Sprintf("The goal held for %s from t=%s.", check.Duration(st.Hold), check.Duration(st.Since))
	case challenge.Shortcut:
		v.Headline = "Shortcut refused"
		what := "The world has more objects of a kind than at the start"
		if st.Forbid.Action == scenario.ForbidAdd {
			what = fmt.Sprintf("A %s was added", st.Forbid.Target)
		}
		if st.Input != nil {
			what = fmt.Sprintf("%s at t=%s", InputText(st.Input.Input), check.Duration(st.Input.At))
		}
		v.Detail = what + ": " + st.Forbid.Message
	case challenge.OverBudget:
		v.Headline = "Over budget"
		v.Detail = fmt.Sprintf("%s failed since the start; the budget is %d.", fmt.Sprint(st.Failed)+" "+plural(st.Failed, "request", "requests"), st.Budget)
		if ch.BudgetMessage != "" {
			v.Detail += " " + strings.Join(strings.Fields(ch.BudgetMessage), " ")
		}
	case challenge.OutOfTime:
		v.Headline = "Out of time"
		v.Detail = fmt.Sprintf("The goal was not reached by t=%s.", check.Duration(st.Deadline))
	}
	return v
}

// Record is the learner's completion record, once solved: the scenario,
// its version, the inputs and the digest, as reconcile verify reads it
// (challenge.Verify), and its JSON.
func (s *Session) Record(c *Challenge) (*challenge.Record, []byte, error) {
	if c.status.State != challenge.Solved {
		return nil, nil, fmt.Errorf("not solved: %s", c.status.Why())
	}
	r, err := challenge.Complete(c.sc, c.file, c.inputs)
	if err != nil {
		return nil, nil, err
	}
	r = r.WithHints(c.HintsTaken())
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return nil, nil, err
	}
	return r, append(data, '\n'), nil
}

// HintLevel is one of the three questions a hint follows.
type HintLevel int

// The three levels of hints, in the order of the questions.
const (
	HintDesired HintLevel = iota
	HintConditions
	HintEvents
)

// HintNames name the levels, as the hints: block of a challenge and a
// completion record do.
var HintNames = challenge.HintNames

// TakeHint returns the hint of level l and records that it was taken
// (once per level).
func (c *Challenge) TakeHint(l HintLevel) string {
	h := c.sc.Challenge.Hints
	text := [...]string{h.Desired, h.Conditions, h.Events}[l]
	for _, t := range c.taken {
		if t == l {
			return text
		}
	}
	c.taken = append(c.taken, l)
	return text
}

// Taken reports whether the hint of level l was taken.
func (c *Challenge) Taken(l HintLevel) bool {
	for _, t := range c.taken {
		if t == l {
			return true
		}
	}
	return false
}

// HintsTaken are the hints taken, in the order taken, by name.
func (c *Challenge) HintsTaken() []string {
	var out []string
	for _, t := range c.taken {
		out = append(out, HintNames[t])
	}
	return out
}
