package scenario

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/limits"
	"reconcile/engine/manifest"
	"reconcile/engine/sim"
	"reconcile/engine/yamlpos"
)

func loadFile(t *testing.T, name string) *Scenario {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := Load(name, data)
	if err != nil {
		t.Fatalf("Load(%s): %v", name, err)
	}
	return sc
}

func TestLoadFull(t *testing.T) {
	sc := loadFile(t, "full.yaml")
	if sc.File != "full.yaml" || sc.ID != "node-dies-at-3am" || sc.Title != "A node dies at 3am" ||
		sc.Summary != "One paragraph shown before the run." || sc.Seed != 7 || sc.Plain {
		t.Errorf("header: %+v", sc)
	}
	c := sc.Cluster
	wantNodes := []Node{
		{Pos: yamlpos.Pos{File: "full.yaml", Line: 7, Col: 5}, Name: "worker-1", CPU: "4", Memory: "8Gi", Pods: 110},
		{Pos: yamlpos.Pos{File: "full.yaml", Line: 8, Col: 5}, Name: "worker-2", CPU: "2", Memory: "4Gi", Pods: 20, Labels: map[string]string{"disk": "ssd"}},
		{Pos: yamlpos.Pos{File: "full.yaml", Line: 9, Col: 5}, Name: "control-plane", CPU: "2000m", Memory: "4Gi", Pods: 110,
			Taints: []api.Taint{{Key: "node-role.kubernetes.io/control-plane", Effect: "NoSchedule"}}},
	}
	if !reflect.DeepEqual(c.Nodes, wantNodes) {
		t.Errorf("nodes:\n got %+v\nwant %+v", c.Nodes, wantNodes)
	}
	wantImages := []Image{
		{Pos: yamlpos.Pos{File: "full.yaml", Line: 14, Col: 5}, Ref: "shop/web:1.0", Digest: "sha256:aaaa", Pull: 3 * api.Second, Start: 2 * api.Second, Ready: true, Healthy: true},
		{Pos: yamlpos.Pos{File: "full.yaml", Line: 15, Col: 5}, Ref: "shop/web:2.0", Pull: api.Second, Start: 2 * api.Second, Healthy: true},
		{Pos: yamlpos.Pos{File: "full.yaml", Line: 16, Col: 5}, Ref: "shop/web:3.0", Pull: api.Second, Start: 2 * api.Second, Ready: true, Crash: true, Healthy: true},
		{Pos: yamlpos.Pos{File: "full.yaml", Line: 17, Col: 5}, Ref: "shop/web:4.0", Pull: api.Second, Start: 2 * api.Second, Ready: true, Healthy: true, PullError: "manifest unknown"},
	}
	if !reflect.DeepEqual(c.Images, wantImages) {
		t.Errorf("images:\n got %+v\nwant %+v", c.Images, wantImages)
	}
	if cfg := sc.Config(); cfg.Modes[controller.ReplicaSetController] != controller.Edge || cfg.Modes[controller.GitOpsController] != controller.Stopped ||
		len(cfg.Modes) != 2 {
		t.Errorf("controllers: %+v", c.Controllers)
	}
	if c.GitOps == nil || c.GitOps.Interval != 45*api.Second {
		t.Errorf("gitops: %+v", c.GitOps)
	}

	if len(sc.Manifests) != 2 {
		t.Fatalf("manifests: %d", len(sc.Manifests))
	}
	d, ok := sc.Manifests[0].Object.(*api.Deployment)
	if !ok || d.Name != "web" || d.Namespace != "default" || *d.Spec.Replicas != 5 ||
		d.Spec.Strategy.RollingUpdate.MaxSurge.String() != "1" || d.Spec.Strategy.RollingUpdate.MaxUnavailable.String() != "20%" ||
		d.Spec.Template.Spec.Containers[0].Resources.Requests["cpu"] != "100m" {
		t.Errorf("deployment: %+v", sc.Manifests[0].Object)
	}
	if d.Spec.RevisionHistoryLimit != nil || d.Spec.Template.Spec.RestartPolicy != "" {
		t.Errorf("manifests are kept as written; the store defaults them")
	}
	if got := sc.Manifests[0].Pos; got != (yamlpos.Pos{File: "full.yaml", Line: 21, Col: 3}) {
		t.Errorf("deployment at %v, want full.yaml:21:3", got)
	}
	svc, ok := sc.Manifests[1].Object.(*api.Service)
	if !ok || svc.Kind != "Service" || svc.Namespace != "default" || svc.Spec.Selector["app"] != "web" {
		t.Errorf("service: %+v", sc.Manifests[1].Object)
	}
	if got := sc.Manifests[1].Pos; got != (yamlpos.Pos{File: "full.yaml", Line: 42, Col: 3}) {
		t.Errorf("service at %v, want full.yaml:42:3", got)
	}

	wantSteps := []Step{
		{Pos: yamlpos.Pos{File: "full.yaml", Line: 50, Col: 3}, At: 30 * api.Second, Input: mustFault(t, "node-down worker-2")},
		{Pos: yamlpos.Pos{File: "full.yaml", Line: 51, Col: 3}, At: api.Minute, Input: mustFault(t, "drop-watch replicaset-controller 3")},
		{Pos: yamlpos.Pos{File: "full.yaml", Line: 52, Col: 3}, AfterPass: 40, Input: mustFault(t, "delay-watch kubelet 10s")},
		{Pos: yamlpos.Pos{File: "full.yaml", Line: 53, Col: 3}, At: 2 * api.Minute, Input: sim.Kubectl{Line: "set image deployment/web web=shop/web:2.0"}},
		{Pos: yamlpos.Pos{File: "full.yaml", Line: 54, Col: 3}, At: 3 * api.Minute, Input: sim.Kubectl{Line: "rollout status deployment/web"}},
	}
	if len(sc.Steps) != 7 || !reflect.DeepEqual(sc.Steps[:5], wantSteps) {
		t.Errorf("steps:\n got %+v\nwant %+v", sc.Steps, wantSteps)
	}
	apply, git := sc.Steps[5], sc.Steps[6]
	if apply.At != 4*api.Minute || !strings.HasPrefix(apply.Input.(sim.Apply).Manifests, "apiVersion: v1\nkind: ConfigMap") || len(apply.Manifests) != 1 ||
		apply.Manifests[0].Pos != (yamlpos.Pos{File: "full.yaml", Line: 57, Col: 5}) {
		t.Errorf("apply step: %+v", apply)
	}
	if git.At != 5*api.Minute || git.Input.(sim.Commit).Manifests == "" || len(git.Manifests) != 1 || git.Manifests[0].Object.(*api.Deployment).Spec.Replicas == nil {
		t.Errorf("git step: %+v", git)
	}
	if len(sc.Response) != 1 || sc.Response[0].Input != (sim.Kubectl{Line: "rollout undo deployment/web"}) || sc.Response[0].At != 0 {
		t.Errorf("response: %+v", sc.Response)
	}

	if len(sc.Expect) != 7 {
		t.Fatalf("expects: %d", len(sc.Expect))
	}
	e0 := sc.Expect[0]
	if e0.Pos != (yamlpos.Pos{File: "full.yaml", Line: 82, Col: 3}) || e0.At != 10*api.Minute || e0.Assertion == nil ||
		e0.Assertion.Kind != "Deployment" || e0.Assertion.Path.String() != "status.availableReplicas" {
		t.Errorf("expect[0]: %+v %+v", e0, e0.Assertion)
	}
	if a := sc.Expect[1].Assertion; a.Value.Path.String() != "metadata.generation" {
		t.Errorf("expect[1] compares with %+v", a.Value)
	}
	if a := sc.Expect[3].Assertion; a.Kind != "Service" {
		t.Errorf("expect[3] kind %q: kinds of the manifests are known to expects", a.Kind)
	}
	if ev := sc.Expect[4].Event; ev.Reason != "SuccessfulCreate" || ev.Object != "replicaset/web-*" || ev.Min != 2 || ev.Max != -1 {
		t.Errorf("expect[4].event: %+v", ev)
	}
	if ev := sc.Expect[5].Event; ev.Min != 0 || ev.Max != 0 {
		t.Errorf("expect[5].event (max: 0): %+v", ev)
	}
	if out := sc.Expect[6].Output; out.Command != "rollout status" || out.Contains != "successfully rolled out" || out.ExitCode == nil || *out.ExitCode != 0 {
		t.Errorf("expect[6].output: %+v", out)
	}
	want := &FailureRow{Trigger: "a node stops", Symptom: "pods stay Terminating", Cause: "the kubelet cannot confirm", Response: "wait for eviction"}
	if !reflect.DeepEqual(sc.Failure, want) {
		t.Errorf("failure: %+v", sc.Failure)
	}

	if want := "worker-2 stops reporting at 30 s: what does the cluster do about it?"; sc.Lead != want {
		t.Errorf("lead %q, want %q", sc.Lead, want)
	}
	wantStory := []Moment{
		{Pos: yamlpos.Pos{File: "full.yaml", Line: 96, Col: 3}, At: 0, Say: "Five pods of web start across the nodes."},
		{Pos: yamlpos.Pos{File: "full.yaml", Line: 97, Col: 3}, At: 30 * api.Second, Say: "worker-2 stops reporting. Nothing happens yet."},
		{Pos: yamlpos.Pos{File: "full.yaml", Line: 101, Col: 3}, At: 30 * api.Second, Say: "Two moments may share a time."},
		{Pos: yamlpos.Pos{File: "full.yaml", Line: 102, Col: 3}, At: 20 * api.Minute, Say: "The run ends here, ten minutes after the last expect."},
	}
	if !reflect.DeepEqual(sc.Story, wantStory) {
		t.Errorf("story:\n got %+v\nwant %+v", sc.Story, wantStory)
	}
	wantPredict := []Prediction{
		{Pos: yamlpos.Pos{File: "full.yaml", Line: 104, Col: 3}, At: api.Minute, Ask: AskCount},
		{Pos: yamlpos.Pos{File: "full.yaml", Line: 105, Col: 3}, At: 30 * api.Second},
		{Pos: yamlpos.Pos{File: "full.yaml", Line: 106, Col: 3}, At: 2 * api.Minute, Ask: AskChange},
		{Pos: yamlpos.Pos{File: "full.yaml", Line: 107, Col: 3}, At: 3 * api.Minute, Ask: AskWho},
	}
	if !reflect.DeepEqual(sc.Predict, wantPredict) {
		t.Errorf("predict:\n got %+v\nwant %+v", sc.Predict, wantPredict)
	}
	if len(sc.Warnings) != 0 {
		t.Errorf("warnings: %q", sc.Warnings)
	}
}

