//go:build browser && !wasm

package main

import (
	"context"
	"fmt"
	"math"
	"net/url"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The transport holds still. A learner presses Next pass again and again
// without looking at the button: the text above it (a story line that
// wraps to one line or two, a question, a note) must never move it.
// These checks click as the learner does: real mouse events, at the point
// where Next pass was when the page opened.

// transportLessons are lessons whose first 50 passes ask no question (a
// question waits for its answer), with a story line that changes on the
// way, and one of them with the failure table's extra buttons.
var transportLessons = []string{"stuck-rollout", "controllers-chain", "reconcile-only-when-run"}

// transportClicks is how many times each check presses Next pass.
const transportClicks = 50

// controlsAt is JavaScript that returns, for the document doc, where each
// control of the transport is (by its name), in the coordinates of the
// top window: offX and offY are the document's frame's offset in it.
const controlsAt = `(doc, offX, offY) => {
	const out = {};
	const bar = doc.querySelector("section.transport");
	if (!bar) return out;
	for (const el of bar.querySelectorAll("button:not(.mark-button), select, input")) {
		if (el.getClientRects().length == 0) continue;
		const r = el.getBoundingClientRect();
		const name = el.id || el.getAttribute("aria-label") || el.textContent.trim();
		if (el.classList.contains("play")) {
			// Play and Pause are one button.
			out["Play"] = [r.left + offX, r.top + offY, r.width, r.height];
			continue;
		}
		out[name] = [r.left + offX, r.top + offY, r.width, r.height];
	}
	return out;
}`

// transportFrame says where the lesson's document is: the page itself, or
// the course page's frame.
type transportFrame struct {
	doc, win string
}

func (f transportFrame) offset() string {
	if f.doc == "document" {
		return "0, 0"
	}
	return `document.getElementById("f").getBoundingClientRect().left, document.getElementById("f").getBoundingClientRect().top`
}

// clickNextPassInPlace clicks Next pass transportClicks times at the
// point where it was when the lesson opened, and checks that each click
// ran a pass and that no control of the transport moved by a pixel.
func clickNextPassInPlace(t *testing.T, ctx context.Context, where string, f transportFrame) {
	t.Helper()
	type rects map[string][4]float64
	read := func() rects {
		return eval[rects](t, ctx, "reading where the transport's controls are", fmt.Sprintf("(%s)(%s, %s)", controlsAt, f.doc, f.offset()))
	}
	first := read()
	next, ok := first["Next pass"]
	if !ok {
		t.Fatalf("%s: no Next pass in the transport (%v)", where, first)
	}
	x, y := next[0]+next[2]/2, next[1]+next[3]/2
	worst, worstName, worstPass := 0.0, "", 0
	for i := 1; i <= transportClicks; i++ {
		do(t, ctx, "clicking at Next pass's first place", chromedp.MouseClickXY(x, y))
		status := fmt.Sprintf(`/\bPass %d\b/.test((%s.querySelector('[role="status"]') || {}).textContent || "")`, i, f.doc)
		if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](status, chromedp.WithPollingTimeout(5*time.Second), chromedp.WithPollingInterval(10*time.Millisecond))); err != nil {
			under := eval[string](t, ctx, "reading what is under the pointer", fmt.Sprintf(`(() => {
				const e = document.elementFromPoint(%f, %f); const d = e && e.tagName == "IFRAME" ? e.contentDocument.elementFromPoint(%f - e.getBoundingClientRect().left, %f - e.getBoundingClientRect().top) : e;
				return d ? d.outerHTML.slice(0, 160) : "nothing" })()`, x, y, x, y))
			t.Fatalf("%s: click %d at (%.0f, %.0f) ran no pass (status %q); under the pointer: %s", where, i, x, y,
				eval[string](t, ctx, "reading the status", f.doc+`.querySelector('[role="status"]').textContent`), under)
		}
		now := read()
		for name, r0 := range first {
			r, ok := now[name]
			if !ok {
				if name != "Next pass" && name != "Play" {
					continue // a control that comes and goes is checked where it is
				}
				t.Errorf("%s: after click %d %s is gone", where, i, name)
				continue
			}
			for k := range 4 {
				if d := math.Abs(r[k] - r0[k]); d > worst {
					worst, worstName, worstPass = d, name, i
				}
			}
		}
	}
	t.Logf("%s: %d clicks at (%.0f, %.0f), %d passes; the transport's controls moved at most %.1f px", where, transportClicks, x, y, transportClicks, worst)
	if worst > 0 {
		t.Errorf("%s: %s moved %.1f px by pass %d: the transport shifts under the pointer", where, worstName, worst, worstPass)
	}
}

func TestBrowserTransport(t *testing.T) {
	base := siteWithCourse(t)
	ctx := browser(t)
	defer do(t, ctx, "back to the desktop", chromedp.EmulateViewport(1280, 900))

	for _, vp := range []struct{ w, h int }{{1280, 800}, {390, 844}} {
		t.Run(fmt.Sprintf("%dx%d", vp.w, vp.h), func(t *testing.T) {
			do(t, ctx, "sizing the window", chromedp.EmulateViewport(int64(vp.w), int64(vp.h)))
			for _, id := range transportLessons {
				open(t, ctx, base+"/s/"+id)
				waitStatus(t, ctx, 0)
				clickNextPassInPlace(t, ctx, fmt.Sprintf("%s at %d×%d", id, vp.w, vp.h), transportFrame{"document", "window"})
				noAlert(t, ctx)
			}
		})
	}

	t.Run("frame 700x500", func(t *testing.T) {
		do(t, ctx, "sizing the window", chromedp.EmulateViewport(740, 540))
		for _, id := range transportLessons {
			src := "/s/" + id + "?embed=1"
			do(t, ctx, "opening the course page", chromedp.Navigate(base+"/test-course?w=700&h=500&src="+url.QueryEscape(src)))
			frame := `document.getElementById("f").contentDocument`
			poll(t, ctx, "the lesson loads in the frame", `(() => { const d = `+frame+`; return d && d.readyState == "complete" && !d.getElementById("app-wasm-loader")
				&& d.querySelector(".later") == null && /\bPass 0\b/.test((d.querySelector('[role="status"]') || {}).textContent || "") })()`, 30*time.Second)
			clickNextPassInPlace(t, ctx, id+" in a 700×500 frame", transportFrame{frame, `document.getElementById("f").contentWindow`})
		}
	})
}
