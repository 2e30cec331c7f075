//go:build browser && !wasm

// Hostile input at every door of /play: nesting deeper than the bound
// typed, shared, imported or saved; a slot that stopped the page; a
// malformed address. The page refuses what it cannot take, says so, keeps
// the learner's bytes and stays usable.
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
)

// deepConfigMap is a ConfigMap whose one value nests n lists.
func deepConfigMap(n int) string {
	return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: deep\ndata:\n  k: " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\n"
}

// idbFile is JavaScript that writes a file into the playground's
// IndexedDB as hackpadfs keeps it (its bytes in "contents", its size and
// parent in "info") and resolves to true.
func idbFile(name, jsBytes string) string {
	return fmt.Sprintf(`new Promise((resolve, reject) => {
		const req = indexedDB.open("reconcile");
		req.onerror = () => reject(req.error);
		req.onsuccess = () => {
			const db = req.result;
			const tx = db.transaction(["contents", "info"], "readwrite");
			const data = %s;
			tx.objectStore("contents").put(data, %q);
			tx.objectStore("info").put({ModTime: Date.now() * 1e6, Mode: 0o644, Size: data.length, Parent: %q}, %q);
			tx.oncomplete = () => { db.close(); resolve(true) };
			tx.onerror = () => reject(tx.error);
		};
	})`, jsBytes, name, filepath.Dir(name), name)
}

// usable checks the page answers: Next pass moves the run on.
func usable(t *testing.T, ctx context.Context) {
	t.Helper()
	n := statusPass(t, ctx)
	clickButton(t, ctx, "Next pass")
	waitStatus(t, ctx, n+1)
}

