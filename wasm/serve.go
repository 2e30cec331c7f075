//go:build !wasm

package main

import (
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// contentTypes are the types the site's files are served with.
var contentTypes = map[string]string{
	".html":        "text/html; charset=utf-8",
	".js":          "text/javascript; charset=utf-8",
	".css":         "text/css; charset=utf-8",
	".wasm":        "application/wasm",
	".webmanifest": "application/manifest+json",
	".svg":         "image/svg+xml",
	".png":         "image/png",
	".json":        "application/json",
	".txt":         "text/plain; charset=utf-8",
	".snap":        "application/gzip", // a world's snapshot (snapshots.go)
}

// encodings are the precompressed variants a file may have next to it, in
// order of preference.
var encodings = []struct{ name, ext string }{
	{"br", ".br"},
	{"gzip", ".gz"},
}

// siteHandler serves the static site generated in dir. A page /p is the file
// p.html (/ is index.html). A file with a precompressed sibling (app.wasm.br,
// app.wasm.gz) is served compressed to clients that accept it, with the
// original's Content-Type.
func siteHandler(dir string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		name, ok := resolve(dir, r.URL.Path)
		if !ok {
			notFound(w, r)
			return
		}
		h := w.Header()
		h.Set("Cache-Control", "no-cache")
		h.Set("X-Content-Type-Options", "nosniff")
		if ct, ok := contentTypes[filepath.Ext(name)]; ok {
			h.Set("Content-Type", ct)
		}
		served := name
		if hasVariants(name) {
			h.Add("Vary", "Accept-Encoding")
			for _, e := range encodings {
				if accepts(r.Header.Get("Accept-Encoding"), e.name) && isFile(name+e.ext) {
					h.Set("Content-Encoding", e.name)
					served = name + e.ext
					if st, err := os.Stat(name); err == nil {
						h.Set("X-Uncompressed-Length", strconv.FormatInt(st.Size(), 10))
					}
					break
				}
			}
		}
		f, err := os.Open(served)
		if err != nil {
			notFound(w, r)
			return
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil {
			http.Error(w, "cannot read "+r.URL.Path, http.StatusInternalServerError)
			return
		}
		http.ServeContent(w, r, "", st.ModTime(), f)
	})
}

// resolve maps a URL path to a file of the site.
func resolve(dir, urlPath string) (string, bool) {
	p := path.Clean("/" + urlPath)
	if p == "/" {
		p = "/index.html"
	}
	if strings.HasSuffix(p, ".br") || strings.HasSuffix(p, ".gz") {
		return "", false // variants are chosen by Accept-Encoding only
	}
	base := filepath.Join(dir, filepath.FromSlash(p))
	for _, name := range []string{base, base + ".html", filepath.Join(base, "index.html")} {
		if isFile(name) {
			return name, true
		}
	}
	return "", false
}

func hasVariants(name string) bool {
	for _, e := range encodings {
		if isFile(name + e.ext) {
			return true
		}
	}
	return false
}

func isFile(name string) bool {
	st, err := os.Stat(name)
	return err == nil && st.Mode().IsRegular()
}

// accepts reports whether an Accept-Encoding header value allows coding.
func accepts(header, coding string) bool {
	for _, part := range strings.Split(header, ",") {
		fields := strings.Split(part, ";")
		if !strings.EqualFold(strings.TrimSpace(fields[0]), coding) {
			continue
		}
		for _, param := range fields[1:] {
			k, v, _ := strings.Cut(strings.TrimSpace(param), "=")
			if strings.TrimSpace(k) == "q" {
				if q, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil && q == 0 {
					return false
				}
			}
		}
		return true
	}
	return false
}

func notFound(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusNotFound)
	w.Write([]byte(`<!doctype html><html lang="en"><meta charset="utf-8"><title>Not found · Reconcile</title>` +
		`<link rel="stylesheet" href="/web/app.css"><main id="main" class="page"><h1>Not found</h1>` +
		`<p>Nothing lives at this address. <a href="/">Back to the lessons</a>.</p></main></html>`))
}
