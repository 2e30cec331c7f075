package sim

import (
	"fmt"
	"reconcile/engine/controller"
	"strings"
)

// FormatPass renders a pass on one line, the way the lesson reads:
// "#12 t=34s replicaset-controller default/web-7d9c  desired 5 · observed 3 · difference +2 → create 2 pods".
func FormatPass(p Pass) string {
	who := p.Controller
	if p.Host != "" {
		who += "@" + p.Host
	}
	return fmt.Sprintf("#%d t=%s %s %s  desired %s · observed %s · difference %s → %s", p.N, p.AtText, who, p.Key,
		p.Desired, p.Observed, p.Difference, SummarizeActions(p))
}

// SummarizeActions folds a pass's actions into a short phrase: alike
// steps on pods are counted ("create 2 pods"), and no action reads
// "nothing to do".
func SummarizeActions(p Pass) string {
	var acts []controller.Action
	refused := false
	for _, a := range p.Actions {
		// Status writes report what is true; they are not steps towards desired.
		if !a.IsStatus() {
			acts = append(acts, a)
			refused = refused || a.Refused != ""
		}
	}
	if len(acts) == 0 && len(p.Actions) > 0 {
		if p.Result == controller.Crashed || p.Result == controller.Failed {
			return "report status only — " + p.Outcome
		}
		return "report status only"
	}
	if len(acts) == 0 {
		if p.Result == controller.Crashed || p.Result == controller.Failed {
			return p.Outcome
		}
		return "nothing to do"
	}
	type group struct {
		verb  controller.Verb // a step on a pod, counted; 0 for any other
		n     int
		first controller.Action
	}
	var groups []group
	for _, a := range acts {
		var verb controller.Verb
		if a.Noun == "pod" && a.Refused == "" {
			verb = a.Verb
		}
		if n := len(groups); n > 0 && verb != 0 && groups[n-1].verb == verb {
			groups[n-1].n++
			continue
		}
		groups = append(groups, group{verb: verb, n: 1, first: a})
	}
	parts := make([]string, len(groups))
	for i, g := range groups {
		if g.n == 1 {
			parts[i] = g.first.String()
		} else {
			parts[i] = fmt.Sprintf("%s %d pods", g.verb, g.n)
		}
	}
	s := strings.Join(parts, ", ")
	if p.Result == controller.Crashed || p.Result == controller.Failed && !refused {
		s += " — " + p.Outcome
	}
	return s
}
