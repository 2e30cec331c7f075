package session

import (
	"fmt"
	"iter"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/kinds"
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
//
// What the current pass changed is marked (PodChip.Change, NodeView.Ghosts,
// Workload.Changed, NodeView.Changed) when the reading follows the one
// before by steps forward (see Reader); after a seek nothing is marked.
type Cluster struct {
	Deployments []Workload
	ReplicaSets []Workload
	// DaemonSets and StatefulSets are the other workloads that keep pods
	// running (Jobs and CronJobs are among Others).
	DaemonSets   []Workload
	StatefulSets []Workload
	Nodes        []NodeView
	// NodesFrom is the index of the first node drawn, of NodesTotal: the
	// pane draws the nodes a page at a time.
	NodesFrom, NodesTotal int
	// Unscheduled holds the pods no node has taken yet.
	Unscheduled NodeView
	Others      []api.Ref
	MoreOthers  int
	Controllers []sim.ControllerState
	ActivePods  int
	// Acting is who ran the current pass: a controller, or "kubelet on
	// NODE" ("" before the first pass).
	Acting string
}

// Workload is one Deployment, ReplicaSet, DaemonSet or StatefulSet and its
// replica counts, as kubectl get shows them (a DaemonSet's desired count is
// status.desiredNumberScheduled: the nodes that should run its pod): Desired is spec.replicas; Current the active pods
// its status counts (not terminating, not finished); Ready those of them
// ready, NotReady the others. Drawn as slots: Desired slots, Ready filled,
// NotReady half filled, the rest empty (pods missing).
type Workload struct {
	Ref                                          api.Ref
	Desired, Current, Ready, Available, UpToDate int32
	NotReady                                     int32
	// Pods are the active pods it has now, PodsReady those of them ready:
	// what is there, whatever its status says yet (a Deployment's are its
	// ReplicaSets').
	Pods, PodsReady      int32
	Generation, Observed int64
	// Changed says the current pass (or an input since the pass before)
	// wrote it.
	Changed bool
}

// deploymentWorkload reads a Deployment's counts.
func deploymentWorkload(d *api.Deployment) Workload {
	return workload(Workload{
		Ref: api.RefOf(d), Desired: api.Deref(d.Spec.Replicas, 1), Current: d.Status.Replicas,
		UpToDate: d.Status.UpdatedReplicas, Ready: d.Status.ReadyReplicas, Available: d.Status.AvailableReplicas,
		Generation: d.Generation, Observed: d.Status.ObservedGeneration,
	})
}

// replicaSetWorkload reads a ReplicaSet's counts.
func replicaSetWorkload(r *api.ReplicaSet) Workload {
	return workload(Workload{
		Ref: api.RefOf(r), Desired: api.Deref(r.Spec.Replicas, 1), Current: r.Status.Replicas,
		Ready: r.Status.ReadyReplicas, Available: r.Status.AvailableReplicas,
		Generation: r.Generation, Observed: r.Status.ObservedGeneration,
	})
}

// daemonSetWorkload reads a DaemonSet's counts, the columns of kubectl get
// daemonsets: DESIRED, CURRENT, READY, UP-TO-DATE, AVAILABLE.
func daemonSetWorkload(d *api.DaemonSet) Workload {
	return workload(Workload{
		Ref: api.RefOf(d), Desired: d.Status.DesiredNumberScheduled, Current: d.Status.CurrentNumberScheduled,
		Ready: d.Status.NumberReady, UpToDate: d.Status.UpdatedNumberScheduled, Available: d.Status.NumberAvailable,
		Generation: d.Generation, Observed: d.Status.ObservedGeneration,
	})
}

// statefulSetWorkload reads a StatefulSet's counts.
func statefulSetWorkload(s *api.StatefulSet) Workload {
	return workload(Workload{
		Ref: api.RefOf(s), Desired: api.Deref(s.Spec.Replicas, 1), Current: s.Status.Replicas,
		Ready: s.Status.ReadyReplicas, UpToDate: s.Status.UpdatedReplicas, Available: s.Status.AvailableReplicas,
		Generation: s.Generation, Observed: s.Status.ObservedGeneration,
	})
}

func workload(w Workload) Workload {
	w.NotReady = max(0, w.Current-w.Ready)
	return w
}

// NodeView is one node and the pods bound to it.
type NodeView struct {
	Ref api.Ref
	// Status is kubectl get nodes' STATUS ("Ready,SchedulingDisabled");
	// Down says its Ready condition is not True.
	Status string
	Down   bool
	// Kubelet is the state of the node's kubelet: running, stopped, crashed.
	Kubelet string
	Pods    []PodChip
	More    int
	Total   int
	// Ghosts are the pods that were on the node at the reading before and
	// are gone (marked like Pods' changes), each with who deleted it.
	Ghosts []Ghost
	// Changed says the current pass (or an input since the pass before)
	// wrote the node.
	Changed bool
}

// PodChip is a pod as the cluster pane draws it: its status in words and
// as a shape, so that colour is never the only signal.
type PodChip struct {
	Ref    api.Ref
	Short  string
	Status string
	Ready  string
	Shape  string
	// Change is ChangeAdded when the current pass (or an input since the
	// pass before) created the pod, ChangeModified when it wrote it, ""
	// otherwise.
	Change string
}

// Values of PodChip.Change.
const (
	ChangeAdded    = "added"
	ChangeModified = "changed"
)

// Ghost is a pod gone since the reading before, drawn where it was, with
// who deleted it: "deleted by replicaset-controller", "deleted by the
// kubelet on worker-1 after it terminated", "deleted by an input:
// delete-pod app=web".
type Ghost struct {
	PodChip
	Reason string
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
func readCluster(run *sim.Sim, x *worldIndex, ctrls iter.Seq[sim.ControllerState], page int) Cluster {
	var v Cluster
	st := run.Store()
	m := x.marks
	for _, o := range x.deployments {
		w := deploymentWorkload(o.(*api.Deployment))
		w.Changed = m.written(w.Ref)
		uid := o.Meta().UID
		for _, r := range x.replicaSets {
			if ref := r.(*api.ReplicaSet).ControllerOf(); ref != nil && ref.UID == uid {
				c := x.owned[r.Meta().UID]
				w.Pods, w.PodsReady = w.Pods+c.active, w.PodsReady+c.ready
			}
		}
		v.Deployments = append(v.Deployments, w)
	}
	// direct reads the workloads that own their pods themselves: the pods
	// they have are those the index counts under their UID.
	direct := func(objs []api.Object, read func(api.Object) Workload) []Workload {
		var out []Workload
		for _, o := range objs {
			w := read(o)
			w.Changed = m.written(w.Ref)
			c := x.owned[o.Meta().UID]
			w.Pods, w.PodsReady = c.active, c.ready
			out = append(out, w)
		}
		return out
	}
	v.ReplicaSets = direct(x.replicaSets, func(o api.Object) Workload { return replicaSetWorkload(o.(*api.ReplicaSet)) })
	v.DaemonSets = direct(x.daemonSets, func(o api.Object) Workload { return daemonSetWorkload(o.(*api.DaemonSet)) })
	v.StatefulSets = direct(x.statefulSets, func(o api.Object) Workload { return statefulSetWorkload(o.(*api.StatefulSet)) })
	v.NodesTotal = len(x.nodes)
	v.NodesFrom = max(0, min(page, (len(x.nodes)-1)/MaxNodesShown)) * MaxNodesShown
	shown := x.nodes[v.NodesFrom:min(len(x.nodes), v.NodesFrom+MaxNodesShown)]
	kubelets := make(map[string]string, len(shown))
	for _, o := range shown {
		kubelets[o.Meta().Name] = ""
	}
	for c := range ctrls {
		if c.Host == "" {
			v.Controllers = append(v.Controllers, c)
		} else if _, ok := kubelets[c.Host]; ok {
			kubelets[c.Host] = c.State
		}
	}
	for _, o := range shown {
		n := o.(*api.Node)
		nv := NodeView{Ref: api.RefOf(n), Status: kubectl.NodeStatus(n), Down: !nodeReady(n), Kubelet: kubelets[n.Name]}
		nv.Pods, nv.Total = x.podsOn(n.Name, MaxPodsShownOnNode)
		nv.More = nv.Total - len(nv.Pods)
		nv.Ghosts, nv.Changed = m.ghostsOn(n.Name), m.written(nv.Ref)
		v.Nodes = append(v.Nodes, nv)
	}
	v.Unscheduled.Ref = api.Ref{Kind: "Node"}
	v.Unscheduled.Pods, v.Unscheduled.Total = x.podsOn("", MaxPodsShownOnNode)
	v.Unscheduled.More = v.Unscheduled.Total - len(v.Unscheduled.Pods)
	v.Unscheduled.Ghosts = m.ghostsOn("")
	v.ActivePods = x.active
	for _, kind := range st.Kinds() {
		switch kind {
		case "Deployment", "ReplicaSet", "DaemonSet", "StatefulSet", "Pod", "Node", "Event", "Lease":
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
	case kinds.PodFailing(p):
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

// nodeReady says a node's Ready condition is True.
func nodeReady(n *api.Node) bool {
	for _, c := range n.Status.Conditions {
		if c.Type == "Ready" {
			return c.Status == "True"
		}
	}
	return false
}
