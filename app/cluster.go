package app

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/kubectl"
	"reconcile/engine/sim"
)

// How much of a big cluster the pane draws: a pass touches one key, and a
// render must not cost more because the cluster has 10,000 pods.
const (
	maxNodesShown      = 24
	maxPodsShownOnNode = 30
	maxOthersShown     = 20
)

// clusterView is what the cluster pane shows: workloads with their counts,
// nodes with their pods, the control plane's controllers.
type clusterView struct {
	deployments []workloadRow
	replicaSets []workloadRow
	nodes       []nodeView
	// moreNodes is how many nodes are not drawn.
	moreNodes int
	// unscheduled holds the pods no node has taken yet.
	unscheduled nodeView
	others      []api.Ref
	moreOthers  int
	controllers []sim.ControllerState
	activePods  int
}

// workloadRow is one Deployment or ReplicaSet and its replica counts.
type workloadRow struct {
	ref                                     api.Ref
	desired, current, ready, available, upd int32
	generation, observed                    int64
}

// nodeView is one node and the pods bound to it.
type nodeView struct {
	ref    api.Ref
	status string
	// kubelet is the state of the node's kubelet: running, stopped, crashed.
	kubelet string
	pods    []podChip
	more    int
	total   int
}

// podChip is a pod as the cluster pane draws it: its status in words and
// as a shape, so that colour is never the only signal.
type podChip struct {
	ref    api.Ref
	short  string
	status string
	ready  string
	shape  string
}

// Pod shapes, from healthy to broken; the legend explains them.
const (
	shapeReady       = "ready"       // filled circle: running and ready
	shapeNotReady    = "not-ready"   // ring: running, not ready yet
	shapePending     = "pending"     // square: waiting to be scheduled or started
	shapeTerminating = "terminating" // diamond: being deleted
	shapeFailed      = "failed"      // triangle: failed, crashing or cannot pull
	shapeDone        = "done"        // bar: completed
)

var shapeLegend = []struct{ shape, words string }{
	{shapeReady, "running and ready"},
	{shapeNotReady, "running, not ready"},
	{shapePending, "pending"},
	{shapeTerminating, "terminating"},
	{shapeFailed, "failing"},
}

// readCluster reads the cluster pane's view from the run; pods are the
// run's pods, listed once per refresh. chips holds the chips of the pods'
// versions last drawn (a stored object never changes, so neither does its
// chip) and is replaced by those drawn now.
func readCluster(run *sim.Sim, pods []api.Object, chips *map[*api.Pod]podChip) clusterView {
	drawn := make(map[*api.Pod]podChip, min(len(pods), len(*chips)+8))
	var v clusterView
	st := run.Store()
	for _, o := range st.List("Deployment") {
		d := o.(*api.Deployment)
		v.deployments = append(v.deployments, workloadRow{
			ref: api.RefOf(d), desired: api.Deref(d.Spec.Replicas, 1), current: d.Status.Replicas,
			upd: d.Status.UpdatedReplicas, ready: d.Status.ReadyReplicas, available: d.Status.AvailableReplicas,
			generation: d.Generation, observed: d.Status.ObservedGeneration,
		})
	}
	for _, o := range st.List("ReplicaSet") {
		r := o.(*api.ReplicaSet)
		v.replicaSets = append(v.replicaSets, workloadRow{
			ref: api.RefOf(r), desired: api.Deref(r.Spec.Replicas, 1), current: r.Status.Replicas,
			ready: r.Status.ReadyReplicas, available: r.Status.AvailableReplicas,
			generation: r.Generation, observed: r.Status.ObservedGeneration,
		})
	}
	kubelets := map[string]string{}
	for _, c := range run.Controllers() {
		if c.Host != "" {
			kubelets[c.Host] = c.State
		} else {
			v.controllers = append(v.controllers, c)
		}
	}
	index := map[string]int{}
	for _, o := range st.List("Node") {
		n := o.(*api.Node)
		if len(v.nodes) >= maxNodesShown {
			v.moreNodes++
			continue
		}
		index[n.Name] = len(v.nodes)
		v.nodes = append(v.nodes, nodeView{ref: api.RefOf(n), status: kubectl.NodeStatus(n), kubelet: kubelets[n.Name]})
	}
	v.unscheduled.ref = api.Ref{Kind: "Node"}
	for _, o := range pods {
		p := o.(*api.Pod)
		if controller.IsPodActive(p) {
			v.activePods++
		}
		nv := &v.unscheduled
		if p.Spec.NodeName != "" {
			i, ok := index[p.Spec.NodeName]
			if !ok {
				continue // on a node that is not drawn
			}
			nv = &v.nodes[i]
		}
		nv.total++
		if len(nv.pods) >= maxPodsShownOnNode {
			nv.more++
			continue
		}
		c, ok := (*chips)[p]
		if !ok {
			c = chipOf(p)
		}
		drawn[p] = c
		nv.pods = append(nv.pods, c)
	}
	*chips = drawn
	for _, kind := range st.Kinds() {
		switch kind {
		case "Deployment", "ReplicaSet", "Pod", "Node", "Event", "Lease":
			continue
		}
		for _, o := range st.List(kind) {
			if len(v.others) >= maxOthersShown {
				v.moreOthers++
				continue
			}
			v.others = append(v.others, api.RefOf(o))
		}
	}
	return v
}

