//go:build browser && bench && !wasm

package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"

	"reconcile/scenarios"
)

// TestLoadTraceAB is TestLoadAB timed by the page's thread's CPU time, not
// the wall clock: it traces each cold load of the default lesson (Chromium's
// tracing, the tasks of the renderer's main thread with their thread time)
// and sums the thread time of the tasks from the binary's instantiation to
// the loader's removal (Go's start and first render: one task, go.run) and
// of the tasks after it until the status says Pass 1 (the first pass: the
// probe's clicks, the browser's layout and paint). The machine's other work
// slows a task's wall time, not its thread time. $TTI_SITES names the
// sites, comma-separated, $TTI_RUNS the cold loads of each (default 7).
func TestLoadTraceAB(t *testing.T) {
	dirs, runs := benchABEnv(t, "TTI_SITES", "TTI_RUNS", 7)
	urls := make([]string, len(dirs))
	for i, d := range dirs {
		urls[i] = benchServe(t, d) + "/s/" + scenarios.Default
	}
	start, pass, tasks := make([][]float64, len(dirs)), make([][]float64, len(dirs)), make([][]float64, len(dirs))
	for r := 0; r < runs; r++ {
		for i, u := range urls {
			c := traceColdLoad(t, u)
			start[i], pass[i], tasks[i] = append(start[i], c.start), append(pass[i], c.pass), append(tasks[i], c.longest)
			t.Logf("%s: thread time of Go's start and first render %.1f ms (its task %.1f ms of wall time), of the first pass %.1f ms (%d tasks)",
				dirs[i], c.start, c.startWall, c.pass, c.passTasks)
		}
	}
	for i, d := range dirs {
		t.Logf("%s: the page thread's time, medians: Go start and first render %.1f ms of %.1f; first pass %.1f ms of %.1f; both %.1f ms",
			d, benchMedian(start[i]), start[i], benchMedian(pass[i]), pass[i], benchMedian(start[i])+benchMedian(pass[i]))
	}
}

// traceCold is what one traced cold load measured, in ms of thread time
// (startWall: the wall time of the start's task).
type traceCold struct {
	start, startWall, pass, longest float64
	passTasks                       int
}

type traceEvent struct {
	Name string  `json:"name"`
	Ph   string  `json:"ph"`
	Cat  string  `json:"cat"`
	Ts   float64 `json:"ts"`
	Dur  float64 `json:"dur"`
	Tdur float64 `json:"tdur"`
	Pid  int64   `json:"pid"`
	Tid  int64   `json:"tid"`
	Args struct {
		Name string `json:"name"`
	} `json:"args"`
}

