//go:build browser && !wasm

// The browser tests drive the generated site (make build) in headless
// Chromium from the distribution's packages. Run them with
//
//	make test                       # or, after make build:
//	go test -tags browser -v -run Browser ./wasm
//
// Without Chromium they skip with a notice, unless REQUIRE_BROWSER=1.
// Screenshots go to test-artifacts/.
package main

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"reconcile/engine/sim"
	"reconcile/scenarios"
)

const (
	siteDir      = "../dist"
	artifactsDir = "../test-artifacts"
	axeScript    = "../node_modules/axe-core/axe.min.js"
)

// mustHave skips the test with a loud notice, or fails it when
// REQUIRE_BROWSER=1, when something the browser tests need is missing.
func mustHave(t *testing.T, what string, err error) {
	t.Helper()
	if err == nil {
		return
	}
	msg := fmt.Sprintf("BROWSER TESTS NOT RUN: %s: %v", what, err)
	if os.Getenv("REQUIRE_BROWSER") == "1" {
		t.Fatal(msg + " (REQUIRE_BROWSER=1)")
	}
	fmt.Fprintf(os.Stderr, "\n*** %s ***\n\n", msg)
	t.Skip(msg)
}

// findChromium finds the distribution's Chromium; it never downloads one.
func findChromium() (string, error) {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p, nil
	}
	for _, name := range []string{"chromium", "chromium-browser", "/usr/bin/chromium"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errors.New("no chromium on PATH (apt-get install chromium)")
}

// browser starts a headless Chromium with a fresh profile and returns a tab.
func browser(t *testing.T) context.Context {
	t.Helper()
	path, err := findChromium()
	mustHave(t, "Chromium", err)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.WindowSize(1280, 900),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(cancel)
	ctx, cancelTimeout := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(cancelTimeout)
	if err := chromedp.Do(ctx); err != nil { // start the browser
		mustHave(t, "starting Chromium", err)
	}
	return ctx
}

// site serves dist/ the way -serve does, on a random local port.
func site(t *testing.T) string {
	t.Helper()
	_, err := os.Stat(filepath.Join(siteDir, "index.html"))
	mustHave(t, "the generated site (run make build)", err)
	srv := httptest.NewServer(siteHandler(siteDir))
	t.Cleanup(srv.Close)
	return srv.URL
}

