package controller

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"

	"reconcile/engine/api"
	"reconcile/engine/informer"
	"reconcile/engine/store"
)

// DaemonSetLoop is the daemonset controller.
//
// Desired: one pod of the template on every node the pod may run on (its
// nodeSelector and node affinity match the node's labels, and it tolerates
// the node's NoSchedule and NoExecute taints, with the tolerations every
// daemon pod gets). Observed: the DaemonSet's pods, by node. Difference:
// create a pod on each eligible node without one, delete the pods on nodes
// that may no longer run them (and failed pods, and extra ones), then
// replace old-template pods as the update strategy allows. Each template
// it runs is recorded as a ControllerRevision (see revisions.go). Nodes joining,
// leaving or changing labels and taints are watch events like any other.
type DaemonSetLoop struct {
	expect expectations
	// orphans are the cached pods no controller owns (claim.go): a
	// DaemonSet adopts those its selector matches, as one recreated after
	// an orphaning delete does.
	orphans orphanSet
}

// DaemonSetController is the component's name.
const DaemonSetController = "daemonset-controller"

// NewDaemonSet returns the daemonset controller.
func NewDaemonSet() *DaemonSetLoop {
	return &DaemonSetLoop{expect: expectations{}, orphans: orphanSet{}}
}

func (d *DaemonSetLoop) Name() string { return DaemonSetController }
func (d *DaemonSetLoop) Watches() []string {
	return []string{"DaemonSet", "Pod", "Node", "ControllerRevision"}
}
func (d *DaemonSetLoop) Clone() Reconciler {
	return &DaemonSetLoop{expect: d.expect.clone(), orphans: maps.Clone(d.orphans)}
}

// Restarted forgets the expectations and the orphans, as a new process
// starts empty (and lists every pod again).
func (d *DaemonSetLoop) Restarted() { d.expect, d.orphans = expectations{}, orphanSet{} }

// Keys maps a DaemonSet to itself, a pod or a revision to the DaemonSet
// that owns it (or owned it, when released), an orphan to the DaemonSets
// whose selector matches it (who may adopt it), and a node to every
// DaemonSet (any of them may now belong on it, or not).
func (d *DaemonSetLoop) Keys(c *informer.Cache, ev store.WatchEvent) []string {
	switch o := ev.Object.(type) {
	case *api.DaemonSet:
		k := api.RefOf(o).Key()
		if ev.Type == store.Deleted {
			delete(d.expect, k)
		}
		return []string{k}
	case *api.Pod:
		d.orphans.note(o, ev.Type == store.Deleted)
		var keys []string
		if prev := previousController(c, o, "DaemonSet"); prev != "" {
			keys = append(keys, prev) // released: its old DaemonSet hears of it
		}
		ref := o.ControllerOf()
		if ref == nil && ev.Type != store.Deleted && o.DeletionTimestamp == nil {
			keys = append(keys, daemonSetsSelecting(c, o.Namespace, o.Labels)...)
		}
		if ref != nil && ref.Kind == "DaemonSet" {
			k := o.Namespace + "/" + ref.Name
			d.expect.observe(k, ev)
			keys = append(keys, k)
		}
		return keys
	case *api.ControllerRevision:
		if ref := o.ControllerOf(); ref != nil && ref.Kind == "DaemonSet" {
			return []string{o.Namespace + "/" + ref.Name}
		}
		if ev.Type != store.Deleted && o.DeletionTimestamp == nil {
			return daemonSetsSelecting(c, o.Namespace, o.Labels)
		}
	case *api.Node:
		if old, ok := ev.Old.(*api.Node); ok && ev.Type == store.Modified && !nodeChangesDaemons(old, o) {
			return nil
		}
		return c.Keys("DaemonSet")
	}
	return nil
}

// daemonSetsSelecting returns the keys of the DaemonSets of namespace, not
// being deleted, whose selector matches labels: who may adopt an orphan.
func daemonSetsSelecting(c *informer.Cache, namespace string, labels map[string]string) []string {
	var keys []string
	for _, o := range c.List("DaemonSet") {
		ds := o.(*api.DaemonSet)
		if ds.Namespace == namespace && ds.DeletionTimestamp == nil && !ds.Spec.Selector.Empty() && ds.Spec.Selector.Matches(labels) {
			keys = append(keys, api.RefOf(ds).Key())
		}
	}
	return keys
}

