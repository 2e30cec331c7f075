package app

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/el"
	"reconcile/app/session"
	"reconcile/engine/api"
	"reconcile/engine/sim"
)

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
	return el.Button().Attr("type", "button").Class("obj "+class).Aria("pressed", strconv.FormatBool(r == selected)).
		DataSet("ref", refText(r)).Title("Inspect " + r.String()).OnClick(pick).Body(body...)
}

// nodeCard is one node of the cluster pane and its pods, a component of its
// own: go-app compares its fields with those of the last render and, when
// nothing in them changed (a pass touches one key: most nodes do not
// change), neither renders nor compares its elements again.
type nodeCard struct {
	app.Compo

	Node session.NodeView
	// Unbound is set for the pods no node has taken.
	Unbound bool
	// Selected is the inspected object when it is this node or one of its
	// pods (else zero, so that selecting elsewhere changes nothing here).
	Selected api.Ref
	Picker   picker
	// Acting is set when the current pass is this node's kubelet's.
	Acting bool
}

func (c *nodeCard) Render() app.UI {
	n, sel := c.Node, c.Selected
	pick := c.Picker.onPick
	var title app.UI
	if c.Unbound {
		title = el.Span().Class("node-name unbound").Text("Not scheduled · " + plural(n.Total, "pod"))
	} else {
		kubelet := ""
		if n.Kubelet != "" && n.Kubelet != "running" {
			kubelet = " · kubelet " + n.Kubelet
		}
		title = el.Span().Body(
			objButton(n.Ref, sel, "node-name", pick, app.Text(n.Ref.Name)),
			// A compact stage shows the pods, not their count: the count
			// is for screen readers there.
			el.Span().Class("node-status").Body(
				app.Text(" "+n.Status+kubelet),
				el.Span().Class("node-count").Text(" · "+plural(n.Total, "pod")),
			),
			app.If(c.Acting, func() app.UI { return el.Span().Class("acting-tag").Text(" · acting") }),
		)
	}
	class := "node"
	if c.Unbound {
		class += " unbound"
	}
	if c.Acting {
		class += " acting"
	}
	if n.Changed {
		class += " changed"
	}
	if n.Down {
		class += " down"
	}
	li := el.Li().Class(class)
	if n.Changed {
		li = li.DataSet("changed", "written").DataSet("ref", refText(n.Ref))
	}
	return li.Body(
		el.Div().Class("node-head").Body(title),
		app.If(len(n.Pods) == 0 && len(n.Ghosts) == 0, func() app.UI { return el.P().Class("muted no-pods").Text("no pods") }),
		el.Ul().Class("pods").Aria("label", "Pods").Body(app.Range(n.Pods).Slice(func(i int) app.UI {
			p := n.Pods[i]
			li := el.Li()
			if p.Change != "" {
				li = li.Class("changed c-"+p.Change).DataSet("changed", p.Change).DataSet("ref", refText(p.Ref))
			}
			return li.Body(objButton(p.Ref, sel, "pod s-"+p.Shape, pick,
				el.Span().Class("shape").Aria("hidden", "true"),
				el.Span().Class("pod-name").Text(p.Short),
				// A running, ready pod says so by its shape; its words are
				// for screen readers. Any other state is written out.
				el.Span().Class(podStatusClass(p.Shape)).Text(p.Status+" "+p.Ready),
			))
		})),
		app.If(len(n.Ghosts) > 0, func() app.UI {
			return el.Ul().Class("pods ghosts").Aria("label", "Pods gone").Body(app.Range(n.Ghosts).Slice(func(i int) app.UI {
				g := n.Ghosts[i]
				return el.Li().Class("ghost").DataSet("changed", "gone").DataSet("ref", refText(g.Ref)).Title(g.Reason).Body(
					el.Span().Class("shape").Aria("hidden", "true"),
					el.Span().Class("pod-name").Text(g.Short),
					el.Span().Class("pod-status").Text("gone: "+g.Reason),
				)
			}))
		}),
		app.If(n.More > 0, func() app.UI {
			return el.P().Class("muted").Text(fmt.Sprintf("and %d more pods", n.More))
		}),
	)
}

// selectedIn is selected when it is the node n or one of its shown pods.
func selectedIn(n session.NodeView, selected api.Ref) api.Ref {
	if selected == n.Ref {
		return selected
	}
	for _, p := range n.Pods {
		if p.Ref == selected {
			return selected
		}
	}
	return api.Ref{}
}

