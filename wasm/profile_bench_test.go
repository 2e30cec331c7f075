//go:build browser && bench && !wasm

package main

// The browser's CPU profile of the engine and of the player's catch-up:
// V8's sampling profiler (the DevTools protocol's Profiler domain) over a
// page of a build that keeps its names (no -s -w), its self time summed
// by function and by Go package. Build what they profile, then run one:
//
//	make profile-wasm            # both, into bench-results/profile/
//	go test -tags 'browser bench' -count=1 -v -run '^TestProfileEngine$' ./wasm
//	go test -tags 'browser bench' -count=1 -v -run '^TestProfileCatchUp$' ./wasm
//	go test -tags 'browser bench' -count=1 -v -run '^TestProfileStart$' ./wasm
//
// $CHROMIUM_JS_FLAGS passes V8 flags to the browser (browser_test.go):
// with --no-wasm-lazy-compilation V8 compiles every function of app.wasm
// before it runs any, instead of each function at its first call (its
// default), which shows how much of a cold start is compiling the code
// it runs (measured at 5a8e71a, one cold load each, profiled: loader gone
// 570 → 228 ms after the binary was instantiated, first pass 400 → 302 ms).
//
// $WASMPROF_OUT names the directory for what they write (default
// bench-results/profile): NAME.cpuprofile, the profile as DevTools saves it
// (open it in DevTools' Performance panel), and NAME.txt, the tables.
// $WASMPROF_INTERVAL is the sampling interval in µs (default 500), and
// $WASMPROF_QUERY the engine page's query (default runs=1&trace=0).

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/profiler"
	"github.com/chromedp/chromedp"

	"reconcile/bench/scale"
	"reconcile/scenarios"
)

// TestProfileEngine profiles bench/inbrowser converging the scale
// scenario (make profile-wasm builds it into bench-results/prof-inbrowser).
func TestProfileEngine(t *testing.T) {
	base := benchServe(t, benchPath("prof-inbrowser"))
	query := cmp.Or(os.Getenv("WASMPROF_QUERY"), "runs=1&trace=0")
	p := profilePage(t, "engine", base+"/?"+query, browser(t), `window.benchResult !== undefined`)
	if s, err := probeEval[string](p.ctx, 10*time.Second, `window.benchResult`); err == nil {
		t.Logf("the page measured: %s", s)
		p.notes = append(p.notes, "the page measured: "+s)
	}
	p.write(t)
}

// TestProfileCatchUp profiles the player opened at the scale scenario's
// deep link, from navigation until the status says the pass (make
// profile-wasm builds the scale site into bench-results/prof-scale).
func TestProfileCatchUp(t *testing.T) {
	url := fmt.Sprintf("%s/s/%s?pass=%d", benchServe(t, benchPath("prof-scale")), scale.ID, scalePass)
	ctx := probedTab(t, false)
	p := profilePage(t, "catchup", url, ctx, benchReadyJS+fmt.Sprintf(
		` && /\bPass %d\b/.test((document.querySelector('[role="status"]') || {}).textContent || "")`, scalePass))
	if d, err := benchDeepLinkOf(ctx, scalePass); err == nil {
		t.Logf("the deep link: %+v", *d)
		p.notes = append(p.notes, fmt.Sprintf("the deep link: shown at %.0f ms, progress at %.0f ms, longest task %.0f ms",
			d.Shown, d.Progress, d.LongestTask))
	}
	p.write(t)
}

// profiled is one page's profile.
type profiled struct {
	name  string
	ctx   context.Context
	prof  *profiler.Profile
	wall  time.Duration
	notes []string
}

