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
	if got, want := readCluster(run, x, ctrls, 1), readCluster(run, &fresh, ctrls, 1); !reflect.DeepEqual(got, want) {
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
	return s.Run()
}
