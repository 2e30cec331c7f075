package engine

import (
	"fmt"
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/sim"
)

// BenchmarkWatchFanOut measures one write and its watch fan-out in a
// converged world: a new label on one pod reaches every controller that
// watches pods (the replicaset-controller, the scheduler, the kubelet of
// the pod's node), and the passes it causes at their arrival run.
// A pass touches one key, so the cost must not grow with the cluster:
// compare the two sizes.
func BenchmarkWatchFanOut(b *testing.B) {
	fanOutWorlds := map[string]*sim.Sim{}
	for _, size := range []struct{ nodes, pods int }{{3, 30}, {1000, 10000}} {
		b.Run(fmt.Sprintf("nodes=%d,pods=%d", size.nodes, size.pods), func(b *testing.B) {
			key := fmt.Sprint(size)
			s := fanOutWorlds[key]
			if s == nil {
				// Built once: the benchmark runs this func for each b.N.
				var err error
				if s, err = start(benchScenario(size.nodes, size.pods), 24*api.Hour); err != nil {
					b.Fatal(err)
				}
				s.RunUntil(3*api.Minute, 0)
				fanOutWorlds[key] = s
			}
			pods := s.Store().List("Pod")
			if len(pods) != size.pods {
				b.Fatalf("%d pods after 3m, want %d", len(pods), size.pods)
			}
			ns, name := pods[len(pods)/2].Meta().Namespace, pods[len(pods)/2].Meta().Name
			passes := 0
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				p := s.Store().Get("Pod", ns, name).(*api.Pod).DeepCopy()
				p.Labels["bench"] = fmt.Sprint(i)
				// A write as a client makes it, outside the recorded inputs,
				// so that b.N writes do not grow the run's input list.
				if _, err := s.Store().Update(p); err != nil {
					b.Fatal(err)
				}
				// The watch events arrive after sim.WatchLatency; the passes
				// they cause run at that instant.
				n := s.PassCount()
				s.RunUntil(s.Now()+sim.WatchLatency, 0)
				passes += s.PassCount() - n
			}
			b.ReportMetric(float64(passes)/float64(b.N), "passes/op")
		})
	}
}