// profilePage starts the profiler in the tab, opens url and stops the
// profiler once done (a JavaScript expression) holds. The tab's protocol
// session follows the navigation, and V8 starts the profiler again in the
// page's process if it changes.
func profilePage(t *testing.T, name, url string, ctx context.Context, done string) *profiled {
	t.Helper()
	interval := int64(500)
	if v, err := strconv.Atoi(os.Getenv("WASMPROF_INTERVAL")); err == nil && v > 0 {
		interval = int64(v)
	}
	startProfiler(t, ctx, interval)
	t0 := time.Now()
	if err := probeNavigate(ctx, time.Minute, url); err != nil {
		t.Fatal(err)
	}
	if err := probeWait(ctx, 5*time.Minute, done); err != nil {
		t.Fatalf("%s: waiting for %s: %v", url, done, err)
	}
	wall := time.Since(t0)
	prof := stopProfiler(t, ctx)
	t.Logf("%s: %s in %s, %d samples every %d µs", name, url, wall.Round(time.Millisecond), len(prof.Samples), interval)
	return &profiled{name: name, ctx: ctx, prof: prof, wall: wall,
		notes: []string{fmt.Sprintf("%s, %s from navigation to done, sampled every %d µs", url, wall.Round(time.Millisecond), interval)}}
}

// startProfiler starts V8's sampling profiler in the tab, a sample every
// interval µs.
func startProfiler(t *testing.T, ctx context.Context, interval int64) {
	t.Helper()
	if _, err := probeCall(ctx, 10*time.Second, profiler.Enable, cdp.Empty{}); err != nil {
		t.Fatalf("Profiler.enable: %v", err)
	}
	if _, err := probeCall(ctx, 10*time.Second, profiler.SetSamplingInterval, profiler.SetSamplingIntervalParams{Interval: interval}); err != nil {
		t.Fatalf("Profiler.setSamplingInterval: %v", err)
	}
	if _, err := probeCall(ctx, 10*time.Second, profiler.Start, cdp.Empty{}); err != nil {
		t.Fatalf("Profiler.start: %v", err)
	}
}

// stopProfiler stops the profiler and returns its profile, which must
// hold samples.
func stopProfiler(t *testing.T, ctx context.Context) *profiler.Profile {
	t.Helper()
	r, err := probeCall(ctx, time.Minute, profiler.Stop, cdp.Empty{})
	if err != nil {
		t.Fatalf("Profiler.stop: %v", err)
	}
	if r.Profile == nil || len(r.Profile.Samples) == 0 {
		t.Fatal("the profile has no samples")
	}
	return r.Profile
}

// profileRow is a function's or a package's self time.
type profileRow struct {
	name string
	us   int64
}

// selfTimes sums each sample's time (the delta to the next sample, as
// DevTools counts it) by the name of its top frame, and by key(name).
func selfTimes(p *profiler.Profile, key func(string) string) (byFunc, byKey []profileRow, total int64) {
	names := make(map[int64]string, len(p.Nodes))
	for _, n := range p.Nodes {
		names[n.ID] = profileFuncName(n)
	}
	f, k := map[string]int64{}, map[string]int64{}
	for i, id := range p.Samples {
		var dt int64
		if i+1 < len(p.TimeDeltas) {
			dt = p.TimeDeltas[i+1]
		}
		f[names[id]] += dt
		k[key(names[id])] += dt
		total += dt
	}
	return profileSorted(f), profileSorted(k), total
}

func profileSorted(m map[string]int64) []profileRow {
	rows := make([]profileRow, 0, len(m))
	for name, us := range m {
		rows = append(rows, profileRow{name, us})
	}
	slices.SortFunc(rows, func(a, b profileRow) int {
		return cmp.Or(cmp.Compare(b.us, a.us), strings.Compare(a.name, b.name))
	})
	return rows
}

// profileFuncName names a node's function: a Go function by its symbol
// as V8 shows it from the wasm's name section ("/" and "*()" become "_":
// reconcile_engine_sim.__Sim_.handle), JavaScript with its script.
func profileFuncName(n *profiler.ProfileNode) string {
	if n.CallFrame == nil {
		return "?"
	}
	name := cmp.Or(n.CallFrame.FunctionName, "(anonymous)")
	if u := n.CallFrame.URL; u != "" && !strings.HasSuffix(u, ".wasm") && !strings.HasPrefix(u, "wasm://") {
		return fmt.Sprintf("%s (js %s)", name, filepath.Base(u))
	}
	return name
}

