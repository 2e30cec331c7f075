package kubectl_test

import (
	"strings"
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/kubectl"
	"reconcile/engine/store"
)

func world(t testing.TB) *store.Store {
	t.Helper()
	st := store.New(1)
	labels := map[string]string{"app": "web"}
	_, err := st.Create(&api.Deployment{
		TypeMeta:   api.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default", Labels: labels},
		Spec: api.DeploymentSpec{Replicas: api.Int32(3), Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "web", Image: "shop/web:1.0"}}}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	st.Create(&api.Node{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Node"}, ObjectMeta: api.ObjectMeta{Name: "worker-1"}})
	return st
}

// TestRun checks output and exit code of each verb against what kubectl
// prints for the same case.
func TestRun(t *testing.T) {
	cases := []struct {
		line string
		out  string
		code int
	}{
		{"get deployments", "NAME   READY   UP-TO-DATE   AVAILABLE   AGE\nweb    0/3     0            0           90s\n", 0},
		{"get pods", "No resources found in default namespace.\n", 0},
		{"get deploy nope", "Error from server (NotFound): deployments.apps \"nope\" not found\n", 1},
		{"get widgets", "error: the server doesn't have a resource type \"widgets\"\n", 1},
		{"scale deployment/web --replicas=5", "deployment.apps/web scaled\n", 0},
		{"scale deployment/web", "error: required flag(s) \"replicas\" not set\n", 1},
		{"scale deployment/web --replicas=-1", "error: The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0\n", 1},
		{"set image deployment/web web=shop/web:2.0", "deployment.apps/web image updated\n", 0},
		{"set image deployment/web api=shop/web:2.0", "error: unable to find container named \"api\"\n", 1},
		{"delete pod web-x", "Error from server (NotFound): pods \"web-x\" not found\n", 1},
		{"rollout undo deployment/web", "error: no rollout history found for deployment \"web\"\n", 1},
		{"rollout status deployment/web", "Waiting for deployment spec update to be observed...\n", 0},
		{"rollout pause deployment/web", "deployment.apps/web paused\n", 0},
		{"cordon worker-1", "node/worker-1 cordoned\n", 0},
		{"cordon worker-1", "node/worker-1 already cordoned\n", 0},
		{`patch deployment/web -p '{"spec":{"replicas":2}}'`, "deployment.apps/web patched\n", 0},
		{`patch deployment/web -p '{"spec":{"replicas":2}}'`, "deployment.apps/web patched (no change)\n", 0},
		{`patch deployment/web -p '{"spec":`, "", 1},
		{"create deployment api --image=shop/api:1.0 --replicas=2", "deployment.apps/api created\n", 0},
		{"create deployment api --image=shop/api:1.0", "error: failed to create deployment: deployments.apps \"api\" already exists\n", 1},
		{"drain worker-1 --ignore-daemonsets", "node/worker-1 already cordoned\nnode/worker-1 drained\n", 0},
		{`get pods -l "app=web`, "error: unterminated \" quote\n", 1},
		{"get deploy -l app=web -o name", "deployment.apps/web\n", 0},
		{"get deploy -l app=nope", "No resources found in default namespace.\n", 0},
		{"get events --field-selector type=Warning", "No resources found in default namespace.\n", 0},
		{"get events --frobnicate", "error: unknown flag: --frobnicate\nSee 'kubectl get --help' for usage.\n", 1},
		{"get nodes -o table", "", 1},
		{"scale deployment/web --replicas=20000", "error: 20000 replicas is more than this playground simulates: the limit is 10000 per workload (MaxReplicas)\n", 1},
		{"frobnicate", "", 1},
	}
	st := world(t)
	for _, c := range cases {
		out, code := kubectl.Run(st, 90*api.Second, c.line)
		if code != c.code || (c.out != "" && out != c.out) {
			t.Errorf("kubectl %s:\n got (exit %d) %q\nwant (exit %d) %q", c.line, code, out, c.code, c.out)
		}
	}
	if d := st.Get("Deployment", "default", "web").(*api.Deployment); d.Generation != 5 || !d.Spec.Paused || *d.Spec.Replicas != 2 {
		t.Errorf("after scale, set image, pause and patch: generation %d (want 5), paused %v, replicas %d", d.Generation, d.Spec.Paused, *d.Spec.Replicas)
	}
}

// FuzzRun feeds arbitrary command lines: kubectl answers every one with an
// exit code of 0 or 1 and never panics.
func FuzzRun(f *testing.F) {
	for _, s := range []string{"get pods", "scale deployment/web --replicas=2", "set image deployment/web web=x", "rollout undo deployment/web --to-revision=9",
		"delete pod a b c", "label deployment/web a=b c-", "describe node worker-1", "-n", "get", "rollout", "set image", "get deploy/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		st := world(t)
		out, code := kubectl.Run(st, api.Minute, line)
		if code != 0 && code != 1 {
			t.Fatalf("exit %d", code)
		}
		if code == 1 && !strings.Contains(out, "error") && !strings.Contains(out, "Error") && !strings.Contains(out, "invalid") && !strings.Contains(out, "Did you mean") {
			t.Fatalf("failure without an error message: %q", out)
		}
	})
}

// TestGetYAML renders an object as -o yaml does.
func TestGetYAML(t *testing.T) {
	st := world(t)
	out, code := kubectl.Run(st, api.Minute, "get node worker-1 -o yaml")
	for _, want := range []string{"apiVersion: v1\n", "kind: Node\n", "metadata:\n", "  name: worker-1\n", "  creationTimestamp: \"2026-01-01T09:00:00Z\"\n"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("get -o yaml: want %q in\n%s", want, out)
		}
	}
}

// TestPatchReplicasLimit: a patch past the playground's bound is refused
// for every kind with a scale subresource, a StatefulSet as a Deployment
// (the bound comes from the kind's entry, not a list of kinds).
func TestPatchReplicasLimit(t *testing.T) {
	st := world(t)
	labels := map[string]string{"app": "db"}
	if _, err := st.Create(&api.StatefulSet{
		TypeMeta:   api.TypeMeta{APIVersion: "apps/v1", Kind: "StatefulSet"},
		ObjectMeta: api.ObjectMeta{Name: "db", Namespace: "default"},
		Spec: api.StatefulSetSpec{Replicas: api.Int32(1), Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "db", Image: "db:1"}}}}},
	}); err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{"deployment/web", "statefulset/db"} {
		out, code := kubectl.Run(st, 0, `patch `+target+` -p '{"spec":{"replicas":20000}}'`)
		want := "error: 20000 replicas is more than this playground simulates: the limit is 10000 per workload (MaxReplicas)\n"
		if out != want || code != 1 {
			t.Errorf("patch %s: %q (exit %d), want %q (exit 1)", target, out, code, want)
		}
	}
	if r := st.Get("StatefulSet", "default", "db").(*api.StatefulSet).Spec.Replicas; *r != 1 {
		t.Errorf("the refused patch changed the StatefulSet: replicas %d", *r)
	}
}