func chipOf(p *api.Pod) podChip {
	c := podChip{ref: api.RefOf(p), short: shortName(p.Name), status: kubectl.PodStatus(p)}
	ready, total := 0, len(p.Spec.Containers)
	for _, cs := range p.Status.ContainerStatuses {
		if cs.Ready {
			ready++
		}
	}
	c.ready = fmt.Sprintf("%d/%d", ready, total)
	switch {
	case p.DeletionTimestamp != nil:
		c.shape = shapeTerminating
	case p.Status.Phase == api.PodSucceeded:
		c.shape = shapeDone
	case p.Status.Phase == api.PodFailed, strings.Contains(c.status, "BackOff"), strings.Contains(c.status, "Err"),
		strings.Contains(c.status, "Error"), c.status == "OOMKilled":
		c.shape = shapeFailed
	case p.Status.Phase == api.PodRunning && controller.IsPodReady(p):
		c.shape = shapeReady
	case p.Status.Phase == api.PodRunning:
		c.shape = shapeNotReady
	default:
		c.shape = shapePending
	}
	return c
}

// shortName is the part of a generated name that tells pods apart:
// web-7d9c-x2kq9 → x2kq9.
func shortName(name string) string {
	if i := strings.LastIndexByte(name, '-'); i >= 0 && i < len(name)-1 {
		return name[i+1:]
	}
	return name
}

