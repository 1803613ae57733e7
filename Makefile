# Targets for github.com/fixedstep/fixedstep. Nothing here depends on $CI or
# on GOFLAGS from the environment.

GO      ?= go
XVFB    := xvfb-run -a -s "-screen 0 1280x1024x24"
ARGS    ?=
SHELL   := /bin/bash

.PHONY: deps test soak demo demo-headless bench bench-full fuzz web serve bench-web server server-build online bench-server

deps:
	@bash scripts/install-deps.sh

# test checks formatting and vet, runs the tests under -race in a virtual
# display (all but NORACEPKGS'), the simulation's again without it and with
# cp's debug asserts, then every fuzz
# target for TESTFUZZTIME, so that a red fuzz target cannot sit unnoticed.
# The game server's module (server/, a module of its own: Postgres
# installed when missing, nakama and the plugin built by scripts/server.sh
# build, 3 to 5 minutes with a cold Go build cache, seconds when warm; vet;
# its tests under -race, which start real servers, server/internal/nakamatest,
# four at a time) runs beside the debug pass and the fuzz targets, its
# output printed after them: its tests mostly wait on matches played in
# real time, and the two passes beside them keep the CPUs busy meanwhile.
# Every go test here runs with -timeout 0: go test's default of 10 minutes a
# package is a wall-clock guess that a busy machine reaches (-race, two
# CPUs shared); the tests that wait bound their waits by the progress they
# see (frames, ticks, output), not by the clock.
#
# The race pass runs four packages at once (-p 4, two a CPU here): the
# slowest packages mostly wait (games in real time over netplay, a browser
# drawing its frames), and two of them would otherwise hold both slots
# while the CPUs idle. The second pass, with cp's debug asserts and
# without -race, runs the packages of the simulation again; the long
# simulations on one goroutine (an hour of the Arena, the 1,035-box
# pyramid, ten saves and loads, an hour of the loop: internal/racetest)
# run there only, where they take a tenth of the time and the detector
# had nothing to find.
TESTFUZZTIME ?= 5s
DEBUGPKGS    := ./systems/... ./components/... ./third_party/... ./scenes/... ./engine
# NORACEPKGS run in the second pass alone: cp and the physics system start
# no goroutine and share nothing between worlds (cp's pools are slices of
# its space), so the race detector has nothing to find in their own tests,
# which it made take 200 s of the race pass; the packages that run worlds
# on several goroutines (scenes, the server's matches) run cp under it.
NORACEPKGS   := github.com/fixedstep/fixedstep/third_party/cp github.com/fixedstep/fixedstep/systems/physics
# RACEFIRST are the race pass's longest packages, started first (go test
# starts packages in the order it is given them): the soak's and the
# browser's real time and qemu's emulation then run beside the many short
# packages, rather than alone at the end of the pass.
RACEFIRST    := ./internal/netsoak ./internal/crosscpu ./cmd/demo ./cmd/web ./systems/stage ./scenes ./cmd/breakout

test: deps
	@unformatted="$$(gofmt -l .)" || exit 1; \
	if [ -n "$$unformatted" ]; then \
		echo "gofmt -l: these files need formatting (run gofmt -w):"; \
		echo "$$unformatted"; \
		exit 1; \
	fi
	@long="$$(git ls-files -z '*.go' ':!:third_party/**' | xargs -0 wc -l | awk '$$2 != "total" && $$1 > 800')"; \
	if [ -n "$$long" ]; then \
		echo "make test: these files are over 800 lines (split them by job):"; \
		echo "$$long"; \
		exit 1; \
	fi
	$(GO) vet ./...
	$(GO) run ./cmd/detcheck ./engine/detmath ./third_party/cp ./third_party/donburi/features/... \
		./components/... ./systems/physics ./systems/sideview ./systems/level ./systems/anim ./systems/camera \
		./scenes/... ./cmd/breakout ./cmd/bounce/... ./cmd/platformer ./cmd/demo ./systems ./systems/path ./engine ./engine/input \
		./systems/aim ./systems/shoot ./systems/health ./systems/menu ./cmd/shooter
	FIXEDSTEP_CROSSCPU=all $(XVFB) $(GO) test -race -p 4 -count=1 -timeout 0 \
		$$($(GO) list $(RACEFIRST) ./... | awk '!seen[$$0]++' | grep -v -x -F $(NORACEPKGS:%=-e %))
	@serverlog=$$(mktemp); \
	echo "server (beside the next two stages, its output after them): scripts/server.sh build, vet, go test -race -parallel 4"; \
	{ GO=$(GO) bash scripts/server.sh build && cd server && $(GO) vet ./... && \
		GO=$(GO) $(XVFB) $(GO) test -race -count=1 -timeout 0 -parallel 4 ./...; } >"$$serverlog" 2>&1 & server=$$!; \
	$(XVFB) $(GO) test -count=1 -timeout 0 -tags debug $(DEBUGPKGS); debug=$$?; \
	GO=$(GO) bash scripts/fuzz.sh $(TESTFUZZTIME) 2s; fuzz=$$?; \
	wait $$server; srv=$$?; \
	echo "server:"; cat "$$serverlog"; rm -f "$$serverlog"; \
	[ $$debug -eq 0 ] || echo "make test: the pass with cp's debug asserts failed"; \
	[ $$fuzz -eq 0 ] || echo "make test: a fuzz target failed"; \
	[ $$srv -eq 0 ] || echo "make test: the server's build or tests failed"; \
	[ $$debug -eq 0 ] && [ $$fuzz -eq 0 ] && [ $$srv -eq 0 ]

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