func traceColdLoad(t *testing.T, url string) traceCold {
	t.Helper()
	ctx := probedTab(t, true)
	defer chromedp.Cancel(ctx)
	stop := benchTrace(t, ctx, "toplevel", "blink.user_timing", "__metadata")
	if err := probeNavigate(ctx, time.Minute, url); err != nil {
		t.Fatal(err)
	}
	if err := probeWait(ctx, time.Minute, `window.__bench.marks.interactive !== undefined`); err != nil {
		t.Fatal(err)
	}
	raw := stop()
	evs := traceEvents(raw)
	marks := map[string]traceEvent{}
	for _, e := range evs {
		if k, ok := strings.CutPrefix(e.Name, "bench:"); ok {
			if _, seen := marks[k]; !seen {
				marks[k] = e
			}
		}
	}
	inst, ok1 := marks["instantiated"]
	gone, ok2 := marks["loaderGone"]
	ready, ok3 := marks["interactive"]
	if !ok1 || !ok2 || !ok3 {
		t.Fatalf("the trace lacks the probe's marks (%d events): %v", len(evs), marks)
	}
	// $TTI_TRACE_DUMP names a file for the trace's events, one a line.
	if f := os.Getenv("TTI_TRACE_DUMP"); f != "" {
		var b strings.Builder
		for _, r := range raw {
			b.Write(r)
			b.WriteByte('\n')
		}
		os.WriteFile(f, []byte(b.String()), 0o644)
	}
	// The thread's outermost slices: its tasks, and the microtask
	// checkpoints run outside a task (go.run is one: the binary's
	// instantiation resolves a promise).
	var top []traceEvent
	for _, e := range evs {
		if e.Ph == "X" && e.Pid == gone.Pid && e.Tid == gone.Tid && e.Cat == "toplevel" {
			top = append(top, e)
		}
	}
	slices.SortFunc(top, func(a, b traceEvent) int { return cmp.Or(cmp.Compare(a.Ts, b.Ts), cmp.Compare(b.Dur, a.Dur)) })
	var c traceCold
	end := 0.0
	for _, e := range top {
		if e.Ts < end {
			continue // within the slice before
		}
		end = e.Ts + e.Dur
		td := cmp.Or(e.Tdur, e.Dur) / 1000
		switch {
		case e.Ts+e.Dur > inst.Ts && e.Ts < gone.Ts:
			c.start += td
			c.startWall = max(c.startWall, e.Dur/1000)
		case e.Ts >= gone.Ts && e.Ts < ready.Ts:
			c.pass += td
			c.passTasks++
		}
		c.longest = max(c.longest, td)
	}
	if c.start == 0 {
		names := map[string]int{}
		for _, e := range evs {
			if e.Pid == gone.Pid && e.Tid == gone.Tid {
				names[e.Name+"/"+e.Ph]++
			}
		}
		var first, last float64
		for _, e := range evs {
			if e.Pid == gone.Pid && e.Tid == gone.Tid && e.Ph == "X" {
				if first == 0 || e.Ts < first {
					first = e.Ts
				}
				last = max(last, e.Ts)
			}
		}
		t.Fatalf("no task of the main thread between the marks (%d events; marks %v %v %v; tasks from %v to %v; on its thread: %v)", len(evs), inst.Ts, gone.Ts, ready.Ts, first, last, names)
	}
	return c
}

// traceEvents decodes a trace's events (those that do not decode are
// left out).
func traceEvents(raw [][]byte) []traceEvent {
	var evs []traceEvent
	for _, b := range raw {
		var e traceEvent
		if json.Unmarshal(b, &e) == nil {
			evs = append(evs, e)
		}
	}
	return evs
}

