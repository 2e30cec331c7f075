package sim_test

import (
	"testing"

	"reconcile/bench/scale"
	"reconcile/engine/sim"
)

// BenchmarkScaleWatchPass is a pass of the scale scenario (1,000 nodes,
// 10,000 pods) from pass 10,000 on, its Deployment still rolling out,
// with a kubectl watch running that looks at the store after it: none,
// get pods -w --watch-only (a row per change of a pod) or events -w
// --types=Warning. A watch that ends (limits.MaxOutput printed) or a
// trace that ends starts again from pass 10,000, untimed. The run is its
// own (a watch is an input: it would change the trace the seek
// benchmarks share).
func BenchmarkScaleWatchPass(b *testing.B) {
	for _, line := range []string{"", "get pods -w --watch-only", "events -w --types=Warning"} {
		name := "none"
		if line != "" {
			name = line
		}
		b.Run(name, func(b *testing.B) {
			s, err := scale.Start()
			if err != nil {
				b.Fatal(err)
			}
			restart := func() {
				if err := s.Seek(10000); err != nil {
					b.Fatal(err)
				}
				if line != "" {
					if _, err := s.Inject(sim.Kubectl{Line: line}); err != nil {
						b.Fatal(err)
					}
				}
			}
			restart()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, ok := s.Next(); !ok || (line != "" && !s.Watching("kubectl "+line)) {
					b.StopTimer()
					restart()
					b.StartTimer()
				}
			}
		})
	}
}
