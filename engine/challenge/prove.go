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
	// Claims is how many claims were checked: the solution's, doing
	// nothing's, Shortcuts and, with a budget's try, OverBudget's.
	Claims    int
	Shortcuts int
	// OverBudget is the replay of the budget's try (nil: none).
	OverBudget *Result
}

// OK reports whether every claim held.
func (p *Proof) OK() bool { return len(p.Failures) == 0 }

// Prove checks sc's challenge is sound, as a solution bot would: the
// reference solution solves it, doing nothing does not, each forbidden
// shortcut's try is caught as that shortcut, and the budget's try goes
// over the budget.
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
		p.Shortcuts++
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
	// The budget's try goes over it.
	if len(ch.BudgetTry) > 0 {
		p.Claims++
		try, err := Given(sc, ch.BudgetTry)
		if err != nil {
			return nil, err
		}
		res, err := Play(sc, try)
		switch {
		case err != nil:
			fail(ch.BudgetTry[0].Pos, "challenge.failedRequests.try: %v", err)
		case res.Status.State != OverBudget:
			fail(ch.BudgetTry[0].Pos, "challenge.failedRequests.try does not go over the budget: %s", res.Status.Why())
		default:
			p.OverBudget = res
		}
	}
	return p, nil
}
