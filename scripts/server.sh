#!/usr/bin/env bash
# The game server for development: Nakama with our runtime plugin, on a
# Postgres cluster of its own, all on 127.0.0.1.
#
#   scripts/server.sh deps    install what is missing (Postgres, gcc) with apt-get
#   scripts/server.sh build   deps, then build nakama and the plugin into server/_build/
#   scripts/server.sh bins    build nakama and the plugin only (no apt-get: what
#                             server/internal/nakamatest calls)
#   scripts/server.sh run [nakama flags...]
#                             build, then start the cluster in server/_build/pg (made
#                             once, and reused ever after), migrate, and run Nakama in
#                             the foreground; Ctrl-C stops Nakama, then Postgres
#
# server/_build/ (ignored by git) holds:
#   nakama, modules/fixedstep.so  the server and the plugin it loads (--runtime.path modules)
#   pg/data, pg/password, pg/log  the cluster, its password, its log
#   nakama.yml                    Nakama's config: the database's address (mode 600)
#   data/                         Nakama's data directory
#
# Environment: SERVER_MODULE (the module to build and run, default server/:
# a game's own server module, with nakama as a tool of its go.mod and its
# plugin in plugin/; _build/ goes inside it), GO (the go command, default
# go), NAKAMA_PORT (7350: HTTP and
# WebSocket API; gRPC is on NAKAMA_PORT-1), NAKAMA_CONSOLE_PORT (7351; its
# gRPC on NAKAMA_CONSOLE_PORT-3), NAKAMA_SERVER_KEY (defaultkey), PG_PORT
# (default: the first free port from 5433).
#
# Nakama loads a Go plugin only when both were built by the same toolchain,
# with the same flags and the same version of every package they share: both
# are built here from server/go.mod (where nakama is a tool), both with
# -trimpath as Nakama's own release builds are, and with GOFLAGS cleared so
# that the environment cannot give one a flag the other lacks; then
# `nakama check` opens the plugin as the server will.
# server/plugin/versions_test.go compares the two builds' versions.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
srv=$(cd "${SERVER_MODULE:-$root/server}" 2>/dev/null && pwd) ||
  { echo "server.sh: SERVER_MODULE=$SERVER_MODULE: no such directory" >&2; exit 1; }
[ -f "$srv/go.mod" ] && [ -d "$srv/plugin" ] ||
  { echo "server.sh: $srv is not a server's module: it needs a go.mod (with nakama as a tool) and a plugin/ package" >&2; exit 1; }
out=$srv/_build
GO=${GO:-go}

say() { echo "server.sh: $*" >&2; }
die() { say "$*"; exit 1; }

# --- deps ----------------------------------------------------------------------