func TestBrowserHarden(t *testing.T) {
	base := playSite(t)

	// Typed text nested 3,000 deep (never applied) is refused by the
	// editor with the bound; the page goes on, and after a reload too.
	t.Run("deep typed text", func(t *testing.T) {
		ctx, _ := playBrowser(t, t.TempDir())
		openPlay(t, ctx, base+"/play")
		eval[bool](t, ctx, "catching errors", `(() => { window.__errs = []; window.addEventListener("error", e => __errs.push(String(e.message) + " " + (e.error && e.error.stack || "").slice(0, 1500))); const ce = console.error; console.error = (...a) => { __errs.push(a.join(" ").slice(0, 1500)); ce(...a) }; return true })()`)
		for _, n := range []int{9990, 3000} { // 9,990: the deepest yaml.v3 reads
			setEditor(t, ctx, deepConfigMap(n))
			start := time.Now()
			eval[bool](t, ctx, "clicking Apply", `(() => { [...document.querySelectorAll("button")].find(b => b.textContent.trim() == "Apply").click(); return true })()`)
			for i := 0; i < 60 && !eval[bool](t, ctx, "the refusal", editorAlerts); i++ {
				time.Sleep(500 * time.Millisecond)
			}
			if errs := eval[string](t, ctx, "reading the errors", `window.__errs.join("\n")`); errs != "" {
				t.Fatalf("%d levels: the page failed: %.600s", n, errs)
			}
			t.Logf("%d levels: refused in %v", n, time.Since(start).Round(time.Millisecond))
			if got := editorAlert(t, ctx); !strings.Contains(got, "nested too deeply: the limit is 100 levels") {
				t.Errorf("%d levels: the editor says %q", n, got)
			}
			usable(t, ctx)
		}
		waitSaved(t, ctx)
		openPlay(t, ctx, base+"/play")
		usable(t, ctx)
		if got := editorText(t, ctx); got != deepConfigMap(3000) {
			t.Errorf("after a reload the editor holds %.60q…, want the text typed", got)
		}
	})

	// Saved work poisoned with a 3,000-deep apply (written straight into
	// IndexedDB, as a page would have saved it) is set aside on reload,
	// its bytes kept and downloadable, and the page starts usable.
	t.Run("poisoned slot", func(t *testing.T) {
		ctx, _ := playBrowser(t, t.TempDir())
		openPlay(t, ctx, base+"/play")
		usable(t, ctx)
		waitSaved(t, ctx)
		poisoned := eval[string](t, ctx, "poisoning the saved work", `(async () => {
			const db = await new Promise((res, rej) => { const r = indexedDB.open("reconcile"); r.onsuccess = () => res(r.result); r.onerror = () => rej(r.error) });
			const data = await new Promise((res, rej) => { const r = db.transaction("contents").objectStore("contents").get("work/scratch.json"); r.onsuccess = () => res(r.result); r.onerror = () => rej(r.error) });
			db.close();
			const st = JSON.parse(new TextDecoder().decode(data));
			st.futures[0].inputs = [{after: 0, apply: `+fmt.Sprintf("%q", deepConfigMap(3000))+`}];
			return JSON.stringify(st);
		})()`)
		eval[bool](t, ctx, "writing it back", idbFile("work/scratch.json", fmt.Sprintf("new TextEncoder().encode(%q)", poisoned)))
		openPlay(t, ctx, base+"/play")
		alert := alertText(t, ctx)
		if !strings.Contains(alert, "set aside as work/scratch.json.corrupt-1") || !strings.Contains(alert, "nested too deeply") {
			t.Errorf("the alert says %q", alert)
		}
		usable(t, ctx)
		if disabled := eval[bool](t, ctx, "Start over", `[...document.querySelectorAll("button")].find(b => b.textContent.trim() == "Start over").disabled`); disabled {
			t.Errorf("Start over is disabled")
		}
		if got := text(t, ctx, ".set-aside"); !strings.Contains(got, "work/scratch.json.corrupt-1") {
			t.Errorf("the files set aside: %q", got)
		}
		downloads := t.TempDir()
		if _, err := chromedp.CallBrowser(ctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
			Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllow, DownloadPath: downloads}); err != nil {
			t.Fatal(err)
		}
		do(t, ctx, "downloading it", chromedp.Click(chromedp.CSS(".set-aside button")))
		file := filepath.Join(downloads, "scratch.json.corrupt-1.txt")
		deadline := time.Now().Add(10 * time.Second)
		for {
			if st, err := os.Stat(file); err == nil && st.Size() > 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("no downloaded file %s; the page says %q", file, text(t, ctx, "main"))
			}
			time.Sleep(100 * time.Millisecond)
		}
		if got, _ := os.ReadFile(file); string(got) != poisoned {
			t.Errorf("the file downloaded holds %.80q…, want the bytes saved", got)
		}

		// A page that died opening its slot leaves a mark behind: the
		// next page sets the slot aside without opening it.
		waitSaved(t, ctx)
		eval[bool](t, ctx, "leaving the mark of a page that died", idbFile("work/.scratch.opening", "new Uint8Array(0)"))
		openPlay(t, ctx, base+"/play")
		if alert := alertText(t, ctx); !strings.Contains(alert, "stopped this page the last time it was opened, so it was set aside as work/scratch.json.corrupt-2") {
			t.Errorf("the alert says %q", alert)
		}
		usable(t, ctx)
	})

	// A malformed %-escape in the address is refused with a message; the
	// page starts and answers, at load and when only the fragment changes.
	t.Run("malformed address", func(t *testing.T) {
		ctx, _ := playBrowser(t, t.TempDir())
		for _, c := range []struct{ path, want string }{
			{"/#%zz", `invalid URL escape "%zz" in the part after #`}, // the home page
			{"/play#%", `invalid URL escape "%" in the part after #`},
		} {
			do(t, ctx, "opening "+c.path, chromedp.Navigate(base+c.path), chromedp.WaitNotPresent(chromedp.CSS("#app-wasm-loader")))
			poll(t, ctx, "the message", fmt.Sprintf(`(document.querySelector('[role="alert"]') || {textContent: ""}).textContent.includes(%q)`, c.want), 15*time.Second)
			if c.path == "/#%zz" {
				continue // the message is the page answering; it has no run
			}
			poll(t, ctx, "the page is ready", `(() => { const s = document.querySelector('[role="status"]');
				return s && /Pass \d+/.test(s.textContent) && !/opening your saved work/.test(s.textContent) })()`, 15*time.Second)
			time.Sleep(500 * time.Millisecond) // the page settles (the player's look-ahead)
			usable(t, ctx)
		}
		eval[bool](t, ctx, "a malformed fragment in place", `(() => { location.hash = "%zz"; return true })()`)
		poll(t, ctx, "the message", `(document.querySelector('[role="alert"]') || {textContent: ""}).textContent.includes("could not be read")`, 10*time.Second)
		usable(t, ctx)
	})

	// A second share link opened over the work of the first replaces it,
	// says so, and Undo brings it back.
	t.Run("second share link", func(t *testing.T) {
		ctx, _ := playBrowser(t, t.TempDir())
		openPlay(t, ctx, base+"/play")
		clickButton(t, ctx, "Copy share link")
		poll(t, ctx, "the share link", `document.getElementById("share-link") != null`, 5*time.Second)
		link := eval[string](t, ctx, "reading the share link", `document.getElementById("share-link").value`)
		openPlay(t, ctx, link)
		for i := 0; i < 3; i++ {
			usable(t, ctx)
		}
		n, d := pageDigest(t, ctx)
		eval[bool](t, ctx, "opening the link again in place", fmt.Sprintf(`(() => { location.hash = %q; return true })()`, link[strings.Index(link, "#"):]))
		poll(t, ctx, "the notice", `document.getElementById("play-notice").textContent.includes("Undo brings that back")`, 10*time.Second)
		waitStatus(t, ctx, 0)
		clickButton(t, ctx, "Undo")
		waitStatus(t, ctx, n)
		if m, e := pageDigest(t, ctx); m != n || e != d {
			t.Errorf("after Undo: pass %d digest %s, want pass %d digest %s", m, e, n, d)
		}
	})

	// A paste or a drop of 2 MB or 12 MB of short lines (over
	// MaxFileSize) is refused before the browser takes it in (no page
	// listening, the test's synthetic events would insert nothing and the
	// refusal not be seen): at once,
	// with the limit, the editor as it was, the page answering. Before,
	// 2 MB took 42 s to be read and Apply 16 s more to refuse it.
	t.Run("huge paste", func(t *testing.T) {
		ctx, _ := playBrowser(t, t.TempDir())
		openPlay(t, ctx, base+"/play")
		before := editorText(t, ctx)
		for _, c := range []struct {
			event string
			mb    int
		}{{"paste", 2}, {"paste", 12}, {"drop", 2}} {
			res := eval[[]float64](t, ctx, "pasting", fmt.Sprintf(`(() => {
				const e = document.getElementById("desired"); e.focus(); e.select();
				const dt = new DataTransfer(); dt.setData("text/plain", "k: v\n".repeat(%d));
				const ev = %q == "paste" ? new ClipboardEvent("paste", {clipboardData: dt, bubbles: true, cancelable: true})
					: new DragEvent("drop", {dataTransfer: dt, bubbles: true, cancelable: true});
				const t0 = performance.now();
				e.dispatchEvent(ev);
				return [ev.defaultPrevented ? 1 : 0, performance.now() - t0] })()`, c.mb<<20/5, c.event))
			start := time.Now()
			poll(t, ctx, "the refusal", editorAlerts, 10*time.Second)
			took := time.Duration(res[1]*float64(time.Millisecond)) + time.Since(start)
			t.Logf("%s of %d MB: refused in %v (%.0f ms in the event)", c.event, c.mb, took.Round(time.Millisecond), res[1])
			if res[0] != 1 {
				t.Errorf("%s of %d MB: the browser took it in", c.event, c.mb)
			}
			n := c.mb << 20 / 5 * 5
			if c.event == "drop" {
				n += len(before) // a drop replaces no selection
			}
			want := fmt.Sprintf("Nothing was pasted: it would make the desired state %d bytes or more; the limit is 1048576 bytes (MaxFileSize, 1 MiB).", n)
			if got := editorAlert(t, ctx); !strings.Contains(got, want) {
				t.Errorf("%s of %d MB: the editor says %q, want %q", c.event, c.mb, got, want)
			}
			if took > time.Second {
				t.Errorf("%s of %d MB: refused in %v, want under 1 s", c.event, c.mb, took)
			}
			if got := editorText(t, ctx); got != before {
				t.Errorf("%s of %d MB: the editor holds %.60q…", c.event, c.mb, got)
			}
			usable(t, ctx)
			eval[bool](t, ctx, "clearing the alert", `(() => { [...document.querySelectorAll("button")].find(b => b.textContent.trim() == "Apply").click(); return true })()`)
			poll(t, ctx, "Apply", `document.getElementById("apply-alert").textContent == ""`, 10*time.Second)
		}
		// A paste within the limit goes in as before.
		eval[bool](t, ctx, "pasting a little", `(() => { const e = document.getElementById("desired"); e.focus(); e.setSelectionRange(0, 0);
			const dt = new DataTransfer(); dt.setData("text/plain", "# a comment\n");
			return !e.dispatchEvent(new ClipboardEvent("paste", {clipboardData: dt, bubbles: true, cancelable: true})) })()`)
		if got := text(t, ctx, "#apply-alert"); got != "" {
			t.Errorf("a small paste: the editor says %q", got)
		}
	})

	// A kubectl scale and an edit made just before a reload (their save
	// would wait 400 and 800 ms) are kept as the page is left, and the
	// reloaded page shows them.
	t.Run("reload after an edit", func(t *testing.T) {
		ctx, _ := playBrowser(t, t.TempDir())
		openPlay(t, ctx, base+"/play")
		usable(t, ctx)
		waitSaved(t, ctx)
		kubectl(t, ctx, "scale deployment/web --replicas=5")
		edited := editorText(t, ctx) + "# typed just before the reload\n"
		setEditor(t, ctx, edited)
		n, d := pageDigest(t, ctx)
		openPlay(t, ctx, base+"/play")
		waitStatus(t, ctx, n)
		if got := editorText(t, ctx); got != edited {
			t.Errorf("after a reload the editor holds %.80q…, want the edit made just before", got)
		}
		if m, e := pageDigest(t, ctx); m != n || e != d {
			t.Errorf("after a reload: pass %d digest %s, want pass %d digest %s (the scale made just before)", m, e, n, d)
		}
	})

	// Two tabs on one slot: when one saves, the other says so (the last
	// writer no longer wins without a word).
	t.Run("two tabs", func(t *testing.T) {
		ctx, _ := playBrowser(t, t.TempDir())
		openPlay(t, ctx, base+"/play")
		usable(t, ctx)
		waitSaved(t, ctx)
		other, cancel := chromedp.NewContext(ctx)
		defer cancel()
		openPlay(t, other, base+"/play")
		kubectl(t, other, "scale deployment/web --replicas=5")
		waitSaved(t, other)
		poll(t, ctx, "the notice", `document.getElementById("play-notice").textContent.includes("Another tab has just saved this work")`, 10*time.Second)
		if got := text(t, other, "#play-notice"); strings.Contains(got, "Another tab") {
			t.Errorf("the tab that saved says %q", got)
		}
	})
}
