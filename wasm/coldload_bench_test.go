//go:build browser && bench && !wasm

package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// TestColdLoadDetail opens sites cold, interleaved, and logs, per load,
// the probe's marks beside the browser's resource timings of app.wasm and
// app.js (when each request started, its first byte, its last). $COLD_SITES
// is a comma-separated list of DIR:PATH (the site's directory and the page
// to open), $COLD_RUNS the loads of each (default 5). $COLD_TRACE names a
// directory for a Chromium trace of each load (v8.wasm, devtools.timeline,
// v8 compile).
func TestColdLoadDetail(t *testing.T) {
	specs, runs := benchABEnv(t, "COLD_SITES", "COLD_RUNS", 5)
	traceDir := os.Getenv("COLD_TRACE")
	type site struct{ dir, url string }
	sites := make([]site, len(specs))
	for i, s := range specs {
		dir, p, _ := strings.Cut(s, ":")
		sites[i] = site{dir, benchServe(t, dir) + p}
	}
	type row struct {
		wasmStart, wasmFirst, wasmEnd, jsEnd, inst, gone, tti, painted, fcp float64
	}
	got := make([][]row, len(sites))
	for r := 0; r < runs; r++ {
		for i, s := range sites {
			trace := ""
			if traceDir != "" {
				trace = filepath.Join(traceDir, fmt.Sprintf("%s-%d.json", strings.ReplaceAll(filepath.Base(s.dir), "/", "_"), r))
			}
			d := coldLoadDetail(t, s.url, trace)
			var rw row
			for _, e := range d.Res {
				switch {
				case strings.HasSuffix(e.Name, "/app.wasm") && rw.wasmEnd == 0:
					rw.wasmStart, rw.wasmFirst, rw.wasmEnd = e.Start, e.First, e.End
				case strings.HasSuffix(e.Name, "/app.js"):
					rw.jsEnd = e.End
				}
			}
			if os.Getenv("COLD_PROBE_COST") != "" {
				t.Logf("%s: the probe's observer took %.1f ms in %d calls until instantiated, %.1f ms until interactive", s.dir, d.ObservedAtInst, d.CallsAtInst, d.Observed)
			}
			if w := d.Warm; w != nil {
				var wasm string
				for _, e := range w.Res {
					if strings.Contains(e.Name, "/app.wasm") {
						wasm = fmt.Sprintf("%s requested %.0f, last byte %.0f", e.Name[strings.LastIndex(e.Name, "/")+1:], e.Start, e.End)
					}
				}
				t.Logf("%s: warm: %s; instantiated %.0f, loader gone %.0f, interactive %.0f", s.dir, wasm,
					deref(w.Marks.Instantiated), deref(w.Marks.LoaderGone), deref(w.Marks.Interactive))
			}
			rw.inst, rw.gone, rw.tti = deref(d.Marks.Instantiated), deref(d.Marks.LoaderGone), deref(d.Marks.Interactive)
			rw.painted, rw.fcp = deref(d.Marks.TitlePainted), deref(d.FCP)
			got[i] = append(got[i], rw)
			var b strings.Builder
			for _, e := range d.Res {
				fmt.Fprintf(&b, "\n    %-40s start %6.0f first %6.0f end %6.0f  %8d B enc, %9d B dec", strings.TrimPrefix(e.Name, "http://"), e.Start, e.First, e.End, e.Enc, e.Dec)
			}
			t.Logf("%s: app.js done %.0f; app.wasm requested %.0f, first byte %.0f, last %.0f; instantiated %.0f (+%.0f after the last byte); loader gone %.0f; interactive %.0f (load avg %s)%s",
				s.dir, rw.jsEnd, rw.wasmStart, rw.wasmFirst, rw.wasmEnd, rw.inst, rw.inst-rw.wasmEnd, rw.gone, rw.tti, benchLoadAvg(), b.String())
		}
	}
	for i, s := range sites {
		col := func(f func(row) float64) float64 {
			var xs []float64
			for _, r := range got[i] {
				xs = append(xs, f(r))
			}
			return benchMedian(xs)
		}
		t.Logf("%s medians: title painted %.0f, FCP %.0f", s.dir, col(func(r row) float64 { return r.painted }), col(func(r row) float64 { return r.fcp }))
		t.Logf("%s medians: app.wasm requested %.0f, first byte %.0f, last byte %.0f; instantiated %.0f (after the last byte %.0f); loader gone %.0f (Go start and first render %.0f); interactive %.0f (first pass %.0f)",
			s.dir, col(func(r row) float64 { return r.wasmStart }), col(func(r row) float64 { return r.wasmFirst }), col(func(r row) float64 { return r.wasmEnd }),
			col(func(r row) float64 { return r.inst }), col(func(r row) float64 { return r.inst - r.wasmEnd }),
			col(func(r row) float64 { return r.gone }), col(func(r row) float64 { return r.gone - r.inst }),
			col(func(r row) float64 { return r.tti }), col(func(r row) float64 { return r.tti - r.gone }))
	}
}

