package manifest

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/yamlpos"
)

func TestDecodeKinds(t *testing.T) {
	text := `apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: web-abc, namespace: shop}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: shop/web:1.0
        ports: [{containerPort: 8080}]
        resources: {requests: {cpu: 1, memory: 1.5Gi}}
        readinessProbe: {httpGet: {path: /healthz, port: 8080}, periodSeconds: 5}
      tolerations: [{key: gpu, operator: Exists, effect: NoSchedule, tolerationSeconds: 30}]
---
---
apiVersion: v1
kind: Node
metadata: {name: worker-9, namespace: ignored-later}
spec:
  unschedulable: true
  taints: [{key: k, value: v, effect: NoExecute}]
status:
  capacity: {cpu: 8, memory: 32Gi}
---
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: settings}
  data: {mode: fast, retries: "3"}
- apiVersion: networking.k8s.io/v1
  kind: Ingress
  metadata: {name: web}
  spec: {rules: [{host: shop.example}]}
  status: {loadBalancer: {}}
`
	ms, err := Decode("m.yaml", text, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range ms {
		got = append(got, fmt.Sprintf("%s %T %s/%s", m.Pos, m.Object, m.Object.GetTypeMeta().Kind, api.RefOf(m.Object).Key()))
	}
	want := []string{
		"m.yaml:1:1 *api.ReplicaSet ReplicaSet/shop/web-abc",
		"m.yaml:19:1 *api.Node Node/ignored-later/worker-9",
		"m.yaml:31:3 *api.Unstructured ConfigMap/default/settings",
		"m.yaml:35:3 *api.Unstructured Ingress/default/web",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	rs := ms[0].Object.(*api.ReplicaSet)
	c := rs.Spec.Template.Spec.Containers[0]
	if *rs.Spec.Replicas != 2 || c.Ports[0].ContainerPort != 8080 || c.Resources.Requests["cpu"] != "1" ||
		c.Resources.Requests["memory"] != "1.5Gi" || c.ReadinessProbe.PeriodSeconds != 5 || c.ReadinessProbe.HTTPGet["path"] != "/healthz" ||
		*rs.Spec.Template.Spec.Tolerations[0].TolerationSeconds != 30 {
		t.Errorf("replicaset: %+v", rs.Spec)
	}
	node := ms[1].Object.(*api.Node)
	if !node.Spec.Unschedulable || node.Spec.Taints[0].Value != "v" || node.Status.Capacity["memory"] != "32Gi" {
		t.Errorf("node: %+v", node)
	}
	cm := ms[2].Object.(*api.Unstructured)
	if cm.Data["mode"] != "fast" || cm.Data["retries"] != "3" {
		t.Errorf("configmap data: %#v", cm.Data)
	}
	for _, m := range ms {
		if len(m.Warnings) != 0 {
			t.Errorf("%s: warnings %q", m.Pos, m.Warnings)
		}
	}
}

func TestDecodePositionsInABlock(t *testing.T) {
	// The block starts at line 10, column 5 of an outer file.
	text := "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: app\n    image: nginx\n    imagePullPolicy: true\n"
	_, err := Decode("outer.yaml", text, 10, 5)
	want := `outer.yaml:18:26: Pod.spec.containers[0].imagePullPolicy: invalid type: got "boolean", expected "string"`
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

func TestDecodeIntOrString(t *testing.T) {
	text := "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  strategy:\n    rollingUpdate: {maxSurge: 2, maxUnavailable: 10%}\n"
	ms, err := Decode("d.yaml", text, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	ru := ms[0].Object.(*api.Deployment).Spec.Strategy.RollingUpdate
	if *ru.MaxSurge != api.FromInt(2) || *ru.MaxUnavailable != api.FromString("10%") {
		t.Errorf("rollingUpdate: %+v %+v", ru.MaxSurge, ru.MaxUnavailable)
	}
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct{ name, text, want string }{
		{"scalar document", "just text\n",
			`x.yaml:1:1: want a Kubernetes object (a mapping with apiVersion, kind and metadata), got a string`},
		{"list document", "- a\n- b\n",
			`x.yaml:1:1: want a Kubernetes object (a mapping with apiVersion, kind and metadata), got an array`},
		{"no kind", "apiVersion: v1\nmetadata: {name: x}\n",
			`x.yaml:1:1: Object 'Kind' is missing in '{"apiVersion":"v1","metadata":{"name":"x"}}'`},
		{"kind not a string", "apiVersion: v1\nkind: [Pod]\n",
			`x.yaml:2:7: kind: invalid type: got "array", expected "string"`},
		{"pod in apps/v1", "apiVersion: apps/v1\nkind: Pod\nmetadata: {name: x}\n",
			"x.yaml:1:13: resource mapping not found for name: \"x\" namespace: \"\" from \"x.yaml\": no matches for kind \"Pod\" in version \"apps/v1\"\nensure CRDs are installed first"},
		{"kind misspelt", "apiVersion: apps/v1\nkind: Deploymnet\nmetadata: {name: web, namespace: shop}\n",
			"x.yaml:2:7: resource mapping not found for name: \"web\" namespace: \"shop\" from \"x.yaml\": no matches for kind \"Deploymnet\" in version \"apps/v1\"\nensure CRDs are installed first"},
		{"removed version", "apiVersion: batch/v1beta1\nkind: CronJob\nmetadata: {name: nightly}\n",
			"x.yaml:1:13: resource mapping not found for name: \"nightly\" namespace: \"\" from \"x.yaml\": no matches for kind \"CronJob\" in version \"batch/v1beta1\"\nensure CRDs are installed first"},
		{"custom resource", "apiVersion: cert-manager.io/v1\nkind: Certificate\nmetadata: {name: tls}\n",
			"x.yaml:2:7: resource mapping not found for name: \"tls\" namespace: \"\" from \"x.yaml\": no matches for kind \"Certificate\" in version \"cert-manager.io/v1\"\nensure CRDs are installed first"},
		{"unknown fields", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replica: 3\n  template:\n    spec:\n      containers:\n      - {name: web, image: nginx, imagePullPolicy: Always, port: 80}\n",
			"x.yaml:5:3: Error from server (BadRequest): error when creating \"x.yaml\": Deployment in version \"v1\" cannot be handled as a Deployment: strict decoding error: unknown field \"spec.replica\", unknown field \"spec.template.spec.containers[0].port\""},
		{"unknown field of a stored kind", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\nspec: {a: b}\n",
			"x.yaml:4:1: Error from server (BadRequest): error when creating \"x.yaml\": ConfigMap in version \"v1\" cannot be handled as a ConfigMap: strict decoding error: unknown field \"spec\""},
		{"unknown field in a stored workload's template", "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n  template:\n    spec:\n      containers: [{name: db, image: pg, volumeMount: []}]\n",
			"x.yaml:7:42: Error from server (BadRequest): error when creating \"x.yaml\": StatefulSet in version \"v1\" cannot be handled as a StatefulSet: strict decoding error: unknown field \"spec.template.spec.containers[0].volumeMount\""},
		{"wrong types", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  labels: [app]\nspec:\n  replicas: 3.5\n  paused: \"yes\"\n  template:\n    spec:\n      containers: {name: web}\n",
			"x.yaml:5:11: Deployment.metadata.labels: invalid type: got \"array\", expected \"object\"\n" +
				"x.yaml:7:13: Deployment.spec.replicas: invalid type: got \"number\", expected \"integer\"\n" +
				"x.yaml:8:11: Deployment.spec.paused: invalid type: got \"string\", expected \"boolean\"\n" +
				"x.yaml:11:19: Deployment.spec.template.spec.containers: invalid type: got \"object\", expected \"array\""},
		{"out of range", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 4294967296\n",
			"x.yaml:5:13: Deployment.spec.replicas: invalid value: 4294967296 is out of range for an int32"},
		{"maxSurge as a list", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  strategy: {rollingUpdate: {maxSurge: [1]}}\n",
			`x.yaml:5:40: Deployment.spec.strategy.rollingUpdate.maxSurge: invalid type: got "array", expected "integer or string"`},
		{"nested list", "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: List}\n",
			"x.yaml:4:3: a List may not hold another List"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ms, err := Decode("x.yaml", tt.text, 1, 1)
			if err == nil {
				t.Fatalf("decoded %+v, want an error", ms)
			}
			if ms != nil {
				t.Errorf("Decode returned manifests with its error")
			}
			if err.Error() != tt.want {
				t.Errorf("got\n%s\nwant\n%s", err, tt.want)
			}
		})
	}
}

func TestDecodeMergeKeys(t *testing.T) {
	text := "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - &base {name: a, image: nginx, imagePullPolicy: Never}\n  - {<<: *base, name: b}\n"
	ms, err := Decode("p.yaml", text, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	cs := ms[0].Object.(*api.Pod).Spec.Containers
	if len(cs) != 2 || cs[1].Name != "b" || cs[1].Image != "nginx" || cs[1].ImagePullPolicy != "Never" {
		t.Errorf("containers: %+v", cs)
	}
}

func ExampleDecode() {
	text := `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicass: 3
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: shop/web:1.0
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  ports: [{port: 80}]
`
	_, err := Decode("web.yaml", text, 1, 1)
	fmt.Println(err)
	ds, err := DecodeTextAs(text, yamlpos.File("web.yaml"), yamlpos.NewBudget(), Warn)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, d := range ds {
		fmt.Printf("%s %T %s\n", d.Pos, d.Object, api.RefOf(d.Object).Key())
		for _, w := range d.Warnings {
			fmt.Println(w)
		}
	}
	_, err = Decode("web.yaml", strings.Replace(text, "replicass: 3", "replicas: three", 1), 1, 1)
	fmt.Println(err)
	// Output:
	// web.yaml:6:3: Error from server (BadRequest): error when creating "web.yaml": Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replicass"
	// web.yaml:1:1 *api.Deployment default/web
	// web.yaml:6:3: Warning: unknown field "spec.replicass"
	// web.yaml:17:1 *api.Service default/web
	// web.yaml:6:13: Deployment.spec.replicas: invalid type: got "string", expected "integer"
}

func TestStoredKindKeepsItsFields(t *testing.T) {
	text := "apiVersion: v1\nkind: Secret\nmetadata: {name: creds}\ntype: Opaque\nstringData: {password: s3cret}\n"
	ms, err := Decode("s.yaml", text, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(ms[0].Object)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"apiVersion":"v1","kind":"Secret","metadata":{"creationTimestamp":"2026-01-01T09:00:00Z","name":"creds","namespace":"default"},"stringData":{"password":"s3cret"},"type":"Opaque"}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
	if c := ms[0].Object.DeepCopyObject().(*api.Unstructured); c.Fields["type"] != "Opaque" {
		t.Errorf("DeepCopy lost the fields: %+v", c.Fields)
	}
}

// A ConfigMap's data values are strings, as the API server decodes them:
// a list there (the door to nesting as deep as MaxDepth) is refused with
// its words, at the value.
func TestConfigMapDataIsStrings(t *testing.T) {
	for _, c := range []struct{ value, want string }{
		{`[1, 2]`, `f.yaml:5:6: ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal array into Go struct field ConfigMap.data of type string`},
		{`{a: b}`, `cannot unmarshal object into Go struct field ConfigMap.data`},
		{`3`, `cannot unmarshal number into Go struct field ConfigMap.data`},
		{`true`, `cannot unmarshal bool into Go struct field ConfigMap.data`},
	} {
		_, err := Decode("f.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  k: "+c.value+"\n", 1, 1)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("data.k %s: err = %v, want %q", c.value, err, c.want)
		}
	}
	if _, err := Decode("f.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  k: \"3\"\n  e:\n", 1, 1); err != nil {
		t.Errorf("strings and null: %v", err)
	}
}
