//go:build wasm

package main

import (
	"time"

	"github.com/hack-pad/hackpadfs"

	ui "reconcile/app"
)

// storageDB is the IndexedDB database that holds the learner's work.
const storageDB = "reconcile"

// In the browser the learner's work lives in IndexedDB (idbFS): it
// survives a reload, a browser restart and offline use.
func init() {
	ui.OpenStorage = func() (hackpadfs.FS, error) { return openIDBFS(storageDB, 10*time.Second) }
}
