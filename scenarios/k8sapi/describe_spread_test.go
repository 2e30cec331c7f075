package k8sapi_test

import (
	"strings"
	"testing"

	"k8s.io/kubectl/pkg/describe"

	"reconcile/engine/api"
	"reconcile/engine/kubectl"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
)

// TestDescribeTemplateFieldsAgreeWithKubectl: what no lesson's template
// holds — topology spread constraints, a service account, init
// containers, a priority class — is described as kubectl's describer
// describes it, in the Deployment's and the ReplicaSet's pod template and
// in the pods.
func TestDescribeTemplateFieldsAgreeWithKubectl(t *testing.T) {
	sc, err := scenario.Load("spread.yaml", []byte(`id: spread
title: spread
cluster:
  nodes:
  - {name: worker-1, labels: {topology.kubernetes.io/zone: a}}
  - {name: worker-2, labels: {topology.kubernetes.io/zone: b}}
  images:
  - {ref: "shop/web:1.0", pull: 1s, start: 1s}
  - {ref: "shop/init:1.0", pull: 1s, start: 1s, stops: 1s}
manifests: |
  apiVersion: v1
  kind: ServiceAccount
  metadata:
    name: web
  ---
  apiVersion: scheduling.k8s.io/v1
  kind: PriorityClass
  metadata:
    name: high
  value: 1000
  ---
  apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: web
  spec:
    replicas: 2
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec:
        serviceAccountName: web
        priorityClassName: high
        topologySpreadConstraints:
        - maxSkew: 1
          topologyKey: topology.kubernetes.io/zone
          whenUnsatisfiable: DoNotSchedule
          labelSelector: {matchLabels: {app: web}}
        - maxSkew: 2
          topologyKey: kubernetes.io/hostname
          whenUnsatisfiable: ScheduleAnyway
          labelSelector:
            matchExpressions:
            - {key: app, operator: In, values: [web, api]}
            - {key: canary, operator: DoesNotExist}
        initContainers:
        - name: init
          image: shop/init:1.0
        containers:
        - name: web
          image: shop/web:1.0
`))
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.New(sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	s.RunUntil(30*api.Second, 0)
	st := s.Store()
	c := clientset(t, st)
	described := 0
	for _, kind := range []string{"Deployment", "ReplicaSet", "Pod"} {
		for _, o := range st.List(kind) {
			meta := o.Meta()
			want, err := describer(kind, c).Describe(meta.Namespace, meta.Name, describe.DescriberSettings{ShowEvents: false, ChunkSize: 500})
			if err != nil {
				t.Fatalf("%s: kubectl's describer: %v", kind, err)
			}
			line := "describe " + kind + " " + meta.Name + " --show-events=false -n " + meta.Namespace
			got, code := kubectl.Run(st, s.Now(), line)
			if code != 0 {
				t.Fatalf("kubectl %s: exit %d: %s", line, code, got)
			}
			if normalizeDescribe(got) != normalizeDescribe(want) {
				t.Errorf("kubectl %s:\n--- ours\n%s--- kubectl's describer\n%s", line, got, want)
			}
			if !strings.Contains(got, "Topology Spread Constraints:") || (kind != "Pod" && !strings.Contains(got, "Priority Class Name:")) {
				t.Errorf("kubectl %s prints no topology spread constraints:\n%s", line, got)
			}
			described++
		}
	}
	if described < 4 {
		t.Fatalf("described %d objects, want the Deployment, its ReplicaSet and two pods", described)
	}
}
