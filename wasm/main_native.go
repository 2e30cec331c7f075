//go:build !wasm

package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/scenarios"
	"reconcile/wasm/goappjs"
	"reconcile/wasm/sitefile"
)

func main() {
	log.SetFlags(0)
	generate := flag.String("generate", "", "write the static site into `DIR`")
	wasm := flag.String("wasm", "web/app.wasm", "the WebAssembly binary the site loads (with -generate)")
	web := flag.String("web", "web", "the static assets copied into the site (with -generate)")
	serve := flag.String("serve", "", "serve a generated site on `ADDR`, e.g. 127.0.0.1:8080")
	dir := flag.String("dir", "dist", "the generated site to serve (with -serve)")
	flag.IntVar(&snapshotFrom, "snapshots-from", snapshotFrom, "ship snapshots of the lessons whose run has at least `N` passes (with -generate)")
	flag.IntVar(&snapshotEvery, "snapshots-every", snapshotEvery, "one snapshot every `N` passes (with -generate)")
	flag.IntVar(&wasmBrotli, "brotli", wasmBrotli, "app.wasm.br's brotli `quality`, 0 to 11 (with -generate; 11 takes most of a minute, 5 a second)")
	flag.StringVar(&siteAddress, "site", os.Getenv("RECONCILE_SITE"), "the site's address, `https://HOST[/PATH]`, for link previews (og:url, og:image; with -generate; default $RECONCILE_SITE; without it they are left out)")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: wasm -generate DIR | -serve ADDR [-dir DIR]\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() > 0 || (*generate == "") == (*serve == "") {
		flag.Usage()
		os.Exit(2)
	}
	routes()
	if err := checkSiteAddress(siteAddress); err != nil {
		log.Fatalf("-site: %v", err)
	}
	if q := wasmBrotli; q < 0 || q > sitefile.BestBrotli {
		log.Fatalf("-brotli %d: brotli's quality is 0 to %d", q, sitefile.BestBrotli)
	}

	if *generate != "" {
		if err := generateSite(*generate, *web, *wasm); err != nil {
			log.Fatalf("generating the site: %v", err)
		}
		log.Printf("wrote the site into %s/", *generate)
		return
	}

	if _, err := os.Stat(*dir + "/index.html"); err != nil {
		log.Fatalf("no site to serve in %s/ (run make build first): %v", *dir, err)
	}
	srv := &http.Server{
		Addr:              *serve,
		Handler:           siteHandler(*dir),
		ReadHeaderTimeout: 10 * time.Second,
	}
	log.Printf("serving %s/ on http://%s (the default lesson: http://%s/s/%s)", *dir, *serve, *serve, scenarios.Default)
	if err := srv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Fatal(err)
	}
}

// handler is go-app's handler for the playground. wasmSize is the raw size
// of app.wasm: the site serves it compressed, so the loader needs it to show
// real progress.
func handler(wasmSize int64) *app.Handler {
	h := &app.Handler{
		Name:        "Reconcile",
		ShortName:   "Reconcile",
		Title:       "Reconcile: the loop under Kubernetes",
		Description: "Step the Kubernetes reconciliation loop pass by pass: a deterministic simulation of the control plane that runs in your browser.",
		Lang:        "en",
		Icon: app.Icon{
			Default:  "/web/icon-192.png",
			Large:    "/web/icon-512.png",
			Maskable: "/web/icon-512.png",
			SVG:      "/web/icon.svg",
		},
		BackgroundColor: "#f7f6f2",
		ThemeColor:      "#1d4e57",
		LoadingLabel:    "Loading the simulation: {progress}%",
		Styles:          []string{"/web/app.css", "/web/play.css", "/web/home.css", "/web/compare.css"},
		// A page opened in a course page's frame (?embed=1) is drawn as an
		// embed from its first paint, before app.wasm has loaded: the
		// prerendered page is the same for every query.
		RawHeaders: []string{embedHeader, snapshotHeader(snapshotLessons)},
		Version:    version,
	}
	if wasmSize > 0 {
		h.WasmContentLength = strconv.FormatInt(wasmSize, 10)
	}
	if siteAddress != "" {
		// Link previews (og:url, og:image) name the site's address; go-app
		// writes them https://Domain/path.
		h.Domain = strings.TrimPrefix(siteAddress, "https://")
		h.Image = h.Icon.Large
	}
	// Cache every asset and every prerendered page at install, so that
	// after one visit the site works with the server stopped, deep links
	// included. go-app caches its own files, the styles and the PNG icons.
	h.CacheableResources = append(h.CacheableResources, h.Icon.SVG)
	for _, p := range pages() {
		if p != "/" {
			h.CacheableResources = append(h.CacheableResources, p)
		}
	}
	h.ServiceWorkerTemplate = goappjs.OfflineWorker(app.DefaultAppWorkerJS)
	return h
}

// embedHeader marks the document as embedded when its address says so.
const embedHeader = `<script>if (/[?&]embed=1(&|$)/.test(location.search)) document.documentElement.classList.add("embed")</script>`

// snapshotHeader says which lessons the site ships snapshots for (ids:
// window.reconcileSnapshots, which the player reads before it looks for
// one: app/snapshots.go) and starts, for a deep link into one of them
// (/s/ID?pass=N), the download of the snapshot shipped nearest before its
// pass while app.wasm loads: window.reconcileSnapshot is a promise of {id,
// want, label, pass, bytes}, or of null when the download failed (the
// player then fetches it itself, and says why when that fails too). A
// lesson the site ships none for is asked nothing: no request, no 404.
func snapshotHeader(ids []string) string {
	list, err := json.Marshal(append([]string{}, ids...))
	if err != nil {
		panic(err) // strings always encode
	}
	return strings.Replace(snapshotScript, "[]", string(list), 1)
}

// snapshotScript is snapshotHeader's script, for a site with no snapshots.
const snapshotScript = `<script>(function () {
  var has = window.reconcileSnapshots = [];
  var m = /^\/s\/([a-z0-9-]+)$/.exec(location.pathname), q = /[?&]pass=(\d+)(&|$)/.exec(location.search);
  if (!m || !q || !window.DecompressionStream || has.indexOf(m[1]) < 0) return;
  var id = m[1], want = Number(q[1]), dir = "/snapshots/" + id + "/";
  window.reconcileSnapshot = fetch(dir + "index.json").then(function (r) {
    if (!r.ok) return null;
    return r.json().then(function (x) {
      var best = 0;
      (x.passes || []).forEach(function (n) { if (n <= want && n > best) best = n; });
      if (!best) return null;
      return fetch(dir + best + ".snap").then(function (r) {
        if (!r.ok) return null;
        return new Response(r.body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
      }).then(function (b) { return b && {id: id, want: want, label: x.label, pass: best, bytes: b}; });
    });
  }).catch(function () { return null; });
})()</script>`
