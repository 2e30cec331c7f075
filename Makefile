# Reconcile: build, serve and test the playground.
#
#   make run     build, then serve the site on http://$(ADDR) (default lesson at /)
#   make test    go vet, every native test, then the site in headless Chromium
#   make build   web/app.wasm, then the static site in dist/
#   make bench   engine benchmarks and the size of app.wasm

SHELL := /bin/bash
GO ?= go
ADDR ?= 127.0.0.1:8080
VERSION ?= $(shell git describe --always --dirty 2>/dev/null || \
	cat go.mod $$(find app engine scenarios wasm web -type f ! -name 'app.wasm*' 2>/dev/null | sort) | sha256sum | cut -c1-12)

.PHONY: run test build bench clean

run: build
	$(GO) run ./wasm -serve $(ADDR) -dir dist

build:
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags "-s -w -X main.version=$(VERSION)" -o web/app.wasm ./wasm
	rm -rf dist
	$(GO) run -ldflags "-X main.version=$(VERSION)" ./wasm -generate dist -web web -wasm web/app.wasm

test:
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./app ./wasm
	$(GO) vet -tags browser ./wasm
	$(GO) test ./...
	$(MAKE) --no-print-directory build
	$(GO) test -tags browser -count=1 -v -run Browser ./wasm

bench: build
	$(GO) test -run '^$$' -bench . ./engine/...
	@echo "app.wasm: $$(stat -c %s dist/web/app.wasm) bytes raw," \
		"$$(stat -c %s dist/web/app.wasm.gz) gzip," \
		"$$(stat -c %s dist/web/app.wasm.br) brotli"

clean:
	rm -rf dist web/app.wasm web/app.wasm.* test-artifacts
