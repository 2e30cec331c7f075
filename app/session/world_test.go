package session

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/sim"
	"reconcile/scenarios"
)

// The index kept from pass to pass says what a reading of every pod from
// scratch says, whatever the run does: passes, seeks back, inputs.
func TestWorldIndexFollowsTheRun(t *testing.T) {
	for _, id := range []string{"node-dies-at-3am", "pending-pods", "self-healing", "rollback-is-desired-state", scenarios.Default} {
		t.Run(id, func(t *testing.T) {
			run := startRun(t, id)
			var x worldIndex
			check := func(when string) {
				t.Helper()
				x.sync(run)
				checkIndex(t, id+" "+when, run, &x)
			}
			check("at the start")
			for i := 1; i <= 300; i++ {
				if _, ok := run.Next(); !ok {
					break
				}
				check("after pass " + strconv.Itoa(run.PassCount()))
				switch i {
				case 60:
					if _, err := run.Inject(faults("delete-pod " + firstPod(run))[0]); err != nil {
						t.Fatal(err)
					}
					check("after deleting a pod")
				case 120:
					if err := run.Seek(40); err != nil {
						t.Fatal(err)
					}
					check("after a seek back")
				}
			}
		})
	}
}

func firstPod(run *sim.Sim) string {
	for _, o := range run.Store().List("Pod") {
		if p := o.(*api.Pod); controller.IsPodActive(p) {
			return p.Name
		}
	}
	return "none"
}

// checkIndex compares x with the pods and nodes of run read from scratch.
func checkIndex(t *testing.T, when string, run *sim.Sim, x *worldIndex) {
	t.Helper()
	st := run.Store()
	active := 0
	onNode := map[string][]string{}
	for _, o := range st.List("Pod") {
		p := o.(*api.Pod)
		if controller.IsPodActive(p) {
			active++
		}
		onNode[p.Spec.NodeName] = append(onNode[p.Spec.NodeName], objectKey(p))
		if e := x.entries[objectKey(p)]; e == nil || e.pod != p {
			t.Fatalf("%s: the index does not hold the stored version of pod %s", when, p.Name)
		}
	}
	if x.active != active || len(x.entries) != st.Count("Pod") {
		t.Fatalf("%s: index says %d active of %d pods; the store %d of %d", when, x.active, len(x.entries), active, st.Count("Pod"))
	}
	if !reflect.DeepEqual(x.onNode, onNode) {
		t.Fatalf("%s: pods by node\n index %v\n store %v", when, x.onNode, onNode)
	}
	var names []string
	for _, o := range st.List("Node") {
		names = append(names, o.Meta().Name)
	}
	if !slices.Equal(x.nodeNames, names) {
		t.Fatalf("%s: nodes %v, want %v", when, x.nodeNames, names)
	}
	var fresh worldIndex
	fresh.sync(run)
	ctrls := run.Controllers()
	if got, want := readCluster(run, x, slices.Values(ctrls), 1), readCluster(run, &fresh, slices.Values(ctrls), 1); !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: the cluster pane from the kept index differs from one read from scratch:\n%+v\n%+v", when, got, want)
	}
}

// compareKeys orders objects as the store's keys (namespace/name) sort.
func TestCompareKeysIsTheStoreOrder(t *testing.T) {
	objs := []api.Object{}
	for _, k := range []string{"a/x", "a-b/x", "a/x-1", "a/x1", "ab/x", "a/", "b/a", "a/xy", "node-1", "node-10", "node-2", "a.b/x"} {
		ns, name, ok := strings.Cut(k, "/")
		if !ok {
			ns, name = "", k
		}
		objs = append(objs, &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: ns, Name: name}})
	}
	for _, a := range objs {
		for _, b := range objs {
			if got, want := compareKeys(a, b), strings.Compare(objectKey(a), objectKey(b)); got != want {
				t.Errorf("compareKeys(%q, %q) = %d, want %d", objectKey(a), objectKey(b), got, want)
			}
		}
	}
}

// startRun starts the bundled scenario id.
func startRun(t *testing.T, id string) *sim.Sim {
	t.Helper()
	s, err := Start(mustLoad(t, id).Config())
	if err != nil {
		t.Fatal(err)
	}
	return s.run
}

