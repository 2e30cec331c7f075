package session

import (
	"slices"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/pmap"
	"reconcile/engine/sim"
	"reconcile/engine/store"
)

// worldIndex is what the cluster pane and the fault palette need of a
// run's nodes and pods, kept from one reading to the next: the pods of each
// node in order, how many pods are active, each shown pod's chip. A pass
// touches one key, so a reading after a pass only updates what the pass
// changed.
//
// Finding what changed compares the store's pods and nodes with a snapshot
// of them kept from the last reading (store.Snapshot): the two share what
// was not written since, which the comparison skips (pmap.Map.Diff), so it
// costs the writes, not the cluster. A stored version is never changed
// (the store stores a new one), so a pod written is a new pointer. Nothing
// is read again when the store has not been written since the last
// reading.
type worldIndex struct {
	st *store.Store
	rv int64

	pods     pmap.Map[api.Object] // as last read, by namespace/name
	nodeSnap pmap.Map[api.Object]
	nodes    []api.Object // the nodes in nodeSnap, in order
	// nodeNames are the nodes' names, in order; rebuilt only when a node
	// comes or goes.
	nodeNames []string

	// deployments and replicaSets (daemonSets, statefulSets) are the
	// workloads as last listed.
	deployments, replicaSets []api.Object
	daemonSets, statefulSets []api.Object

	// entries holds every pod by its key (namespace/name).
	entries map[string]*podEntry
	// onNode lists, per node name ("" for pods no node has taken), the keys
	// of its pods in order.
	onNode map[string][]string
	active int
	// owned counts the active pods of each controller (by its UID), and
	// how many of them are ready: the pods a workload has, whatever its
	// status says yet.
	owned map[string]podCount

	// delta, when not nil, collects what sync finds changed since the last
	// reading (a Reader asks for it when the reading follows the one
	// before by steps forward).
	delta *worldDelta
	// marks are the changes the cluster pane shows (nil: none).
	marks *changeMarks
}

// worldDelta is what changed in the store between two readings.
type worldDelta struct {
	pods []podChange
	// objects are the nodes and workloads created or stored again.
	objects []api.Ref
}

// podChange is one pod created (ChangeAdded), stored again
// (ChangeModified) or gone ("", with its last version).
type podChange struct {
	key  string
	ref  api.Ref
	how  string
	last *api.Pod
}

// podCount is how many active pods a controller has, and how many ready.
type podCount struct{ active, ready int32 }

// count adds d to the count of p's controller.
func (x *worldIndex) count(p *api.Pod, d int32) {
	ref := p.ControllerOf()
	if ref == nil || !controller.IsPodActive(p) {
		return
	}
	c := x.owned[ref.UID]
	c.active += d
	if controller.IsPodReady(p) {
		c.ready += d
	}
	if c == (podCount{}) {
		delete(x.owned, ref.UID)
		return
	}
	x.owned[ref.UID] = c
}

// podEntry is one pod as the index holds it.
type podEntry struct {
	pod    *api.Pod
	chip   PodChip
	chipOf *api.Pod // the version chip was drawn from
}

// sync brings the index up to date with run's store.
func (x *worldIndex) sync(run *sim.Sim) {
	st := run.Store()
	if st == x.st && st.ResourceVersion() == x.rv && x.entries != nil {
		return
	}
	if x.entries == nil {
		x.entries, x.onNode, x.owned = map[string]*podEntry{}, map[string][]string{}, map[string]podCount{}
	}
	pods := st.Snapshot("Pod")
	pods.Diff(&x.pods, sameVersion, func(_ string, was api.Object, had bool, now api.Object, has bool) {
		switch {
		case !had:
			x.add(now)
		case !has:
			x.remove(was)
		default:
			x.update(was, now)
		}
	})
	x.pods = pods
	nodes := st.Snapshot("Node")
	changed, written := false, false
	nodes.Diff(&x.nodeSnap, sameVersion, func(_ string, _ api.Object, had bool, now api.Object, has bool) {
		written = true
		changed = changed || had != has
		if has {
			x.written(now)
		}
	})
	x.nodeSnap = nodes
	if written || x.nodes == nil {
		x.nodes = nodes.Values()
	}
	x.deployments = x.relist(st, "Deployment", x.deployments)
	x.replicaSets = x.relist(st, "ReplicaSet", x.replicaSets)
	x.daemonSets = x.relist(st, "DaemonSet", x.daemonSets)
	x.statefulSets = x.relist(st, "StatefulSet", x.statefulSets)
	if changed || x.nodeNames == nil {
		x.nodeNames = make([]string, len(x.nodes))
		for i, o := range x.nodes {
			x.nodeNames[i] = o.Meta().Name
		}
	}
	x.st, x.rv = st, st.ResourceVersion()
}