// goPackage is the package of a Go symbol as V8 names it:
// "reconcile_engine_sim" for "reconcile_engine_sim.__Sim_.handle", also
// for a generic function whose type arguments name other packages
// ("type_" holds the generated equality and hash functions); V8's own entries
// ("(garbage collector)", "(program)") and JavaScript stand for themselves.
func goPackage(sym string) string {
	if strings.HasPrefix(sym, "(") || strings.Contains(sym, " (js ") {
		return sym
	}
	s, domain := sym, ""
	for _, d := range []string{"github.com_", "golang.org_", "gopkg.in_"} {
		if strings.HasPrefix(s, d) {
			s, domain = s[len(d):], d
		}
	}
	end := strings.IndexByte(s, '.')
	if end < 0 {
		return sym
	}
	// gopkg.in_yaml.v3.(*parser): the version is the package's.
	if rest := s[end+1:]; len(rest) > 1 && rest[0] == 'v' && rest[1] >= '0' && rest[1] <= '9' {
		if i := strings.IndexByte(rest, '.'); i > 0 {
			end += 1 + i
		}
	}
	return domain + s[:end]
}

// inclusiveTimes sums each sample's time into every distinct function on
// its stack: the time spent in a function and what it called.
func inclusiveTimes(p *profiler.Profile) []profileRow {
	parent := make(map[int64]int64, len(p.Nodes))
	names := make(map[int64]string, len(p.Nodes))
	for _, n := range p.Nodes {
		names[n.ID] = profileFuncName(n)
		for _, c := range n.Children {
			parent[c] = n.ID
		}
	}
	in := map[string]int64{}
	seen := map[string]bool{}
	for i, id := range p.Samples {
		if i+1 >= len(p.TimeDeltas) {
			break
		}
		dt := p.TimeDeltas[i+1]
		clear(seen)
		for n, ok := id, true; ok; n, ok = parent[n] {
			if name := names[n]; !seen[name] {
				seen[name] = true
				in[name] += dt
			}
		}
	}
	return profileSorted(in)
}

func (p *profiled) write(t *testing.T) {
	t.Helper()
	byFunc, byPkg, total := selfTimes(p.prof, goPackage)
	var b strings.Builder
	fmt.Fprintf(&b, "# %s: self time in the browser\n\n", p.name)
	for _, n := range p.notes {
		fmt.Fprintf(&b, "%s\n", n)
	}
	fmt.Fprintf(&b, "sampled %.0f ms in %d samples\n", float64(total)/1000, len(p.prof.Samples))
	table := func(title string, rows []profileRow, n int) {
		fmt.Fprintf(&b, "\n## %s\n\n%10s %6s %6s  %s\n", title, "ms", "self", "sum", "name")
		var sum int64
		for i, r := range rows {
			if i == n {
				break
			}
			sum += r.us
			fmt.Fprintf(&b, "%10.1f %5.1f%% %5.1f%%  %s\n", float64(r.us)/1000, 100*float64(r.us)/float64(total), 100*float64(sum)/float64(total), r.name)
		}
	}
	table("by package", byPkg, 40)
	table("by function", byFunc, 80)
	table("inclusive (the function and what it called)", inclusiveTimes(p.prof), 80)
	dir := cmp.Or(os.Getenv("WASMPROF_OUT"), benchPath("profile"))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(p.prof)
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{p.name + ".cpuprofile": raw, p.name + ".txt": []byte(b.String())} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("wrote %s/%s.{txt,cpuprofile}\n%s", dir, p.name, b.String())
}

func TestGoPackage(t *testing.T) {
	for sym, want := range map[string]string{
		"reconcile_engine_sim.__Sim_.handle": "reconcile_engine_sim",
		"runtime.mallocgc":                   "runtime",
		"reconcile_engine_pmap.__Map_go.shape.interface___Meta____reconcile_engine_api.ObjectMeta____.Get": "reconcile_engine_pmap",
		"crypto_internal_fips140_sha256.blockGeneric":                                                      "crypto_internal_fips140_sha256",
		"gopkg.in_yaml.v3.__parser_.parse":                                                                 "gopkg.in_yaml.v3",
		"github.com_a_b.F":                                                                                 "github.com_a_b",
		"(garbage collector)":                                                                              "(garbage collector)",
		"nanotime1 (js wasm_exec.js)":                                                                      "nanotime1 (js wasm_exec.js)",
		"type_.eq.reconcile_engine_api.Ref":                                                                "type_",
	} {
		if got := goPackage(sym); got != want {
			t.Errorf("goPackage(%q) = %q, want %q", sym, got, want)
		}
	}
}

