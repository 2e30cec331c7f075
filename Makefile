# Reconcile: build, serve and test the playground.
#
#   make run     build, then serve the site on http://$(ADDR) (default lesson at /)
#   make test    go vet, every native test, then the site in headless Chromium
#                (installs what it lacks first: axe-core from the lockfile,
#                Chromium from the distribution's packages; see .ci/test-deps)
#   make build   web/app.wasm, then the static site in dist/ (SITE=https://HOST
#                names the site's address in link previews; without it, none;
#                BROTLI=5 compresses app.wasm.br in a second, not most of a minute)
#   make bench   every performance figure beside its budget, into docs/bench.md
#   make profile-wasm  the browser's CPU profile of the engine and of a deep
#                link's catch-up, into bench-results/profile/

SHELL := /bin/bash
GO ?= go
ADDR ?= 127.0.0.1:8080
# app.wasm.br's brotli quality: the best, for what is served (wasm/sitefile).
BROTLI ?= 11
VERSION ?= $(shell git describe --always --dirty 2>/dev/null || \
	cat go.mod $$(find app engine scenarios wasm web -type f ! -name 'app.wasm*' 2>/dev/null | sort) | sha256sum | cut -c1-12)

.PHONY: run test test-deps build bench clean profile-wasm

run: build
	$(GO) run ./wasm -serve $(ADDR) -dir dist

# WASM_GCFLAGS turn off inlining in the packages that only read lessons,
# manifests and inputs (at load and at an apply, never in a pass): their
# code in app.wasm is smaller and compresses better without the inlined
# copies (4,160 → 4,130 KB gzip -9, 3,377 → 3,353 KB brotli, measured on
# 83e51eb), and the time they take is not on the path of a click. The
# packages a pass runs (the engine's controllers, store, validation,
# kubectl, the session and the views) keep the compiler's inlining.
# Likewise the lesson's expectations (assertion), the three-way merge of
# apply (merge: kubectl apply, and the GitOps controller of a few
# lessons) and the IndexedDB storage of the playground (hack-pad): 4,207
# → 4,189 KB gzip -9 on c1151f1, with the same allocations in the player's
# Next pass and in the scale-10000 converge.
# The views (app), the session that feeds them and kubectl build their
# sentences, tables and DOM from calls that cannot be inlined anyway
# (go-app's element builders are interface methods, kubectl's commands
# run on a typed line): without inlining they cut app.wasm from 4,308,726
# to 4,210,197 B gzip -9 on 5a8be7f (app -35 KB, kubectl -44 KB, session
# -18 KB), while the engine a pass runs (controllers, store, api, sim)
# keeps it. With the challenge page, the kinds' describers and the
# fidelity work app.wasm went past its cap again (site app.wasm.gz
# 4,311,564 B on cf88b67); without inlining in kinds (its describers and
# strategies), validation, the challenge judge and go-app itself (its
# element builders and diff call through interfaces and into the
# browser, whose calls cost far more than a Go call) gzip -9 goes
# 4,270,554 → 4,197,982 B (kinds -4 KB, validation -31 KB, go-app -33 KB).
# The standard library's packages that a pass never runs: regexp (go-app's
# routes, kubectl, YAML's scalars), text/tabwriter (kubectl's tables),
# net/url (the address bar), mime, log, internal/fmtsort (fmt's maps),
# go-app's uuid and the storage in main: 4,280,021 → 4,252,872 B gzip -9
# on ffb73ef, the player's Next pass on edge-vs-level unchanged (native
# BenchmarkPlayerNextPassLesson built with the same flags, best of 8:
# 0.953 → 0.947 ms).
# The API types (api) too: their small methods were inlined all over the
# controllers, with an inline tree each in the function table: 4,252,861
# → 4,219,510 B gzip -9 on 23cefac (controller -36 KB of code, api -16
# KB, sim -7 KB), with no slower pass measured: the engine's
# BenchmarkPass in wasm (Node.js, user CPU of 10,000 passes, best of 8)
# 2.966 → 2.912 s, native BenchmarkScaleConverge (median of 13) 1.827 →
# 1.813 s, BenchmarkPlayerNextPassLesson (best of 18) 0.678 → 0.673 ms.
WASM_GCFLAGS := $(foreach p,gopkg.in/yaml.v3 reconcile/engine/scenario reconcile/engine/manifest \
	reconcile/engine/check reconcile/engine/fault reconcile/engine/yamlpos \
	reconcile/engine/assertion reconcile/engine/merge github.com/hack-pad/... \
	reconcile/app reconcile/app/session reconcile/engine/kubectl \
	reconcile/engine/kinds reconcile/engine/validation reconcile/engine/challenge \
	github.com/maxence-charriere/go-app/v10/pkg/app \
	regexp regexp/syntax text/tabwriter net/url mime log internal/fmtsort \
	github.com/google/uuid reconcile/wasm reconcile/engine/api,-gcflags=$(p)=-l)

