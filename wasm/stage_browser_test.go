//go:build browser && !wasm

package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"reconcile/engine/api"
	"reconcile/engine/sim"
	"reconcile/scenarios"
)

// The stage is the product: after Next pass, the status, the sentence that
// says what the pass did, the loop figure and every object the pass changed
// must be on the screen without scrolling, on a laptop, on a phone, and in
// a course page's frame.

// stageMoment is a pass of a lesson to step to, and what it changes.
type stageMoment struct {
	lesson string
	// from is the pass the page opens at; Next pass goes to from+1.
	from int
	// changes is the least number of objects the pass marks as changed
	// (the check is not vacuous).
	changes int
	// question says the lesson asks the learner to predict this pass.
	question bool
}

// stageMoments are the passes the checks step to: a pod created, a pod
// bound, a pod gone, a node lost, a rollout.
var stageMoments = []stageMoment{
	{"apply-is-not-running", 2, 5, false},
	{"apply-is-not-running", 7, 1, false},
	{"self-healing", 33, 1, false},
	{"node-dies-at-3am", 37, 1, true},
	{"node-dies-at-3am", 42, 2, false},
}

// stageCheck is JavaScript that returns what of the stage is outside the
// viewport of the document doc in the window win (empty when all is in),
// and how many changed objects it found.
//
// On a phone the transport is held at the bottom of the screen: what is
// under it is not seen, so the floor of what is seen is its top.
const stageCheck = `(doc, win) => {
	const out = [];
	const shown = el => el && el.getClientRects().length > 0 && win.getComputedStyle(el).visibility != "hidden";
	const bar = doc.querySelector("section.transport");
	const barTop = bar ? bar.getBoundingClientRect().top : win.innerHeight;
	const floor = barTop > win.innerHeight / 2 ? Math.min(barTop, win.innerHeight) : win.innerHeight;
	const inside = (el, name) => {
		if (!shown(el)) { out.push(name + " is not shown"); return }
		const r = el.getBoundingClientRect();
		const bottom = bar && bar.contains(el) ? win.innerHeight : floor;
		if (r.top < -1 || r.left < -1 || r.bottom > bottom + 1 || r.right > win.innerWidth + 1) {
			out.push(name + " at x " + Math.round(r.left) + "–" + Math.round(r.right) + ", y " + Math.round(r.top) + "–" + Math.round(r.bottom) +
				" of a " + win.innerWidth + "×" + win.innerHeight + " viewport");
		}
	};
	inside(doc.querySelector('[role="status"]'), "the status");
	inside(doc.querySelector(".now .what"), "the pass sentence");
	const loop = [...doc.querySelectorAll(".loop-ring svg, .loop-mini")].find(shown);
	if (loop) inside(loop, "the loop figure"); else out.push("no loop figure is shown");
	let changed = 0;
	for (const el of doc.querySelectorAll("[data-changed]")) {
		if (!shown(el)) continue;
		changed++;
		inside(el, "changed " + el.dataset.changed + " " + (el.dataset.ref || el.textContent.trim().slice(0, 40)));
	}
	return {out, changed};
}`

// questionCheck is JavaScript that returns what of a question (its text,
// each answer, the status) is outside the viewport.
const questionCheck = `(doc, win) => {
	const out = [];
	const bar = doc.querySelector("section.transport");
	const barTop = bar ? bar.getBoundingClientRect().top : win.innerHeight;
	const floor = barTop > win.innerHeight / 2 ? Math.min(barTop, win.innerHeight) : win.innerHeight;
	const inside = (el, name) => {
		if (!el || el.getClientRects().length == 0) { out.push(name + " is not shown"); return }
		const r = el.getBoundingClientRect();
		const bottom = bar && bar.contains(el) ? win.innerHeight : floor;
		if (r.top < -1 || r.left < -1 || r.bottom > bottom + 1 || r.right > win.innerWidth + 1) {
			out.push(name + " at y " + Math.round(r.top) + "–" + Math.round(r.bottom) + " of a " + win.innerWidth + "×" + win.innerHeight + " viewport");
		}
	};
	inside(doc.querySelector('[role="status"]'), "the status");
	inside(doc.querySelector(".now.predict h2"), "the question");
	doc.querySelectorAll(".now.predict button").forEach(b => inside(b, "the answer " + b.textContent.trim()));
	return {out, changed: 0};
}`

