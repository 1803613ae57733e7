# Targets for github.com/fixedstep/fixedstep. Nothing here depends on $CI or
# on GOFLAGS from the environment.

GO      ?= go
XVFB    := xvfb-run -a -s "-screen 0 1280x1024x24"
ARGS    ?=
SHELL   := /bin/bash

.PHONY: deps test soak demo demo-headless bench fuzz web serve bench-web server server-build

deps:
	@bash scripts/install-deps.sh

# test checks formatting and vet, runs every test under -race in a virtual
# display (the physics ones again with cp's debug asserts), then every fuzz
# target for TESTFUZZTIME, so that a red fuzz target cannot sit unnoticed.
# Then the game server's module (server/, a module of its own): Postgres
# installed when missing, nakama and the plugin built (scripts/server.sh
# build: about 5 minutes with a cold Go build cache, seconds when warm), vet,
# and its tests under -race, which start real servers (server/internal/nakamatest).
TESTFUZZTIME ?= 5s

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
		echo '$(XVFB) $(GO) test -race -count=1 -tags debug ./systems/... ./components/... ./third_party/...'; \
		$(XVFB) $(GO) test -race -count=1 -tags debug ./systems/... ./components/... ./third_party/...; \
	else \
		echo "skipping -tags debug run: no systems/*.go yet"; \
	fi
	GO=$(GO) bash scripts/fuzz.sh $(TESTFUZZTIME) 2s
	GO=$(GO) bash scripts/server.sh build
	cd server && $(GO) vet ./... && GO=$(GO) $(GO) test -race -count=1 ./...

# server-build installs Postgres through apt-get when it is missing and builds
# nakama and our runtime plugin into server/_build/ (nakama, modules/fixedstep.so)
# from server/go.mod. server does the same, then runs the game server in the
# foreground on 127.0.0.1: a Postgres cluster in server/_build/pg (made once,
# reused after), the database migrated, and Nakama with the plugin on ports
# 7349 (gRPC), 7350 (HTTP and WebSocket API), 7348 and 7351 (console), server key
# "defaultkey"; Ctrl-C stops both. NAKAMA_PORT, NAKAMA_CONSOLE_PORT,
# NAKAMA_SERVER_KEY and PG_PORT move them (scripts/server.sh says more), and
# NAKAMA_ARGS adds nakama flags.
NAKAMA_ARGS ?=

server-build:
	GO=$(GO) bash scripts/server.sh build

server:
	GO=$(GO) bash scripts/server.sh run $(NAKAMA_ARGS)

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

# bench measures what BENCHMARKS.md reports, into bench.txt, in three
# stages, noting the load average (/proc/loadavg) as each starts and ends:
# every benchmark of the module with -benchmem -count $(BENCHCOUNT) (the
# bodymark among them), then cmd/stutter headless and in a window under Xvfb
# ($(BENCHCOUNT) runs of each GC setting in $(STUTTER_GC)). Then benchstat
# writes its summary to benchstat.txt and cmd/benchtable rewrites
# BENCHMARKS.md, keeping the sections it does not make (make bench-web's
# section between its "web:" markers among them). 77 to 95 minutes on 2
# cores (the go test stage 67, the bodymark 10 of them; cmd/stutter 10);
# the machine should be otherwise idle.
BENCHCOUNT  ?= 6
STUTTER_GC  ?= 100,400,off:1GiB
LOADAVG     := echo "loadavg: $$(cat /proc/loadavg 2>/dev/null)"

bench: deps
	set -o pipefail; { \
		echo "stage: go-test"; $(LOADAVG); \
		$(XVFB) $(GO) test -run '^$$' -bench . -benchmem -count $(BENCHCOUNT) -timeout 90m ./... && $(LOADAVG) && \
		echo "stage: stutter-headless" && $(LOADAVG) && \
		$(GO) run ./cmd/stutter -bodies 2000 -seconds 30 -count $(BENCHCOUNT) -gc $(STUTTER_GC) && $(LOADAVG) && \
		echo "stage: stutter-window" && $(LOADAVG) && \
		$(XVFB) $(GO) run ./cmd/stutter -window -bodies 2000 -seconds 15 -count $(BENCHCOUNT) -gc $(STUTTER_GC) && $(LOADAVG); \
	} | tee bench.txt
	$(GO) run golang.org/x/perf/cmd/benchstat -ignore stage,loadavg bench.txt > benchstat.txt
	$(GO) run ./cmd/benchtable -md BENCHMARKS.md bench.txt

# fuzz runs every fuzz target for FUZZTIME each, one after another, and prints
# the executions each reached (scripts/fuzz.sh lists the targets). The seed
# corpora under */testdata/fuzz/ run in every go test.
FUZZTIME ?= 30s
FUZZMINIMIZETIME ?= 5s

fuzz:
	GO=$(GO) bash scripts/fuzz.sh $(FUZZTIME) $(FUZZMINIMIZETIME)

# web builds every game under cmd/ (each main package that imports
# engine/window) to WebAssembly into WEB_DIR (ignored by git), each with its page;
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
