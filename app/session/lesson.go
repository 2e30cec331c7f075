package session

import (
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
		kind, name := "", ""
		switch {
		case e.Assertion != nil && !e.Assertion.Count:
			kind, name = e.Assertion.Kind, e.Assertion.Name
		case e.Event != nil:
			k, n, err := assertion.ParseObjectRef(e.Event.Object)
			if err != nil {
				continue
			}
			kind, name = k, n
		default:
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
