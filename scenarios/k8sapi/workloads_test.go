package k8sapi_test

import (
	"encoding/json"
	"reflect"
	"testing"
	"unsafe"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/kubectl/pkg/describe"

	"reconcile/engine/api"
	"reconcile/engine/kubectl"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
)

const workloads = `id: workloads
title: workloads
summary: a DaemonSet, a StatefulSet with claims, a CronJob
manifests: |
  apiVersion: apps/v1
  kind: DaemonSet
  metadata: {name: agent, labels: {tier: node}}
  spec:
    selector: {matchLabels: {app: agent}}
    template:
      metadata: {labels: {app: agent}}
      spec:
        nodeSelector: {kubernetes.io/os: linux}
        containers:
        - name: agent
          image: "agent:1"
          resources: {requests: {cpu: 50m, memory: 64Mi}}
  ---
  apiVersion: apps/v1
  kind: StatefulSet
  metadata: {name: db}
  spec:
    replicas: 2
    serviceName: db
    selector: {matchLabels: {app: db}}
    template:
      metadata: {labels: {app: db}}
      spec:
        containers:
        - name: db
          image: "db:1"
          ports: [{containerPort: 5432, name: pg}]
          volumeMounts: [{name: data, mountPath: /var/lib/db}]
    volumeClaimTemplates:
    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 2Gi}}}
  ---
  apiVersion: batch/v1
  kind: CronJob
  metadata: {name: tick}
  spec:
    schedule: "*/2 * * * *"
    startingDeadlineSeconds: 60
    jobTemplate:
      spec:
        template:
          spec:
            containers: [{name: tick, image: "tick:1", command: [date]}]
            restartPolicy: Never
`

// TestDescribeWorkloadsAgreesWithKubectl describes the DaemonSets,
// StatefulSets, CronJobs, claims and volumes of a world with ours and with
// kubectl's own describers over a fake API server holding the same
// objects.
func TestDescribeWorkloadsAgreesWithKubectl(t *testing.T) {
	sc, err := scenario.Load("workloads.yaml", []byte(workloads))
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.New(sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	s.RunUntil(2*api.Minute+30*api.Second, 0)
	st := s.Store()
	kinds := map[string]func() runtime.Object{
		"DaemonSet": func() runtime.Object { return &appsv1.DaemonSet{} }, "StatefulSet": func() runtime.Object { return &appsv1.StatefulSet{} },
		"CronJob": func() runtime.Object { return &batchv1.CronJob{} }, "Job": func() runtime.Object { return &batchv1.Job{} },
		"PersistentVolumeClaim": func() runtime.Object { return &corev1.PersistentVolumeClaim{} },
		"PersistentVolume":      func() runtime.Object { return &corev1.PersistentVolume{} },
		"Pod":                   func() runtime.Object { return &corev1.Pod{} }, "Node": func() runtime.Object { return &corev1.Node{} },
	}
	var objs []runtime.Object
	for _, kind := range []string{"DaemonSet", "StatefulSet", "CronJob", "Job", "PersistentVolumeClaim", "PersistentVolume", "Pod", "Node"} {
		for _, o := range st.List(kind) {
			if typed(kind) != nil { // the conversions the other tests use (a pod's podIPs)
				objs = append(objs, toK8s(t, o))
				continue
			}
			out := kinds[kind]()
			b, _ := json.Marshal(o)
			if err := json.Unmarshal(b, out); err != nil {
				t.Fatalf("%s %s: %v", kind, o.Meta().Name, err)
			}
			objs = append(objs, out)
		}
	}
	c := fake.NewSimpleClientset(objs...)
	withClient := func(d any) describe.ResourceDescriber {
		f := reflect.ValueOf(d).Elem().FieldByName("client")
		reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Set(reflect.ValueOf(c))
		return d.(describe.ResourceDescriber)
	}
	describers := map[string]describe.ResourceDescriber{
		"DaemonSet":             &describe.DaemonSetDescriber{Interface: c},
		"StatefulSet":           withClient(&describe.StatefulSetDescriber{}),
		"CronJob":               withClient(&describe.CronJobDescriber{}),
		"PersistentVolumeClaim": &describe.PersistentVolumeClaimDescriber{Interface: c},
		"PersistentVolume":      &describe.PersistentVolumeDescriber{Interface: c},
		"Pod":                   &describe.PodDescriber{Interface: c},
	}
	described := 0
	for _, kind := range []string{"DaemonSet", "StatefulSet", "CronJob", "PersistentVolumeClaim", "PersistentVolume", "Pod"} {
		for _, o := range st.List(kind) {
			m := o.Meta()
			want, err := describers[kind].Describe(m.Namespace, m.Name, describe.DescriberSettings{ShowEvents: false, ChunkSize: 500})
			if err != nil {
				t.Fatalf("%s: kubectl's describer: %v", kind, err)
			}
			line := "describe " + kind + " " + m.Name + " --show-events=false"
			got, code := kubectl.Run(st, s.Now(), line)
			if code != 0 {
				t.Fatalf("kubectl %s: exit %d: %s", line, code, got)
			}
			if normalizeDescribe(got) != normalizeDescribe(want) {
				t.Errorf("kubectl %s:\n--- ours\n%s--- kubectl's describer\n%s", line, got, want)
			}
			described++
		}
	}
	if described < 13 {
		t.Errorf("only %d objects described", described)
	}
}
