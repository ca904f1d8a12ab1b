#!/usr/bin/env bash
# What a difficulty band costs: for each level, RUNS (default 3) pairs of `sudoku-bank bench`
# runs, one thread, SECONDS (default 3) each, with and without `--difficulty LEVEL`,
# alternating so that both see the same machine; prints the medians and their ratio.
# With CALLGRIND=1 (needs valgrind), also the instructions of `generate … --seed 5` with and
# without the band, which repeat within 0.1% on a quiet machine (they count the pipeline's
# waiting threads too, which a loaded machine moves by a few percent). Needs python3 for
# the arithmetic.
#
# Usage: scripts/band-cost.sh [LEVEL:HOLES ...]
# Without arguments: easy at 40 holes, medium at 50, hard and diabolical at 55. With them,
# the levels at the hole counts given, e.g. `scripts/band-cost.sh medium:52 hard:60`.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
seconds=${SECONDS_EACH:-3}
# Puzzles for the instruction count, by level.
declare -A counted_puzzles=([easy]=3000 [medium]=3000 [hard]=300 [diabolical]=200)
# level, holes, puzzles for the instruction count
levels=()
for spec in "${@:-easy:40 medium:50 hard:55 diabolical:55}"; do
  for one in $spec; do
    level=${one%%:*} holes=${one#*:}
    if [[ -z "${counted_puzzles[$level]:-}" || ! "$holes" =~ ^[0-9]+$ ]]; then
      echo "band-cost.sh: '$one' is not LEVEL:HOLES (levels: easy, medium, hard, diabolical)" >&2
      exit 2
    fi
    levels+=("$level $holes ${counted_puzzles[$level]}")
  done
done
cargo build --release --quiet
bin=target/release/sudoku-bank

rate() {
  "$bin" bench --json --threads 1 --seconds "$seconds" "$@" 2>/dev/null |
    python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["puzzles_per_sec"])'
}

instructions() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" generate "$@" \
    --threads 1 --seed 5 -q 2>&1 >/dev/null | awk '/Collected/ {print $NF}'
}

echo "| level, holes | banded (runs) | unrated (runs) | ratio of medians | instructions, banded / unrated |"
echo "|---|---:|---:|---:|---:|"
for spec in "${levels[@]}"; do
  read -r level holes count <<<"$spec"
  banded=() unrated=()
  for _ in $(seq "$runs"); do
    banded+=("$(rate --holes "$holes" --difficulty "$level")")
    unrated+=("$(rate --holes "$holes")")
  done
  counted=""
  if [[ "${CALLGRIND:-0}" == 1 ]]; then
    with=$(instructions --holes "$holes" --difficulty "$level" --count "$count")
    without=$(instructions --holes "$holes" --count "$count")
    counted="$with $without"
  fi
  python3 - "$level" "$holes" "${banded[*]}" "${unrated[*]}" "$counted" <<'PY'
import statistics, sys
level, holes, banded, unrated, counted = sys.argv[1:]
banded, unrated = [float(x) for x in banded.split()], [float(x) for x in unrated.split()]
ratio = statistics.median(unrated) / statistics.median(banded)
runs = lambda v: " / ".join(f"{x:,.0f}" for x in v)
if counted:
    w, wo = (int(x) for x in counted.split())
    counted = f"{w / 1e6:,.0f}M / {wo / 1e6:,.0f}M = {w / wo:.2f}×"
print(f"| {level}, {holes} | {runs(banded)} | {runs(unrated)} | {ratio:.2f}× | {counted} |")
PY
done
