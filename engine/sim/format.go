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

// SummarizeActions folds a pass's actions into a short phrase: repeated
// verbs are counted ("create 2 pods"), and no action reads "nothing to do".
func SummarizeActions(p Pass) string {
	var acts []string
	for _, a := range p.Actions {
		// Status writes report what is true; they are not steps towards desired.
		if !strings.HasPrefix(a, "update status") && !strings.HasPrefix(a, "report status") {
			acts = append(acts, a)
		}
	}
	if len(acts) == 0 && len(p.Actions) > 0 {
		return "report status only"
	}
	if len(acts) == 0 {
		if p.Result == controller.Crashed || p.Result == controller.Failed {
			return p.Outcome
		}
		return "nothing to do"
	}
	type group struct {
		verb  string
		n     int
		first string
	}
	var groups []group
	for _, a := range acts {
		verb := a
		if i := strings.Index(a, " pod "); i >= 0 && !strings.Contains(a, "→") {
			verb = a[:i] + " pod"
		}
		if len(groups) > 0 && groups[len(groups)-1].verb == verb {
			groups[len(groups)-1].n++
			continue
		}
		groups = append(groups, group{verb: verb, n: 1, first: a})
	}
	var parts []string
	for _, g := range groups {
		if g.n == 1 {
			parts = append(parts, g.first)
		} else {
			parts = append(parts, fmt.Sprintf("%s %d %ss", strings.TrimSuffix(g.verb, " pod"), g.n, "pod"))
		}
	}
	s := strings.Join(parts, ", ")
	if p.Result == controller.Crashed || p.Result == controller.Failed && !strings.Contains(s, "refused") {
		s += " — " + p.Outcome
	}
	return s
}
