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
	// nodesFrom is the index of the first node drawn, of nodesTotal: the
	// pane draws the nodes a page at a time.
	nodesFrom, nodesTotal int
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

// readCluster reads the cluster pane's view from the run, whose nodes and
// pods x has just read, and whose controllers are ctrls. It reads what the
// pane draws (a page of nodes, a few pods on each) and the pods' counts,
// not every pod. page is the page of nodes drawn (from 0; past the last,
// the last).
func readCluster(run *sim.Sim, x *worldIndex, ctrls []sim.ControllerState, page int) clusterView {
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
	v.nodesTotal = len(x.nodes)
	v.nodesFrom = max(0, min(page, (len(x.nodes)-1)/maxNodesShown)) * maxNodesShown
	shown := x.nodes[v.nodesFrom:min(len(x.nodes), v.nodesFrom+maxNodesShown)]
	kubelets := make(map[string]string, len(shown))
	for _, o := range shown {
		kubelets[o.Meta().Name] = ""
	}
	for _, c := range ctrls {
		if c.Host == "" {
			v.controllers = append(v.controllers, c)
		} else if _, ok := kubelets[c.Host]; ok {
			kubelets[c.Host] = c.State
		}
	}
	for _, o := range shown {
		n := o.(*api.Node)
		nv := nodeView{ref: api.RefOf(n), status: kubectl.NodeStatus(n), kubelet: kubelets[n.Name]}
		nv.pods, nv.total = x.podsOn(n.Name, maxPodsShownOnNode)
		nv.more = nv.total - len(nv.pods)
		v.nodes = append(v.nodes, nv)
	}
	v.unscheduled.ref = api.Ref{Kind: "Node"}
	v.unscheduled.pods, v.unscheduled.total = x.podsOn("", maxPodsShownOnNode)
	v.unscheduled.more = v.unscheduled.total - len(v.unscheduled.pods)
	v.activePods = x.active
	for _, kind := range st.Kinds() {
		switch kind {
		case "Deployment", "ReplicaSet", "Pod", "Node", "Event", "Lease":
			continue
		}
		if len(v.others) >= maxOthersShown {
			v.moreOthers += st.Count(kind)
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

// picker is a page whose cluster pane selects objects for its inspector:
// onPick selects the object the pressed button names in data-ref.
// onNodePage shows the page of nodes the pressed button names in
// data-page.
type picker interface {
	onPick(ctx app.Context, e app.Event)
	onNodePage(ctx app.Context, e app.Event)
}

// objButton is the button that selects r for the inspector.
func objButton(r, selected api.Ref, class string, pick app.EventHandler, body ...app.UI) app.UI {
	return app.Button().Type("button").Class("obj "+class).Aria("pressed", strconv.FormatBool(r == selected)).
		DataSet("ref", refText(r)).Title("Inspect " + r.String()).OnClick(pick).Body(body...)
}

// nodeCard is one node of the cluster pane and its pods, a component of its
// own: go-app compares its fields with those of the last render and, when
// nothing in them changed (a pass touches one key: most nodes do not
// change), neither renders nor compares its elements again.
type nodeCard struct {
	app.Compo

	Node nodeView
	// Unbound is set for the pods no node has taken.
	Unbound bool
	// Selected is the inspected object when it is this node or one of its
	// pods (else zero, so that selecting elsewhere changes nothing here).
	Selected api.Ref
	Picker   picker
}

func (c *nodeCard) Render() app.UI {
	n, sel := c.Node, c.Selected
	pick := c.Picker.onPick
	var title app.UI
	if c.Unbound {
		title = app.Span().Class("node-name unbound").Text("Not scheduled · " + plural(n.total, "pod"))
	} else {
		kubelet := ""
		if n.kubelet != "" && n.kubelet != "running" {
			kubelet = " · kubelet " + n.kubelet
		}
		title = app.Span().Body(
			objButton(n.ref, sel, "node-name", pick, app.Text(n.ref.Name)),
			app.Span().Class("node-status").Text(" "+n.status+kubelet+" · "+plural(n.total, "pod")),
		)
	}
	class := "node"
	if n.status != "" && !strings.HasPrefix(n.status, "Ready") {
		class += " down"
	}
	return app.Li().Class(class).Body(
		app.Div().Class("node-head").Body(title),
		app.If(len(n.pods) == 0, func() app.UI { return app.P().Class("muted").Text("no pods") }),
		app.Ul().Class("pods").Aria("label", "Pods").Body(app.Range(n.pods).Slice(func(i int) app.UI {
			p := n.pods[i]
			return app.Li().Body(objButton(p.ref, sel, "pod s-"+p.shape, pick,
				app.Span().Class("shape").Aria("hidden", "true"),
				app.Span().Class("pod-name").Text(p.short),
				app.Span().Class("pod-status").Text(p.status+" "+p.ready),
			))
		})),
		app.If(n.more > 0, func() app.UI {
			return app.P().Class("muted").Text(fmt.Sprintf("and %d more pods", n.more))
		}),
	)
}

// selectedIn is selected when it is the node n or one of its shown pods.
func selectedIn(n nodeView, selected api.Ref) api.Ref {
	if selected == n.ref {
		return selected
	}
	for _, p := range n.pods {
		if p.ref == selected {
			return selected
		}
	}
	return api.Ref{}
}

// renderCluster draws the cluster pane. selected is the inspected object;
// pk selects the object a pressed button names.
func renderCluster(v clusterView, selected api.Ref, pk picker) app.UI {
	pick := pk.onPick
	objButton := func(r api.Ref, class string, body ...app.UI) app.UI {
		return objButton(r, selected, class, pick, body...)
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
	return app.Section().Class("cluster").Aria("labelledby", "cluster-title").Body(
		app.H2().ID("cluster-title").Text("Cluster"),
		app.P().Class("muted").Text(fmt.Sprintf("%d active pods. Select any object to inspect it.", v.activePods)),
		workloads("Deployments", v.deployments, true),
		workloads("ReplicaSets", v.replicaSets, false),
		app.Ul().Class("nodes").Aria("label", "Nodes").Body(
			app.Range(v.nodes).Slice(func(i int) app.UI {
				return &nodeCard{Node: v.nodes[i], Selected: selectedIn(v.nodes[i], selected), Picker: pk}
			}),
			app.If(v.unscheduled.total > 0, func() app.UI {
				return &nodeCard{Node: v.unscheduled, Unbound: true, Selected: selectedIn(v.unscheduled, selected), Picker: pk}
			}),
		),
		app.If(v.nodesTotal > maxNodesShown, func() app.UI {
			return renderNodePages(v, pk)
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

// renderNodePages lets the learner page through the nodes when there are
// more than the pane draws: every node is a page or two away, by keyboard
// too, and the range shown is announced.
func renderNodePages(v clusterView, pk picker) app.UI {
	page := v.nodesFrom / maxNodesShown
	last := (v.nodesTotal - 1) / maxNodesShown
	to := min(v.nodesTotal, v.nodesFrom+maxNodesShown)
	return app.Nav().Class("node-pages").Aria("label", "Node pages").Body(
		app.Button().Type("button").Class("quiet").Text("Previous nodes").DataSet("page", page-1).
			Disabled(page == 0).OnClick(pk.onNodePage),
		app.Span().Class("muted").Aria("live", "polite").Text(fmt.Sprintf(" Nodes %d–%d of %d ", v.nodesFrom+1, to, v.nodesTotal)),
		app.Button().Type("button").Class("quiet").Text("Next nodes").DataSet("page", page+1).
			Disabled(page >= last).OnClick(pk.onNodePage),
	)
}

// nodePageOf reads the page a node-page button names.
func nodePageOf(ctx app.Context) (int, bool) {
	n, err := strconv.Atoi(ctx.JSSrc().Get("dataset").Get("page").String())
	return n, err == nil && n >= 0
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
