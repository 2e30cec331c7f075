package session

import (
	"strings"
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/fault"
	"reconcile/engine/queue"
	"reconcile/engine/sim"
	"reconcile/scenarios"
)

// lessonPasses runs a bundled lesson to t and returns its passes.
func lessonPasses(t *testing.T, id string, until api.Time) []sim.Pass {
	t.Helper()
	sc, err := scenarios.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	run, err := sim.New(sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	run.RunUntil(until, 0)
	return run.Passes()
}

// passN returns pass n of passes, checking it is the pass the test means.
func passN(t *testing.T, passes []sim.Pass, n int, ctrl, trigger string) sim.Pass {
	t.Helper()
	if n > len(passes) {
		t.Fatalf("pass %d: the run has %d passes", n, len(passes))
	}
	p := passes[n-1]
	if p.Controller != ctrl || p.Trigger.String() != trigger {
		t.Fatalf("pass %d is %s on %s (%s), want %s (%s)", n, p.Controller, p.Key, p.Trigger, ctrl, trigger)
	}
	return p
}

// TestExplainSelfHealing reads the passes of the self-healing lesson in
// plain words: the loop creates five pods, and when one is deleted the
// same loop replaces it.
func TestExplainSelfHealing(t *testing.T) {
	passes := lessonPasses(t, "self-healing", 40*api.Second)
	tests := []struct {
		n             int
		ctrl, trigger string
		what, why     string
	}{
		{1, controller.DeploymentController, "initial list",
			"deployment-controller found no ReplicaSet for the template of deployment web and created ReplicaSet web-5c6b78cfd9 with 5 replicas.",
			"Its first look at the cluster: every controller lists what it watches when it starts."},
		{3, controller.ReplicaSetController, "watch: replicaset/web-5c6b78cfd9 ADDED",
			"replicaset-controller counted 0 of the 5 pods web-5c6b78cfd9 wants and created 5.",
			"It ran because replicaset web-5c6b78cfd9 was created: the watch told it."},
		{4, controller.ReplicaSetController, "watch: pod/web-5c6b78cfd9-h8q24 ADDED (+5 more events)",
			"replicaset-controller counted the 5 pods web-5c6b78cfd9 wants: nothing to do but report its status (replicas 5, ready 0, available 0).",
			"It ran because pod web-5c6b78cfd9-h8q24 was created: the watch told it; the work queue folded 5 more events for the key into this pass."},
		{5, controller.Scheduler, "watch: pod/web-5c6b78cfd9-h8q24 ADDED",
			"default-scheduler bound pod web-5c6b78cfd9-h8q24 to worker-1.",
			"It ran because pod web-5c6b78cfd9-h8q24 was created: the watch told it."},
		{6, controller.DeploymentController, "watch: replicaset/web-5c6b78cfd9 MODIFIED",
			"deployment-controller found deployment web in sync: nothing to do.",
			"It ran because replicaset web-5c6b78cfd9 changed: the watch told it."},
		{13, controller.Kubelet, "watch: pod/web-5c6b78cfd9-h8q24 MODIFIED",
			"kubelet on worker-1 looked at pod web-5c6b78cfd9-h8q24 (web: no container) and started pulling shop/web:1.0 (3s) and reported it Pending, not ready.",
			"It ran because pod web-5c6b78cfd9-h8q24 changed: the watch told it."},
		{25, controller.Kubelet, "requeue: container timer after 2s",
			"kubelet on worker-1 looked at pod web-5c6b78cfd9-h8q24 (web: container being created) and started container web and reported it Running, ready.",
			"It ran because it asked to look again 2s later, for a container's next step (a pull, a start, a back-off, a probe)."},
		// At 30s a pod is deleted by hand: the same loop replaces it.
		{35, controller.ReplicaSetController, "watch: pod/web-5c6b78cfd9-6b2px MODIFIED",
			"replicaset-controller counted 4 of the 5 pods web-5c6b78cfd9 wants and created 1.",
			"It ran because pod web-5c6b78cfd9-6b2px changed: the watch told it."},
		{36, controller.Kubelet, "watch: pod/web-5c6b78cfd9-6b2px DELETED",
			"kubelet on worker-1 found pod web-5c6b78cfd9-6b2px gone from its node: nothing to run.",
			"It ran because pod web-5c6b78cfd9-6b2px was deleted: the watch told it."},
	}
	for _, tt := range tests {
		p := passN(t, passes, tt.n, tt.ctrl, tt.trigger)
		got := Explain(p)
		if got.What != tt.what {
			t.Errorf("pass %d what:\n got %q\nwant %q", tt.n, got.What, tt.what)
		}
		if got.Why != tt.why {
			t.Errorf("pass %d why:\n got %q\nwant %q", tt.n, got.Why, tt.why)
		}
	}
}

// TestExplainStuckRollout: the deployment controller's requeue for the
// progress deadline, and a rollout held by maxUnavailable.
func TestExplainStuckRollout(t *testing.T) {
	passes := lessonPasses(t, "stuck-rollout", 3*api.Minute)
	p := passN(t, passes, 97, controller.DeploymentController, "requeue: progress deadline check after 1m1s")
	want := Explanation{
		What: "deployment-controller took no step on deployment web (old ReplicaSets must wait: 4 available, at least 4 must stay).",
		Why:  "It ran because it asked to look again 1m1s later, for the progress deadline.",
	}
	if got := Explain(p); got != want {
		t.Errorf("pass 100:\n got %+v\nwant %+v", got, want)
	}
}

// TestExplainNodeDies: the node lifecycle controller's passes, and the
// quiet minute before the first of them.
func TestExplainNodeDies(t *testing.T) {
	passes := lessonPasses(t, "node-dies-at-3am", 7*api.Minute)
	var marked, evicted *sim.Pass
	for i := range passes {
		p := &passes[i]
		if p.Controller != controller.NodeLifecycleController || p.Result != controller.Acted {
			continue
		}
		switch {
		case marked == nil:
			marked = p
		case evicted == nil:
			evicted = p
		}
	}
	if marked == nil || evicted == nil {
		t.Fatal("no node lifecycle passes that acted")
	}
	if got, want := Explain(*marked), (Explanation{
		What: "node-lifecycle-controller heard nothing from node worker-2 for 55s, longer than the 50s it allows, and set worker-2 Ready=Unknown (Kubelet stopped posting node status.), marked 2 pods not ready and tainted worker-2 node.kubernetes.io/unreachable:NoSchedule and :NoExecute.",
		Why:  "It ran on a timer: its periodic check (node-monitor-period 5s) queued the key, with no watch event.",
	}); got != want {
		t.Errorf("pass %d:\n got %+v\nwant %+v", marked.N, got, want)
	}
	if got, want := Explain(*evicted), (Explanation{
		What: "node-lifecycle-controller evicted 2 pods from node worker-2: their toleration of its unreachable taint ran out.",
		Why:  "It ran because it asked to look again 5m0s later, for the moment the pods' toleration of the unreachable taint runs out; the work queue folded 1 more event for the key into this pass.",
	}); got != want {
		t.Errorf("pass %d:\n got %+v\nwant %+v", evicted.N, got, want)
	}
	before := passes[marked.N-2]
	want := "Nothing happens for 1m9.4s: every controller is waiting. The node lifecycle controller's grace period ends the wait."
	if got := QuietWords(before, *marked); got != want {
		t.Errorf("quiet before pass %d (after pass %d at t=%s):\n got %q\nwant %q", marked.N, before.N, before.AtText, got, want)
	}
	if got := QuietWords(passes[0], passes[1]); got != "" {
		t.Errorf("quiet between passes 1 and 2 (t=%s, t=%s) = %q, want none", passes[0].AtText, passes[1].AtText, got)
	}
}

// TestExplainCrash: a controller that crashes mid-pass says so plainly,
// with its own outcome, and the pass after its restart says why it ran.
func TestExplainCrash(t *testing.T) {
	passes := lessonPasses(t, "edge-vs-level", 4*api.Minute)
	p := passN(t, passes, 144, controller.ReplicaSetController, "watch: replicaset/checkout-65757f8b6 MODIFIED")
	want := "replicaset-controller created pod checkout-65757f8b6-hn9fs for replicaset checkout-65757f8b6, then crashed before it finished: " +
		"the controller-manager restarts it (crashed mid-pass after 1 action(s); restarts in 10s)."
	if p.Result != controller.Crashed || Explain(p).What != want {
		t.Errorf("pass 144 (%s): what = %q, want %q", p.Result, Explain(p).What, want)
	}
	restarted := false
	for _, q := range passes[p.N:] {
		if q.Controller == p.Controller && q.Trigger.Cause == queue.Restarted {
			restarted = true
			if why := Explain(q).Why; !strings.HasPrefix(why, "It ran because it restarted after a crash: it lists everything it watches again, so nothing it missed is lost") {
				t.Errorf("pass %d (%s): why = %q", q.N, q.Trigger, why)
			}
			break
		}
	}
	if !restarted {
		t.Errorf("no pass of %s after its restart", p.Controller)
	}
}

// TestExplainFallback: a controller without words of its own is still
// read from its pass's fields.
func TestExplainFallback(t *testing.T) {
	p := sim.Pass{Controller: "pod-labeler", Key: "default/web-1", Object: api.Ref{Kind: "Pod", Namespace: "default", Name: "web-1"},
		Trigger: queue.RequeueTrigger("settling", 30*api.Second), Desired: controller.Statement{Words: "node=worker-1"}, Observed: controller.Statement{Words: "node="},
		Difference: controller.Statement{Words: "label missing"},
		Actions:    []controller.Action{controller.OnPod(controller.Label, "web-1", "node=worker-1")}, Outcome: "acted", Result: controller.Acted}
	want := Explanation{
		What: "pod-labeler looked at pod web-1 (node=) and labeled pod web-1 node=worker-1.",
		Why:  "It ran because it asked to look again 30s later: settling.",
	}
	if got := Explain(p); got != want {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	p.Actions, p.Difference, p.Result = nil, controller.Statement{Fact: controller.Fact{Is: controller.Nothing}, Words: "none"}, controller.InSync
	if got, want := Explain(p).What, "pod-labeler found pod web-1 in sync: nothing to do."; got != want {
		t.Errorf("in sync: got %q, want %q", got, want)
	}
}

func TestFaultNames(t *testing.T) {
	names := map[string]string{}
	for _, v := range fault.Verbs {
		n := FaultName(v)
		if n == v || n == "" {
			t.Errorf("fault %s has no name in plain words", v)
		}
		if other, dup := names[n]; dup {
			t.Errorf("faults %s and %s share the name %q", other, v, n)
		}
		names[n] = v
	}
	if got := FaultName(fault.NodeDown); got != "Node loses power" {
		t.Errorf("node-down: %q", got)
	}
	if got := FaultName("no-such-fault"); got != "no-such-fault" {
		t.Errorf("an unknown verb is named %q, want itself", got)
	}
}

func TestFieldHelp(t *testing.T) {
	fields := []string{"Key", "Trigger", "Desired", "Observed", "Difference", "Actions", "Outcome", "Requeue"}
	for _, f := range fields {
		if FieldHelp[f] == "" {
			t.Errorf("field %s has no help", f)
		}
	}
	if len(FieldHelp) != len(fields) {
		t.Errorf("FieldHelp has %d fields, want %d: %v", len(FieldHelp), len(fields), fields)
	}
}

// A crashed pass says what restarts its controller as a cluster does: the
// HPA is kube-controller-manager's, the scheduler a static pod the
// kubelet restarts, a kubelet a systemd service.
func TestCrashSaysWhatRestartsIt(t *testing.T) {
	outcome := "crashed at the end of the pass after 0 action(s); restarts in 10s"
	for _, tt := range []struct{ ctrl, host, want string }{
		{controller.HPAController, "", "horizontal-pod-autoscaler crashed before it finished its pass on default/web: the controller-manager restarts it (" + outcome + ")."},
		{controller.Scheduler, "", "default-scheduler crashed before it finished its pass on default/web: the kubelet restarts it, as kube-scheduler runs as a static pod (" + outcome + ")."},
		{controller.Kubelet, "worker-1", "kubelet on worker-1 crashed before it finished its pass on default/web: systemd restarts it, as the kubelet runs as a systemd service (" + outcome + ")."},
	} {
		p := sim.Pass{Controller: tt.ctrl, Host: tt.host, Key: "default/web", Result: controller.Crashed, Outcome: outcome}
		if got := Explain(p).What; got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.ctrl, got, tt.want)
		}
	}
}

// TestExplainCordon: the drain's cordon, as the node lifecycle controller
// answers it with the unschedulable taint.
func TestExplainCordon(t *testing.T) {
	for _, p := range lessonPasses(t, "drain-waits-on-a-budget", 2*api.Minute) {
		if p.Controller != controller.NodeLifecycleController || p.Difference.Is != controller.CordonTaint {
			continue
		}
		want := "node-lifecycle-controller saw node worker-1 cordoned (spec.unschedulable) and tainted worker-1 node.kubernetes.io/unschedulable:NoSchedule."
		if got := Explain(p).What; got != want {
			t.Errorf("the cordon's pass:\n got %s\nwant %s", got, want)
		}
		return
	}
	t.Fatal("no node lifecycle pass answered the drain's cordon")
}
