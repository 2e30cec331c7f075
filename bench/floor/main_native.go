//go:build !wasm

package main

import (
	"compress/gzip"
	"flag"
	"io"
	"log"
	"os"
	"path/filepath"
	"strconv"

	"github.com/andybalholm/brotli"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

func main() {
	log.SetFlags(0)
	dir := flag.String("generate", "", "write the static site into `DIR`")
	wasm := flag.String("wasm", "", "the floor's WebAssembly binary")
	flag.Parse()
	if *dir == "" || *wasm == "" {
		log.Fatal("usage: floor -generate DIR -wasm FILE")
	}
	routes()
	st, err := os.Stat(*wasm)
	if err != nil {
		log.Fatal(err)
	}
	h := &app.Handler{
		Name:              "Floor",
		Title:             "Floor",
		LoadingLabel:      "Loading: {progress}%",
		WasmContentLength: strconv.FormatInt(st.Size(), 10),
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		log.Fatal(err)
	}
	if err := app.GenerateStaticWebsite(*dir, h, "/"); err != nil {
		log.Fatal(err)
	}
	out := filepath.Join(*dir, "web", "app.wasm")
	if err := copyFile(*wasm, out, nil); err != nil {
		log.Fatal(err)
	}
	// The playground's levels and brotli window (wasm/site.go).
	if err := copyFile(out, out+".gz", func(w io.Writer) (io.WriteCloser, error) {
		return gzip.NewWriterLevel(w, gzip.BestCompression)
	}); err != nil {
		log.Fatal(err)
	}
	if err := copyFile(out, out+".br", func(w io.Writer) (io.WriteCloser, error) {
		return brotli.NewWriterOptions(w, brotli.WriterOptions{Quality: 11, LGWin: 24}), nil
	}); err != nil {
		log.Fatal(err)
	}
}

// copyFile copies src to dst through the writer compress makes (nil: as is).
func copyFile(src, dst string, compress func(io.Writer) (io.WriteCloser, error)) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	f, err := os.Create(dst)
	if err != nil {
		return err
	}
	var w io.Writer = f
	var zw io.WriteCloser
	if compress != nil {
		if zw, err = compress(f); err != nil {
			f.Close()
			return err
		}
		w = zw
	}
	if _, err := io.Copy(w, in); err != nil {
		f.Close()
		return err
	}
	if zw != nil {
		if err := zw.Close(); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}