# bench-server measures the game server (server/e2e's BenchmarkServer: a real
# Nakama's CPU per match at 4, 16, 64 and 100 matches of two clients, bytes per
# client, MatchLoop's interval p99; the bare simulation as the baseline),
# BENCHCOUNT_SERVER times, into bench-server.txt (about 95 s a count).
BENCHCOUNT_SERVER ?= 3

bench-server:
	GO=$(GO) bash scripts/server.sh build
	set -o pipefail; cd server && $(GO) test -run '^$$' -bench BenchmarkServer -benchtime 1x -count $(BENCHCOUNT_SERVER) -timeout 0 ./e2e | tee ../bench-server.txt

# online plays an online match of the demo's Arena in a window against the
# server make server runs (cmd/demo -server: ARGS="-players 2", "-autopilot",
# ONLINE_SERVER=http://HOST:7350 to play on another machine's).
ONLINE_SERVER ?= http://127.0.0.1:7350

online:
	$(GO) run ./cmd/demo -server $(ONLINE_SERVER) $(ARGS)

# soak plays one hour of Arena game time headless with constant spawning and
# despawning, and checks that the heap, the entity and body counts and the
# goroutine count stay flat (about 6 s on 2 cores; make test runs it too,
# in its pass without -race: internal/racetest).
soak:
	$(GO) test -run '^TestSoakArena$$' -count=1 -v -timeout 0 ./scenes

demo:
	$(GO) run ./cmd/demo $(ARGS)

demo-headless:
	$(GO) run ./cmd/demo -headless -seconds 10

# bench measures BENCHMARKS.md's headline figures into bench.txt, in three
# stages, noting the load average (/proc/loadavg) as each starts and ends:
# the benchmarks of the module's own packages (not third_party's), one
# package at a time, with -short -benchmem -count $(BENCHCOUNT) -benchtime
# $(BENCHTIME) (-short leaves out the 5,000-body scenes, the at-rest
# bodymark, the frames timed apart from their lockstep twins, the browser,
# and the benchmarks whose figures have sections of their own; -skip the
# rollback bodymark, whose section says how to run it); then
# cmd/stutter headless and in a window under Xvfb ($(BENCHCOUNT) runs of
# each GC setting). Then benchstat writes its summary to benchstat.txt and
# cmd/benchtable rewrites BENCHMARKS.md's generated sections, keeping the
# others (make bench-web's section between its "web:" markers among them).
# On this 2-core VM: 21 min 14 s with the rollback bodymark, which took
# 2.4 min of it and is now left out (load average 1.1 to 2.1); 14 min 39 s
# before the netplay state transfer and the rollback bodymark came in. The
# median and 95% interval of each figure need 6 runs: fewer than 6 give no
# 95%.
#
# bench-full measures everything as make bench did before: every benchmark
# of the module (third_party's too) with -count $(BENCHCOUNT) and Go's
# default benchtime and package parallelism, cmd/stutter longer and with
# every GC setting in the window too; 77 to 95 minutes. Either wants the
# machine otherwise idle.
BENCHCOUNT  ?= 6
BENCHTIME   ?= 0.3s
STUTTER_GC  ?= 100,400,off:1GiB
LOADAVG     := echo "loadavg: $$(cat /proc/loadavg 2>/dev/null)"

bench: BENCH_FLAGS      = -short -p 1 -benchtime $(BENCHTIME) -timeout 0 -skip '^BenchmarkRollbackBodymark$$'
bench: BENCH_PKGS       = $$($(GO) list ./... | grep -v /third_party/)
bench: STUTTER_SECONDS  = 10
bench: STUTTER_WINDOW   = -seconds 5 -gc 100
bench-full: BENCH_FLAGS     = -timeout 0
bench-full: BENCH_PKGS      = ./...
bench-full: STUTTER_SECONDS = 30
bench-full: STUTTER_WINDOW  = -seconds 15 -gc $(STUTTER_GC)

bench bench-full: deps
	set -o pipefail; { \
		echo "make: $@"; \
		echo "stage: go-test"; $(LOADAVG); \
		$(XVFB) $(GO) test -run '^$$' -bench . -benchmem -count $(BENCHCOUNT) $(BENCH_FLAGS) $(BENCH_PKGS) && $(LOADAVG) && \
		echo "stage: stutter-headless" && $(LOADAVG) && \
		$(GO) run ./cmd/stutter -bodies 2000 -seconds $(STUTTER_SECONDS) -count $(BENCHCOUNT) -gc $(STUTTER_GC) && $(LOADAVG) && \
		echo "stage: stutter-window" && $(LOADAVG) && \
		$(XVFB) $(GO) run ./cmd/stutter -window -bodies 2000 $(STUTTER_WINDOW) -count $(BENCHCOUNT) && $(LOADAVG); \
	} | tee bench.txt
	$(GO) run golang.org/x/perf/cmd/benchstat -ignore make,stage,loadavg bench.txt > benchstat.txt
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

# bench-web plays the Arena for 10 game seconds in headless Chromium (held to
# its 60 Hz animation frames, as a player's browser is) and in a native
# window under Xvfb, in turns, and prints frames per second and the .wasm's
# size (BenchmarkArenaFrameRate); BENCHMARKS.md's web section holds its
# figures. About 2 minutes.
bench-web: deps
	$(XVFB) $(GO) test -run '^$$' -bench ArenaFrameRate -count 3 -timeout 0 ./cmd/web