# pg_bindir prints the newest /usr/lib/postgresql/N/bin that has initdb, pg_ctl
# and postgres.
pg_bindir() {
  local d best=
  for d in $(compgen -G '/usr/lib/postgresql/*/bin' | sort -V); do
    [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && [ -x "$d/postgres" ] && best=$d
  done
  [ -n "$best" ] && echo "$best"
}

deps() {
  local missing=()
  pg_bindir >/dev/null || missing+=(postgresql)
  command -v gcc >/dev/null 2>&1 || missing+=(gcc)           # a plugin needs cgo
  [ -e /usr/include/stdio.h ] || missing+=(libc6-dev)
  command -v "$GO" >/dev/null 2>&1 ||
    die "no '$GO' on PATH: install Go >= 1.26 from https://go.dev/dl/ into /usr/local/go and add /usr/local/go/bin to PATH"
  if [ ${#missing[@]} -eq 0 ]; then
    return 0
  fi
  local as_root=()
  manual() {
    die "missing packages: ${missing[*]} ($1); install them with: sudo apt-get install --no-install-recommends ${missing[*]}"
  }
  command -v apt-get >/dev/null 2>&1 || manual "apt-get not available"
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then as_root=(sudo -n); else
      manual "not root and no non-interactive sudo"
    fi
  fi
  say "installing ${missing[*]} with apt-get"
  local log
  log=$(mktemp "${TMPDIR:-/tmp}/server-deps.XXXXXX.log")
  if ! { "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 update -qq &&
         "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 \
           install -y -qq --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
    cat "$log" >&2
    manual "apt-get failed; log kept at $log"
  fi
  rm -f "$log"
  pg_bindir >/dev/null || die "apt-get installed postgresql but no /usr/lib/postgresql/*/bin/initdb is there"
  say "installed ${missing[*]}"
}

# --- build ---------------------------------------------------------------------

# bins builds nakama and the plugin under a lock (tests in several packages
# may ask at once). Go's build cache makes an unchanged build a matter of
# seconds: go build leaves a target whose build ID is up to date as it is, and
# otherwise renames a new file over it from GOTMPDIR (a running Nakama keeps
# its own), which is on the same file system for that.
bins() {
  local t0=$EPOCHREALTIME
  mkdir -p "$out/modules" "$out/gotmp"
  exec 9>"$out/.build.lock"
  flock 9
  local env=(env GOFLAGS= CGO_ENABLED=1 GOTMPDIR="$out/gotmp") flags=(-trimpath -buildvcs=false)
  (cd "$srv" && "${env[@]}" "$GO" build "${flags[@]}" -o "$out/nakama" github.com/heroiclabs/nakama/v3) ||
    die "building nakama failed"
  (cd "$srv" && "${env[@]}" "$GO" build "${flags[@]}" -buildmode=plugin -o "$out/modules/fixedstep.so" ./plugin) ||
    die "building the plugin ($srv/plugin) failed"
  # nakama check opens the plugin as the server will (a tenth of a second).
  (cd "$out" && ./nakama check --runtime.path "$out/modules" >"$out/check.log" 2>&1) ||
    { cat "$out/check.log" >&2; die "nakama cannot load the plugin $out/modules/fixedstep.so (see above)"; }
  exec 9>&-
  say "built $out/nakama and $out/modules/fixedstep.so in $(secs_since "$t0") s"
}

secs_since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'; }

# --- Postgres ------------------------------------------------------------------

pg_user=
as_pg() {
  if [ -n "$pg_user" ]; then runuser -u "$pg_user" -- "$@"; else "$@"; fi
}

# port_free says whether nothing listens on 127.0.0.1:$1.
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

pg_setup() {
  bindir=$(pg_bindir) || die "Postgres is missing: run scripts/server.sh deps, or: sudo apt-get install postgresql"
  pgdir=$out/pg
  data=$pgdir/data
  if [ "$(id -u)" -eq 0 ]; then
    # Postgres refuses to run as root.
    pg_user=postgres
    id "$pg_user" >/dev/null 2>&1 || die "no user postgres (Debian's postgresql package makes it): sudo apt-get install postgresql"
  fi
  mkdir -p "$pgdir"
  [ -z "$pg_user" ] || chown "$pg_user:" "$pgdir"
  as_pg test -x "$pgdir" ||
    die "user $pg_user cannot reach $pgdir: every directory above it must be searchable by others (chmod o+x on those that are not)"

  if [ -f "$data/PG_VERSION" ]; then
    local have want
    have=$(cat "$data/PG_VERSION")
    want=$(basename "$(dirname "$bindir")")
    [ "$have" = "$want" ] ||
      die "$data is a Postgres $have cluster but Postgres $want is installed: remove $pgdir to start afresh (its data is lost), or install postgresql-$have"
    [ -s "$pgdir/password" ] || die "$data exists but $pgdir/password does not: remove $pgdir to start afresh"
    return 0
  fi
  if [ -e "$data" ] && [ -n "$(ls -A "$data")" ]; then
    die "$data is not empty but holds no cluster: look at it, and remove it to start afresh"
  fi
  say "initdb: a new cluster in $data"
  (umask 077; head -c 18 /dev/urandom | base64 | tr -d '/+=\n' >"$pgdir/password")
  [ -z "$pg_user" ] || chown "$pg_user:" "$pgdir/password"
  as_pg "$bindir/initdb" -D "$data" -U postgres --pwfile="$pgdir/password" \
    --auth-host=scram-sha-256 --auth-local=peer -E UTF8 --locale=C.UTF-8 >"$pgdir/initdb.log" 2>&1 ||
    { cat "$pgdir/initdb.log" >&2; die "initdb failed"; }
  # TCP on loopback only, no Unix socket (no clash with a system cluster's).
  printf '%s\n' "listen_addresses = '127.0.0.1'" "unix_socket_directories = ''" >>"$data/postgresql.conf"
}

pg_started=
pg_start() {
  # A cluster left running (a killed run) is reused where it listens.
  if as_pg "$bindir/pg_ctl" -D "$data" status >/dev/null 2>&1; then
    pg_port=$(sed -n 4p "$data/postmaster.pid")
    say "Postgres is already running on 127.0.0.1:$pg_port (pid $(sed -n 1p "$data/postmaster.pid")): reusing it"
    pg_started=1
    return 0
  fi
  pg_port=${PG_PORT:-}
  if [ -z "$pg_port" ]; then
    pg_port=5433
    while ! port_free "$pg_port"; do pg_port=$((pg_port + 1)); done
  fi
  as_pg "$bindir/pg_ctl" -D "$data" -l "$pgdir/log" -w -t 60 -o "-p $pg_port" start >/dev/null ||
    { tail -n 30 "$pgdir/log" >&2; die "Postgres did not start (log: $pgdir/log)"; }
  pg_started=1
  say "Postgres on 127.0.0.1:$pg_port (data $data, log $pgdir/log)"
}

pg_stop() {
  [ -n "$pg_started" ] || return 0
  as_pg "$bindir/pg_ctl" -D "$data" -m fast -w -t 60 stop >/dev/null && say "Postgres stopped" ||
    say "Postgres did not stop: $bindir/pg_ctl -D $data status"
  pg_started=
}

# --- run -----------------------------------------------------------------------

nakama_pid=
waiter_pid=
cleanup() {
  trap - EXIT INT TERM
  [ -z "$waiter_pid" ] || kill "$waiter_pid" 2>/dev/null || true
  if [ -n "$nakama_pid" ] && kill -0 "$nakama_pid" 2>/dev/null; then
    kill -TERM "$nakama_pid" 2>/dev/null || true
    wait "$nakama_pid" 2>/dev/null || true
    say "Nakama stopped"
  fi
  pg_stop
}

# http_ok says whether GET http://127.0.0.1:$1$2 answers 200.
http_ok() {
  local status
  status=$(exec 2>/dev/null 3<>"/dev/tcp/127.0.0.1/$1" &&
    printf 'GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' "$2" >&3 &&
    head -n 1 <&3) || return 1
  [[ $status == "HTTP/1."?" 200"* ]]
}

run() {
  local t0=$EPOCHREALTIME
  local port=${NAKAMA_PORT:-7350} cport=${NAKAMA_CONSOLE_PORT:-7351} key=${NAKAMA_SERVER_KEY:-defaultkey}
  local p
  for p in $((port - 1)) "$port" $((cport - 3)) "$cport"; do
    port_free "$p" || die "port $p on 127.0.0.1 is in use (Nakama takes NAKAMA_PORT-1, NAKAMA_PORT, NAKAMA_CONSOLE_PORT-3 and NAKAMA_CONSOLE_PORT): set NAKAMA_PORT / NAKAMA_CONSOLE_PORT"
  done
  deps
  bins
  pg_setup
  trap cleanup EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  pg_start
  # The database's address, password and all, goes in a config file only
  # its owner reads, not on a command line that ps shows to every user.
  local config=$out/nakama.yml
  (umask 077 && printf 'database:\n  address:\n    - "postgres:%s@127.0.0.1:%s/nakama?sslmode=disable"\n' \
    "$(cat "$pgdir/password")" "$pg_port" >"$config")
  local nakama=("$out/nakama")
  mkdir -p "$out/data"
  # migrate creates the database nakama when it is missing, then its schema.
  "${nakama[@]}" migrate up --config "$config" --data_dir "$out/data" >"$out/migrate.log" 2>&1 ||
    { cat "$out/migrate.log" >&2; die "nakama migrate up failed"; }
  say "database nakama migrated (log: $out/migrate.log)"

  # A match's messages from its players wait in one queue that drops what
  # comes when it is full (Nakama's default: 128): 4096, so that a flooding
  # player cannot crowd out the others' inputs before the match removes it.
  # A client is dropped as too slow after 256 unread messages (default 64: a
  # second of ticks). On Ctrl-C, matches are told they end (MatchTerminate)
  # within 2 s; with Nakama's default of 0 they just stop.
  local t1=$EPOCHREALTIME
  NAKAMA_TELEMETRY=0 "${nakama[@]}" --name fixedstep --data_dir "$out/data" \
    --config "$config" \
    --runtime.path "$out/modules" \
    --socket.address 127.0.0.1 --socket.port "$port" --socket.server_key "$key" \
    --console.address 127.0.0.1 --console.port "$cport" \
    --match.input_queue_size 4096 --socket.outgoing_queue_size 256 --shutdown_grace_sec 2 \
    "$@" &
  nakama_pid=$!
  (
    while kill -0 "$nakama_pid" 2>/dev/null; do
      if http_ok "$port" /healthcheck; then
        say "healthcheck http://127.0.0.1:$port/healthcheck answered $(secs_since "$t1") s after Nakama started, $(secs_since "$t0") s after server.sh run started (server key \"$key\", console http://127.0.0.1:$cport)"
        exit 0
      fi
      sleep 0.1
    done
  ) &
  waiter_pid=$!
  local rc=0
  wait "$nakama_pid" || rc=$?
  nakama_pid=
  say "Nakama exited ($rc)"
  exit "$rc"
}

case ${1:-} in
  deps) deps ;;
  bins) bins ;;
  build) deps; bins ;;
  run) shift; run "$@" ;;
  *) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
