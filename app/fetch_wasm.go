//go:build wasm

package app

import (
	"errors"
	"strconv"
	"syscall/js"
)

// fetchBytes fetches a file of the site with the browser's fetch, through
// the browser's DecompressionStream("gzip") when gunzip is set. It waits
// on the calling goroutine: call it from ctx.Async, never from the UI
// goroutine or a JavaScript callback.
func fetchBytes(path string, gunzip bool) ([]byte, error) {
	g := js.Global()
	res, err := awaitPromise(g.Call("fetch", path))
	if err != nil {
		return nil, err
	}
	if !res.Get("ok").Bool() {
		return nil, errors.New(path + ": HTTP " + strconv.Itoa(res.Get("status").Int()))
	}
	if gunzip {
		d := g.Get("DecompressionStream")
		if !d.Truthy() {
			return nil, errors.New("this browser has no DecompressionStream")
		}
		res = g.Get("Response").New(res.Get("body").Call("pipeThrough", d.New("gzip")))
	}
	buf, err := awaitPromise(res.Call("arrayBuffer"))
	if err != nil {
		return nil, err
	}
	a := g.Get("Uint8Array").New(buf)
	out := make([]byte, a.Get("length").Int())
	js.CopyBytesToGo(out, a)
	return out, nil
}

// prefetched takes what the page's own script (wasm: snapshotHeader)
// downloaded for a deep link to pass want of lesson id before app.wasm
// ran: its label, pass and bytes, once.
func prefetched(id string, want int) (label string, pass int, data []byte, ok bool) {
	w := js.Global()
	p := w.Get("reconcileSnapshot")
	if !p.Truthy() {
		return "", 0, nil, false
	}
	w.Delete("reconcileSnapshot")
	v, err := awaitPromise(p)
	if err != nil || !v.Truthy() || v.Get("id").String() != id || v.Get("want").Int() != want {
		return "", 0, nil, false
	}
	a := w.Get("Uint8Array").New(v.Get("bytes"))
	data = make([]byte, a.Get("length").Int())
	js.CopyBytesToGo(data, a)
	return v.Get("label").String(), v.Get("pass").Int(), data, true
}

// shipsSnapshots reports whether the site says it ships snapshots of
// lesson id: the page's script (wasm: snapshotHeader) lists the lessons
// in window.reconcileSnapshots. A page that lists none is asked nothing.
func shipsSnapshots(id string) bool {
	list := js.Global().Get("reconcileSnapshots")
	if !list.Truthy() || list.Type() != js.TypeObject {
		return false
	}
	return list.Call("indexOf", id).Int() >= 0
}

// yieldToBrowser waits until the browser has run what it had waiting
// (painting, input), as a task of its own (a MessageChannel message, not
// a timer, which nests into 4 ms waits). Call it from a goroutine other
// than the UI's: the UI goroutine runs meanwhile.
func yieldToBrowser() {
	done := make(chan struct{}, 1)
	ch := js.Global().Get("MessageChannel").New()
	var fn js.Func
	fn = js.FuncOf(func(this js.Value, args []js.Value) any {
		fn.Release()
		ch.Get("port1").Call("close")
		done <- struct{}{}
		return nil
	})
	ch.Get("port1").Set("onmessage", fn)
	ch.Get("port2").Call("postMessage", nil)
	<-done
}
