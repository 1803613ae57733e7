# Targets for github.com/fixedstep/fixedstep. Nothing here depends on $CI or
# on GOFLAGS from the environment.

GO      ?= go
XVFB    := xvfb-run -a -s "-screen 0 1280x1024x24"
ARGS    ?=
SHELL   := /bin/bash

.PHONY: deps test soak demo demo-headless bench fuzz

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
bench: deps
	set -o pipefail; $(XVFB) $(GO) test -run '^$$' -bench . -benchmem -count 6 -timeout 60m ./... | tee bench.txt
	$(GO) run ./cmd/benchtable -md BENCHMARKS.md bench.txt

# fuzz runs every fuzz target for FUZZTIME each, one after another, and prints
# the executions each reached (scripts/fuzz.sh lists the targets). The seed
# corpora under */testdata/fuzz/ run in every go test.
FUZZTIME ?= 30s
FUZZMINIMIZETIME ?= 5s

fuzz:
	GO=$(GO) bash scripts/fuzz.sh $(FUZZTIME) $(FUZZMINIMIZETIME)
