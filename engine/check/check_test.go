package check

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/assertion"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
	"reconcile/engine/yamlpos"
)

// world is a World made of objects built in the test.
type world struct {
	objects []api.Object
	events  []*api.Event
	outputs []sim.Output
}

func (w *world) Objects() []api.Object  { return w.objects }
func (w *world) Events() []*api.Event   { return w.events }
func (w *world) Outputs() []sim.Output  { return w.outputs }
func (w *world) add(o ...api.Object)    { w.objects = append(w.objects, o...) }
func (w *world) event(e ...*api.Event)  { w.events = append(w.events, e...) }
func (w *world) output(o ...sim.Output) { w.outputs = append(w.outputs, o...) }

func deployment(name string, available int32, generation, observed int64) *api.Deployment {
	d := &api.Deployment{
		TypeMeta:   api.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", Generation: generation, CreationTimestamp: 5 * api.Second},
	}
	d.Spec.Replicas = api.Int32(5)
	d.Spec.Strategy.RollingUpdate = &api.RollingUpdateDeployment{MaxSurge: &[]api.IntOrString{api.FromString("25%")}[0]}
	d.Status = api.DeploymentStatus{AvailableReplicas: available, ObservedGeneration: observed, Conditions: []api.DeploymentCondition{
		{Type: "Progressing", Status: "True", Reason: "NewReplicaSetAvailable", Message: `ReplicaSet "web-7d9c" has successfully progressed.`}}}
	return d
}

