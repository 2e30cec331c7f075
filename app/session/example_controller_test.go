package session_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"reconcile/app/session"
	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/fault"
	"reconcile/engine/informer"
	"reconcile/engine/sim"
	"reconcile/engine/store"
)

// This file is what adding a controller takes for the stage to show it:
// the controller, its pseudocode and its line in the registry (labelerSpec,
// appended to the built-in ones here; a controller of the playground's own
// is a line of controller.Builtin). Nothing else in app/ or engine/ names
// it: the stage's explanation names it and says what restarts it, and its
// pseudocode is lit, all from the Spec.

const nodeLabel = "example.reconcile/node"

// The lines of labelerLines a pass lights.
const (
	lineEveryPass = iota + 1
	lineCompare
	lineLabel
)

var labelerLines = []string{
	"every pass:",
	"  if label != spec.nodeName:",
	"    label(pod, spec.nodeName)",
}

// podLabeler labels every pod with its node once it has settled there.
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
	ctx.Lines = []int{lineEveryPass}
	p, _ := ctx.Cache.Get("Pod", req.Key).(*api.Pod)
	if p == nil || p.DeletionTimestamp != nil {
		ctx.Deleted("pod gone")
		return ctx.NothingToDo(), nil
	}
	want := p.Spec.NodeName
	ctx.Desired = fmt.Sprintf("%s=%s", nodeLabel, want)
	ctx.Observed = fmt.Sprintf("%s=%s", nodeLabel, p.Labels[nodeLabel])
	ctx.Lines = append(ctx.Lines, lineCompare)
	if want == "" || p.Labels[nodeLabel] == want {
		return ctx.NothingToDo(), nil
	}
	if age := ctx.Now - p.CreationTimestamp; age < 30*api.Second {
		ctx.Difference = "not settled yet"
		return controller.Result{RequeueAfter: 30*api.Second - age, RequeueReason: "settling"}, nil
	}
	ctx.Difference = "label missing"
	ctx.Lines = append(ctx.Lines, lineLabel)
	np := p.DeepCopy()
	np.Labels[nodeLabel] = want
	if _, err := ctx.Update(np, controller.OnPod(controller.Label, p.Name, nodeLabel+"="+want)); err != nil {
		return controller.Result{}, err
	}
	return controller.Result{Outcome: controller.Acted}, nil
}

// labelerSpec is the controller's line in the registry.
var labelerSpec = controller.Spec{Name: "pod-labeler", For: "Pod", Doc: "labels every pod with its node",
	Runs: controller.ControllerManager, Display: "pod labeler",
	Pseudocode: map[controller.Mode][]string{controller.Level: labelerLines},
	New:        func(controller.Env) controller.Reconciler { return podLabeler{} }}

func TestAnExampleControllerOnTheStage(t *testing.T) {
	labels := map[string]string{"app": "web"}
	web := &api.Deployment{
		TypeMeta:   api.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: api.DeploymentSpec{Replicas: api.Int32(1), Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "web", Image: "shop/web:1.0"}}}}},
	}
	s, err := session.Start(sim.Config{Seed: 1, Objects: []sim.Object{{Object: web}},
		Controllers: append(slices.Clone(controller.Builtin), labelerSpec)})
	if err != nil {
		t.Fatal(err)
	}
	var r session.Reader
	// Its passes light its pseudocode: the first sees a pod not settled.
	var v session.View
	for {
		p, ok := s.Next()
		if !ok {
			t.Fatal("the run ended before a pod-labeler pass")
		}
		if p.Controller == "pod-labeler" && p.Desired.Is == 0 {
			v = r.Read(s, false)
			break
		}
	}
	want := session.Pseudocode{Controller: "pod-labeler", Lines: labelerLines, Ran: []int{lineEveryPass, lineCompare}}
	if got := v.Pseudocode; got.Controller != want.Controller || got.Edge || !slices.Equal(got.Lines, want.Lines) || !slices.Equal(got.Ran, want.Ran) {
		t.Errorf("pseudocode %+v, want %+v", got, want)
	}
	// The quiet stretch its requeue ends names it as its Spec says.
	var quiet []string
	for {
		p, ok := s.Next()
		if !ok {
			t.Fatal("the run ended before the labeler labeled")
		}
		if p.Controller == "pod-labeler" && p.Result == controller.Acted {
			v = r.Read(s, false)
			break
		}
	}
	for _, e := range v.Entries {
		if e.Quiet != nil && e.Quiet.Next.Controller == "pod-labeler" {
			quiet = append(quiet, e.Quiet.Words)
		}
	}
	if len(quiet) == 0 || !strings.HasSuffix(quiet[len(quiet)-1], "The pod labeler's requeue ends the wait: settling.") {
		t.Errorf("quiet stretches ended by the labeler: %q; want the last to end %q", quiet, "The pod labeler's requeue ends the wait: settling.")
	}
	if want := []int{lineEveryPass, lineCompare, lineLabel}; !slices.Equal(v.Pseudocode.Ran, want) {
		t.Errorf("labeling pass lit %v, want %v", v.Pseudocode.Ran, want)
	}
	// Crashed, it is restarted as its process is. The fault palette offers
	// it, and its line is read for this run, whose registry has it.
	line := session.FaultForm{Verb: fault.Crash, Target: "pod-labeler"}.Line(v.Targets)
	if line != "crash pod-labeler" {
		t.Fatalf("the palette's crash of the labeler: %q", line)
	}
	crash, err := s.ParseFault(line)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Inject(crash); err != nil {
		t.Fatal(err)
	}
	// A name the run has not is refused, in the grammar's words, listing the
	// run's controllers.
	names := append(controller.Names(), "pod-labeler")
	refused := fmt.Sprintf("fault crash: unknown controller %q: want one of %s", "pod-labeller", strings.Join(names, ", "))
	if _, err := s.ParseFault("crash pod-labeller"); err == nil || err.Error() != refused {
		t.Errorf("crash pod-labeller: %v\nwant %s", err, refused)
	}
	if _, err := s.Inject(sim.Kubectl{Line: "label pod -l app=web example.reconcile/node-"}); err != nil {
		t.Fatal(err)
	}
	for {
		p, ok := s.Next()
		if !ok {
			t.Fatal("the run ended before the labeler crashed")
		}
		if p.Controller == "pod-labeler" && p.Result == controller.Crashed {
			v = r.Read(s, false)
			break
		}
	}
	if got := v.Explained.What; !strings.Contains(got, ": the controller-manager restarts it (crashed") || !strings.HasPrefix(got, "pod-labeler ") {
		t.Errorf("crashed pass: %q", got)
	}
}