// benchTrace starts Chromium's tracing of the categories in the tab ctx;
// the function it returns ends it and returns its events, each one JSON
// object.
func benchTrace(t *testing.T, ctx context.Context, categories ...string) (stop func() [][]byte) {
	t.Helper()
	var mu sync.Mutex
	var raw [][]byte
	done := make(chan struct{})
	if err := chromedp.Listen(ctx, func(ev any) {
		switch e := ev.(type) {
		case *tracing.EventDataCollected:
			mu.Lock()
			for _, v := range e.Value {
				raw = append(raw, append([]byte(nil), v...))
			}
			mu.Unlock()
		case *tracing.EventTracingComplete:
			close(done)
		}
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := probeCall(ctx, 10*time.Second, tracing.Start, tracing.StartParams{
		TransferMode: tracing.StartTransferModeReportEvents,
		TraceConfig:  &tracing.TraceConfig{IncludedCategories: categories},
	}); err != nil {
		t.Fatalf("Tracing.start: %v", err)
	}
	return func() [][]byte {
		if _, err := probeCall(ctx, 10*time.Second, tracing.End, cdp.Empty{}); err != nil {
			t.Fatalf("Tracing.end: %v", err)
		}
		select {
		case <-done:
		case <-time.After(time.Minute):
			t.Fatal("the trace never completed")
		}
		mu.Lock()
		defer mu.Unlock()
		return raw
	}
}

// TestTraceClicks traces make bench's clicks on Next pass through the
// largest lesson and sums, on the page's main thread, the self time of each
// kind of slice (Chromium's devtools.timeline names: FunctionCall,
// UpdateLayoutTree, Layout, Paint, …) per click: where a click's time goes
// between Go's code and the browser's style, layout and paint, which a CPU
// profile shows as one "(program)". It traces the site of make
// profile-wasm (bench-results/prof-scale), or compares the sites of
// $CLICK_SITES (comma-separated), $CLICK_RUNS times each, alternating
// (default 1). With $WASMPROF_PHONE set, on the phone of the budgets.
func TestTraceClicks(t *testing.T) {
	id, _, _, err := benchLargestLesson()
	if err != nil {
		t.Fatal(err)
	}
	dirs, runs := []string{benchPath("prof-scale")}, 1
	if os.Getenv("CLICK_SITES") != "" {
		dirs, runs = benchABEnv(t, "CLICK_SITES", "CLICK_RUNS", 1)
	}
	urls := make([]string, len(dirs))
	for i, d := range dirs {
		urls[i] = benchServe(t, d) + "/s/" + id
	}
	medians, threads := make([][]float64, len(dirs)), make([][]float64, len(dirs))
	for r := 0; r < runs; r++ {
		for i, u := range urls {
			median, self := traceClicks(t, u)
			total := 0.0
			names := make([]string, 0, len(self))
			for n, v := range self {
				names = append(names, n)
				total += v
			}
			slices.SortFunc(names, func(a, b string) int { return cmp.Compare(self[b], self[a]) })
			var top []string
			for _, n := range names[:min(8, len(names))] {
				top = append(top, fmt.Sprintf("%s %.2f", n, self[n]))
			}
			t.Logf("%s: click → DOM median %.1f ms; the main thread's self time per click %.1f ms: %s", dirs[i], median, total, strings.Join(top, ", "))
			medians[i], threads[i] = append(medians[i], median), append(threads[i], total)
		}
	}
	for i, d := range dirs {
		t.Logf("%s: click → DOM, median of medians %.1f ms %v; main thread per click, median %.1f ms %v", d, benchMedian(medians[i]), medians[i], benchMedian(threads[i]), threads[i])
	}
}

// traceClicks opens url in a fresh tab, clicks Next pass as make bench
// does, traced, and returns the clicks' median and, by slice name, the
// main thread's self time per click (ms).
func traceClicks(t *testing.T, url string) (float64, map[string]float64) {
	t.Helper()
	ctx := probedTab(t, false)
	defer chromedp.Cancel(ctx)
	if os.Getenv("WASMPROF_PHONE") != "" {
		if err := phoneEmulate(ctx, benchNet{}); err != nil {
			t.Fatal(err)
		}
	}
	if err := probeNavigate(ctx, time.Minute, url); err != nil {
		t.Fatal(err)
	}
	if err := probeWait(ctx, time.Minute, benchReadyJS); err != nil {
		t.Fatal(err)
	}
	stop := benchTrace(t, ctx, "devtools.timeline", "toplevel", "v8.execute", "__metadata")
	r, err := benchClicks(ctx, clicks, clickCap)
	if err != nil {
		t.Fatal(err)
	}
	raw := stop()
	evs := traceEvents(raw)
	// The renderer's main thread: the one with the most FunctionCall time.
	type key struct{ pid, tid int64 }
	calls := map[key]float64{}
	for _, e := range evs {
		if e.Name == "FunctionCall" && e.Ph == "X" {
			calls[key{e.Pid, e.Tid}] += e.Dur
		}
	}
	var main key
	for k, v := range calls {
		if v > calls[main] {
			main = k
		}
	}
	// Self time by name: a slice's time less that of the slices within it.
	var own []traceEvent
	for _, e := range evs {
		if e.Ph == "X" && e.Pid == main.pid && e.Tid == main.tid {
			own = append(own, e)
		}
	}
	slices.SortFunc(own, func(a, b traceEvent) int { return cmp.Or(cmp.Compare(a.Ts, b.Ts), cmp.Compare(b.Dur, a.Dur)) })
	self := map[string]float64{}
	var stack []traceEvent
	n := float64(len(r.Times))
	for _, e := range own {
		for len(stack) > 0 && e.Ts >= stack[len(stack)-1].Ts+stack[len(stack)-1].Dur {
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 {
			self[stack[len(stack)-1].Name] -= e.Dur / 1000 / n
		}
		self[e.Name] += e.Dur / 1000 / n
		stack = append(stack, e)
	}
	return benchMedian(r.Times), self
}
