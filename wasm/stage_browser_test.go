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
const stageCheck = `(doc, win) => {
	const out = [];
	const shown = el => el && el.getClientRects().length > 0 && win.getComputedStyle(el).visibility != "hidden";
	const inside = (el, name) => {
		if (!shown(el)) { out.push(name + " is not shown"); return }
		const r = el.getBoundingClientRect();
		if (r.top < -1 || r.left < -1 || r.bottom > win.innerHeight + 1 || r.right > win.innerWidth + 1) {
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
	const inside = (el, name) => {
		if (!el || el.getClientRects().length == 0) { out.push(name + " is not shown"); return }
		const r = el.getBoundingClientRect();
		if (r.top < -1 || r.left < -1 || r.bottom > win.innerHeight + 1 || r.right > win.innerWidth + 1) {
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
