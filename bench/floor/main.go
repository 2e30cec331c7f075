// Command floor is the floor make bench compares the playground with: a
// one-button go-app app, built with the playground's flags, its site
// generated and served the same way (app.wasm precompressed with gzip and
// brotli, the loader told its raw size, local icons, the service worker
// registered and installed as the playground's: reconcile/wasm/goappjs and
// reconcile/wasm/sitefile). Its button, Next pass, counts the
// passes in a role=status element, as the player does, so the same probe
// times both.
//
// Built with the tag engine, it is the floor with the engine: the same
// page, whose first Next pass opens the default lesson and runs its first
// pass (step_engine.go). Beside the floor, it measures what the engine
// alone adds to app.wasm and to the first visit, before any view of the
// playground: the least this design (the engine compiled into the page's
// binary) can weigh.
//
//	GOOS=js GOARCH=wasm go build -trimpath -ldflags "-s -w" [-tags engine] -o app.wasm ./bench/floor
//	go run ./bench/floor -generate DIR -wasm app.wasm
package main

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

type floor struct {
	app.Compo
	n int
	engineState
}

func (f *floor) Render() app.UI {
	return app.Main().Body(
		app.H1().Text("Floor"),
		app.Button().Type("button").Text("Next pass").OnClick(f.next),
		app.P().Attr("role", "status").Text("Pass "+strconv.Itoa(f.n)),
	)
}

func (f *floor) next(ctx app.Context, e app.Event) { f.n = f.step() }

func routes() {
	app.Route("/", func() app.Composer { return &floor{} })
}
