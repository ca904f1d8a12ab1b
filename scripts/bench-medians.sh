#!/usr/bin/env bash
# Runs the README's benchmark set RUNS times (default 3) and prints the median puzzles/s of
# each (size, holes, threads). Needs python3 for the arithmetic.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
cargo build --release --quiet
bin=target/release/sudoku-bank
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for _ in $(seq "$runs"); do
  "$bin" bench --json --size 9 --holes 0 --threads 1,2 --seconds 2
  "$bin" bench --json --size 9 --holes 55 --threads 1,2 --seconds 2
  "$bin" bench --json --size 16 --holes 0 --threads 1,2 --seconds 2
  "$bin" bench --json --size 16 --holes 150 --threads 1,2 --seconds 4
  "$bin" bench --json --size 9 --holes 60 --threads 1,2 --seconds 2
  "$bin" bench --json --size 9 --holes 62 --threads 1 --seconds 4
  "$bin" bench --json --size 25 --holes 0 --threads 1 --seconds 2
  "$bin" bench --json --size 25 --holes 300 --threads 1 --seconds 2
  "$bin" bench --json --size 25 --holes 350 --threads 1 --seconds 4
  "$bin" bench --json --size 9 --holes minimal --threads 1 --seconds 2
  "$bin" bench --json --size 16 --holes minimal --threads 1 --seconds 4
done > "$out" 2>/dev/null
python3 - "$out" <<'PY'
import json, statistics, sys
from collections import defaultdict
text, decoder, at, runs = open(sys.argv[1]).read(), json.JSONDecoder(), 0, defaultdict(list)
while at < len(text):
    if text[at].isspace():
        at += 1
        continue
    rows, at = decoder.raw_decode(text, at)
    for r in rows:
        runs[(r["size"], r["holes"], r["threads"])].append(r["puzzles_per_sec"])
print("size holes threads runs median_puzzles_per_sec")
# Hole targets are numbers or "minimal": order numbers first, by value.
order = lambda item: (item[0][0], isinstance(item[0][1], str), str(item[0][1]).zfill(4), item[0][2])
for (size, holes, threads), v in sorted(runs.items(), key=order):
    print(f"{size} {holes} {threads} {len(v)} {statistics.median(v):.0f}")
PY
