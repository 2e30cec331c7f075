package scenario

import (
	"fmt"

	"reconcile/engine/api"
	"reconcile/engine/sim"
	"reconcile/engine/yamlpos"

	"gopkg.in/yaml.v3"
)

// Traffic is a lesson's request stream (traffic:): perSecond requests a
// second to a Service, from the start of the run (see sim.Traffic).
type Traffic struct {
	Pos       yamlpos.Pos
	Namespace string
	Service   string
	PerSecond int
}

// MaxPerSecond bounds a lesson's request rate: enough to see a failure
// that lasts a tenth of a second, few enough to keep a run cheap.
const MaxPerSecond = 100

var trafficFields = []string{"service", "namespace", "perSecond"}

// traffics reads traffic: one stream {service: web, perSecond: 10}, or a
// list of them (one per Service).
func (l *loader) traffics(n *yaml.Node, sc *Scenario) []Traffic {
	n = yamlpos.Resolve(n)
	items := []*yaml.Node{n}
	if n.Kind == yaml.SequenceNode {
		items = n.Content
	}
	var out []Traffic
	seen := map[string]bool{}
	for i, item := range items {
		path := "traffic"
		if n.Kind == yaml.SequenceNode {
			path = fmt.Sprintf("traffic[%d]", i)
		}
		if t := l.traffic(item, path, sc); t != nil {
			if seen[t.Namespace+"/"+t.Service] {
				l.fail(item, "%s: a second stream to service %s/%s: one stream per Service", path, t.Namespace, t.Service)
				continue
			}
			seen[t.Namespace+"/"+t.Service] = true
			out = append(out, *t)
		}
	}
	return out
}

// traffic reads one stream. The Service must be one the manifests or the
// apply steps declare.
func (l *loader) traffic(n *yaml.Node, path string, sc *Scenario) *Traffic {
	f := l.fields(n, path, trafficFields)
	if f == nil {
		return nil
	}
	t := &Traffic{Pos: l.pm.Of(n), Namespace: "default", PerSecond: 10}
	if v := f.get("namespace"); v != nil {
		if s, ok := l.str(v, path+".namespace"); ok {
			t.Namespace = s
		}
	}
	v := f.get("service")
	if v == nil {
		l.fail(n, "%s.service: required: name the Service the requests go to, e.g. traffic: {service: web, perSecond: 10}", path)
		return nil
	}
	s, ok := l.str(v, path+".service")
	if !ok {
		return nil
	}
	t.Service = s
	if r := f.get("perSecond"); r != nil {
		if p, ok := l.integer(r, path+".perSecond", 32); ok {
			if p < 1 || p > MaxPerSecond {
				l.fail(r, "%s.perSecond: %d is out of range: want 1 to %d requests a second", path, p, MaxPerSecond)
			}
			t.PerSecond = int(p)
		}
	}
	declared := func(o api.Object) bool {
		return o.GetTypeMeta().Kind == "Service" && o.Meta().Name == t.Service && (o.Meta().Namespace == t.Namespace || o.Meta().Namespace == "" && t.Namespace == "default")
	}
	for _, m := range sc.Manifests {
		if declared(m.Object) {
			return t
		}
	}
	for _, st := range sc.Steps {
		if _, diff := st.Input.(sim.Diff); diff {
			continue // a diff creates nothing
		}
		for _, m := range st.Manifests {
			if declared(m.Object) {
				return t
			}
		}
	}
	l.fail(v, "%s.service: no Service %q in namespace %q among the manifests or the apply steps", path, t.Service, t.Namespace)
	return t
}

// simTraffic is the run's form of ts.
func simTraffic(ts []Traffic) []sim.Traffic {
	var out []sim.Traffic
	for _, t := range ts {
		out = append(out, sim.Traffic{Namespace: t.Namespace, Service: t.Service, PerSecond: t.PerSecond})
	}
	return out
}

// String renders t as a lesson would write it.
func (t *Traffic) String() string {
	return fmt.Sprintf("%d requests/s to service %s/%s", t.PerSecond, t.Namespace, t.Service)
}
