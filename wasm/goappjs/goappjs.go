// Package goappjs adapts the scripts go-app writes for a site (app.js and
// the service worker's template) to how the playground loads: the same
// changes serve make bench's floor, so that it is served the same way.
// Each function fails (or panics) when go-app's script no longer has the
// lines it changes: a go-app upgrade is caught by the tests, not shipped.
package goappjs

import (
	"bytes"
	"fmt"
	"strings"
)

// workerStart is how go-app's app.js begins its work: the service worker
// registered first, app.wasm loaded last.
const workerStart = "goappInitServiceWorker();\ngoappWatchForUpdate();\ngoappWatchForInstallable();\ngoappInitWebAssembly();\n"

// workerLater registers the service worker once app.wasm runs (or could not
// load) and the page is next idle, within 5 s.
const workerLater = `goappWatchForUpdate();
goappWatchForInstallable();
goappInitWebAssembly().finally(function () {
  if (window.requestIdleCallback) requestIdleCallback(function () { goappInitServiceWorker(); }, {timeout: 5000});
  else setTimeout(goappInitServiceWorker, 0);
});
`

// LaterWorker adapts go-app's app.js: the service worker is registered
// after app.wasm has loaded and Go has drawn the page, not as app.js
// starts. Its install caches the site for the next visit and for offline
// use (every page, the styles, app.wasm a second time, into the Cache
// Storage): begun first, it competed with the first load of app.wasm for
// the network, the renderer and the machine's cores (the cold time to
// "instantiated" 761 → 496 ms, median of 7, with it registered once the
// loader was gone). It fails when the script no longer has the lines it
// changes (a go-app upgrade).
func LaterWorker(js []byte) ([]byte, error) {
	if !bytes.Contains(js, []byte(workerStart)) {
		return nil, fmt.Errorf("go-app's app.js has changed: cannot find %q", workerStart)
	}
	return bytes.Replace(js, []byte(workerStart), []byte(workerLater), 1), nil
}

// cacheLookup is the line of go-app's service worker that finds a request
// in the cache.
const cacheLookup = "const cachedResponse = await caches.match(request);"

// workerInstall is go-app's install handler: it caches the site without
// telling the browser to wait for it (event.waitUntil), so the worker is
// activated, and navigator.serviceWorker.ready resolves, while the cache
// is still being filled.
const workerInstall = `self.addEventListener("install", async (event) => {
  try {
    console.log("installing app worker {{.Version}}");
    await installWorker();
    await self.skipWaiting();
  } catch (error) {
    console.error("error during installation:", error);
  }
});`

// workerInstallWaited is the same handler with the install held open
// until the site is cached (or caching failed, which it logs as before).
const workerInstallWaited = `self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    try {
      console.log("installing app worker {{.Version}}");
      await installWorker();
      await self.skipWaiting();
    } catch (error) {
      console.error("error during installation:", error);
    }
  })());
});`

// OfflineWorker adapts go-app's service worker template: a page is found in
// the cache whatever its query (?pass=N, ?embed=1), since every page is
// prerendered once and reads its query in the browser; and the worker is
// installed, so ready and in control of the pages, once the site is in its
// cache, not as it starts caching it (the site's app.js registers the worker
// after app.wasm has loaded: a visit that follows at once would otherwise
// race the worker's own downloads). It panics if the template no longer has
// the lines it changes (a go-app upgrade; the tests catch it).
func OfflineWorker(template string) string {
	for _, s := range []string{cacheLookup, workerInstall} {
		if !strings.Contains(template, s) {
			panic("go-app's service worker template has changed: cannot find " + s)
		}
	}
	template = strings.Replace(template, workerInstall, workerInstallWaited, 1)
	return strings.Replace(template, cacheLookup,
		`const cachedResponse = await caches.match(request, {ignoreSearch: request.mode === "navigate"});`, 1)
}
