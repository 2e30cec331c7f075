//go:build !wasm

package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func gz(t *testing.T, s string) string {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestSiteHandler(t *testing.T) {
	dir := t.TempDir()
	wasm := strings.Repeat("\x00asm", 1000)
	writeFiles(t, dir, map[string]string{
		"index.html":           "home",
		"s/lesson.html":        "lesson",
		"manifest.webmanifest": "{}",
		"web/app.css":          "body{}",
		"web/app.wasm":         wasm,
		"web/app.wasm.gz":      gz(t, wasm),
	})
	srv := httptest.NewServer(siteHandler(dir))
	defer srv.Close()

	get := func(path, acceptEncoding string) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		req.Header.Set("Accept-Encoding", acceptEncoding)
		res, err := http.DefaultTransport.RoundTrip(req) // no transparent decompression
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		return res, string(body)
	}

	for _, tc := range []struct {
		path, want, contentType string
	}{
		{"/", "home", "text/html; charset=utf-8"},
		{"/s/lesson", "lesson", "text/html; charset=utf-8"},
		{"/manifest.webmanifest", "{}", "application/manifest+json"},
		{"/web/app.css", "body{}", "text/css; charset=utf-8"},
	} {
		res, body := get(tc.path, "")
		if res.StatusCode != 200 || body != tc.want || res.Header.Get("Content-Type") != tc.contentType {
			t.Errorf("GET %s = %d %q %q, want 200 %q %q", tc.path, res.StatusCode, res.Header.Get("Content-Type"), body, tc.contentType, tc.want)
		}
	}

	res, body := get("/web/app.wasm", "gzip, deflate")
	if res.Header.Get("Content-Encoding") != "gzip" || res.Header.Get("Content-Type") != "application/wasm" {
		t.Errorf("app.wasm with gzip: Content-Encoding %q, Content-Type %q", res.Header.Get("Content-Encoding"), res.Header.Get("Content-Type"))
	}
	if !strings.Contains(res.Header.Get("Vary"), "Accept-Encoding") {
		t.Errorf("app.wasm: Vary = %q, want Accept-Encoding", res.Header.Get("Vary"))
	}
	zr, err := gzip.NewReader(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if raw, _ := io.ReadAll(zr); string(raw) != wasm {
		t.Errorf("app.wasm gzip body does not decompress to the binary")
	}

	res, body = get("/web/app.wasm", "br;q=1, gzip;q=0")
	if res.Header.Get("Content-Encoding") != "" || body != wasm {
		t.Errorf("app.wasm without an accepted coding: Content-Encoding %q, %d bytes", res.Header.Get("Content-Encoding"), len(body))
	}

	for _, path := range []string{"/nope", "/web/app.wasm.gz", "/../serve.go", "/s/"} {
		if res, _ := get(path, ""); res.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s = %d, want 404", path, res.StatusCode)
		}
	}
}

func TestAccepts(t *testing.T) {
	for _, tc := range []struct {
		header, coding string
		want           bool
	}{
		{"gzip, deflate, br", "br", true},
		{"gzip;q=0.5", "gzip", true},
		{"gzip;q=0", "gzip", false},
		{"GZIP", "gzip", true},
		{"", "gzip", false},
		{"deflate", "gzip", false},
	} {
		if got := accepts(tc.header, tc.coding); got != tc.want {
			t.Errorf("accepts(%q, %q) = %v, want %v", tc.header, tc.coding, got, tc.want)
		}
	}
}
