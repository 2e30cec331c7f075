//go:build js && wasm

// Command inbrowser measures the scale scenario in the browser for make
// bench, compiled to WebAssembly with the playground's flags: the same
// measurements as bench/native, reported as JSON in window.benchResult.
// Its page, index.html, reads ?runs=, ?trace= and ?seeks=.
package main

import (
	"encoding/json"
	"net/url"
	"strconv"
	"strings"
	"syscall/js"

	"reconcile/bench/scale"
	"reconcile/wasm/memory"
)

func main() {
	memory.Limit() // as the playground does
	var q url.Values
	if loc := js.Global().Get("location"); loc.Truthy() { // not under Node.js
		q, _ = url.ParseQuery(strings.TrimPrefix(loc.Get("search").String(), "?"))
	}
	num := func(k string, def int) int {
		if n, err := strconv.Atoi(q.Get(k)); err == nil {
			return n
		}
		return def
	}
	r, err := scale.Measure(num("runs", 1), num("trace", 10000), num("seeks", 20))
	if err != nil {
		r.Error = err.Error()
	}
	data, _ := json.Marshal(r)
	js.Global().Set("benchResult", string(data))
	if !js.Global().Get("document").Truthy() {
		println(string(data)) // Node.js
	}
}
