//go:build browser && !wasm

package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"reconcile/app/session"
	"reconcile/engine/controller"
	"reconcile/scenarios"
)

// The compare page runs the lesson edge-vs-level twice, stepped together.
// After each mishap button, what the page shows must be what the engine
// does: the same moment in both twins, the lines of the pass just run and
// no other, the counts per Deployment; and all of it on one laptop screen.

// twinRead is what the page shows of one twin.
type twinRead struct {
	Pass          int
	At            string
	Ran           string
	RanController string
	Lit           string
	// CodeLit is the lines drawn lit, read from the code block itself;
	// Current counts the lines marked as this pass's.
	CodeLit string
	Current int
	// Tag is the words beside the code's marked line; Executing is any
	// "executing" drawn by the style sheet.
	Tag       string
	Executing string
	Counts    map[string][2]int // Deployment → pods, wanted
	Main      string            // the Deployment shown large
	Gap       string            // its gap in words
	Off       bool
	Verdict   string
	Words     string // what the pass was, or why no line is lit
}

// compareRead is what the page shows of both twins.
type compareRead struct {
	At                  string
	EdgePass, LevelPass int
	Edge, Level         twinRead
}

const readCompare = `(() => {
	const twin = k => {
		const s = document.querySelector(".twin." + k), d = s.dataset, counts = {};
		s.querySelectorAll("[data-deployment]").forEach(e => counts[e.dataset.deployment] = [+e.dataset.pods, +e.dataset.wanted]);
		const main = s.querySelector(".count.main");
		return {Pass: +d.pass, At: d.at, Ran: d.ran, RanController: d.ranController, Lit: d.lit,
			CodeLit: [...s.querySelectorAll(".cmp-code li")].map((li, i) => li.classList.contains("ran") ? i + 1 : 0).filter(n => n).join(","),
			Current: s.querySelectorAll('.cmp-code [aria-current="step"]').length,
			Tag: (s.querySelector(".cmp-code .tag") || {textContent: ""}).textContent.trim(),
			Executing: [...s.querySelectorAll(".cmp-code code")].map(c => getComputedStyle(c, "::after").content).filter(c => /executing/.test(c)).join(" "),
			Counts: counts, Main: main.dataset.deployment, Gap: main.querySelector(".gap").textContent.trim(),
			Off: s.classList.contains("off"), Verdict: s.querySelector(".verdict").textContent.trim(),
			Words: s.querySelector(".passline").textContent.trim()};
	};
	const st = document.querySelector('[role="status"]').dataset;
	return {At: st.at, EdgePass: +st.edgePass, LevelPass: +st.levelPass, Edge: twin("edge"), Level: twin("level")};
})()`

// compareFits is JavaScript that lists what of the comparison is outside
// the viewport (empty when all of it is in).
const compareFits = `(() => {
	const out = [];
	const inside = (el, name) => {
		if (!el || el.getClientRects().length == 0) { out.push(name + " is not shown"); return }
		const r = el.getBoundingClientRect();
		if (r.top < -1 || r.left < -1 || r.bottom > innerHeight + 1 || r.right > innerWidth + 1) {
			out.push(name + " at x " + Math.round(r.left) + "–" + Math.round(r.right) + ", y " + Math.round(r.top) + "–" + Math.round(r.bottom) +
				" of a " + innerWidth + "×" + innerHeight + " viewport");
		}
	};
	inside(document.querySelector('[role="status"]'), "the status");
	document.querySelectorAll("button.demo").forEach(b => inside(b, "the button " + b.textContent.trim()));
	for (const k of ["edge", "level"]) {
		inside(document.querySelector(".twin." + k + " h2"), "the " + k + " twin's name");
		inside(document.querySelector(".twin." + k + " .count.main"), "the " + k + " twin's count");
		inside(document.querySelector(".twin." + k + " .others"), "the " + k + " twin's other counts");
		inside(document.querySelector(".twin." + k + " .cmp-code"), "the " + k + " twin's pseudocode");
		inside(document.querySelector(".twin." + k + " .passline"), "the " + k + " twin's pass");
	}
	inside(document.querySelector("svg.chart"), "the chart");
	inside(document.querySelector(".diverge-summary"), "the chart's caption");
	const ask = document.querySelector(".ask");
	if (ask) {
		inside(ask.querySelector("h2"), "the question");
		ask.querySelectorAll("button").forEach(b => inside(b, "the answer " + b.textContent.trim()));
	}
	if (Math.round(scrollY) != 0) out.push("the page is scrolled by " + Math.round(scrollY) + " px");
	return out;
})()`

