//go:build browser && bench && !wasm

package main

import (
	"os"
	"testing"
)

// TestBenchLoad runs only the load step of make bench: the cold and warm
// time to interactive of the site in bench-results/site beside the floor's
// in bench-results/floor, and logs the medians of where the cold time goes.
// make bench builds both; to measure a change without the rest of the
// bench, build them the same way (make build, then copy dist to
// bench-results/site) and run
//
//	go test -tags 'browser bench' -count=1 -v -run '^TestBenchLoad$' ./wasm
//
// It writes no report.
func TestBenchLoad(t *testing.T) {
	if _, err := os.Stat(benchPath("site")); err != nil {
		t.Skipf("no %s: make bench (or make build and a copy of dist) builds it", benchPath("site"))
	}
	b := &benchRun{notes: map[string]string{}}
	b.load(t)
	med := func(xs []float64) string {
		if len(xs) == 0 {
			return "-"
		}
		return benchMS(benchMedian(xs))
	}
	t.Logf("cold TTI median %s (floor %s), warm %s (floor %s)", med(b.cold), med(b.floorCold), med(b.warm), med(b.floorWarm))
	t.Logf("cold, where the time goes: instantiated %s (floor %s), loader gone %s (floor %s)",
		med(b.instantiated), med(b.floorInstantiated), med(b.loaderGone), med(b.floorLoaderGone))
}
