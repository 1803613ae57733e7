#!/usr/bin/env bash
# Run each fuzz target for a fixed time, one after another (go test -fuzz
# takes one target per run), then print the executions each reached.
#
#   scripts/fuzz.sh [FUZZTIME [MINIMIZETIME]]      (make fuzz FUZZTIME=...)
#
# FUZZTIME is go's -fuzztime (30s by default). MINIMIZETIME bounds the time
# spent shrinking each new interesting input (go's default, 60s, would take
# most of a short run). DISPLAY is unset so that the assets test binary does
# not open a window in every fuzz worker: Decode needs no display. A target
# that fails leaves its input in <pkg>/testdata/fuzz/<target>/ and makes the
# script exit 1 once all targets have run. -timeout 0: -fuzztime bounds a
# run, not go test's 10-minute default, which a loaded machine's seed
# corpus and minimizing could reach.
set -uo pipefail

fuzztime=${1:-30s}
minimizetime=${2:-5s}
go=${GO:-go}

targets=(
  ./engine FuzzLoopDeltas
  ./engine FuzzParseInputLog
  ./engine FuzzParseSave
  ./engine FuzzConfig
  ./engine/state FuzzReadValue
  ./engine/state FuzzReadWorld
  ./engine/internal/statefile FuzzParse
  ./systems/stage/core FuzzStageState
  ./third_party/cp FuzzSpaceRead
  ./engine/netplay FuzzTake
  ./engine/netplay FuzzReport
  ./engine/netplay FuzzJoinAnswers
  ./engine/netplay FuzzState
  ./engine/online/wire FuzzDecodeInput
  ./engine/online/wire FuzzDecodeTick
  ./engine/online/wire FuzzKept
  ./engine/online/client FuzzDecodeMatchData
  ./assets FuzzDecodeAtlas
  ./assets FuzzDecodeIndex
  ./assets FuzzDecodeFont
)

# Every fuzz target of the module is listed above: one left out would
# never run. A folder with a go.mod of its own (server/) is another module,
# which fuzzes its own targets.
listed=" ${targets[*]} "
for name in $(find . -mindepth 2 -path ./.git -prune -o -type f -name go.mod -printf '%h\n' |
    { nested=(); while read -r d; do nested+=(-path "$d" -prune -o); done
      find . "${nested[@]}" -type f -name '*_test.go' -print0; } |
    xargs -0 grep -hoE '^func Fuzz[A-Za-z0-9_]+' | sed 's/^func //' | sort -u); do
  if [[ $listed != *" $name "* ]]; then
    echo "scripts/fuzz.sh: $name is not in its list of targets: add it" >&2
    exit 1
  fi
done

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
summary=()
failed=0
nw=0 pw=0 # the summary's column widths: the longest name and package
for ((i = 0; i < ${#targets[@]}; i += 2)); do
  ((${#targets[i + 1]} > nw)) && nw=${#targets[i + 1]}
  ((${#targets[i]} > pw)) && pw=${#targets[i]}
done
for ((i = 0; i < ${#targets[@]}; i += 2)); do
  pkg=${targets[i]} name=${targets[i + 1]}
  for attempt in 1 2; do
    echo "== $name ($pkg, $fuzztime)"
    env -u DISPLAY -u WAYLAND_DISPLAY "$go" test -timeout 0 -run '^$' -fuzz "^$name\$" \
      -fuzztime "$fuzztime" -fuzzminimizetime "$minimizetime" "$pkg" 2>&1 | tee "$logs/$name"
    status=${PIPESTATUS[0]}
    # Go's fuzzing coordinator can fail a run whose -fuzztime ran out while
    # a worker was busy, with a bare "context deadline exceeded" and no
    # input written (golang/go#75804; more often on a loaded machine). Such
    # a run is run once more; a real finding writes its input, and fails.
    if [ "$status" -ne 0 ] && [ "$attempt" -eq 1 ] &&
      grep -q '^    context deadline exceeded$' "$logs/$name" &&
      ! grep -q 'Failing input written to\|panic:' "$logs/$name"; then
      echo "== $name: the fuzzing coordinator's deadline race (no input written): once more"
      continue
    fi
    break
  done
  # the last progress line: "fuzz: elapsed: 30s, execs: 123456 (4115/sec), ..."
  last=$(grep -o 'elapsed: [0-9a-z.]*, execs: [0-9]*' "$logs/$name" | tail -1)
  result=ok
  if [ "$status" -ne 0 ]; then
    result=FAIL
    failed=1
  fi
  summary+=("$(printf '%-*s %-*s %-4s %s' "$nw" "$name" "$pw" "$pkg" "$result" "${last:-no executions reported}")")
done

echo
echo "== fuzz summary (FUZZTIME=$fuzztime)"
printf '%s\n' "${summary[@]}"
exit "$failed"