// nativeTwins starts the twins of edge-vs-level and gives them d, as the
// page does.
func nativeTwins(t *testing.T, d session.Demonstration) *session.Twins {
	t.Helper()
	sc, err := scenarios.Load("edge-vs-level")
	if err != nil {
		t.Fatal(err)
	}
	tw, err := session.NewTwins(sc)
	if err != nil {
		t.Fatal(err)
	}
	if err := tw.Give(d); err != nil {
		t.Fatal(err)
	}
	return tw
}

// nativeAt steps native twins until each twin has reached the pass the
// page shows, and returns what they show then.
func nativeAt(t *testing.T, tw *session.Twins, page compareRead) session.TwinsView {
	t.Helper()
	for {
		v := tw.Read()
		if v.Level.Pass >= page.LevelPass && v.Edge.Pass >= page.EdgePass {
			return v
		}
		if !tw.Step() {
			return tw.Read()
		}
	}
}

// sameAsNative compares what the page shows with the native twins at the
// same passes, and reports whether the pass just run was a ReplicaSet
// controller's in some twin.
func sameAsNative(t *testing.T, what string, page compareRead, v session.TwinsView) (rsPass, otherPass bool) {
	t.Helper()
	if page.LevelPass != v.Level.Pass || page.EdgePass != v.Edge.Pass || page.At != v.Now {
		t.Fatalf("%s: the page is at t=%s, edge pass %d, level pass %d; natively the twins reach t=%s, edge pass %d, level pass %d",
			what, page.At, page.EdgePass, page.LevelPass, v.Now, v.Edge.Pass, v.Level.Pass)
	}
	for _, c := range []struct {
		name string
		p    twinRead
		n    session.TwinView
	}{{"edge", page.Edge, v.Edge}, {"level", page.Level, v.Level}} {
		if c.p.At != v.Now {
			t.Errorf("%s: the %s twin shows t=%s, the status t=%s", what, c.name, c.p.At, v.Now)
		}
		if c.p.Pass != c.n.Pass {
			t.Errorf("%s: the %s twin shows pass %d, natively %d", what, c.name, c.p.Pass, c.n.Pass)
		}
		for _, d := range c.n.Each {
			if got := c.p.Counts[d.Name]; got != [2]int{d.Pods, d.Wanted} {
				t.Errorf("%s: the %s twin shows %s at %d of %d, natively %d of %d", what, c.name, d.Name, got[0], got[1], d.Pods, d.Wanted)
			}
		}
		if len(c.p.Counts) != len(c.n.Each) {
			t.Errorf("%s: the %s twin shows %d Deployments, natively %d", what, c.name, len(c.p.Counts), len(c.n.Each))
		}
		lit := joinLines(c.n.Lit)
		if c.p.Lit != lit || c.p.CodeLit != lit {
			t.Errorf("%s: the %s twin lights lines %q (drawn %q), natively the pass just run ran %q", what, c.name, c.p.Lit, c.p.CodeLit, lit)
		}
		if want := min(1, len(c.n.Lit)); c.p.Current != want {
			t.Errorf("%s: the %s twin marks %d lines as this pass's, want %d", what, c.name, c.p.Current, want)
		}
		switch {
		case c.p.Executing != "":
			t.Errorf("%s: the %s twin's code says %s", what, c.name, c.p.Executing)
		case len(c.n.Lit) > 0 && c.p.Tag != fmt.Sprintf("◀ ran in pass %d", c.n.Ran.N):
			t.Errorf("%s: the %s twin's lit line says %q, want it to name pass %d", what, c.name, c.p.Tag, c.n.Ran.N)
		case len(c.n.Lit) == 0 && c.n.HasLast && c.p.Tag != fmt.Sprintf("last ran at pass %d", c.n.Last.N):
			t.Errorf("%s: the %s twin's last ReplicaSet pass is %d, its code says %q", what, c.name, c.n.Last.N, c.p.Tag)
		}
		switch {
		case !c.n.HasRan:
			if c.p.Ran != "" || c.p.Lit != "" {
				t.Errorf("%s: the %s twin ran no pass, but shows pass %q with lines %q", what, c.name, c.p.Ran, c.p.Lit)
			}
		case c.p.Ran != strconv.Itoa(c.n.Ran.N) || c.p.RanController != c.n.Ran.Controller:
			t.Errorf("%s: the %s twin shows pass %s of %s as just run, natively pass %d of %s", what, c.name, c.p.Ran, c.p.RanController, c.n.Ran.N, c.n.Ran.Controller)
		case c.n.Ran.Controller == controller.ReplicaSetController:
			rsPass = true
			if c.p.Lit == "" {
				t.Errorf("%s: a ReplicaSet pass of the %s twin lights no line", what, c.name)
			}
		default:
			otherPass = true
			if c.p.Lit != "" || !strings.Contains(c.p.Words, "no ReplicaSet line runs") {
				t.Errorf("%s: pass %s of the %s twin was the %s's, yet lines %q are lit (%q)", what, c.p.Ran, c.name, c.p.RanController, c.p.Lit, c.p.Words)
			}
		}
	}
	return rsPass, otherPass
}

