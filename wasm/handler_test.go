//go:build !wasm

package main

import (
	"html"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/session"
	"reconcile/engine/sim"
	"reconcile/scenarios"
	"reconcile/wasm/goappjs"
)

var registerRoutes sync.Once

// prerender returns the HTML go-app's handler renders for path: what a
// learner sees before the WebAssembly binary has loaded.
func prerender(t *testing.T, path string) string {
	t.Helper()
	registerRoutes.Do(routes)
	rec := httptest.NewRecorder()
	handler(1234).ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
	if rec.Code != 200 {
		t.Fatalf("GET %s = %d", path, rec.Code)
	}
	body, _ := io.ReadAll(rec.Body)
	return html.UnescapeString(string(body))
}

func TestEveryPageIsPrerenderedWithItsContent(t *testing.T) {
	home := prerender(t, "/")
	for _, want := range []string{"The loop under everything", `class="loop"`, `id="lessons"`, `href="/compare"`, `href="/failures"`} {
		if !strings.Contains(home, want) {
			t.Errorf("/ lacks %q", want)
		}
	}
	compare := prerender(t, "/compare")
	for _, want := range []string{">Edge-triggered</h2>", ">Level-triggered</h2>", "every pass:", "on node_failure(node):", ">Miss the event</button>", ">Handle it twice</button>", ">Crash mid-way</button>"} {
		if !strings.Contains(compare, want) {
			t.Errorf("/compare lacks %q", want)
		}
	}
	failures := prerender(t, "/failures")
	for _, want := range []string{"<table", ">Trigger</th>", ">Symptom</th>", ">Cause</th>", ">Response</th>"} {
		if !strings.Contains(failures, want) {
			t.Errorf("/failures lacks %q", want)
		}
	}
	for _, id := range scenarios.IDs() {
		sc, err := scenarios.Load(id)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(home, `href="/s/`+id+`"`) {
			t.Errorf("/ does not link to /s/%s", id)
		}
		page := prerender(t, "/s/"+id)
		for _, want := range []string{
			sc.Title,
			strings.Join(strings.Fields(sc.Summary), " ")[:60],
			">Next pass</button>",
			">Previous pass</button>",
			">Reset</button>",
			">Play</button>",
			`role="status"`,
			"Pass 0",
			`<label for="speed">Speed</label>`,
			`<label for="timeline">Timeline</label>`,
		} {
			if !strings.Contains(page, want) {
				t.Errorf("/s/%s lacks %q", id, want)
			}
		}
		// HTML reads an attribute that is there as true: each list shows
		// its one selected option (the default speed) from the first paint.
		speed, _, _ := strings.Cut(page[strings.Index(page, `<select id="speed"`)+1:], "</select>")
		if chosen := regexp.MustCompile(`<option[^>]*\bselected\b[^>]*>([^<]*)<`).FindAllStringSubmatch(speed, -1); strings.Contains(page, `selected="false"`) ||
			len(chosen) != 1 || chosen[0][1] != "5 passes a second" {
			t.Errorf("/s/%s does not select the default speed alone: %q", id, chosen)
		}
	}
}

func TestHandlerUsesLocalIconsAndTheRealWasmSize(t *testing.T) {
	h := handler(7977005)
	if h.WasmContentLength != "7977005" {
		t.Errorf("WasmContentLength = %q", h.WasmContentLength)
	}
	for _, icon := range []string{h.Icon.Default, h.Icon.Large, h.Icon.SVG, h.Icon.Maskable} {
		if !strings.HasPrefix(icon, "/web/") {
			t.Errorf("icon %q is not a local file", icon)
		}
	}
	registerRoutes.Do(routes)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/app.js", nil))
	if !strings.Contains(rec.Body.String(), `goappWasmContentLength = "7977005"`) {
		t.Errorf("app.js does not carry the wasm size")
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/app-worker.js", nil))
	worker := rec.Body.String()
	if !strings.Contains(worker, "ignoreSearch") {
		t.Error("the service worker does not find pages whatever their query (?pass=N, ?embed=1)")
	}
	if !strings.Contains(worker, "event.waitUntil((async () => {") || strings.Contains(worker, `addEventListener("install", async`) {
		t.Error("the service worker's install does not wait until the site is cached")
	}
	for _, p := range append(pages(), "/web/icon.svg", "/web/app.css", "/web/app.wasm") {
		if !strings.Contains(worker, `"`+p+`"`) {
			t.Errorf("the service worker does not cache %s", p)
		}
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/manifest.webmanifest", nil))
	if strings.Contains(rec.Body.String(), "http") {
		t.Errorf("the manifest names a remote resource: %s", rec.Body.String())
	}
}

// Link previews (og:url, og:image) name the site's address when the build
// is given one (-site), and are left out when it is not: go-app writes
// "https://" with no host otherwise, a preview that leads nowhere.
func TestLinkPreviewsNameTheSiteOrNothing(t *testing.T) {
	registerRoutes.Do(routes)
	old := siteAddress
	t.Cleanup(func() { siteAddress = old })
	pagesTo := []string{"/", "/s/node-dies-at-3am"}
	meta := regexp.MustCompile(`<meta (?:property="og:(url|image)" content="([^"]*)"|content="([^"]*)" property="og:(url|image)")>`)
	previews := func(dir, page string) map[string]string {
		name := "index.html"
		if page != "/" {
			name = strings.TrimPrefix(page, "/") + ".html"
		}
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, m := range meta.FindAllStringSubmatch(string(b), -1) {
			out[m[1]+m[4]] = m[2] + m[3] // the attributes come in either order
		}
		return out
	}

	// Unknown: the site the build writes has none.
	siteAddress = ""
	dir := t.TempDir()
	if err := app.GenerateStaticWebsite(dir, handler(1234), pagesTo...); err != nil {
		t.Fatal(err)
	}
	if got := previews(dir, "/s/node-dies-at-3am"); got["url"] != "https:///s/node-dies-at-3am" {
		t.Fatalf("go-app no longer writes a hostless og:url (%q): see whether dropHostlessPreviews is still needed", got)
	}
	if err := dropHostlessPreviews(dir); err != nil {
		t.Fatal(err)
	}
	for _, p := range pagesTo {
		if got := previews(dir, p); len(got) != 0 {
			t.Errorf("%s: link previews with no site address: %q", p, got)
		}
	}

	// Known: every preview names it.
	siteAddress = "https://reconcile.example.org/learn"
	dir = t.TempDir()
	if err := app.GenerateStaticWebsite(dir, handler(1234), pagesTo...); err != nil {
		t.Fatal(err)
	}
	if err := dropHostlessPreviews(dir); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]map[string]string{
		"/":                   {"url": "https://reconcile.example.org/learn", "image": "https://reconcile.example.org/learn/web/icon-512.png"},
		"/s/node-dies-at-3am": {"url": "https://reconcile.example.org/learn/s/node-dies-at-3am", "image": "https://reconcile.example.org/learn/web/icon-512.png"},
	} {
		if got := previews(dir, p); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: link previews %q, want %q", p, got, want)
		}
	}

	for _, bad := range []string{"http://reconcile.example.org", "reconcile.example.org", "https://", "https://x.org/?q=1"} {
		if checkSiteAddress(bad) == nil {
			t.Errorf("-site %q is taken", bad)
		}
	}
	for _, good := range []string{"", "https://reconcile.example.org", "https://example.org/learn"} {
		if err := checkSiteAddress(good); err != nil {
			t.Errorf("-site %q: %v", good, err)
		}
	}
}

