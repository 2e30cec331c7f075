//go:build !wasm

package app

import "errors"

// fetchBytes fetches a file of the site. Natively (tests, the prerender)
// there is no site to fetch from.
func fetchBytes(path string, gunzip bool) ([]byte, error) {
	return nil, errors.New("no site to fetch " + path + " from")
}

// prefetched is what the page downloaded before app.wasm ran: natively,
// nothing.
func prefetched(id string, want int) (label string, pass int, data []byte, ok bool) {
	return "", 0, nil, false
}

// shipsSnapshots reports whether the site says it ships snapshots of
// lesson id: natively, there is no site.
func shipsSnapshots(id string) bool { return false }

// yieldToBrowser gives the browser its turn: natively, there is none.
func yieldToBrowser() {}
