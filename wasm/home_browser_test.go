//go:build browser && !wasm

// The home page's browser tests, /: what a newcomer sees above the fold at
// 1280×800 and stacked at 390×844, Start here, and the learner's progress
// kept in IndexedDB across an in-app visit, a reload and a browser restart,
// then forgotten. Same harness as browser_test.go.
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"reconcile/engine/sim"
	"reconcile/scenarios"
)

// homeReady opens / and waits until the page has read what the browser
// keeps.
func homeReady(t *testing.T, ctx context.Context, base string) {
	t.Helper()
	open(t, ctx, base+"/")
	waitHomeRead(t, ctx)
}

func waitHomeRead(t *testing.T, ctx context.Context) {
	t.Helper()
	poll(t, ctx, "the home page has read the progress", `(document.getElementById("lessons") || {dataset: {}}).dataset.progress == "read"`, 15*time.Second)
}

// lessonStates reads what each lesson's item says of the progress, by id.
func lessonStates(t *testing.T, ctx context.Context) map[string]string {
	t.Helper()
	return eval[map[string]string](t, ctx, "reading the progress shown", `Object.fromEntries(
		[...document.querySelectorAll("#lessons li[data-lesson]")]
			.map(li => [li.dataset.lesson, ((li.querySelector(".state") || {}).textContent || "").trim()])
			.filter(([, s]) => s != ""))`)
}

// viewportShot saves what the viewport shows, as test-artifacts/name.png.
func viewportShot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	png := run(t, ctx, "screenshot "+name, chromedp.CaptureScreenshot())
	if err := os.MkdirAll(artifactsDir, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(artifactsDir, name+".png")
	if err := os.WriteFile(file, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", file)
}

// aboveTheFold fails for each element (by CSS selector) that is not
// entirely inside the viewport.
func aboveTheFold(t *testing.T, ctx context.Context, view string, selectors ...string) {
	t.Helper()
	for _, sel := range selectors {
		out := eval[string](t, ctx, "measuring "+sel, fmt.Sprintf(`(() => {
			const e = document.querySelector(%q);
			if (!e) return "missing";
			const r = e.getBoundingClientRect();
			if (r.height == 0) return "not shown";
			return r.top >= 0 && r.bottom <= innerHeight && r.right <= innerWidth ? "" : "at " + Math.round(r.top) + "–" + Math.round(r.bottom) + " of " + innerHeight;
		})()`, sel))
		if out != "" {
			t.Errorf("%s: %s is not above the fold: %s", view, sel, out)
		}
	}
}

// watchCrashes fails the test when the page throws or panics.
func watchCrashes(t *testing.T, ctx context.Context) {
	var mu sync.Mutex
	var crashes []string
	go func() {
		for m, err := range chromedp.Console(ctx) {
			if err != nil {
				return
			}
			if m.IsException() || strings.HasPrefix(m.Text, "panic: ") {
				mu.Lock()
				crashes = append(crashes, m.Text)
				mu.Unlock()
			}
		}
	}()
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		for _, c := range crashes {
			t.Errorf("the page crashed: %s", c)
		}
	})
}

