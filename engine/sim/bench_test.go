package sim

import (
	"fmt"
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/store"
)

func benchWorld(b *testing.B, nodes, replicas int) *Sim {
	b.Helper()
	cfg := Config{Seed: 1, ClusterCIDR: "10.0.0.0/14"} // a /24 for each of up to 1,024 nodes
	for i := 1; i <= nodes; i++ {
		cfg.Nodes = append(cfg.Nodes, Node{Name: fmt.Sprintf("node-%04d", i), CPU: "8", Memory: "32Gi", Pods: 110})
	}
	labels := map[string]string{"app": "web"}
	cfg.Objects = []Object{{Object: &api.Deployment{
		TypeMeta:   api.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: api.DeploymentSpec{Replicas: api.Int32(int32(replicas)), Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "web", Image: "shop/web:1.0"}}}}},
	}}}
	s, err := New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	s.RunUntil(2*api.Minute, 0)
	return s
}

// BenchmarkDigest hashes a 400-pod world from scratch: a world built
// afresh each time, so no hash is remembered yet.
func BenchmarkDigest(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s := benchWorld(b, 20, 400)
		b.StartTimer()
		s.w.digest()
	}
}

// BenchmarkDigestAfterPass is the digest a view asks for after each pass:
// only the objects the pass changed are hashed again.
func BenchmarkDigestAfterPass(b *testing.B) {
	s := benchWorld(b, 20, 400)
	s.Inject(Kubectl{Line: "scale deployment/web --replicas=300"})
	s.Digest()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, ok := s.Next(); !ok {
			b.StopTimer()
			s.Inject(Kubectl{Line: fmt.Sprintf("scale deployment/web --replicas=%d", 300+i%200)})
			b.StartTimer()
		}
		s.Digest()
	}
}

// BenchmarkWatchFanOut delivers one pod change to every controller that
// watches pods, in a 1,000-node world (the kubelets are reached by node).
func BenchmarkWatchFanOut(b *testing.B) {
	s := benchWorld(b, 1000, 100)
	p := s.Store().List("Pod")[0]
	ev := store.WatchEvent{Type: store.Modified, Object: p, Old: p}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.w.notify(ev)
		if s.w.agenda.Len() > 4096 {
			b.StopTimer()
			s.w.agenda = agenda{}
			b.StartTimer()
		}
	}
}

// BenchmarkClone copies a 400-pod world, as a checkpoint does.
func BenchmarkClone(b *testing.B) {
	s := benchWorld(b, 20, 400)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.w.clone()
	}
}
