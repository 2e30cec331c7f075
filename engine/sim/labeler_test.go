package sim_test

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/informer"
	"reconcile/engine/sim"
	"reconcile/engine/store"
)

// This file is what adding a controller takes: the controller (one file)
// and its line in the registry (labelerSpec, appended to the built-in
// ones here; a controller of the playground's own is a line of
// controller.Builtin).

// nodeLabel is the label podLabeler keeps on every pod.
const nodeLabel = "example.reconcile/node"

// settle is how long a pod is left alone before it is labeled.
const settle = 30 * api.Second

// podLabeler labels every pod it sees with the node it runs on, once the
// pod has settled there.
//
// Desired: nodeLabel equal to spec.nodeName, on every pod older than
// settle. Observed: the pod's labels, from the cache. Difference: write the
// label, or come back when the pod has settled.
type podLabeler struct{}

func (podLabeler) Name() string                 { return "pod-labeler" }
func (podLabeler) Watches() []string            { return []string{"Pod"} }
func (podLabeler) Clone() controller.Reconciler { return podLabeler{} }
func (podLabeler) Keys(_ *informer.Cache, ev store.WatchEvent) []string {
	if ev.Type == store.Deleted {
		return nil
	}
	return []string{api.RefOf(ev.Object).Key()}
}

func (podLabeler) Reconcile(ctx *controller.Context, req controller.Request) (controller.Result, error) {
	p, _ := ctx.Cache.Get("Pod", req.Key).(*api.Pod)
	if p == nil || p.DeletionTimestamp != nil {
		ctx.Desired, ctx.Observed = "pod gone", "-"
		return ctx.NothingToDo(), nil
	}
	want := p.Spec.NodeName
	ctx.Desired = fmt.Sprintf("%s=%s", nodeLabel, want)
	ctx.Observed = fmt.Sprintf("%s=%s", nodeLabel, p.Labels[nodeLabel])
	if want == "" || p.Labels[nodeLabel] == want {
		return ctx.NothingToDo(), nil
	}
	if age := ctx.Now - p.CreationTimestamp; age < settle {
		ctx.Difference = "not settled yet"
		return controller.Result{RequeueAfter: settle - age, RequeueReason: "settling"}, nil
	}
	ctx.Difference = "label missing"
	np := p.DeepCopy()
	np.Labels[nodeLabel] = want
	if _, err := ctx.Update(np, controller.OnPod(controller.Label, p.Name, nodeLabel+"="+want)); err != nil {
		return controller.Result{}, err
	}
	return controller.Result{Outcome: controller.Acted}, nil
}

// labelerSpec is the controller's line in the registry.
var labelerSpec = controller.Spec{Name: "pod-labeler", For: "Pod", Doc: "labels every pod with its node",
	New: func(controller.Env) controller.Reconciler { return podLabeler{} }}

func TestAControllerIsOneFileAndOneRegistryLine(t *testing.T) {
	cfg := sim.Config{Seed: 1, Objects: []sim.Object{{Object: deployment("web", 3)}},
		Controllers: append(slices.Clone(controller.Builtin), labelerSpec)}
	s, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// Ten seconds in, the pods run and are ready; the labeler waits for them
	// to settle: a requeue that would act, so the world has not converged.
	s.RunUntil(10*api.Second, 0)
	if d := s.Store().Get("Deployment", "default", "web").(*api.Deployment); d.Status.AvailableReplicas != 3 {
		t.Fatalf("after 10s: %d available, want 3", d.Status.AvailableReplicas)
	}
	// The three requeues share one line: the labeler's, with its reason and
	// when the first comes due.
	requeued := "pod-labeler requeued 3 keys: settling, the first at t=30.1s"
	if ok, why := s.Converged(); ok || why != requeued {
		t.Errorf("with the labels due: converged %v: %q; want not converged: %q", ok, why, requeued)
	}
	if got := s.Moving(0); !slices.Equal(got, []string{requeued}) {
		t.Errorf("with the labels due: moving %q, want only %q", got, requeued)
	}
	s.RunUntil(45*api.Second, 0)
	labeled := 0
	for _, o := range s.Store().List("Pod") {
		if p := o.(*api.Pod); p.Labels[nodeLabel] == p.Spec.NodeName {
			labeled++
		}
	}
	if labeled != 3 {
		t.Errorf("after 45s: %d pods labeled with their node, want 3", labeled)
	}
	var passes, acted int
	for _, p := range s.Passes() {
		if p.Controller != "pod-labeler" {
			continue
		}
		passes++
		if p.Result == controller.Acted {
			acted++
			if p.Object.Kind != "Pod" || len(p.Changed) != 1 || p.Changed[0].Ref != p.Object || p.Changed[0].Type != store.Modified {
				t.Errorf("pass %d: object %v, changed %v; want the pod it labeled, modified", p.N, p.Object, p.Changed)
			}
		}
	}
	if passes == 0 || acted != 3 {
		t.Errorf("pod-labeler: %d passes, %d that acted; want 3 that acted", passes, acted)
	}
	if ok, why := s.Converged(); !ok {
		t.Errorf("labels written: not converged: %s", why)
	}
}

