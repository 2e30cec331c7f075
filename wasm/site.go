//go:build !wasm

package main

import (
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/wasm/goappjs"
	"reconcile/wasm/sitefile"
)

// generateSite writes the static site into dir: every page prerendered by
// go-app, the static assets of web (with app.wasm, which go-app does not
// copy) and app.wasm precompressed with gzip and brotli.
func generateSite(dir, web, wasm string) error {
	st, err := os.Stat(wasm)
	if err != nil {
		return fmt.Errorf("the WebAssembly binary: %w (build it first)", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	// The snapshots first: the pages say which lessons have some.
	if snapshotLessons, err = writeSnapshots(dir); err != nil {
		return err
	}
	if err := app.GenerateStaticWebsite(dir, handler(st.Size()), pages()...); err != nil {
		return err
	}
	if siteAddress == "" {
		if err := dropHostlessPreviews(dir); err != nil {
			return err
		}
	}
	if err := sitefile.Rewrite(filepath.Join(dir, "app.js"), goappjs.LaterWorker); err != nil {
		return err
	}
	if err := copyTree(web, filepath.Join(dir, "web"), func(name string) bool {
		// Stale compressed binaries are rewritten below.
		return !strings.HasPrefix(filepath.Base(name), "app.wasm.")
	}); err != nil {
		return fmt.Errorf("copying %s: %w", web, err)
	}
	out := filepath.Join(dir, "web", "app.wasm")
	if filepath.Clean(wasm) != filepath.Clean(filepath.Join(web, "app.wasm")) {
		if err := sitefile.Copy(wasm, out); err != nil {
			return err
		}
	}
	return sitefile.Precompress(out, wasmBrotli)
}

// wasmBrotli is app.wasm.br's brotli quality (-brotli).
var wasmBrotli = sitefile.BestBrotli

// copyTree copies the regular files under src that keep accepts into dst.
func copyTree(src, dst string, keep func(string) bool) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case !d.Type().IsRegular() || !keep(p):
			return nil
		}
		return sitefile.Copy(p, target)
	})
}

// siteAddress is where the site is served, https://HOST[/PATH] (-site):
// link previews name it. Unknown (""), the pages have none.
var siteAddress string

// checkSiteAddress refuses a site address link previews cannot use.
func checkSiteAddress(s string) error {
	if s == "" {
		return nil
	}
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return err
	case u.Scheme != "https" || u.Host == "":
		return fmt.Errorf("%q: want https://HOST or https://HOST/PATH (link previews are https)", s)
	case u.RawQuery != "" || u.Fragment != "" || u.User != nil:
		return fmt.Errorf("%q: want https://HOST or https://HOST/PATH, without a query, fragment or user", s)
	}
	return nil
}

// hostlessPreview matches the lines go-app writes for og:url and og:image
// when it knows no site address: "https://" with no host (go-app writes
// an element's attributes in either order).
var hostlessPreview = regexp.MustCompile(`(?m)^[ \t]*<meta (property="og:(url|image)" content="https://(/[^"]*)?"|content="https://(/[^"]*)?" property="og:(url|image)")>\r?\n`)

// dropHostlessPreviews takes out of every page under dir the link-preview
// lines that name no host: a preview with a broken address is worse than
// none.
func dropHostlessPreviews(dir string) error {
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".html" {
			return err
		}
		return sitefile.Rewrite(path, func(b []byte) ([]byte, error) { return hostlessPreview.ReplaceAll(b, nil), nil })
	})
}