func replicaSet(name string, ready int32) *api.ReplicaSet {
	return &api.ReplicaSet{TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSet"},
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"}, Status: api.ReplicaSetStatus{ReadyReplicas: ready}}
}

func pod(name, node, phase string, ready bool, labels map[string]string) *api.Pod {
	p := &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", Labels: labels}}
	p.Spec.NodeName = node
	p.Status.Phase = phase
	status := "False"
	if ready {
		status = "True"
	}
	p.Status.Conditions = []api.PodCondition{{Type: "Ready", Status: status}}
	return p
}

func node(name string, ready bool) *api.Node {
	n := &api.Node{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Node"}, ObjectMeta: api.ObjectMeta{Name: name}}
	status := "Unknown"
	if ready {
		status = "True"
	}
	n.Status.Conditions = []api.NodeCondition{{Type: "Ready", Status: status}}
	n.Status.Capacity = map[string]api.Quantity{"cpu": "4", "memory": "8Gi"}
	return n
}

func testWorld() *world {
	w := &world{}
	web := map[string]string{"app": "web"}
	w.add(deployment("web", 3, 2, 2), deployment("api", 1, 3, 2), replicaSet("web-7d9c", 3), replicaSet("web-5f6b", 0),
		pod("web-7d9c-a", "worker-1", "Running", true, web), pod("web-7d9c-b", "worker-2", "Running", true, web),
		pod("web-7d9c-c", "worker-2", "Running", false, web), pod("web-7d9c-d", "", "Pending", false, web),
		node("worker-1", true), node("worker-2", false),
		&api.Unstructured{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Service"}, ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
			Spec: map[string]any{"ports": []any{map[string]any{"name": "http", "port": int64(80)}}}})
	w.objects[6].Meta().DeletionTimestamp = new(api.Time)
	return w
}

func TestThat(t *testing.T) {
	w := testWorld()
	tests := []struct {
		that, got string // got is "" when the assertion holds
	}{
		{"deployment/web status.availableReplicas == 3", ""},
		{"deployment/web status.availableReplicas == 5", "got 3"},
		{"deployment/web status.availableReplicas >= 2", ""},
		{"deployment/web status.availableReplicas < 3", "got 3"},
		{"deployment/nope status.availableReplicas == 3", `no deployment named "nope"`},
		{"deployment/web status.observedGeneration == metadata.generation", ""},
		{"deployment/api status.observedGeneration == metadata.generation", "got 2 and metadata.generation is 3"},
		{"deployment/web status.conditions[type=Progressing].reason == NewReplicaSetAvailable", ""},
		{"deployment/web status.conditions[type=Progressing].message contains \"successfully progressed\"", ""},
		{"deployment/web status.conditions[type=Progressing].reason == ProgressDeadlineExceeded", `got "NewReplicaSetAvailable"`},
		{"deployment/web status.conditions[type=ReplicaFailure].reason == FailedCreate", "got nothing (status.conditions has no element with type=ReplicaFailure)"},
		{"deployment/web status.conditions[type=ReplicaFailure].status != True", ""},
		{"deployment/web metadata.creationTimestamp < 10s", ""},
		{"deployment/web metadata.creationTimestamp > 1m", "got 5s"},
		{"deployment/web spec.strategy.rollingUpdate.maxSurge == 25%", ""},
		{"deployment/web spec.replicas == 5", ""},
		{"deployment/web metadata.labels contains app", "got null"},
		{"rs/web-* status.readyReplicas >= 0", ""},
		{"rs/web-* status.readyReplicas == 3", "replicaset/web-5f6b got 0"},
		{"rs/db-* status.readyReplicas == 3", "no replicaset matches db-*"},
		{"pod/web-7d9c-* status.phase == Running", `pod/web-7d9c-d got "Pending"`},
		{"pod/web-7d9c-* spec.nodeName == worker-1", `pod/web-7d9c-b got "worker-2" (and 2 more)`},
		{"node/worker-1 status.capacity.cpu >= 2", ""},
		{"node/worker-1 status.capacity.memory == 8192Mi", ""},
		{"node/worker-1 status.capacity.memory > 8Gi", "got 8Gi"},
		{"pods == 4", ""},
		{"pods{app=web,phase=Running,ready} == 2", ""},
		{"pods{app=web,phase=Running,ready} == 3", "got 2"},
		{"pods{app=web,!ready} == 2", ""},
		{"pods{node=worker-2,!terminating} == 1", ""},
		{"pods{terminating} == 1", ""},
		{"pods{!scheduled} == 1", ""},
		{"pods{app!=web} == 0", ""},
		{"pods{name=web-7d9c-*,tier} == 0", ""},
		{"nodes{ready} == 2", "got 1"},
		{"services{app=web} == 0", ""},
		{"service/web spec.ports[name=http].port == 80", ""},
		{"service/web spec.ports[0].port > 8000", "got 80"},
	}
	for _, tt := range tests {
		a, err := assertion.Parse(tt.that, []string{"Service"})
		if err != nil {
			t.Errorf("%s: %v", tt.that, err)
			continue
		}
		got, ok := a.Eval(w.Objects())
		if ok != (tt.got == "") || got != tt.got {
			t.Errorf("%s:\n got %q (holds %v)\nwant %q", tt.that, got, ok, tt.got)
		}
	}
}

func TestExpectEventsAndOutputs(t *testing.T) {
	w := testWorld()
	rsRef := api.ObjectReference{Kind: "ReplicaSet", Namespace: "default", Name: "web-7d9c"}
	w.event(
		&api.Event{InvolvedObject: rsRef, Reason: "SuccessfulCreate", Message: "Created pod: web-7d9c-a", Count: 1},
		&api.Event{InvolvedObject: rsRef, Reason: "SuccessfulCreate", Message: "Created pod: web-7d9c-b", Count: 1},
		&api.Event{InvolvedObject: api.ObjectReference{Kind: "Pod", Name: "web-7d9c-d"}, Reason: "FailedScheduling",
			Message: "0/2 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }.", Count: 4},
	)
	w.output(
		sim.Output{Command: "rollout status deployment/web", Output: "Waiting for deployment \"web\" rollout to finish: 3 of 5 updated replicas are available...\n", ExitCode: 0},
		sim.Output{Command: "get pods", Output: "NAME READY\n", ExitCode: 0},
		sim.Output{Command: "rollout status deployment/web", Output: "error: deployment \"web\" exceeded its progress deadline\n", ExitCode: 1},
	)
	exit1, exit0 := 1, 0
	tests := []struct {
		expect scenario.Expect
		want   string
	}{
		{scenario.Expect{Event: &scenario.ExpectEvent{Reason: "SuccessfulCreate", Object: "replicaset/web-*", Min: 2, Max: -1}}, ""},
		{scenario.Expect{Event: &scenario.ExpectEvent{Reason: "SuccessfulCreate", Object: "rs/web-*", Min: 5, Max: -1}},
			"x.yaml:7:3: expect at 10m: event reason SuccessfulCreate, on rs/web-*, at least 5: got 2"},
		{scenario.Expect{Event: &scenario.ExpectEvent{Reason: "FailedScheduling", Message: "Insufficient cpu", Min: 4, Max: 4}}, ""},
		{scenario.Expect{Event: &scenario.ExpectEvent{Reason: "FailedCreate", Min: 0, Max: 0}}, ""},
		{scenario.Expect{Event: &scenario.ExpectEvent{Object: "pod/*", Min: 0, Max: 3}},
			"x.yaml:7:3: expect at 10m: event on pod/*, at most 3: got 4"},
		{scenario.Expect{Output: &scenario.ExpectOutput{Command: "rollout status", Contains: "exceeded its progress deadline", ExitCode: &exit1}}, ""},
		{scenario.Expect{Output: &scenario.ExpectOutput{Command: "rollout status", Contains: "successfully rolled out", ExitCode: &exit0}},
			"x.yaml:7:3: expect at 10m: output of \"rollout status\" contains \"successfully rolled out\" and exit code 0: got exit code 1 and \"error: deployment \\\"web\\\" exceeded its progress deadline\\n\""},
		{scenario.Expect{Output: &scenario.ExpectOutput{Command: "describe", ExitCode: &exit0}},
			`x.yaml:7:3: expect at 10m: output of "describe" with exit code 0: no such command has run`},
		{scenario.Expect{That: "deployment/web status.availableReplicas == 5"},
			"x.yaml:7:3: expect at 10m: deployment/web status.availableReplicas == 5: got 3"},
		{scenario.Expect{That: "deployment/web status.nope == 5"},
			`x.yaml:7:3: expect at 10m: deployment/web status.nope == 5: bad expect: deployment has no field status.nope: unknown field "nope" in status; expected one of availableReplicas, collisionCount, conditions, observedGeneration, readyReplicas, replicas, unavailableReplicas, updatedReplicas`},
	}
	for _, tt := range tests {
		e := tt.expect
		e.Pos, e.At = yamlpos.Pos{File: "x.yaml", Line: 7, Col: 3}, 10*api.Minute
		got := ""
		if f := Expect(w, e); f != nil {
			got = f.Error()
		}
		if got != tt.want {
			t.Errorf("got\n%s\nwant\n%s", got, tt.want)
		}
	}
}

func TestDuration(t *testing.T) {
	for d, want := range map[api.Duration]string{0: "0s", 500: "500ms", 30 * api.Second: "30s", 10 * api.Minute: "10m",
		90 * api.Second: "1m30s", 2 * api.Hour: "2h", api.Hour + api.Minute: "1h1m", api.Hour + api.Second: "1h0m1s"} {
		if got := Duration(d); got != want {
			t.Errorf("Duration(%d) = %s, want %s", d, got, want)
		}
	}
}

func loadTestdata(t *testing.T, name string) *scenario.Scenario {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Load("testdata/"+name, data)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// TestRun plays real scenarios with the engine.
func TestRun(t *testing.T) {
	res, err := Run(loadTestdata(t, "scale.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Failures {
		t.Error(f)
	}
	if !res.OK() || res.Expects != 7 || !strings.HasPrefix(res.Digest, "sha256:") {
		t.Errorf("result: %+v", res)
	}
	again, _ := Run(loadTestdata(t, "scale.yaml"))
	if again.Digest != res.Digest {
		t.Errorf("digests differ between runs: %s, %s", res.Digest, again.Digest)
	}

	res, err = Run(loadTestdata(t, "scale-wrong.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Failures {
		got = append(got, f.Error())
	}
	want := []string{
		"testdata/scale-wrong.yaml:27:3: expect at 1m: deployment/web status.availableReplicas == 6: got 5",
		"testdata/scale-wrong.yaml:31:3: expect at 1m: event reason SuccessfulCreate, on replicaset/web-*, at least 9: got 5",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("failures:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func ExampleExpect() {
	w := &world{}
	w.add(deployment("web", 3, 2, 2))
	for _, that := range []string{
		"deployment/web status.availableReplicas == 3",
		"deployment/web status.availableReplicas == 5",
	} {
		a, _ := assertion.Parse(that, nil)
		e := scenario.Expect{Pos: yamlpos.Pos{File: "web.yaml", Line: 40, Col: 3}, At: 10 * api.Minute, That: that, Assertion: a}
		if f := Expect(w, e); f != nil {
			fmt.Println(f)
		} else {
			fmt.Println("ok:", that)
		}
	}
	// Output:
	// ok: deployment/web status.availableReplicas == 3
	// web.yaml:40:3: expect at 10m: deployment/web status.availableReplicas == 5: got 3
}