// TestEngineAB converges the scale scenario on the engine pages of two or
// more builds of bench/inbrowser in turn, without the profiler, and logs
// the median of each: an A/B in the same minutes. $WASMPROF_AB names the
// builds' directories, comma-separated (default: bench-results/inbrowser
// and bench-results/prof-inbrowser), $WASMPROF_RUNS the converges of each
// (default 3). A directory may carry more of the page's query after a "?"
// (dir?gogc=400: bench/inbrowser's index.html passes GOGC to the program).
func TestEngineAB(t *testing.T) {
	dirs := strings.Split(cmp.Or(os.Getenv("WASMPROF_AB"), benchPath("inbrowser")+","+benchPath("prof-inbrowser")), ",")
	runs := 3
	if v, err := strconv.Atoi(os.Getenv("WASMPROF_RUNS")); err == nil && v > 0 {
		runs = v
	}
	// A directory may carry more of the page's query: dir?gogc=400.
	bases, extra := make([]string, len(dirs)), make([]string, len(dirs))
	for i, d := range dirs {
		d, extra[i], _ = strings.Cut(d, "?")
		bases[i] = benchServe(t, d)
	}
	millis, cpus := make([][]float64, len(dirs)), make([][]float64, len(dirs))
	for r := 0; r < runs; r++ {
		for i, base := range bases {
			ctx := browser(t)
			if err := probeNavigate(ctx, time.Minute, base+"/?runs=1&trace=0&"+extra[i]); err != nil {
				t.Fatal(err)
			}
			if err := probeWait(ctx, 5*time.Minute, `window.benchResult !== undefined`); err != nil {
				t.Fatal(err)
			}
			s, err := probeEval[string](ctx, 10*time.Second, `window.benchResult`)
			if err != nil {
				t.Fatal(err)
			}
			var rep scale.Report
			if err := json.Unmarshal([]byte(s), &rep); err != nil || rep.Error != "" || len(rep.Converge) != 1 {
				t.Fatalf("%s: %v %s", dirs[i], err, s)
			}
			wasmMem, _ := probeEval[float64](ctx, 10*time.Second, `window.benchMemory ? window.benchMemory.buffer.byteLength : 0`)
			cpu := rendererMainCPU(ctx)
			c := rep.Converge[0]
			millis[i] = append(millis[i], c.Millis)
			cpus[i] = append(cpus[i], cpu.Seconds()*1000)
			t.Logf("%s: %d passes in %.0f ms (%.0f passes/s), %d GCs, live heap %s, wasm memory %s, digest %.0f ms; the page's thread: CPU %s",
				dirs[i], c.Passes, c.Millis, c.PassesPerSecond, rep.Memory.NumGC, benchMB(float64(rep.Memory.HeapAlloc)), benchMB(wasmMem), rep.DigestMillis, cpu)
			_ = chromedp.Cancel(ctx) // the next page gets the machine
		}
	}
	for i, d := range dirs {
		t.Logf("%s: converge median %.0f ms of %v; the page thread's CPU, median %.0f ms of %v", d, benchMedian(millis[i]), millis[i], benchMedian(cpus[i]), cpus[i])
	}
}

// rendererMainCPU is the CPU time (user and system) of the main thread of
// the busiest renderer process of the tab's browser: the thread the page's
// JavaScript and WebAssembly run on, whatever else the machine does. Its
// resolution is the kernel's clock tick (10 ms).
func rendererMainCPU(ctx context.Context) time.Duration {
	c := chromedp.FromContext(ctx)
	if c == nil || c.Browser == nil || c.Browser.Process() == nil {
		return 0
	}
	browserPid := c.Browser.Process().Pid
	entries, _ := os.ReadDir("/proc")
	var best time.Duration
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmd, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if !strings.Contains(string(cmd), "--type=renderer") || !profileUnder(pid, browserPid) {
			continue
		}
		best = max(best, threadCPU(pid, pid))
	}
	return best
}

