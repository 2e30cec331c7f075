package sim

import (
	"slices"
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/store"
)

// deliveries returns the delivery items on w's agenda, in agenda order,
// each as the names of the processes it reaches ("+" after the one that
// folds the event into the shared informer).
func deliveries(w *world) (at []api.Time, to [][]string) {
	for _, it := range w.agenda.Values() {
		if it.kind != itemDeliver {
			continue
		}
		var names []string
		for _, r := range it.to.list {
			n := w.procs[r.ctrl].name
			if r.inform > 0 {
				n += "+"
			}
			names = append(names, n)
		}
		at, to = append(at, it.at), append(to, names)
	}
	return at, to
}

// TestWatchEventIsOneItem: a pod's change is one item of the agenda that
// reaches, in order, the pod's kubelet and every controller watching pods,
// the first of kube-controller-manager's folding it into their informer;
// a controller whose watch is delayed gets an item of its own, later; a
// duplicated delivery comes twice in a row. Changes that reach the same
// processes share one list of them.
func TestWatchEventIsOneItem(t *testing.T) {
	s, err := New(webDeployment(1))
	if err != nil {
		t.Fatal(err)
	}
	s.RunUntil(30*api.Second, 0)
	w := s.w
	pod := w.store.List("Pod")[0].(*api.Pod)
	// expect lists the processes a pod's change reaches after WatchLatency,
	// in process order: the kubelet first, then the controllers watching
	// pods, but those whose watch is delayed; twice is one the next
	// delivery of which is duplicated.
	expect := func(twice string) []string {
		out := []string{controller.Kubelet}
		first := true
		for _, c := range w.procs {
			if c.host != "" || !c.running || c.delay > 0 || !slices.Contains(c.watches(), "Pod") {
				continue
			}
			n := c.name
			if c.inf > 0 && first {
				n, first = n+"+", false
			}
			out = append(out, n)
			if c.name == twice {
				out = append(out, c.name)
			}
		}
		return out
	}
	notify := func() ([]api.Time, [][]string) {
		w.agenda = agenda{}
		w.notify(store.WatchEvent{Type: store.Modified, Object: pod, Old: pod})
		return deliveries(w)
	}
	want := expect("")
	if len(want) < 10 || !slices.Contains(want, controller.ReplicaSetController) || !slices.Contains(want, controller.Scheduler) {
		t.Fatalf("only %q watch pods", want)
	}
	at, to := notify()
	if len(to) != 1 || !slices.Equal(to[0], want) || at[0] != w.now+WatchLatency {
		t.Fatalf("deliveries at %v: %q; want one at %s: %q", at, to, w.now+WatchLatency, want)
	}
	first := w.agenda.Values()[0].to.list
	if k := first[0].ctrl; w.procs[k].host != pod.Spec.NodeName {
		t.Fatalf("the kubelet on %s is reached, not the pod's (on %s)", w.procs[k].host, pod.Spec.NodeName)
	}
	if notify(); &w.agenda.Values()[0].to.list[0] != &first[0] {
		t.Errorf("the next change of the pod has a list of recipients of its own; want the same list shared")
	}

	f, err := ParseFault("delay-watch " + controller.ReplicaSetController + " 2s")
	if err != nil {
		t.Fatal(err)
	}
	s.Inject(f)
	rest := expect("")
	if slices.Contains(rest, controller.ReplicaSetController) || len(rest) != len(want)-1 {
		t.Fatalf("the delayed controller is still expected at once: %q", rest)
	}
	at, to = notify()
	if &w.agenda.Values()[0].to.list[0] == &first[0] {
		t.Errorf("the recipients before the delay fault are shared after it")
	}
	if len(to) != 2 || !slices.Equal(to[0], rest) || !slices.Equal(to[1], []string{controller.ReplicaSetController}) ||
		at[0] != w.now+WatchLatency || at[1] != w.now+WatchLatency+2*api.Second {
		t.Fatalf("with the ReplicaSet controller's watch delayed 2s: deliveries at %v: %q; want %q then the ReplicaSet controller's 2s later", at, to, rest)
	}

	f, err = ParseFault("duplicate-watch " + controller.Scheduler + " 1")
	if err != nil {
		t.Fatal(err)
	}
	s.Inject(f)
	dup := expect(controller.Scheduler)
	at, to = notify()
	if len(to) != 2 || !slices.Equal(to[0], dup) || len(dup) != len(rest)+1 {
		t.Fatalf("with the scheduler's watch duplicated: deliveries %q; want %q first", to, dup)
	}
	if _, to = notify(); !slices.Equal(to[0], rest) {
		t.Fatalf("after the one duplicate: deliveries %q; want %q first", to, rest)
	}
}
