package k8sapi_test

import (
	"encoding/json"
	"testing"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"reconcile/engine/api"
	"reconcile/engine/sim"
	"reconcile/engine/store"
	"reconcile/scenarios"
)

// moment is the simulated world of a bundled lesson at one time.
type moment struct {
	lesson string
	at     api.Time
	store  *store.Store
}

// moments runs every bundled lesson and keeps its world at 30s, 2m and
// 6m: early in a rollout, in the middle of the story, and after it.
func moments(t *testing.T) []moment {
	t.Helper()
	var out []moment
	for _, id := range scenarios.IDs() {
		sc, err := scenarios.Load(id)
		if err != nil {
			t.Fatal(err)
		}
		s, err := sim.New(sc.Config())
		if err != nil {
			t.Fatal(err)
		}
		for _, at := range []api.Time{30 * api.Second, 2 * api.Minute, 6 * api.Minute} {
			s.RunUntil(at, 0)
			out = append(out, moment{lesson: id, at: s.Now(), store: s.Store().Clone()})
		}
	}
	return out
}

// typed returns an empty k8s.io/api object of a simulated kind.
func typed(kind string) runtime.Object {
	switch kind {
	case "Deployment":
		return &appsv1.Deployment{}
	case "ReplicaSet":
		return &appsv1.ReplicaSet{}
	case "Pod":
		return &corev1.Pod{}
	case "Node":
		return &corev1.Node{}
	case "Event":
		return &corev1.Event{}
	case "Job":
		return &batchv1.Job{}
	case "ResourceQuota":
		return &corev1.ResourceQuota{}
	case "ValidatingWebhookConfiguration":
		return &admissionregistrationv1.ValidatingWebhookConfiguration{}
	case "Service":
		return &corev1.Service{}
	case "Endpoints":
		return &corev1.Endpoints{}
	case "EndpointSlice":
		return &discoveryv1.EndpointSlice{}
	case "ServiceAccount":
		return &corev1.ServiceAccount{}
	case "ConfigMap":
		return &corev1.ConfigMap{}
	}
	return nil
}

// toK8s converts a simulated object into its k8s.io/api type through its
// JSON, as a client reads it from the API server. Two fields the API
// server keeps beside others that the simulation stores are filled in: a
// pod's podIPs (beside podIP) and, on a pod being deleted, its
// deletionGracePeriodSeconds (its terminationGracePeriodSeconds).
func toK8s(t *testing.T, o api.Object) runtime.Object {
	t.Helper()
	out := typed(o.GetTypeMeta().Kind)
	if out == nil {
		return nil
	}
	b, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("%s %s: %v", o.GetTypeMeta().Kind, o.Meta().Name, err)
	}
	if p, ok := out.(*corev1.Pod); ok {
		if p.Status.PodIP != "" {
			p.Status.PodIPs = []corev1.PodIP{{IP: p.Status.PodIP}}
		}
		if p.DeletionTimestamp != nil {
			grace := int64(30)
			if p.Spec.TerminationGracePeriodSeconds != nil {
				grace = *p.Spec.TerminationGracePeriodSeconds
			}
			p.DeletionGracePeriodSeconds = &grace
		}
	}
	return out
}

// simulatedKinds are the kinds the engine simulates and kubectl describes
// (the ServiceAccount and the ConfigMap that every namespace holds among
// them).
var simulatedKinds = []string{"Deployment", "ReplicaSet", "Pod", "Node", "Job", "ResourceQuota", "Service", "EndpointSlice", "Endpoints",
	"ServiceAccount", "ConfigMap"}
