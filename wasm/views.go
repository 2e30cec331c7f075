package main

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	ui "reconcile/app"
)

// The views' routes stand in a file of their own, one line a view: make
// bench builds app.wasm again with some of the lines left out (a build
// overlay of this file) to weigh what each view adds.

// routes registers every view with go-app's router.
func routes() {
	ui.Version = version
	app.Route("/", func() app.Composer { return &ui.Home{} })
	app.RouteWithRegexp(playerPath, func() app.Composer { return &ui.Player{} })
	app.Route("/compare", func() app.Composer { return &ui.Compare{} })
	app.Route("/failures", func() app.Composer { return &ui.Failures{} })
	app.Route("/play", func() app.Composer { return &ui.Playground{} })
}