// siteWithCourse serves the site and a course page, /test-course?w=&h=&src=,
// that embeds src in a frame of w×h pixels, the way a course author does.
func siteWithCourse(t *testing.T) string {
	t.Helper()
	_, err := os.Stat(filepath.Join(siteDir, "index.html"))
	mustHave(t, "the generated site (run make build)", err)
	site := siteHandler(siteDir)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/test-course" {
			site.ServeHTTP(w, r)
			return
		}
		q := r.URL.Query()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A course page</title></head>
<body style="margin:0"><main><iframe id="f" src="%s" width="%s" height="%s" style="border:0;display:block" title="Lesson"></iframe></main></body></html>`,
			escapeAttr(q.Get("src")), escapeAttr(q.Get("w")), escapeAttr(q.Get("h")))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// forgetGuesses deletes what the site keeps in the browser (the learner's
// answers among it), so that a lesson asks its questions again.
func forgetGuesses(t *testing.T, ctx context.Context, base string) {
	t.Helper()
	do(t, ctx, "opening a page of the site without the app", chromedp.Navigate(base+"/test-course?w=1&h=1&src=about:blank"))
	eval[bool](t, ctx, "deleting the site's databases", `(async () => {
		for (const d of await indexedDB.databases()) {
			await new Promise(r => { const q = indexedDB.deleteDatabase(d.name); q.onsuccess = q.onerror = q.onblocked = r });
		}
		return true })()`)
}

func escapeAttr(s string) string {
	return strings.NewReplacer(`&`, "&amp;", `"`, "&quot;", "<", "&lt;", ">", "&gt;").Replace(s)
}

