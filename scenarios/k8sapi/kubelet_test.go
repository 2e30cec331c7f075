package k8sapi_test

import (
	"testing"

	"k8s.io/kubectl/pkg/describe"

	"reconcile/engine/api"
	"reconcile/engine/kubectl"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
)

// kubeletWorld is a world of the pod fields the kubelet reads: init
// containers and a sidecar, ConfigMap and Secret references in env,
// envFrom and volumes (one of them missing), startup and gRPC probes, a
// failing init container, hooks.
const kubeletWorld = `id: kubelet-fields
title: kubelet fields
cluster:
  images:
  - {ref: "tools/migrate:1", runs: 5s}
  - {ref: "tools/broken:1", runs: 2s, exitCode: 3}
  - {ref: "shop/slow:1", warmup: 20s}
manifests: |
  apiVersion: v1
  kind: ConfigMap
  metadata:
    name: app-config
  data:
    mode: production
  ---
  apiVersion: v1
  kind: Pod
  metadata:
    name: web
  spec:
    initContainers:
    - name: migrate
      image: tools/migrate:1
      env:
      - name: MODE
        valueFrom:
          configMapKeyRef: {name: app-config, key: mode}
    - name: proxy
      image: proxy/envoy:1
      restartPolicy: Always
      ports:
      - {name: admin, containerPort: 9901}
      readinessProbe:
        tcpSocket: {port: admin}
    containers:
    - name: web
      image: shop/slow:1
      envFrom:
      - configMapRef: {name: app-config}
      - secretRef: {name: db, optional: true}
        prefix: DB_
      env:
      - name: PASSWORD
        valueFrom:
          secretKeyRef: {name: creds, key: password, optional: true}
      volumeMounts:
      - {name: config, mountPath: /etc/web, readOnly: true}
      - {name: scratch, mountPath: /tmp}
      startupProbe:
        httpGet: {path: /healthz, port: 8080}
        periodSeconds: 5
        failureThreshold: 10
      livenessProbe:
        grpc: {port: 9090}
      lifecycle:
        preStop:
          sleep: {seconds: 5}
    volumes:
    - name: config
      configMap: {name: app-config}
    - name: scratch
      emptyDir: {}
  ---
  apiVersion: v1
  kind: Pod
  metadata:
    name: blocked
  spec:
    containers:
    - name: app
      image: shop/app:1
      volumeMounts:
      - {name: certs, mountPath: /certs}
    volumes:
    - name: certs
      secret: {secretName: certs}
  ---
  apiVersion: v1
  kind: Pod
  metadata:
    name: failing
  spec:
    restartPolicy: Never
    initContainers:
    - name: setup
      image: tools/broken:1
    containers:
    - name: app
      image: shop/app:1
  ---
  apiVersion: v1
  kind: Pod
  metadata:
    name: config-error
  spec:
    containers:
    - name: app
      image: shop/app:1
      env:
      - name: KEY
        valueFrom:
          configMapKeyRef: {name: app-config, key: missing}
`

// TestKubeletPodsDescribeAsKubectl describes the pods of kubeletWorld at
// several moments with ours and with kubectl's PodDescriber over the same
// objects: init containers, sidecars, env sources, mounts, volumes,
// startup and gRPC probes, waiting and terminated states, byte for byte.
func TestKubeletPodsDescribeAsKubectl(t *testing.T) {
	sc, err := scenario.Load("kubelet.yaml", []byte(kubeletWorld))
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.New(sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	described := 0
	for _, at := range []api.Time{2 * api.Second, 6 * api.Second, 15 * api.Second, 45 * api.Second} {
		s.RunUntil(at, 0)
		st := s.Store()
		c := clientset(t, st)
		for _, o := range st.List("Pod") {
			meta := o.Meta()
			want, err := (&describe.PodDescriber{Interface: c}).Describe(meta.Namespace, meta.Name, describe.DescriberSettings{ShowEvents: false, ChunkSize: 500})
			if err != nil {
				t.Fatalf("kubectl's describer: %v", err)
			}
			line := "describe pod " + meta.Name + " -n " + meta.Namespace + " --show-events=false"
			got, code := kubectl.Run(st, s.Now(), line)
			if code != 0 {
				t.Fatalf("kubectl %s: exit %d: %s", line, code, got)
			}
			if normalizeDescribe(got) != normalizeDescribe(want) {
				t.Errorf("at %s: kubectl %s:\n--- ours\n%s--- kubectl's describer\n%s", s.Now(), line, got, want)
			}
			described++
		}
	}
	if described != 16 {
		t.Errorf("%d pods described, want 4 pods at 4 moments", described)
	}
}
