package sim

import (
	"reconcile/engine/api"
	"reconcile/engine/kubectl"
)

// The metrics API as metrics-server would serve it, for kubectl top
// (kubectl.Metrics). metrics-server scrapes each kubelet; here the reading
// is the world's at the moment it is asked, without scrape jitter or its
// resolution (15 s upstream) and without the first scrapes' delay.
//
//   - A pod has metrics while all its containers run and its node's
//     kubelet runs, as the HPA's reading (PodCPU). Its CPU is PodCPU's
//     reading, split over its containers by their CPU requests (evenly
//     when none requests CPU); the millicores that do not divide go one
//     each to the first containers, so the containers sum to the reading
//     the HPA sees. A container's memory is what its image declares it
//     uses (registry.Image.Memory), 0 when the scenario declares none.
//     Init containers are not measured.
//   - A node has metrics while its kubelet runs (no node-down fault). Its
//     usage is the sum of its pods' that have metrics: the operating
//     system's and the system daemons' own use is not simulated.

// metrics serves the world's metrics API.
type metrics struct{ w *world }

// Metrics is the metrics API kubectl top reads, of the world as it is now.
func (s *Sim) Metrics() kubectl.Metrics { return metrics{s.w} }

// PodMetrics implements kubectl.Metrics.
func (m metrics) PodMetrics(p *api.Pod) ([]kubectl.ContainerUsage, bool) {
	cpu, ok := m.w.PodCPU(p)
	if !ok {
		return nil, false
	}
	out := make([]kubectl.ContainerUsage, len(p.Spec.Containers))
	var requested int64
	for _, c := range p.Spec.Containers {
		requested += c.Resources.Requests["cpu"].Milli()
	}
	var given int64
	for i, c := range p.Spec.Containers {
		share := cpu / int64(len(out))
		if requested > 0 {
			share = cpu * c.Resources.Requests["cpu"].Milli() / requested
		}
		out[i] = kubectl.ContainerUsage{Name: c.Name, Usage: kubectl.Usage{CPU: share, Memory: m.w.registry.Image(c.Image).Memory}}
		given += share
	}
	for i := 0; given < cpu && len(out) > 0; i = (i + 1) % len(out) {
		out[i].CPU++
		given++
	}
	return out, true
}

// NodeMetrics implements kubectl.Metrics.
func (m metrics) NodeMetrics(n *api.Node) (kubectl.Usage, bool) {
	if !m.w.NodeUp(n.Name) {
		return kubectl.Usage{}, false
	}
	var u kubectl.Usage
	for _, o := range m.w.store.List("Pod") {
		p := o.(*api.Pod)
		if p.Spec.NodeName != n.Name {
			continue
		}
		cs, ok := m.PodMetrics(p)
		if !ok {
			continue
		}
		for _, c := range cs {
			u.CPU += c.CPU
			u.Memory += c.Memory
		}
	}
	return u, true
}
