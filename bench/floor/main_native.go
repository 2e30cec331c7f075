//go:build !wasm

package main

import (
	"flag"
	"log"
	"os"
	"path/filepath"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/wasm/goappjs"
	"reconcile/wasm/sitefile"
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
	// The playground's app.js (the worker registered once app.wasm runs),
	// icons and compressed binaries.
	if err := sitefile.Rewrite(filepath.Join(*dir, "app.js"), goappjs.LaterWorker); err != nil {
		log.Fatal(err)
	}
	for _, icon := range []string{"icon-192.png", "icon-512.png", "icon.svg"} {
		if err := sitefile.Copy(filepath.Join(*web, icon), filepath.Join(*dir, "web", icon)); err != nil {
			log.Fatal(err)
		}
	}
	out := filepath.Join(*dir, "web", "app.wasm")
	if err := sitefile.Copy(*wasm, out); err != nil {
		log.Fatal(err)
	}
	if err := sitefile.Precompress(out, sitefile.BestBrotli); err != nil {
		log.Fatal(err)
	}
}
