//go:build wasm

package main

import (
	"context"
	"time"

	"github.com/hack-pad/hackpadfs"
	"github.com/hack-pad/hackpadfs/indexeddb"

	ui "reconcile/app"
)

// storageDB is the IndexedDB database that holds the learner's work.
const storageDB = "reconcile"

// In the browser the learner's work lives in IndexedDB, through hackpadfs:
// it survives a reload, a browser restart and offline use.
func init() {
	ui.OpenStorage = func() (hackpadfs.FS, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		return indexeddb.NewFS(ctx, storageDB, indexeddb.Options{})
	}
}
