//go:build browser && !wasm

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"reconcile/scenarios"
)

// probeJS runs in every page of a probed tab before the page's own
// scripts. It records in window.__bench, on performance.now()'s clock (zero
// at navigation):
//
//   - marks: when the loader was first seen (loader) and removed
//     (loaderGone), when an h1 with text was in the document (title) and
//     painted (titlePainted, a frame later), when the role=status element
//     first said "Pass 1" or later (interactive), when the binary was
//     instantiated (instantiated);
//   - progress: every text the loader's label showed, in order;
//   - timers, intervals, frames: how many setTimeout, setInterval and
//     requestAnimationFrame calls the page made (the probe's own calls are
//     not counted);
//   - mem: the WebAssembly memory of the Go program;
//   - passAt: when the status first said "Pass N", by N; catchUp (a mark):
//     when the progress of a deep link far into a run was first shown;
//   - longTasks: the browser's long tasks (over 50 ms), [start, duration].
//     A task is the page's thread busy: input and paint wait for it.
//
// With autoClick set, once the loader is gone it clicks "Next pass" every
// 4 ms until the status says "Pass 1" or later: the moment the page becomes
// interactive.
const probeJS = `(() => {
  if (window.__bench) return;
  const B = window.__bench = {marks: {}, progress: [], clicks: 0, timers: 0, intervals: 0, frames: 0, mem: null, passAt: {}, longTasks: []};
  const st = window.setTimeout.bind(window), si = window.setInterval.bind(window), raf = window.requestAnimationFrame.bind(window);
  window.setTimeout = function (...a) { B.timers++; return st(...a); };
  window.setInterval = function (...a) { B.intervals++; return si(...a); };
  window.requestAnimationFrame = function (...a) { B.frames++; return raf(...a); };
  const mark = (k) => { if (B.marks[k] === undefined) { B.marks[k] = performance.now(); performance.mark("bench:" + k); } };
  const check = () => {
    const loader = document.getElementById("app-wasm-loader");
    if (loader) mark("loader");
    const label = document.getElementById("app-wasm-loader-label");
    if (label) {
      const t = label.textContent;
      if (B.progress[B.progress.length - 1] !== t) B.progress.push(t);
    }
    if (B.marks.loader !== undefined && !loader) mark("loaderGone");
    const h1 = document.querySelector("h1");
    if (h1 && h1.textContent.trim() && B.marks.title === undefined) {
      mark("title");
      raf(() => st(() => mark("titlePainted"), 0));
    }
    const status = document.querySelector('[role="status"]');
    if (status && /\bPass [1-9]/.test(status.textContent)) mark("interactive");
    const shown = status && /\bPass (\d+)/.exec(status.textContent);
    if (shown && B.passAt[shown[1]] === undefined) B.passAt[shown[1]] = performance.now();
    if (document.querySelector(".catch-up progress")) mark("catchUp");
  };
  if (window.PerformanceObserver && (PerformanceObserver.supportedEntryTypes || []).includes("longtask")) {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) B.longTasks.push([e.startTime, e.duration]);
    }).observe({type: "longtask", buffered: true});
  }
  new MutationObserver(check).observe(document, {childList: true, subtree: true, characterData: true});
  const instantiate = WebAssembly.instantiateStreaming;
  if (instantiate) {
    WebAssembly.instantiateStreaming = async function (...a) {
      const r = await instantiate.apply(WebAssembly, a);
      B.mem = r.instance.exports.mem || null;
      mark("instantiated");
      return r;
    };
  }
  if (AUTO_CLICK) {
    const tick = () => {
      if (B.marks.interactive !== undefined) return;
      if (B.marks.loaderGone !== undefined) {
        const buttons = [...document.querySelectorAll("button")];
        // A lesson that asks before its first pass: skip the question,
        // which runs the pass.
        const next = buttons.find((b) => b.textContent.trim() === "Skip the question") ||
          buttons.find((b) => b.textContent.trim() === "Next pass");
        if (next && !next.disabled) { B.clicks++; next.click(); }
        check();
      }
      st(tick, 4);
    };
    tick();
  }
})();`

// probeScript returns probeJS, clicking or not.
func probeScript(autoClick bool) string {
	return strings.Replace(probeJS, "AUTO_CLICK", strconv.FormatBool(autoClick), 1)
}

// probedTab starts a Chromium with a fresh profile whose pages run the probe.
func probedTab(t *testing.T, autoClick bool) context.Context {
	t.Helper()
	ctx := browser(t)
	if _, err := probeCall(ctx, 10*time.Second, page.AddScriptToEvaluateOnNewDocument,
		page.AddScriptToEvaluateOnNewDocumentParams{Source: probeScript(autoClick)}); err != nil {
		t.Fatalf("installing the probe: %v", err)
	}
	return ctx
}

// probeCall sends one protocol command to the tab, within d.
func probeCall[P, R any](ctx context.Context, d time.Duration, cmd cdp.Command[P, R], params P) (R, error) {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	return chromedp.Call(ctx, cmd, params)
}

// probeEval evaluates expression in the page, within d; a promise is awaited.
func probeEval[T any](ctx context.Context, d time.Duration, expression string) (T, error) {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	return chromedp.Run(ctx, chromedp.Evaluate[T](expression, chromedp.EvalAwaitPromise))
}

// probeNavigate opens url in the tab, within d.
func probeNavigate(ctx context.Context, d time.Duration, url string) error {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	return chromedp.Do(ctx, chromedp.Navigate(url))
}