// lessonRun starts a native run of the bundled lesson id.
func lessonRun(t *testing.T, id string) *sim.Sim {
	t.Helper()
	sc, err := scenarios.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.New(sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// runLength is how many passes the bundled lesson id takes to its end.
func runLength(t *testing.T, id string) int {
	t.Helper()
	s := lessonRun(t, id)
	for {
		if _, ok := s.Next(); !ok {
			return s.PassCount()
		}
	}
}

// firstController is the controller that runs the first pass of lesson id:
// the right answer to a "who acts next" question before it.
func firstController(t *testing.T, id string) string {
	t.Helper()
	p, ok := lessonRun(t, id).Next()
	if !ok {
		t.Fatalf("%s has no pass", id)
	}
	return p.Controller
}

func TestBrowserHome(t *testing.T) {
	base := playSite(t)
	profile := t.TempDir()
	ctx, closeBrowser := playBrowser(t, profile)
	watchCrashes(t, ctx)
	// restart closes the browser and starts another on the same profile,
	// for the rest of the test.
	restart := func() {
		closeBrowser()
		ctx, closeBrowser = playBrowser(t, profile)
		watchCrashes(t, ctx)
	}
	id := scenarios.Default
	passes := runLength(t, id)

	t.Run("a fresh profile shows no progress", func(t *testing.T) {
		do(t, ctx, "sizing the window", chromedp.EmulateViewport(1280, 800))
		homeReady(t, ctx, base)
		if got := lessonStates(t, ctx); len(got) != 0 {
			t.Errorf("a fresh profile shows progress: %v", got)
		}
		for _, absent := range []string{"Forget my progress", "Where you left off", "Next on the path", "In this browser"} {
			if strings.Contains(text(t, ctx, "main"), absent) {
				t.Errorf("a fresh profile's home page says %q", absent)
			}
		}
		aboveTheFold(t, ctx, "1280×800", "h1", ".home-top .lead", "a.button.primary", "#lessons h2",
			"#lessons li[data-lesson] > a", "#lessons li[data-lesson] .promise")
		noSidewaysScroll(t, ctx, "/ at 1280×800")
		viewportShot(t, ctx, "home-new-1280x800")
		axeCheck(t, ctx, "/ (fresh)")

		do(t, ctx, "sizing the window", chromedp.EmulateViewport(390, 844))
		homeReady(t, ctx, base)
		noSidewaysScroll(t, ctx, "/ at 390×844")
		aboveTheFold(t, ctx, "390×844", "h1", "a.button.primary")
		// It stacks: the picture under the way in, the path under the picture.
		if order := eval[string](t, ctx, "measuring the stack", `(() => {
			const start = document.querySelector("a.button.primary").getBoundingClientRect();
			const fig = document.querySelector(".home-loop").getBoundingClientRect();
			const path = document.getElementById("lessons").getBoundingClientRect();
			return start.bottom <= fig.top && fig.bottom <= path.top ? "" : JSON.stringify({start: start.bottom, fig: [fig.top, fig.bottom], path: path.top});
		})()`); order != "" {
			t.Errorf("at 390×844 the page does not stack the start, the picture and the path: %s", order)
		}
		viewportShot(t, ctx, "home-new-390x844")
		do(t, ctx, "sizing the window", chromedp.EmulateViewport(1280, 800))
	})

	t.Run("Start here opens the first lesson", func(t *testing.T) {
		homeReady(t, ctx, base)
		do(t, ctx, "following Start here", chromedp.Click(chromedp.Search(`//a[normalize-space(.)="Start here"]`)))
		waitStatus(t, ctx, 0)
		if path := eval[string](t, ctx, "reading the address", `location.pathname`); path != "/s/"+scenarios.Ordered()[0] {
			t.Errorf("Start here opened %s, want the first lesson /s/%s", path, scenarios.Ordered()[0])
		}
		if h1 := text(t, ctx, "h1"); h1 == "" || strings.Contains(h1, "No such") {
			t.Errorf("Start here opened a page titled %q", h1)
		}
		noAlert(t, ctx)
	})

	// Two lessons: the first visited to pass 3 with its question answered
	// right, then self-healing played to its end.
	const second = "self-healing"
	want := map[string]string{
		id:     fmt.Sprintf("visited · pass 3 of %d · 1 of 1 guess right", passes),
		second: "finished",
	}
	shows := func(t *testing.T, when string, want map[string]string, resume string) {
		t.Helper()
		waitHomeRead(t, ctx)
		if got := lessonStates(t, ctx); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: the home page shows %v, want %v", when, got, want)
		}
		if got := text(t, ctx, ".resume"); !strings.HasPrefix(got, resume) {
			t.Errorf("%s: the home page offers %q, want %q…", when, got, resume)
		}
	}
	goHome := func(t *testing.T) {
		t.Helper()
		do(t, ctx, "going home", chromedp.Click(chromedp.CSS("header.site a.brand")))
		poll(t, ctx, "the home page", `location.pathname == "/" && document.getElementById("lessons") != null`, 10*time.Second)
	}

	kept := t.Run("progress survives a reload and a restart", func(t *testing.T) {
		// In the lesson Start here opened: answer its question right, step
		// to pass 3, then go home by the site's own link.
		clickButton(t, ctx, "Next pass")
		poll(t, ctx, "the question", `document.querySelector(".now.predict button.choice") != null`, 10*time.Second)
		do(t, ctx, "answering right", chromedp.Click(chromedp.Search(fmt.Sprintf(
			`//button[contains(@class, "choice") and normalize-space(.)=%q]`, firstController(t, id)))))
		waitStatus(t, ctx, 1)
		if note := text(t, ctx, ".now .note"); !strings.Contains(note, "right") {
			t.Errorf("after the right answer the page says %q", note)
		}
		nextPass(t, ctx, 2)
		nextPass(t, ctx, 3)
		goHome(t)
		shows(t, "back home", map[string]string{id: want[id]}, "Where you left off: "+eval[string](t, ctx, "the lesson's title",
			`document.querySelector('#lessons li[data-lesson="`+id+`"] > a').textContent`))

		// The second lesson, opened at its last pass but one (a link to a
		// pass), then stepped to its end.
		end := runLength(t, second)
		open(t, ctx, fmt.Sprintf("%s/s/%s?pass=%d", base, second, end-1))
		waitStatus(t, ctx, end-1)
		nextPass(t, ctx, end)
		goHome(t)
		shows(t, "back home again", want, "Next on the path")
		viewportShot(t, ctx, "home-progress-1280x800")
		axeCheck(t, ctx, "/ (with progress)")
		do(t, ctx, "sizing the window", chromedp.EmulateViewport(390, 844))
		noSidewaysScroll(t, ctx, "/ with progress at 390×844")
		eval[bool](t, ctx, "scrolling to the lessons", `(document.getElementById("lessons-title").scrollIntoView({block: "start"}), true)`)
		viewportShot(t, ctx, "home-progress-390x844")
		do(t, ctx, "sizing the window", chromedp.EmulateViewport(1280, 800))

		homeReady(t, ctx, base)
		shows(t, "after a reload", want, "Next on the path")

		restart()
		do(t, ctx, "sizing the window", chromedp.EmulateViewport(1280, 800))
		homeReady(t, ctx, base)
		shows(t, "after a browser restart", want, "Next on the path")
	})

	if !kept {
		return // nothing to forget
	}
	t.Run("forget my progress", func(t *testing.T) {
		clickButton(t, ctx, "Forget my progress")
		poll(t, ctx, "the confirmation", `document.activeElement && document.activeElement.id == "forget-keep"`, 5*time.Second)
		if got := lessonStates(t, ctx); got[id] == "" {
			t.Errorf("asking before forgetting already forgot: %v", got)
		}
		axeCheck(t, ctx, "/ (confirming)")
		viewportShot(t, ctx, "home-forget-1280x800")
		clickButton(t, ctx, "Keep it")
		poll(t, ctx, "Keep it puts the button back", `document.activeElement && document.activeElement.id == "forget"`, 5*time.Second)
		clickButton(t, ctx, "Forget my progress")
		poll(t, ctx, "the confirmation", `document.activeElement && document.activeElement.id == "forget-keep"`, 5*time.Second)
		clickButton(t, ctx, "Forget it")
		poll(t, ctx, "the notice", `/forgotten/.test(document.getElementById("forget-notice").textContent)`, 10*time.Second)
		if got := lessonStates(t, ctx); len(got) != 0 {
			t.Errorf("after forgetting the page shows %v", got)
		}
		homeReady(t, ctx, base)
		if got := lessonStates(t, ctx); len(got) != 0 {
			t.Errorf("after forgetting and a reload the page shows %v", got)
		}
		// The answers went too: the lesson asks its question again.
		open(t, ctx, base+"/s/"+id)
		waitStatus(t, ctx, 0)
		clickButton(t, ctx, "Next pass")
		if !questionOrPass(t, ctx, 1) {
			t.Errorf("after forgetting, the lesson does not ask its question again")
		}
		noAlert(t, ctx)
	})
}