func TestBrowserStage(t *testing.T) {
	base := siteWithCourse(t)
	ctx := browser(t)
	defer do(t, ctx, "back to the desktop", chromedp.EmulateViewport(1280, 900))

	type result struct {
		Out     []string
		Changed int
	}
	shot := func(t *testing.T, name string) {
		t.Helper()
		png := run(t, ctx, "screenshot "+name, chromedp.CaptureScreenshot())
		if err := os.MkdirAll(artifactsDir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(artifactsDir, name+".png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	for _, vp := range []struct{ w, h int }{{1280, 800}, {390, 844}} {
		t.Run(fmt.Sprintf("%dx%d", vp.w, vp.h), func(t *testing.T) {
			do(t, ctx, "sizing the window", chromedp.EmulateViewport(int64(vp.w), int64(vp.h)))
			for _, m := range stageMoments {
				if m.question {
					forgetGuesses(t, ctx, base)
				}
				open(t, ctx, fmt.Sprintf("%s/s/%s?pass=%d", base, m.lesson, m.from))
				waitStatus(t, ctx, m.from)
				clickButton(t, ctx, "Next pass")
				if m.question {
					// The lesson asks before this pass: the question is on the
					// stage too; then the first answer runs the pass.
					poll(t, ctx, "the question shows", `document.querySelector(".now.predict button.choice") != null`, 5*time.Second)
					r := eval[result](t, ctx, "checking the question", "("+questionCheck+")(document, window)")
					for _, o := range r.Out {
						t.Errorf("%s before pass %d at %d×%d: %s", m.lesson, m.from+1, vp.w, vp.h, o)
					}
					do(t, ctx, "answering", chromedp.Click(chromedp.CSS(".now.predict button.choice")))
				}
				waitStatus(t, ctx, m.from+1)
				time.Sleep(100 * time.Millisecond) // the marks' transitions start
				r := eval[result](t, ctx, "checking the stage", "("+stageCheck+")(document, window)")
				for _, o := range r.Out {
					t.Errorf("%s pass %d at %d×%d: %s", m.lesson, m.from+1, vp.w, vp.h, o)
				}
				if r.Changed < m.changes {
					t.Errorf("%s pass %d: %d changed objects marked, want at least %d", m.lesson, m.from+1, r.Changed, m.changes)
				}
				if eval[int](t, ctx, "reading the scroll", `Math.round(window.scrollY)`) != 0 {
					t.Errorf("%s pass %d: Next pass scrolled the page", m.lesson, m.from+1)
				}
				shot(t, fmt.Sprintf("stage-%s-%d-%dx%d", m.lesson, m.from+1, vp.w, vp.h))
			}
		})
	}

	// Every lesson at the moments its story tells: the stage holds at
	// 1280×800, and a screenshot of each is kept to look at.
	t.Run("every lesson", func(t *testing.T) {
		do(t, ctx, "sizing the window", chromedp.EmulateViewport(1280, 800))
		forgetGuesses(t, ctx, base)
		for _, id := range scenarios.IDs() {
			for _, n := range storyPasses(t, id) {
				open(t, ctx, fmt.Sprintf("%s/s/%s?pass=%d", base, id, n-1))
				waitStatus(t, ctx, n-1)
				nextPass(t, ctx, n)
				time.Sleep(100 * time.Millisecond)
				r := eval[result](t, ctx, "checking the stage", "("+stageCheck+")(document, window)")
				for _, o := range r.Out {
					t.Errorf("%s pass %d at 1280×800: %s", id, n, o)
				}
				shot(t, fmt.Sprintf("lesson-%s-%d", id, n))
			}
		}
	})

	for _, fr := range []struct{ w, h int }{{700, 500}, {360, 640}} {
		t.Run(fmt.Sprintf("frame %dx%d", fr.w, fr.h), func(t *testing.T) {
			do(t, ctx, "sizing the window", chromedp.EmulateViewport(int64(fr.w+40), int64(fr.h+40)))
			for _, m := range stageMoments {
				if m.question {
					forgetGuesses(t, ctx, base)
				}
				src := fmt.Sprintf("/s/%s?embed=1&pass=%d", m.lesson, m.from)
				do(t, ctx, "opening the course page", chromedp.Navigate(base+"/test-course?w="+strconv.Itoa(fr.w)+"&h="+strconv.Itoa(fr.h)+"&src="+url.QueryEscape(src)))
				frame := `document.getElementById("f").contentDocument`
				poll(t, ctx, "the lesson loads in the frame", fmt.Sprintf(`(() => { const d = %s; return d && d.readyState == "complete" && !d.getElementById("app-wasm-loader")
					&& /\bPass %d\b/.test((d.querySelector('[role="status"]') || {}).textContent || "") })()`, frame, m.from), 30*time.Second)
				eval[bool](t, ctx, "pressing Next pass in the frame", fmt.Sprintf(`(() => { const d = %s;
					[...d.querySelectorAll("button")].find(b => b.textContent.trim() == "Next pass").click(); return true })()`, frame))
				if m.question {
					poll(t, ctx, "the question shows in the frame", frame+`.querySelector(".now.predict button.choice") != null`, 5*time.Second)
					r := eval[result](t, ctx, "checking the question in the frame", fmt.Sprintf(`(%s)(%s, document.getElementById("f").contentWindow)`, questionCheck, frame))
					for _, o := range r.Out {
						t.Errorf("%s before pass %d in a %d×%d frame: %s", m.lesson, m.from+1, fr.w, fr.h, o)
					}
					eval[bool](t, ctx, "answering in the frame", frame+`.querySelector(".now.predict button.choice").click() || true`)
				}
				poll(t, ctx, "the frame shows the next pass", fmt.Sprintf(`/\bPass %d\b/.test(%s.querySelector('[role="status"]').textContent)`, m.from+1, frame), 10*time.Second)
				time.Sleep(100 * time.Millisecond)
				r := eval[result](t, ctx, "checking the stage in the frame", fmt.Sprintf(`(%s)(%s, document.getElementById("f").contentWindow)`, stageCheck, frame))
				for _, o := range r.Out {
					t.Errorf("%s pass %d in a %d×%d frame: %s", m.lesson, m.from+1, fr.w, fr.h, o)
				}
				if r.Changed < m.changes {
					t.Errorf("%s pass %d in a frame: %d changed objects marked, want at least %d", m.lesson, m.from+1, r.Changed, m.changes)
				}
				if n := eval[int](t, ctx, "looking for the site header", frame+`.querySelectorAll("header.site").length`); n != 0 {
					t.Errorf("the embedded lesson shows the site header")
				}
				shot(t, fmt.Sprintf("stage-%s-%d-frame-%dx%d", m.lesson, m.from+1, fr.w, fr.h))
			}
		})
	}
}

// storyPasses are two passes of a lesson a learner should see: the first
// at or after its story's second moment, and the first at or after its
// last (where the lesson makes its point).
func storyPasses(t *testing.T, id string) []int {
	t.Helper()
	sc, err := scenarios.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Story) < 2 {
		return nil
	}
	run, err := sim.New(sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, m := range []api.Duration{sc.Story[1].At, sc.Story[len(sc.Story)-1].At} {
		for {
			p, ok := run.Next()
			if !ok {
				return out
			}
			if p.At >= m && p.N > 1 {
				if len(out) == 0 || out[len(out)-1] != p.N {
					out = append(out, p.N)
				}
				break
			}
		}
	}
	return out
}

// cutCheck is JavaScript that lists the texts of the stage (the story
// line, the pass's sentence and why, what is still moving, the loop's
// values, the nodes' states) that are cut: shown in less room than they
// take, or not shown at all.
const cutCheck = `(() => {
	const out = [];
	const cut = (el, name) => {
		if (!el) return;
		const s = getComputedStyle(el);
		if (el.getClientRects().length == 0 || s.display == "none" || el.getBoundingClientRect().width < 2) { out.push(name + " is not shown"); return }
		if (el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1) out.push(name + " is cut: " + el.textContent.trim().slice(0, 60));
	};
	cut(document.querySelector(".story-line"), "the story line");
	cut(document.querySelector(".now .what"), "the pass's sentence");
	cut(document.querySelector(".now .why"), "the why");
	cut(document.querySelector(".now .world"), "what is still moving");
	document.querySelectorAll(".now .more-moving").forEach(el => cut(el, "more of what is moving"));
	document.querySelectorAll(".loopm-value").forEach((el, i) => cut(el, "the loop's value " + i));
	document.querySelectorAll(".stage .node-status").forEach(el => cut(el, "the state of " + el.parentElement.textContent.trim().slice(0, 20)));
	return out;
})()`

// transportBox is where the transport and its Next pass are on the screen.
type transportBox struct{ Top, Bottom, Height, NextTop float64 }

func transportAt(t *testing.T, ctx context.Context) transportBox {
	t.Helper()
	return eval[transportBox](t, ctx, "finding the transport", `(() => { const r = document.querySelector("section.transport").getBoundingClientRect();
		const n = [...document.querySelectorAll("section.transport button")].find(b => b.textContent.trim() == "Next pass").getBoundingClientRect();
		return {Top: r.top, Bottom: r.bottom, Height: innerHeight, NextTop: n.top} })()`)
}

// underTransport names the first part of the page (of those css selects in
// main) that the transport covers, or "".
func underTransport(t *testing.T, ctx context.Context, css string) string {
	t.Helper()
	return eval[string](t, ctx, "looking under the transport", fmt.Sprintf(`(() => {
		const r = document.querySelector("section.transport").getBoundingClientRect();
		for (const el of document.getElementById("main").querySelectorAll(%q)) {
			if (el.closest("section.transport")) continue;
			const e = el.getBoundingClientRect();
			if (e.height > 0 && e.bottom > r.top + 1 && e.top < r.bottom) return el.className + " at y " + Math.round(e.top) + "–" + Math.round(e.bottom);
		}
		return "" })()`, css))
}

// On a phone the transport stays at hand at the bottom of the screen,
// however far the page scrolls, without hiding the end of the page; every
// text the stage cuts opens in place, with the keyboard too; nodes'
// states read whole.
func TestBrowserStagePhone(t *testing.T) {
	base := siteWithCourse(t)
	ctx := browser(t)
	defer do(t, ctx, "back to the desktop", chromedp.EmulateViewport(1280, 900))
	do(t, ctx, "a 390×844 phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile))

	for _, c := range []struct {
		lesson string
		pass   int
		// symptom: the lesson opens at its symptom (?at=symptom), not
		// at the pass before with Next pass.
		symptom bool
	}{{"node-dies-at-3am", 38, false}, {"node-dies-at-3am", 44, false}, {"stuck-rollout", 107, true}} {
		where := fmt.Sprintf("%s pass %d", c.lesson, c.pass)
		if c.symptom {
			open(t, ctx, fmt.Sprintf("%s/s/%s?at=symptom", base, c.lesson))
			waitStatus(t, ctx, c.pass)
		} else {
			open(t, ctx, fmt.Sprintf("%s/s/%s?pass=%d", base, c.lesson, c.pass-1))
			waitStatus(t, ctx, c.pass-1)
			nextPass(t, ctx, c.pass)
		}

		bar := func() transportBox { return transportAt(t, ctx) }
		b := bar()
		if b.Bottom < b.Height-1 || b.Bottom > b.Height+1 {
			t.Errorf("%s: the transport ends at y %.0f of a %.0f px screen, not at its bottom", where, b.Bottom, b.Height)
		}
		for _, y := range []int{600, 1800, 100000} {
			eval[bool](t, ctx, "scrolling", fmt.Sprintf(`(window.scrollTo(0, %d), true)`, y))
			time.Sleep(50 * time.Millisecond)
			if s := bar(); s.NextTop != b.NextTop && y < 100000 {
				t.Errorf("%s: scrolled to %d, Next pass is at y %.0f, was %.0f", where, y, s.NextTop, b.NextTop)
			}
		}
		// At the end of the page the transport has its own room: nothing
		// of the page is under it.
		if hidden := underTransport(t, ctx, "section, .workspace > *, .share, .log"); hidden != "" {
			t.Errorf("%s: at the end of the page the transport hides %s", where, hidden)
		}
		eval[bool](t, ctx, "scrolling back", `(window.scrollTo(0, 0), true)`)

		if cut := eval[[]string](t, ctx, "looking for cut text", cutCheck); len(cut) == 0 {
			t.Errorf("%s: nothing of the stage is cut on a phone: the check below proves nothing", where)
		}
		// The expander, with the keyboard: focus it and press Enter.
		eval[bool](t, ctx, "focusing Show all", `([...document.querySelectorAll("button")].find(b => b.textContent.trim() == "Show all").focus(), true)`)
		do(t, ctx, "pressing Enter", chromedp.KeyEvent(kb.Enter))
		poll(t, ctx, "the text opens", `(() => { const b = document.querySelector("button.expand[aria-expanded]");
			return b && b.getAttribute("aria-expanded") == "true" && b.textContent.trim() == "Show less" })()`, 5*time.Second)
		if cut := eval[[]string](t, ctx, "looking for cut text", cutCheck); len(cut) > 0 {
			for _, c := range cut {
				t.Errorf("%s, opened: %s", where, c)
			}
		}
		if status := text(t, ctx, `[role="status"]`); !strings.Contains(status, fmt.Sprintf("Pass %d", c.pass)) {
			t.Errorf("%s: opening the text moved the run: %q", where, status)
		}
		// The screenshot shows the opened text from the story line down,
		// as a learner sees it after scrolling to it.
		eval[bool](t, ctx, "scrolling to the story line", `(window.scrollTo(0, document.querySelector(".story-line").getBoundingClientRect().top + scrollY - 8), true)`)
		shot := run(t, ctx, "screenshot", chromedp.CaptureScreenshot())
		eval[bool](t, ctx, "scrolling back", `(window.scrollTo(0, 0), true)`)
		if err := os.MkdirAll(artifactsDir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(artifactsDir, fmt.Sprintf("phone-%s-%d-open.png", c.lesson, c.pass)), shot, 0o644); err != nil {
			t.Fatal(err)
		}
		axeCheck(t, ctx, where+" at 390×844, opened")
		clickButton(t, ctx, "Show less")
		poll(t, ctx, "the text closes", `document.querySelector("button.expand[aria-expanded]").getAttribute("aria-expanded") == "false"`, 5*time.Second)
	}
}
