package scenario

import (
	"fmt"
	"reconcile/engine/fault"
	"reconcile/engine/kubectl"
	"reconcile/engine/limits"
	"reconcile/engine/manifest"
	"reconcile/engine/sim"
	"reconcile/engine/yamlpos"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

var stepFields = []string{"at", "afterPass", "fault", "kubectl", "apply", "diff", "git", "delete", "propagationPolicy"}

func (l *loader) steps(n *yaml.Node, path string, response bool) []Step {
	items := l.list(n, path, `[{at: 30s, fault: "node-down worker-2"}]`)
	var out []Step
	for i, item := range items {
		sp := fmt.Sprintf("%s[%d]", path, i)
		if i == limits.MaxSteps {
			l.fail(item, "%s: too many steps: the limit is %d (MaxSteps)", sp, limits.MaxSteps)
			break
		}
		f := l.fields(item, sp, stepFields)
		if f == nil {
			continue
		}
		st := Step{Pos: l.pm.Of(yamlpos.Resolve(item))}
		at, after := f.get("at"), f.get("afterPass")
		switch {
		case at != nil && after != nil:
			l.fail(after, "%s: give at or afterPass, not both", sp)
		case at != nil:
			st.At, _ = l.duration(at, sp+".at")
		case after != nil:
			if v, ok := l.integer(after, sp+".afterPass", 32); ok {
				if v < 1 {
					l.fail(after, "%s.afterPass: must be a pass number, 1 or more", sp)
				}
				st.AfterPass = int(v)
			}
		case !response:
			l.fail(f.node, "%s: Required value: when the step happens: at (a time such as 30s) or afterPass (a pass number)", sp)
		}
		kind, ok := l.oneOf(f, sp, "fault", "kubectl", "apply", "diff", "git", "delete")
		if !ok {
			continue
		}
		if p := f.get("propagationPolicy"); p != nil && kind != "delete" {
			l.fail(p, "%s.propagationPolicy: goes with a delete step", sp)
		}
		switch v := f.get(kind); kind {
		case "fault":
			if f, ok := l.fault(v, sp+".fault"); ok {
				st.Input = f
			}
		case "kubectl":
			if s, ok := l.str(v, sp+".kubectl"); ok {
				if l.trusted {
					// LoadTrusted: the dry run only finds errors.
				} else if err := kubectl.Check(s); err != nil {
					l.fail(v, "%s.kubectl: %v", sp, err)
				}
				st.Input = sim.Kubectl{Line: strings.TrimSpace(s)}
			}
		case "delete":
			if in, ok := l.deleteStep(v, f.get("propagationPolicy"), sp); ok {
				st.Input = in
			}
		case "apply", "diff", "git":
			s, _ := l.str(v, sp+"."+kind)
			if strings.TrimSpace(s) == "" {
				l.fail(v, "%s.%s: Required value: Kubernetes YAML to %s", sp, kind, map[string]string{"apply": "apply", "diff": "diff", "git": "commit"}[kind])
				continue
			}
			mode := l.validate
			if kind != "git" && mode == manifest.Strict {
				// an object the API server would not decode is refused
				// when the step runs, with kubectl's error: not the lesson
				mode = manifest.RefuseEach
			}
			st.Manifests = l.checkManifests(l.blockAs(v, sp+"."+kind, mode), false)
			switch kind {
			case "apply":
				st.Input = sim.Apply{Manifests: s}
			case "diff":
				st.Input = sim.Diff{Manifests: s}
			default:
				st.Input = sim.Commit{Manifests: s}
				if l.sc.Cluster.GitOps == nil {
					l.fail(v, "%s.git: a git step needs cluster.gitops (e.g. gitops: {interval: 30s})", sp)
				}
			}
		}
		out = append(out, st)
	}
	return out
}

func (l *loader) fault(n *yaml.Node, path string) (sim.Fault, bool) {
	s, ok := l.str(n, path)
	if !ok {
		return sim.Fault{}, false
	}
	// A lesson's run has the built-in controllers (Config names no other
	// registry): its faults are read for them.
	f, err := sim.ParseFault(strings.Join(strings.Fields(s), " "))
	if err != nil {
		l.fail(n, "%s: %v", path, err)
		return f, false
	}
	if (f.Verb == fault.NodeDown || f.Verb == fault.NodeUp) && !l.nodes[f.Target] {
		names := make([]string, 0, len(l.nodes))
		for name := range l.nodes {
			names = append(names, name)
		}
		sort.Strings(names)
		if len(names) > 5 {
			names = append(names[:5], "...")
		}
		l.fail(n, "%s: no node named %q; the cluster's nodes are %s", path, f.Target, strings.Join(names, ", "))
	}
	return f, true
}