func TestLoadDefaults(t *testing.T) {
	sc, err := Load("scenarios/My Lesson.yaml", []byte("title: Minimal\nexpect:\n- {at: 1m, event: {reason: Scheduled}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if sc.ID != "my-lesson" || sc.Title != "Minimal" || sc.Plain {
		t.Errorf("id %q title %q plain %v", sc.ID, sc.Title, sc.Plain)
	}
	if !reflect.DeepEqual(sc.Cluster, DefaultCluster()) {
		t.Errorf("cluster: %+v", sc.Cluster)
	}
	names := []string{}
	for _, n := range sc.Cluster.Nodes {
		names = append(names, fmt.Sprintf("%s %s %s %d", n.Name, n.CPU, n.Memory, n.Pods))
	}
	if got := strings.Join(names, ", "); got != "worker-1 4 8Gi 110, worker-2 4 8Gi 110, worker-3 4 8Gi 110" {
		t.Errorf("default nodes: %s", got)
	}
	if ev := sc.Expect[0].Event; ev.Min != 1 || ev.Max != -1 {
		t.Errorf("event bounds default to at least one: %+v", ev)
	}
}

// TestStoryLeavesTheRunAlone: lead, story and predict are text for the
// page; the run a scenario describes is the same without them.
func TestStoryLeavesTheRunAlone(t *testing.T) {
	data, err := os.ReadFile("testdata/full.yaml")
	if err != nil {
		t.Fatal(err)
	}
	told, err := Load("full.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	cut := strings.Index(string(data), "\nlead:")
	plain, err := Load("full.yaml", data[:cut+1])
	if err != nil {
		t.Fatal(err)
	}
	if len(told.Story) == 0 || len(told.Predict) == 0 || plain.Story != nil || plain.Predict != nil {
		t.Fatalf("story %d/%d, predict %d/%d", len(told.Story), len(plain.Story), len(told.Predict), len(plain.Predict))
	}
	if !reflect.DeepEqual(told.Config(), plain.Config()) || told.Horizon() != plain.Horizon() {
		t.Errorf("lead, story and predict changed the run:\n%+v\n%+v", told.Config(), plain.Config())
	}
	if plain.Lead != "One paragraph shown before the run." {
		t.Errorf("lead without lead: %q", plain.Lead)
	}
}

// TestLeadDefaultsToTheSummarysFirstSentence: without lead:, the line shown
// before the run is the summary's first sentence, white space collapsed.
func TestLeadDefaultsToTheSummarysFirstSentence(t *testing.T) {
	tests := []struct{ summary, want string }{
		{"", ""},
		{"web runs five pods. At 30 s one is deleted.", "web runs five pods."},
		{">-\n  web runs five pods of\n  shop/web:1.0. At 1 m the\n  controller stops.", "web runs five pods of shop/web:1.0."},
		{"Is it running? Not yet.", "Is it running?"},
		{`kubectl prints "configured." The pipeline goes green.`, `kubectl prints "configured."`},
		{"A tag (e.g. shop/web:1.0) is reused. Nothing changes.", "A tag (e.g. shop/web:1.0) is reused."},
		{"One sentence without a full stop", "One sentence without a full stop"},
		{"Ends with one.", "Ends with one."},
	}
	for _, tt := range tests {
		sc, err := Load("web.yaml", []byte("id: web\nsummary: "+tt.summary+"\n"))
		if err != nil {
			t.Fatal(err)
		}
		if sc.Lead != tt.want {
			t.Errorf("summary %q: lead %q, want %q", tt.summary, sc.Lead, tt.want)
		}
	}
	sc, err := Load("web.yaml", []byte("id: web\nsummary: First. Second.\nlead: Written by hand.\n"))
	if err != nil || sc.Lead != "Written by hand." {
		t.Errorf("a written lead wins over the summary: %v %+v", err, sc)
	}
}

func TestLoadPlainManifests(t *testing.T) {
	text := "apiVersion: v1\nkind: Pod\nmetadata:\n  name: solo\nspec:\n  containers:\n  - {name: app, image: nginx}\n" +
		"---\napiVersion: v1\nkind: Node\nmetadata:\n  name: extra\n"
	sc, err := Load("examples/Solo_Pod.yml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if !sc.Plain || sc.ID != "solo-pod" || sc.Title != "Solo_Pod.yml" || len(sc.Steps) != 0 || len(sc.Cluster.Nodes) != 3 {
		t.Errorf("plain scenario: %+v", sc)
	}
	if len(sc.Manifests) != 2 {
		t.Fatalf("manifests: %+v", sc.Manifests)
	}
	if p := sc.Manifests[0].Object.(*api.Pod); p.Namespace != "default" {
		t.Errorf("pod namespace %q", p.Namespace)
	}
	if n := sc.Manifests[1].Object.(*api.Node); n.Namespace != "" || sc.Manifests[1].Pos != (yamlpos.Pos{File: "examples/Solo_Pod.yml", Line: 9, Col: 1}) {
		t.Errorf("node: %+v at %v", n, sc.Manifests[1].Pos)
	}
	// A plain file is validated like a scenario's manifests.
	_, err = Load("bad.yaml", []byte("apiVersion: v1\nkind: Pod\nmetadata:\n  name: solo\nspec:\n  containers: []\n"))
	if want := `bad.yaml:6:15: The Pod "solo" is invalid: spec.containers: Required value`; err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

func TestLoadWarnings(t *testing.T) {
	text := "id: web\nmanifests: |\n  apiVersion: v1\n  kind: Pod\n  metadata:\n    name: p\n    labelz: {a: b}\n  spec:\n" +
		"    containers:\n    - name: app\n      image: nginx\n      imagee: typo\n"
	// Strict by default, as kubectl apply --validate=strict.
	_, err := Load("web.yaml", []byte(text))
	if want := `web.yaml:7:5: Error from server (BadRequest): error when creating "web.yaml": Pod in version "v1" cannot be handled as a Pod: ` +
		`strict decoding error: unknown field "metadata.labelz", unknown field "spec.containers[0].imagee"`; err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	sc, err := Load("web.yaml", []byte("validate: warn\n"+text))
	if err != nil {
		t.Fatal(err)
	}
	if sc.Validate != manifest.Warn || !sc.Config().WarnUnknownFields {
		t.Errorf("validate: warn not kept: %v", sc.Validate)
	}
	want := []string{
		`web.yaml:8:5: Warning: unknown field "metadata.labelz"`,
		`web.yaml:13:7: Warning: unknown field "spec.containers[0].imagee"`,
	}
	if !reflect.DeepEqual(sc.Warnings, want) {
		t.Errorf("warnings:\n got %q\nwant %q", sc.Warnings, want)
	}
}

// deployment is a valid Deployment block; tests break it with replacements.
const deployment = `id: web
manifests: |
  apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: web
  spec:
    replicas: 3
    selector:
      matchLabels: {app: web}
    template:
      metadata:
        labels: {app: web}
      spec:
        containers:
        - name: web
          image: shop/web:1.0
`

func withDeployment(old, new string) string { return strings.Replace(deployment, old, new, 1) }

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"malformed YAML", "id: web\ntitle: [oops\n",
			"web.yaml:2:1: malformed YAML: did not find expected ',' or ']'"},
		{"malformed YAML in manifests", withDeployment("name: web", "name: [web"),
			"web.yaml:6:5: malformed YAML: did not find expected ',' or ']'"},
		{"unknown anchor", "id: web\ntitle: *nothing\n",
			"web.yaml:2:8: malformed YAML: unknown anchor 'nothing' referenced"},
		{"wrong type in manifests", withDeployment("replicas: 3", "replicas: three"),
			`web.yaml:8:15: Deployment.spec.replicas: invalid type: got "string", expected "integer"`},
		{"wrong type in labels", withDeployment("labels: {app: web}", "labels: {app: web, version: 1.0}"),
			`web.yaml:13:37: Deployment.spec.template.metadata.labels[version]: invalid type: got "number", expected "string"`},
		{"wrong type in scenario", "id: web\nseed: many\n",
			`web.yaml:2:7: seed: invalid type: got "string", expected "integer"`},
		{"steps not a list", "id: web\nsteps: {at: 1m}\n",
			`web.yaml:2:8: steps: invalid type: got "object", expected a list such as [{at: 30s, fault: "node-down worker-2"}]`},
		{"negative replicas", withDeployment("replicas: 3", "replicas: -1"),
			`web.yaml:8:15: The Deployment "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0`},
		{"selector mismatch", withDeployment("labels: {app: web}", "labels: {app: shop}"),
			"web.yaml:13:17: The Deployment \"web\" is invalid: spec.template.metadata.labels: Invalid value: {\"app\":\"shop\"}: `selector` does not match template `labels`"},
		{"too many replicas", withDeployment("replicas: 3", "replicas: 20000"),
			`web.yaml:8:15: Deployment "web": spec.replicas is 20000; the limit is 10000 replicas per workload (MaxReplicas)`},
		{"missing kind", withDeployment("  kind: Deployment\n", ""),
			`web.yaml:3:3: Object 'Kind' is missing in '{"apiVersion":"apps/v1","metadata":{"name":"web"},"spec":{"replicas":3,"selector":{"matchLabels":{"app":"web"}},"templat...'`},
		{"missing apiVersion", withDeployment("  apiVersion: apps/v1\n", ""),
			`web.yaml:3:3: Object 'apiVersion' is missing in '{"kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":3,"selector":{"matchLabels":{"app":"web"}},"template":...'`},
		{"old apiVersion", withDeployment("apps/v1", "extensions/v1beta1"),
			"web.yaml:3:15: resource mapping not found for name: \"web\" namespace: \"\" from \"web.yaml\": no matches for kind \"Deployment\" in version \"extensions/v1beta1\"\nensure CRDs are installed first"},
		{"object declared twice", deployment + "  ---\n" + strings.SplitN(deployment, "|\n", 2)[1],
			`web.yaml:19:3: Deployment "default/web" is declared twice in the manifests (first at web.yaml:3:3)`},
		{"duplicate key", withDeployment("replicas: 3", "replicas: 3\n    replicas: 4"),
			`web.yaml:9:5: mapping key "replicas" already defined at line 8`},
		{"unknown field in a node", "id: web\ncluster:\n  nodes:\n  - {name: worker-1, replica: 3}\n",
			`web.yaml:4:22: unknown field "replica" in cluster.nodes[0]; expected one of name, cpu, memory, labels, taints, unschedulable, pods`},
		{"traffic to no Service", deployment + "traffic: {service: web, perSecond: 500}\n",
			`web.yaml:18:20: traffic.service: no Service "web" in namespace "default" among the manifests or the apply steps` + "\n" +
				"web.yaml:18:36: traffic.perSecond: 500 is out of range: want 1 to 100 requests a second"},
		{"traffic without a service", deployment + "traffic: [{perSecond: 5}]\n",
			"web.yaml:18:11: traffic[0].service: required: name the Service the requests go to, e.g. traffic: {service: web, perSecond: 10}"},
		{"traffic expect", deployment + "expect:\n- {at: 1m, that: \"traffic(soon).failed == 0\"}\n- {at: 1m, that: \"traffic.latency == 0\"}\n",
			"web.yaml:19:27: expect[0].that: traffic(soon): want a window such as 30s or 2m\n" +
				`web.yaml:20:19: expect[1].that: unknown traffic field "latency": want ok, failed, total or digest[DIGEST]`},
		{"unknown top-level field", "id: web\ntitel: Web\n",
			`web.yaml:2:1: unknown field "titel"; expected one of id, title, summary, lead, story, predict, seed, validate, cluster, manifests, steps, response, expect, failure, traffic, challenge`},
		{"bad node", "id: web\ncluster:\n  nodes:\n  - {name: Worker_1, cpu: lots, taints: [{key: k, effect: Never}]}\n  - {name: worker-2}\n  - {name: worker-2}\n",
			"web.yaml:4:12: cluster.nodes[0].name: Invalid value: \"Worker_1\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')\n" +
				"web.yaml:4:27: cluster.nodes[0].cpu: invalid value \"lots\": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'\n" +
				"web.yaml:4:59: cluster.nodes[0].taints[0].effect: Unsupported value: \"Never\": supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"\n" +
				"web.yaml:6:12: cluster.nodes[2].name: Duplicate value: \"worker-2\""},
		{"bad time", "id: web\nsteps:\n- {at: 3x, kubectl: get pods}\n",
			`web.yaml:3:8: steps[0].at: invalid duration "3x": want a number of seconds or a Go duration such as 30s, 2m, 1h30m`},
		{"time past the limit", "id: web\nexpect:\n- {at: 25h, event: {reason: Scheduled}}\n",
			`web.yaml:3:8: expect[0].at: 25h is later than the limit of 24h0m0s of simulated time (MaxTime)`},
		{"step forms", "id: web\nsteps:\n- {at: 1m}\n- {fault: \"stop kubelet\"}\n- {at: 1m, afterPass: 3, fault: \"stop kubelet\"}\n- {afterPass: 0, kubectl: get pods}\n- {at: 1m, kubectl: get pods, fault: stop kubelet}\n",
			"web.yaml:3:3: steps[0]: want exactly one of fault, kubectl, apply, diff, git, delete; got none\n" +
				"web.yaml:4:3: steps[1]: Required value: when the step happens: at (a time such as 30s) or afterPass (a pass number)\n" +
				"web.yaml:5:23: steps[2]: give at or afterPass, not both\n" +
				"web.yaml:6:15: steps[3].afterPass: must be a pass number, 1 or more\n" +
				"web.yaml:7:3: steps[4]: want exactly one of fault, kubectl, apply, diff, git, delete; got fault and kubectl"},
		{"delete steps", "id: web\nsteps:\n- {at: 1m, delete: web}\n- {at: 1m, delete: deployment/web, propagationPolicy: foreground}\n- {at: 1m, kubectl: get pods, propagationPolicy: Orphan}\n- {at: 1m, delete: frobs/web}\n",
			"web.yaml:3:20: steps[0].delete: want KIND/NAME, such as deployment/web; got \"web\"\n" +
				"web.yaml:4:55: steps[1].propagationPolicy: Unsupported value: \"foreground\": supported values: \"Foreground\", \"Background\", \"Orphan\"\n" +
				"web.yaml:5:50: steps[2].propagationPolicy: goes with a delete step\n" +
				"web.yaml:6:20: steps[3].delete: the server doesn't have a resource type \"frobs\""},
		{"unknown kubectl verb", "id: web\nsteps:\n- {at: 1m, kubectl: \"frobnicate pods\"}\n- {at: 1m, kubectl: \"kubectl get pods\"}\n- {at: 1m, kubectl: \"rollout back deployment/web\"}\n",
			"web.yaml:3:21: steps[0].kubectl: unknown kubectl command \"frobnicate\": want one of apply, create, expose, delete, scale, autoscale, set, patch, label, annotate, taint, cordon, uncordon, drain, rollout, wait, get, describe, events, top, api-resources, diff\n" +
				"web.yaml:4:21: steps[1].kubectl: write the command without \"kubectl\": \"get pods\"\n" +
				"web.yaml:5:21: steps[2].kubectl: kubectl rollout needs a subcommand: one of status, undo, pause, resume, history, restart"},
		{"faults", "id: web\nsteps:\n- {at: 1m, fault: \"crash rs-controller\"}\n- {at: 1m, fault: \"node-down\"}\n- {at: 1m, fault: \"explode worker-1\"}\n- {at: 1m, fault: \"node-down worker-9\"}\n- {at: 1m, fault: \"delay-watch kubelet soon\"}\n",
			"web.yaml:3:19: steps[0].fault: fault crash: unknown controller \"rs-controller\": want one of deployment-controller, replicaset-controller, default-scheduler, job-controller, ttl-after-finished-controller, daemonset-controller, statefulset-controller, cronjob-controller, persistentvolume-controller, node-lifecycle-controller, garbage-collector-controller, pod-garbage-collector-controller, namespace-controller, resourcequota-controller, horizontal-pod-autoscaler, disruption-controller, endpointslice-controller, endpoints-controller, gitops, node-ipam-controller, serviceaccount-controller, root-ca-certificate-publisher-controller, kubelet\n" +
				"web.yaml:4:19: steps[1].fault: fault node-down takes NODE, got 0 word(s) after it: write node-down NODE\n" +
				"web.yaml:5:19: steps[2].fault: unknown fault \"explode\": want one of node-down, node-up, drop-watch, duplicate-watch, delay-watch, crash, stop, start, sync, webhook-down, webhook-up, push-image, delete-pod, fail-probe, pass-probe, cpu\n" +
				"web.yaml:6:19: steps[3].fault: no node named \"worker-9\"; the cluster's nodes are worker-1, worker-2, worker-3\n" +
				"web.yaml:7:19: steps[4].fault: fault delay-watch: invalid duration \"soon\": want a number of seconds or a Go duration such as 30s, 2m, 1h30m"},
		{"image behaviour", "id: web\ncluster:\n  images:\n  - {ref: a:1, exitCode: 300, runs: soon, warmup: 5s, startupFails: yes}\n  - {ref: b:1, postStartFails: 1}\n",
			"web.yaml:4:26: cluster.images[0].exitCode: invalid value 300: must be from 0 to 255\n" +
				"web.yaml:4:37: cluster.images[0].runs: invalid duration \"soon\": want a number of seconds or a Go duration such as 30s, 2m, 1h30m\n" +
				"web.yaml:4:69: cluster.images[0].startupFails: invalid type: got \"string\", expected \"boolean\" (true or false)\n" +
				"web.yaml:5:32: cluster.images[1].postStartFails: invalid type: got \"integer\", expected \"boolean\" (true or false)"},
		{"image times of none", "id: web\ncluster:\n  images:\n  - {ref: a:1, pull: 0s, start: 0}\n  - {ref: b:1, pull: 100ms, start: 500ms, stops: 0s}\n",
			"web.yaml:4:22: cluster.images[0].pull: invalid value 0s: must be greater than 0s (a fast one is 100ms)\n" +
				"web.yaml:4:33: cluster.images[0].start: invalid value 0s: must be greater than 0s (a fast one is 100ms)"},
		{"cluster CIDR", "id: web\ncluster:\n  clusterCIDR: 10.244.0.0/25\n",
			`web.yaml:3:16: cluster.clusterCIDR: Invalid value: "10.244.0.0/25": 10.244.0.0/25: the prefix must be between /8 and /24: each node gets a /24 of it (--node-cidr-mask-size), and at most 2^16 of them`},
		{"cluster CIDR host bits", "id: web\ncluster:\n  clusterCIDR: 10.244.1.0/16\n",
			`web.yaml:3:16: cluster.clusterCIDR: Invalid value: "10.244.1.0/16": 10.244.1.0/16 has host bits set: the range starts at 10.244.0.0/16`},
		{"controllers", "id: web\ncluster:\n  controllers: {deployment-controller: edge, rs-controller: level, kubelet: fast}\n",
			"web.yaml:3:40: cluster.controllers.deployment-controller: edge mode exists only for replicaset-controller (the lesson's edge-triggered twin)\n" +
				"web.yaml:3:46: cluster.controllers: unknown controller \"rs-controller\": want one of deployment-controller, replicaset-controller, default-scheduler, job-controller, ttl-after-finished-controller, daemonset-controller, statefulset-controller, cronjob-controller, persistentvolume-controller, node-lifecycle-controller, garbage-collector-controller, pod-garbage-collector-controller, namespace-controller, resourcequota-controller, horizontal-pod-autoscaler, disruption-controller, endpointslice-controller, endpoints-controller, gitops, node-ipam-controller, serviceaccount-controller, root-ca-certificate-publisher-controller, kubelet\n" +
				"web.yaml:3:77: cluster.controllers.kubelet: unknown mode \"fast\": want level, edge or stopped"},
		{"git without gitops", "id: web\nsteps:\n- {at: 1m, git: \"apiVersion: v1\\nkind: ConfigMap\\nmetadata: {name: x}\\n\"}\n",
			"web.yaml:3:17: steps[0].git: a git step needs cluster.gitops (e.g. gitops: {interval: 30s})"},
		{"expect on a missing kind", "id: web\nexpect:\n- {at: 1m, that: \"deploymnt/web status.replicas == 5\"}\n- {at: 1m, that: \"pod status.phase == Running\"}\n",
			"web.yaml:3:19: expect[0].that: unknown kind \"deploymnt\": want deployment, replicaset (rs), pod, node, lease\n" +
				"web.yaml:4:19: expect[1].that: \"pod\" names no object: want KIND/NAME PATH OP VALUE, e.g. deployment/web status.availableReplicas == 5, or KIND{FILTERS} OP NUMBER, e.g. pods{app=web,ready} == 5"},
		{"bad expects", "id: web\nexpect:\n" +
			"- {at: 1m, that: \"deployment/web status.availableReplica == 5\"}\n" +
			"- {at: 1m, that: \"deployment/web status.replicas === 5\"}\n" +
			"- {at: 1m, that: \"deployment/web status.replicas == five\"}\n" +
			"- {at: 1m, that: \"deployment/web metadata.name > 5\"}\n" +
			"- {at: 1m, that: \"pods{app=web,ready} == many\"}\n" +
			"- {at: 1m, that: \"deployment/web status.conditions.type == x\"}\n" +
			"- {at: 1m}\n" +
			"- {that: \"nodes{ready} == 3\"}\n" +
			"- {at: 1m, event: {min: 2}}\n" +
			"- {at: 1m, event: {reason: X, min: 3, max: 2}}\n" +
			"- {at: 1m, output: {command: get}}\n",
			"web.yaml:3:34: expect[0].that: deployment has no field status.availableReplica: unknown field \"availableReplica\" in status; expected one of availableReplicas, collisionCount, conditions, observedGeneration, readyReplicas, replicas, unavailableReplicas, updatedReplicas\n" +
				"web.yaml:4:50: expect[1].that: unknown operator \"===\": want one of == != < <= > >= contains\n" +
				"web.yaml:5:53: expect[2].that: status.replicas is a number: want a number, got \"five\"\n" +
				"web.yaml:6:50: expect[3].that: > compares numbers, times or quantities, but metadata.name is text\n" +
				"web.yaml:7:42: expect[4].that: a count compares with a whole number, got \"many\"\n" +
				"web.yaml:8:34: expect[5].that: deployment has no field status.conditions.type: status.conditions is a list: pick an element with status.conditions[0] or status.conditions[FIELD=VALUE]\n" +
				"web.yaml:9:3: expect[6]: want exactly one of that, event, output, outside; got none\n" +
				"web.yaml:10:3: expect[7].at: Required value: the simulated time to check at, e.g. at: 10m\n" +
				"web.yaml:11:19: expect[8].event: Required value: say which events: reason, object or message\n" +
				"web.yaml:12:44: expect[9].event.max: 2 is less than min 3\n" +
				"web.yaml:13:20: expect[10].output: Required value: what the output must show: contains, exitCode or both"},
		{"summary with HTML", "id: web\nsummary: hello <script>alert(1)</script>\n",
			`web.yaml:2:10: summary: raw HTML is not allowed (found "<script>aler"): write plain text or simple markdown`},
		{"bad leads", "id: web\nlead: |\n  First line.\n  Second line.\n",
			"web.yaml:2:7: lead: Invalid value: must be one line: tell the rest in story"},
		{"empty lead", "id: web\nlead: \"  \"\n",
			"web.yaml:2:7: lead: Required value: one line shown before the run (leave lead out to show the summary's first sentence)"},
		{"long lead", "id: web\nlead: " + strings.Repeat("é", 201) + "\n",
			"web.yaml:2:7: lead: Too long: may not be more than 200 characters, got 201"},
		{"lead with HTML", "id: web\nlead: <b>Look</b>\n",
			`web.yaml:2:7: lead: raw HTML is not allowed (found "<b>Look</b>"): write plain text or simple markdown`},
		{"story not a list", "id: web\nstory: {at: 1m, say: x}\n",
			`web.yaml:2:8: story: invalid type: got "object", expected a list such as [{at: 30s, say: "worker-2 stops reporting."}]`},
		{"bad moments", "id: web\nstory:\n" +
			"- {at: 1m, say: First.}\n" +
			"- {at: 30s, say: Earlier than the first.}\n" +
			"- {say: \"When?\"}\n" +
			"- {at: 2m}\n" +
			"- {at: 2m, say: \"\"}\n" +
			"- {at: 3x, say: x}\n" +
			"- {at: 2m, text: x}\n" +
			"- {at: 11m, say: After the end.}\n" +
			"- {at: 2m, say: " + strings.Repeat("a", 401) + "}\n" +
			"- one moment\n",
			"web.yaml:4:3: story[1]: at 30s comes before the previous moment's 1m0s: tell the moments in the order they happen\n" +
				"web.yaml:5:3: story[2].at: Required value: the simulated time the moment describes, e.g. at: 30s\n" +
				"web.yaml:6:3: story[3].say: Required value: the text shown when the run reaches at\n" +
				"web.yaml:7:17: story[4].say: Required value: the text shown when the run reaches at\n" +
				"web.yaml:8:8: story[5].at: invalid duration \"3x\": want a number of seconds or a Go duration such as 30s, 2m, 1h30m\n" +
				"web.yaml:9:3: story[6].say: Required value: the text shown when the run reaches at\n" +
				"web.yaml:9:12: unknown field \"text\" in story[6]; expected one of at, say\n" +
				"web.yaml:10:8: story[7].at: 11m0s is after the end of the run at 10m0s (ten minutes past the last step or expect)\n" +
				"web.yaml:11:17: story[8].say: Too long: may not be more than 400 characters, got 401\n" +
				"web.yaml:12:3: story[9]: want a mapping of at, say, got a string"},
		{"bad predictions", "id: web\nsteps:\n- {at: 5m, kubectl: get pods}\npredict:\n" +
			"- {at: 1m, ask: how}\n" +
			"- {ask: who}\n" +
			"- {at: 1m, ask: who, say: x}\n" +
			"- {at: 15m}\n" +
			"- {at: 16m}\n" +
			"- {at: 1m, ask: [who]}\n",
			"web.yaml:5:17: predict[0].ask: Unsupported value: \"how\": supported values: \"who\", \"count\", \"change\"\n" +
				"web.yaml:6:3: predict[1].at: Required value: the simulated time from which the next pass is the one to predict, e.g. at: 30s\n" +
				"web.yaml:7:22: unknown field \"say\" in predict[2]; expected one of at, ask\n" +
				"web.yaml:8:8: predict[3].at: 15m0s is the end of the run: no pass is left to predict\n" +
				"web.yaml:9:8: predict[4].at: 16m0s is after the end of the run at 15m0s (ten minutes past the last step or expect)\n" +
				"web.yaml:10:17: predict[5].ask: invalid type: got \"array\", expected \"string\""},
		{"failure row incomplete", "id: web\nfailure: {trigger: x, symptom: y, cause: z}\n",
			"web.yaml:2:10: failure.response: Required value: a failure row has a trigger, a symptom, a cause and a response"},
		{"bad id", "id: Web App\n",
			`web.yaml:1:5: id: invalid id "Web App": want lower-case letters, digits and '-' (at most 63), e.g. node-dies-at-3am`},
		{"empty file", "# nothing\n",
			"web.yaml:1:1: empty file: want a scenario (id, title, manifests, steps, expect, ...) or Kubernetes manifests"},
		{"two documents", "id: web\n---\nid: other\n",
			"web.yaml:3:1: a scenario file holds one YAML document; this is a second one (put Kubernetes objects in the manifests: block)"},
		{"alias bomb", "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n" +
			"d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n",
			"web.yaml:1:1: too much YAML: with aliases expanded the file holds more than 500000 nodes (MaxYAMLNodes)"},
		{"too many nodes, no alias", "[" + strings.Repeat("1,", 500_001) + "1]\n",
			"web.yaml:1:1: too much YAML: with aliases expanded the file holds more than 500000 nodes (MaxYAMLNodes)"},
		{"too many aliases", "id: web\nx: &x 1\ny: [" + strings.Repeat("*x, ", 100) + "*x]\n",
			"web.yaml:3:405: too many YAML aliases: the limit is 100 aliases per file (MaxAliases)"},
		{"alias containing itself", "a: &a [*a]\n",
			"web.yaml:1:4: a YAML alias refers to a node that contains it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc, err := Load("web.yaml", []byte(tt.text))
			if err == nil {
				t.Fatalf("loaded %+v, want an error", sc)
			}
			if sc != nil {
				t.Errorf("Load returned a scenario with its error")
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
			var list yamlpos.ErrorList
			if !errors.As(err, &list) || len(list) == 0 || list[0].Pos.File != "web.yaml" || list[0].Pos.Line == 0 || list[0].Pos.Col == 0 {
				t.Errorf("error %#v does not name file:line:column", err)
			}
		})
	}
}

