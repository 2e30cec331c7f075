//go:build browser && !wasm

package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	ui "reconcile/app"
	"reconcile/engine/sim"
	"reconcile/scenarios"
)

// TestBrowserSnapshotDeepLink: a deep link into a lesson with snapshots
// shipped beside the site fetches the one nearest before its pass and
// computes only the passes after it, and shows the world the engine has
// at that pass, digest for digest. A damaged snapshot changes nothing but
// a notice: the tab computes every pass instead and shows the same world.
//
// The bundled lessons are too short to get snapshots when the site is
// built, so the test writes some for edge-vs-level (every 50 passes) with
// the version the site was built with, and serves them beside it. The CPU
// is slowed down 20 times once the page has loaded, as on a slow phone, so
// that the pass is not computed in the player's first slice, before it
// looks for a snapshot.
func TestBrowserSnapshotDeepLink(t *testing.T) {
	worker, err := os.ReadFile(filepath.Join(siteDir, "app-worker.js"))
	mustHave(t, "the generated site (run make build)", err)
	m := regexp.MustCompile(`const cacheName = "app-" \+ "([^"]*)"`).FindSubmatch(worker)
	if m == nil {
		t.Fatal("app-worker.js does not name the site's version")
	}
	oldVersion, oldFrom, oldEvery := ui.Version, snapshotFrom, snapshotEvery
	ui.Version, snapshotFrom, snapshotEvery = string(m[1]), 100, 50
	t.Cleanup(func() { ui.Version, snapshotFrom, snapshotEvery = oldVersion, oldFrom, oldEvery })

	const id, pass = "edge-vs-level", 160
	good := t.TempDir()
	if err := writeLessonSnapshots(good, id); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(good, "snapshots", id, "150.snap")); err != nil {
		t.Fatalf("no snapshot of pass 150 was written: %v", err)
	}
	// The same files, but pass 150's bytes changed in the middle.
	bad := t.TempDir()
	if err := copyTree(good, bad, func(string) bool { return true }); err != nil {
		t.Fatal(err)
	}
	damage(t, filepath.Join(bad, "snapshots", id, "150.snap"))

	sc, err := scenarios.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	run, err := sim.New(sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	if err := run.Seek(pass); err != nil {
		t.Fatal(err)
	}
	want := run.Digest()

	// A lesson the site ships no snapshots for: a deep link asks for none
	// (it asked for index.json, and logged a 404, on eb8f7c2).
	t.Run("none shipped", func(t *testing.T) {
		ctx := browser(t)
		base := site(t)
		// Opened at the deep link, and a deep link followed within the page.
		for _, within := range []bool{false, true} {
			u := "/s/" + id + "?pass=" + strconv.Itoa(pass)
			if within {
				u = "/s/" + id
			}
			open(t, ctx, base+u)
			if within {
				waitStatus(t, ctx, 0)
				eval[bool](t, ctx, "following a deep link", `history.pushState({}, "", "?pass=`+strconv.Itoa(pass)+`"); dispatchEvent(new PopStateEvent("popstate")); true`)
			}
			waitStatus(t, ctx, pass)
			asked := eval[[]string](t, ctx, "listing what the page fetched",
				`performance.getEntriesByType("resource").map(e => new URL(e.name).pathname).filter(p => p.startsWith("/snapshots/"))`)
			if len(asked) > 0 {
				t.Errorf("%s: the page asked for %q, which the site does not ship", u, asked)
			}
		}
	})

	// Opened at the deep link itself, the page's own script downloads
	// the snapshot while app.wasm loads, and the player takes it from
	// there: the file is fetched once, and the world is the engine's.
	t.Run("prefetched", func(t *testing.T) {
		base := siteWithSnapshots(t, good)
		ctx := browser(t)
		do(t, ctx, "slowing the CPU down", cpuRate(10))
		do(t, ctx, "opening the deep link", chromedp.Navigate(base+"/s/"+id+"?pass="+strconv.Itoa(pass)))
		waitStatusWithin(t, ctx, pass, 90*time.Second)
		fetches := eval[int](t, ctx, "counting the snapshot's downloads",
			`performance.getEntriesByType("resource").filter(e => new URL(e.name).pathname == "/snapshots/`+id+`/150.snap").length`)
		if fetches != 1 {
			t.Errorf("the snapshot of pass 150 was downloaded %d times, want once", fetches)
		}
		if left := eval[bool](t, ctx, "looking for the download", `window.reconcileSnapshot !== undefined`); left {
			t.Errorf("the player did not take the page's download (the first slice may have reached the pass)")
		}
		if got := browserDigest(t, ctx, pass); got != want {
			t.Errorf("pass %d shows the world %s, the engine's is %s", pass, got, want)
		}
		// The frame that showed the pass held the cluster pane back
		// (aria-busy, which waitStatus waits out): it is drawn since.
		if nodes := eval[int](t, ctx, "counting the cluster's nodes", `document.querySelectorAll("section.cluster ul.nodes > li").length`); nodes == 0 {
			t.Errorf("after the catch-up the cluster shows no node: %q", text(t, ctx, "section.cluster"))
		}
	})

	for _, c := range []struct {
		name, snapshots string
		notice          string
	}{
		{"kept", good, ""},
		{"damaged", bad, "could not be used (snapshot: damaged"},
	} {
		t.Run(c.name, func(t *testing.T) {
			base := siteWithSnapshots(t, c.snapshots)
			ctx := browser(t)
			open(t, ctx, base+"/s/"+id)
			waitStatus(t, ctx, 0)
			do(t, ctx, "slowing the CPU down", cpuRate(20))
			// Within the site, as a link the page follows would.
			eval[bool](t, ctx, "following a deep link", `history.pushState({}, "", "?pass=`+strconv.Itoa(pass)+`"); dispatchEvent(new PopStateEvent("popstate")); true`)
			waitStatusWithin(t, ctx, pass, 60*time.Second)
			do(t, ctx, "ending the slow-down", cpuRate(1))
			fetched := eval[bool](t, ctx, "listing what the page fetched",
				`performance.getEntriesByType("resource").some(e => new URL(e.name).pathname == "/snapshots/`+id+`/150.snap")`)
			if !fetched {
				t.Errorf("the page did not fetch the snapshot of pass 150")
			}
			if got := browserDigest(t, ctx, pass); got != want {
				t.Errorf("pass %d shows the world %s, the engine's is %s", pass, got, want)
			}
			body := eval[string](t, ctx, "reading the page", `document.body.innerText`)
			if c.notice == "" && strings.Contains(body, "could not be used") {
				t.Errorf("the kept snapshot is reported unusable: %q", body)
			}
			if c.notice != "" && !strings.Contains(body, c.notice) {
				t.Errorf("the page does not say %q:\n%s", c.notice, body)
			}
			if alert := eval[string](t, ctx, "reading the alert", `(document.querySelector('[role="alert"]') || {}).textContent || ""`); alert != "" {
				t.Errorf("alert: %q", alert)
			}
		})
	}
}

