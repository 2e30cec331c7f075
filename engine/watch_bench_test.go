package engine

import (
	"fmt"
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/sim"
)

// BenchmarkWatchPass is BenchmarkWatchFanOut's write (a new label on one
// pod, and the passes it causes) with a kubectl watch running, which
// looks at the store after every pass and input: none, get pods -w (which
// prints the pod's row at every write) or events -w --types=Warning (which
// prints none: every event of the world would pass limits.MaxOutput at
// 10,000 pods). A pass touches one
// key, so what a watch costs must not grow with the cluster: compare the
// two sizes, and each watch with none.
func BenchmarkWatchPass(b *testing.B) {
	worlds := map[string]*sim.Sim{}
	for _, size := range []struct{ nodes, pods int }{{3, 30}, {1000, 10000}} {
		for _, line := range []string{"", "get pods -w", "events -w --types=Warning"} {
			name := "none"
			if line != "" {
				name = line
			}
			b.Run(fmt.Sprintf("pods=%d/%s", size.pods, name), func(b *testing.B) {
				key := fmt.Sprint(size, line)
				s := worlds[key]
				if s == nil {
					// Built once: the benchmark runs this func for each b.N.
					var err error
					if s, err = start(benchScenario(size.nodes, size.pods), 24*api.Hour); err != nil {
						b.Fatal(err)
					}
					s.RunUntil(3*api.Minute, 0)
					worlds[key] = s
				}
				pods := s.Store().List("Pod")
				if len(pods) != size.pods {
					b.Fatalf("%d pods after 3m, want %d", len(pods), size.pods)
				}
				ns, name := pods[len(pods)/2].Meta().Namespace, pods[len(pods)/2].Meta().Name
				watching := func() {
					// A watch that printed limits.MaxOutput has ended: a
					// new one starts, untimed.
					if line == "" || s.Watching("kubectl "+line) {
						return
					}
					b.StopTimer()
					if _, err := s.Inject(sim.Kubectl{Line: line}); err != nil {
						b.Fatal(err)
					}
					if !s.Watching("kubectl " + line) {
						b.Fatalf("kubectl %s is not watching", line)
					}
					b.StartTimer()
				}
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					watching()
					p := s.Store().Get("Pod", ns, name).(*api.Pod).DeepCopy()
					p.Labels["bench"] = fmt.Sprint(i)
					if _, err := s.Store().Update(p); err != nil {
						b.Fatal(err)
					}
					s.RunUntil(s.Now()+sim.WatchLatency, 0)
				}
			})
		}
	}
}