# The browser's go-app links no net/http. go-app's server (its Handler, in
# http.go, and LocalDir) is compiled into the browser's build too, where
# it never runs, and net/http brings crypto/tls, whose package variables
# (crypto/hpke's KEMs: every curve, ML-KEM, AES-GCM) the linker must keep
# with their code (app.wasm 4,219,508 → 3,813,676 B gzip -9 without it,
# 18.1 → 16.5 MB, on e7f8f79). The wasm builds use a copy of go-app's app
# and errors packages (and its LICENSE) in .build/go-app with
# wasm/go-app-js.patch applied (the server's files built for !js only, a
# bare Handler for the browser; and its engine draws a dispatch that comes
# after a frame's time of idleness at once, not a frame (1/120 s) later:
# Next pass → DOM on the largest lesson, desktop, medians of 3 alternating
# runs 16.6 → 14.3 ms on 433818c; and it passes the names of tags,
# attributes and events to JavaScript as strings made once, reads the
# document once, and appends with append, which returns nothing to wrap:
# each value syscall/js wraps gets a finalizer, which Go's runtime adds to
# a sorted list per span, and mounting the cluster of scale-10000 at pass
# 30000, 1,537 elements, took 163 → 134 ms, medians of 4 alternating runs
# on 6e65789), through a copy of go.mod that replaces
# go-app with it (-modfile). Native builds, vet and tests use go-app as it
# is published; a new go-app version that the patch no longer fits stops
# the build at the patch.
GOAPP := github.com/maxence-charriere/go-app/v10
WASM_FLAGS = -modfile=.build/wasm.mod $(WASM_GCFLAGS)

.build/wasm.mod: go.mod go.sum wasm/go-app-js.patch
	rm -rf .build/go-app && mkdir -p .build/go-app/pkg
	d=$$($(GO) list -m -f '{{.Dir}}' $(GOAPP)) && cp $$d/go.mod $$d/LICENSE .build/go-app/ && \
		cp -r $$d/pkg/app $$d/pkg/errors .build/go-app/pkg/
	chmod -R u+w .build/go-app
	if command -v patch >/dev/null; then patch -s -d .build/go-app -p1 < wasm/go-app-js.patch; \
	else git apply --unsafe-paths --directory=.build/go-app wasm/go-app-js.patch; fi
	cp go.mod .build/wasm.mod && cp go.sum .build/wasm.sum
	$(GO) mod edit -modfile=.build/wasm.mod -replace $(GOAPP)=$(CURDIR)/.build/go-app

build: .build/wasm.mod
	GOOS=js GOARCH=wasm $(GO) build -trimpath $(WASM_FLAGS) -ldflags "-s -w -X main.version=$(VERSION)" -o web/app.wasm ./wasm
	rm -rf dist
	$(GO) run -ldflags "-X main.version=$(VERSION)" ./wasm -generate dist -web web -wasm web/app.wasm -brotli $(BROTLI) $(if $(SITE),-site $(SITE))

test: test-deps
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./app/... ./wasm
	$(GO) vet -tags browser ./wasm
	GOOS=js GOARCH=wasm $(GO) vet -tags engine ./bench/floor
	$(GO) test ./...
	@$(GO) test -count=1 -run '^TestDocsPages$$' -v ./scenarios | grep -E 'documented outputs|^(---|FAIL|ok)'
	$(MAKE) --no-print-directory build
	$(GO) test -tags browser -count=1 -timeout 40m -v -run Browser ./wasm

