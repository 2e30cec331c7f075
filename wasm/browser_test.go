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
	"html"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"reconcile/engine/api"
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
	if f := os.Getenv("CHROMIUM_JS_FLAGS"); f != "" {
		opts = append(opts, chromedp.Flag("js-flags", f))
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(cancel)
	ctx, cancelTimeout := context.WithTimeout(ctx, 8*time.Minute)
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
//
// A lesson opened at its start draws what is below the stage a group at a
// time when the browser is idle (Player.holdLater): open also waits until
// every group is drawn, so what a test reads next is on the page however
// busy the machine is.
func open(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	do(t, ctx, "opening "+url,
		chromedp.Navigate(url),
		chromedp.WaitNotPresent(chromedp.CSS("#app-wasm-loader")),
	)
	poll(t, ctx, "the page below the stage is drawn", `document.querySelector(".later") == null`, 15*time.Second)
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
	return waitStatusWithin(t, ctx, n, 15*time.Second)
}

// waitStatusWithin waits up to d until the role=status element says
// "Pass n" and no part of the page is still reading it (aria-busy: the
// inspector is read when the browser is idle after a step, and what it
// draws moves what is below it, so a click there waits for it).
func waitStatusWithin(t *testing.T, ctx context.Context, n int, d time.Duration) string {
	t.Helper()
	re := regexp.MustCompile(`\bPass ` + strconv.Itoa(n) + `\b`)
	deadline := time.Now().Add(d)
	var last string
	busy := false
	for time.Now().Before(deadline) {
		last = run(t, ctx, "reading the status", chromedp.Evaluate[string](
			`(document.querySelector('[role="status"]') || {}).textContent || ""`))
		if re.MatchString(last) {
			busy = run(t, ctx, "reading what is busy", chromedp.Evaluate[bool](
				`document.querySelector('[aria-busy="true"]') != null`))
			if !busy {
				return last
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	alert := run(t, ctx, "reading the alert", chromedp.Evaluate[string](
		`(document.querySelector('[role="alert"]') || {}).textContent || ""`))
	t.Fatalf(`status = %q, want "Pass %d" with nothing busy (busy: %v; alert: %q)`, last, n, busy, alert)
	return ""
}

// nextPass presses Next pass and waits for pass n; when the lesson asks
// the learner to predict the pass first, it skips the question.
func nextPass(t *testing.T, ctx context.Context, n int) {
	t.Helper()
	clickButton(t, ctx, "Next pass")
	if questionOrPass(t, ctx, n) {
		clickButton(t, ctx, "Skip the question")
	}
	waitStatus(t, ctx, n)
}

// questionOrPass waits until the page shows pass n or a question before
// it, and reports whether it is a question.
func questionOrPass(t *testing.T, ctx context.Context, n int) bool {
	t.Helper()
	poll(t, ctx, fmt.Sprintf("pass %d or a question", n), fmt.Sprintf(`document.querySelector(".now.predict") != null ||
		/\bPass %d\b/.test(document.querySelector('[role="status"]').textContent)`, n), 15*time.Second)
	return eval[bool](t, ctx, "looking for a question", `document.querySelector(".now.predict") != null`)
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
	// The page as it settles: a pod that has just appeared fades in
	// (0.45 s), and its text read mid-animation fails the contrast check.
	got := run(t, ctx, "running axe-core", chromedp.Evaluate[[]violation](`
		Promise.all(document.getAnimations()
			.filter(a => a.effect && a.effect.getComputedTiming().endTime !== Infinity)
			.map(a => a.finished.catch(() => null)))
		.then(() => axe.run(document, {resultTypes: ["violations"]})).then(r => r.violations.map(v => ({
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

// nativeDigest runs the bundled scenario id natively to pass n, the way the
// CLI does, then on to the simulated time at (when not empty) without
// another pass, and returns the trace digest.
func nativeDigest(t *testing.T, id string, n int, at string) string {
	t.Helper()
	sc, err := scenarios.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.New(sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Seek(n); err != nil {
		t.Fatalf("%s: %v", id, err)
	}
	if at != "" {
		d, err := api.ParseDuration(at)
		if err != nil {
			t.Fatal(err)
		}
		s.RunUntil(d, 1)
		if s.PassCount() != n {
			t.Fatalf("%s: a pass runs between pass %d and t=%s", id, n, at)
		}
	}
	return s.Digest()
}

// browserDigest waits for the digest the page computes for pass n.
func browserDigest(t *testing.T, ctx context.Context, n int) string {
	t.Helper()
	poll(t, ctx, fmt.Sprintf("the digest of pass %d", n), fmt.Sprintf(
		`(() => { const e = document.querySelector("[data-digest]"); return e && e.dataset.pass == "%d" && e.dataset.digest != "" })()`, n), 10*time.Second)
	return eval[string](t, ctx, "reading the digest", `document.querySelector("[data-digest]").dataset.digest`)
}

// eval runs a JavaScript expression and returns its value.
func eval[T any](t *testing.T, ctx context.Context, what, expr string) T {
	t.Helper()
	return run(t, ctx, what, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
}

// poll waits until a JavaScript expression is truthy.
func poll(t *testing.T, ctx context.Context, what, expr string, timeout time.Duration) {
	t.Helper()
	end := time.Now().Add(timeout)
	for {
		_, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(time.Until(end)), chromedp.WithPollingInterval(25*time.Millisecond)))
		if err == nil {
			return
		}
		// The document polled in went away under the poll (a page that
		// had just been navigated to, its context not yet the one the
		// browser evaluates in): poll the one there now.
		if strings.Contains(err.Error(), "Cannot find context with specified id") && time.Until(end) > 0 {
			time.Sleep(25 * time.Millisecond)
			continue
		}
		alert := eval[string](t, ctx, "reading the alert", `(document.querySelector('[role="alert"]') || {}).textContent || ""`)
		t.Fatalf("waiting until %s: %v (alert: %q)", what, err, alert)
	}
}

// clickButton clicks the button named name, as a learner would.
func clickButton(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	do(t, ctx, "clicking "+name, chromedp.Click(button(name)))
}

// choose sets a select (or a range input, with event "input") by id and
// tells the page, as the control would.
func choose(t *testing.T, ctx context.Context, id, value, event string) {
	t.Helper()
	eval[bool](t, ctx, "setting #"+id, fmt.Sprintf(`(() => { const e = document.getElementById(%q); e.value = %q;
		e.dispatchEvent(new Event(%q, {bubbles: true})); return true })()`, id, value, event))
}

// text reads the whitespace-normalised text of the first element matching css.
func text(t *testing.T, ctx context.Context, css string) string {
	t.Helper()
	return eval[string](t, ctx, "reading "+css, fmt.Sprintf(
		`((document.querySelector(%q) || {}).textContent || "").replace(/\s+/g, " ").trim()`, css))
}

// labelled reports whether a form control with the given id has a label
// with exactly that text.
func labelled(t *testing.T, ctx context.Context, id, label string) {
	t.Helper()
	got := eval[string](t, ctx, "reading the label of #"+id, fmt.Sprintf(
		`(() => { const e = document.getElementById(%q); return e && e.labels && e.labels[0] ? e.labels[0].textContent.trim() : "" })()`, id))
	if got != label {
		t.Errorf("#%s is labelled %q, want %q", id, got, label)
	}
}

func darkMode(dark bool) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		v := "light"
		if dark {
			v = "dark"
		}
		_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: v}},
		})
		return err
	})
}

// noSidewaysScroll fails when the page is wider than the viewport.
func noSidewaysScroll(t *testing.T, ctx context.Context, view string) {
	t.Helper()
	if overflow := eval[int](t, ctx, "measuring the page width",
		`document.documentElement.scrollWidth - document.documentElement.clientWidth`); overflow > 0 {
		t.Errorf("%s scrolls sideways by %d px", view, overflow)
	}
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
			} else if testing.Verbose() && !strings.Contains(m.Text, "app worker") {
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
		n := eval[int](t, ctx, "counting lessons", `document.querySelectorAll('#lessons a[href^="/s/"]').length`)
		if want := len(scenarios.IDs()); n != want {
			t.Errorf("home lists %d lessons, want %d", n, want)
		}
		for _, href := range []string{"/compare", "/failures"} {
			if eval[int](t, ctx, "finding "+href, fmt.Sprintf(`document.querySelectorAll('main a[href=%q]').length`, href)) == 0 {
				t.Errorf("home does not link to %s", href)
			}
		}
		// The first way in comes first: Start here, then the lessons, then
		// the two other ways in.
		if order := eval[string](t, ctx, "reading the order", `(() => {
			const start = [...document.querySelectorAll("main a")].find(a => a.textContent.trim() == "Start here");
			const lessons = document.getElementById("lessons"), more = document.getElementById("more-title");
			if (!start || !lessons || !more) return "missing: " + [!start && "Start here", !lessons && "the lessons", !more && "Two more ways in"].filter(Boolean).join(", ");
			const after = (a, b) => a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING;
			return after(start, lessons) && after(lessons, more) ? start.getAttribute("href") : "out of order";
		})()`); order != "/s/"+scenarios.Default {
			t.Errorf("home: Start here, the lessons, Two more ways in: %s", order)
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

	// what the diagram and the inspector say, to see them change.
	type look struct{ diagram, inspector string }
	see := func(t *testing.T) look {
		t.Helper()
		return look{
			diagram:   eval[string](t, ctx, "reading the loop", `(document.querySelector('svg.loop desc') || {}).textContent || ""`),
			inspector: text(t, ctx, ".inspector"),
		}
	}

	t.Run("player", func(t *testing.T) {
		open(t, ctx, player)
		waitStatus(t, ctx, 0)
		noAlert(t, ctx)
		screenshot(t, ctx, "player-pass-0")
		for _, c := range []struct{ id, label string }{{"speed", "Speed"}, {"timeline", "Timeline"}, {"fault-verb", "Fault"}, {"fault-target", "Target"}} {
			labelled(t, ctx, c.id, c.label)
		}
		for _, name := range []string{"Reset", "Previous pass", "Play", "Next pass"} {
			if n := eval[int](t, ctx, "finding "+name, fmt.Sprintf(`[...document.querySelectorAll("button")].filter(b => b.textContent.trim() == %q).length`, name)); n != 1 {
				t.Errorf("%d buttons named %q, want 1", n, name)
			}
		}
		looks := []look{see(t)}
		for i := 1; i <= 3; i++ {
			nextPass(t, ctx, i)
			// The stage shows the pass at once, the inspector once the
			// browser is idle.
			poll(t, ctx, fmt.Sprintf("the inspector reads pass %d", i),
				fmt.Sprintf(`document.querySelector(".inspector").textContent.includes("as read after pass %d,")`, i), 5*time.Second)
			looks = append(looks, see(t))
			if !strings.Contains(looks[i].diagram, fmt.Sprintf("Pass %d:", i)) {
				t.Errorf("at pass %d the loop diagram says %q", i, looks[i].diagram)
			}
			if looks[i] == looks[i-1] {
				t.Errorf("Next pass to pass %d left the diagram and the inspector as they were", i)
			}
			if looks[i].inspector == looks[i-1].inspector {
				t.Errorf("Next pass to pass %d left the inspector as it was: %.80s", i, looks[i].inspector)
			}
		}
		if n := eval[int](t, ctx, "counting the pass log", `document.querySelectorAll('.log ol li.pass-line').length`); n != 3 {
			t.Errorf("pass log has %d entries at pass 3, want 3", n)
		}
		screenshot(t, ctx, "player-pass-3")
		axeCheck(t, ctx, "/s/"+id)

		clickButton(t, ctx, "Previous pass")
		waitStatus(t, ctx, 2)
		if got := see(t); got.diagram != looks[2].diagram || got.inspector != looks[2].inspector {
			t.Errorf("Previous pass to pass 2 does not show pass 2 again:\n%+v\nwant\n%+v", got, looks[2])
		}
		if got, want := browserDigest(t, ctx, 2), nativeDigest(t, id, 2, ""); got != want {
			t.Errorf("digest at pass 2 in the browser = %q, natively = %q", got, want)
		}
		noAlert(t, ctx)
	})

	t.Run("timeline and play", func(t *testing.T) {
		open(t, ctx, player)
		waitStatus(t, ctx, 0)
		max := eval[int](t, ctx, "reading the timeline", `+document.getElementById("timeline").max`)
		if max < 20 {
			t.Fatalf("the timeline ends at pass %d", max)
		}
		choose(t, ctx, "timeline", "20", "input")
		waitStatus(t, ctx, 20)
		if got, want := browserDigest(t, ctx, 20), nativeDigest(t, id, 20, ""); got != want {
			t.Errorf("digest at pass 20 in the browser = %q, natively = %q", got, want)
		}
		poll(t, ctx, "the address names pass 20", `location.search == "?pass=20"`, 5*time.Second)
		choose(t, ctx, "timeline", "5", "input")
		waitStatus(t, ctx, 5)

		choose(t, ctx, "speed", "30 passes a second", "change")
		clickButton(t, ctx, "Play")
		poll(t, ctx, "play reaches pass 12", `/Pass (1[2-9]|[2-9]\d)/.test(document.querySelector('[role="status"]').textContent)`, 10*time.Second)
		clickButton(t, ctx, "Pause")
		// The click is handled on the page's next turn: wait until the button
		// says Play, and for a pass already under way to show, before reading.
		poll(t, ctx, "Pause takes effect", `[...document.querySelectorAll("button")].some(b => b.textContent.trim() == "Play")`, 5*time.Second)
		time.Sleep(150 * time.Millisecond)
		paused := text(t, ctx, `[role="status"]`)
		time.Sleep(400 * time.Millisecond)
		if now := text(t, ctx, `[role="status"]`); now != paused {
			t.Errorf("after Pause the run moved on from %q to %q", paused, now)
		}
		// Space plays and pauses too; a hidden page pauses.
		do(t, ctx, "pressing Space", chromedp.KeyEvent(" "))
		poll(t, ctx, "Space starts playing", `[...document.querySelectorAll("button")].some(b => b.textContent.trim() == "Pause")`, 5*time.Second)
		eval[bool](t, ctx, "hiding the page", `(() => { Object.defineProperty(document, "hidden", {value: true, configurable: true});
			document.dispatchEvent(new Event("visibilitychange")); return true })()`)
		poll(t, ctx, "hiding the page pauses", `[...document.querySelectorAll("button")].some(b => b.textContent.trim() == "Play")`, 5*time.Second)
		eval[bool](t, ctx, "showing the page", `(() => { delete document.hidden; return true })()`)
		noAlert(t, ctx)
	})

	t.Run("inspector, faults and embed code", func(t *testing.T) {
		open(t, ctx, player+"?pass=34")
		waitStatus(t, ctx, 34)
		do(t, ctx, "selecting the Deployment", chromedp.Click(chromedp.CSS(`.workloads button.obj`)))
		poll(t, ctx, "the inspector shows the Deployment", `document.querySelector(".inspector h2").textContent.includes("deployment/web")`, 5*time.Second)
		insp := text(t, ctx, ".inspector")
		for _, want := range []string{"1. Has the controller seen my change?", "metadata.generation", "status.observedGeneration",
			"2. What do its conditions say?", "Progressing", "NewReplicaSetAvailable", "3. What do its events say?", "ScalingReplicaSet", "kind: Deployment"} {
			if !strings.Contains(insp, want) {
				t.Errorf("the inspector lacks %q", want)
			}
		}
		screenshot(t, ctx, "player-inspector")

		do(t, ctx, "selecting a pod", chromedp.Click(chromedp.CSS(`button.pod`)))
		poll(t, ctx, "the inspector shows the pod", `document.querySelector(".inspector h2").textContent.includes("pod/")`, 5*time.Second)

		choose(t, ctx, "fault-verb", "delete-pod", "change")
		poll(t, ctx, "the palette offers pods", `document.querySelectorAll("#fault-target option").length == 5`, 5*time.Second)
		clickButton(t, ctx, "Inject")
		poll(t, ctx, "the fault is recorded", `document.querySelector(".history") && document.querySelector(".history").textContent.includes("delete-pod")`, 5*time.Second)
		clickButton(t, ctx, "Next pass")
		waitStatus(t, ctx, 35)
		noAlert(t, ctx)
		digest35 := browserDigest(t, ctx, 35)

		clickButton(t, ctx, "Copy embed code")
		poll(t, ctx, "the embed code is shown", `document.getElementById("embed-code")`, 5*time.Second)
		code := eval[string](t, ctx, "reading the embed code", `document.getElementById("embed-code").value`)
		for _, want := range []string{`<iframe src="` + base + `/s/` + id + `?embed=1&amp;in=`, `&amp;pass=35"`, `loading="lazy"`, `title="`, `height="560"`} {
			if !strings.Contains(code, want) {
				t.Errorf("embed code %s lacks %s", code, want)
			}
		}
		axeCheck(t, ctx, "/s/"+id+" with the inspector, faults and embed code")
		// The code opens the same moment: the fault given, pass 35.
		src := html.UnescapeString(regexp.MustCompile(`src="([^"]*)"`).FindStringSubmatch(code)[1])
		open(t, ctx, strings.Replace(src, "embed=1&", "", 1))
		waitStatus(t, ctx, 35)
		if got := text(t, ctx, ".history"); !strings.Contains(got, "delete-pod") {
			t.Errorf("the embed code's address lost the fault: inputs %q", got)
		}
		if got, want := browserDigest(t, ctx, 35), digest35; got != want {
			t.Errorf("the embed code's moment has digest %s, the page it was copied from %s", got, want)
		}
	})

	t.Run("keyboard", func(t *testing.T) {
		open(t, ctx, player)
		waitStatus(t, ctx, 0)
		do(t, ctx, "pressing →", chromedp.KeyEvent(kb.ArrowRight))
		if questionOrPass(t, ctx, 1) {
			// The lesson asks first: the focus is on the question; Tab goes
			// to the first answer, Enter gives it and runs the pass.
			do(t, ctx, "answering with the keyboard", chromedp.KeyEvent(kb.Tab), chromedp.KeyEvent(kb.Enter))
		}
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
		if n := eval[int](t, ctx, "counting the pass log", `document.querySelectorAll('.log ol li.pass-line').length`); n != 4 {
			t.Errorf("pass log has %d entries at ?pass=4, want 4", n)
		}
	})

	t.Run("prerendered", func(t *testing.T) {
		// ?wasm=false makes go-app skip the binary: what shows is what a
		// learner reads while app.wasm is still loading.
		open(t, ctx, player+"?wasm=false")
		sc, err := scenarios.Load(id)
		if err != nil {
			t.Fatal(err)
		}
		main := text(t, ctx, "main")
		summary := strings.Fields(sc.Summary)
		for _, want := range []string{sc.Title, strings.Join(summary[:min(8, len(summary))], " "), "Pass 0", "Cluster", "Inspector"} {
			if !strings.Contains(main, want) {
				t.Errorf("before app.wasm runs the player lacks %q", want)
			}
		}
		screenshot(t, ctx, "player-prerendered")
		open(t, ctx, base+"/compare?wasm=false")
		if main := text(t, ctx, "main"); !strings.Contains(main, "Edge-triggered") || !strings.Contains(main, "create(desired - observed)") {
			t.Errorf("before app.wasm runs /compare shows %.200q", main)
		}
	})

	// The compare page has its own test: TestBrowserCompare (compare_browser_test.go).

	t.Run("failures", func(t *testing.T) {
		open(t, ctx, base+"/failures")
		heads := eval[[]string](t, ctx, "reading the header cells", `[...document.querySelectorAll("table.failures thead th")].map(th => th.textContent.trim())`)
		if strings.Join(heads, ",") != "Trigger,Symptom,Cause,Response" {
			t.Errorf("failure table header cells = %q", heads)
		}
		rows := scenarios.FailureTable()
		var ids []string
		for _, rid := range rows {
			if sc, err := scenarios.Load(rid); err == nil && sc.Failure != nil {
				ids = append(ids, rid)
			}
		}
		links := eval[[]string](t, ctx, "reading the Replay links", `[...document.querySelectorAll("table.failures tbody tr")].map(tr =>
			[...tr.querySelectorAll("a")].filter(a => a.textContent.trim() == "Replay").map(a => a.getAttribute("href")).join(" "))`)
		if len(links) != len(ids) {
			t.Fatalf("%d rows, want %d (%v)", len(links), len(ids), ids)
		}
		screenshot(t, ctx, "failures")
		axeCheck(t, ctx, "/failures")
		for i, rid := range ids {
			if want := "/s/" + rid + "?play=symptom"; links[i] != want {
				t.Errorf("row %d replays %q, want %q", i+1, links[i], want)
			}
		}
		for i, rid := range ids {
			t.Run(rid, func(t *testing.T) {
				open(t, ctx, base+"/failures")
				do(t, ctx, "clicking Replay", chromedp.Click(chromedp.CSS(fmt.Sprintf(`table.failures tbody tr:nth-child(%d) a`, i+1))))
				// Replay opens the lesson at its start and plays it to the
				// symptom, so the failure is seen developing: the status
				// goes through passes on the way.
				eval[bool](t, ctx, "watching the status", `(() => { window.seen = new Set();
					new MutationObserver(() => { const s = document.querySelector('[role="status"]'); const m = s && s.textContent.match(/Pass (\d+)/); if (m) window.seen.add(m[1]) })
						.observe(document.body, {subtree: true, childList: true, characterData: true}); return true })()`)
				poll(t, ctx, "the player is at the symptom, and says so in the address", `(() => {
					const m = document.querySelector('[role="status"]').textContent.match(/Pass (\d+)/);
					return /This is the symptom/.test(document.querySelector(".failure").textContent) && m && new URLSearchParams(location.search).get("pass") == m[1] })()`, 90*time.Second)
				q, err := url.ParseQuery(strings.TrimPrefix(eval[string](t, ctx, "reading the address", `location.search`), "?"))
				if err != nil {
					t.Fatal(err)
				}
				n, err := strconv.Atoi(q.Get("pass"))
				if err != nil {
					t.Fatal(err)
				}
				waitStatus(t, ctx, n)
				if got, want := browserDigest(t, ctx, n), nativeDigest(t, rid, n, q.Get("t")); got != want {
					t.Errorf("digest at the symptom (pass %d, t=%s) = %q, natively %q", n, q.Get("t"), got, want)
				}
				// stuck-rollout's symptom comes long after its start-up: the
				// replay shows the rollout getting stuck pass by pass.
				if seen := eval[int](t, ctx, "counting the passes shown", `window.seen.size`); rid == "stuck-rollout" && seen < 10 {
					t.Errorf("Replay jumped to the symptom: %d passes shown on the way", seen)
				}
				if i == 0 {
					screenshot(t, ctx, "failure-symptom")
				}
				stuck := !regexp.MustCompile(`· converged`).MatchString(text(t, ctx, `[role="status"]`))
				choose(t, ctx, "speed", "30 passes a second", "change")
				clickButton(t, ctx, "Apply the response")
				poll(t, ctx, "the response converges", `/Converged: the loop has nothing left to do/.test(document.querySelector(".failure").textContent)`, 90*time.Second)
				if after := text(t, ctx, `[role="status"]`); stuck && regexp.MustCompile(`\bPass `+strconv.Itoa(n)+`\b`).MatchString(after) {
					t.Errorf("converged without a pass after the response: %s", after)
				}
				noAlert(t, ctx)
			})
		}
	})

	t.Run("embed", func(t *testing.T) {
		// A course page on another path of the same site embeds a lesson
		// and listens for its events.
		open(t, ctx, base+"/?wasm=false")
		eval[bool](t, ctx, "embedding the lesson", fmt.Sprintf(`(() => {
			window.got = [];
			window.addEventListener("message", e => { if (e.data && e.data.type == "reconcile") window.got.push(e.data) });
			document.body.innerHTML = '<iframe id="f" src="/s/%s?embed=1&pass=20" title="lesson" width="360" height="700"></iframe>';
			return true })()`, id))
		poll(t, ctx, "the embedded lesson announces pass 20", fmt.Sprintf(`window.got.some(m => m.event == "pass" && m.pass == 20 && m.scenario == %q)`, id), 30*time.Second)
		eval[bool](t, ctx, "pressing Next pass in the frame until the loop converges", `(async () => {
			const d = document.getElementById("f").contentDocument;
			const next = [...d.querySelectorAll("button")].find(b => b.textContent.trim() == "Next pass");
			for (let i = 0; i < 40 && !window.got.some(m => m.event == "converged"); i++) {
				next.click();
				await new Promise(r => setTimeout(r, 50));
			}
			return true })()`)
		poll(t, ctx, "the embedded lesson announces pass 21 and convergence", `window.got.some(m => m.event == "pass" && m.pass == 21) &&
			window.got.some(m => m.event == "converged" && m.pass > 20)`, 15*time.Second)
		if eval[int](t, ctx, "looking for the site header in the frame", `document.getElementById("f").contentDocument.querySelectorAll("header.site").length`) != 0 {
			t.Error("the embedded lesson shows the site header")
		}

		// A failure lesson, embedded at its symptom, tells the host when the
		// learner applies the response, and when the loop converges.
		rows := scenarios.FailureTable()
		if len(rows) == 0 {
			t.Log("no failure lesson bundled: response-applied not checked")
			return
		}
		fid := rows[0]
		eval[bool](t, ctx, "embedding a failure lesson", fmt.Sprintf(`(() => { window.got = [];
			document.getElementById("f").src = "/s/%s?embed=1&at=symptom"; return true })()`, fid))
		poll(t, ctx, "the failure lesson is at its symptom", `(() => { const d = document.getElementById("f").contentDocument;
			return d && d.querySelector(".failure") && /This is the symptom/.test(d.querySelector(".failure").textContent) })()`, 30*time.Second)
		eval[bool](t, ctx, "applying the response in the frame", `(() => { const d = document.getElementById("f").contentDocument;
			d.getElementById("speed").value = "30 passes a second"; d.getElementById("speed").dispatchEvent(new Event("change", {bubbles: true}));
			[...d.querySelectorAll("button")].find(b => b.textContent.trim() == "Apply the response").click(); return true })()`)
		poll(t, ctx, "the host hears response-applied, then converged", fmt.Sprintf(`(() => {
			const i = window.got.findIndex(m => m.event == "response-applied" && m.scenario == %q);
			return i >= 0 && window.got.slice(i).some(m => m.event == "converged") })()`, fid), 60*time.Second)
	})

	t.Run("next pass timing", func(t *testing.T) {
		// Next pass → DOM updated, on the largest bundled lesson.
		big, size := id, 0
		for _, sid := range scenarios.IDs() {
			if _, data, ok := scenarios.File(sid); ok && len(data) > size {
				big, size = sid, len(data)
			}
		}
		open(t, ctx, base+"/s/"+big)
		waitStatus(t, ctx, 0)
		ms := eval[[]float64](t, ctx, "timing Next pass", `(async () => {
			const status = document.querySelector('[role="status"]');
			const next = [...document.querySelectorAll("button")].find(b => b.textContent.trim() == "Next pass");
			const out = [];
			for (let i = 1; i <= 60 && !next.disabled; i++) {
				const want = new RegExp("\\bPass " + i + "\\b");
				const t0 = performance.now();
				await new Promise(resolve => {
					const obs = new MutationObserver(() => { if (want.test(status.textContent)) { obs.disconnect(); resolve() } });
					obs.observe(status, {childList: true, characterData: true, subtree: true});
					next.click();
				});
				out.push(performance.now() - t0);
				await new Promise(r => requestAnimationFrame(r));
			}
			return out })()`)
		sort.Float64s(ms)
		if len(ms) < 10 {
			t.Fatalf("only %d passes timed", len(ms))
		}
		median, p95 := ms[len(ms)/2], ms[len(ms)*95/100]
		t.Logf("Next pass → DOM on %s: median %.1f ms, p95 %.1f ms, max %.1f ms over %d passes (budget: median 16 ms, p95 50 ms)", big, median, p95, ms[len(ms)-1], len(ms))
		if median > 100 {
			t.Errorf("Next pass takes %.1f ms (median) to reach the page", median)
		}
	})

	t.Run("narrow, light and dark", func(t *testing.T) {
		defer do(t, ctx, "back to the desktop", chromedp.EmulateViewport(1280, 900), darkMode(false))
		for _, dark := range []bool{false, true} {
			mode := "light"
			if dark {
				mode = "dark"
			}
			do(t, ctx, "emulating a 360 px phone", chromedp.EmulateViewport(360, 780), darkMode(dark))
			for _, v := range []struct {
				name, path string
				pass       int
			}{
				{"home", "/", -1},
				{"player", "/s/" + id + "?pass=3", 3},
				{"player-embed", "/s/" + id + "?embed=1&pass=20", 20},
				{"compare", "/compare", -1},
				{"compare-embed", "/compare?embed=1", -1},
				{"failures", "/failures", -1},
			} {
				open(t, ctx, base+v.path)
				if v.pass >= 0 {
					waitStatus(t, ctx, v.pass)
				}
				noSidewaysScroll(t, ctx, v.path+" at 360 px")
				screenshot(t, ctx, v.name+"-360-"+mode)
				if dark {
					axeCheck(t, ctx, v.path+" at 360 px, dark")
				}
			}
		}
		do(t, ctx, "desktop, dark", chromedp.EmulateViewport(1280, 900), darkMode(true))
		open(t, ctx, player+"?pass=20")
		waitStatus(t, ctx, 20)
		screenshot(t, ctx, "player-dark")
		open(t, ctx, base+"/compare")
		screenshot(t, ctx, "compare-dark")
	})
}

// TestBrowserOffline visits the site once, stops the server, and reloads:
// the service worker serves every page and asset from its cache, deep
// links included.
func TestBrowserOffline(t *testing.T) {
	_, err := os.Stat(filepath.Join(siteDir, "index.html"))
	mustHave(t, "the generated site (run make build)", err)
	srv := httptest.NewServer(siteHandler(siteDir))
	defer srv.Close()
	ctx := browser(t)
	id := scenarios.Default

	open(t, ctx, srv.URL+"/")
	poll(t, ctx, "the service worker controls the page and has cached the site", `(async () => {
		if (!navigator.serviceWorker.controller) return false;
		const keys = await caches.keys();
		if (keys.length == 0) return false;
		const cache = await caches.open(keys[0]);
		const want = ["/", "/compare", "/failures", "/s/`+id+`", "/web/app.wasm", "/web/app.css", "/app.js", "/wasm_exec.js", "/web/icon.svg"];
		for (const u of want) { if (!(await cache.match(u))) return false }
		return true })()`, 60*time.Second)
	cached := eval[int](t, ctx, "counting the cached pages", `(async () => { const c = await caches.open((await caches.keys())[0]);
		return (await c.keys()).filter(r => new URL(r.url).pathname.startsWith("/s/")).length })()`)
	if want := len(scenarios.IDs()); cached != want {
		t.Errorf("%d lesson pages cached, want %d", cached, want)
	}

	srv.Close() // the server is gone
	open(t, ctx, srv.URL+"/s/"+id+"?pass=3")
	waitStatus(t, ctx, 3)
	if h1 := text(t, ctx, "h1"); h1 == "" || strings.Contains(h1, "No such") {
		t.Errorf("offline, the deep link shows %q", h1)
	}
	clickButton(t, ctx, "Next pass")
	waitStatus(t, ctx, 4)
	screenshot(t, ctx, "offline-player")
	for _, path := range []string{"/compare", "/failures", "/"} {
		open(t, ctx, srv.URL+path)
		if h1 := text(t, ctx, "h1"); h1 == "" {
			t.Errorf("offline, %s shows no title", path)
		}
	}
}
