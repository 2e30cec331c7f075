//go:build !wasm

package main

import (
	"html"
	"io"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"reconcile/scenarios"
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
