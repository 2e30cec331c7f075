package sim

import (
	"slices"

	"reconcile/engine/api"
	"reconcile/engine/queue"
	"reconcile/engine/registry"
)

// probeChanged wakes, on every node, the kubelet of each pod with a
// container of the image a probe fault changed: its probe workers see the
// new answer at their next period.
func (w *world) probeChanged(f Fault) {
	nodes := make([]string, 0, len(w.kubelets))
	for n := range w.kubelets {
		nodes = append(nodes, n)
	}
	slices.Sort(nodes)
	for _, node := range nodes {
		i := w.kubelets[node]
		c := w.proc(i)
		if !c.running {
			continue
		}
		for _, o := range w.store.List("Pod") {
			p := o.(*api.Pod)
			if p.Spec.NodeName != node || !usesImage(p, f.Target) {
				continue
			}
			w.enqueue(i, api.RefOf(p).Key(), queue.Trigger{Cause: queue.Probe, Reason: f.Target + " now " + verbPast(f.Verb) + " its " + f.Probe + " probe"}, nil)
		}
	}
}

func verbPast(v string) string {
	if v == "pass-probe" {
		return "passes"
	}
	return "fails"
}

func usesImage(p *api.Pod, ref string) bool {
	for _, cs := range [][]api.Container{p.Spec.More().InitContainers, p.Spec.Containers} {
		for _, c := range cs {
			if registry.Normal(c.Image) == registry.Normal(ref) {
				return true
			}
		}
	}
	return false
}
