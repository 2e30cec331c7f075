//go:build js && wasm

// Command inbrowser measures the scale scenario in the browser for make
// bench, compiled to WebAssembly with the playground's flags: the same
// measurements as bench/native, reported as JSON in window.benchResult.
// Its page, index.html, reads ?runs=, ?trace= and ?seeks=, and for
// experiments with the collector ?gogc=, ?godebug= and ?memlimit= (MiB).
// Under Node.js (no page: the query is $INBROWSER_QUERY, GOGC and GODEBUG
// come from the environment), the JSON goes to standard output:
//
//	INBROWSER_QUERY='runs=1&trace=0&seeks=0' GODEBUG=gctrace=1 \
//	  node "$(go env GOROOT)/lib/wasm/wasm_exec_node.js" app.wasm
package main

import (
	"encoding/json"
	"net/url"
	"os"
	"runtime/debug"
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
	} else { // under Node.js, $INBROWSER_QUERY stands for the query
		q, _ = url.ParseQuery(os.Getenv("INBROWSER_QUERY"))
	}
	num := func(k string, def int) int {
		if n, err := strconv.Atoi(q.Get(k)); err == nil {
			return n
		}
		return def
	}
	// ?memlimit= (MiB) replaces wasm/memory's soft limit for an
	// experiment, as ?gogc= (read by index.html) replaces its GOGC.
	if mib, err := strconv.Atoi(q.Get("memlimit")); err == nil && mib > 0 {
		debug.SetMemoryLimit(int64(mib) << 20)
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
