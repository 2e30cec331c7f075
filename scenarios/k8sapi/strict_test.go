package k8sapi_test

import (
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	kjson "k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/client-go/kubernetes/scheme"

	"reconcile/engine/manifest"
	"reconcile/engine/yamlpos"
)

// strictCorpus is a corpus of manifests, valid ones and ones with the
// mistakes people make, each decoded by Kubernetes' own strict decoder
// (the API server's, with fieldValidation=Strict) and by ours.
var strictCorpus = []struct{ name, text string }{
	{"deployment", `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, labels: {app: web}}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx:1.25
        ports: [{containerPort: 80}]
        resources: {requests: {cpu: 100m}, limits: {memory: 128Mi}}
        readinessProbe: {httpGet: {path: /, port: 80}}
`},
	{"deployment typo replica", `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replica: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx}]
`},
	{"container typos", `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx
        port: 80
        imagePullPolicey: Always
`},
	{"template metadta", `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadta: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx}]
`},
	{"resources indented wrong", `apiVersion: v1
kind: Pod
metadata: {name: redis}
spec:
  containers:
  - name: redis
    image: redis:7
    resources:
    requests: {cpu: 50m}
`},
	{"metadata labelz", `apiVersion: v1
kind: Pod
metadata: {name: p, labelz: {a: b}}
spec:
  containers: [{name: app, image: nginx}]
`},
	{"pod with newer fields", `apiVersion: v1
kind: Pod
metadata: {name: app}
spec:
  dnsPolicy: ClusterFirst
  dnsConfig: {options: [{name: ndots, value: "2"}]}
  schedulingGates: [{name: example.com/gate}]
  serviceAccountName: app
  topologySpreadConstraints:
  - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: app}}}
  affinity:
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - labelSelector: {matchExpressions: [{key: app, operator: In, values: [app]}]}
        topologyKey: kubernetes.io/hostname
      preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 50
        podAffinityTerm: {labelSelector: {matchLabels: {app: db}}, topologyKey: kubernetes.io/hostname}
  volumes:
  - {name: config, configMap: {name: app-config, items: [{key: a, path: a.txt}]}}
  - {name: creds, secret: {secretName: app-creds}}
  - {name: cache, emptyDir: {}}
  initContainers:
  - name: migrate
    image: shop/migrate:1.0
    envFrom: [{configMapRef: {name: app-config}}, {secretRef: {name: app-creds}, prefix: DB_}]
  containers:
  - name: app
    image: shop/app:1.0
    env:
    - {name: A, value: "1"}
    - name: POD
      valueFrom: {fieldRef: {fieldPath: metadata.name}}
    - name: KEY
      valueFrom: {configMapKeyRef: {name: app-config, key: k}}
    volumeMounts: [{name: config, mountPath: /etc/app, readOnly: true}]
    lifecycle: {preStop: {exec: {command: [sleep, "5"]}}}
    startupProbe: {grpc: {port: 9090}, failureThreshold: 30}
    livenessProbe: {grpc: {port: 9090, service: health}}
`},
	{"pod anti-affinity typo", `apiVersion: v1
kind: Pod
metadata: {name: app}
spec:
  affinity:
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - labelSelector: {matchLabels: {app: app}}
        topologykey: kubernetes.io/hostname
  containers: [{name: app, image: nginx}]
`},
	{"spread and gate typos", `apiVersion: v1
kind: Pod
metadata: {name: app}
spec:
  schedulingGates: [{gate: example.com/gate}]
  topologySpreadConstraints:
  - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, selector: {matchLabels: {app: app}}}
  containers: [{name: app, image: nginx}]
`},
	{"volume typos", `apiVersion: v1
kind: Pod
metadata: {name: app}
spec:
  volumes: [{name: config, configmap: {name: c}}]
  containers:
  - name: app
    image: nginx
    volumeMount: [{name: config, mountPath: /etc}]
    envFrom: [{configMapRef: {name: c, optinal: true}}]
`},
	{"probe typo", `apiVersion: v1
kind: Pod
metadata: {name: app}
spec:
  containers:
  - name: app
    image: nginx
    livenessProbe: {grpc: {prot: 9090}}
`},
	{"job", `apiVersion: batch/v1
kind: Job
metadata: {name: shards}
spec:
  completions: 3
  completionMode: Indexed
  backoffLimit: 2
  podFailurePolicy:
    rules:
    - action: FailJob
      onExitCodes: {operator: In, values: [42]}
  template:
    spec:
      restartPolicy: Never
      containers: [{name: shard, image: busybox}]
`},
	{"job typo", `apiVersion: batch/v1
kind: Job
metadata: {name: once}
spec:
  backofLimit: 2
  template:
    spec:
      restartPolicy: Never
      containers: [{name: once, image: busybox}]
`},
	{"statefulset template typo", `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers:
      - {name: db, image: postgres:16, volumeMount: [{name: data, mountPath: /data}]}
`},
	{"cronjob template typo", `apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly}
spec:
  schedule: "0 3 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers: [{name: job, image: busybox, comand: [date]}]
`},
	{"configmap", `apiVersion: v1
kind: ConfigMap
metadata: {name: settings}
data: {mode: fast}
`},
	{"configmap with spec", `apiVersion: v1
kind: ConfigMap
metadata: {name: settings}
spec: {mode: fast}
`},
	{"secret", `apiVersion: v1
kind: Secret
metadata: {name: creds}
type: Opaque
stringData: {password: s3cret}
`},
	{"secret typo", `apiVersion: v1
kind: Secret
metadata: {name: creds}
stringdata: {password: s3cret}
`},
	{"node", `apiVersion: v1
kind: Node
metadata: {name: worker-9, labels: {disk: ssd}}
spec:
  taints: [{key: k, value: v, effect: NoSchedule}]
`},
	{"misspelt kind", `apiVersion: apps/v1
kind: Deploymnet
metadata: {name: web}
`},
	{"removed version", `apiVersion: batch/v1beta1
kind: CronJob
metadata: {name: nightly}
`},
}

