package sim

import (
	"strings"
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/controller"
)

func webDeployment(replicas int32) Config {
	labels := map[string]string{"app": "web"}
	return Config{Seed: 1, Until: 5 * api.Minute, Objects: []Object{{Object: &api.Deployment{
		TypeMeta:   api.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: api.DeploymentSpec{Replicas: api.Int32(replicas), Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "web", Image: "shop/web:1.0"}}}}},
	}}}}
}

func procNamed(t *testing.T, w *world, name string) *process {
	t.Helper()
	for _, c := range w.procs {
		if c.name == name {
			return c
		}
	}
	t.Fatalf("no process %s", name)
	return nil
}

// TestControllerManagerSharesOneInformer: the controllers of
// kube-controller-manager read one cache, each through the kinds it
// watches; the scheduler and the kubelets keep their own.
func TestControllerManagerSharesOneInformer(t *testing.T) {
	s, err := New(webDeployment(3))
	if err != nil {
		t.Fatal(err)
	}
	s.RunUntil(30*api.Second, 0)
	w := s.w
	if len(w.informers) != 1 || w.informers[0].binary != "kube-controller-manager" {
		t.Fatalf("shared informers: %d, want kube-controller-manager's alone", len(w.informers))
	}
	rs := procNamed(t, w, controller.ReplicaSetController)
	gc := procNamed(t, w, controller.GarbageCollectorController)
	hpa := procNamed(t, w, controller.HPAController)
	for _, c := range []*process{rs, gc, hpa} {
		if c.inf != 1 || c.cache != nil {
			t.Errorf("%s: informer %d, own cache %v; want the shared one alone", c.name, c.inf, c.cache != nil)
		}
	}
	for _, c := range []*process{procNamed(t, w, controller.Scheduler), procNamed(t, w, controller.Kubelet)} {
		if c.inf != 0 || c.cache == nil {
			t.Errorf("%s: informer %d; want a cache of its own (another binary)", c.name, c.inf)
		}
	}
	pods := w.cacheOf(rs).List("Pod")
	if len(pods) != 3 {
		t.Fatalf("replicaset-controller sees %d pods, want 3", len(pods))
	}
	for i, o := range w.cacheOf(gc).List("Pod") {
		if o != pods[i] {
			t.Errorf("pod %d: the garbage collector reads another copy than the replicaset-controller", i)
		}
	}
	// The horizontal-pod-autoscaler does not watch Services: its view has
	// none, though the shared cache holds the collector's.
	if n := w.cacheOf(gc).Len("Service"); n == 0 {
		t.Errorf("garbage collector sees no Service, want the kubernetes Service")
	}
	if n, l := w.cacheOf(hpa).Len("Service"), len(w.cacheOf(hpa).List("Service")); n != 0 || l != 0 {
		t.Errorf("horizontal-pod-autoscaler sees %d (%d) Services, want none: it does not watch them", n, l)
	}
}

// TestFaultGivesAControllerItsOwnWatch: a watch event dropped on its way
// to one controller of the controller-manager is lost for it alone: the
// fault gives it a cache of its own, and the others still see the event.
func TestFaultGivesAControllerItsOwnWatch(t *testing.T) {
	s, err := New(webDeployment(2))
	if err != nil {
		t.Fatal(err)
	}
	s.RunUntil(30*api.Second, 0)
	for _, line := range []string{"drop-watch replicaset-controller", "delete-pod app=web"} {
		f, err := ParseFault(line)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Inject(f); err != nil {
			t.Fatal(err)
		}
	}
	dropped := ""
	for _, n := range s.Notes() {
		if strings.Contains(n.String(), "dropped") {
			dropped = n.String()
		}
	}
	if !strings.Contains(dropped, "on its way to replicaset-controller") {
		t.Fatalf("notes %q: no event dropped on its way to replicaset-controller", s.Notes())
	}
	s.RunUntil(s.Now()+WatchLatency, 0)
	w := s.w
	rs := procNamed(t, w, controller.ReplicaSetController)
	gc := procNamed(t, w, controller.GarbageCollectorController)
	if rs.inf != 0 || rs.cache == nil {
		t.Fatalf("replicaset-controller still reads the shared informer after a fault aimed at it")
	}
	// The pod the fault deleted: the collector's view has its deletion (it
	// is gone or terminating), the replicaset-controller's cache not.
	terminating := func(c *process) int {
		n := 0
		for _, o := range w.cacheOf(c).List("Pod") {
			if o.Meta().DeletionTimestamp == nil {
				n++
			}
		}
		return n
	}
	if got := terminating(rs); got != 2 {
		t.Errorf("replicaset-controller's cache has %d live pods, want 2: it lost the deletion", got)
	}
	if got := terminating(gc); got != 1 {
		t.Errorf("garbage collector's view has %d live pods, want 1: it got the deletion", got)
	}
}

// TestSharedRelistAsOwn: a re-list that falls due while a watch event is
// still on its way finds the cache out of date. On the shared informer it
// queues, for each controller, the keys a re-list of a cache of its own
// queues, with the same triggers, and repairs the shared cache.
func TestSharedRelistAsOwn(t *testing.T) {
	queues := func(own bool) ([]string, *world) {
		ownInformers = own
		defer func() { ownInformers = false }()
		s, err := New(webDeployment(2))
		if err != nil {
			t.Fatal(err)
		}
		s.RunUntil(30*api.Second, 0)
		// A write whose watch events are on their way, then every
		// controller-manager process re-lists at once, as at t=5m.
		if _, err := s.Inject(Kubectl{Line: "scale deployment/web --replicas=4"}); err != nil {
			t.Fatal(err)
		}
		w := s.w
		for i, c := range w.procs {
			if binaryOf(c) != "" {
				w.relist(i)
			}
		}
		var out []string
		for i, c := range w.procs {
			if binaryOf(c) == "" {
				continue
			}
			q := w.proc(i).queue.Clone()
			for it, ok := q.Get(); ok; it, ok = q.Get() {
				out = append(out, c.name+" "+it.Key+" "+it.Trigger.String())
			}
		}
		return out, w
	}
	shared, w := queues(false)
	own, _ := queues(true)
	if strings.Join(shared, "\n") != strings.Join(own, "\n") {
		t.Errorf("queued after a re-list of the shared informer:\n%s\nof caches of their own:\n%s", strings.Join(shared, "\n"), strings.Join(own, "\n"))
	}
	relisted := false
	for _, q := range shared {
		relisted = relisted || strings.Contains(q, "relist: deployment/web was out of date")
	}
	if !relisted {
		t.Errorf("nothing queued by the re-list: %q", shared)
	}
	if !w.cacheInStep(procNamed(t, w, controller.DeploymentController)) {
		t.Errorf("the shared cache is still out of date after its re-list")
	}
}