func deref(v *float64) float64 {
	if v == nil {
		return -1
	}
	return *v
}

type coldDetail struct {
	ObservedAtInst, Observed float64
	Warm                     *coldDetail
	CallsAtInst              int
	Marks                    struct {
		Instantiated, LoaderGone, Interactive, TitlePainted *float64
	} `json:"marks"`
	FCP *float64 `json:"fcp"`
	Res []struct {
		Name              string
		Start, First, End float64
		Enc, Dec          int64
	} `json:"res"`
}

func coldLoadDetail(t *testing.T, url, traceFile string) coldDetail {
	t.Helper()
	var ctx context.Context
	if os.Getenv("COLD_PROBE_COST") == "" {
		ctx = probedTab(t, true)
	} else {
		// The probe, with the time its MutationObserver's callback takes
		// counted (window.__bench.observed, ms, and .observedAtInst: until
		// the binary was instantiated).
		timed := strings.Replace(probeScript(true), "new MutationObserver(check)",
			"new MutationObserver(() => { const t0 = performance.now(); check(); B.observed = (B.observed || 0) + performance.now() - t0; B.calls = (B.calls || 0) + 1; })", 1)
		timed = strings.Replace(timed, `mark("instantiated");`, `mark("instantiated"); B.observedAtInst = B.observed; B.callsAtInst = B.calls;`, 1)
		if timed == probeScript(true) || !strings.Contains(timed, "observedAtInst") {
			t.Fatal("the probe has changed: cannot time its observer")
		}
		ctx = browser(t)
		if _, err := probeCall(ctx, 10*time.Second, page.AddScriptToEvaluateOnNewDocument,
			page.AddScriptToEvaluateOnNewDocumentParams{Source: timed}); err != nil {
			t.Fatalf("installing the probe: %v", err)
		}
	}
	defer chromedp.Cancel(ctx)
	var stopTrace func() [][]byte
	if traceFile != "" {
		stopTrace = benchTrace(t, ctx,
			"toplevel", "blink.user_timing", "__metadata", "v8.wasm", "devtools.timeline", "loading", "netlog",
			"disabled-by-default-v8.compile", "v8", "disabled-by-default-devtools.timeline", "ServiceWorker", "blink", "navigation",
			"disabled-by-default-v8.cpu_profiler")
	}
	if err := probeNavigate(ctx, time.Minute, url); err != nil {
		t.Fatal(err)
	}
	// $COLD_UNTIL=instantiated waits only for the binary's instantiation
	// (a site whose page and binary do not belong together).
	until := "interactive"
	if os.Getenv("COLD_UNTIL") == "instantiated" {
		until = "instantiated"
	}
	if err := probeWait(ctx, time.Minute, `window.__bench.marks.`+until+` !== undefined`); err != nil {
		t.Fatal(err)
	}
	d, err := probeEval[coldDetail](ctx, 10*time.Second, `({marks: window.__bench.marks, fcp: (performance.getEntriesByName("first-contentful-paint")[0] || {}).startTime ?? null, observedAtInst: window.__bench.observedAtInst || 0, callsAtInst: window.__bench.callsAtInst || 0, observed: window.__bench.observed || 0, res: performance.getEntriesByType("resource").map(e => ({
		Name: e.name, Start: e.startTime, First: e.responseStart, End: e.responseEnd, Enc: e.encodedBodySize, Dec: e.decodedBodySize}))})`)
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("COLD_WARM") != "" {
		// A warm load after the cold one, as the bench's: once the
		// service worker is ready (after $COLD_WARM_WAIT ms more).
		if _, err := probeEval[bool](ctx, time.Minute, `navigator.serviceWorker.ready.then(() => true)`); err != nil {
			t.Fatalf("waiting for the service worker: %v", err)
		}
		if ms, err := strconv.Atoi(os.Getenv("COLD_WARM_WAIT")); err == nil {
			time.Sleep(time.Duration(ms) * time.Millisecond)
		}
		if err := probeNavigate(ctx, time.Minute, url); err != nil {
			t.Fatal(err)
		}
		if err := probeWait(ctx, time.Minute, `window.__bench.marks.interactive !== undefined`); err != nil {
			t.Fatal(err)
		}
		w, err := probeEval[coldDetail](ctx, 10*time.Second, `({marks: window.__bench.marks, res: performance.getEntriesByType("resource").map(e => ({
			Name: e.name + (e.workerStart > 0 ? " (service worker)" : ""), Start: e.startTime, First: e.responseStart, End: e.responseEnd, Enc: e.encodedBodySize, Dec: e.decodedBodySize}))})`)
		if err != nil {
			t.Fatal(err)
		}
		d.Warm = &w
	}
	if stopTrace != nil {
		var b strings.Builder
		b.WriteString("[")
		for i, r := range stopTrace() {
			if i > 0 {
				b.WriteString(",\n")
			}
			b.Write(r)
		}
		b.WriteString("]\n")
		os.MkdirAll(filepath.Dir(traceFile), 0o755)
		if err := os.WriteFile(traceFile, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return d
}