// nodeChangesDaemons reports whether a node update can change which
// daemon pods belong on it: its labels, taints or schedulability. (Status
// heartbeats do not.)
func nodeChangesDaemons(old, n *api.Node) bool {
	if old.Spec.Unschedulable != n.Spec.Unschedulable || len(old.Spec.Taints) != len(n.Spec.Taints) || !labelsEqual(old.Labels, n.Labels) {
		return true
	}
	for i := range old.Spec.Taints {
		a, b := old.Spec.Taints[i], n.Spec.Taints[i]
		if a.Key != b.Key || a.Value != b.Value || a.Effect != b.Effect {
			return true
		}
	}
	return false
}

// DaemonTolerations are the tolerations the daemonset controller adds to
// every daemon pod: it stays on a node that is not ready, unreachable,
// under pressure or cordoned.
var DaemonTolerations = []api.Toleration{
	{Key: "node.kubernetes.io/not-ready", Operator: "Exists", Effect: "NoExecute"},
	{Key: "node.kubernetes.io/unreachable", Operator: "Exists", Effect: "NoExecute"},
	{Key: "node.kubernetes.io/disk-pressure", Operator: "Exists", Effect: "NoSchedule"},
	{Key: "node.kubernetes.io/memory-pressure", Operator: "Exists", Effect: "NoSchedule"},
	{Key: "node.kubernetes.io/pid-pressure", Operator: "Exists", Effect: "NoSchedule"},
	{Key: "node.kubernetes.io/unschedulable", Operator: "Exists", Effect: "NoSchedule"},
}

// HostNetworkDaemonToleration is added, after those, to a daemon pod on
// the host's network: it runs on a node whose pod network is not up yet
// (AddOrUpdateDaemonPodTolerations).
var HostNetworkDaemonToleration = api.Toleration{Key: "node.kubernetes.io/network-unavailable", Operator: "Exists", Effect: "NoSchedule"}

// daemonTolerations returns the template's tolerations with the daemon
// ones added where the template has none for the same key and effect.
func daemonTolerations(spec *api.PodSpec) []api.Toleration {
	own := spec.Tolerations
	out := append([]api.Toleration(nil), own...)
	add := DaemonTolerations
	if spec.HostNetwork {
		add = append(slices.Clip(add), HostNetworkDaemonToleration)
	}
	for _, t := range add {
		found := false
		for _, o := range own {
			if o.Key == t.Key && o.Effect == t.Effect {
				found = true
			}
		}
		if !found {
			out = append(out, t)
		}
	}
	return out
}

// NodeShouldRunDaemonPod says whether a DaemonSet's pod should be created
// on node (shouldRun) and whether one already there may stay
// (shouldContinueRunning): both false when the node's labels do not match
// or it has a NoExecute taint the pod does not tolerate; a NoSchedule
// taint it does not tolerate keeps new pods off but lets a running one
// stay.
func NodeShouldRunDaemonPod(n *api.Node, ds *api.DaemonSet) (shouldRun, shouldContinueRunning bool) {
	spec := &ds.Spec.Template.Spec
	for k, v := range spec.NodeSelector {
		if n.Labels[k] != v {
			return false, false
		}
	}
	if a := spec.Affinity; a != nil && a.NodeAffinity != nil && !a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.MatchesNode(n.Name, n.Labels) {
		return false, false
	}
	tolerations := daemonTolerations(spec)
	shouldRun, shouldContinueRunning = true, true
	taints := n.Spec.Taints
	if n.Spec.Unschedulable {
		taints = append(append([]api.Taint(nil), taints...), api.Taint{Key: "node.kubernetes.io/unschedulable", Effect: "NoSchedule"})
	}
	for _, taint := range taints {
		if taint.Effect != "NoSchedule" && taint.Effect != "NoExecute" {
			continue
		}
		ok := false
		for _, t := range tolerations {
			if t.Tolerates(taint) {
				ok = true
				break
			}
		}
		if ok {
			continue
		}
		shouldRun = false
		if taint.Effect == "NoExecute" {
			return false, false
		}
	}
	return shouldRun, shouldContinueRunning
}

