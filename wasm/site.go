//go:build !wasm

package main

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/andybalholm/brotli"
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/wasm/goappjs"
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
	if err := rewriteFile(filepath.Join(dir, "app.js"), goappjs.LaterWorker); err != nil {
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
		if err := copyFile(wasm, out); err != nil {
			return err
		}
	}
	// Both at once: brotli at its best quality takes most of the time.
	gz := make(chan error, 1)
	go func() {
		gz <- compressFile(out, out+".gz", func(w io.Writer) (io.WriteCloser, error) {
			return gzip.NewWriterLevel(w, gzip.BestCompression)
		})
	}()
	br := compressFile(out, out+".br", func(w io.Writer) (io.WriteCloser, error) {
		return brotli.NewWriterOptions(w, wasmBrotli), nil
	})
	return errors.Join(<-gz, br)
}

// wasmBrotli is how app.wasm is compressed for the browsers that take
// brotli (every current one, over HTTPS): its best quality with the
// largest window the format has (16 MB, which every browser's decoder
// accepts). On bb31ff9: 3,020,633 B at quality 9 with the default window,
// 2,712,069 at 10, 2,624,147 at 11 (−13%), for about 45 s of one core at
// build time. The floor app of make bench is compressed the same way.
var wasmBrotli = brotli.WriterOptions{Quality: 11, LGWin: 24}

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
		return copyFile(p, target)
	})
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	return writeAtomically(dst, func(w io.Writer) error {
		_, err := io.Copy(w, in)
		return err
	})
}

func compressFile(src, dst string, newWriter func(io.Writer) (io.WriteCloser, error)) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	return writeAtomically(dst, func(w io.Writer) error {
		zw, err := newWriter(w)
		if err != nil {
			return err
		}
		if _, err := io.Copy(zw, in); err != nil {
			return err
		}
		return zw.Close()
	})
}

// writeAtomically writes dst through a temporary file renamed into place.
func writeAtomically(dst string, write func(io.Writer) error) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", dst, err)
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(f.Name(), dst)
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
		return rewriteFile(path, func(b []byte) ([]byte, error) { return hostlessPreview.ReplaceAll(b, nil), nil })
	})
}

// rewriteFile replaces the file name with what change makes of it, when
// that differs.
func rewriteFile(name string, change func([]byte) ([]byte, error)) error {
	b, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	out, err := change(b)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if bytes.Equal(out, b) {
		return nil
	}
	return writeAtomically(name, func(w io.Writer) error {
		_, err := w.Write(out)
		return err
	})
}
