package challenge

import (
	"encoding/json"
	"fmt"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/check"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
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
	// The answer key names this world's controller, object and evidence.
	if q := ch.Questions; q != nil {
		p.Claims += 3
		if err := questionsHold(sc, q); err != nil {
			for _, e := range err {
				p.Failures = append(p.Failures, e)
			}
		}
	}
	return p, nil
}

// questionsHold checks the answer key against the world: the controller
// is one of its controllers, the object is there at the challenge's start.
func questionsHold(sc *scenario.Scenario, q *scenario.Questions) []*yamlpos.Error {
	var out []*yamlpos.Error
	cfg := sc.ForChallenge().Config()
	var names []string
	found := false
	for _, spec := range cfg.Registry() {
		if !cfg.Runs(spec) {
			continue
		}
		names = append(names, spec.Name)
		found = found || spec.Name == q.Controller
	}
	if !found {
		out = append(out, &yamlpos.Error{Pos: q.ControllerPos, Msg: fmt.Sprintf("challenge.questions.controller: %q is not a controller of this world; its controllers: %s", q.Controller, strings.Join(names, ", "))})
	}
	s, err := sim.New(cfg)
	if err != nil {
		return append(out, &yamlpos.Error{Pos: q.ObjectPos, Msg: err.Error()})
	}
	s.DropCheckpoints()
	s.RunUntil(sc.Challenge.Start, MaxPasses)
	var obj api.Object
	for o := range s.Store().Each(q.Kind) {
		if o.Meta().Name == q.Name {
			obj = o
		}
	}
	at := check.Duration(sc.Challenge.Start)
	if obj == nil {
		return append(out, &yamlpos.Error{Pos: q.ObjectPos, Msg: fmt.Sprintf("challenge.questions.object: there is no %s at the challenge's start (t=%s)", q.Object, at)})
	}
	// The line is there at the start, or comes in the lesson's own run
	// (a challenge from the start asks before the symptom shows).
	for !Says(s, obj, q.Says) {
		if _, ok := s.Next(); !ok || s.PassCount() >= MaxPasses {
			out = append(out, &yamlpos.Error{Pos: q.Says.Pos, Msg: fmt.Sprintf("challenge.questions.says: %s never says %s in the lesson's run from the challenge's start (t=%s)", q.Object, SaysText(q.Says), at)})
			break
		}
		if obj = s.Store().Get(q.Kind, obj.Meta().Namespace, q.Name); obj == nil {
			out = append(out, &yamlpos.Error{Pos: q.Says.Pos, Msg: fmt.Sprintf("challenge.questions.says: %s is gone before it says %s", q.Object, SaysText(q.Says))})
			break
		}
	}
	return out
}

// Says reports whether obj, in s's world now, has the condition (with its
// reason) or an event of the reason line names.
func Says(s *sim.Sim, obj api.Object, line scenario.Says) bool {
	m := obj.Meta()
	if line.Event != "" {
		for _, e := range s.Store().EventsFor(obj.GetTypeMeta().Kind, m.Namespace, m.Name) {
			if e.Reason == line.Event {
				return true
			}
		}
		return false
	}
	for _, c := range Conditions(obj) {
		if c.Type == line.Condition && (line.Reason == "" || c.Reason == line.Reason) {
			return true
		}
	}
	return false
}

// Condition is a status condition as the API writes it.
type Condition struct{ Type, Status, Reason, Message string }

// Conditions reads any object's status.conditions.
func Conditions(obj api.Object) []Condition {
	var probe struct {
		Status struct {
			Conditions []Condition `json:"conditions"`
		} `json:"status"`
	}
	data, err := json.Marshal(obj)
	if err != nil || json.Unmarshal(data, &probe) != nil {
		return nil
	}
	return probe.Status.Conditions
}

// SaysText writes a line as the answer key does: "condition Progressing
// (ProgressDeadlineExceeded)", "event FailedScheduling".
func SaysText(line scenario.Says) string {
	if line.Event != "" {
		return "event " + line.Event
	}
	if line.Reason != "" {
		return fmt.Sprintf("condition %s (%s)", line.Condition, line.Reason)
	}
	return "condition " + line.Condition
}
