package challenge

import (
	"fmt"
	"sort"

	"reconcile/engine/api"
	"reconcile/engine/check"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
)

// MaxPasses bounds a replay of a challenge, as check.DefaultMaxPasses
// bounds a check.
const MaxPasses = check.DefaultMaxPasses

// Result is a replay of a challenge with a learner's inputs.
type Result struct {
	Status Status
	// Digest is the run's digest when the judge's state became final, or
	// at the end of the replay.
	Digest string
	// Inputs are the inputs as the run received them, with their times.
	Inputs []sim.Given
	// Passes is how many passes ran.
	Passes int
}

// End is how far a replay goes when the state is not final: the time
// limit, or without one ten minutes (sim.DefaultHorizon) past the later of
// the lesson's horizon and the challenge's start, plus the hold time.
func End(sc *scenario.Scenario) api.Time {
	ch := sc.Challenge
	if ch.Within > 0 {
		return ch.Start + ch.Within
	}
	return max(sc.Horizon(), ch.Start+sim.DefaultHorizon) + ch.Hold
}

// Play replays inputs (each given right after its pass, as the playground
// gives them and sim.Given records them, at its time when it has one) on
// sc's lesson, judging the run
// after every pass and every input, until the state is final or the run
// reaches End. An input that cannot be given (after a pass the run never
// reaches, before the challenge starts, one the run refuses) is an error.
func Play(sc *scenario.Scenario, inputs []sim.Given) (*Result, error) {
	j, err := New(sc)
	if err != nil {
		return nil, err
	}
	cfg := sc.ForChallenge().Config()
	end := End(sc)
	cfg.Until = max(cfg.Until, end)
	s, err := sim.New(cfg)
	if err != nil {
		return nil, err
	}
	s.DropCheckpoints()
	order := make([]int, len(inputs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return inputs[order[a]].After < inputs[order[b]].After })
	// The run up to the start is the lesson's own, whatever the inputs:
	// an input may come after the last pass at or before the start.
	first, err := StartPass(sc)
	if err != nil {
		return nil, err
	}
	next := 0
	give := func() error {
		for next < len(order) && inputs[order[next]].After == s.PassCount() {
			k := order[next]
			g := inputs[k]
			if g.At > 0 && g.At < j.Start() || g.At == 0 && g.After < first {
				return fmt.Errorf("input %d (%s) is given after pass %d, before the challenge starts at t=%s (after pass %d)", k+1, g.Input.Text(), g.After, check.Duration(j.Start()), first)
			}
			if g.At > s.Now() {
				// Given after the clock ran on past its pass: run the
				// clock to it. No pass may come first.
				s.RunUntil(g.At, 0)
				if s.PassCount() != g.After {
					return fmt.Errorf("input %d (%s) is given after pass %d at t=%s, but pass %d came before t=%s", k+1, g.Input.Text(), g.After, check.Duration(g.At), g.After+1, check.Duration(g.At))
				}
				if st := j.Observe(s); st.State.Final() {
					return nil
				}
			}
			if _, err := s.Inject(inputs[k].Input); err != nil {
				return fmt.Errorf("input %d (%s): %v", k+1, inputs[k].Input.Text(), err)
			}
			next++
		}
		return nil
	}
	// A goal on traffic, or a budget of failed requests, changes as the
	// clock moves without a pass: judge it every second.
	moving := sc.Challenge.FailedRequests != nil
	for _, e := range sc.Challenge.Goal {
		moving = moving || e.Assertion != nil && e.Assertion.Traffic != nil
	}
	var st Status
	for {
		if err := give(); err != nil {
			return nil, err
		}
		st = j.Observe(s)
		if st.State.Final() {
			break
		}
		if s.PassCount() >= MaxPasses || s.Now() >= end {
			break
		}
		// Up to the next pass, or to the moment the goal will have held
		// long enough (the world is still until the next pass), or to the
		// end.
		target := end
		if s.Now() < j.Start() {
			target = j.Start() // the judge starts there, passes or not
		}
		if t, holds := j.HoldsUntil(); holds && t < target {
			target = t
		}
		if moving && target > s.Now()+api.Second {
			// Traffic is counted second by second, passes or not.
			target = s.Now() + api.Second
		}
		s.RunUntil(target, 1)
	}
	if next < len(order) {
		k := order[next]
		return nil, fmt.Errorf("input %d (%s) is given after pass %d; the run %s after pass %d", k+1, inputs[k].Input.Text(), inputs[k].After, endedHow(st), s.PassCount())
	}
	return &Result{Status: st, Digest: s.Digest(), Inputs: append([]sim.Given(nil), s.Inputs()...), Passes: s.PassCount()}, nil
}

// StartPass is the first pass after which a learner may give an input:
// the last pass at or before the challenge's start.
func StartPass(sc *scenario.Scenario) (int, error) {
	if sc.Challenge == nil || sc.Challenge.Start == 0 {
		return 0, nil
	}
	s, err := sim.New(sc.ForChallenge().Config())
	if err != nil {
		return 0, err
	}
	s.DropCheckpoints()
	s.RunUntil(sc.Challenge.Start, MaxPasses)
	return s.PassCount(), nil
}

func endedHow(st Status) string {
	if st.State.Final() {
		return "was " + st.State.String()
	}
	return "ended"
}

// Given turns steps (the reference solution, a shortcut's try) into the
// inputs a learner would give: each after the last pass at or before its
// time, at its time (the clock run on to it), or right after its pass.
func Given(sc *scenario.Scenario, steps []scenario.Step) ([]sim.Given, error) {
	cfg := sc.ForChallenge().Config()
	last := api.Time(0)
	for _, st := range steps {
		last = max(last, st.At)
	}
	cfg.Until = max(cfg.Until, last+sim.DefaultHorizon)
	s, err := sim.New(cfg)
	if err != nil {
		return nil, err
	}
	s.DropCheckpoints()
	order := make([]int, len(steps))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return stepKey(s, steps[order[a]]) < stepKey(s, steps[order[b]]) })
	var out []sim.Given
	for _, i := range order {
		st := steps[i]
		if st.AfterPass > 0 {
			for s.PassCount() < st.AfterPass {
				if _, ok := s.Next(); !ok {
					break
				}
			}
		} else if st.At > s.Now() {
			s.RunUntil(st.At, 0)
		}
		g := sim.Given{After: s.PassCount(), Input: st.Input}
		if _, err := s.Inject(st.Input); err != nil {
			return nil, fmt.Errorf("%s: %v", st.Pos, err)
		}
		g.At = s.Now()
		out = append(out, g)
	}
	return out, nil
}

func stepKey(s *sim.Sim, st scenario.Step) int64 {
	if st.AfterPass > 0 {
		return int64(st.AfterPass)
	}
	return int64(st.At)
}