# test-deps installs what the browser tests need and a fresh machine lacks.
test-deps:
	@./.ci/test-deps

# make bench measures, in one run on this machine, every performance figure
# beside its budget, and writes the table to docs/bench.md. What it builds
# and measures on the way goes to $(BENCH)/. It is not part of make test.
BENCH := bench-results
# The build target's flags, for the floor app and the engine-only binary.
BENCH_WASM_FLAGS = -trimpath $(WASM_FLAGS) -ldflags "-s -w -X main.version=$(VERSION)"
SCALE := scale-10000.yaml

bench: build
	rm -rf $(BENCH) && mkdir -p $(BENCH)
	cp -r dist $(BENCH)/site
	@echo "--- the floor: a one-button go-app app, built and served the same way"
	GOOS=js GOARCH=wasm $(GO) build $(BENCH_WASM_FLAGS) -o $(BENCH)/floor.wasm ./bench/floor
	$(GO) run ./bench/floor -generate $(BENCH)/floor -wasm $(BENCH)/floor.wasm
	@echo "--- the floor with the engine: the same page, whose first Next pass runs the default lesson's first pass"
	GOOS=js GOARCH=wasm $(GO) build $(BENCH_WASM_FLAGS) -tags engine -o $(BENCH)/floor-engine.wasm ./bench/floor
	$(GO) run ./bench/floor -generate $(BENCH)/floor-engine -wasm $(BENCH)/floor-engine.wasm
	@echo "--- the playground with the scale scenario as one more lesson (a build overlay: bench only)"
	printf '{"Replace":{"%s/scenarios/$(SCALE)":"%s/bench/scale/$(SCALE)"}}\n' "$(CURDIR)" "$(CURDIR)" > $(BENCH)/overlay.json
	GOOS=js GOARCH=wasm $(GO) build -overlay $(BENCH)/overlay.json $(BENCH_WASM_FLAGS) -o $(BENCH)/scale.wasm ./wasm
	$(GO) build -overlay $(BENCH)/overlay.json -ldflags "-X main.version=$(VERSION)" -o $(BENCH)/scale-site ./wasm
	$(BENCH)/scale-site -generate $(BENCH)/scale -web web -wasm $(BENCH)/scale.wasm
	@echo "--- app.wasm with some of its views left out: wasm/views.go less some routes (a build overlay: bench only)"
	mkdir -p $(BENCH)/views
	for build in 'player|"/"|"/compare"|"/failures"|"/play"' 'home|"/compare"|"/failures"|"/play"' 'lessons|"/play"'; do \
		name=$${build%%|*}; \
		grep -vE "app\.Route\(($${build#*|})," wasm/views.go > $(BENCH)/views/$$name.go.txt && \
		printf '{"Replace":{"%s/wasm/views.go":"%s/$(BENCH)/views/%s.go.txt"}}\n' "$(CURDIR)" "$(CURDIR)" $$name > $(BENCH)/views/$$name.json && \
		GOOS=js GOARCH=wasm $(GO) build -overlay $(BENCH)/views/$$name.json $(BENCH_WASM_FLAGS) -o $(BENCH)/views/$$name.wasm ./wasm || exit 1; \
	done
	@echo "--- the engine alone in the browser"
	mkdir -p $(BENCH)/inbrowser/web
	GOOS=js GOARCH=wasm $(GO) build $(BENCH_WASM_FLAGS) -o $(BENCH)/inbrowser/web/app.wasm ./bench/inbrowser
	cp bench/inbrowser/index.html "$$($(GO) env GOROOT)/lib/wasm/wasm_exec.js" $(BENCH)/inbrowser/
	@echo "--- what app.wasm is made of (builds that keep their symbol names)"
	GOOS=js GOARCH=wasm $(GO) build -trimpath $(WASM_FLAGS) -o $(BENCH)/app-syms.wasm ./wasm
	GOOS=js GOARCH=wasm $(GO) build -trimpath $(WASM_FLAGS) -o $(BENCH)/floor-syms.wasm ./bench/floor
	GOOS=js GOARCH=wasm $(GO) build -trimpath $(WASM_FLAGS) -tags engine -o $(BENCH)/floor-engine-syms.wasm ./bench/floor
	$(GO) run ./bench/wasmsize -base $(BENCH)/floor-syms.wasm $(BENCH)/app-syms.wasm > $(BENCH)/wasmsize.txt
	$(GO) run ./bench/wasmsize -top 40 -base $(BENCH)/floor-engine-syms.wasm $(BENCH)/app-syms.wasm > $(BENCH)/wasmsize-engine.txt
	@echo "--- natively"
	$(GO) run ./bench/native -o $(BENCH)/native.json
	$(GO) run ./bench/native -runs 1 -trace 0 -seeks 0 -service-runs 0 -o $(BENCH)/native-one.json
	status=0; $(GO) test -run '^$$' -bench . -benchmem ./engine/... > $(BENCH)/gobench.txt || status=$$?; \
		cat $(BENCH)/gobench.txt; exit $$status
	@echo "--- the same engine benchmarks compiled to wasm, in Node.js: what Go's wasm code costs before the browser"
	status=0; GOOS=js GOARCH=wasm $(GO) test -exec "$$($(GO) env GOROOT)/lib/wasm/go_js_wasm_exec" -run '^$$' \
		-bench 'Pass$$|WatchFanOut|Set10k|Get10k|Agenda|DigestOf|DigestAfterPass' ./engine ./engine/pmap ./engine/sim ./engine/registry \
		> $(BENCH)/gobench-wasm.txt || status=$$?; cat $(BENCH)/gobench-wasm.txt; exit $$status
	@echo "--- in headless Chromium"
	status=0; $(GO) test -tags 'browser bench' -count=1 -timeout 25m -v -run '^TestBench$$' ./wasm || status=$$?; \
		echo; cat docs/bench.md; exit $$status

