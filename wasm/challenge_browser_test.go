//go:build browser

package main

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"reconcile/engine/challenge"
	"reconcile/engine/scenario"
	"reconcile/scenarios"
)

// solveLoop is a JavaScript function of a document: it presses Next pass
// (or Run the clock, once the goal holds) until the Solved screen shows, as
// a learner would, and reports whether it did.
const solveLoop = `async (d, max) => {
	for (let i = 0; i < max; i++) {
		if (d.getElementById("solved-title")) return "solved";
		const v = (d.getElementById("challenge-verdict") || {}).textContent || "";
		if (/^(Shortcut refused|Over budget|Out of time)/.test(v)) return v;
		const wait = d.getElementById("challenge-wait");
		const next = [...d.querySelectorAll("button")].find(b => b.textContent.trim() == "Next pass");
		if (wait) wait.click(); else if (next && !next.disabled) next.click(); else return "stuck: " + v;
		await new Promise(r => setTimeout(r, 20));
	}
	return d.getElementById("solved-title") ? "solved" : "not solved: " + ((d.getElementById("challenge-verdict") || {}).textContent || "");
}`

// verifyRecord checks a record the page made as reconcile verify does: it
// replays to solved; with its digest changed it is refused.
func verifyRecord(t *testing.T, id, text string) {
	t.Helper()
	name, data, ok := scenarios.File(id)
	if !ok {
		t.Fatalf("no scenario %s", id)
	}
	sc, err := scenario.Load(name, data)
	if err != nil {
		t.Fatal(err)
	}
	r, err := challenge.ParseRecord([]byte(text))
	if err != nil {
		t.Fatalf("the page's record: %v\n%s", err, text)
	}
	if v, err := challenge.Verify(sc, data, r); err != nil || !v.Solved {
		t.Errorf("reconcile verify of the page's record: %v %s", err, v.Why)
	}
	r.Digest = strings.Replace(r.Digest, r.Digest[len(r.Digest)-4:], "0000", 1)
	if v, err := challenge.Verify(sc, data, r); err != nil || v.Solved {
		t.Errorf("a record with its digest changed: %v %s", err, v.Why)
	}
	if err := os.MkdirAll(artifactsDir, 0o755); err == nil {
		os.WriteFile(filepath.Join(artifactsDir, "challenge-"+id+".json"), []byte(text), 0o644)
	}
}

func solve(t *testing.T, ctx context.Context, doc string) {
	t.Helper()
	if got := eval[string](t, ctx, "pressing Next pass until solved", fmt.Sprintf(`(%s)(%s, 600)`, solveLoop, doc)); got != "solved" {
		t.Fatalf("the challenge: %s (alert %q)", got, alertText(t, ctx))
	}
}

func openChallenge(t *testing.T, ctx context.Context, base, id string) {
	t.Helper()
	open(t, ctx, base+"/s/"+id+"?mode=challenge")
	poll(t, ctx, "the challenge opens", `document.getElementById("challenge-verdict") != null && /^Not yet/.test(document.getElementById("challenge-verdict").textContent)`, 30*time.Second)
	if p := eval[string](t, ctx, "reading the address", `location.pathname + location.search`); p != "/play?from="+id+"&mode=challenge" {
		t.Errorf("?mode=challenge opened %s", p)
	}
	if n := eval[int](t, ctx, "looking for the response and Fork", `[...document.querySelectorAll("button")].filter(b => /Apply the response|Fork here/.test(b.textContent)).length`); n != 0 {
		t.Errorf("the challenge offers the response or Fork here (%d buttons)", n)
	}
	for _, id := range []string{"kubectl", "desired", "fault-verb"} {
		if !eval[bool](t, ctx, "looking for #"+id, fmt.Sprintf(`document.getElementById(%q) != null`, id)) {
			t.Errorf("the challenge has no #%s", id)
		}
	}
}