// daemonPodNode is the node a daemon pod is for: where it is bound, or the
// node its affinity pins it to before the scheduler binds it.
func daemonPodNode(p *api.Pod) string {
	if p.Spec.NodeName != "" {
		return p.Spec.NodeName
	}
	if a := p.Spec.Affinity; a != nil && a.NodeAffinity != nil && a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution != nil {
		for _, t := range a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
			for _, f := range t.MatchFields {
				if f.Key == "metadata.name" && f.Operator == "In" && len(f.Values) == 1 {
					return f.Values[0]
				}
			}
		}
	}
	return ""
}

// Reconcile runs one pass for a DaemonSet.
func (d *DaemonSetLoop) Reconcile(ctx *Context, req Request) (Result, error) {
	ds, _ := ctx.Cache.Get("DaemonSet", req.Key).(*api.DaemonSet)
	if ds == nil {
		ctx.Deleted("DaemonSet deleted")
		delete(d.expect, req.Key)
		return ctx.NothingToDo(), nil
	}
	hash := templateHash(&ds.Spec.Template, ds.Status.CollisionCount)
	var oldRevisions []*api.ControllerRevision
	before := len(ctx.Actions)
	if ds.DeletionTimestamp == nil {
		cur, old, err := daemonSetHistory(ctx, ds, hash)
		if err != nil {
			return Result{}, err
		}
		if h := cur.Labels[api.ControllerRevisionHashLabel]; h != "" {
			hash = h
		}
		oldRevisions = old
	}
	var owned []*api.Pod
	for _, o := range ctx.Cache.Owned("Pod", ds.UID) {
		owned = append(owned, o.(*api.Pod))
	}
	// Adopt the orphans its selector matches, release the pods it no
	// longer matches (getDaemonPods' ClaimPods).
	orphans := d.orphans.in(ds.Namespace)
	if len(orphans) > 0 || slices.ContainsFunc(owned, func(p *api.Pod) bool { return !ds.Spec.Selector.Matches(p.Labels) }) {
		ref := api.OwnerReference{APIVersion: "apps/v1", Kind: "DaemonSet", Name: ds.Name, UID: ds.UID, Controller: true, BlockOwnerDeletion: true}
		claim, err := claimPods(ctx, ds, ds.Spec.Selector, ref, orphans, owned)
		if err != nil {
			return Result{}, err
		}
		owned = slices.DeleteFunc(owned, func(p *api.Pod) bool {
			return slices.ContainsFunc(claim.released, func(r *api.Pod) bool { return r.UID == p.UID })
		})
		owned = append(owned, claim.adopted...)
	}
	byNode := map[string][]*api.Pod{} // every pod of the DaemonSet, terminating ones too; lookup only
	for _, p := range owned {
		n := daemonPodNode(p)
		byNode[n] = append(byNode[n], p)
	}
	nodes := ctx.Cache.List("Node")
	var create []string
	var remove []*api.Pod
	var desired, running int32
	eligible := map[string]bool{} // lookup only
	for _, o := range nodes {
		n := o.(*api.Node)
		pods := byNode[n.Name]
		shouldRun, shouldContinue := NodeShouldRunDaemonPod(n, ds)
		if shouldRun {
			desired++
			eligible[n.Name] = true
		}
		var live []*api.Pod
		for _, p := range pods {
			if p.DeletionTimestamp == nil {
				live = append(live, p)
			}
		}
		switch {
		case shouldRun && len(pods) == 0:
			create = append(create, n.Name)
		case shouldContinue:
			var keep []*api.Pod
			for _, p := range live {
				if p.Status.Phase == api.PodFailed {
					ctx.Event(ds, "Warning", "FailedDaemonPod", "Found failed daemon pod %s/%s on node %s, will try to kill it", p.Namespace, p.Name, n.Name)
					remove = append(remove, p)
					continue
				}
				keep = append(keep, p)
			}
			if len(keep) > 0 {
				running++
			}
			if len(keep) > 1 && !d.surging(ds) {
				// more than one: keep the oldest
				sort.SliceStable(keep, func(i, j int) bool { return keep[i].CreationTimestamp < keep[j].CreationTimestamp })
				remove = append(remove, keep[1:]...)
			}
		case len(live) > 0:
			remove = append(remove, live...)
		}
	}
	remove = append(remove, unscheduledWithoutNode(nodes, byNode)...)
	ctx.Desired = fmt.Sprintf("a pod on each of %d eligible node(s) (of %d)", desired, len(nodes))
	ctx.Observed = fmt.Sprintf("%d node(s) run one", running)
	ctx.Difference = fmt.Sprintf("%d to create, %d to delete", len(create), len(remove))
	acted := false
	if adds, dels, waiting := d.expect.pending(req.Key, ctx.Now); waiting {
		ctx.Difference += fmt.Sprintf(" (waiting to observe %d creates, %d deletes)", adds, dels)
	} else if ds.DeletionTimestamp == nil {
		if err := d.manage(ctx, ds, hash, create, remove); err != nil {
			return Result{}, err
		}
		acted = len(create) > 0 || len(remove) > 0
		if !acted && ds.Spec.UpdateStrategy.Type == api.RollingUpdateStrategy {
			n, err := d.rollingUpdate(ctx, ds, hash, nodes, byNode, eligible)
			if err != nil {
				return Result{}, err
			}
			acted = n > 0
			if acted {
				ctx.Difference = fmt.Sprintf("the pods on %d node(s) are of an old template: replace them (rolling update)", n)
			}
		}
		if err := cleanupDaemonSetHistory(ctx, ds, oldRevisions); err != nil {
			return Result{}, err
		}
	}
	acted = acted || len(ctx.Actions) > before // a revision written counts
	if err := d.writeStatus(ctx, ds, hash, nodes, byNode); err != nil {
		return Result{}, err
	}
	res := Result{Outcome: Acted}
	if !acted {
		res = ctx.NothingToDo()
	}
	if ds.Spec.MinReadySeconds > 0 {
		for _, o := range nodes {
			for _, p := range byNode[o.Meta().Name] {
				if IsPodReady(p) && !IsPodAvailable(p, api.Duration(ds.Spec.MinReadySeconds)*api.Second, ctx.Now) {
					res.RequeueAfter, res.RequeueReason = api.Duration(ds.Spec.MinReadySeconds)*api.Second, RequeueMinReady
				}
			}
		}
	}
	return res, nil
}

