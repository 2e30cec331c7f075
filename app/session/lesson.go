package session

import (
	"fmt"
	"reflect"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/assertion"
	"reconcile/engine/manifest"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
)

// StepText describes a lesson's step (its response) the way a learner
// would type it.
func StepText(st scenario.Step) string {
	switch st.Input.(type) {
	case sim.Apply:
		return "kubectl apply -f - (" + manifestNames(st.Manifests) + ")"
	case sim.Diff:
		return "kubectl diff -f - (" + manifestNames(st.Manifests) + ")"
	case sim.Commit:
		return "git commit (" + manifestNames(st.Manifests) + ")"
	case nil:
		return ""
	}
	return st.Input.Text()
}

func manifestNames(ms []manifest.Manifest) string {
	names := make([]string, len(ms))
	for i, m := range ms {
		names[i] = api.RefOf(m.Object).String()
	}
	if len(names) == 0 {
		return "manifests"
	}
	return strings.Join(names, ", ")
}

// Evidence is the object a failure lesson's expectations point at: the
// first one they name exactly, else the first that matches a pattern.
func Evidence(run *sim.Sim, sc *scenario.Scenario) (api.Ref, bool) {
	for _, e := range sc.Expect {
		kind, name, ok := namedBy(e, false)
		if !ok {
			continue
		}
		for _, o := range run.Store().List(kind) {
			if assertion.MatchName(name, o.Meta().Name) {
				return api.RefOf(o), true
			}
		}
	}
	return api.Ref{}, false
}

// SymptomPass is the pass a failure lesson's symptom shows in: of the
// passes up to the symptom's moment (SymptomAt), the last that wrote an
// object the symptom's expectations name (in the order the lesson names
// them). At stuck-rollout's symptom that is the deployment-controller's
// pass that turned Progressing False, not the quiet kubelet passes after
// it. ok is false when no pass wrote one (the page shows the current pass).
func SymptomPass(run *sim.Sim, sc *scenario.Scenario) (sim.Pass, bool) {
	at := SymptomAt(sc)
	var passes []sim.Pass
	for _, e := range sc.Expect {
		if e.At != at {
			continue
		}
		kind, name, ok := namedBy(e, true)
		if !ok {
			continue
		}
		if passes == nil {
			passes = run.PassesFrom(0)
		}
		for i := len(passes) - 1; i >= 0; i-- {
			p := passes[i]
			if p.At > at {
				continue
			}
			for _, c := range p.Changed {
				if c.Kind == kind && assertion.MatchName(name, c.Name) {
					return p, true
				}
			}
		}
	}
	return sim.Pass{}, false
}

// ResponseGiven reports whether the run, at its current pass, has been
// given the lesson's response: its inputs, in order, one after another,
// among those given up to now. after is the pass they were given after.
// Stepping back before that pass makes it not given (giving it there
// starts a new future).
func ResponseGiven(run *sim.Sim, sc *scenario.Scenario) (after int, ok bool) {
	steps := sc.Response
	if len(steps) == 0 {
		return 0, false
	}
	n := run.PassCount()
	var given []sim.Given
	for _, g := range run.Inputs() {
		if g.After <= n {
			given = append(given, g)
		}
	}
	for i := len(given) - len(steps); i >= 0; i-- {
		match := true
		for j, st := range steps {
			if !reflect.DeepEqual(given[i+j].Input, st.Input) {
				match = false
				break
			}
		}
		if match {
			return given[i].After, true
		}
	}
	return 0, false
}

// ResponseGivenError refuses a lesson's response given a second time: a
// rollback is another desired state, and `rollout undo` again would go
// forward to the template it undid.
type ResponseGivenError struct{ After int }

func (e ResponseGivenError) Error() string {
	return fmt.Sprintf("The response was applied after pass %d, and this run has it: applying it again would declare another desired state, not repeat the fix (a second rollout undo rolls forward to the template the first undid). To apply it at another moment, step back before pass %d.", e.After, e.After)
}

// GiveResponse gives the lesson's response now, each of its inputs in
// turn, and returns what each printed. It refuses, changing nothing, when
// the run has been given it already (ResponseGivenError), and stops at the
// first input that fails.
func (s *Session) GiveResponse(sc *scenario.Scenario) ([]sim.Output, error) {
	if after, ok := ResponseGiven(s.run, sc); ok {
		return nil, ResponseGivenError{After: after}
	}
	var outs []sim.Output
	for _, st := range sc.Response {
		out, err := s.Inject(st.Input)
		if err != nil {
			return outs, fmt.Errorf("%s: %w", StepText(st), err)
		}
		outs = append(outs, out)
	}
	return outs, nil
}

// namedBy is the kind and name (or name pattern) of the object an
// expectation is about: an assertion's object (not a count, nor traffic
// when noTraffic), or an event's object.
func namedBy(e scenario.Expect, noTraffic bool) (kind, name string, ok bool) {
	switch {
	case e.Assertion != nil && !e.Assertion.Count && !(noTraffic && e.Assertion.Traffic != nil):
		return e.Assertion.Kind, e.Assertion.Name, true
	case e.Event != nil:
		k, n, err := assertion.ParseObjectRef(e.Event.Object)
		return k, n, err == nil
	}
	return "", "", false
}