func TestLoadLimits(t *testing.T) {
	big := make([]byte, limits.MaxFileSize+1)
	if _, err := Load("big.yaml", big); err == nil || err.Error() != "big.yaml:1:1: file too large: 1048577 bytes; the limit is 1048576 bytes (MaxFileSize, 1 MiB)" {
		t.Errorf("oversize: %v", err)
	}
	var b strings.Builder
	b.WriteString("id: many\nmanifests: |\n")
	for i := 0; i <= limits.MaxObjects; i++ {
		fmt.Fprintf(&b, "  ---\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: c%d}\n", i)
	}
	if _, err := Load("many.yaml", []byte(b.String())); err == nil || !strings.HasSuffix(err.Error(), "too many objects: the limit is 500 objects per file (MaxObjects)") {
		t.Errorf("objects: %v", err)
	}
	b.Reset()
	b.WriteString("id: steps\nsteps:\n")
	for i := 0; i <= limits.MaxSteps; i++ {
		b.WriteString("- {at: 1m, kubectl: get pods}\n")
	}
	if _, err := Load("steps.yaml", []byte(b.String())); err == nil || err.Error() != "steps.yaml:1003:3: steps[1000]: too many steps: the limit is 1000 (MaxSteps)" {
		t.Errorf("steps: %v", err)
	}
	b.Reset()
	b.WriteString("id: nodes\ncluster:\n  nodes:\n")
	for i := 0; i <= limits.MaxNodes; i++ {
		fmt.Fprintf(&b, "  - {name: n%d}\n", i)
	}
	if _, err := Load("nodes.yaml", []byte(b.String())); err == nil || err.Error() != "nodes.yaml:2004:5: cluster.nodes[2000]: too many nodes: the limit is 2000 nodes per cluster (MaxNodes)" {
		t.Errorf("nodes: %v", err)
	}
}