// unscheduledWithoutNode returns the pods, not being deleted, that no
// scheduler has bound and whose node (the one their affinity pins them to)
// is gone: they can never be scheduled, and the pod garbage collector only
// takes bound pods, so the DaemonSet deletes them
// (getUnscheduledPodsWithoutNode).
func unscheduledWithoutNode(nodes []api.Object, byNode map[string][]*api.Pod) []*api.Pod {
	exists := make(map[string]bool, len(nodes)) // lookup only
	for _, o := range nodes {
		exists[o.Meta().Name] = true
	}
	var gone []string
	for n := range byNode {
		if n != "" && !exists[n] {
			gone = append(gone, n)
		}
	}
	sort.Strings(gone)
	var out []*api.Pod
	for _, n := range gone {
		for _, p := range byNode[n] {
			if p.Spec.NodeName == "" && p.DeletionTimestamp == nil {
				out = append(out, p)
			}
		}
	}
	return out
}

func (d *DaemonSetLoop) surging(ds *api.DaemonSet) bool {
	ru := ds.Spec.UpdateStrategy.RollingUpdate
	return ds.Spec.UpdateStrategy.Type == api.RollingUpdateStrategy && ru != nil && ru.MaxSurge != nil && intOrPercentOf(*ru.MaxSurge, 1) > 0
}

// manage creates a pod on each node in create, in slow-start batches, and
// deletes the pods in remove.
func (d *DaemonSetLoop) manage(ctx *Context, ds *api.DaemonSet, hash string, create []string, remove []*api.Pod) error {
	d.expect.expect(api.RefOf(ds).Key(), len(create), len(remove), ctx.Now)
	created := 0
	for batch := 1; created < len(create); batch *= 2 {
		size := min(batch, len(create)-created)
		var firstErr error
		for _, node := range create[created : created+size] {
			pod, err := ctx.Create(daemonPod(ds, hash, node), func(o api.Object) Action { return OnPod(Create, o.Meta().Name, "for node "+node) })
			if err == ErrCrashed {
				return err
			}
			if err != nil {
				ctx.Event(ds, "Warning", "FailedCreate", "Error creating: %v", err)
				if firstErr == nil {
					firstErr = err
				}
				continue
			}
			ctx.Event(ds, "Normal", "SuccessfulCreate", "Created pod: %s", pod.Meta().Name)
		}
		if firstErr != nil {
			d.expect.lower(api.RefOf(ds).Key(), len(create)-created)
			return firstErr
		}
		created += size
	}
	sort.Slice(remove, func(i, j int) bool { return remove[i].Name < remove[j].Name })
	for _, p := range remove {
		if err := d.deletePod(ctx, ds, p); err != nil {
			return err
		}
	}
	return nil
}

