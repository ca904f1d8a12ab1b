#!/usr/bin/env bash
# How far two threads can go on this machine: in each of ROUNDS rounds (default 5) it runs
# `bench --threads 1` alone, then two of them at once as separate processes (which share
# nothing, so their sum is the most two cores give this workload here), then
# `bench --threads 2`. Prints the medians and the ratios. The workload is SIZE×SIZE puzzles
# with HOLES holes (default 9 and 55), SECONDS_EACH seconds per measurement (default 3).
# `--threads 2` runs for a count of puzzles (about as many seconds' worth) rather than for a
# time: a batch stopped on a timer drops the attempts finished past the first one left
# unstarted, which costs a multi-threaded run a little of its last range.
# Needs python3 for the arithmetic.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${ROUNDS:-5}
size=${SIZE:-9}
holes=${HOLES:-55}
seconds=${SECONDS_EACH:-3}
cargo build --release --quiet
bin=target/release/sudoku-bank
# Puzzles/s of `bench --threads $1` with the length option $2 and its value $3.
run() {
  "$bin" bench --json --size "$size" --holes "$holes" --threads "$1" "$2" "$3" |
    python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["puzzles_per_sec"])'
}
out=$(mktemp)
pair=$(mktemp)
trap 'rm -f "$out" "$pair"' EXIT
for _ in $(seq "$rounds"); do
  alone=$(run 1 --seconds "$seconds")
  run 1 --seconds "$seconds" > "$pair" &
  other=$(run 1 --seconds "$seconds")
  wait
  both=$(python3 -c "print($(cat "$pair") + $other)")
  count=$(python3 -c "print(max(1, int($both * $seconds)))")
  echo "$alone $both $(run 2 --count "$count")"
done > "$out"
python3 - "$out" "$size" "$holes" "$rounds" <<'PY'
import statistics, sys
rows = [list(map(float, line.split())) for line in open(sys.argv[1])]
alone, pair, threads = (statistics.median(column) for column in zip(*rows))
print(f"{sys.argv[2]}×{sys.argv[2]}, {sys.argv[3]} holes, medians of {sys.argv[4]} rounds, puzzles/s")
print(f"one thread alone:                 {alone:,.0f}")
print(f"two processes of one thread, sum: {pair:,.0f}  ({pair / alone:.2f}× alone: the machine's ceiling)")
print(f"bench --threads 2:                {threads:,.0f}  ({threads / alone:.2f}× alone, {threads / pair:.2f}× the two processes)")
PY