func TestErrorListCapsWhatItPrints(t *testing.T) {
	var b strings.Builder
	b.WriteString("id: web\nsteps:\n")
	for i := 0; i < 25; i++ {
		b.WriteString("- {at: 1m, kubectl: nope}\n")
	}
	_, err := Load("web.yaml", []byte(b.String()))
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != 21 || lines[20] != "... and 5 more problems" {
		t.Errorf("got %d lines, last %q", len(lines), lines[len(lines)-1])
	}
}

func mustFault(t *testing.T, line string) sim.Input {
	t.Helper()
	f, err := sim.ParseFault(line)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestLoadNotesWhatIsNotSimulated: the first object of each kind the engine
// stores but does not simulate gets a note at its line, saying what does
// not happen; simulated kinds get none.
func TestLoadNotesWhatIsNotSimulated(t *testing.T) {
	src := "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n  name: a\n---\n" +
		"apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n  name: b\n---\n" +
		"apiVersion: v1\nkind: LimitRange\nmetadata:\n  name: c\nspec:\n  limits: []\n---\n" +
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: d\n"
	sc, err := Load("web.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"web.yaml:1:1: Note: NetworkPolicy objects are stored, not simulated: no traffic is allowed or denied by them: every pod can reach every pod",
		"web.yaml:18:1: Note: ConfigMap objects are stored, not simulated: the kubelet checks that those a pod names exist, with the keys it names; no container reads their data",
	}
	if !reflect.DeepEqual(sc.Notes, want) {
		t.Errorf("notes:\n got %q\nwant %q", sc.Notes, want)
	}
	if len(sc.Warnings) != 0 {
		t.Errorf("notes are not warnings: %q", sc.Warnings)
	}
}

// TestLoadNotesWhatIsPartlySimulated: a LimitRange's items of a type the
// engine does not enforce, and an autoscaler's metrics beyond the one it
// scales by, get a note at their document; what is simulated gets none.
func TestLoadNotesWhatIsPartlySimulated(t *testing.T) {
	src := "apiVersion: v1\nkind: LimitRange\nmetadata:\n  name: lr\nspec:\n  limits:\n" +
		"  - type: Container\n    max: {cpu: \"1\"}\n  - type: PersistentVolumeClaim\n    max: {storage: 2Gi}\n---\n" +
		"apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: web\nspec:\n" +
		"  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  maxReplicas: 5\n  metrics:\n" +
		"  - type: Resource\n    resource: {name: cpu, target: {type: Utilization, averageUtilization: 60}}\n" +
		"  - type: Resource\n    resource: {name: memory, target: {type: Utilization, averageUtilization: 70}}\n"
	sc, err := Load("web.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"web.yaml:1:1: Note: LimitRange lr: spec.limits[1] of type PersistentVolumeClaim is stored, not enforced: only Container and Pod limits are simulated",
		"web.yaml:12:1: Note: HorizontalPodAutoscaler web: spec.metrics[1] (Resource memory) is stored, not simulated: it scales by the first Resource metric on cpu with a Utilization target only",
	}
	if !reflect.DeepEqual(sc.Notes, want) {
		t.Errorf("notes:\n got %q\nwant %q", sc.Notes, want)
	}
}
