package session

import (
	"encoding/json"
	"fmt"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/challenge"
	"reconcile/engine/check"
	"reconcile/engine/scenario"
)

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
		if s.run.Now() >= ch.Start {
			v.Headline, v.Detail = notJudgedYet(ch.Start)
		}
	case challenge.NotYet:
		v.Headline = "Not yet"
		v.Detail = "The goal does not hold yet: what you change must bring the world there."
		if st.Deadline > 0 {
			v.Detail += fmt.Sprintf(" Time left: until t=%s.", check.Duration(st.Deadline))
		}
		if s.N() == 0 {
			// The judge looked at the world as it opened; no pass has run.
			v.Headline, v.Detail = notJudgedYet(ch.Start)
		}
	case challenge.Holding:
		// The judge saw the run last at its last pass or second; the world
		// has not changed since, so the goal has held on to now.
		held := min(st.Hold, max(st.Held, s.run.Now()-st.Since))
		v.Headline = fmt.Sprintf("Holding: %s of %s", check.Duration(held), check.Duration(st.Hold))
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

// notJudgedYet is the goal panel at the challenge's start, before the
// first pass (node-dies-at-3am at t=0).
func notJudgedYet(start api.Duration) (headline, detail string) {
	return "Not judged yet", fmt.Sprintf("The challenge starts now, at t=%s, and no pass has run yet: the goal is judged after every pass. "+
		"Make your change, or press Next pass to watch the loop run.", check.Duration(start))
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