// profileStatFields are the fields of /proc/PID[/task/TID]/stat after the
// command's name (which may hold spaces): state is [0], ppid [1], utime
// [11], stime [12].
func profileStatFields(path string) []string {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return nil
	}
	return strings.Fields(s[i+1:])
}

func profileUnder(pid, ancestor int) bool {
	for i := 0; i < 64 && pid > 1; i++ {
		f := profileStatFields(fmt.Sprintf("/proc/%d/stat", pid))
		if len(f) < 2 {
			return false
		}
		if pid, _ = strconv.Atoi(f[1]); pid == ancestor {
			return true
		}
	}
	return false
}

// threadCPU is a thread's time on a CPU: from its schedstat (ns) where the
// kernel keeps one, else its user and system time (clock ticks of 10 ms).
func threadCPU(pid, tid int) time.Duration {
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/schedstat", pid, tid)); err == nil {
		if f := strings.Fields(string(b)); len(f) > 0 {
			if ns, err := strconv.ParseInt(f[0], 10, 64); err == nil {
				return time.Duration(ns)
			}
		}
	}
	f := profileStatFields(fmt.Sprintf("/proc/%d/task/%d/stat", pid, tid))
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseInt(f[11], 10, 64)
	s, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(u+s) * 10 * time.Millisecond
}

// TestCatchUpAB opens the scale scenario's deep link (?pass=30000) on the
// scale sites of two or more builds in turn, without the profiler, and
// logs when the catch-up's progress showed, when the pass showed, the
// catch-up's rate in passes a second between the two, and the page
// thread's CPU time: an A/B in the same minutes. $WASMPROF_SITES names the
// sites' directories, comma-separated (default bench-results/scale, what
// make bench builds), $WASMPROF_RUNS the opens of each (default 3).
func TestCatchUpAB(t *testing.T) {
	dirs := strings.Split(cmp.Or(os.Getenv("WASMPROF_SITES"), benchPath("scale")), ",")
	runs := 3
	if v, err := strconv.Atoi(os.Getenv("WASMPROF_RUNS")); err == nil && v > 0 {
		runs = v
	}
	// $WASMPROF_PASS opens another pass (one between two snapshots).
	pass := scalePass
	if v, err := strconv.Atoi(os.Getenv("WASMPROF_PASS")); err == nil && v > 0 {
		pass = v
	}
	bases := make([]string, len(dirs))
	for i, d := range dirs {
		bases[i] = benchServe(t, d)
	}
	shown, rates, cpus := make([][]float64, len(dirs)), make([][]float64, len(dirs)), make([][]float64, len(dirs))
	for r := 0; r < runs; r++ {
		for i, base := range bases {
			ctx := probedTab(t, false)
			if err := probeNavigate(ctx, time.Minute, fmt.Sprintf("%s/s/%s?pass=%d", base, scale.ID, pass)); err != nil {
				t.Fatal(err)
			}
			if err := probeWait(ctx, 5*time.Minute, benchReadyJS+fmt.Sprintf(
				` && /\bPass %d\b/.test((document.querySelector('[role="status"]') || {}).textContent || "")`, pass)); err != nil {
				t.Fatal(err)
			}
			d, err := benchDeepLinkOf(ctx, pass)
			if err != nil {
				t.Fatal(err)
			}
			if lt, err := probeEval[[][2]float64](ctx, 10*time.Second, `window.__bench.longTasks.slice().sort((a, b) => b[1] - a[1]).slice(0, 6)`); err == nil {
				t.Logf("%s: the longest tasks, [start, ms]: %v", dirs[i], lt)
			}
			// The progress shows after the first slice: the passes it
			// computed are not timed (a few hundred at most).
			rate := 0.0
			if d.Progress > 0 {
				rate = float64(pass) / ((d.Shown - d.Progress) / 1000)
			}
			cpu := rendererMainCPU(ctx)
			shown[i], rates[i], cpus[i] = append(shown[i], d.Shown), append(rates[i], rate), append(cpus[i], cpu.Seconds()*1000)
			t.Logf("%s: pass %d shown at %.0f ms, the progress at %.0f ms: %.0f passes/s; longest task %.0f ms while computing; the page thread's CPU %s",
				dirs[i], pass, d.Shown, d.Progress, rate, d.LongestComputing, cpu)
			_ = chromedp.Cancel(ctx)
		}
	}
	for i, d := range dirs {
		t.Logf("%s: shown, median %.0f ms of %v; rate, median %.0f passes/s; the page thread's CPU, median %.0f ms of %v",
			d, benchMedian(shown[i]), shown[i], benchMedian(rates[i]), benchMedian(cpus[i]), cpus[i])
	}
}