func (d *DaemonSetLoop) deletePod(ctx *Context, ds *api.DaemonSet, p *api.Pod) error {
	err := ctx.Delete("Pod", p.Namespace, p.Name, false, OnPod(Delete, p.Name, ""))
	if err == ErrCrashed {
		return err
	}
	if err != nil {
		ctx.Event(ds, "Warning", "FailedDelete", "Error deleting: %v", err)
		return err
	}
	ctx.Event(ds, "Normal", "SuccessfulDelete", "Deleted pod: %s", p.Name)
	return nil
}

// rollingUpdate replaces pods of an old template, node by node: without
// surge, it deletes old pods (unavailable ones first and freely, available
// ones while fewer than maxUnavailable nodes lack an available pod) and
// the next passes create their replacements; with surge, it creates the
// new pod beside the old one (up to maxSurge nodes at a time) and deletes
// the old one once the new is available. It returns how many writes it
// made.
func (d *DaemonSetLoop) rollingUpdate(ctx *Context, ds *api.DaemonSet, hash string, nodes []api.Object, byNode map[string][]*api.Pod, eligible map[string]bool) (int, error) {
	ru := ds.Spec.UpdateStrategy.RollingUpdate
	desired := int32(len(eligible))
	maxUnavailable := intOrPercentOf(derefIntOrString(ru.MaxUnavailable, api.FromInt(1)), desired)
	maxSurge := intOrPercentOf(derefIntOrString(ru.MaxSurge, api.FromInt(0)), desired)
	minReady := api.Duration(ds.Spec.MinReadySeconds) * api.Second
	type nodeState struct {
		name     string
		old, new *api.Pod
	}
	var states []nodeState
	var unavailable int32
	var surging int32
	for _, o := range nodes {
		n := o.(*api.Node)
		if !eligible[n.Name] {
			continue
		}
		st := nodeState{name: n.Name}
		for _, p := range byNode[n.Name] {
			if p.DeletionTimestamp != nil || p.Status.Phase == api.PodFailed {
				continue
			}
			if p.Labels[api.ControllerRevisionHashLabel] == hash {
				st.new = p
			} else if st.old == nil {
				st.old = p
			}
		}
		avail := (st.new != nil && IsPodAvailable(st.new, minReady, ctx.Now)) || (st.new == nil && st.old != nil && IsPodAvailable(st.old, minReady, ctx.Now))
		if !avail {
			unavailable++
		}
		if st.old != nil && st.new != nil {
			surging++
		}
		states = append(states, st)
	}
	writes := 0
	if maxSurge == 0 {
		budget := maxUnavailable - unavailable
		for _, st := range states {
			if st.old == nil || st.new != nil {
				continue
			}
			if IsPodAvailable(st.old, minReady, ctx.Now) {
				if budget <= 0 {
					continue
				}
				budget--
			}
			if err := d.deletePod(ctx, ds, st.old); err != nil {
				return writes, err
			}
			writes++
		}
		return writes, nil
	}
	var create []string
	for _, st := range states {
		switch {
		case st.old != nil && st.new != nil && IsPodAvailable(st.new, minReady, ctx.Now):
			if err := d.deletePod(ctx, ds, st.old); err != nil {
				return writes, err
			}
			writes++
		case st.old != nil && st.new == nil && surging < maxSurge:
			create = append(create, st.name)
			surging++
		}
	}
	if len(create) > 0 {
		if err := d.manage(ctx, ds, hash, create, nil); err != nil {
			return writes, err
		}
		writes += len(create)
	}
	return writes, nil
}

func derefIntOrString(p *api.IntOrString, def api.IntOrString) api.IntOrString {
	if p == nil {
		return def
	}
	return *p
}

