//go:build !wasm

package main

import (
	"compress/gzip"
	"flag"
	"io"
	"log"
	"os"
	"path/filepath"
	"strconv"

	"github.com/andybalholm/brotli"
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/wasm/goappjs"
)

func main() {
	log.SetFlags(0)
	dir := flag.String("generate", "", "write the static site into `DIR`")
	wasm := flag.String("wasm", "", "the floor's WebAssembly binary")
	web := flag.String("web", "web", "the playground's static files, whose icons the floor's site uses")
	flag.Parse()
	if *dir == "" || *wasm == "" {
		log.Fatal("usage: floor -generate DIR -wasm FILE")
	}
	routes()
	st, err := os.Stat(*wasm)
	if err != nil {
		log.Fatal(err)
	}
	h := &app.Handler{
		Name:              "Floor",
		Title:             "Floor",
		LoadingLabel:      "Loading: {progress}%",
		WasmContentLength: strconv.FormatInt(st.Size(), 10),
		// Local icons, as the playground's: go-app's default icons are
		// remote, and where they cannot be fetched (a machine with no
		// network) the service worker's install, which caches them,
		// fails at once, and the floor never pays for its worker.
		Icon: app.Icon{Default: "/web/icon-192.png", Large: "/web/icon-512.png", SVG: "/web/icon.svg"},
		// The playground's service worker: installed once the site is
		// cached.
		ServiceWorkerTemplate: goappjs.OfflineWorker(app.DefaultAppWorkerJS),
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		log.Fatal(err)
	}
	if err := app.GenerateStaticWebsite(*dir, h, "/"); err != nil {
		log.Fatal(err)
	}
	// The playground's app.js: the worker registered once app.wasm runs.
	appJS := filepath.Join(*dir, "app.js")
	js, err := os.ReadFile(appJS)
	if err == nil {
		js, err = goappjs.LaterWorker(js)
	}
	if err == nil {
		err = os.WriteFile(appJS, js, 0o644)
	}
	if err != nil {
		log.Fatal(err)
	}
	for _, icon := range []string{"icon-192.png", "icon-512.png", "icon.svg"} {
		if err := copyFile(filepath.Join(*web, icon), filepath.Join(*dir, "web", icon), nil); err != nil {
			log.Fatal(err)
		}
	}
	out := filepath.Join(*dir, "web", "app.wasm")
	if err := copyFile(*wasm, out, nil); err != nil {
		log.Fatal(err)
	}
	// The playground's levels and brotli window (wasm/site.go).
	if err := copyFile(out, out+".gz", func(w io.Writer) (io.WriteCloser, error) {
		return gzip.NewWriterLevel(w, gzip.BestCompression)
	}); err != nil {
		log.Fatal(err)
	}
	if err := copyFile(out, out+".br", func(w io.Writer) (io.WriteCloser, error) {
		return brotli.NewWriterOptions(w, brotli.WriterOptions{Quality: 11, LGWin: 24}), nil
	}); err != nil {
		log.Fatal(err)
	}
}

// copyFile copies src to dst through the writer compress makes (nil: as is).
func copyFile(src, dst string, compress func(io.Writer) (io.WriteCloser, error)) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	f, err := os.Create(dst)
	if err != nil {
		return err
	}
	var w io.Writer = f
	var zw io.WriteCloser
	if compress != nil {
		if zw, err = compress(f); err != nil {
			f.Close()
			return err
		}
		w = zw
	}
	if _, err := io.Copy(w, in); err != nil {
		f.Close()
		return err
	}
	if zw != nil {
		if err := zw.Close(); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}