// relist lists kind again, noting in the delta what was written since
// prev.
func (x *worldIndex) relist(st *store.Store, kind string, prev []api.Object) []api.Object {
	cur := st.List(kind)
	if x.delta != nil {
		diffSorted(prev, cur, x.written, func(api.Object) {}, func(_, o api.Object) { x.written(o) })
	}
	return cur
}

// written notes in the delta a node or workload created or stored again.
func (x *worldIndex) written(o api.Object) {
	if x.delta != nil {
		x.delta.objects = append(x.delta.objects, api.RefOf(o))
	}
}

// note notes a pod's change in the delta.
func (x *worldIndex) note(k string, p *api.Pod, how string) {
	if x.delta != nil {
		x.delta.pods = append(x.delta.pods, podChange{key: k, ref: api.RefOf(p), how: how, last: p})
	}
}

func (x *worldIndex) add(o api.Object) {
	p := o.(*api.Pod)
	k := objectKey(p)
	x.note(k, p, ChangeAdded)
	x.entries[k] = &podEntry{pod: p}
	x.onNode[p.Spec.NodeName] = insertSorted(x.onNode[p.Spec.NodeName], k)
	x.count(p, 1)
	if controller.IsPodActive(p) {
		x.active++
	}
}

func (x *worldIndex) remove(o api.Object) {
	p := o.(*api.Pod)
	k := objectKey(p)
	x.note(k, p, "")
	x.count(p, -1)
	delete(x.entries, k)
	x.unlist(p.Spec.NodeName, k)
	if controller.IsPodActive(p) {
		x.active--
	}
}

func (x *worldIndex) update(old, o api.Object) {
	was, p := old.(*api.Pod), o.(*api.Pod)
	k := objectKey(p)
	x.note(k, p, ChangeModified)
	x.entries[k].pod = p
	x.count(was, -1)
	x.count(p, 1)
	if was.Spec.NodeName != p.Spec.NodeName {
		x.unlist(was.Spec.NodeName, k)
		x.onNode[p.Spec.NodeName] = insertSorted(x.onNode[p.Spec.NodeName], k)
	}
	if controller.IsPodActive(was) {
		x.active--
	}
	if controller.IsPodActive(p) {
		x.active++
	}
}

func (x *worldIndex) unlist(node, k string) {
	keys := x.onNode[node]
	if i, ok := slices.BinarySearch(keys, k); ok {
		keys = slices.Delete(keys, i, i+1)
	}
	if len(keys) == 0 {
		delete(x.onNode, node)
		return
	}
	x.onNode[node] = keys
}

// podsOn returns the number of pods on node ("" for the pods no node has
// taken) and the chips of the first max of them.
func (x *worldIndex) podsOn(node string, max int) (chips []PodChip, total int) {
	keys := x.onNode[node]
	if n := min(len(keys), max); n > 0 {
		chips = make([]PodChip, 0, n)
	}
	for _, k := range keys[:min(len(keys), max)] {
		e := x.entries[k]
		if e.chipOf != e.pod {
			e.chip, e.chipOf = chipOf(e.pod), e.pod
		}
		c := e.chip
		c.Change = x.marks.pod(k)
		chips = append(chips, c)
	}
	return chips, len(keys)
}

// activePods returns the first max active pods, in order. It stops as soon
// as it has them: in a world where most pods are active, it looks at about
// max pods.
func (x *worldIndex) activePods(max int) []*api.Pod {
	var out []*api.Pod
	for _, o := range x.pods.All() {
		if len(out) >= max {
			break
		}
		if p := o.(*api.Pod); controller.IsPodActive(p) {
			out = append(out, p)
		}
	}
	return out
}

// sameVersion reports whether a and b are the same stored version of an
// object.
func sameVersion(a, b api.Object) bool { return a == b }
