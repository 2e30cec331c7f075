//go:build !wasm

package app

import (
	"bytes"
	"compress/flate"
	"io"
)

// The raw DEFLATE of share links (RFC 1951, no zlib or gzip framing).
// Natively (tests, the server) it is Go's compress/flate; in the browser
// (deflate_wasm.go) the browser's CompressionStream, so that app.wasm
// does not carry a second DEFLATE: the two write the same format and each
// reads what the other writes.

// deflateRaw compresses data.
func deflateRaw(data []byte) ([]byte, error) {
	var b bytes.Buffer
	w, err := flate.NewWriter(&b, flate.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(data); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// inflateRaw decompresses raw, reading at most limit bytes of its output
// (so a deflate bomb stops there; the caller tells a payload of limit
// bytes from a smaller one).
func inflateRaw(raw []byte, limit int) ([]byte, error) {
	r := flate.NewReader(bytes.NewReader(raw))
	defer r.Close()
	return io.ReadAll(io.LimitReader(r, int64(limit)))
}