// siteWithSnapshots serves the generated site with the snapshots under
// dir/snapshots/ beside it, on a random local port, its pages saying that
// the site ships them (as the pages of a site built with them do:
// snapshotHeader).
func siteWithSnapshots(t *testing.T, dir string) string {
	t.Helper()
	files, snaps := siteHandler(siteDir), siteHandler(dir)
	entries, err := os.ReadDir(filepath.Join(dir, "snapshots"))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range entries {
		ids = append(ids, e.Name())
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/snapshots/") {
			snaps.ServeHTTP(w, r)
			return
		}
		if !strings.HasPrefix(r.URL.Path, "/s/") {
			files.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		files.ServeHTTP(rec, r)
		body := strings.Replace(rec.Body.String(), snapshotHeader(nil), snapshotHeader(ids), 1)
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(rec.Code)
		io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// cpuRate slows the page's CPU down rate times (1: full speed).
func cpuRate(rate float64) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: rate})
		return err
	})
}

// damage flips a byte in the middle of a gzip-compressed file's contents.
func damage(t *testing.T, name string) {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var raw bytes.Buffer
	if _, err := raw.ReadFrom(z); err != nil {
		t.Fatal(err)
	}
	f.Close()
	b := raw.Bytes()
	b[len(b)/2] ^= 0x01
	var out bytes.Buffer
	w := gzip.NewWriter(&out)
	w.Write(b)
	w.Close()
	if err := os.WriteFile(name, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
