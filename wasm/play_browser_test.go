//go:build browser && !wasm

// The playground's browser tests, /play: the editor, the kubectl console,
// forks, persistence in IndexedDB across a reload and a browser restart,
// export and import, share links in a fresh profile, a handler that fails,
// hostile inputs, and accessibility. Same harness as browser_test.go.
package main

import (
	"bytes"
	"compress/flate"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// playSite serves the generated site (PLAY_SITE_DIR, or dist/).
func playSite(t *testing.T) string {
	t.Helper()
	return playServer(t).URL
}

// playServer serves the generated site; closing it takes the site offline.
func playServer(t *testing.T) *httptest.Server {
	t.Helper()
	dir := siteDir
	if d := os.Getenv("PLAY_SITE_DIR"); d != "" {
		dir = d
	}
	_, err := os.Stat(filepath.Join(dir, "index.html"))
	mustHave(t, "the generated site (run make build)", err)
	srv := httptest.NewServer(siteHandler(dir))
	t.Cleanup(srv.Close)
	return srv
}

// playBrowser starts a headless Chromium on the profile in dir and returns
// a tab and a func that closes the browser (as quitting it would), so that
// another can start on the same profile.
func playBrowser(t *testing.T, dir string) (context.Context, func()) {
	t.Helper()
	path, err := findChromium()
	mustHave(t, "Chromium", err)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.UserDataDir(dir),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.WindowSize(1280, 900),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	ctx, cancelTimeout := context.WithTimeout(ctx, 6*time.Minute)
	if err := chromedp.Do(ctx); err != nil {
		cancelTimeout()
		cancel()
		cancelAlloc()
		mustHave(t, "starting Chromium", err)
	}
	closed := false
	closeBrowser := func() {
		if closed {
			return
		}
		closed = true
		_ = chromedp.Cancel(ctx) // closes the browser gracefully
		cancelTimeout()
		cancel()
		cancelAlloc()
	}
	t.Cleanup(closeBrowser)
	return ctx, closeBrowser
}

// openPlay opens a playground page and waits until its saved work, if
// any, is read.
func openPlay(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	open(t, ctx, url)
	poll(t, ctx, "the playground is ready", `(() => { const s = document.querySelector('[role="status"]');
		return s && /Pass \d+/.test(s.textContent) && !/ · opening /.test(s.textContent) })()`, 20*time.Second)
}

// setEditor types text into the desired-state editor, as a paste does.
func setEditor(t *testing.T, ctx context.Context, text string) {
	t.Helper()
	pasteEditor(t, ctx, "typing into the editor", fmt.Sprintf("%q", text))
}

// pasteEditor sets the editor to the value of a JavaScript expression, and
// waits until the page has read it (its line numbers follow).
func pasteEditor(t *testing.T, ctx context.Context, what, expr string) {
	t.Helper()
	eval[bool](t, ctx, what, `(() => { const e = document.getElementById("desired");
		e.focus(); e.value = `+expr+`; e.dispatchEvent(new Event("input", {bubbles: true})); return true })()`)
	poll(t, ctx, "the page reads the editor", `(() => { const lines = document.getElementById("desired").value.split("\n").length;
		return document.querySelector(".gutter pre").textContent.trim().split("\n").pop() == String(Math.min(lines, 5000)) })()`, 10*time.Second)
}

func editorText(t *testing.T, ctx context.Context) string {
	t.Helper()
	return eval[string](t, ctx, "reading the editor", `document.getElementById("desired").value`)
}

// kubectl types a command into the console and returns what it printed.
func kubectl(t *testing.T, ctx context.Context, line string) string {
	t.Helper()
	before := eval[int](t, ctx, "counting console entries", `document.querySelectorAll("#kubectl-output .console-entry").length`)
	do(t, ctx, "typing kubectl "+line,
		chromedp.Focus(chromedp.CSS("#kubectl")),
		chromedp.SendKeys(chromedp.CSS("#kubectl"), line+kb.Enter))
	poll(t, ctx, "the console prints "+line, fmt.Sprintf(`(() => { const e = [...document.querySelectorAll("#kubectl-output .console-entry")];
		return (e.length > %d || e.length == 50) && e[e.length-1].textContent.includes(%q) })()`, before, "$ kubectl "+line), 10*time.Second)
	return lastOutput(t, ctx)
}

func lastOutput(t *testing.T, ctx context.Context) string {
	t.Helper()
	return eval[string](t, ctx, "reading the console", `(() => { const e = [...document.querySelectorAll("#kubectl-output .console-entry")];
		return e.length ? e[e.length-1].textContent : "" })()`)
}

func alertText(t *testing.T, ctx context.Context) string {
	t.Helper()
	return eval[string](t, ctx, "reading the alert", `(document.querySelector('[role="alert"]') || {}).textContent || ""`)
}

// editorAlert reads the editor's own alert, where Apply's errors go.
func editorAlert(t *testing.T, ctx context.Context) string {
	t.Helper()
	return eval[string](t, ctx, "reading the editor's alert", `document.getElementById("apply-alert").textContent`)
}

// editorAlerts is a JavaScript expression true once the editor's alert
// holds text.
const editorAlerts = `document.getElementById("apply-alert").textContent != ""`

func focused(t *testing.T, ctx context.Context) string {
	t.Helper()
	return eval[string](t, ctx, "reading the focus", `document.activeElement ? document.activeElement.id : ""`)
}

// statusPass reads the pass the status names.
func statusPass(t *testing.T, ctx context.Context) int {
	t.Helper()
	var n int
	fmt.Sscanf(strings.TrimPrefix(text(t, ctx, `[role="status"]`), "Pass "), "%d", &n)
	return n
}

// pageDigest waits for the digest of the pass the page is at.
func pageDigest(t *testing.T, ctx context.Context) (int, string) {
	t.Helper()
	n := statusPass(t, ctx)
	return n, browserDigest(t, ctx, n)
}

// nextUntil presses Next pass until the status matches re.
func nextUntil(t *testing.T, ctx context.Context, what, re string, max int) {
	t.Helper()
	ok := eval[bool](t, ctx, "pressing Next pass until "+what, fmt.Sprintf(`(async () => {
		const next = () => [...document.querySelectorAll("button")].find(b => b.textContent.trim() == "Next pass");
		const re = new RegExp(%q);
		for (let i = 0; i < %d; i++) {
			if (re.test(document.querySelector('[role="status"]').textContent)) return true;
			const b = next();
			if (!b || b.disabled) return false;
			b.click();
			await new Promise(r => setTimeout(r, 15));
		}
		return re.test(document.querySelector('[role="status"]').textContent) })()`, re, max))
	if !ok {
		t.Fatalf("Next pass never reached %s: status %q, alert %q", what, text(t, ctx, `[role="status"]`), alertText(t, ctx))
	}
}

func waitSaved(t *testing.T, ctx context.Context) {
	t.Helper()
	eval[bool](t, ctx, "clearing the save status", `(() => { document.getElementById("save-status").dataset.seen = document.getElementById("save-status").textContent; return true })()`)
	poll(t, ctx, "the work is saved", `/Saved in this browser at/.test(document.getElementById("save-status").textContent)`, 10*time.Second)
	time.Sleep(900 * time.Millisecond) // the last change's save, after its short delay
	poll(t, ctx, "the last save is done", `/Saved in this browser at/.test(document.getElementById("save-status").textContent)`, 10*time.Second)
}

func TestBrowserPlay(t *testing.T) {
	base := playSite(t)
	ctx, _ := playBrowser(t, t.TempDir())

	t.Run("apply converges", func(t *testing.T) {
		openPlay(t, ctx, base+"/play")
		waitStatus(t, ctx, 0)
		noAlert(t, ctx)
		labelled(t, ctx, "desired", "Desired state")
		labelled(t, ctx, "kubectl", "kubectl")
		if n := eval[int](t, ctx, "finding Apply", `[...document.querySelectorAll("button")].filter(b => b.textContent.trim() == "Apply").length`); n != 1 {
			t.Errorf("%d buttons named Apply", n)
		}
		if nums := text(t, ctx, ".gutter pre"); !strings.HasPrefix(nums, "1 2 3 4") {
			t.Errorf("line numbers = %.40q", nums)
		}
		screenshot(t, ctx, "play")
		setEditor(t, ctx, strings.Replace(editorText(t, ctx), "replicas: 3", "replicas: 5", 1)+"\n# five\n")
		want := strings.Count(editorText(t, ctx), "\n") + 1
		poll(t, ctx, "line numbers for every line", fmt.Sprintf(`document.querySelector(".gutter pre").textContent.trim().split("\n").pop() == "%d"`, want), 5*time.Second)
		clickButton(t, ctx, "Apply")
		poll(t, ctx, "the apply's result", `document.getElementById("apply-result").textContent != ""`, 5*time.Second)
		// A result is announced where it is (role=status); the focus stays
		// on Apply, with the page's usual focus style, not the alert's.
		if f := eval[string](t, ctx, "reading the focus", `document.activeElement.textContent.trim()`); f != "Apply" {
			t.Errorf("after Apply the focus is on %q, want Apply", f)
		}
		if role := eval[string](t, ctx, "reading the result's role", `document.getElementById("apply-result").getAttribute("role")`); role != "status" {
			t.Errorf("the result's role is %q", role)
		}
		if shown := eval[bool](t, ctx, "looking at the editor's alert", `getComputedStyle(document.getElementById("apply-alert")).display != "none"`); shown {
			t.Error("a successful Apply shows the editor's alert box")
		}
		if got := text(t, ctx, "#apply-result"); !strings.Contains(got, "deployment.apps/web configured") {
			t.Errorf("apply printed %q", got)
		}
		nextUntil(t, ctx, "convergence", `· converged`, 400)
		if got := text(t, ctx, ".cluster"); !strings.Contains(got, "5 active pods") || !strings.Contains(got, "desired 5 · up-to-date 5 · ready 5 · available 5") {
			t.Errorf("converged, the cluster shows %.300q", got)
		}
		noAlert(t, ctx)
		screenshot(t, ctx, "play-applied")
	})

	t.Run("an error at line and column changes nothing", func(t *testing.T) {
		openPlay(t, ctx, base+"/play")
		clickButton(t, ctx, "Start over")
		nextUntil(t, ctx, "pass 4", `Pass 4\b`, 10)
		n, before := pageDigest(t, ctx)
		bad := "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: [oops\n"
		setEditor(t, ctx, bad)
		clickButton(t, ctx, "Apply")
		poll(t, ctx, "the editor's alert", editorAlerts, 5*time.Second)
		if a := editorAlert(t, ctx); !strings.Contains(a, "Nothing was applied") || !strings.Contains(a, "Desired state:6:") {
			t.Errorf("alert = %q, want Desired state:6:column", a)
		}
		if f := focused(t, ctx); f != "apply-alert" {
			t.Errorf("after a refused Apply the focus is on #%s, want the editor's alert", f)
		}
		if role := eval[string](t, ctx, "reading the alert's role", `document.getElementById("apply-alert").getAttribute("role")`); role != "alert" {
			t.Errorf("the editor's alert has role %q", role)
		}
		noAlert(t, ctx) // the page's own alert stays empty
		if m, after := pageDigest(t, ctx); m != n || after != before {
			t.Errorf("a refused apply moved the world: pass %d digest %s, was pass %d digest %s", m, after, n, before)
		}
		if eval[int](t, ctx, "counting line marks", `document.querySelectorAll(".gutter .mark").length`) != 1 {
			t.Error("the gutter marks no line")
		}
		screenshot(t, ctx, "play-error")
		do(t, ctx, "going to the error", chromedp.Click(chromedp.Search(`//button[starts-with(normalize-space(.), "Go to line 6")]`)))
		if got := eval[[]int](t, ctx, "reading the caret", `(() => { const e = document.activeElement; return [e.id == "desired" ? 1 : 0, e.selectionStart] })()`); got[0] != 1 || got[1] < 65 || got[1] > len(bad) {
			t.Errorf("Go to line 6: focus on the editor %v, caret at %d", got[0] == 1, got[1])
		}

		// The API server's refusal is placed at the field, as reconcile check places it.
		refused := "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: -1\n  selector: {matchLabels: {app: web}}\n" +
			"  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: web, image: shop/web:1.0}]}\n"
		setEditor(t, ctx, refused)
		clickButton(t, ctx, "Apply")
		poll(t, ctx, "the API server's refusal", `document.getElementById("apply-alert").textContent.includes("refused")`, 5*time.Second)
		if a := editorAlert(t, ctx); !strings.Contains(a, "Desired state:6:13: ") || !strings.Contains(a, "spec.replicas") {
			t.Errorf("alert = %q, want the refusal at Desired state:6:13", a)
		}
		do(t, ctx, "going to the refused field", chromedp.Click(chromedp.Search(`//button[normalize-space(.) = "Go to line 6, column 13"]`)))
		if got := eval[[]int](t, ctx, "reading the caret", `(() => { const e = document.activeElement; return [e.id == "desired" ? 1 : 0, e.selectionStart] })()`); got[0] != 1 || got[1] != strings.Index(refused, "-1") {
			t.Errorf("Go to line 6, column 13: focus on the editor %v, caret at %d, want %d", got[0] == 1, got[1], strings.Index(refused, "-1"))
		}
		if m, after := pageDigest(t, ctx); m != n || after != before {
			t.Errorf("a refused apply moved the world: pass %d digest %s, was pass %d digest %s", m, after, n, before)
		}
	})

	t.Run("kubectl console", func(t *testing.T) {
		openPlay(t, ctx, base+"/play")
		clickButton(t, ctx, "Start over")
		waitStatus(t, ctx, 0)
		if out := kubectl(t, ctx, "get deployments"); !strings.Contains(out, "NAME") || !strings.Contains(out, "0/3") {
			t.Errorf("get deployments at pass 0 = %q", out)
		}
		nextUntil(t, ctx, "convergence", `· converged`, 400)
		if out := kubectl(t, ctx, "get pods"); strings.Count(out, "Running") != 3 || !strings.Contains(out, "READY") {
			t.Errorf("get pods = %q", out)
		}
		if out := kubectl(t, ctx, "describe deployment web"); !strings.Contains(out, "Replicas:") || !strings.Contains(out, "StrategyType:") {
			t.Errorf("describe deployment web = %q", out)
		}
		if out := kubectl(t, ctx, "scale deployment/web --replicas=4"); !strings.Contains(out, "deployment.apps/web scaled") {
			t.Errorf("scale = %q", out)
		}
		nextUntil(t, ctx, "convergence at 4", `· converged`, 400)
		if out := kubectl(t, ctx, "set image deployment/web web=shop/web:2.0"); !strings.Contains(out, "deployment.apps/web image updated") {
			t.Errorf("set image = %q", out)
		}
		if out := kubectl(t, ctx, "rollout status deployment/web"); !strings.Contains(out, "Still watching") {
			t.Errorf("rollout status = %q, want it watching", out)
		}
		nextUntil(t, ctx, "the rollout's end", `· converged`, 600)
		poll(t, ctx, "rollout status ends", `[...document.querySelectorAll("#kubectl-output .console-entry")].some(e => e.textContent.includes('deployment "web" successfully rolled out'))`, 10*time.Second)
		pod := eval[string](t, ctx, "finding a pod", `document.querySelector("button.pod").dataset.ref.split("/")[2]`)
		if out := kubectl(t, ctx, "delete pod "+pod); !strings.Contains(out, fmt.Sprintf("pod %q deleted", pod)) {
			t.Errorf("delete pod = %q", out)
		}
		// A wait waits as passes run, then ends by itself.
		if out := kubectl(t, ctx, "wait --for=delete pod/"+pod+" --timeout=2m"); !strings.Contains(out, "Still waiting") {
			t.Errorf("wait --for=delete = %q, want it waiting", out)
		}
		met := fmt.Sprintf(`[...document.querySelectorAll("#kubectl-output .console-entry")].some(e => e.textContent.includes("pod/%s condition met"))`, pod)
		for i := 0; i < 200 && !eval[bool](t, ctx, "reading the wait", met); i++ {
			clickButton(t, ctx, "Next pass")
		}
		poll(t, ctx, "the wait ends", met, 10*time.Second)
		if out := kubectl(t, ctx, "events --for deployment/web"); !strings.Contains(out, "LAST SEEN") || !strings.Contains(out, "ScalingReplicaSet") {
			t.Errorf("events --for deployment/web = %q", out)
		}
		if out := kubectl(t, ctx, "rollout undo deployment/web"); !strings.Contains(out, "deployment.apps/web rolled back") {
			t.Errorf("rollout undo = %q", out)
		}
		if out := kubectl(t, ctx, "rollout history deployment/web"); !strings.Contains(out, "REVISION") {
			t.Errorf("rollout history = %q", out)
		}
		if out := kubectl(t, ctx, "help"); !strings.Contains(out, "↑") || !strings.Contains(out, "rollout") {
			t.Errorf("help = %q", out)
		}
		if out := kubectl(t, ctx, "get nonsense"); !strings.Contains(out, "exit code 1") {
			t.Errorf("get nonsense = %q, want exit code 1", out)
		}
		do(t, ctx, "pressing ↑ twice", chromedp.Focus(chromedp.CSS("#kubectl")), chromedp.KeyEvent(kb.ArrowUp), chromedp.KeyEvent(kb.ArrowUp))
		if v := eval[string](t, ctx, "reading the console line", `document.getElementById("kubectl").value`); v != "help" {
			t.Errorf("↑ twice brings back %q, want help", v)
		}
		do(t, ctx, "pressing ↓", chromedp.KeyEvent(kb.ArrowDown))
		if v := eval[string](t, ctx, "reading the console line", `document.getElementById("kubectl").value`); v != "get nonsense" {
			t.Errorf("↓ brings back %q, want get nonsense", v)
		}
		noAlert(t, ctx)
		screenshot(t, ctx, "play-console")
	})

	t.Run("fork", func(t *testing.T) {
		openPlay(t, ctx, base+"/play")
		clickButton(t, ctx, "Start over")
		nextUntil(t, ctx, "convergence", `· converged`, 400)
		n := statusPass(t, ctx)
		chooseFault(t, ctx, "stop", "replicaset-controller")
		clickButton(t, ctx, "Inject")
		poll(t, ctx, "the controller stops", `document.getElementById("play-notice").textContent.includes("Injected stop replicaset-controller")`, 5*time.Second)
		clickButton(t, ctx, "Previous pass")
		waitStatus(t, ctx, n-1)
		clickButton(t, ctx, "Fork here")
		poll(t, ctx, "two futures", `document.getElementById("futures-title") != null`, 10*time.Second)
		if f := focused(t, ctx); f != "fork" {
			t.Errorf("after Fork here the focus is on #%s, want Fork here", f)
		}
		// Both futures lose a pod; only B's controller is there to replace it.
		for _, future := range []string{"b", "a"} {
			clickButton(t, ctx, "Work in future "+future)
			chooseFault(t, ctx, "delete-pod", "")
			clickButton(t, ctx, "Inject")
			poll(t, ctx, "the pod is deleted", `document.getElementById("play-notice").textContent.includes("Injected delete-pod")`, 5*time.Second)
		}
		poll(t, ctx, "the futures differ", `(() => { const f = [...document.querySelectorAll(".future")].map(e => e.textContent);
			return f.length == 2 && f[0].includes("web: 2 of 3 pods") && f[1].includes("web: 3 of 3 pods, 3 ready") })()`, 20*time.Second)
		for _, name := range []string{"Future A (you are here)", "Future B"} {
			if eval[int](t, ctx, "finding "+name, fmt.Sprintf(`[...document.querySelectorAll("section.future[aria-labelledby]")].filter(s =>
				document.getElementById(s.getAttribute("aria-labelledby")).textContent.trim() == %q).length`, name)) != 1 {
				t.Errorf("no region labelled %q", name)
			}
		}
		screenshot(t, ctx, "play-fork")
		axeCheck(t, ctx, "/play with two futures")
	})

	t.Run("a failing handler", func(t *testing.T) {
		if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument,
			page.AddScriptToEvaluateOnNewDocumentParams{Source: "window.reconcileTestHooks = true;"}); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct{ hook, what string }{{"apply", "Apply"}, {"kubectl", "kubectl get pods"}, {"next", "Next pass"}} {
			openPlay(t, ctx, base+"/play?fail="+c.hook)
			clickButton(t, ctx, "Start over")
			waitStatus(t, ctx, 0)
			switch c.hook {
			case "apply":
				clickButton(t, ctx, "Apply")
			case "kubectl":
				do(t, ctx, "typing", chromedp.SendKeys(chromedp.CSS("#kubectl"), "get pods"+kb.Enter))
			case "next":
				clickButton(t, ctx, "Next pass")
			}
			poll(t, ctx, "the failure is shown", fmt.Sprintf(`(document.querySelector('[role="alert"]') || {textContent: ""}).textContent.includes(%q)`, c.what+" failed"), 5*time.Second)
			if c.hook == "apply" {
				screenshot(t, ctx, "play-failure")
				playShot(t, ctx, "play-alert-toast", ".play")
			}
			// The page stays usable.
			if c.hook != "next" {
				clickButton(t, ctx, "Next pass")
				waitStatus(t, ctx, 1)
			}
			if c.hook != "kubectl" {
				screenshot(t, ctx, "play-failure-"+c.hook)
				if out := kubectl(t, ctx, "get deployments"); !strings.Contains(out, "web") {
					t.Errorf("after the failure, get deployments = %q", out)
				}
			}
			if a := alertText(t, ctx); a != "" {
				t.Errorf("after %s the alert still says %q", c.what, a)
			}
		}
	})

	t.Run("hostile inputs", func(t *testing.T) {
		openPlay(t, ctx, base+"/play")
		clickButton(t, ctx, "Start over")
		_, before := pageDigest(t, ctx)
		for _, c := range []struct{ name, js, want string }{
			{"a huge paste", `"# a comment\n".repeat(90000)`, "MaxFileSize"},
			{"an alias bomb", `"a: &a [x, x, x, x, x, x, x, x]\n" + [...Array(120).keys()].map(i => "b" + i + ": &b" + i + " [" + Array(4).fill("*" + (i ? "b" + (i-1) : "a")).join(", ") + "]").join("\n")`, "MaxAliases"},
			{"absurd replicas", "`apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 5000000\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: web, image: shop/web:1.0}]}\n`", "MaxReplicas"},
		} {
			pasteEditor(t, ctx, "pasting "+c.name, c.js)
			clickButton(t, ctx, "Apply")
			poll(t, ctx, "the refusal of "+c.name, fmt.Sprintf(`document.getElementById("apply-alert").textContent.includes(%q)`, c.want), 10*time.Second)
			if _, after := pageDigest(t, ctx); after != before {
				t.Errorf("%s changed the world", c.name)
			}
		}
		if out := kubectl(t, ctx, "scale deployment/web --replicas=2000000"); !strings.Contains(out, "MaxReplicas") {
			t.Errorf("scale to 2000000 = %q", out)
		}
		if _, after := pageDigest(t, ctx); after != before {
			t.Error("a refused scale changed the world")
		}

		// Share links: a deflate bomb, and markup in a shared scenario.
		open(t, ctx, base+"/play#z="+strings.Repeat("A", maxShareEncodedForTests))
		poll(t, ctx, "the refusal of a huge link", `(document.querySelector('[role="alert"]') || {textContent: ""}).textContent.includes("the limit is")`, 10*time.Second)
		screenshot(t, ctx, "play-hostile-link")
		open(t, ctx, base+"/play#z=!!not-base64!!")
		poll(t, ctx, "the refusal of a damaged link", `(document.querySelector('[role="alert"]') || {textContent: ""}).textContent.includes("damaged")`, 10*time.Second)
		open(t, ctx, base+"/play#"+evilShareLink(t))
		poll(t, ctx, "the shared work opens", `document.querySelector("h1").textContent.includes("Shared with you")`, 10*time.Second)
		if h1 := text(t, ctx, "h1"); !strings.Contains(h1, "<img src=x onerror=") {
			t.Errorf("the title shows %q, want the markup as text", h1)
		}
		if n := eval[int](t, ctx, "looking for injected markup", `document.querySelectorAll("main img, main script").length + (window.pwned ? 100 : 0)`); n != 0 {
			t.Errorf("the shared title injected %d elements or ran code", n)
		}
	})

	t.Run("axe, narrow, light and dark", func(t *testing.T) {
		defer do(t, ctx, "back to the desktop", chromedp.EmulateViewport(1280, 900), darkMode(false))
		for _, dark := range []bool{false, true} {
			mode := map[bool]string{false: "light", true: "dark"}[dark]
			do(t, ctx, "desktop, "+mode, chromedp.EmulateViewport(1280, 900), darkMode(dark))
			openPlay(t, ctx, base+"/play?from=self-healing")
			nextUntil(t, ctx, "pass 6", `Pass 6\b`, 10)
			kubectl(t, ctx, "get pods")
			setEditor(t, ctx, editorText(t, ctx)+"\nbroken: [\n")
			clickButton(t, ctx, "Apply")
			poll(t, ctx, "the editor's alert", editorAlerts, 5*time.Second)
			axeCheck(t, ctx, "/play ("+mode+") with an alert")
			screenshot(t, ctx, "play-"+mode)
			do(t, ctx, "emulating a 360 px phone", chromedp.EmulateViewport(360, 780))
			openPlay(t, ctx, base+"/play")
			noSidewaysScroll(t, ctx, "/play at 360 px, "+mode)
			axeCheck(t, ctx, "/play at 360 px, "+mode)
			screenshot(t, ctx, "play-360-"+mode)
		}
	})

	t.Run("keyboard", func(t *testing.T) {
		openPlay(t, ctx, base+"/play")
		clickButton(t, ctx, "Start over")
		eval[bool](t, ctx, "leaving the buttons", `(() => { document.activeElement.blur(); return true })()`)
		do(t, ctx, "pressing → on the page", chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowRight))
		waitStatus(t, ctx, 2)
		do(t, ctx, "pressing ←", chromedp.KeyEvent(kb.ArrowLeft))
		waitStatus(t, ctx, 1)
		// Typing in the editor or the console never steps the run.
		do(t, ctx, "typing → in the console", chromedp.Focus(chromedp.CSS("#kubectl")), chromedp.KeyEvent(kb.ArrowRight))
		waitStatus(t, ctx, 1)
		// Ctrl+Enter in the editor applies.
		do(t, ctx, "Ctrl+Enter in the editor", chromedp.Focus(chromedp.CSS("#desired")), chromedp.KeyEvent(kb.Enter, chromedp.KeyModifiers(chromedp.ModifierCtrl)))
		poll(t, ctx, "Ctrl+Enter applied", `document.getElementById("apply-result").textContent != ""`, 5*time.Second)
		if f := focused(t, ctx); f != "desired" {
			t.Errorf("after Ctrl+Enter the focus is on #%s, want the editor still", f)
		}
	})
}

