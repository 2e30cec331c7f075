package engine

import (
	"fmt"
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/manifest"
	"reconcile/engine/scenario"
)

func benchScenario(nodes int, replicas int) *scenario.Scenario {
	sc := &scenario.Scenario{File: "bench", ID: "bench", Seed: 1}
	sc.Cluster.ClusterCIDR = "10.0.0.0/14" // a /24 for each of up to 1,024 nodes
	for i := 1; i <= nodes; i++ {
		sc.Cluster.Nodes = append(sc.Cluster.Nodes, scenario.Node{Name: fmt.Sprintf("node-%04d", i), CPU: "8", Memory: "32Gi", Pods: 110})
	}
	sc.Manifests = []manifest.Manifest{{Object: deploymentFromLine(fmt.Sprintf("web replicas=%d cpu=10m", replicas))}}
	return sc
}

// BenchmarkPass measures one pass in a converging 3-node, 30-pod world.
func BenchmarkPass(b *testing.B) {
	for i := 0; i < b.N; {
		s, _ := start(benchScenario(3, 30), 0)
		for _, ok := s.Next(); ok && i < b.N; _, ok = s.Next() {
			i++
		}
	}
}

// BenchmarkScaleConverge runs a 1,000-node, 10,000-pod Deployment to
// convergence: the figure make bench reports against its 2 s budget.
func BenchmarkScaleConverge(b *testing.B) {
	for i := 0; i < b.N; i++ {
		s, _ := start(benchScenario(1000, 10000), 10*api.Minute)
		s.RunUntil(3*api.Minute, 0)
		d := s.Store().Get("Deployment", "default", "web").(*api.Deployment)
		if d.Status.AvailableReplicas != 10000 {
			b.Fatalf("available %d of 10000 after 3m", d.Status.AvailableReplicas)
		}
		b.ReportMetric(float64(s.PassCount()), "passes")
	}
}

// BenchmarkSeek seeks to a pass in a long trace and back.
func BenchmarkSeek(b *testing.B) {
	s, _ := start(benchScenario(20, 400), 0)
	s.RunUntil(2*api.Minute, 0)
	n := s.PassCount()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Seek((i * 7919) % n)
	}
}