func joinLines(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ",")
}

// viewShot keeps a screenshot of the viewport, as a learner sees it.
func viewShot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	png := run(t, ctx, "screenshot "+name, chromedp.CaptureScreenshot())
	if err := os.MkdirAll(artifactsDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(artifactsDir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// fits fails for each part of the comparison outside the viewport.
func fits(t *testing.T, ctx context.Context, what string) {
	t.Helper()
	for _, o := range eval[[]string](t, ctx, "measuring the comparison", compareFits) {
		t.Errorf("%s: %s", what, o)
	}
}

// statusKey is the status's passes, to see it change.
const statusKey = `(() => { const d = document.querySelector('[role="status"]').dataset; return d.at + "/" + d.edgePass + "/" + d.levelPass })()`

// playToEnd plays the twins fast until nothing more happens.
func playToEnd(t *testing.T, ctx context.Context) {
	t.Helper()
	choose(t, ctx, "speed", "30 passes a second", "change")
	if eval[bool](t, ctx, "looking for Play", `[...document.querySelectorAll("button")].some(b => b.textContent.trim() == "Play" && !b.disabled)`) {
		clickButton(t, ctx, "Play")
	}
	poll(t, ctx, "the twins to finish", `/nothing more happens/.test(document.querySelector('[role="status"]').textContent)`, 60*time.Second)
}

// askAndAnswer clicks the button of d, checks the question it asks
// against the native twins' future, answers it (choice -1: skips it) and
// pauses the play that follows. It returns the native twins.
func askAndAnswer(t *testing.T, ctx context.Context, d session.Demonstration, choice int) *session.Twins {
	t.Helper()
	clickButton(t, ctx, d.Button)
	poll(t, ctx, "the question", `document.querySelectorAll(".ask button.choice").length > 0`, 10*time.Second)
	tw := nativeTwins(t, d)
	q, ok := tw.Question()
	if !ok {
		t.Fatalf("%s: no native question", d.Name)
	}
	got := eval[[]string](t, ctx, "reading the choices", `[...document.querySelectorAll(".ask button.choice")].map(b => b.textContent.trim())`)
	var want []string
	for _, c := range q.Choices {
		want = append(want, strconv.Itoa(c))
	}
	if strings.Join(got, " ") != strings.Join(want, " ") || len(got) != 3 {
		t.Errorf("%s: choices %q, natively %q", d.Name, got, want)
	}
	if h := text(t, ctx, ".ask h2"); h != q.Text {
		t.Errorf("%s: the question reads %q, want %q", d.Name, h, q.Text)
	}
	if f := eval[string](t, ctx, "reading the focus", `document.activeElement ? document.activeElement.id : ""`); f != "ask-title" {
		t.Errorf("%s: the focus is on #%s, want the question", d.Name, f)
	}
	if eval[bool](t, ctx, "reading Next pass", `[...document.querySelectorAll("button")].find(b => b.textContent.trim() == "Next pass").disabled`) != true {
		t.Errorf("%s: Next pass is offered while the question waits", d.Name)
	}
	// Slowly, so that the test can pause before the first pass plays.
	choose(t, ctx, "speed", "1 pass every 2 s", "change")
	if choice < 0 {
		clickButton(t, ctx, "Skip the question")
	} else {
		do(t, ctx, "answering", chromedp.Click(chromedp.CSS(fmt.Sprintf(`.ask button.choice[data-choice="%d"]`, choice))))
	}
	poll(t, ctx, "playing", `[...document.querySelectorAll("button")].some(b => b.textContent.trim() == "Pause")`, 5*time.Second)
	clickButton(t, ctx, "Pause")
	poll(t, ctx, "paused", `[...document.querySelectorAll("button")].some(b => b.textContent.trim() == "Play")`, 5*time.Second)
	return tw
}

func TestBrowserCompare(t *testing.T) {
	base := site(t)
	ctx := browser(t)
	defer do(t, ctx, "back to the desktop", chromedp.EmulateViewport(1280, 900))
	do(t, ctx, "sizing the window", chromedp.EmulateViewport(1280, 800))

	open(t, ctx, base+"/compare")
	for _, name := range []string{"Edge-triggered", "Level-triggered"} {
		n := eval[int](t, ctx, "finding the region "+name, fmt.Sprintf(`[...document.querySelectorAll("section[aria-labelledby]")].filter(s =>
			document.getElementById(s.getAttribute("aria-labelledby")).textContent.trim() == %q).length`, name))
		if n != 1 {
			t.Errorf("%d regions labelled %q, want 1", n, name)
		}
	}
	labelled(t, ctx, "speed", "Speed")

	// From a fresh page, each button: the question, then pass by pass
	// against the native twins, then on to the end.
	for i, d := range session.Demonstrations {
		t.Run(d.Name, func(t *testing.T) {
			open(t, ctx, base+"/compare")
			choice := []int{-1, 0, 2}[i%3]
			clickButton(t, ctx, d.Button)
			poll(t, ctx, "the question", `document.querySelectorAll(".ask button.choice").length > 0`, 10*time.Second)
			fits(t, ctx, d.Name+", asking")
			for _, k := range []string{"edge", "level"} {
				if g := text(t, ctx, ".twin."+k+" .count.main .gap"); strings.Contains(g, "stays") || strings.Contains(g, "for now") {
					t.Errorf("%s: while the question waits, the %s twin's gap reads %q: it gives the answer away", d.Name, k, g)
				}
			}
			if i == 0 {
				viewShot(t, ctx, "compare-question")
				axeCheck(t, ctx, "/compare asking")
			}
			clickButton(t, ctx, "Skip the question") // and ask again, to answer
			poll(t, ctx, "playing", `[...document.querySelectorAll("button")].some(b => b.textContent.trim() == "Pause")`, 5*time.Second)
			clickButton(t, ctx, "Pause")
			poll(t, ctx, "paused", `[...document.querySelectorAll("button")].some(b => b.textContent.trim() == "Play")`, 5*time.Second)
			tw := askAndAnswer(t, ctx, d, choice)

			page := eval[compareRead](t, ctx, "reading the page", readCompare)
			sameAsNative(t, "after "+d.Button, page, nativeAt(t, tw, page))
			var rs, other int
			for n := 0; n < 14; n++ {
				before := eval[string](t, ctx, "reading the status", statusKey)
				clickButton(t, ctx, "Next pass")
				poll(t, ctx, "the next moment", statusKey+` != `+strconv.Quote(before), 5*time.Second)
				page := eval[compareRead](t, ctx, "reading the page", readCompare)
				r, o := sameAsNative(t, fmt.Sprintf("%s, Next pass %d", d.Button, n+1), page, nativeAt(t, tw, page))
				if r {
					rs++
					if rs == 1 {
						viewShot(t, ctx, "compare-"+d.Name+"-lit")
					}
				}
				if o {
					other++
				}
				if t.Failed() {
					return
				}
			}
			if rs == 0 || other == 0 {
				t.Errorf("%s: in 14 passes, %d lit a ReplicaSet line and %d ran another controller: the check saw one kind only", d.Name, rs, other)
			}
			fits(t, ctx, d.Name+", after Next pass")
			viewShot(t, ctx, "compare-"+d.Name+"-stepping")

			playToEnd(t, ctx)
			page = eval[compareRead](t, ctx, "reading the page", readCompare)
			v := nativeAt(t, tw, page)
			sameAsNative(t, d.Button+" at the end", page, v)
			checkEnd(t, ctx, d, page, v, tw)
			fits(t, ctx, d.Name+", at the end")
			viewShot(t, ctx, "compare-"+d.Name)
			axeCheck(t, ctx, "/compare after "+d.Button)
			noAlert(t, ctx)
		})
		if t.Failed() {
			return
		}
	}

	// In sequence on one page, without Reset: each button starts from a
	// settled world, so each ends as it does alone.
	t.Run("in sequence", func(t *testing.T) {
		open(t, ctx, base+"/compare")
		for _, d := range session.Demonstrations {
			tw := askAndAnswer(t, ctx, d, -1)
			page := eval[compareRead](t, ctx, "reading the page", readCompare)
			if page.At != "1m0s" {
				t.Errorf("%s in sequence starts at t=%s, want the settled moment 1m0s", d.Name, page.At)
			}
			playToEnd(t, ctx)
			page = eval[compareRead](t, ctx, "reading the page", readCompare)
			v := nativeAt(t, tw, page)
			sameAsNative(t, d.Button+" in sequence", page, v)
			checkEnd(t, ctx, d, page, v, tw)
			fits(t, ctx, d.Name+" in sequence")
		}
		viewShot(t, ctx, "compare-sequence")
		clickButton(t, ctx, "Reset")
		poll(t, ctx, "back at the start", `document.querySelector('[role="status"]').dataset.at == "0s"`, 5*time.Second)
		if s := text(t, ctx, ".diverge-summary"); !strings.HasPrefix(s, "So far") {
			t.Errorf("after Reset the caption says %q", s)
		}
		if n := eval[int](t, ctx, "looking for the divergence", `document.querySelectorAll(".chart .diverge").length`); n != 0 {
			t.Errorf("after Reset the chart marks %d divergences", n)
		}
		noAlert(t, ctx)
	})

	t.Run("dark", func(t *testing.T) {
		do(t, ctx, "dark mode", darkMode(true))
		defer do(t, ctx, "light mode", darkMode(false))
		open(t, ctx, base+"/compare")
		askAndAnswer(t, ctx, session.Demonstrations[0], -1)
		playToEnd(t, ctx)
		fits(t, ctx, "dark")
		viewShot(t, ctx, "compare-dark-missed")
		axeCheck(t, ctx, "/compare in dark mode")
	})

	t.Run("390 wide", func(t *testing.T) {
		do(t, ctx, "sizing the window", chromedp.EmulateViewport(390, 844))
		open(t, ctx, base+"/compare")
		askAndAnswer(t, ctx, session.Demonstrations[1], -1)
		playToEnd(t, ctx)
		noSidewaysScroll(t, ctx, "/compare at 390 px")
		// Stacked: the edge twin above the level twin, the chart below.
		order := eval[[]float64](t, ctx, "reading the order", `[".twin.edge", ".twin.level", "svg.chart"].map(s => document.querySelector(s).getBoundingClientRect().top)`)
		if !(order[0] < order[1] && order[1] < order[2]) {
			t.Errorf("at 390 px the edge twin, the level twin and the chart are at y %v, want them stacked", order)
		}
		viewShot(t, ctx, "compare-390")
		do(t, ctx, "scrolling to the twins", chromedp.Evaluate[chromedp.Void](`document.querySelector(".twin.level").scrollIntoView()`))
		viewShot(t, ctx, "compare-390-level")
		axeCheck(t, ctx, "/compare at 390 px")
	})
}

// checkEnd checks the page once nothing more happens: the edge twin's
// Deployment stays off and says so, in red; the chart's axis starts at 0
// and marks the first difference on both lines; the caption is the native
// one.
func checkEnd(t *testing.T, ctx context.Context, d session.Demonstration, page compareRead, v session.TwinsView, tw *session.Twins) {
	t.Helper()
	if page.Edge.Main != d.Deployment || page.Level.Main != d.Deployment {
		t.Errorf("%s: the large counts are of %s and %s, want %s", d.Name, page.Edge.Main, page.Level.Main, d.Deployment)
	}
	if !strings.Contains(page.Edge.Gap, "and it stays") || !page.Edge.Off || !strings.HasPrefix(page.Edge.Verdict, d.Deployment+" is off") {
		t.Errorf("%s: the edge twin at the end: off %v, %q, %q", d.Name, page.Edge.Off, page.Edge.Verdict, page.Edge.Gap)
	}
	if page.Level.Gap != "as desired" || page.Level.Off {
		t.Errorf("%s: the level twin at the end: off %v, %q", d.Name, page.Level.Off, page.Level.Gap)
	}
	red := eval[[]string](t, ctx, "reading colours", `[".twin.edge h2", ".twin.edge .count.main .big", ".twin.level h2"].map(s => getComputedStyle(document.querySelector(s)).color)`)
	if red[0] != red[1] || red[0] == red[2] {
		t.Errorf("%s: the edge twin's name is %s, its count %s, the level twin's name %s: want the edge twin named in the colour of its gap", d.Name, red[0], red[1], red[2])
	}
	if s := text(t, ctx, ".diverge-summary"); s != v.Summary || !strings.Contains(s, "first differ") {
		t.Errorf("%s: the caption says %q, natively %q", d.Name, s, v.Summary)
	}
	marks := eval[[]int](t, ctx, "reading the chart", `[".chart .diverge", ".chart .diverge-dot.level", ".chart .diverge-dot.edge"].map(s => document.querySelectorAll(s).length)`)
	if marks[0] != 1 || marks[1] != 1 || marks[2] != 1 {
		t.Errorf("%s: the chart marks the first difference %d times, on the level line %d, on the edge line %d: want once each", d.Name, marks[0], marks[1], marks[2])
	}
	ticks := eval[[]string](t, ctx, "reading the axis", `[...document.querySelectorAll('.chart text[text-anchor="end"]')].map(e => e.textContent).filter(s => /^\d+$/.test(s))`)
	if len(ticks) == 0 || ticks[0] != "0" {
		t.Errorf("%s: the count axis reads %v, want it to start at 0", d.Name, ticks)
	}
	if s := tw.Series(); s.Diverged == nil || !strings.Contains(text(t, ctx, ".chart .diverge-label"), "t="+s.Diverged.At.String()) {
		t.Errorf("%s: the chart's label %q, natively the divergence is %+v", d.Name, text(t, ctx, ".chart .diverge-label"), s.Diverged)
	}
}
