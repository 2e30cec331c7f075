package session

import (
	"fmt"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/kubectl"
	"reconcile/engine/sim"
)

// How much of a big cluster the pane draws: a pass touches one key, and a
// render must not cost more because the cluster has 10,000 pods.
const (
	MaxNodesShown      = 24
	MaxPodsShownOnNode = 30
	MaxOthersShown     = 20
)

// Cluster is what the cluster pane shows: workloads with their counts,
// nodes with their pods, the control plane's controllers.
type Cluster struct {
	Deployments []Workload
	ReplicaSets []Workload
	Nodes       []NodeView
	// NodesFrom is the index of the first node drawn, of NodesTotal: the
	// pane draws the nodes a page at a time.
	NodesFrom, NodesTotal int
	// Unscheduled holds the pods no node has taken yet.
	Unscheduled NodeView
	Others      []api.Ref
	MoreOthers  int
	Controllers []sim.ControllerState
	ActivePods  int
}

// Workload is one Deployment or ReplicaSet and its replica counts.
type Workload struct {
	Ref                                          api.Ref
	Desired, Current, Ready, Available, UpToDate int32
	Generation, Observed                         int64
}

// NodeView is one node and the pods bound to it.
type NodeView struct {
	Ref    api.Ref
	Status string
	// Kubelet is the state of the node's kubelet: running, stopped, crashed.
	Kubelet string
	Pods    []PodChip
	More    int
	Total   int
}

// PodChip is a pod as the cluster pane draws it: its status in words and
// as a shape, so that colour is never the only signal.
type PodChip struct {
	Ref    api.Ref
	Short  string
	Status string
	Ready  string
	Shape  string
}

// Pod shapes, from healthy to broken; the legend explains them.
const (
	ShapeReady       = "ready"       // filled circle: running and ready
	ShapeNotReady    = "not-ready"   // ring: running, not ready yet
	ShapePending     = "pending"     // square: waiting to be scheduled or started
	ShapeTerminating = "terminating" // diamond: being deleted
	ShapeFailed      = "failed"      // triangle: failed, crashing or cannot pull
	ShapeDone        = "done"        // bar: completed
)

// ShapeLegend says in words what each shape means, for the legend.
var ShapeLegend = []struct{ Shape, Words string }{
	{ShapeReady, "running and ready"},
	{ShapeNotReady, "running, not ready"},
	{ShapePending, "pending"},
	{ShapeTerminating, "terminating"},
	{ShapeFailed, "failing"},
}

// readCluster reads the cluster pane's view from the run, whose nodes and
// pods x has just read, and whose controllers are ctrls. It reads what the
// pane draws (a page of nodes, a few pods on each) and the pods' counts,
// not every pod. page is the page of nodes drawn (from 0; past the last,
// the last).
func readCluster(run *sim.Sim, x *worldIndex, ctrls []sim.ControllerState, page int) Cluster {
	var v Cluster
	st := run.Store()
	for _, o := range st.List("Deployment") {
		d := o.(*api.Deployment)
		v.Deployments = append(v.Deployments, Workload{
			Ref: api.RefOf(d), Desired: api.Deref(d.Spec.Replicas, 1), Current: d.Status.Replicas,
			UpToDate: d.Status.UpdatedReplicas, Ready: d.Status.ReadyReplicas, Available: d.Status.AvailableReplicas,
			Generation: d.Generation, Observed: d.Status.ObservedGeneration,
		})
	}
	for _, o := range st.List("ReplicaSet") {
		r := o.(*api.ReplicaSet)
		v.ReplicaSets = append(v.ReplicaSets, Workload{
			Ref: api.RefOf(r), Desired: api.Deref(r.Spec.Replicas, 1), Current: r.Status.Replicas,
			Ready: r.Status.ReadyReplicas, Available: r.Status.AvailableReplicas,
			Generation: r.Generation, Observed: r.Status.ObservedGeneration,
		})
	}
	v.NodesTotal = len(x.nodes)
	v.NodesFrom = max(0, min(page, (len(x.nodes)-1)/MaxNodesShown)) * MaxNodesShown
	shown := x.nodes[v.NodesFrom:min(len(x.nodes), v.NodesFrom+MaxNodesShown)]
	kubelets := make(map[string]string, len(shown))
	for _, o := range shown {
		kubelets[o.Meta().Name] = ""
	}
	for _, c := range ctrls {
		if c.Host == "" {
			v.Controllers = append(v.Controllers, c)
		} else if _, ok := kubelets[c.Host]; ok {
			kubelets[c.Host] = c.State
		}
	}
	for _, o := range shown {
		n := o.(*api.Node)
		nv := NodeView{Ref: api.RefOf(n), Status: kubectl.NodeStatus(n), Kubelet: kubelets[n.Name]}
		nv.Pods, nv.Total = x.podsOn(n.Name, MaxPodsShownOnNode)
		nv.More = nv.Total - len(nv.Pods)
		v.Nodes = append(v.Nodes, nv)
	}
	v.Unscheduled.Ref = api.Ref{Kind: "Node"}
	v.Unscheduled.Pods, v.Unscheduled.Total = x.podsOn("", MaxPodsShownOnNode)
	v.Unscheduled.More = v.Unscheduled.Total - len(v.Unscheduled.Pods)
	v.ActivePods = x.active
	for _, kind := range st.Kinds() {
		switch kind {
		case "Deployment", "ReplicaSet", "Pod", "Node", "Event", "Lease":
			continue
		}
		if len(v.Others) >= MaxOthersShown {
			v.MoreOthers += st.Count(kind)
			continue
		}
		for _, o := range st.List(kind) {
			if len(v.Others) >= MaxOthersShown {
				v.MoreOthers++
				continue
			}
			v.Others = append(v.Others, api.RefOf(o))
		}
	}
	return v
}

func chipOf(p *api.Pod) PodChip {
	c := PodChip{Ref: api.RefOf(p), Short: ShortName(p.Name), Status: kubectl.PodStatus(p)}
	ready, total := 0, len(p.Spec.Containers)
	for _, cs := range p.Status.ContainerStatuses {
		if cs.Ready {
			ready++
		}
	}
	c.Ready = fmt.Sprintf("%d/%d", ready, total)
	switch {
	case p.DeletionTimestamp != nil:
		c.Shape = ShapeTerminating
	case p.Status.Phase == api.PodSucceeded:
		c.Shape = ShapeDone
	case p.Status.Phase == api.PodFailed, strings.Contains(c.Status, "BackOff"), strings.Contains(c.Status, "Err"),
		strings.Contains(c.Status, "Error"), c.Status == "OOMKilled":
		c.Shape = ShapeFailed
	case p.Status.Phase == api.PodRunning && controller.IsPodReady(p):
		c.Shape = ShapeReady
	case p.Status.Phase == api.PodRunning:
		c.Shape = ShapeNotReady
	default:
		c.Shape = ShapePending
	}
	return c
}

// ShortName is the part of a generated name that tells pods apart:
// web-7d9c-x2kq9 → x2kq9.
func ShortName(name string) string {
	if i := strings.LastIndexByte(name, '-'); i >= 0 && i < len(name)-1 {
		return name[i+1:]
	}
	return name
}