func TestBrowserChallenge(t *testing.T) {
	base := siteWithCourse(t)
	ctx := browser(t)
	defer do(t, ctx, "back to the desktop", chromedp.EmulateViewport(1280, 900))

	t.Run("stuck-rollout solved from the console", func(t *testing.T) {
		do(t, ctx, "sizing the window", chromedp.EmulateViewport(1280, 800))
		open(t, ctx, base+"/s/stuck-rollout")
		if href := eval[string](t, ctx, "reading Your turn", `(document.getElementById("your-turn") || {}).getAttribute("href") || ""`); href != "/play?from=stuck-rollout&mode=challenge" {
			t.Errorf("the lesson's Your turn goes to %q", href)
		}
		openChallenge(t, ctx, base, "stuck-rollout")
		goal := text(t, ctx, ".challenge")
		for _, want := range []string{"keep it there for 30s, within 5m", "deleting deployment/web", "the number of pods (app=web, ready) is 5: does not hold — got 4"} {
			if !strings.Contains(goal, want) {
				t.Errorf("the goal panel does not say %q: %s", want, goal)
			}
		}
		playShot(t, ctx, "challenge-goal-1280x800", ".challenge")
		axeCheck(t, ctx, "the challenge's goal panel")
		// The three questions, graded: a wrong controller, then the right
		// one, the object seen, the condition that tells the story.
		eval[bool](t, ctx, "opening the questions", `(() => { document.querySelector(".challenge-questions").open = true; return true })()`)
		choose(t, ctx, "q-controller", "kubelet", "change")
		do(t, ctx, "answering", chromedp.Click(chromedp.CSS("#q1-answer")))
		poll(t, ctx, "the first answer is graded", `document.getElementById("q1-grade") != null`, 5*time.Second)
		if g := text(t, ctx, "#q1-grade"); !strings.HasPrefix(g, "✗ Not this one: kubelet") {
			t.Errorf("a wrong controller: %q", g)
		}
		choose(t, ctx, "q-controller", "deployment-controller", "change")
		do(t, ctx, "answering", chromedp.Click(chromedp.CSS("#q1-answer")))
		poll(t, ctx, "the right controller", `/^✓ Right: deployment-controller/.test(document.getElementById("q1-grade").textContent)`, 5*time.Second)
		choose(t, ctx, "q-object", "Deployment/default/web", "change")
		do(t, ctx, "answering seen", chromedp.Click(chromedp.CSS("#q2-seen")))
		poll(t, ctx, "seen is graded", `/^✓ Right: metadata.generation is 2 and status.observedGeneration is 2/.test((document.getElementById("q2-grade") || {}).textContent || "")`, 5*time.Second)
		// With the first question answered, the hint offered is the next one's.
		if h := text(t, ctx, "#challenge-hint"); h != "Hint 2 of 3: What do its conditions say?" {
			t.Errorf("the hint offered: %q", h)
		}
		line := eval[string](t, ctx, "finding the Progressing line", `[...document.querySelectorAll("#q-line option")].find(o => o.textContent == "condition Progressing (ProgressDeadlineExceeded)").value`)
		choose(t, ctx, "q-line", line, "change")
		do(t, ctx, "answering the line", chromedp.Click(chromedp.CSS("#q3-answer")))
		poll(t, ctx, "the line is graded", `/^✓ Right: condition Progressing \(ProgressDeadlineExceeded\) is the evidence/.test((document.getElementById("q3-grade") || {}).textContent || "")`, 5*time.Second)
		playShot(t, ctx, "challenge-questions-1280x800", ".challenge-questions")
		axeCheck(t, ctx, "the three questions")
		kubectl(t, ctx, "rollout undo deployment/web")
		solve(t, ctx, "document")
		yours, ref := text(t, ctx, ".solved-inputs:first-child"), text(t, ctx, ".solved-inputs:last-child")
		if !strings.Contains(yours, "kubectl rollout undo deployment/web") || !strings.Contains(ref, "kubectl rollout undo deployment/web") {
			t.Errorf("Solved: yours %q, the reference %q", yours, ref)
		}
		facts := eval[string](t, ctx, "reading the facts", `document.querySelector(".solved-facts").innerText.replace(/\s+/g, " ")`)
		if !strings.Contains(facts, "The goal held from t=") || !strings.Contains(facts, "Pods replaced") || !strings.Contains(facts, "Hints taken none") {
			t.Errorf("Solved facts: %s", facts)
		}
		if why := text(t, ctx, ".solved-why"); why == "" {
			t.Error("Solved does not say why it works")
		}
		verifyRecord(t, "stuck-rollout", eval[string](t, ctx, "reading the record", `document.getElementById("challenge-record").textContent`))
		playShot(t, ctx, "challenge-solved-1280x800", ".challenge.solved")
		solvedReachable(t, ctx, "document", "at 1280×800")
		axeCheck(t, ctx, "the Solved screen")
	})

	t.Run("self-healing: a shortcut refused, a hint, then solved on a phone", func(t *testing.T) {
		do(t, ctx, "sizing the window", chromedp.EmulateViewport(390, 844))
		openChallenge(t, ctx, base, "self-healing")
		sc, err := scenarios.Load("self-healing")
		if err != nil {
			t.Fatal(err)
		}
		playShot(t, ctx, "challenge-goal-390x844", ".challenge")
		clickButton(t, ctx, "Hint 1 of 3: Has the controller seen the change?")
		poll(t, ctx, "the hint shows", `document.getElementById("challenge-hints") != null`, 5*time.Second)
		if h := text(t, ctx, "#challenge-hints"); !strings.Contains(h, strings.Fields(sc.Challenge.Hints.Desired)[0]) {
			t.Errorf("the hint: %q", h)
		}
		kubectl(t, ctx, "delete pods -l app=web")
		poll(t, ctx, "the shortcut is refused", `/^Shortcut refused/.test(document.getElementById("challenge-verdict").textContent)`, 10*time.Second)
		msg := strings.Join(strings.Fields(sc.Challenge.Forbid[0].Message), " ")
		if v := text(t, ctx, "#challenge-verdict"); !strings.Contains(v, msg) {
			t.Errorf("the verdict %q does not say %q", v, msg)
		}
		playShot(t, ctx, "challenge-shortcut-390x844", ".challenge")
		clickButton(t, ctx, "Try again")
		poll(t, ctx, "back at the start", `/^Not yet/.test(document.getElementById("challenge-verdict").textContent)`, 10*time.Second)
		kubectl(t, ctx, "scale deployment/web --replicas=4")
		solve(t, ctx, "document")
		if facts := eval[string](t, ctx, "reading the facts", `document.querySelector(".solved-facts").innerText.replace(/\s+/g, " ")`); !strings.Contains(facts, "Hints taken 1 of 3: Has the controller seen the change?") {
			t.Errorf("Solved does not list the hint taken: %s", facts)
		}
		verifyRecord(t, "self-healing", eval[string](t, ctx, "reading the record", `document.getElementById("challenge-record").textContent`))
		playShot(t, ctx, "challenge-solved-390x844", ".challenge.solved")
		solvedReachable(t, ctx, "document", "at 390×844")
		eval[bool](t, ctx, "going to Copy result", `(() => { document.getElementById("copy-result").focus(); return true })()`)
		viewportShot(t, ctx, "challenge-solved-actions-390x844")
		// The transport stays at hand.
		if !eval[bool](t, ctx, "finding the transport", `(() => { const r = document.querySelector(".transport").getBoundingClientRect(); return r.bottom <= innerHeight && r.top >= 0 })()`) {
			t.Error("the transport is off the screen on a phone")
		}
		noSidewaysScroll(t, ctx, "the Solved screen at 390×844")
		axeCheck(t, ctx, "the Solved screen on a phone")
	})

	t.Run("edit-reverts: scale refused, replicas 5 committed to git, solved", func(t *testing.T) {
		do(t, ctx, "sizing the window", chromedp.EmulateViewport(1280, 800))
		openChallenge(t, ctx, base, "edit-reverts")
		sc, err := scenarios.Load("edit-reverts")
		if err != nil {
			t.Fatal(err)
		}
		// Scaling the live object is the shortcut the GitOps controller undoes.
		kubectl(t, ctx, "scale deployment/web --replicas=5")
		poll(t, ctx, "the shortcut is refused", `/^Shortcut refused/.test(document.getElementById("challenge-verdict").textContent)`, 10*time.Second)
		if v, msg := text(t, ctx, "#challenge-verdict"), strings.Join(strings.Fields(sc.Challenge.Forbid[0].Message), " "); !strings.Contains(v, msg) {
			t.Errorf("the verdict %q does not say %q", v, msg)
		}
		clickButton(t, ctx, "Try again")
		poll(t, ctx, "back at the start", `/^Not yet/.test(document.getElementById("challenge-verdict").textContent)`, 10*time.Second)
		// Commit to git sits beside Apply, named, with the line that tells them apart.
		if n := eval[string](t, ctx, "reading the button", `(() => { const b = document.getElementById("commit-git"); return b ? b.textContent + "|" + b.disabled + "|" + b.getAttribute("aria-describedby") : "" })()`); n != "Commit to git|false|git-hint" {
			t.Fatalf("Commit to git: %q", n)
		}
		if h := text(t, ctx, "#git-hint"); !strings.Contains(h, "Commit to git changes git, the source it reconciles from.") {
			t.Errorf("the line under the buttons: %q", h)
		}
		// Keyboard: Tab from Apply reaches Diff, and Commit to git after it.
		eval[bool](t, ctx, "focusing Apply", `(() => { [...document.querySelectorAll(".editor-pane .buttons button")].find(b => b.textContent == "Apply").focus(); return true })()`)
		for _, want := range []string{"diff", "commit-git"} {
			do(t, ctx, "Tab", chromedp.KeyEvent(kb.Tab))
			if f := focused(t, ctx); f != want {
				t.Errorf("Tab from Apply goes to %q, not %s", f, want)
			}
		}
		// Edit spec.replicas to 5 as a learner would: select the number, type 5.
		poll(t, ctx, "the editor holds web", `/\n  replicas: \d+/.test(document.getElementById("desired").value)`, 10*time.Second)
		eval[bool](t, ctx, "selecting the replica count", `(() => { const e = document.getElementById("desired"), m = /\n  replicas: (\d+)/.exec(e.value);
			const at = m.index + m[0].length - m[1].length; e.focus(); e.setSelectionRange(at, at + m[1].length); return true })()`)
		do(t, ctx, "typing 5", chromedp.KeyEvent("5"))
		poll(t, ctx, "the editor says replicas: 5", `/\n  replicas: 5\n/.test(document.getElementById("desired").value) && /your edits/.test(document.getElementById("editor-holds").textContent)`, 5*time.Second)
		playShot(t, ctx, "challenge-git-1280x800", ".editor-pane .buttons")
		clickButton(t, ctx, "Commit to git")
		poll(t, ctx, "the commit is printed", `/^git commit && git push after pass \d+:/.test(document.getElementById("apply-result").textContent)`, 10*time.Second)
		if r := text(t, ctx, "#apply-result"); !strings.Contains(r, "object(s) committed") || !strings.Contains(r, "deployment/web") {
			t.Errorf("what the commit printed: %q", r)
		}
		if a := editorAlert(t, ctx); a != "" {
			t.Errorf("the editor's alert after a commit: %q", a)
		}
		playShot(t, ctx, "challenge-git-committed-1280x800", ".editor-pane .buttons")
		// The timeline's handle is where the status says, pass after pass,
		// while the run's known end grows with it.
		for i := 0; i < 12; i++ {
			got := eval[string](t, ctx, "reading the timeline", `(() => { const r = document.getElementById("timeline");
				return r.value + " of " + r.max + " / " + document.querySelector('[role="status"]').textContent })()`)
			var value, max, pass int
			fmt.Sscanf(got, "%d of %d / Pass %d", &value, &max, &pass)
			if value != pass || pass == 0 {
				t.Fatalf("after Commit to git and %d passes the timeline's handle is at %d (max %d) while the status says %q", i, value, max, got)
			}
			status := text(t, ctx, `[role="status"]`)
			clickButton(t, ctx, "Next pass")
			poll(t, ctx, "the pass runs", fmt.Sprintf(`document.querySelector('[role="status"]').textContent.replace(/\s+/g, " ").trim() != %q`, status), 5*time.Second)
		}
		axeCheck(t, ctx, "the editor with Commit to git")
		solve(t, ctx, "document")
		if yours := text(t, ctx, ".solved-inputs:first-child"); !strings.Contains(yours, "git commit") {
			t.Errorf("Solved lists as yours %q", yours)
		}
		verifyRecord(t, "edit-reverts", eval[string](t, ctx, "reading the record", `document.getElementById("challenge-record").textContent`))
		// On a phone the button is there and nothing scrolls sideways.
		do(t, ctx, "sizing the window", chromedp.EmulateViewport(390, 844))
		openChallenge(t, ctx, base, "edit-reverts")
		playShot(t, ctx, "challenge-git-390x844", ".editor-pane .buttons")
		noSidewaysScroll(t, ctx, "the editor with Commit to git at 390×844")
	})

	t.Run("stale-tag in a 700x500 frame posts challenge-solved", func(t *testing.T) {
		do(t, ctx, "sizing the window", chromedp.EmulateViewport(740, 540))
		src := "/s/stale-tag?mode=challenge&embed=1"
		do(t, ctx, "opening the course page", chromedp.Navigate(base+"/test-course?w=700&h=500&src="+url.QueryEscape(src)))
		eval[bool](t, ctx, "listening for the frame's events", `(() => { window.heard = []; addEventListener("message", e => heard.push(e.data)); return true })()`)
		frame := `document.getElementById("f").contentDocument`
		poll(t, ctx, "the challenge loads in the frame", fmt.Sprintf(`(() => { const d = %s; return d && d.readyState == "complete" && !d.getElementById("app-wasm-loader")
			&& /^Not yet/.test((d.getElementById("challenge-verdict") || {}).textContent || "") })()`, frame), 30*time.Second)
		if n := eval[int](t, ctx, "looking for the site header", frame+`.querySelectorAll("header.site").length`); n != 0 {
			t.Errorf("the embedded challenge shows the site header")
		}
		eval[bool](t, ctx, "typing into the frame's console", fmt.Sprintf(`(() => { const d = %s, e = d.getElementById("kubectl");
			e.value = "set image deployment/web web=shop/web@sha256:7e2d9b4c1a0f8e6d5c3b2a1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d";
			e.dispatchEvent(new Event("input", {bubbles: true})); e.form.requestSubmit(); return true })()`, frame))
		poll(t, ctx, "the console prints it", frame+`.getElementById("kubectl-output").textContent.includes("image updated")`, 10*time.Second)
		shotFrame(t, ctx, "challenge-goal-frame-700x500")
		solve(t, ctx, frame)
		poll(t, ctx, "the host page hears challenge-solved", `heard.some(m => m && m.event == "challenge-solved")`, 5*time.Second)
		rec := eval[string](t, ctx, "reading the event", `JSON.stringify(heard.find(m => m.event == "challenge-solved").record)`)
		if s := eval[string](t, ctx, "reading the event's scenario", `heard.find(m => m.event == "challenge-solved").scenario`); s != "stale-tag" {
			t.Errorf("challenge-solved names %q", s)
		}
		verifyRecord(t, "stale-tag", rec)
		eval[bool](t, ctx, "scrolling the frame to Solved", `(() => { `+frame+`.getElementById("solved-title").scrollIntoView(); return true })()`)
		shotFrame(t, ctx, "challenge-solved-frame-700x500")
		solvedReachable(t, ctx, frame, "in a 700×500 frame")
		eval[bool](t, ctx, "going to Copy result", `(() => { `+frame+`.getElementById("copy-result").focus(); return true })()`)
		shotFrame(t, ctx, "challenge-solved-actions-frame-700x500")
	})
}

