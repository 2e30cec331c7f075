package session

import (
	"fmt"
	"strings"

	"reconcile/engine/sim"
)

// The words a pass's sentences share: its actions in the past tense,
// counted, listed.

// splitActions separates the steps a pass took from its status writes
// (which report what is true) and from writes the API server refused
// (the pass's error says those).
func splitActions(actions []string) (steps, status []string) {
	for _, a := range actions {
		switch {
		case strings.Contains(a, " → refused: "):
		case strings.HasPrefix(a, "update status"), strings.HasPrefix(a, "report status"):
			status = append(status, a)
		default:
			steps = append(steps, a)
		}
	}
	return steps, status
}

// statusWords reads status writes as what they reported: "replicas 5,
// ready 0, available 0".
func statusWords(status []string) string {
	words := make([]string, len(status))
	for i, a := range status {
		a = strings.TrimPrefix(strings.TrimPrefix(a, "update status"), "report status")
		a = strings.TrimSpace(a)
		words[i] = strings.TrimSuffix(strings.TrimPrefix(a, "("), ")")
	}
	return strings.Join(words, "; ")
}

// pastTense turns the verb an action starts with into the past.
var pastTense = []struct{ verb, past string }{
	{"back off ", "backed off "},
	{"retry pull ", "retried pulling "},
	{"pull ", "started pulling "},
	{"create ", "created "},
	{"delete ", "deleted "},
	{"bind ", "bound "},
	{"start ", "started "},
	{"stop ", "stopped "},
	{"remove ", "removed "},
	{"post ", "posted "},
	{"set ", "set "},
	{"mark ", "marked "},
	{"taint ", "tainted "},
	{"evict ", "evicted "},
	{"scale ", "scaled "},
	{"annotate ", "annotated "},
	{"apply ", "applied "},
	{"kill ", "killed "},
	{"label ", "labeled "},
	{"update ", "updated "},
}

func past(a string) string {
	switch {
	case strings.HasPrefix(a, "pull ") && strings.Contains(a, " failed: "):
		img, rest, _ := strings.Cut(strings.TrimPrefix(a, "pull "), " failed: ")
		return fmt.Sprintf("failed to pull %s (%s)", img, rest)
	case strings.HasPrefix(a, "container ") && strings.Contains(a, " exited with code "):
		name, code, _ := strings.Cut(strings.TrimPrefix(a, "container "), " exited with code ")
		return fmt.Sprintf("saw container %s exit with code %s", name, code)
	case strings.HasPrefix(a, "readiness probe of ") && strings.HasSuffix(a, " passed"):
		return "saw the " + strings.TrimSuffix(a, " passed") + " pass"
	case strings.HasPrefix(a, "outside the cluster: "):
		return "recorded what the pod did " + a
	}
	for _, v := range pastTense {
		if rest, ok := strings.CutPrefix(a, v.verb); ok {
			return v.past + rest
		}
	}
	return a
}

// done lists actions in the past tense, alike actions on pods counted
// ("created 3 pods"): "a", "a and b", "a, b and c".
func done(actions []string) string { return listWords(doneParts(actions)) }

// doneParts are the actions in the past tense, alike actions on pods
// counted, one part each.
func doneParts(actions []string) []string {
	type group struct {
		key, first, verb, suffix string
		n                        int
	}
	var groups []*group
	for _, a := range actions {
		g := &group{key: a, first: a, n: 1}
		if i := strings.Index(a, " pod "); i >= 0 {
			_, suffix, _ := strings.Cut(a[i+len(" pod "):], " ")
			if suffix != "" {
				suffix = " " + suffix
			}
			g.verb, g.suffix, g.key = a[:i], suffix, a[:i]+"\x00"+suffix
		}
		if n := len(groups); n > 0 && groups[n-1].key == g.key && g.verb != "" {
			groups[n-1].n++
			continue
		}
		groups = append(groups, g)
	}
	parts := make([]string, len(groups))
	for i, g := range groups {
		if g.n == 1 {
			parts[i] = past(g.first)
		} else {
			parts[i] = past(fmt.Sprintf("%s %d pods%s", g.verb, g.n, g.suffix))
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
func nothingToDo(status []string) string {
	if len(status) == 0 {
		return "nothing to do."
	}
	return fmt.Sprintf("nothing to do but report its status (%s).", statusWords(status))
}

// noStep is the sentence of a pass that took no step although its
// difference was not none: the difference says what holds it.
func noStep(who, obj, difference string, status []string) string {
	if len(status) == 0 {
		return fmt.Sprintf("%s took no step on %s (%s).", who, obj, difference)
	}
	return fmt.Sprintf("%s took no step on %s (%s) and only reported its status (%s).", who, obj, difference, statusWords(status))
}

// genericWhat is the sentence for a controller without words of its own.
func genericWhat(p sim.Pass, who, obj string, steps, status []string) string {
	seen := ""
	if p.Observed != "" && p.Observed != "-" {
		seen = " (" + p.Observed + ")"
	}
	switch {
	case len(steps) > 0:
		return fmt.Sprintf("%s looked at %s%s and %s.", who, obj, seen, done(steps))
	case p.Difference != "" && p.Difference != "none":
		return noStep(who, obj, p.Difference, status)
	}
	return fmt.Sprintf("%s found %s in sync: %s", who, obj, nothingToDo(status))
}