// What a pass changed is marked in the cluster pane: at self-healing's
// deletion, the pod the step deleted is marked while it terminates, then
// drawn as a ghost where it was once the kubelet removes it, and the
// replacement is marked added. After a seek nothing is marked.
func TestChangesAreMarked(t *testing.T) {
	s := newSession(t, "self-healing")
	var r Reader
	s.SkipStartup()
	if got := marked(r.Read(s, false)); len(got) != 0 {
		t.Errorf("after skipping the start-up (a seek): marked %v", got)
	}
	s.NextEvent() // the step of 30s: get pods, delete-pod app=web
	v := r.Read(s, false)
	var doomed PodChip
	for _, n := range v.Cluster.Nodes {
		for _, c := range n.Pods {
			if c.Shape == ShapeTerminating {
				doomed = c
			}
		}
	}
	if got := marked(v); doomed.Change != ChangeModified || len(got) != 1 {
		t.Fatalf("after the step: terminating pod %+v, marked %v; want it alone marked changed", doomed, got)
	}
	if again := marked(r.Read(s, false)); len(again) != 1 {
		t.Errorf("read again with nothing changed: marked %v", again)
	}

	p, _ := s.Next() // the kubelet removes the pod
	v = r.Read(s, false)
	if v.Cluster.Acting != "kubelet on "+p.Host || p.Host == "" {
		t.Errorf("acting %q, pass by %s on %s", v.Cluster.Acting, p.Controller, p.Host)
	}
	var ghosts []string
	for _, n := range v.Cluster.Nodes {
		for _, g := range n.Ghosts {
			ghosts = append(ghosts, n.Ref.Name+" "+g.Ref.Name+": "+g.Reason)
		}
		for _, c := range n.Pods {
			if c.Ref == doomed.Ref {
				t.Errorf("pass %d: the deleted pod is still drawn on %s", p.N, n.Ref.Name)
			}
		}
	}
	want := p.Host + " " + doomed.Ref.Name + ": deleted by the kubelet on " + p.Host + " after it terminated"
	if len(ghosts) != 1 || ghosts[0] != want {
		t.Errorf("pass %d: ghosts %q; want %q", p.N, ghosts, want)
	}

	p, _ = s.Next() // the replicaset-controller creates a replacement
	v = r.Read(s, false)
	var created api.Ref
	for _, c := range p.Changed {
		if c.Kind == "Pod" && c.Type == "ADDED" {
			created = c.Ref
		}
	}
	got := marked(v)
	if created.Name == "" || v.Cluster.Acting != "replicaset-controller" {
		t.Fatalf("pass %d by %s created no pod", p.N, v.Cluster.Acting)
	}
	wantMarks := []string{"replicaset/" + v.Cluster.ReplicaSets[0].Ref.Name + " changed", "pod " + created.Name + " added"}
	if !slices.Equal(got, wantMarks) {
		t.Errorf("pass %d: marked %v; want %v", p.N, got, wantMarks)
	}

	for _, n := range []int{s.N(), 20, 40} {
		if err := s.Seek(n); err != nil {
			t.Fatal(err)
		}
		if got := marked(r.Read(s, false)); len(got) != 0 {
			t.Errorf("after a seek to pass %d: marked %v", n, got)
		}
	}
}

// A pod deleted by an input, with no pass in between, is a ghost that names
// the input: pending-pods' pods no node takes are deleted at once.
func TestGhostOfAnInput(t *testing.T) {
	s := newSession(t, "pending-pods")
	if err := s.Seek(60); err != nil {
		t.Fatal(err)
	}
	var r Reader
	v := r.Read(s, false)
	if len(v.Cluster.Unscheduled.Pods) == 0 {
		t.Fatal("no pending pod at pass 60")
	}
	name := v.Cluster.Unscheduled.Pods[0].Ref.Name
	if _, err := s.Inject(faults("delete-pod " + name)[0]); err != nil {
		t.Fatal(err)
	}
	v = r.Read(s, false)
	gs := v.Cluster.Unscheduled.Ghosts
	if len(gs) != 1 || gs[0].Ref.Name != name || gs[0].Reason != "deleted by an input: delete-pod "+name {
		t.Errorf("after deleting %s: unscheduled ghosts %+v", name, gs)
	}
}