func do(t *testing.T, ctx context.Context, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

func run[T any](t *testing.T, ctx context.Context, what string, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return v
}

// open navigates to url and waits until go-app has loaded the binary and
// removed its loader.
func open(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	do(t, ctx, "opening "+url,
		chromedp.Navigate(url),
		chromedp.WaitNotPresent(chromedp.CSS("#app-wasm-loader")),
	)
}

func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	png := run(t, ctx, "screenshot "+name, chromedp.FullScreenshot(100))
	if err := os.MkdirAll(artifactsDir, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(artifactsDir, name+".png")
	if err := os.WriteFile(file, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", file)
}

// button selects a button by its accessible text, as outside checks do.
func button(name string) chromedp.Search {
	return chromedp.Search(fmt.Sprintf(`//button[normalize-space(.)=%q]`, name))
}

// waitStatus waits until the role=status element says "Pass n".
func waitStatus(t *testing.T, ctx context.Context, n int) string {
	t.Helper()
	re := regexp.MustCompile(`\bPass ` + strconv.Itoa(n) + `\b`)
	deadline := time.Now().Add(15 * time.Second)
	var last string
	for time.Now().Before(deadline) {
		last = run(t, ctx, "reading the status", chromedp.Evaluate[string](
			`(document.querySelector('[role="status"]') || {}).textContent || ""`))
		if re.MatchString(last) {
			return last
		}
		time.Sleep(50 * time.Millisecond)
	}
	alert := run(t, ctx, "reading the alert", chromedp.Evaluate[string](
		`(document.querySelector('[role="alert"]') || {}).textContent || ""`))
	t.Fatalf(`status = %q, want "Pass %d" (alert: %q)`, last, n, alert)
	return ""
}

func noAlert(t *testing.T, ctx context.Context) {
	t.Helper()
	if alert := run(t, ctx, "reading the alert", chromedp.Evaluate[string](
		`(document.querySelector('[role="alert"]') || {}).textContent || ""`)); alert != "" {
		t.Errorf("the page shows an alert: %q", alert)
	}
}

// axeCheck runs axe-core (pinned in package.json) on the page and fails on
// serious or critical violations.
func axeCheck(t *testing.T, ctx context.Context, view string) {
	t.Helper()
	src, err := os.ReadFile(axeScript)
	if err != nil {
		if os.Getenv("REQUIRE_BROWSER") == "1" {
			t.Fatalf("axe-core is missing (npm ci): %v", err)
		}
		t.Logf("NOTICE: axe-core not installed (npm ci), accessibility check of %s skipped", view)
		return
	}
	do(t, ctx, "loading axe-core", chromedp.Evaluate[chromedp.Void](string(src)))
	type violation struct {
		ID, Impact, Help string
		Nodes            []string
	}
	got := run(t, ctx, "running axe-core", chromedp.Evaluate[[]violation](`
		axe.run(document, {resultTypes: ["violations"]}).then(r => r.violations.map(v => ({
			ID: v.id, Impact: v.impact || "", Help: v.help,
			Nodes: v.nodes.map(n => n.target.join(" ")),
		})))`, chromedp.EvalAwaitPromise))
	for _, v := range got {
		msg := fmt.Sprintf("axe %s (%s) on %s: %s at %s", v.ID, v.Impact, view, v.Help, strings.Join(v.Nodes, ", "))
		if v.Impact == "serious" || v.Impact == "critical" {
			t.Error(msg)
		} else {
			t.Log(msg)
		}
	}
}

// nativeDigest runs the bundled scenario id natively for n passes.
func nativeDigest(t *testing.T, id string, n int) string {
	t.Helper()
	sc, err := scenarios.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.New(sc, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		if _, ok := s.Next(); !ok {
			t.Fatalf("%s ends after %d passes, want at least %d", id, i, n)
		}
	}
	return s.Digest()
}

func TestBrowser(t *testing.T) {
	base := site(t)
	ctx := browser(t)

	// Uncaught exceptions fail the test; the rest of the console is logged.
	var (
		mu       sync.Mutex
		messages []chromedp.ConsoleMessage
	)
	console := chromedp.Console(ctx)
	go func() {
		for m, err := range console {
			if err != nil {
				return
			}
			mu.Lock()
			messages = append(messages, m)
			mu.Unlock()
		}
	}()
	defer func() {
		mu.Lock()
		defer mu.Unlock()
		for _, m := range messages {
			if m.IsException() || strings.HasPrefix(m.Text, "panic: ") {
				t.Errorf("the page crashed: %s", m)
			} else {
				t.Logf("console: %s", m)
			}
		}
	}()

	t.Run("home", func(t *testing.T) {
		open(t, ctx, base+"/")
		h1 := run(t, ctx, "reading the title", chromedp.Text(chromedp.CSS("h1")))
		if !strings.Contains(h1, "loop") {
			t.Errorf("home h1 = %q", h1)
		}
		n := run(t, ctx, "counting lessons", chromedp.Evaluate[int](
			`document.querySelectorAll('#lessons a[href^="/s/"]').length`))
		if want := len(scenarios.IDs()); n != want {
			t.Errorf("home lists %d lessons, want %d", n, want)
		}
		noAlert(t, ctx)
		screenshot(t, ctx, "home")
		axeCheck(t, ctx, "/")

		// Following a lesson link navigates inside the app.
		do(t, ctx, "following the first lesson link", chromedp.Click(chromedp.CSS(`#lessons a[href^="/s/"]`)))
		waitStatus(t, ctx, 0)
		if h1 := run(t, ctx, "reading the lesson title", chromedp.Text(chromedp.CSS("h1"))); h1 == "" || strings.Contains(h1, "No such") {
			t.Errorf("after following the lesson link the page title is %q", h1)
		}
		noAlert(t, ctx)
	})

	id := scenarios.Default
	player := base + "/s/" + id

	t.Run("player", func(t *testing.T) {
		open(t, ctx, player)
		waitStatus(t, ctx, 0)
		noAlert(t, ctx)
		screenshot(t, ctx, "player-pass-0")
		for i := 1; i <= 3; i++ {
			do(t, ctx, "clicking Next pass", chromedp.Click(button("Next pass")))
			waitStatus(t, ctx, i)
		}
		if n := run(t, ctx, "counting the pass log", chromedp.Evaluate[int](
			`document.querySelectorAll('.log ol li').length`)); n != 3 {
			t.Errorf("pass log has %d entries at pass 3, want 3", n)
		}
		screenshot(t, ctx, "player-pass-3")
		axeCheck(t, ctx, "/s/"+id)

		do(t, ctx, "clicking Previous pass", chromedp.Click(button("Previous pass")))
		waitStatus(t, ctx, 2)
		digest := run(t, ctx, "reading the digest", chromedp.AttributeValue(chromedp.CSS("[data-digest]"), "data-digest"))
		if want := nativeDigest(t, id, 2); digest.Value != want {
			t.Errorf("digest at pass 2 in the browser = %q, natively = %q", digest.Value, want)
		}
		noAlert(t, ctx)
	})

	t.Run("prerendered", func(t *testing.T) {
		// ?wasm=false makes go-app skip the binary: what shows is what a
		// learner reads while app.wasm is still loading.
		open(t, ctx, player+"?wasm=false")
		sc, err := scenarios.Load(id)
		if err != nil {
			t.Fatal(err)
		}
		text := run(t, ctx, "reading the page", chromedp.Text(chromedp.CSS("main")))
		summary := strings.Fields(sc.Summary)
		for _, want := range []string{sc.Title, strings.Join(summary[:min(8, len(summary))], " "), "Pass 0"} {
			if !strings.Contains(strings.Join(strings.Fields(text), " "), want) {
				t.Errorf("before app.wasm runs the player lacks %q", want)
			}
		}
		screenshot(t, ctx, "player-prerendered")
	})

	t.Run("keyboard", func(t *testing.T) {
		open(t, ctx, player)
		waitStatus(t, ctx, 0)
		do(t, ctx, "pressing →", chromedp.KeyEvent(kb.ArrowRight))
		waitStatus(t, ctx, 1)
		do(t, ctx, "pressing → twice", chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowRight))
		waitStatus(t, ctx, 3)
		do(t, ctx, "pressing ←", chromedp.KeyEvent(kb.ArrowLeft))
		waitStatus(t, ctx, 2)
		do(t, ctx, "pressing Home", chromedp.KeyEvent(kb.Home))
		waitStatus(t, ctx, 0)
	})

	t.Run("deep link", func(t *testing.T) {
		open(t, ctx, player+"?pass=4")
		waitStatus(t, ctx, 4)
		if n := run(t, ctx, "counting the pass log", chromedp.Evaluate[int](
			`document.querySelectorAll('.log ol li').length`)); n != 4 {
			t.Errorf("pass log has %d entries at ?pass=4, want 4", n)
		}
	})

	t.Run("narrow and dark", func(t *testing.T) {
		do(t, ctx, "emulating a 360 px phone in dark mode",
			chromedp.EmulateViewport(360, 780),
			chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
				_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
					Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}},
				})
				return err
			}),
		)
		open(t, ctx, player+"?pass=3")
		waitStatus(t, ctx, 3)
		overflow := run(t, ctx, "measuring the page width", chromedp.Evaluate[int](
			`document.documentElement.scrollWidth - document.documentElement.clientWidth`))
		if overflow > 0 {
			t.Errorf("at 360 px the page scrolls sideways by %d px", overflow)
		}
		screenshot(t, ctx, "player-360-dark")
		open(t, ctx, base+"/")
		screenshot(t, ctx, "home-360-dark")
	})
}