// renderCluster draws the stage's cluster pane, or what of it is not held
// back (stage.clusterHeld).
func (s *stage) renderCluster() app.UI {
	v, held := s.view.Cluster, 0
	if s.later {
		held = s.clusterHeld
	}
	switch held {
	case clusterAll:
		return el.Section().Class("cluster").Aria("labelledby", "cluster-title").Aria("busy", true).Body(
			el.H2().ID("cluster-title").Text("Cluster"),
			el.P().Class("muted").Text(fmt.Sprintf("Drawing the cluster at pass %d…", s.view.N)),
		)
	case clusterHalf:
		v.Nodes = v.Nodes[:min(len(v.Nodes), nodesFirst)]
	}
	return renderCluster(v, s.view.Inspector.Ref, s, held > 0)
}

// renderCluster draws the cluster pane: the control plane (the controller
// acting now marked), the workloads with their desired count as slots,
// the nodes with their pods. selected is the inspected object; pk selects
// the object a pressed button names; drawing, that more of it is on its way
// (aria-busy).
func renderCluster(v session.Cluster, selected api.Ref, pk picker, drawing bool) app.UI {
	acting := v.Acting
	workloads := func(title, kindWord string, rows []session.Workload) app.UI {
		if len(rows) == 0 {
			return nil
		}
		return el.Div().Class("workloads").Body(
			el.H3().Text(title),
			el.Ul().Body(app.Range(rows).Slice(func(i int) app.UI {
				row := &workloadRow{Row: rows[i], Kind: kindWord, Picker: pk}
				if rows[i].Ref == selected {
					row.Selected = true
				}
				return row
			})),
		)
	}
	return el.Section().Class("cluster").Aria("labelledby", "cluster-title").Aria("busy", drawing).Body(
		el.Div().Class("cluster-head").Body(
			el.H2().ID("cluster-title").Text("Cluster"),
			el.P().Class("muted").Text(fmt.Sprintf("%s. Select any object to inspect it.", plural(v.ActivePods, "active pod"))),
		),
		workloads("Deployments", "deploy", v.Deployments),
		workloads("ReplicaSets", "rs", v.ReplicaSets),
		workloads("DaemonSets", "ds", v.DaemonSets),
		workloads("StatefulSets", "sts", v.StatefulSets),
		el.Ul().Class("nodes").Aria("label", "Nodes").Body(
			app.Range(v.Nodes).Slice(func(i int) app.UI {
				return &nodeCard{Node: v.Nodes[i], Selected: selectedIn(v.Nodes[i], selected), Picker: pk, Acting: acting == "kubelet on "+v.Nodes[i].Ref.Name}
			}),
			app.If(v.Unscheduled.Total > 0, func() app.UI {
				return &nodeCard{Node: v.Unscheduled, Unbound: true, Selected: selectedIn(v.Unscheduled, selected), Picker: pk}
			}),
		),
		app.If(v.NodesTotal > session.MaxNodesShown, func() app.UI {
			return renderNodePages(v, pk)
		}),
		&controlPlane{Controllers: v.Controllers, Acting: acting},
		el.Ul().Class("legend").Aria("label", "Pod shapes").Body(app.Range(session.ShapeLegend).Slice(func(i int) app.UI {
			l := session.ShapeLegend[i]
			return el.Li().Class("s-"+l.Shape).Body(el.Span().Class("shape").Aria("hidden", "true"), app.Text(l.Words))
		})),
		app.If(len(v.Others) > 0, func() app.UI { return newOtherObjects(v, selected, pk) }),
	)
}

// workloadRow is one workload of the cluster pane, a component of its own:
// a pass writes one object, so most rows are neither drawn nor compared
// again (go-app compares their fields first).
type workloadRow struct {
	app.Compo

	Row      session.Workload
	Kind     string // its kind's short name: deploy, rs, ds, sts
	Selected bool
	Picker   picker
}

func (w *workloadRow) Render() app.UI {
	r := w.Row
	counts, met := workloadCounts(w.Kind, r)
	class := ""
	if met {
		class = "met"
	}
	li := el.Li()
	if r.Changed {
		class += " changed"
		li = li.DataSet("changed", "written").DataSet("ref", refText(r.Ref))
	}
	var selected api.Ref
	if w.Selected {
		selected = r.Ref
	}
	return li.Class(class).Body(
		el.Span().Class("kind").Text(w.Kind),
		objButton(r.Ref, selected, "name", w.Picker.onPick, app.Text(r.Ref.Name)),
		renderSlots(r),
		el.Span().Class("short").Text(fmt.Sprintf("%d of %d there", r.Pods, r.Desired)),
		el.Span().Class("counts").Text(counts),
	)
}

