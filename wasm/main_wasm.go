//go:build wasm

package main

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	ui "reconcile/app"
	"reconcile/wasm/memory"
)

func main() {
	memory.Limit()
	routes()
	ui.RepairAddress()
	app.RunWhenOnBrowser()
}
