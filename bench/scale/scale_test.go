package scale

import (
	"testing"

	"reconcile/engine/api"
)

// The scenario file is the world of engine/bench_test.go's
// benchScenario(1000, 10000).
func TestScenario(t *testing.T) {
	sc, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if sc.ID != ID || len(sc.Cluster.Nodes) != Nodes || len(sc.Manifests) != 1 {
		t.Fatalf("id %q, %d nodes, %d manifests; want %q, %d, 1", sc.ID, len(sc.Cluster.Nodes), len(sc.Manifests), ID, Nodes)
	}
	d, ok := sc.Manifests[0].Object.(*api.Deployment)
	if !ok || api.Deref(d.Spec.Replicas, 0) != Pods {
		t.Fatalf("manifest %T, want a Deployment of %d replicas", sc.Manifests[0].Object, Pods)
	}
	if len(sc.Warnings) > 0 {
		t.Errorf("warnings: %v", sc.Warnings)
	}
}

func TestQuantile(t *testing.T) {
	xs := []float64{5, 1, 4, 2, 3}
	for _, c := range []struct{ q, want float64 }{{0.5, 3}, {0.95, 5}, {1, 5}, {0, 1}} {
		if got := Quantile(xs, c.q); got != c.want {
			t.Errorf("Quantile(%v) = %v, want %v", c.q, got, c.want)
		}
	}
}