// The pages say which lessons the site ships snapshots for, and their
// script asks for the snapshots of those only.
func TestPagesNameTheLessonsWithSnapshots(t *testing.T) {
	old := snapshotLessons
	t.Cleanup(func() { snapshotLessons = old })
	snapshotLessons = nil
	if page := prerender(t, "/s/node-dies-at-3am"); !strings.Contains(page, "var has = window.reconcileSnapshots = [];") {
		t.Errorf("a site without snapshots does not say so")
	}
	snapshotLessons = []string{"scale-10000"}
	if page := prerender(t, "/s/node-dies-at-3am"); !strings.Contains(page, `var has = window.reconcileSnapshots = ["scale-10000"];`) ||
		!strings.Contains(page, "has.indexOf(m[1]) < 0) return;") {
		t.Errorf("the page does not name the lessons with snapshots, or asks for others")
	}
}

// While app.wasm loads on a slow network, a lesson's prerendered page is
// what a learner reads: its lead, its story, the loop picture and what the
// first pass will do, in the words the stage uses once it has run.
func TestPrerenderedLessonSaysWhatTheFirstPassWillDo(t *testing.T) {
	for _, id := range scenarios.IDs() {
		sc, err := scenarios.Load(id)
		if err != nil {
			t.Fatal(err)
		}
		run, err := sim.New(sc.Config())
		if err != nil {
			t.Fatal(err)
		}
		first, ok := run.Next()
		if !ok {
			t.Fatalf("%s has no first pass", id)
		}
		e := session.Explain(first)
		page := strings.Join(strings.Fields(prerender(t, "/s/"+id)), " ")
		for _, want := range []string{sc.Lead, `<svg class="loop"`, "The story so far", "The first pass: </b> " + e.What + " " + e.Why} {
			if !strings.Contains(page, want) {
				t.Errorf("/s/%s lacks %q", id, want)
			}
		}
		// At any other pass, the page describes the pass it stands at.
		if page := prerender(t, "/s/"+id+"?pass=1"); strings.Contains(page, "The first pass: ") {
			t.Errorf("/s/%s?pass=1 still says what the first pass will do", id)
		}
	}
}

// The service worker is registered once app.wasm runs, not as app.js
// starts: the site's app.js is go-app's with its start changed, and a
// go-app whose app.js no longer starts as expected stops the build.
func TestAppJSRegistersTheWorkerAfterTheWasm(t *testing.T) {
	registerRoutes.Do(routes)
	rec := httptest.NewRecorder()
	handler(7977005).ServeHTTP(rec, httptest.NewRequest("GET", "/app.js", nil))
	js, err := goappjs.LaterWorker(rec.Body.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	s := string(js)
	wasm, worker := strings.Index(s, "goappInitWebAssembly()"), strings.Index(s, "goappInitServiceWorker()")
	if wasm < 0 || worker < wasm || !strings.Contains(s[wasm:worker], ".finally(") {
		t.Errorf("app.js does not register the worker after app.wasm has loaded:\n%s", s[:min(len(s), 1500)])
	}
	if strings.Count(s, "goappInitServiceWorker();\ngoappWatchForUpdate();") != 0 {
		t.Error("app.js still registers the worker first")
	}
	if _, err := goappjs.LaterWorker([]byte("goappInitWebAssembly();\n")); err == nil {
		t.Error("an app.js without go-app's start is accepted")
	}
}
