package scale

import (
	"testing"
	"time"

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

// TestSnapshotScale: a snapshot of scale-10000 after pass 12000, kept by a
// fresh run as its checkpoint, gives the world the first run had and the
// same 1,500 passes after it.
func TestSnapshotScale(t *testing.T) {
	if testing.Short() {
		t.Skip("converges a world of 10,000 pods")
	}
	const k, after = 12000, 1500
	s, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	s.DropCheckpoints()
	for s.PassCount() < k {
		if _, ok := s.Next(); !ok {
			t.Fatal("the run ended early")
		}
	}
	t0 := time.Now()
	data, err := s.Snapshot("scale")
	if err != nil {
		t.Fatal(err)
	}
	wrote := time.Since(t0)
	f, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	// Read a slice at a time, as a page reads it: the yield is called
	// as the read goes.
	t1 := time.Now()
	yields := 0
	r, err := f.ReadSnapshot(data, "scale", func() { yields++ })
	if err != nil {
		t.Fatal(err)
	}
	if yields < 10 {
		t.Fatalf("the read yielded %d times", yields)
	}
	if _, err := f.KeepSnapshot(r); err != nil {
		t.Fatal(err)
	}
	if err := f.Seek(k); err != nil {
		t.Fatal(err)
	}
	t.Logf("pass %d: %d bytes, written in %v, read in %v (%d yields)", k, len(data), wrote, time.Since(t1), yields)
	if f.Digest() != s.Digest() {
		t.Fatalf("restored at pass %d: the digest differs", k)
	}
	for range after {
		s.Next()
		f.Next()
	}
	if f.PassCount() != k+after || f.Digest() != s.Digest() {
		t.Fatalf("restored at pass %d: after %d passes (%d), the digest differs", k, after, f.PassCount())
	}
}
