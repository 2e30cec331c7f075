//go:build browser && bench && !wasm

package main

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"reconcile/scenarios"
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

// TestLoadAB opens the default lesson, cold then warm as TestBenchLoad
// does, on two or more sites in turn (an A/B in the same minutes), and logs
// for each the medians of the cold load's marks: when the binary was
// instantiated, when the loader went (Go's start and first render done),
// when the status said Pass 1 (interactive), and the warm time to
// interactive. $TTI_SITES names the sites' directories, comma-separated
// (each as make build's dist/: index.html, web/app.wasm...), $TTI_RUNS the
// loads of each (default 5).
func TestLoadAB(t *testing.T) {
	dirs, runs := benchABEnv(t, "TTI_SITES", "TTI_RUNS", 5)
	urls := make([]string, len(dirs))
	for i, d := range dirs {
		urls[i] = benchServe(t, d) + "/s/" + scenarios.Default
	}
	type figs struct{ inst, gone, tti, warm, cpu []float64 }
	got := make([]figs, len(dirs))
	for r := 0; r < runs; r++ {
		for i, u := range urls {
			var cpu time.Duration
			c, w := benchLoadOnceCPU(t, u, &cpu)
			f := &got[i]
			f.cpu = append(f.cpu, cpu.Seconds()*1000)
			f.inst = benchAppendMark(f.inst, c.Marks.Instantiated)
			f.gone = benchAppendMark(f.gone, c.Marks.LoaderGone)
			f.tti = append(f.tti, *c.Marks.Interactive)
			f.warm = append(f.warm, *w.Marks.Interactive)
			t.Logf("%s: cold: instantiated %s, loader gone %s, interactive %.0f ms (%d clicks), the page thread's CPU %s; warm %.0f ms",
				dirs[i], benchMsOf(c.Marks.Instantiated), benchMsOf(c.Marks.LoaderGone), *c.Marks.Interactive, c.Clicks, cpu, *w.Marks.Interactive)
		}
	}
	for i, d := range dirs {
		f := got[i]
		// The split as make bench reports it, each part a median over the
		// runs of that part.
		start, pass := make([]float64, 0, runs), make([]float64, 0, runs)
		for k := range f.gone {
			if k < len(f.inst) {
				start = append(start, f.gone[k]-f.inst[k])
			}
			if k < len(f.tti) {
				pass = append(pass, f.tti[k]-f.gone[k])
			}
		}
		t.Logf("%s: cold TTI median %.0f ms of %.0f; instantiated %.0f ms, + Go start and first render %.0f ms (%.0f), + first pass %.0f ms (%.0f); the page thread's CPU until interactive, median %.0f ms of %.0f; warm median %.0f ms",
			d, benchMedian(f.tti), f.tti, benchMedian(f.inst), benchMedian(start), start, benchMedian(pass), pass, benchMedian(f.cpu), f.cpu, benchMedian(f.warm))
	}
}

// benchLoadOnceCPU is benchLoadOnce, and sets *cpu (unless nil) to the CPU time the
// page's thread (rendererMainCPU: the busiest renderer's main thread) took
// from before the cold navigation until the page was interactive: what the
// page ran on its thread, whatever else the machine did meanwhile (the
// renderer's own start is counted when the navigation starts a new one).
func benchLoadOnceCPU(t *testing.T, url string, cpu *time.Duration) (cold, warm benchMarks) {
	t.Helper()
	ctx := probedTab(t, true)
	read := func(what string) benchMarks {
		var before time.Duration
		if cpu != nil {
			before = rendererMainCPU(ctx)
		}
		if err := probeNavigate(ctx, time.Minute, url); err != nil {
			t.Fatalf("%s: opening %s: %v", what, url, err)
		}
		if err := probeWait(ctx, time.Minute, `window.__bench.marks.interactive !== undefined`); err != nil {
			t.Fatalf("%s: %s never became interactive: %v", what, url, err)
		}
		if what == "cold" && cpu != nil {
			*cpu = max(0, rendererMainCPU(ctx)-before)
		}
		m, err := probeEval[benchMarks](ctx, 10*time.Second, benchMarksJS)
		if err != nil {
			t.Fatalf("%s: reading the marks: %v", what, err)
		}
		return m
	}
	cold = read("cold")
	if _, err := probeEval[bool](ctx, time.Minute, `navigator.serviceWorker.ready.then(() => true)`); err != nil {
		t.Fatalf("waiting for the service worker: %v", err)
	}
	warm = read("warm")
	_ = chromedp.Cancel(ctx)
	return cold, warm
}

// benchABEnv reads what an A/B load test compares: the sites in
// $sitesVar, comma-separated (the test is skipped without them), and the
// loads of each in $runsVar (def when unset or not a positive number).
func benchABEnv(t *testing.T, sitesVar, runsVar string, def int) ([]string, int) {
	t.Helper()
	env := os.Getenv(sitesVar)
	if env == "" {
		t.Skipf("$%s names the sites to compare, comma-separated", sitesVar)
	}
	runs := def
	if v, err := strconv.Atoi(os.Getenv(runsVar)); err == nil && v > 0 {
		runs = v
	}
	return strings.Split(env, ","), runs
}