// probeWait polls the page every 25 ms until expression is true, for at most d.
// A page busy in a long task does not answer: that is waited out too.
func probeWait(ctx context.Context, d time.Duration, expression string) error {
	deadline := time.Now().Add(d)
	var last error
	for time.Now().Before(deadline) {
		ok, err := probeEval[bool](ctx, min(10*time.Second, time.Until(deadline)+time.Millisecond), expression)
		if err == nil && ok {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		last = err
		time.Sleep(25 * time.Millisecond)
	}
	if last != nil {
		return fmt.Errorf("waited %s for %s (last error: %v)", d, expression, last)
	}
	return fmt.Errorf("waited %s for %s", d, expression)
}

// acceptingServer serves dir as -serve does to clients that accept only the
// encoding accept ("" for none), and records how app.wasm went out.
type acceptingServer struct {
	URL string
	mu  sync.Mutex
	enc []string // Content-Encoding of each app.wasm response ("" for none)
}

func serveAccepting(t *testing.T, dir, accept string) *acceptingServer {
	t.Helper()
	s := &acceptingServer{}
	h := siteHandler(dir)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if accept == "" {
			r.Header.Del("Accept-Encoding")
		} else {
			r.Header.Set("Accept-Encoding", accept)
		}
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		h.ServeHTTP(sw, r)
		// Only a whole answer says how the file was served: an error (a
		// request the browser gave up, a range it no longer wants) carries
		// no Content-Encoding.
		if strings.HasSuffix(r.URL.Path, "/app.wasm") && sw.status == http.StatusOK {
			s.mu.Lock()
			s.enc = append(s.enc, w.Header().Get("Content-Encoding"))
			s.mu.Unlock()
		}
	}))
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

// statusWriter remembers the status of a response.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

func (s *acceptingServer) encodings() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.enc...)
}

// progressRun is what the loader showed during one load.
type progressRun struct {
	Encoding string   // how app.wasm was served
	Labels   []string // every text of the loader's label
	Percents []int
}

var percentRE = regexp.MustCompile(`(\d+)%`)

// check reports what is wrong with the progress shown: it must only grow,
// never pass 100 and end at 100 before the loader goes.
func (p progressRun) check() error {
	if len(p.Percents) == 0 {
		return fmt.Errorf("the loader showed no progress (labels %q)", p.Labels)
	}
	for i, v := range p.Percents {
		if v > 100 {
			return fmt.Errorf("progress reached %d%% (labels %q)", v, p.Labels)
		}
		if i > 0 && v < p.Percents[i-1] {
			return fmt.Errorf("progress went back from %d%% to %d%% (labels %q)", p.Percents[i-1], v, p.Labels)
		}
	}
	if last := p.Percents[len(p.Percents)-1]; last != 100 {
		return fmt.Errorf("the loader went at %d%%, not 100%% (labels %q)", last, p.Labels)
	}
	return nil
}

// loaderProgress loads the default lesson of the site in dir, served to a
// browser that accepts only accept, in a fresh Chromium, and returns what
// its loader showed.
func loaderProgress(t *testing.T, dir, accept string) progressRun {
	t.Helper()
	srv := serveAccepting(t, dir, accept)
	ctx := probedTab(t, false)
	if err := probeNavigate(ctx, time.Minute, srv.URL+"/s/"+scenarios.Default); err != nil {
		t.Fatalf("opening the lesson: %v", err)
	}
	if err := probeWait(ctx, time.Minute, `window.__bench.marks.loaderGone !== undefined`); err != nil {
		labels, _ := probeEval[[]string](ctx, 10*time.Second, `window.__bench.progress`)
		t.Fatalf("the loader did not go (app.wasm served with encodings %q; the loader said %q): %v", srv.encodings(), labels, err)
	}
	raw, err := probeEval[json.RawMessage](ctx, 10*time.Second, `window.__bench.progress`)
	if err != nil {
		t.Fatalf("reading the progress: %v", err)
	}
	var run progressRun
	if err := json.Unmarshal(raw, &run.Labels); err != nil {
		t.Fatal(err)
	}
	for _, l := range run.Labels {
		if m := percentRE.FindStringSubmatch(l); m != nil {
			n, _ := strconv.Atoi(m[1])
			run.Percents = append(run.Percents, n)
		}
	}
	if enc := srv.encodings(); len(enc) > 0 {
		run.Encoding = enc[0]
	}
	return run
}

// loaderModes are the three ways app.wasm can be served: brotli, gzip, or
// as is. Each is what a browser that accepts only that gets.
var loaderModes = []struct{ name, accept, want string }{
	{"brotli", "br", "br"},
	{"gzip", "gzip", "gzip"},
	{"neither", "", ""},
}

// TestBrowserLoaderProgress checks that the loader's progress is true
// whichever file is served: app.wasm.br, app.wasm.gz or app.wasm.
func TestBrowserLoaderProgress(t *testing.T) {
	for _, m := range loaderModes {
		t.Run(m.name, func(t *testing.T) {
			run := loaderProgress(t, siteDir, m.accept)
			if run.Encoding != m.want {
				t.Errorf("app.wasm was served with Content-Encoding %q, want %q", run.Encoding, m.want)
			}
			if err := run.check(); err != nil {
				t.Error(err)
			}
			t.Logf("%s: %d steps of progress: %v", m.name, len(run.Percents), run.Percents)
		})
	}
}