clean:
	rm -rf dist web/app.wasm web/app.wasm.* test-artifacts $(BENCH) .build

# make profile-wasm profiles, in headless Chromium, the engine converging
# the scale scenario (bench/inbrowser), the player catching up to its
# deep link, its clicks, and a first visit's start (navigation to Pass 1
# shown, cold), from builds that keep their names (no -s -w), and writes
# self time by function and by package to $(BENCH)/profile/ (see
# wasm/profile_bench_test.go; WASMPROF_OUT names another directory).
profile-wasm: .build/wasm.mod
	mkdir -p $(BENCH)/prof-inbrowser/web
	GOOS=js GOARCH=wasm $(GO) build -trimpath $(WASM_FLAGS) -o $(BENCH)/prof-inbrowser/web/app.wasm ./bench/inbrowser
	cp bench/inbrowser/index.html "$$($(GO) env GOROOT)/lib/wasm/wasm_exec.js" $(BENCH)/prof-inbrowser/
	printf '{"Replace":{"%s/scenarios/$(SCALE)":"%s/bench/scale/$(SCALE)"}}\n' "$(CURDIR)" "$(CURDIR)" > $(BENCH)/overlay.json
	GOOS=js GOARCH=wasm $(GO) build -overlay $(BENCH)/overlay.json -trimpath $(WASM_FLAGS) -ldflags "-X main.version=$(VERSION)" -o $(BENCH)/prof-scale.wasm ./wasm
	$(GO) build -overlay $(BENCH)/overlay.json -ldflags "-X main.version=$(VERSION)" -o $(BENCH)/scale-site ./wasm
	rm -rf $(BENCH)/prof-scale
	$(BENCH)/scale-site -generate $(BENCH)/prof-scale -web web -wasm $(BENCH)/prof-scale.wasm
	GOOS=js GOARCH=wasm $(GO) build -trimpath $(WASM_FLAGS) -o $(BENCH)/prof-site.wasm ./wasm
	rm -rf $(BENCH)/prof-site
	$(GO) run -ldflags "-X main.version=$(VERSION)" ./wasm -generate $(BENCH)/prof-site -web web -wasm $(BENCH)/prof-site.wasm
	$(GO) test -tags 'browser bench' -count=1 -timeout 15m -v -run '^TestProfile(Engine|CatchUp|Clicks|Start)$$' ./wasm
