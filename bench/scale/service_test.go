package scale

import (
	"bytes"
	"testing"

	"reconcile/engine/api"
)

// The with-Service scenario is scale-10000.yaml's world and one Service
// selecting its pods.
func TestServiceScenario(t *testing.T) {
	sc, err := LoadService()
	if err != nil {
		t.Fatal(err)
	}
	base, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if sc.ID != ServiceID || len(sc.Cluster.Nodes) != len(base.Cluster.Nodes) || len(sc.Manifests) != 2 {
		t.Fatalf("id %q, %d nodes, %d manifests; want %q, %d, 2", sc.ID, len(sc.Cluster.Nodes), len(sc.Manifests), ServiceID, len(base.Cluster.Nodes))
	}
	d, ok := sc.Manifests[0].Object.(*api.Deployment)
	if !ok || api.Deref(d.Spec.Replicas, 0) != Pods {
		t.Fatalf("manifest %T, want a Deployment of %d replicas", sc.Manifests[0].Object, Pods)
	}
	svc, ok := sc.Manifests[1].Object.(*api.Service)
	if !ok || svc.Spec.Selector["app"] != "web" || len(svc.Spec.Selector) != 1 {
		t.Fatalf("manifest %T %v, want a Service selecting app=web", sc.Manifests[1].Object, sc.Manifests[1].Object)
	}
	if len(sc.Warnings) > 0 {
		t.Errorf("warnings: %v", sc.Warnings)
	}
	// Everything but the Service and the words is scale-10000.yaml's.
	rest := func(b []byte) []byte { return b[bytes.Index(b, []byte("\ncluster:")):] }
	if !bytes.HasPrefix(rest(ServiceFile), rest(File)) {
		t.Errorf("the cluster and Deployment of %s differ from %s's; run go generate ./bench/scale", ServiceFileName, FileName)
	}
}
