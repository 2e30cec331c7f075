package engine

import (
	"runtime"
	"testing"

	"reconcile/engine/api"
)

// BenchmarkScaleRetained runs the 10,000-pod Deployment of
// BenchmarkScaleConverge to convergence and reports the heap the run keeps
// per pod (its store, checkpoints, caches and trace).
func BenchmarkScaleRetained(b *testing.B) {
	for i := 0; i < b.N; i++ {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		s, _ := start(benchScenario(1000, 10000), 10*api.Minute)
		s.RunUntil(3*api.Minute, 0)
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/10000, "retained-B/pod")
		runtime.KeepAlive(s)
	}
}
