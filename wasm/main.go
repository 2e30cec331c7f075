package main

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	ui "reconcile/app"
	"reconcile/scenarios"
)

//go:generate go run icons_gen.go

// version is the build's version, set with -ldflags "-X main.version=...".
var version = "dev"

// playerPath matches the scenario player's routes, /s/{id}.
const playerPath = `^/s/[a-z0-9-]+$`

// routes registers every view with go-app's router.
func routes() {
	ui.Version = version
	app.Route("/", func() app.Composer { return &ui.Home{} })
	app.RouteWithRegexp(playerPath, func() app.Composer { return &ui.Player{} })
	app.Route("/compare", func() app.Composer { return &ui.Compare{} })
	app.Route("/failures", func() app.Composer { return &ui.Failures{} })
	app.Route("/play", func() app.Composer { return &ui.Playground{} })
}

// pages lists every path the static site prerenders: the home page, the
// compare, failures and playground views, and one player page per bundled
// scenario.
func pages() []string {
	out := []string{"/", "/compare", "/failures", "/play"}
	for _, id := range scenarios.IDs() {
		out = append(out, "/s/"+id)
	}
	return out
}
