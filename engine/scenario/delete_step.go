package scenario

import (
	"strings"

	"reconcile/engine/kubectl"
	"reconcile/engine/sim"

	"gopkg.in/yaml.v3"
)

// policies are DeleteOptions.propagationPolicy's values, as the API
// server lists them.
var policies = []string{"Foreground", "Background", "Orphan"}

// deleteStep reads a delete step: `delete: deployment/web`, with an
// optional `propagationPolicy: Foreground | Background | Orphan` (the
// default: Background, as kubectl sends). It is the kubectl command that
// does it, `delete deployment/web --cascade=foreground`, so that the
// trace, the replay and a share link carry it as any kubectl step.
func (l *loader) deleteStep(v, policy *yaml.Node, sp string) (sim.Kubectl, bool) {
	what, ok := l.str(v, sp+".delete")
	if !ok {
		return sim.Kubectl{}, false
	}
	what = strings.TrimSpace(what)
	if kind, name, found := strings.Cut(what, "/"); !found || kind == "" || name == "" || strings.ContainsAny(what, " \t") {
		l.fail(v, "%s.delete: want KIND/NAME, such as deployment/web; got %q", sp, what)
		return sim.Kubectl{}, false
	}
	line := "delete " + what
	if policy != nil {
		p, ok := l.str(policy, sp+".propagationPolicy")
		if !ok {
			return sim.Kubectl{}, false
		}
		known := false
		for _, q := range policies {
			known = known || p == q
		}
		if !known {
			l.fail(policy, "%s.propagationPolicy: Unsupported value: %q: supported values: \"Foreground\", \"Background\", \"Orphan\"", sp, p)
			return sim.Kubectl{}, false
		}
		line += " --cascade=" + strings.ToLower(p)
	}
	if err := kubectl.Check(line); err != nil {
		l.fail(v, "%s.delete: %v", sp, err)
		return sim.Kubectl{}, false
	}
	return sim.Kubectl{Line: line}, true
}