// workloadCounts is a workload's counts in the words and order of the
// columns of kubectl get for its kind (kindWord is its short name), and
// whether they all reached the desired count.
func workloadCounts(kindWord string, r session.Workload) (string, bool) {
	switch kindWord {
	case "deploy":
		return fmt.Sprintf("desired %d · up-to-date %d · ready %d · available %d", r.Desired, r.UpToDate, r.Ready, r.Available),
			r.Ready == r.Desired && r.Available == r.Desired && r.UpToDate == r.Desired
	case "ds":
		return fmt.Sprintf("desired %d · current %d · ready %d · up-to-date %d · available %d", r.Desired, r.Current, r.Ready, r.UpToDate, r.Available),
			// Its desired count is status: met once the controller has seen
			// this generation, not before it counted the nodes.
			r.Observed >= r.Generation && r.Ready == r.Desired && r.Available == r.Desired && r.UpToDate == r.Desired
	case "sts":
		return fmt.Sprintf("desired %d · current %d · ready %d · up-to-date %d", r.Desired, r.Current, r.Ready, r.UpToDate),
			r.Ready == r.Desired && r.UpToDate == r.Desired
	}
	return fmt.Sprintf("desired %d · current %d · ready %d", r.Desired, r.Current, r.Ready), r.Ready == r.Desired
}

// renderSlots draws a workload's desired count as slots: one per replica
// it wants, filled for a ready pod, ringed for a pod that is there but not
// ready, empty for a pod missing; pods beyond the count (a surge) are drawn
// after a gap. The slots are the pods there now, not what the status says
// yet: the gap between desired and observed, drawn.
func renderSlots(r session.Workload) app.UI {
	const maxSlots = 24
	want, have, ready := int(r.Desired), int(r.Pods), int(r.PodsReady)
	n := max(want, have)
	if n > maxSlots {
		return nil // the counts say it; so many slots say nothing more
	}
	slots := make([]string, n)
	for i := range slots {
		switch {
		case i < ready:
			slots[i] = "slot ready"
		case i < have:
			slots[i] = "slot there"
		default:
			slots[i] = "slot empty"
		}
		if i >= want {
			slots[i] += " extra"
		}
	}
	return el.Span().Class("replica-slots").Role("img").Aria("label", fmt.Sprintf("%d wanted, %d there, %d ready", want, have, ready)).Body(
		app.Range(slots).Slice(func(i int) app.UI { return el.Span().Class(slots[i]) }),
	)
}

// renderControlPlane lists the controllers, the one acting in the current
// pass marked (acting names it, as Cluster.Acting does), the stopped and
// crashed ones in words.
func renderControlPlane(ctrls []sim.ControllerState, acting string) app.UI {
	class := "controllers quiet-plane" // nothing to show on a compact screen
	for _, c := range ctrls {
		if c.State != "running" || c.Name == acting {
			class = "controllers"
		}
	}
	return el.Div().Class(class).Body(
		el.H3().Text("Control plane"),
		el.Ul().Body(app.Range(ctrls).Slice(func(i int) app.UI {
			c := ctrls[i]
			class := "ctrl"
			if c.State != "running" {
				class += " down"
			}
			label := c.Name
			if c.Host != "" {
				label += " on " + c.Host
			}
			now := label == acting
			if now {
				class += " acting"
			}
			return el.Li().Class(class).Body(
				el.Code().Text(label),
				app.If(now, func() app.UI { return el.Span().Class("acting-tag").Text(" acting now") }),
				app.If(c.State != "running", func() app.UI { return app.Text(" " + c.State) }),
				app.If(c.Queued > 0, func() app.UI { return el.Span().Class("muted").Text(fmt.Sprintf(" · %d queued", c.Queued)) }),
			)
		})),
	)
}

// renderNodePages lets the learner page through the nodes when there are
// more than the pane draws: every node is a page or two away, by keyboard
// too, and the range shown is announced.
func renderNodePages(v session.Cluster, pk picker) app.UI {
	page := v.NodesFrom / session.MaxNodesShown
	last := (v.NodesTotal - 1) / session.MaxNodesShown
	to := min(v.NodesTotal, v.NodesFrom+session.MaxNodesShown)
	return el.Nav().Class("node-pages").Aria("label", "Node pages").Body(
		el.Button().Attr("type", "button").Class("quiet").Text("Previous nodes").DataSet("page", page-1).
			Attr("disabled", page == 0).OnClick(pk.onNodePage),
		el.Span().Class("muted").Aria("live", "polite").Text(fmt.Sprintf(" Nodes %d–%d of %d ", v.NodesFrom+1, to, v.NodesTotal)),
		el.Button().Attr("type", "button").Class("quiet").Text("Next nodes").DataSet("page", page+1).
			Attr("disabled", page >= last).OnClick(pk.onNodePage),
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

// podStatusClass hides the words of a running, ready pod from sight (the
// filled circle says it), so that the pods that are not stand out; a
// compact screen hides a pending or unready pod's too (its dashed square,
// its ring say it).
func podStatusClass(shape string) string {
	switch shape {
	case session.ShapeReady:
		return "pod-status visually-hidden"
	case session.ShapePending, session.ShapeNotReady:
		return "pod-status st-pending"
	}
	return "pod-status"
}