// chooseFault picks a fault and, once the palette offers it, its target.
func chooseFault(t *testing.T, ctx context.Context, verb, target string) {
	t.Helper()
	choose(t, ctx, "fault-verb", verb, "change")
	if target == "" {
		poll(t, ctx, "the palette offers targets of "+verb, `document.querySelectorAll("#fault-target option").length > 0`, 5*time.Second)
		return
	}
	poll(t, ctx, "the palette offers "+target, fmt.Sprintf(`[...document.querySelectorAll("#fault-target option")].some(o => o.value == %q)`, target), 5*time.Second)
	choose(t, ctx, "fault-target", target, "change")
}

// maxShareEncodedForTests is longer than any share link may be.
const maxShareEncodedForTests = 100_000

// evilShareLink is a share link (its fragment) whose scenario's title is
// markup, written as the share link format says: the base64url of the
// deflated JSON state.
func evilShareLink(t *testing.T) string {
	t.Helper()
	scenario := `id: evil
title: "<img src=x onerror=window.pwned=1><script>window.pwned=1</script>"
summary: Plain text only.
manifests: |
  apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web}
  spec:
    replicas: 1
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec: {containers: [{name: web, image: "shop/web:1.0"}]}
`
	data, err := json.Marshal(map[string]any{"format": "reconcile-play", "version": 1, "file": "evil.yaml", "scenario": scenario,
		"desired": "", "futures": []map[string]any{{"pass": 2}}, "active": 0})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.BestCompression)
	w.Write(data)
	w.Close()
	return "z=" + base64.RawURLEncoding.EncodeToString(b.Bytes())
}

