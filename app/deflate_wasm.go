//go:build wasm

package app

import (
	"errors"
	"syscall/js"
)

// In the browser the raw DEFLATE of share links is the browser's own
// CompressionStream and DecompressionStream ("deflate-raw"): the same
// format as compress/flate (deflate.go) in a few lines instead of the
// 137 KB compress/flate adds to app.wasm. Links made by either open in
// the other.

// deflateRaw compresses data.
func deflateRaw(data []byte) ([]byte, error) {
	return throughStream("CompressionStream", data, 0)
}

// inflateRaw decompresses raw, reading at most limit bytes of its output:
// a deflate bomb stops there, the rest of the stream is cancelled.
func inflateRaw(raw []byte, limit int) ([]byte, error) {
	return throughStream("DecompressionStream", raw, limit)
}

// throughStream pipes data through a new stream of the constructor
// ctor("deflate-raw") and reads its output, at most limit bytes (0: all
// of it). It waits for the stream's promises on the calling goroutine,
// which is the UI goroutine: never a JavaScript callback's, which would
// wait for itself.
func throughStream(ctor string, data []byte, limit int) ([]byte, error) {
	g := js.Global()
	c := g.Get(ctor)
	if !c.Truthy() {
		return nil, errors.New("this browser has no " + ctor + ", which share links need")
	}
	in := g.Get("Uint8Array").New(len(data))
	js.CopyBytesToJS(in, data)
	r := g.Get("Blob").New([]any{in}).Call("stream").Call("pipeThrough", c.New("deflate-raw")).Call("getReader")
	var out []byte
	for {
		res, err := awaitPromise(r.Call("read"))
		if err != nil {
			return nil, err
		}
		if res.Get("done").Bool() {
			return out, nil
		}
		chunk := res.Get("value")
		n := chunk.Get("length").Int()
		if limit > 0 {
			n = min(n, limit-len(out))
		}
		at := len(out)
		out = append(out, make([]byte, n)...)
		js.CopyBytesToGo(out[at:], chunk)
		if limit > 0 && len(out) >= limit {
			r.Call("cancel")
			return out, nil
		}
	}
}

// awaitPromise waits for p to settle and returns its value, or its
// reason as an error.
func awaitPromise(p js.Value) (js.Value, error) {
	type settled struct {
		v   js.Value
		err error
	}
	ch := make(chan settled, 1)
	ok := js.FuncOf(func(_ js.Value, args []js.Value) any {
		ch <- settled{v: args[0]}
		return nil
	})
	defer ok.Release()
	fail := js.FuncOf(func(_ js.Value, args []js.Value) any {
		reason := js.Undefined()
		if len(args) > 0 {
			reason = args[0]
		}
		ch <- settled{err: errors.New(js.Global().Get("String").Invoke(reason).String())}
		return nil
	})
	defer fail.Release()
	p.Call("then", ok, fail)
	s := <-ch
	return s.v, s.err
}