// Reading with marks draws the same pane as reading from scratch, but for
// the marks.
func TestMarksChangeNothingElse(t *testing.T) {
	for _, id := range []string{"self-healing", "node-dies-at-3am", "pending-pods"} {
		s := newSession(t, id)
		var r Reader
		for i := 0; i < 200; i++ {
			v := r.Read(s, false)
			var fresh worldIndex
			fresh.sync(s.run)
			want := readCluster(s.run, &fresh, s.run.EachController(), 0)
			want.Acting = v.Cluster.Acting
			if got := unmarked(v.Cluster); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s pass %d: with marks\n%+v\nfrom scratch\n%+v", id, v.N, got, want)
			}
			if i%3 == 0 {
				s.NextEvent()
			} else if _, ok := s.Next(); !ok {
				break
			}
		}
	}
}

// marked lists what a view marks, in words.
func marked(v View) []string {
	var out []string
	for _, w := range append(slices.Clone(v.Cluster.Deployments), v.Cluster.ReplicaSets...) {
		if w.Changed {
			out = append(out, w.Ref.String()+" changed")
		}
	}
	for _, n := range append(slices.Clone(v.Cluster.Nodes), v.Cluster.Unscheduled) {
		if n.Changed {
			out = append(out, "node "+n.Ref.Name+" changed")
		}
		for _, c := range n.Pods {
			if c.Change != "" {
				out = append(out, "pod "+c.Ref.Name+" "+c.Change)
			}
		}
		for _, g := range n.Ghosts {
			out = append(out, "ghost "+g.Ref.Name)
		}
	}
	return out
}

// unmarked is c without its marks.
func unmarked(c Cluster) Cluster {
	c.Deployments, c.ReplicaSets = slices.Clone(c.Deployments), slices.Clone(c.ReplicaSets)
	for i := range c.Deployments {
		c.Deployments[i].Changed = false
	}
	for i := range c.ReplicaSets {
		c.ReplicaSets[i].Changed = false
	}
	c.Nodes = slices.Clone(c.Nodes)
	for i := range c.Nodes {
		c.Nodes[i] = unmarkedNode(c.Nodes[i])
	}
	c.Unscheduled = unmarkedNode(c.Unscheduled)
	return c
}

func unmarkedNode(n NodeView) NodeView {
	n.Changed, n.Ghosts = false, nil
	n.Pods = slices.Clone(n.Pods)
	for i := range n.Pods {
		n.Pods[i].Change = ""
	}
	return n
}

// A pod a drain evicts on its own clock, with no pass in between, is a
// ghost that names the drain and the moment of its eviction: the drain
// was given earlier, the eviction tried again once the budget that
// refused it was deleted.
func TestGhostOfADrainRetry(t *testing.T) {
	s := newSession(t, "self-healing")
	for s.run.PassCount() < 40 {
		if _, ok := s.Next(); !ok {
			break
		}
	}
	pod, _ := s.Read("get pods -l app=web -o jsonpath={.items[0].metadata.name}")
	node, _ := s.Read("get pod " + pod + " -o jsonpath={.spec.nodeName}")
	drain := "drain " + node + " --ignore-daemonsets --grace-period=0 --pod-selector=app=web"
	for _, line := range []string{"create pdb web-pdb --selector=app=web --min-available=100%", drain} {
		if _, err := s.Inject(sim.Kubectl{Line: line}); err != nil {
			t.Fatal(err)
		}
	}
	start := s.run.Now()
	s.PlayTo(start + 12*api.Second)
	if _, err := s.Inject(sim.Kubectl{Line: "delete pdb web-pdb"}); err != nil {
		t.Fatal(err)
	}
	s.PlayTo(start + 14*api.Second)
	var r Reader
	r.Read(s, false)
	s.PlayTo(start + 15*api.Second)
	v := r.Read(s, false)
	acts := s.run.Acts()
	if len(acts) != 1 || !strings.HasPrefix(acts[0].Output, "evicting pod default/") {
		t.Fatalf("acts %+v; want one eviction tried again", acts)
	}
	pod = strings.TrimPrefix(strings.SplitN(acts[0].Output, "\n", 2)[0], "evicting pod default/")
	want := "deleted by kubectl " + drain + " (given at t=" + start.String() + "): its eviction at t=" + (start + 15*api.Second).String()
	var reasons []string
	for _, n := range v.Cluster.Nodes {
		for _, g := range n.Ghosts {
			if g.Ref.Name == pod {
				reasons = append(reasons, g.Reason)
			}
		}
	}
	if len(reasons) != 1 || reasons[0] != want {
		t.Errorf("ghost of %s: %q, want %q", pod, reasons, want)
	}
}
