// Command wasm is the playground's one program, built twice.
//
// Built for the browser (GOOS=js GOARCH=wasm) it is web/app.wasm: it
// registers the routes and runs the UI. Built natively it is the tool that
// turns the same routes into a static site and serves that site:
//
//	go run ./wasm -generate dist          # prerender every page into dist/
//	go run ./wasm -serve 127.0.0.1:8080   # serve dist/, app.wasm compressed
//
// This is the only package that knows every piece: the engine, the UI, the
// bundled scenarios and go-app's handler.
package main