// renderCluster draws the cluster pane. selected is the inspected object;
// pick selects the object its button names in data-ref.
func renderCluster(v clusterView, selected api.Ref, pick app.EventHandler) app.UI {
	pressed := func(r api.Ref) string { return strconv.FormatBool(r == selected) }
	objButton := func(r api.Ref, class string, body ...app.UI) app.UI {
		return app.Button().Type("button").Class("obj "+class).Aria("pressed", pressed(r)).
			DataSet("ref", refText(r)).Title("Inspect " + r.String()).OnClick(pick).Body(body...)
	}
	workloads := func(title string, rows []workloadRow, deploy bool) app.UI {
		if len(rows) == 0 {
			return nil
		}
		return app.Div().Class("workloads").Body(
			app.H3().Text(title),
			app.Ul().Body(app.Range(rows).Slice(func(i int) app.UI {
				r := rows[i]
				counts := fmt.Sprintf("desired %d · current %d · ready %d", r.desired, r.current, r.ready)
				if deploy {
					counts = fmt.Sprintf("desired %d · up-to-date %d · ready %d · available %d", r.desired, r.upd, r.ready, r.available)
				}
				class := ""
				if r.ready == r.desired && (!deploy || (r.available == r.desired && r.upd == r.desired)) {
					class = "met"
				}
				return app.Li().Class(class).Body(
					objButton(r.ref, "name", app.Text(r.ref.Name)),
					app.Span().Class("counts").Text(" "+counts),
				)
			})),
		)
	}
	node := func(n nodeView, title app.UI) app.UI {
		class := "node"
		if n.status != "" && !strings.HasPrefix(n.status, "Ready") {
			class += " down"
		}
		return app.Li().Class(class).Body(
			app.Div().Class("node-head").Body(title),
			app.If(len(n.pods) == 0, func() app.UI { return app.P().Class("muted").Text("no pods") }),
			app.Ul().Class("pods").Aria("label", "Pods").Body(app.Range(n.pods).Slice(func(i int) app.UI {
				c := n.pods[i]
				return app.Li().Body(objButton(c.ref, "pod s-"+c.shape,
					app.Span().Class("shape").Aria("hidden", "true"),
					app.Span().Class("pod-name").Text(c.short),
					app.Span().Class("pod-status").Text(c.status+" "+c.ready),
				))
			})),
			app.If(n.more > 0, func() app.UI {
				return app.P().Class("muted").Text(fmt.Sprintf("and %d more pods", n.more))
			}),
		)
	}
	return app.Section().Class("cluster").Aria("labelledby", "cluster-title").Body(
		app.H2().ID("cluster-title").Text("Cluster"),
		app.P().Class("muted").Text(fmt.Sprintf("%d active pods. Select any object to inspect it.", v.activePods)),
		workloads("Deployments", v.deployments, true),
		workloads("ReplicaSets", v.replicaSets, false),
		app.Ul().Class("nodes").Aria("label", "Nodes").Body(
			app.Range(v.nodes).Slice(func(i int) app.UI {
				n := v.nodes[i]
				kubelet := ""
				if n.kubelet != "" && n.kubelet != "running" {
					kubelet = " · kubelet " + n.kubelet
				}
				return node(n, app.Span().Body(
					objButton(n.ref, "node-name", app.Text(n.ref.Name)),
					app.Span().Class("node-status").Text(" "+n.status+kubelet+" · "+plural(n.total, "pod")),
				))
			}),
			app.If(v.unscheduled.total > 0, func() app.UI {
				return node(v.unscheduled, app.Span().Class("node-name unbound").Text("Not scheduled · "+plural(v.unscheduled.total, "pod")))
			}),
		),
		app.If(v.moreNodes > 0, func() app.UI {
			return app.P().Class("muted").Text(fmt.Sprintf("and %d more nodes", v.moreNodes))
		}),
		app.Ul().Class("legend").Aria("label", "Pod shapes").Body(app.Range(shapeLegend).Slice(func(i int) app.UI {
			l := shapeLegend[i]
			return app.Li().Class("s-"+l.shape).Body(app.Span().Class("shape").Aria("hidden", "true"), app.Text(l.words))
		})),
		app.If(len(v.others) > 0, func() app.UI {
			return app.Div().Class("others").Body(
				app.H3().Text("Other objects"),
				app.Ul().Body(app.Range(v.others).Slice(func(i int) app.UI {
					return app.Li().Body(objButton(v.others[i], "other", app.Text(v.others[i].String())))
				})),
				app.If(v.moreOthers > 0, func() app.UI {
					return app.P().Class("muted").Text(fmt.Sprintf("and %d more", v.moreOthers))
				}),
			)
		}),
		app.Div().Class("controllers").Body(
			app.H3().Text("Control plane"),
			app.Ul().Body(app.Range(v.controllers).Slice(func(i int) app.UI {
				c := v.controllers[i]
				class := "ctrl"
				if c.State != "running" {
					class += " down"
				}
				return app.Li().Class(class).Body(
					app.Code().Text(c.Name),
					app.Text(fmt.Sprintf(" %s · %d queued", c.State, c.Queued)),
				)
			})),
		),
	)
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// refText writes ref as data-ref holds it: "Kind/namespace/name".
func refText(r api.Ref) string { return r.Kind + "/" + r.Namespace + "/" + r.Name }

// parseRef reads a data-ref.
func parseRef(s string) (api.Ref, bool) {
	parts := strings.SplitN(s, "/", 3)
	if len(parts) != 3 || parts[0] == "" || parts[2] == "" {
		return api.Ref{}, false
	}
	return api.Ref{Kind: parts[0], Namespace: parts[1], Name: parts[2]}, true
}
