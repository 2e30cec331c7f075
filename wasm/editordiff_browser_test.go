//go:build browser && !wasm

package main

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The editor's Diff: reached by Tab from Apply, it prints what Apply would
// change (kubectl diff's - and + lines, marked) in the editor's message
// area and changes nothing (the status names the same pass); the diff
// scrolls sideways in itself on a phone, never the page; Apply works as
// before.
func TestBrowserPlayEditorDiff(t *testing.T) {
	base := playSite(t)
	ctx, _ := playBrowser(t, t.TempDir())
	defer do(t, ctx, "back to the desktop", chromedp.EmulateViewport(1280, 900), darkMode(false))
	do(t, ctx, "a 1280×800 screen", chromedp.EmulateViewport(1280, 800))
	openPlay(t, ctx, base+"/play")
	clickButton(t, ctx, "Start over")
	nextUntil(t, ctx, "convergence", `· converged`, 400)
	before := text(t, ctx, `[role="status"]`)
	n := statusPass(t, ctx)
	setEditor(t, ctx, strings.Replace(editorText(t, ctx), "replicas: 3", "replicas: 5", 1))

	eval[bool](t, ctx, "focusing Apply", `(() => { [...document.querySelectorAll(".editor-pane button")].find(b => b.textContent.trim() == "Apply").focus(); return true })()`)
	do(t, ctx, "pressing Tab", chromedp.KeyEvent(kb.Tab))
	if f := focused(t, ctx); f != "diff" {
		t.Fatalf("Tab from Apply goes to #%s, want Diff", f)
	}
	if title := eval[string](t, ctx, "reading Diff's title", `document.getElementById("diff").title`); !strings.Contains(title, "without changing anything") {
		t.Errorf("Diff's title is %q", title)
	}
	do(t, ctx, "pressing Diff", chromedp.KeyEvent(kb.Enter))
	poll(t, ctx, "the diff", `document.getElementById("apply-result").textContent.includes("+  replicas: 5")`, 5*time.Second)
	adds := eval[[]string](t, ctx, "reading the + lines", `[...document.querySelectorAll("#apply-result .d-add")].map(e => e.textContent.trim())`)
	dels := eval[[]string](t, ctx, "reading the - lines", `[...document.querySelectorAll("#apply-result .d-del")].map(e => e.textContent.trim())`)
	if !contains(adds, "+  replicas: 5") || !contains(dels, "-  replicas: 3") || !contains(adds, "+  generation: 2") {
		t.Errorf("the diff's lines: + %q, - %q", adds, dels)
	}
	if got := eval[string](t, ctx, "reading the result's role", `document.getElementById("apply-result").getAttribute("role")`); got != "status" {
		t.Errorf("the result's role is %q", got)
	}
	if after := text(t, ctx, `[role="status"]`); after != before || statusPass(t, ctx) != n {
		t.Errorf("after the diff the status reads %q, was %q", after, before)
	}
	if out := kubectl(t, ctx, "get deployment web -o jsonpath={.spec.replicas}"); !strings.Contains(out, "3") || strings.Contains(out, "5") {
		t.Errorf("after the diff web's replicas are %q, want 3", out)
	}
	if v := editorText(t, ctx); !strings.Contains(v, "replicas: 5") {
		t.Errorf("the diff changed the editor's text: %q", v)
	}

	for _, dark := range []bool{false, true} {
		name := "play-diff"
		if dark {
			name += "-dark"
		}
		do(t, ctx, "the colour scheme", darkMode(dark))
		playShot(t, ctx, name, ".editor-pane .buttons")
		axeCheck(t, ctx, "/play with a diff shown ("+name+")")
	}
	do(t, ctx, "light again", darkMode(false))

	// On a phone the diff scrolls sideways in itself, not the page.
	do(t, ctx, "a 390 px phone", chromedp.EmulateViewport(390, 844))
	wide := eval[[]int](t, ctx, "measuring the diff", `(() => { const e = document.getElementById("apply-result");
		e.scrollLeft = 10000; const r = [e.scrollWidth, e.clientWidth, e.scrollLeft]; e.scrollLeft = 0; return r })()`)
	if wide[0] <= wide[1] || wide[2] == 0 {
		t.Errorf("the diff does not scroll sideways in itself at 390 px: scrollWidth %d, clientWidth %d, scrollLeft %d", wide[0], wide[1], wide[2])
	}
	noSidewaysScroll(t, ctx, "/play at 390 px with a diff")
	playShot(t, ctx, "play-diff-390", ".editor-pane .buttons")
	do(t, ctx, "back to 1280×800", chromedp.EmulateViewport(1280, 800))

	// Apply works as before.
	clickButton(t, ctx, "Apply")
	poll(t, ctx, "the apply's result", `document.getElementById("apply-result").textContent.includes("deployment.apps/web configured")`, 5*time.Second)
	if n := eval[int](t, ctx, "counting marked lines", `document.querySelectorAll("#apply-result span").length`); n != 0 {
		t.Errorf("Apply's result has %d marked lines", n)
	}
	nextUntil(t, ctx, "convergence", `· converged`, 400)
	if out := kubectl(t, ctx, "get deployment web -o jsonpath={.spec.replicas}"); !strings.Contains(out, "5") {
		t.Errorf("after Apply web's replicas are %q, want 5", out)
	}
}

func contains(list []string, s string) bool {
	for _, l := range list {
		if l == s {
			return true
		}
	}
	return false
}
