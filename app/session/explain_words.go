package session

import (
	"fmt"
	"strings"

	"reconcile/engine/controller"
	"reconcile/engine/sim"
)

// The words a pass's sentences share: its actions in the past tense,
// counted, listed.

// splitActions separates the steps a pass took from its status writes
// (which report what is true) and from writes the API server refused
// (the pass's error says those).
func splitActions(actions []controller.Action) (steps, status []controller.Action) {
	for _, a := range actions {
		switch {
		case a.Refused != "":
		case a.IsStatus():
			status = append(status, a)
		default:
			steps = append(steps, a)
		}
	}
	return steps, status
}

// statusWords reads status writes as what they reported: "replicas 5,
// ready 0, available 0".
func statusWords(status []controller.Action) string {
	words := make([]string, len(status))
	for i, a := range status {
		words[i] = reported(a)
	}
	return strings.Join(words, "; ")
}

// reported is what a status write reported.
func reported(a controller.Action) string { return a.Detail }

// pastTense is each verb in the past.
var pastTense = map[controller.Verb]string{
	controller.BackOff: "backed off", controller.RetryPull: "retried pulling", controller.Pull: "started pulling",
	controller.Create: "created", controller.Delete: "deleted", controller.Bind: "bound", controller.Start: "started",
	controller.Stop: "stopped", controller.Remove: "removed", controller.Post: "posted", controller.Set: "set",
	controller.Mark: "marked", controller.Taint: "tainted", controller.Evict: "evicted", controller.Scale: "scaled",
	controller.Annotate: "annotated", controller.Apply: "applied", controller.Kill: "killed", controller.Label: "labeled",
	controller.Update: "updated", controller.Unschedulable: "marked PodScheduled=False:",
}

// past says a step in the past tense; rest is what follows its verb.
func past(a controller.Action, rest string) string {
	switch a.Verb {
	case controller.PullFailed:
		return fmt.Sprintf("failed to pull %s (%s)", a.Image, a.Detail)
	case controller.Exited:
		if a.Detail != "" {
			return fmt.Sprintf("saw container %s exit with code %d (%s)", a.Container, a.Code, a.Detail)
		}
		return fmt.Sprintf("saw container %s exit with code %d", a.Container, a.Code)
	case controller.ReadinessPassed:
		return "saw the readiness probe of " + a.Container + " pass"
	case controller.Outside:
		return "recorded what the pod did outside the cluster: " + a.Detail
	}
	if v, ok := pastTense[a.Verb]; ok {
		return v + " " + rest
	}
	return a.String()
}

// restOf is what an action's words say after its verb.
func restOf(a controller.Action) string {
	if a.Noun != "" {
		return a.Noun + " " + a.Name + tailOf(a)
	}
	return a.Rest
}

func tailOf(a controller.Action) string {
	if a.Tail == "" {
		return ""
	}
	return " " + a.Tail
}

// done lists actions in the past tense, alike actions on pods counted
// ("created 3 pods"): "a", "a and b", "a, b and c".
func done(actions []controller.Action) string { return listWords(doneParts(actions)) }

// doneParts are the actions in the past tense, alike actions on pods
// (the same verb, the same words after the pod's name) counted, one part
// each.
func doneParts(actions []controller.Action) []string {
	type group struct {
		first controller.Action
		n     int
	}
	var groups []*group
	for _, a := range actions {
		if n := len(groups); n > 0 && a.Noun == "pod" {
			if g := groups[n-1]; g.first.Noun == "pod" && g.first.Verb == a.Verb && g.first.Tail == a.Tail {
				g.n++
				continue
			}
		}
		groups = append(groups, &group{first: a, n: 1})
	}
	parts := make([]string, len(groups))
	for i, g := range groups {
		if g.n == 1 {
			parts[i] = past(g.first, restOf(g.first))
		} else {
			parts[i] = past(g.first, fmt.Sprintf("%d pods%s", g.n, tailOf(g.first)))
		}
	}
	return parts
}

// listWords joins "a", "a and b", "a, b and c".
func listWords(parts []string) string {
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// nothingToDo ends an in-sync sentence, with the status the pass reported.
func nothingToDo(status []controller.Action) string {
	if len(status) == 0 {
		return "nothing to do."
	}
	return fmt.Sprintf("nothing to do but report its status (%s).", statusWords(status))
}

// noStep is the sentence of a pass that took no step although its
// difference was not none: the difference says what holds it.
func noStep(who, obj, difference string, status []controller.Action) string {
	if len(status) == 0 {
		return fmt.Sprintf("%s took no step on %s (%s).", who, obj, difference)
	}
	return fmt.Sprintf("%s took no step on %s (%s) and only reported its status (%s).", who, obj, difference, statusWords(status))
}

// genericWhat is the sentence for a controller without words of its own.
func genericWhat(p sim.Pass, who, obj string, steps, status []controller.Action) string {
	seen := ""
	if p.Observed.Words != "" && p.Observed.Is != controller.Nothing {
		seen = " (" + p.Observed.Words + ")"
	}
	switch {
	case len(steps) > 0:
		return fmt.Sprintf("%s looked at %s%s and %s.", who, obj, seen, done(steps))
	case differs(p):
		return noStep(who, obj, p.Difference.Words, status)
	}
	return fmt.Sprintf("%s found %s in sync: %s", who, obj, nothingToDo(status))
}

// differs reports whether a pass said there was a difference: words, and
// not "none".
func differs(p sim.Pass) bool {
	return p.Difference.Words != "" && p.Difference.Is != controller.Nothing
}