// TestProfileClicks profiles the player while make bench's clicks on Next
// pass run through the largest lesson (the scale site of make
// profile-wasm holds every lesson): where a click's time goes in the page,
// Go's and the browser's own. With $WASMPROF_PHONE set, on the phone of
// the budgets (bench_phone_test.go: 390×844, the CPU 4× slower).
func TestProfileClicks(t *testing.T) {
	id, _, _, err := benchLargestLesson()
	if err != nil {
		t.Fatal(err)
	}
	url := benchServe(t, benchPath("prof-scale")) + "/s/" + id
	ctx := probedTab(t, false)
	name := "clicks"
	if os.Getenv("WASMPROF_PHONE") != "" { // the phone of the budgets
		if err := phoneEmulate(ctx, benchNet{}); err != nil {
			t.Fatal(err)
		}
		name = "clicks-phone"
	}
	if err := probeNavigate(ctx, time.Minute, url); err != nil {
		t.Fatal(err)
	}
	if err := probeWait(ctx, time.Minute, benchReadyJS); err != nil {
		t.Fatal(err)
	}
	interval := int64(200)
	startProfiler(t, ctx, interval)
	t0 := time.Now()
	r, err := benchClicks(ctx, clicks, clickCap)
	if err != nil {
		t.Fatal(err)
	}
	wall := time.Since(t0)
	p := &profiled{name: name, ctx: ctx, prof: stopProfiler(t, ctx), wall: wall, notes: []string{
		fmt.Sprintf("%s: %d clicks on Next pass in %s (a frame between clicks), sampled every %d µs; click → DOM median %.1f ms, p95 %.1f ms",
			url, len(r.Times), wall.Round(time.Millisecond), interval, scale.Quantile(r.Times, 0.5), scale.Quantile(r.Times, 0.95))}}
	p.write(t)
}

// TestProfileStart profiles a learner's first visit: a fresh profile (cold:
// nothing cached) opens the default lesson, and the probe clicks Next pass
// as soon as the loader is gone, as make bench's time to interactive does;
// the profile runs from navigation until the status says Pass 1 (make
// profile-wasm builds the site, with its names, into
// bench-results/prof-site; $WASMPROF_SITE names another). Its notes give
// the probe's marks: where the cold time to interactive goes.
func TestProfileStart(t *testing.T) {
	dir := cmp.Or(os.Getenv("WASMPROF_SITE"), benchPath("prof-site"))
	url := benchServe(t, dir) + "/s/" + scenarios.Default
	ctx := probedTab(t, true)
	p := profilePage(t, "start", url, ctx, `window.__bench.marks.interactive !== undefined`)
	if m, err := probeEval[benchMarks](ctx, 10*time.Second, benchMarksJS); err == nil && m.Marks.Interactive != nil {
		note := fmt.Sprintf("the probe's marks: instantiated %s, loader gone %s, interactive %s (%d clicks)",
			benchMsOf(m.Marks.Instantiated), benchMsOf(m.Marks.LoaderGone), benchMsOf(m.Marks.Interactive), m.Clicks)
		t.Log(note)
		p.notes = append(p.notes, note)
	}
	p.write(t)
}