// removedVersions are the corpus entries of a version client-go still
// decodes but a v1.34 API server no longer serves (batch/v1beta1 CronJob
// went in 1.25): there the oracle is the list of served versions, and ours
// must refuse them as kubectl does.
var removedVersions = map[string]bool{"removed version": true}

var unknownFieldRE = regexp.MustCompile(`unknown field "([^"]*)"`)

// k8sStrict decodes text with the API server's strict decoder: the unknown
// fields it names, or an error for anything else it refuses.
func k8sStrict(text string) (unknown []string, err error) {
	ser := kjson.NewSerializerWithOptions(kjson.DefaultMetaFactory, scheme.Scheme, scheme.Scheme,
		kjson.SerializerOptions{Yaml: true, Strict: true})
	_, _, err = ser.Decode([]byte(text), nil, nil)
	if strict, ok := runtime.AsStrictDecodingError(err); ok {
		for _, e := range strict.Errors() {
			if m := unknownFieldRE.FindStringSubmatch(e.Error()); m != nil {
				unknown = append(unknown, m[1])
			}
		}
		return unknown, nil
	}
	return nil, err
}

// oursStrict decodes text with the manifest decoder: the unknown fields of
// its strict decoding error, or its error for anything else.
func oursStrict(text string) (unknown []string, err error) {
	_, err = manifest.DecodeText(text, yamlpos.File("c.yaml"), yamlpos.NewBudget())
	if err == nil {
		return nil, nil
	}
	if strings.Contains(err.Error(), "strict decoding error") {
		for _, m := range unknownFieldRE.FindAllStringSubmatch(err.Error(), -1) {
			unknown = append(unknown, m[1])
		}
		return unknown, nil
	}
	return nil, err
}

// TestStrictDecodingAgreesWithKubernetes requires the manifest decoder to
// accept what Kubernetes' strict decoding accepts and to refuse what it
// refuses, naming the same unknown fields.
func TestStrictDecodingAgreesWithKubernetes(t *testing.T) {
	refused := 0
	for _, c := range strictCorpus {
		t.Run(c.name, func(t *testing.T) {
			want, kerr := k8sStrict(c.text)
			got, oerr := oursStrict(c.text)
			sort.Strings(want)
			sort.Strings(got)
			if removedVersions[c.name] {
				if kerr != nil || oerr == nil || !strings.Contains(oerr.Error(), "no matches for kind") {
					t.Fatalf("a removed version: Kubernetes' types %v, ours %v", kerr, oerr)
				}
				refused++
				return
			}
			switch {
			case (kerr == nil) != (oerr == nil):
				t.Fatalf("Kubernetes: %v\nours: %v", kerr, oerr)
			case kerr != nil:
				// Refused for another reason than a field: an unknown kind
				// or version on both sides.
				if !runtime.IsNotRegisteredError(kerr) || !strings.Contains(oerr.Error(), "no matches for kind") {
					t.Fatalf("Kubernetes: %v\nours: %v", kerr, oerr)
				}
				refused++
			case !slices.Equal(got, want):
				t.Fatalf("unknown fields: Kubernetes %q, ours %q", want, got)
			case len(want) > 0:
				refused++
			}
		})
	}
	if refused == 0 || refused == len(strictCorpus) {
		t.Fatalf("the corpus should hold both valid and refused manifests; %d of %d refused", refused, len(strictCorpus))
	}
}