func TestBrowserPlayPersistence(t *testing.T) {
	srv := playServer(t)
	base := srv.URL
	profile := t.TempDir()
	ctx, closeBrowser := playBrowser(t, profile)
	url := base + "/play?from=self-healing"

	openPlay(t, ctx, url)
	nextUntil(t, ctx, "pass 5", `Pass 5\b`, 10)
	kubectl(t, ctx, "scale deployment/web --replicas=4")
	edited := editorText(t, ctx) + "# my note: four replicas next time\n"
	setEditor(t, ctx, edited)
	nextUntil(t, ctx, "pass 9", `Pass 9\b`, 10)
	waitSaved(t, ctx)
	n, digest := pageDigest(t, ctx)

	// A reload.
	openPlay(t, ctx, url)
	waitStatus(t, ctx, n)
	if m, d := pageDigest(t, ctx); m != n || d != digest {
		t.Errorf("after a reload: pass %d digest %s, want pass %d digest %s", m, d, n, digest)
	}
	if got := editorText(t, ctx); got != edited {
		t.Errorf("after a reload the editor holds %.80q…, want the edit", got)
	}
	if links := text(t, ctx, ".slots"); !strings.Contains(links, "Try it yourself") {
		t.Errorf("Your work lists %q", links)
	}

	// A browser restart on the same profile: IndexedDB (idbFS).
	closeBrowser()
	ctx, closeBrowser = playBrowser(t, profile)
	openPlay(t, ctx, url)
	waitStatus(t, ctx, n)
	if m, d := pageDigest(t, ctx); m != n || d != digest {
		t.Errorf("after a browser restart: pass %d digest %s, want pass %d digest %s", m, d, n, digest)
	}
	if got := editorText(t, ctx); got != edited {
		t.Errorf("after a browser restart the editor holds %.80q…, want the edit", got)
	}
	if got := text(t, ctx, "#kubectl-output"); strings.Contains(got, "$ kubectl") {
		t.Logf("console after restart: %q", got)
	}
	screenshot(t, ctx, "play-restored")

	// Export, start over, import: the same state.
	downloads := t.TempDir()
	if _, err := chromedp.CallBrowser(ctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
		Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllow, DownloadPath: downloads}); err != nil {
		t.Fatal(err)
	}
	clickButton(t, ctx, "Export")
	file := filepath.Join(downloads, "reconcile-self-healing.json")
	deadline := time.Now().Add(10 * time.Second)
	for {
		if st, err := os.Stat(file); err == nil && st.Size() > 0 {
			break
		}
		if time.Now().After(deadline) {
			entries, _ := os.ReadDir(downloads)
			t.Fatalf("no exported file in %s (%v)", downloads, entries)
		}
		time.Sleep(100 * time.Millisecond)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"format": "reconcile-play"`) || !strings.Contains(string(data), digest) {
		t.Errorf("the exported file: %.200s", data)
	}
	clickButton(t, ctx, "Start over")
	waitStatus(t, ctx, 0)
	do(t, ctx, "importing the file", chromedp.SetUploadFiles(chromedp.CSS("#import"), []string{file}))
	poll(t, ctx, "the import", `/Imported reconcile-self-healing.json/.test(document.getElementById("play-notice").textContent)`, 10*time.Second)
	if m, d := pageDigest(t, ctx); m != n || d != digest {
		t.Errorf("after export and import: pass %d digest %s, want pass %d digest %s", m, d, n, digest)
	}
	if !strings.Contains(text(t, ctx, "#play-notice"), "The same digest as when it was exported") {
		t.Errorf("notice = %q", text(t, ctx, "#play-notice"))
	}
	noAlert(t, ctx)

	// Offline: the service worker serves /play, IndexedDB the work.
	waitSaved(t, ctx)
	poll(t, ctx, "the service worker has cached /play", `(async () => {
		if (!navigator.serviceWorker.controller) return false;
		const keys = await caches.keys();
		if (keys.length == 0) return false;
		const cache = await caches.open(keys[0]);
		return !!(await cache.match("/play")) && !!(await cache.match("/web/play.css")) && !!(await cache.match("/web/app.wasm"));
	})()`, 60*time.Second)
	srv.Close()
	openPlay(t, ctx, url)
	waitStatus(t, ctx, n)
	if m, d := pageDigest(t, ctx); m != n || d != digest {
		t.Errorf("offline: pass %d digest %s, want pass %d digest %s", m, d, n, digest)
	}
	clickButton(t, ctx, "Next pass")
	waitStatus(t, ctx, n+1)
	screenshot(t, ctx, "play-offline")
}

func TestBrowserPlayShareLink(t *testing.T) {
	base := playSite(t)
	ctx, _ := playBrowser(t, t.TempDir())
	openPlay(t, ctx, base+"/play?from=node-dies-at-3am")
	nextUntil(t, ctx, "pass 12", `Pass 12\b`, 20)
	chooseFault(t, ctx, "drop-watch", "replicaset-controller")
	clickButton(t, ctx, "Inject")
	poll(t, ctx, "the fault", `document.getElementById("play-notice").textContent.includes("Injected drop-watch replicaset-controller")`, 5*time.Second)
	kubectl(t, ctx, "cordon worker-2")
	nextUntil(t, ctx, "pass 30", `Pass 30\b`, 30)
	clickButton(t, ctx, "Fork here")
	kubectl(t, ctx, "uncordon worker-2")
	nextUntil(t, ctx, "pass 34", `Pass 34\b`, 10)
	n, digest := pageDigest(t, ctx)
	clickButton(t, ctx, "Copy share link")
	poll(t, ctx, "the share link", `document.getElementById("share-link") != null`, 5*time.Second)
	link := eval[string](t, ctx, "reading the share link", `document.getElementById("share-link").value`)
	if !strings.HasPrefix(link, base+"/play#z=") {
		t.Fatalf("share link = %.100q", link)
	}
	t.Logf("share link: %d characters", len(link))
	// The browser deflates the link (CompressionStream); Go's inflater
	// reads it too: the format is raw DEFLATE, whoever wrote it.
	raw, err := base64.RawURLEncoding.DecodeString(link[len(base+"/play#z="):])
	if err != nil {
		t.Fatalf("the share link is not base64url: %v", err)
	}
	state, err := io.ReadAll(flate.NewReader(bytes.NewReader(raw)))
	if err != nil || !json.Valid(state) {
		t.Fatalf("the share link does not inflate to JSON with compress/flate: %v (%d bytes)", err, len(state))
	}

	// A fresh profile: nothing stored, nothing cached.
	fresh, _ := playBrowser(t, t.TempDir())
	openPlay(t, fresh, link)
	waitStatus(t, fresh, n)
	if m, d := pageDigest(t, fresh); m != n || d != digest {
		t.Errorf("the share link in a fresh profile: pass %d digest %s, want pass %d digest %s", m, d, n, digest)
	}
	if loc := eval[string](t, fresh, "reading the address", `location.pathname + location.search + location.hash`); loc != "/play?work=shared" {
		t.Errorf("after opening the link the address is %q", loc)
	}
	if got := text(t, fresh, ".futures"); !strings.Contains(got, "Future B (you are here)") {
		t.Errorf("the shared work lost its fork: %.200q", got)
	}
	noAlert(t, fresh)
	screenshot(t, fresh, "play-shared")

	// A share link pasted on a page already showing /play: only the
	// fragment changes.
	clickButton(t, fresh, "Start over")
	waitStatus(t, fresh, 0)
	eval[bool](t, fresh, "following the link in place", fmt.Sprintf(`(() => { location.hash = %q; return true })()`, link[strings.Index(link, "#"):]))
	waitStatus(t, fresh, n)
	if m, d := pageDigest(t, fresh); m != n || d != digest {
		t.Errorf("the share link opened in place: pass %d digest %s, want pass %d digest %s", m, d, n, digest)
	}
	noAlert(t, fresh)

	// In the browser's inflater too, a deflate bomb (a short link of a
	// megabyte of zeros) stops at the limit, and damaged deflate data is
	// refused.
	var bomb bytes.Buffer
	w, _ := flate.NewWriter(&bomb, flate.BestCompression)
	w.Write(make([]byte, 1<<20))
	w.Close()
	for _, c := range []struct{ what, fragment, want string }{
		{"a deflate bomb", "#z=" + base64.RawURLEncoding.EncodeToString(bomb.Bytes()), "inflates to more than 65536 bytes"},
		{"damaged deflate data", "#z=" + base64.RawURLEncoding.EncodeToString([]byte{0xff, 0xff, 0xff, 0xff}), "not deflate data"},
	} {
		open(t, fresh, base+"/play"+c.fragment)
		poll(t, fresh, "the refusal of "+c.what, fmt.Sprintf(`(document.querySelector('[role="alert"]') || {textContent: ""}).textContent.includes(%q)`, c.want), 10*time.Second)
	}
}

// playShot keeps what the viewport shows as test-artifacts/name.png, with
// the top of the element css just under the transport (which stays at the
// top of the screen as the page scrolls).
func playShot(t *testing.T, ctx context.Context, name, css string) {
	t.Helper()
	eval[bool](t, ctx, "scrolling to "+css, fmt.Sprintf(`(() => { const e = document.querySelector(%q), bar = document.querySelector(".transport");
		const stuck = getComputedStyle(bar).position == "sticky" ? bar.getBoundingClientRect().height : 0;
		scrollTo(0, e.getBoundingClientRect().top + scrollY - stuck - 8); return true })()`, css))
	time.Sleep(150 * time.Millisecond)
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

// rects reads where the elements matching css are on the page (document
// coordinates, so that a scroll is not a move), rounded to the pixel.
func rects(t *testing.T, ctx context.Context, css string) [][4]int {
	t.Helper()
	return measure(t, ctx, css, "scrollX", "scrollY")
}

// viewRects reads where the elements matching css are on the screen.
func viewRects(t *testing.T, ctx context.Context, css string) [][4]int {
	t.Helper()
	return measure(t, ctx, css, "0", "0")
}

// measure reads the rectangles of the elements matching css, shifted by
// the JavaScript expressions dx and dy.
func measure(t *testing.T, ctx context.Context, css, dx, dy string) [][4]int {
	t.Helper()
	return eval[[][4]int](t, ctx, "measuring "+css, fmt.Sprintf(`[...document.querySelectorAll(%q)].map(e => {
		const r = e.getBoundingClientRect();
		return [Math.round(r.left + %s), Math.round(r.top + %s), Math.round(r.width), Math.round(r.height)] })`, css, dx, dy))
}

// samePlace fails when an element moved more than 1 px.
func samePlace(t *testing.T, what string, before, after [][4]int) {
	t.Helper()
	if len(before) != len(after) || len(before) == 0 {
		t.Errorf("%s: %d elements before, %d after", what, len(before), len(after))
		return
	}
	for i := range before {
		for j := range 4 {
			if d := before[i][j] - after[i][j]; d > 1 || d < -1 {
				t.Errorf("%s: element %d moved from %v to %v", what, i, before[i], after[i])
				break
			}
		}
	}
}

// consoleLine reads the console's input.
func consoleLine(t *testing.T, ctx context.Context) string {
	t.Helper()
	return eval[string](t, ctx, "reading the console line", `document.getElementById("kubectl").value`)
}

func TestBrowserPlayTerminalAndEditor(t *testing.T) {
	base := playSite(t)
	ctx, _ := playBrowser(t, t.TempDir())
	defer do(t, ctx, "back to the desktop", chromedp.EmulateViewport(1280, 900))
	do(t, ctx, "a 1280×800 screen", chromedp.EmulateViewport(1280, 800))

	t.Run("a clean apply at pass 0", func(t *testing.T) {
		openPlay(t, ctx, base+"/play")
		clickButton(t, ctx, "Start over")
		waitStatus(t, ctx, 0)
		setEditor(t, ctx, strings.NewReplacer("replicas: 3", "replicas: 4", "shop/web:1.0", "shop/web:2.0").Replace(editorText(t, ctx)))
		clickButton(t, ctx, "Apply")
		poll(t, ctx, "the apply's result", `document.getElementById("apply-result").textContent.includes("configured")`, 5*time.Second)
		nextUntil(t, ctx, "convergence", `· converged`, 400)
		out := kubectl(t, ctx, "get replicasets")
		if n := strings.Count(out, "\nweb-"); n != 1 {
			t.Errorf("get replicasets after a clean apply at pass 0 lists %d ReplicaSets:\n%s", n, out)
		}
		if !strings.Contains(out, "4         4         4") {
			t.Errorf("the ReplicaSet is not at 4 ready:\n%s", out)
		}
		if ev := kubectl(t, ctx, "get events"); strings.Contains(ev, "Warning") || strings.Contains(ev, "already exists") {
			t.Errorf("a clean apply at pass 0 gave warnings:\n%s", ev)
		}
	})

	t.Run("console completion, clear, and a wide table", func(t *testing.T) {
		openPlay(t, ctx, base+"/play")
		clickButton(t, ctx, "Start over")
		nextUntil(t, ctx, "convergence", `· converged`, 400)
		labelled(t, ctx, "kubectl", "kubectl")
		// The prompt is at the bottom, under the scrollback.
		out, in := viewRects(t, ctx, "#kubectl-output"), viewRects(t, ctx, "#kubectl")
		if in[0][1] < out[0][1]+out[0][3] {
			t.Errorf("the prompt (top %d) is not under the scrollback (bottom %d)", in[0][1], out[0][1]+out[0][3])
		}
		do(t, ctx, "typing get deploy and Tab", chromedp.Focus(chromedp.CSS("#kubectl")), chromedp.SendKeys(chromedp.CSS("#kubectl"), "get deploy"), chromedp.KeyEvent(kb.Tab))
		poll(t, ctx, "get deploy completes", `document.getElementById("kubectl").value == "get deployments "`, 5*time.Second)
		if f := focused(t, ctx); f != "kubectl" {
			t.Errorf("after Tab the focus is on #%s, want the console", f)
		}
		eval[bool](t, ctx, "clearing the line", `(() => { const e = document.getElementById("kubectl"); e.value = ""; e.dispatchEvent(new Event("input", {bubbles: true})); return true })()`)
		do(t, ctx, "typing get pods web- and Tab", chromedp.SendKeys(chromedp.CSS("#kubectl"), "get pods web-"), chromedp.KeyEvent(kb.Tab))
		poll(t, ctx, "the pod names", `document.querySelectorAll("#kubectl-completions li").length == 3`, 5*time.Second)
		names := eval[[]string](t, ctx, "reading the completions", `[...document.querySelectorAll("#kubectl-completions li")].map(l => l.textContent.trim())`)
		line := consoleLine(t, ctx)
		for _, n := range names {
			if !strings.HasPrefix(n, "web-") || !strings.HasPrefix("get pods "+n, line) {
				t.Errorf("completion %q does not extend the line %q", n, line)
			}
		}
		if line == "get pods web-" {
			t.Errorf("Tab did not complete the common part of %q", names)
		}
		if got := text(t, ctx, "#kubectl-completions"); !strings.Contains(got, "3 completions") {
			t.Errorf("the completions say %q", got)
		}
		playShot(t, ctx, "play-completions", ".console")
		do(t, ctx, "choosing the first", chromedp.Click(chromedp.CSS("#kubectl-completions li button")))
		if got := consoleLine(t, ctx); got != "get pods "+names[0]+" " {
			t.Errorf("choosing %s gives %q", names[0], got)
		}
		do(t, ctx, "running it", chromedp.Focus(chromedp.CSS("#kubectl")), chromedp.KeyEvent(kb.Enter))
		poll(t, ctx, "the pod", fmt.Sprintf(`document.getElementById("kubectl-output").textContent.includes("$ kubectl get pods %s")`, names[0]), 5*time.Second)
		if n := eval[int](t, ctx, "counting completions", `document.querySelectorAll("#kubectl-completions li").length`); n != 0 {
			t.Errorf("%d completions still listed after Enter", n)
		}
		// A wide table: the scrollback scrolls sideways as a whole, never
		// cutting a column.
		kubectl(t, ctx, "describe deployment web")
		kubectl(t, ctx, "get pods -o wide")
		do(t, ctx, "a 390 px phone", chromedp.EmulateViewport(390, 844))
		wide := eval[[]int](t, ctx, "measuring the scrollback", `(() => { const o = document.getElementById("kubectl-output");
			const pre = [...o.querySelectorAll("pre")].pop();
			o.scrollLeft = 10000;
			return [o.scrollWidth, o.clientWidth, o.scrollLeft, pre.scrollWidth, pre.clientWidth] })()`)
		if wide[0] <= wide[1] || wide[2] == 0 {
			t.Errorf("the wide table does not scroll sideways at 390 px: scrollWidth %d, clientWidth %d, scrollLeft %d", wide[0], wide[1], wide[2])
		}
		if wide[3] > wide[4] {
			t.Errorf("the table is cut inside its entry: %d px of %d shown", wide[4], wide[3])
		}
		noSidewaysScroll(t, ctx, "/play at 390 px with a wide table")
		eval[bool](t, ctx, "scrolling back", `(() => { document.getElementById("kubectl-output").scrollLeft = 0; return true })()`)
		playShot(t, ctx, "play-console-390", ".console")
		do(t, ctx, "back to 1280×800", chromedp.EmulateViewport(1280, 800))
		playShot(t, ctx, "play-console", ".console")
		axeCheck(t, ctx, "/play with the console's completions and a wide table")
		// Ctrl+L clears the screen, not the history.
		do(t, ctx, "Ctrl+L", chromedp.Focus(chromedp.CSS("#kubectl")), chromedp.KeyEvent("l", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
		poll(t, ctx, "a clear screen", `document.querySelectorAll("#kubectl-output .console-entry").length == 0`, 5*time.Second)
		do(t, ctx, "pressing ↑", chromedp.KeyEvent(kb.ArrowUp))
		if got := consoleLine(t, ctx); got != "get pods -o wide" {
			t.Errorf("after Ctrl+L, ↑ brings back %q", got)
		}
	})

	t.Run("history across a reload", func(t *testing.T) {
		openPlay(t, ctx, base+"/play")
		clickButton(t, ctx, "Start over")
		waitStatus(t, ctx, 0)
		kubectl(t, ctx, "get nodes")
		kubectl(t, ctx, "get deployments")
		waitSaved(t, ctx)
		openPlay(t, ctx, base+"/play")
		do(t, ctx, "pressing ↑", chromedp.Focus(chromedp.CSS("#kubectl")), chromedp.KeyEvent(kb.ArrowUp))
		if got := consoleLine(t, ctx); got != "get deployments" {
			t.Errorf("after a reload ↑ brings back %q, want get deployments", got)
		}
		do(t, ctx, "pressing ↑ again", chromedp.KeyEvent(kb.ArrowUp))
		if got := consoleLine(t, ctx); got != "get nodes" {
			t.Errorf("after a reload ↑↑ brings back %q, want get nodes", got)
		}
	})

	t.Run("the editor follows kubectl scale", func(t *testing.T) {
		openPlay(t, ctx, base+"/play")
		clickButton(t, ctx, "Start over")
		nextUntil(t, ctx, "convergence", `· converged`, 400)
		if h := text(t, ctx, "#editor-holds"); !strings.Contains(h, "the scenario starts with") {
			t.Errorf("at the start the editor says %q", h)
		}
		kubectl(t, ctx, "scale deployment/web --replicas=6")
		poll(t, ctx, "the editor shows replicas: 6", `document.getElementById("desired").value.includes("replicas: 6")`, 5*time.Second)
		if h := text(t, ctx, "#editor-holds"); !strings.Contains(h, "live desired state, changed by kubectl scale deployment/web --replicas=6 at t=") {
			t.Errorf("after scale the editor says %q", h)
		}
		if got := editorText(t, ctx); strings.Contains(got, "status:") || strings.Contains(got, "resourceVersion") {
			t.Errorf("the live manifests hold status or server fields:\n%s", got)
		}
		nextUntil(t, ctx, "convergence at 6", `· converged`, 400)
		playShot(t, ctx, "play-editor-live", ".editor-pane")
		do(t, ctx, "a 390 px phone", chromedp.EmulateViewport(390, 844))
		playShot(t, ctx, "play-editor-live-390", ".editor-pane")
		do(t, ctx, "back to 1280×800", chromedp.EmulateViewport(1280, 800))

		// Typing not applied is kept; the live state is one click away.
		typed := editorText(t, ctx) + "# my note\n"
		setEditor(t, ctx, typed)
		kubectl(t, ctx, "scale deployment/web --replicas=2")
		if got := editorText(t, ctx); got != typed {
			t.Fatalf("a console write replaced the learner's typing")
		}
		poll(t, ctx, "the offer", `!document.getElementById("load-live").disabled`, 5*time.Second)
		if h := text(t, ctx, "#editor-holds"); !strings.Contains(h, "your edits, not applied yet") || !strings.Contains(h, "--replicas=2") {
			t.Errorf("with typing the editor says %q", h)
		}
		clickButton(t, ctx, "Load the live desired state")
		poll(t, ctx, "the live state", `document.getElementById("desired").value.includes("replicas: 2")`, 5*time.Second)
		clickButton(t, ctx, "Bring back your text")
		poll(t, ctx, "the typing back", `document.getElementById("desired").value.includes("# my note")`, 5*time.Second)
		axeCheck(t, ctx, "/play, the editor offering the live state")
	})

	t.Run("no layout jump on an apply error or a fork", func(t *testing.T) {
		openPlay(t, ctx, base+"/play")
		clickButton(t, ctx, "Start over")
		nextUntil(t, ctx, "pass 5", `Pass 5\b`, 10)
		eval[bool](t, ctx, "to the top", `(() => { scrollTo(0, 0); document.activeElement.blur(); return true })()`)
		// The transport sticks to the top of the screen: it is measured on
		// the screen, the rest on the page.
		const controls = "#desired, #kubectl, .editor-pane .buttons button, .stage"
		setEditor(t, ctx, "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: [oops\n")
		mid := rects(t, ctx, controls)
		eval[bool](t, ctx, "to the top", `(() => { scrollTo(0, 0); return true })()`)
		bar := viewRects(t, ctx, ".transport .buttons button")
		clickButton(t, ctx, "Apply")
		poll(t, ctx, "the editor's alert", editorAlerts, 5*time.Second)
		samePlace(t, "an apply error", mid, rects(t, ctx, controls))
		eval[bool](t, ctx, "to the top", `(() => { scrollTo(0, 0); return true })()`)
		samePlace(t, "an apply error, the transport", bar, viewRects(t, ctx, ".transport .buttons button"))
		playShot(t, ctx, "play-editor-error", ".editor-pane")
		// Fork here: the transport's buttons stay where they are on the
		// screen.
		eval[bool](t, ctx, "to the top", `(() => { scrollTo(0, 0); return true })()`)
		buttons, stage := viewRects(t, ctx, ".transport .buttons button"), rects(t, ctx, ".stage, #desired, #kubectl")
		clickButton(t, ctx, "Fork here")
		poll(t, ctx, "two futures", `document.getElementById("futures-title") != null`, 10*time.Second)
		samePlace(t, "Fork here", buttons, viewRects(t, ctx, ".transport .buttons button"))
		samePlace(t, "Fork here, the stage, the editor and the console", stage, rects(t, ctx, ".stage, #desired, #kubectl"))
		playShot(t, ctx, "play-forked", ".play")
		// A good apply, too.
		setEditor(t, ctx, strings.Replace(editorText(t, ctx), "[oops", "4", 1)+"  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: web, image: shop/web:1.0}]}\n")
		eval[bool](t, ctx, "to the top", `(() => { scrollTo(0, 0); return true })()`)
		mid = rects(t, ctx, controls)
		clickButton(t, ctx, "Apply")
		poll(t, ctx, "the result", `document.getElementById("apply-result").textContent.includes("configured")`, 5*time.Second)
		samePlace(t, "a good apply after an error", mid, rects(t, ctx, controls))
	})
}

// A damaged share link pasted over work in progress on /play is refused
// and changes nothing: the work stays at its pass, not the one last saved.
func TestBrowserPlayShareLinkRefusedInPlace(t *testing.T) {
	base := site(t)
	ctx, _ := playBrowser(t, t.TempDir())
	openPlay(t, ctx, base+"/play")
	for i := 0; i < 5; i++ {
		clickButton(t, ctx, "Next pass")
	}
	waitStatus(t, ctx, 5)
	n, d := pageDigest(t, ctx)
	eval[bool](t, ctx, "pasting a damaged link", `(() => { location.hash = "#z=_____w"; return true })()`)
	poll(t, ctx, "the refusal", `(document.querySelector('[role="alert"]') || {textContent: ""}).textContent.includes("damaged")`, 10*time.Second)
	time.Sleep(time.Second) // a reload of the saved work would land by now
	m, e := pageDigest(t, ctx)
	alert := eval[string](t, ctx, "the alert", `(document.querySelector('[role="alert"]') || {textContent: ""}).textContent`)
	if m != n || d != e || !strings.Contains(alert, "nothing of it was run") {
		t.Errorf("a refused share link opened in place: pass %d digest %s, was pass %d digest %s; alert %q", m, e, n, d, alert)
	}
}

// On a phone the playground's transport stays at hand at the bottom of
// the screen, as a lesson's does: at the console and the editor, far
// below the stage, Next pass is where the thumb is and works from there;
// a control reached with the keyboard stops above the transport, not
// under it; at the end of the page nothing is under it.
func TestBrowserPlayPhone(t *testing.T) {
	base := playSite(t)
	ctx, _ := playBrowser(t, t.TempDir())
	defer do(t, ctx, "back to the desktop", chromedp.EmulateViewport(1280, 900))
	do(t, ctx, "a 390×844 phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile))
	openPlay(t, ctx, base+"/play?from=node-dies-at-3am")

	bar := func() transportBox { return transportAt(t, ctx) }
	b := bar()
	if b.Bottom < b.Height-1 || b.Bottom > b.Height+1 {
		t.Errorf("the transport ends at y %.0f of a %.0f px screen, not at its bottom", b.Bottom, b.Height)
	}
	for _, part := range []string{"#kubectl", "#desired", ".log"} {
		eval[bool](t, ctx, "scrolling to "+part, fmt.Sprintf(`(() => { document.querySelector(%q).scrollIntoView({block: "center"}); return true })()`, part))
		time.Sleep(50 * time.Millisecond)
		if s := bar(); s.NextTop != b.NextTop {
			t.Errorf("at %s, Next pass is at y %.0f, was %.0f", part, s.NextTop, b.NextTop)
		}
	}
	// Next pass from the console, and the console at once after it.
	eval[bool](t, ctx, "scrolling to the console", `(document.getElementById("kubectl").scrollIntoView({block: "center"}), true)`)
	n := statusPass(t, ctx)
	clickButton(t, ctx, "Next pass")
	waitStatus(t, ctx, n+1)
	if out := kubectl(t, ctx, "get nodes"); !strings.Contains(out, "worker-1") {
		t.Errorf("get nodes printed %q", out)
	}
	viewportShot(t, ctx, "play-phone-console-390x844")
	// The keyboard's way to the console and to the editor, from the top.
	for _, id := range []string{"kubectl", "desired"} {
		eval[bool](t, ctx, "scrolling to the top", `(document.activeElement.blur(), window.scrollTo(0, 0), true)`)
		time.Sleep(50 * time.Millisecond)
		do(t, ctx, "focusing #"+id, chromedp.Focus(chromedp.CSS("#"+id)))
		time.Sleep(100 * time.Millisecond)
		r := eval[[]float64](t, ctx, "finding #"+id, fmt.Sprintf(`(() => { const e = document.getElementById(%q).getBoundingClientRect();
			return [e.top, e.bottom, document.querySelector("section.transport").getBoundingClientRect().top] })()`, id))
		if r[0] < 0 || (r[1] > r[2]+1 && r[0] > r[2]-40) {
			t.Errorf("#%s, focused, is at y %.0f–%.0f: under the transport (from y %.0f)", id, r[0], r[1], r[2])
		}
	}
	eval[bool](t, ctx, "leaving the editor", `(document.activeElement.blur(), true)`)
	// At the end of the page the transport has its own room.
	eval[bool](t, ctx, "scrolling to the end", `(window.scrollTo(0, 100000), true)`)
	time.Sleep(50 * time.Millisecond)
	if hidden := underTransport(t, ctx, "section, .workspace > *, .futures, .console"); hidden != "" {
		t.Errorf("at the end of the page the transport hides %s", hidden)
	}
	noSidewaysScroll(t, ctx, "/play on a phone")
	axeCheck(t, ctx, "/play on a phone")
}
