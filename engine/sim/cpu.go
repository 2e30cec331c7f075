package sim

import (
	"reconcile/engine/api"
	"reconcile/engine/fault"
)

// The simulated metrics API. Pods use no CPU until a cpu fault says what
// they use: per pod ("cpu pod/web-x 250m" or "80%" of its request), or per
// Deployment, either as a share of each pod's request ("cpu
// deployment/web 85%": every pod of it, however many) or as a demand
// spread evenly over its running pods ("cpu deployment/web 900m": more
// pods, less each). A pod's own signal wins over its Deployment's. A pod
// has a reading only while all its containers run and its node's kubelet
// runs (metrics-server scrapes the kubelets).

// setCPU records a cpu fault's signal.
func (w *world) setCPU(f Fault) {
	kind, ns, name, err := fault.CPUTarget(f.Target)
	if err != nil {
		return // Parse checked it
	}
	w.cpu.Set(kind+"/"+ns+"/"+name, f.Value)
}

// PodCPU is what the metrics API reports of a pod's CPU use, in
// millicores (controller.Metrics).
func (w *world) PodCPU(p *api.Pod) (int64, bool) {
	if !w.measured(p) {
		return 0, false
	}
	if v, ok := w.cpu.Get("Pod/" + p.Namespace + "/" + p.Name); ok {
		return podShare(p, v, 1), true
	}
	dep := w.deploymentOf(p)
	if dep == "" {
		return 0, true
	}
	v, ok := w.cpu.Get("Deployment/" + p.Namespace + "/" + dep)
	if !ok {
		return 0, true
	}
	running := 0
	for _, o := range w.store.List("Pod") {
		q := o.(*api.Pod)
		if q.Namespace == p.Namespace && q.DeletionTimestamp == nil && w.measured(q) && w.deploymentOf(q) == dep {
			running++
		}
	}
	return podShare(p, v, max(running, 1)), true
}

// podShare is a pod's use under signal v: a percentage of its request, or
// its share of an amount among n pods.
func podShare(p *api.Pod, v string, n int) int64 {
	percent, amount, err := fault.CPUValue(v)
	if err != nil {
		return 0
	}
	if !percent {
		return amount / int64(n)
	}
	var request int64
	for _, c := range p.Spec.Containers {
		if q, ok := c.Resources.Requests["cpu"]; ok {
			request += q.Milli()
		}
	}
	return request * amount / 100
}

// deploymentOf names the Deployment that owns a pod through its
// ReplicaSet, or "".
func (w *world) deploymentOf(p *api.Pod) string {
	ref := p.ControllerOf()
	if ref == nil || ref.Kind != "ReplicaSet" {
		return ""
	}
	rs := w.store.Get("ReplicaSet", p.Namespace, ref.Name)
	if rs == nil {
		return ""
	}
	if owner := rs.Meta().ControllerOf(); owner != nil && owner.Kind == "Deployment" {
		return owner.Name
	}
	return ""
}

// measured reports whether metrics-server has a reading of p: all its
// containers run, on a node whose kubelet runs (a stopped kubelet is not
// scraped, whatever the pod's last status says).
func (w *world) measured(p *api.Pod) bool {
	return p.Spec.NodeName != "" && w.NodeUp(p.Spec.NodeName) && allRunning(p)
}

func allRunning(p *api.Pod) bool {
	if p.Status.Phase != api.PodRunning || len(p.Status.ContainerStatuses) < len(p.Spec.Containers) {
		return false
	}
	for _, cs := range p.Status.ContainerStatuses {
		if cs.State.Running == nil {
			return false
		}
	}
	return true
}