// intOrPercentOf resolves an int or a percentage of total (rounded up, as
// the daemonset controller rounds both bounds).
func intOrPercentOf(v api.IntOrString, total int32) int32 {
	n, err := v.Scaled(total, true)
	if err != nil {
		return 0
	}
	return n
}

// daemonPod makes the DaemonSet's pod for node: the template with the
// revision's hash, the daemon tolerations, and a node affinity that only
// that node matches (the scheduler then binds it there).
func daemonPod(ds *api.DaemonSet, hash, node string) *api.Pod {
	t := ds.Spec.Template.DeepCopy()
	labels := map[string]string{}
	for k, v := range t.Labels {
		labels[k] = v
	}
	labels[api.ControllerRevisionHashLabel] = hash
	labels["pod-template-generation"] = strconv.FormatInt(ds.Generation, 10)
	spec := t.Spec
	spec.Tolerations = daemonTolerations(&spec)
	pin := api.NodeSelectorTerm{MatchFields: []api.NodeSelectorRequirement{{Key: "metadata.name", Operator: "In", Values: []string{node}}}}
	if spec.Affinity == nil {
		spec.Affinity = &api.Affinity{}
	}
	if spec.Affinity.NodeAffinity == nil {
		spec.Affinity.NodeAffinity = &api.NodeAffinity{}
	}
	// The pin replaces the template's required terms: the controller has
	// already checked them against this node.
	spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution = &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{pin}}
	return &api.Pod{
		TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: api.ObjectMeta{GenerateName: ds.Name + "-", Namespace: ds.Namespace, Labels: labels, Annotations: t.Annotations,
			OwnerReferences: []api.OwnerReference{{APIVersion: "apps/v1", Kind: "DaemonSet", Name: ds.Name, UID: ds.UID, Controller: true, BlockOwnerDeletion: true}}},
		Spec:   spec,
		Status: api.PodStatus{Phase: api.PodPending},
	}
}

// writeStatus reports, over the nodes: how many should run the pod
// (desired), how many that should run one do (current), how many run one
// that should not (misscheduled), and of the pods where they belong how
// many are ready, available and of the current template (updated).
func (d *DaemonSetLoop) writeStatus(ctx *Context, ds *api.DaemonSet, hash string, nodes []api.Object, byNode map[string][]*api.Pod) error {
	st := api.DaemonSetStatus{ObservedGeneration: ds.Generation, CollisionCount: ds.Status.CollisionCount}
	minReady := api.Duration(ds.Spec.MinReadySeconds) * api.Second
	for _, o := range nodes {
		n := o.(*api.Node)
		var live []*api.Pod
		for _, p := range byNode[n.Name] {
			if p.DeletionTimestamp == nil {
				live = append(live, p)
			}
		}
		shouldRun, _ := NodeShouldRunDaemonPod(n, ds)
		if !shouldRun {
			if len(live) > 0 {
				st.NumberMisscheduled++
			}
			continue
		}
		st.DesiredNumberScheduled++
		if len(live) == 0 {
			continue
		}
		st.CurrentNumberScheduled++
		sort.SliceStable(live, func(i, j int) bool { return live[i].CreationTimestamp < live[j].CreationTimestamp })
		p := live[0]
		for _, q := range live {
			if q.Labels[api.ControllerRevisionHashLabel] == hash {
				p = q
			}
		}
		if IsPodReady(p) {
			st.NumberReady++
			if IsPodAvailable(p, minReady, ctx.Now) {
				st.NumberAvailable++
			}
		}
		if p.Labels[api.ControllerRevisionHashLabel] == hash {
			st.UpdatedNumberScheduled++
		}
	}
	st.NumberUnavailable = st.DesiredNumberScheduled - st.NumberAvailable
	if daemonStatusEqual(ds.Status, st) {
		return nil
	}
	n := ds.DeepCopy()
	n.Status = st
	_, err := ctx.UpdateStatus(n, Status(fmt.Sprintf("desired %d, current %d, ready %d, up-to-date %d",
		st.DesiredNumberScheduled, st.CurrentNumberScheduled, st.NumberReady, st.UpdatedNumberScheduled)))
	return err
}

func daemonStatusEqual(a, b api.DaemonSetStatus) bool {
	a.CollisionCount, b.CollisionCount = nil, nil
	return a == b
}
