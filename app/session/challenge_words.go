package session

import (
	"fmt"
	"strings"

	"reconcile/engine/assertion"
	"reconcile/engine/check"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
)

// ChallengeBrief is what a challenge asks, in words: its goal, how long it
// must hold, its limits and the shortcuts it refuses.
type ChallengeBrief struct {
	// Start says where the challenge starts ("at the lesson's symptom,
	// t=3m").
	Start string
	Goal  []GoalLine
	// Hold is how long the goal must keep holding; Within the time limit
	// ("" for none); Budget the failed requests allowed ("" for none).
	Hold, Within, Budget string
	Forbid               []ForbidLine
}

// GoalLine is one assertion of a goal: as written, and in plain words.
type GoalLine struct{ Text, Words string }

// ForbidLine is a shortcut the challenge refuses and why.
type ForbidLine struct{ What, Message string }

// BriefOf says what sc's challenge asks.
func BriefOf(sc *scenario.Scenario) ChallengeBrief {
	ch := sc.Challenge
	b := ChallengeBrief{Hold: check.Duration(ch.Hold)}
	switch ch.StartText {
	case "start":
		b.Start = "at the lesson's start"
	case "symptom":
		b.Start = fmt.Sprintf("at the lesson's symptom, t=%s", check.Duration(ch.Start))
	default:
		b.Start = "at t=" + check.Duration(ch.Start)
	}
	if ch.Within > 0 {
		b.Within = check.Duration(ch.Within)
	}
	if ch.FailedRequests != nil {
		switch n := *ch.FailedRequests; n {
		case 0:
			b.Budget = "no request of the traffic may fail"
		default:
			b.Budget = fmt.Sprintf("at most %d failed %s", n, plural(n, "request", "requests"))
		}
	}
	for _, e := range ch.Goal {
		b.Goal = append(b.Goal, GoalLine{Text: e.That, Words: goalWords(e.Assertion)})
	}
	for _, f := range ch.Forbid {
		b.Forbid = append(b.Forbid, ForbidLine{What: forbidWords(f), Message: f.Message})
	}
	return b
}

var opWords = map[string]string{"==": "is", "!=": "is not", "<": "is under", "<=": "is at most", ">": "is over", ">=": "is at least", "contains": "contains"}

// goalWords says an assertion in plain words: "5 pods with app=web,
// ready", "web's spec.replicas is 5".
func goalWords(a *assertion.Assertion) string {
	if a == nil {
		return ""
	}
	op := opWords[a.Op]
	value := a.Value.Text
	if len(a.Value.Path) > 0 {
		value = "its " + a.Value.Path.String()
	}
	switch {
	case a.Traffic != nil:
		q := a.Traffic
		what := "requests " + q.Field
		switch q.Field {
		case "failed":
			what = "failed requests"
		case "ok":
			what = "requests answered"
		case "total":
			what = "requests sent"
		case "digest":
			what = "requests answered by pods running " + q.Digest
		}
		if q.Window > 0 {
			what += " over the last " + check.Duration(q.Window)
		}
		return fmt.Sprintf("%s: %s %s", what, op, value)
	case a.Count:
		var terms []string
		for _, t := range a.Terms {
			switch {
			case t.Flag && t.Not:
				terms = append(terms, "not "+t.Key)
			case t.Flag:
				terms = append(terms, t.Key)
			case t.Not:
				terms = append(terms, t.Key+"≠"+t.Value)
			default:
				terms = append(terms, t.Key+"="+t.Value)
			}
		}
		kind := strings.ToLower(a.Kind) + "s"
		if len(terms) > 0 {
			kind += " (" + strings.Join(terms, ", ") + ")"
		}
		return fmt.Sprintf("the number of %s %s %s", kind, op, value)
	}
	return fmt.Sprintf("%s %s's %s %s %s", strings.ToLower(a.Kind), a.Name, a.Path.String(), op, value)
}

func forbidWords(f scenario.Forbid) string {
	target := f.Target
	if f.Name == "" {
		target = "any " + strings.ToLower(f.Kind)
	}
	switch f.Action {
	case scenario.ForbidDelete:
		return "deleting " + target
	case scenario.ForbidEdit:
		return "editing " + target + " live"
	case scenario.ForbidAdd:
		return "adding a " + f.Target
	case scenario.ForbidFault:
		return "the " + f.Target + " fault"
	}
	return f.Target
}

// SolvedView is the Solved screen: the learner's inputs beside the
// reference solution's, when the goal began to hold, what it cost, and
// the lesson's sentence for why it works.
type SolvedView struct {
	Yours, Reference []InputLine
	// Since is when the goal began to hold; Held how long it held.
	Since, Held string
	// Failed are the requests failed since the start (-1: the lesson
	// sends no traffic); Replaced the pods gone since the first input.
	Failed, Replaced int
	Why              string
	// Hints are the hints taken, in words.
	Hints []string
}

// InputLine is one input: when, what, and the manifests it carried.
type InputLine struct{ At, Text, Manifests string }

// Solved says how the learner solved the challenge (ok false when it is
// not solved).
func (s *Session) Solved(c *Challenge) (SolvedView, bool) {
	st := c.status
	if st.State.String() != "solved" {
		return SolvedView{}, false
	}
	ch := c.sc.Challenge
	v := SolvedView{Since: "t=" + check.Duration(st.Since), Held: check.Duration(st.Hold), Replaced: st.PodsReplaced, Why: ch.Why, Failed: -1}
	if len(c.sc.Traffic) > 0 {
		from := ch.Start
		if len(c.inputs) > 0 {
			from = min(from, c.inputs[0].At)
		}
		v.Failed = s.run.TrafficWindow("", from, st.At+1000).Failed
	}
	for _, g := range c.inputs {
		v.Yours = append(v.Yours, InputLine{At: "t=" + check.Duration(g.At), Text: InputText(g.Input), Manifests: manifestsOf(g.Input)})
	}
	for _, st := range ch.Solution {
		at := "t=" + check.Duration(st.At)
		if st.AfterPass > 0 {
			at = fmt.Sprintf("after pass %d", st.AfterPass)
		}
		v.Reference = append(v.Reference, InputLine{At: at, Text: StepText(st), Manifests: manifestsOf(st.Input)})
	}
	v.Hints = c.HintsTaken()
	return v, true
}

func manifestsOf(in sim.Input) string {
	switch in := in.(type) {
	case sim.Apply:
		return in.Manifests
	case sim.Diff:
		return in.Manifests
	case sim.Commit:
		return in.Manifests
	}
	return ""
}
