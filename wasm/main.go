package main

import "reconcile/scenarios"

//go:generate go run icons_gen.go

// version is the build's version, set with -ldflags "-X main.version=...".
var version = "dev"

// playerPath matches the scenario player's routes, /s/{id}.
const playerPath = `^/s/[a-z0-9-]+$`

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
