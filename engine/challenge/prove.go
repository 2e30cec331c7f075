package challenge

import (
	"fmt"

	"reconcile/engine/scenario"
	"reconcile/engine/yamlpos"
)

// Proof is what Prove found for one challenge: each claim with its
// outcome.
type Proof struct {
	// Solution is the reference solution's replay.
	Solution *Result
	// Failures are the claims that do not hold, each at the place in the
	// file it is about.
	Failures []*yamlpos.Error
	// Claims is how many claims were checked.
	Claims int
}

// OK reports whether every claim held.
func (p *Proof) OK() bool { return len(p.Failures) == 0 }

// Prove checks sc's challenge is sound, as a solution bot would: the
// reference solution solves it, doing nothing does not, and each forbidden
// shortcut's try is caught as that shortcut.
func Prove(sc *scenario.Scenario) (*Proof, error) {
	ch := sc.Challenge
	if ch == nil {
		return nil, fmt.Errorf("%s: the scenario has no challenge", sc.ID)
	}
	p := &Proof{}
	fail := func(pos yamlpos.Pos, format string, args ...any) {
		p.Failures = append(p.Failures, &yamlpos.Error{Pos: pos, Msg: fmt.Sprintf(format, args...)})
	}
	// The reference solution solves it.
	p.Claims++
	sol, err := Given(sc, ch.Solution)
	if err != nil {
		return nil, err
	}
	res, err := Play(sc, sol)
	if err != nil {
		fail(ch.Pos, "challenge.solution: %v", err)
	} else {
		p.Solution = res
		if res.Status.State != Solved {
			fail(ch.Pos, "challenge.solution does not solve the challenge: %s", res.Status.Why())
		}
	}
	// Doing nothing does not.
	p.Claims++
	if res, err := Play(sc, nil); err != nil {
		return nil, err
	} else if res.Status.State == Solved {
		fail(ch.Pos, "challenge: solved with no input at all (%s): the goal must not hold without the learner", res.Status.Why())
	}
	// Each shortcut is caught.
	for i := range ch.Forbid {
		f := &ch.Forbid[i]
		p.Claims++
		try, err := Given(sc, []scenario.Step{f.Try})
		if err != nil {
			return nil, err
		}
		res, err := Play(sc, try)
		switch {
		case err != nil:
			fail(f.Try.Pos, "challenge.forbid[%d].try: %v", i, err)
		case res.Status.State != Shortcut:
			fail(f.Try.Pos, "challenge.forbid[%d].try is not caught: %s", i, res.Status.Why())
		case res.Status.Forbid != f:
			fail(f.Try.Pos, "challenge.forbid[%d].try is caught as another shortcut: %s", i, res.Status.Why())
		}
	}
	return p, nil
}