// A fault may name the controller: a fault line is read for the run it is
// given to, whose registry has it. A run without it refuses the fault, in
// the parser's words, and records nothing.
func TestAFaultNamesTheRunsControllers(t *testing.T) {
	s, err := sim.New(sim.Config{Seed: 1, Objects: []sim.Object{{Object: deployment("web", 1)}},
		Controllers: append(slices.Clone(controller.Builtin), labelerSpec)})
	if err != nil {
		t.Fatal(err)
	}
	stop, err := s.ParseFault("stop pod-labeler")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Inject(stop); err != nil {
		t.Fatal(err)
	}
	s.RunUntil(api.Second, 0)
	state := ""
	for _, c := range s.Controllers() {
		if c.Name == "pod-labeler" {
			state = c.State
		}
	}
	if state != "stopped" {
		t.Errorf("after stop pod-labeler: state %q, want stopped", state)
	}
	names := append(controller.Names(), "pod-labeler")
	want := fmt.Sprintf("fault crash: unknown controller %q: want one of %s", "pod-labeller", strings.Join(names, ", "))
	if _, err := s.ParseFault("crash pod-labeller"); err == nil || err.Error() != want {
		t.Errorf("crash pod-labeller: %v\nwant %s", err, want)
	}

	builtin, err := sim.New(sim.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	want = fmt.Sprintf("fault crash: unknown controller %q: want one of %s", "pod-labeler", strings.Join(controller.Names(), ", "))
	if _, err := builtin.ParseFault("crash pod-labeler"); err == nil || err.Error() != want {
		t.Errorf("parsed for a run without it: %v\nwant %s", err, want)
	}
	if _, err := builtin.Inject(stop); err == nil || err.Error() != strings.Replace(want, "crash", "stop", 1) {
		t.Errorf("given to a run without it: %v", err)
	}
	if n := len(builtin.Inputs()); n != 0 {
		t.Errorf("a refused fault recorded: %d inputs", n)
	}
}

// A controller with one method of an optional interface but not the whole
// of it is refused when the run starts, not silently left without ticks.
type halfTicker struct{ podLabeler }

func (halfTicker) Period() api.Duration { return 5 * api.Second }

func TestAHalfOptionalInterfaceIsRefused(t *testing.T) {
	if runtime.GOOS == "js" {
		t.Skip("in the browser, Check does not look methods up by name (controller/hasmethod_js.go)")
	}
	spec := controller.Spec{Name: "half", For: "Pod", New: func(controller.Env) controller.Reconciler { return halfTicker{} }}
	_, err := sim.New(sim.Config{Controllers: append(slices.Clone(controller.Builtin), spec)})
	want := "controller pod-labeler has Period but does not implement controller.Ticker (Period, Tick)"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v, want %q", err, want)
	}
}

func deployment(name string, replicas int32) *api.Deployment {
	labels := map[string]string{"app": name}
	return &api.Deployment{
		TypeMeta:   api.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
		Spec: api.DeploymentSpec{Replicas: api.Int32(replicas), Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels},
				Spec: api.PodSpec{Containers: []api.Container{{Name: name, Image: "shop/web:1.0"}}}}},
	}
}
