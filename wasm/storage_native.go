//go:build !wasm

package main

import (
	"github.com/hack-pad/hackpadfs"
	"github.com/hack-pad/hackpadfs/mem"

	ui "reconcile/app"
)

// Natively (prerendering, tests) the learner's work lives in memory: the
// server keeps nothing of anyone's work.
func init() {
	ui.OpenStorage = func() (hackpadfs.FS, error) { return mem.NewFS() }
}
