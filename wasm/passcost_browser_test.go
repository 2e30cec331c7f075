//go:build browser && !wasm

package main

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// What a Next pass costs the page, counted rather than timed (a count does
// not move with the machine's load): the DOM nodes it touches, seen by a
// MutationObserver from the click until the page is quiet again (two
// frames after the status says the pass, and the browser idle), and where
// on the page they are.

// passCostJS clicks Next pass n times on a phone-sized page and returns,
// per click, the mutation records, and, over all clicks, the records by the
// part of the page they are in and those that wrote what was there already.
const passCostJS = `(async (n) => {
  const status = () => document.querySelector('[role="status"]');
  const passOf = () => { const m = /\bPass (\d+)\b/.exec((status() || {}).textContent || ""); return m ? +m[1] : -1; };
  const button = (name) => [...document.querySelectorAll("button")].find((b) => b.textContent.trim() === name);
  const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  const idle = () => new Promise((r) => requestIdleCallback(r, {timeout: 2000}));
  const quiet = async () => { await frame(); await frame(); await idle(); await frame(); };
  const part = (node) => {
    for (let e = node.nodeType === 1 ? node : node.parentElement; e; e = e.parentElement) {
      if (e.id && e.id !== "main" && e.id !== "app-main") return "#" + e.id;
      if (e.tagName === "SECTION" || e.tagName === "ASIDE" || e.tagName === "NAV" || e.tagName === "FIGURE") return e.tagName.toLowerCase() + "." + (e.className || "").split(" ")[0];
    }
    return "(page)";
  };
  const out = {records: [], nodes: [], same: 0, parts: {}, passes: 0, skipped: 0, error: ""};
  let recs = [];
  const obs = new MutationObserver((ms) => { recs.push(...ms); });
  obs.observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true, attributeOldValue: true, characterDataOldValue: true});
  await quiet(); obs.takeRecords(); recs = [];
  for (let i = 0; i < n; i++) {
    const skip = button("Skip the question");
    if (skip) { skip.click(); out.skipped++; await quiet(); recs.push(...obs.takeRecords()); recs = []; continue; }
    const next = button("Next pass");
    if (!next || next.disabled) break;
    const before = passOf();
    next.click();
    const t0 = performance.now();
    while (passOf() === before && !button("Skip the question") && performance.now() - t0 < 30000) await frame();
    await quiet();
    recs.push(...obs.takeRecords());
    if (passOf() !== before + 1) { recs = []; continue; }
    out.passes++;
    let nodes = 0;
    for (const r of recs) {
      nodes += r.type === "childList" ? r.addedNodes.length + r.removedNodes.length : 1;
      const p = part(r.target);
      out.parts[p] = (out.parts[p] || 0) + 1;
      if (r.type === "attributes" && r.oldValue === r.target.getAttribute(r.attributeName)) out.same++;
      if (r.type === "characterData" && r.oldValue === r.target.data) out.same++;
    }
    out.records.push(recs.length);
    out.nodes.push(nodes);
    recs = [];
  }
  obs.disconnect();
  return out;
})`

type passCost struct {
	Records []int          `json:"records"`
	Nodes   []int          `json:"nodes"`
	Same    int            `json:"same"`
	Parts   map[string]int `json:"parts"`
	Passes  int            `json:"passes"`
	Skipped int            `json:"skipped"`
	Error   string         `json:"error"`
}

func passCostMedian(xs []int) int {
	if len(xs) == 0 {
		return 0
	}
	s := append([]int(nil), xs...)
	sort.Ints(s)
	return s[len(s)/2]
}

func TestBrowserPassCost(t *testing.T) {
	base := site(t)
	ctx := browser(t)
	do(t, ctx, "a 390×844 phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile))
	for _, id := range []string{"apply-is-not-running", "edge-vs-level"} {
		open(t, ctx, base+"/s/"+id)
		waitStatus(t, ctx, 0)
		c, err := probeEval[passCost](ctx, 5*time.Minute, passCostJS+"(40)")
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		total := 0
		for _, n := range c.Nodes {
			total += n
		}
		type kv struct {
			k string
			v int
		}
		var parts []kv
		for k, v := range c.Parts {
			parts = append(parts, kv{k, v})
		}
		sort.Slice(parts, func(i, j int) bool { return parts[i].v > parts[j].v })
		var b strings.Builder
		for _, p := range parts {
			fmt.Fprintf(&b, " %s %d;", p.k, p.v)
		}
		t.Logf("%s: %d passes (%d questions skipped): mutation records per pass median %d, max %d; nodes touched per pass median %d, max %d, %d in all; %d wrote what was there; by part:%s",
			id, c.Passes, c.Skipped, passCostMedian(c.Records), passCostMax(c.Records), passCostMedian(c.Nodes), passCostMax(c.Nodes), total, c.Same, b.String())
	}
}

func passCostMax(xs []int) int {
	m := 0
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}
