package sim_test

import (
	"testing"

	"reconcile/bench/scale"
	"reconcile/engine/sim"
)

// seekTrace is the 10,000-pass trace of the scale scenario, run once for
// the benchmarks that seek in it.
var seekTrace *sim.Sim

func trace(b *testing.B) *sim.Sim {
	if seekTrace == nil {
		s, err := scale.Start()
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Seek(10000); err != nil {
			b.Fatal(err)
		}
		seekTrace = s
	}
	return seekTrace
}

// BenchmarkScaleSeek seeks to pseudo-random passes of a 10,000-pass trace
// of the scale scenario (1,000 nodes, 10,000 pods), as make bench does:
// allocations per seek are the figure to compare (the machine's load moves
// the times).
func BenchmarkScaleSeek(b *testing.B) {
	s := trace(b)
	r := uint32(7919)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r = r*1103515245 + 12345
		if err := s.Seek(int(r>>8) % 10001); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkScaleConverged is Converged after each pass from pass 10,000 of
// the scale scenario on (its Deployment still rolling out), as the player
// and the CLI ask it: only the call is timed. At the trace's end it starts
// again from pass 10,000.
func BenchmarkScaleConverged(b *testing.B) {
	s := trace(b)
	if err := s.Seek(10000); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		if _, ok := s.Next(); !ok {
			// The trace ends: start over from pass 10,000 (a seek, untimed).
			if err := s.Seek(10000); err != nil {
				b.Fatal(err)
			}
			if _, ok := s.Next(); !ok {
				b.Fatal("the run ended at pass 10,000")
			}
		}
		b.StartTimer()
		s.Converged()
	}
}