// solvedReachable focuses each control of the Solved screen in doc, as Tab
// does, and checks that it is in view and on top there (not under the held
// transport or cut by the frame), and nothing on it runs wider than it.
func solvedReachable(t *testing.T, ctx context.Context, doc, view string) {
	t.Helper()
	got := eval[string](t, ctx, "reaching the Solved controls", fmt.Sprintf(`(() => { const d = %s, w = d.defaultView, out = [];
		const s = d.querySelector(".challenge.solved"), sr = s.getBoundingClientRect();
		for (const e of s.querySelectorAll("button, a, summary")) {
			e.focus();
			const r = e.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
			const top = d.elementFromPoint(x, y);
			if (r.top < 0 || r.bottom > w.innerHeight || r.left < 0 || r.right > w.innerWidth) out.push(e.textContent.trim() + " is out of view");
			else if (!top || !(e == top || e.contains(top))) out.push(e.textContent.trim() + " is under " + (top ? top.className || top.tagName : "nothing"));
		}
		for (const e of s.querySelectorAll("*")) {
			const r = e.getBoundingClientRect();
			if (r.width > 0 && r.right > sr.right + 1 && getComputedStyle(e).overflowX == "visible" && !e.closest("pre, details:not([open])")) out.push(e.tagName + "." + e.className + " runs past the screen's edge");
		}
		return out.slice(0, 5).join("; ") })()`, doc))
	if got != "" {
		t.Errorf("the Solved screen %s: %s", view, got)
	}
}

func shotFrame(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	time.Sleep(150 * time.Millisecond)
	png := run(t, ctx, "screenshot "+name, chromedp.CaptureScreenshot())
	if err := os.MkdirAll(artifactsDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(artifactsDir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", name)
}
