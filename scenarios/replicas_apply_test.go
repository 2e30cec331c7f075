package scenarios_test

import (
	"encoding/json"
	"strings"
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
	"reconcile/scenarios"
)

// rich is a lesson of Deployments whose templates hold what a free-form or
// defaulted field can hold: every probe handler, lifecycle hooks,
// resources, env, volumes, init containers, a security context, ports.
// /play's own Deployment is the first.
const rich = `id: rich
title: rich
summary: templates with every kind of field
seed: 3
cluster:
  nodes:
  - {name: worker-1, cpu: "16", memory: 32Gi}
  - {name: worker-2, cpu: "16", memory: 32Gi}
  images:
  - {ref: "shop/web:1.0"}
  - {ref: "busybox:1.36"}
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
          readinessProbe: {httpGet: {path: /healthz, port: 8080}}
  ---
  apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: probes
    labels: {tier: front}
  spec:
    replicas: 2
    selector:
      matchLabels: {app: probes}
    template:
      metadata:
        labels: {app: probes}
        annotations: {note: "one"}
      spec:
        securityContext: {runAsUser: 1000, fsGroup: 2000}
        initContainers:
        - name: wait
          image: busybox:1.36
          command: [sh, -c, "true"]
          resources: {requests: {cpu: 10m}}
        containers:
        - name: web
          image: shop/web:1.0
          ports:
          - {name: http, containerPort: 8080}
          - {containerPort: 9090, protocol: TCP}
          readinessProbe:
            httpGet: {path: /ready, port: http, scheme: HTTP, httpHeaders: [{name: X-Probe, value: "1"}]}
            initialDelaySeconds: 2
          livenessProbe:
            tcpSocket: {port: 8080}
            periodSeconds: 5
          startupProbe:
            exec: {command: [cat, /tmp/ok]}
            failureThreshold: 30
          resources:
            requests: {cpu: 250m, memory: 64Mi}
            limits: {cpu: "1", memory: 128Mi}
          env:
          - {name: MODE, value: fast}
          - name: POD
            valueFrom: {fieldRef: {fieldPath: metadata.name}}
          volumeMounts:
          - {name: scratch, mountPath: /tmp}
          - {name: host, mountPath: /host, readOnly: true}
          lifecycle:
            preStop: {httpGet: {path: /stop, port: 8080}}
          securityContext: {runAsNonRoot: true, runAsUser: 1000}
        - name: grpc
          image: shop/web:1.0
          readinessProbe:
            grpc: {port: 9090}
          livenessProbe:
            grpc: {port: 9090, service: health}
        volumes:
        - {name: scratch, emptyDir: {sizeLimit: 64Mi}}
        - {name: host, hostPath: {path: /var/log, type: Directory}}
        tolerations:
        - {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 30}
        nodeSelector: {kubernetes.io/os: linux}
        terminationGracePeriodSeconds: 10
`

// TestReapplyReplicasOnlyScales: re-applying a lesson's manifests with only
// the Deployments' replicas changed scales them, as Kubernetes does: the
// template is the same, so its pod-template-hash is the same, no
// ReplicaSet is created and no pod is replaced or changed. Every bundled
// lesson is tried (its manifests, none of its steps), and a lesson of
// templates with every probe handler, resources, env, volumes and init
// containers.
func TestReapplyReplicasOnlyScales(t *testing.T) {
	lessons := map[string]*scenario.Scenario{}
	ids := scenarios.IDs()
	for _, id := range ids {
		sc, err := scenarios.Load(id)
		if err != nil {
			t.Fatal(err)
		}
		lessons[id] = sc
	}
	sc, err := scenario.Load("rich.yaml", []byte(rich))
	if err != nil {
		t.Fatal(err)
	}
	lessons["rich"], ids = sc, append(ids, "rich")
	for _, id := range ids {
		t.Run(id, func(t *testing.T) {
			sc := lessons[id]
			var docs []string
			deployments := 0
			for _, m := range sc.Manifests {
				cfg := clone(t, m.Config)
				if m.Object.GetTypeMeta().Kind == "Deployment" {
					spec, _ := cfg["spec"].(map[string]any)
					if spec == nil {
						spec = map[string]any{}
						cfg["spec"] = spec
					}
					r, ok := spec["replicas"].(float64)
					if !ok {
						r = 1
					}
					spec["replicas"] = r + 2
					deployments++
				}
				b, err := json.Marshal(cfg)
				if err != nil {
					t.Fatal(err)
				}
				docs = append(docs, string(b))
			}
			if deployments == 0 {
				t.Skip("no Deployment")
			}
			cfg := sc.Config()
			cfg.Steps = nil
			otherWriter := cfg.GitOps != nil
			for _, m := range sc.Manifests {
				otherWriter = otherWriter || m.Object.GetTypeMeta().Kind == "HorizontalPodAutoscaler"
			}
			s, err := sim.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			s.RunUntil(2*api.Minute, 0)
			rsBefore, podsBefore := owned(s)
			if len(rsBefore) == 0 || len(podsBefore) == 0 {
				t.Fatalf("%d ReplicaSets, %d pods after 2m", len(rsBefore), len(podsBefore))
			}
			out, err := s.Inject(sim.Apply{Manifests: strings.Join(docs, "\n---\n")})
			if err != nil || out.ExitCode != 0 {
				t.Fatalf("apply: %v %q", err, out.Output)
			}
			s.RunUntil(4*api.Minute, 0)
			rsAfter, podsAfter := owned(s)
			for name := range rsAfter {
				if _, ok := rsBefore[name]; !ok {
					t.Errorf("a replicas-only apply created ReplicaSet %s", name)
				}
			}
			for name, before := range podsBefore {
				after, ok := podsAfter[name]
				switch {
				case !ok && otherWriter:
					// Another loop of the lesson (an autoscaler, a GitOps
					// sync) writes the replicas too: its scale-down, not a
					// replacement (no ReplicaSet was created).
				case !ok:
					t.Errorf("a replicas-only apply deleted pod %s", name)
				case after != before:
					t.Errorf("a replicas-only apply changed pod %s:\n%s\n%s", name, before, after)
				}
			}
			for _, p := range s.Store().List("Pod") {
				if p.Meta().DeletionTimestamp != nil && podsBefore[p.Meta().Name] != "" && !otherWriter {
					t.Errorf("a replicas-only apply is deleting pod %s", p.Meta().Name)
				}
			}
		})
	}
}

// owned returns the ReplicaSets Deployments own, by name, and their pods
// by name with their uid, spec and deletion.
func owned(s *sim.Sim) (map[string]bool, map[string]string) {
	rss, pods := map[string]bool{}, map[string]string{}
	for _, o := range s.Store().List("ReplicaSet") {
		if ref := o.Meta().ControllerOf(); ref != nil && ref.Kind == "Deployment" {
			rss[o.Meta().Name] = true
		}
	}
	for _, o := range s.Store().List("Pod") {
		p := o.(*api.Pod)
		if ref := p.ControllerOf(); ref == nil || !rss[ref.Name] {
			continue
		}
		b, _ := json.Marshal(p.Spec)
		pods[p.Name] = p.UID + " " + string(b)
	}
	return rss, pods
}

func clone(t *testing.T, m map[string]any) map[string]any {
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}
