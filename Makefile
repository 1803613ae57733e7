# Targets for github.com/fixedstep/fixedstep. Nothing here depends on $CI or
# on GOFLAGS from the environment.

GO      ?= go
XVFB    := xvfb-run -a -s "-screen 0 1280x1024x24"
ARGS    ?=
SHELL   := /bin/bash

.PHONY: deps test soak demo demo-headless bench fuzz web serve bench-web

deps:
	@bash scripts/install-deps.sh

test: deps
	@unformatted="$$(gofmt -l .)" || exit 1; \
	if [ -n "$$unformatted" ]; then \
		echo "gofmt -l: these files need formatting (run gofmt -w):"; \
		echo "$$unformatted"; \
		exit 1; \
	fi
	$(GO) vet ./...
	$(XVFB) $(GO) test -race -count=1 ./...
	@if find . -path ./.git -prune -o -type f -path "*/systems/*.go" -print | grep -q .; then \
		echo '$(XVFB) $(GO) test -race -count=1 -tags debug ./systems/... ./components/...'; \
		$(XVFB) $(GO) test -race -count=1 -tags debug ./systems/... ./components/...; \
	else \
		echo "skipping -tags debug run: no systems/*.go yet"; \
	fi

# soak plays one hour of Arena game time headless with constant spawning and
# despawning, and checks that the heap, the entity and body counts and the
# goroutine count stay flat (about 6 s on 2 cores; about 1 min under -race,
# which make test runs: it is not -short).
soak:
	$(GO) test -run '^TestSoakArena$$' -count=1 -v -timeout 60m ./scenes

demo:
	$(GO) run ./cmd/demo $(ARGS)

demo-headless:
	$(GO) run ./cmd/demo -headless -seconds 10

# bench runs every benchmark into bench.txt (benchstat input), then prints
# the engine-vs-baseline table and rewrites BENCHMARKS.md with it.
# The section of BENCHMARKS.md between the "web:" markers (make bench-web's
# figures) is kept across the rewrite.
bench: deps
	set -o pipefail; $(XVFB) $(GO) test -run '^$$' -bench . -benchmem -count 6 -timeout 60m ./... | tee bench.txt
	@sed -n '/^<!-- web: begin -->$$/,/^<!-- web: end -->$$/p' BENCHMARKS.md > bench-web-section.md
	$(GO) run ./cmd/benchtable -md BENCHMARKS.md bench.txt
	@if [ -s bench-web-section.md ]; then printf '\n' >> BENCHMARKS.md; cat bench-web-section.md >> BENCHMARKS.md; fi
	@rm -f bench-web-section.md

# fuzz runs every fuzz target for FUZZTIME each, one after another, and prints
# the executions each reached (scripts/fuzz.sh lists the targets). The seed
# corpora under */testdata/fuzz/ run in every go test.
FUZZTIME ?= 30s
FUZZMINIMIZETIME ?= 5s

fuzz:
	GO=$(GO) bash scripts/fuzz.sh $(FUZZTIME) $(FUZZMINIMIZETIME)

# web builds every game under cmd/ (each main package that imports the
# engine) to WebAssembly into WEB_DIR (ignored by git), each with its page;
# WEB_GAMES=./cmd/demo builds only the packages named. serve serves them on
# WEB_ADDR: open http://127.0.0.1:8080/demo/ (the query string is the game's
# flags: /demo/?scene=arena&autopilot&seconds=10&seed=3).
WEB_DIR   ?= web
WEB_ADDR  ?= 127.0.0.1:8080
WEB_GAMES ?=

web:
	$(GO) run ./cmd/web build -out $(WEB_DIR) $(WEB_GAMES)

serve: web
	$(GO) run ./cmd/web serve -dir $(WEB_DIR) -addr $(WEB_ADDR)

# bench-web plays the Arena for 10 game seconds in headless Chromium and in a
# native window under Xvfb, in turns, and prints frames per second and the
# .wasm's size (BenchmarkArenaFrameRate); BENCHMARKS.md's web section holds
# its figures.
bench-web: deps
	$(XVFB) $(GO) test -run '^$$' -bench ArenaFrameRate -count 3 -timeout 30m ./cmd/web
