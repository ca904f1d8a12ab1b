#!/usr/bin/env bash
# Measures sudoku-bank and the `sudoku` crate (the harness in ../shared/anchors) side by side,
# single thread, in ROUNDS interleaved rounds (default 5), and prints the median of each task
# and the ratio of the medians; qqwing too when it is installed (Debian: apt-get install qqwing).
# The crate is AGPL: its harness is built in a temporary copy
# and never linked into sudoku-bank. Needs python3 for the arithmetic.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${ROUNDS:-5}
shared=../shared
anchor_src=$shared/anchors/sudoku-crate
anchor_dir=${TMPDIR:-/tmp}/sudoku-bank-anchors
seventeen=$shared/data/puzzles2_17_clue
hardest=$shared/data/puzzles5_forum_hardest_1905_11+

cargo build --release --quiet
bin=target/release/sudoku-bank
if [[ ! -x $anchor_dir/target/release/sudoku-crate-bench ]]; then
  mkdir -p "$anchor_dir"
  cp -r "$anchor_src"/. "$anchor_dir"/
  (cd "$anchor_dir" && cargo build --release --quiet)
fi
crate=$anchor_dir/target/release/sudoku-crate-bench

out=$(mktemp)
trap 'rm -f "$out"' EXIT
for _ in $(seq "$rounds"); do
  # One line per measurement: task, engine, value.
  echo "grids crate $("$crate" grids 100000)"
  echo "grids bank $("$bin" bench --json --size 9 --holes 0 --threads 1 --seconds 2 | tr -d '\n ')"
  echo "fill bank $("$bin" bench --json --fill --size 9 --seconds 2 | tr -d '\n ')"
  echo "puzzles crate $("$crate" puzzles 5000 none)"
  echo "puzzles55 bank $("$bin" bench --json --size 9 --holes 55 --threads 1 --seconds 2 | tr -d '\n ')"
  echo "minimal bank $("$bin" bench --json --size 9 --holes minimal --threads 1 --seconds 2 | tr -d '\n ')"
  echo "puzzles60 bank $("$bin" bench --json --size 9 --holes 60 --threads 1 --seconds 2 | tr -d '\n ')"
  echo "check17 crate $("$crate" check "$seventeen" 3)"
  echo "check17 bank $("$bin" bench --json --solve "$seventeen" --passes 3 | tr -d '\n ')"
  echo "hardest crate $("$crate" check "$hardest" 1)"
  echo "hardest bank $("$bin" bench --json --solve "$hardest" --passes 1 | tr -d '\n ')"
  if command -v qqwing > /dev/null; then
    echo "puzzles qqwing $(python3 -c 'import subprocess, time
t = time.perf_counter()
subprocess.run(["qqwing", "--generate", "1000", "--one-line"], stdout=subprocess.DEVNULL, check=True)
print(1000 / (time.perf_counter() - t))')"
  fi
done > "$out" 2>/dev/null
python3 - "$out" "$rounds" <<'PY'
import json, statistics, sys
from collections import defaultdict

values = defaultdict(list)
for line in open(sys.argv[1]):
    task, engine, rest = line.rstrip("\n").split(" ", 2)
    if engine == "qqwing":
        value = float(rest)
    elif engine == "crate":
        fields = dict(kv.split("=", 1) for kv in rest.split())
        value = float(fields.get("grids_per_s") or fields.get("puzzles_per_s")
                      if task in ("grids", "puzzles") else fields["us_per_puzzle"])
    else:
        row = json.loads(rest)[0]
        value = (row["us_per_puzzle"] if "us_per_puzzle" in row
                 else row["grids_per_sec"] if "ns_per_grid" in row else row["puzzles_per_sec"])
    values[(task, engine)].append(value)

med = {key: statistics.median(v) for key, v in values.items()}
print(f"single thread, medians of {sys.argv[2]} interleaved rounds")
print("| task | `sudoku` crate | sudoku-bank | ratio |")
print("|---|---:|---:|---:|")
print(f"| 9×9 full grids/s | {med['grids','crate']:,.0f} | {med['grids','bank']:,.0f} "
      f"| {med['grids','bank'] / med['grids','crate']:.1f}× |")
print(f"| 9×9 full grids/s, the fill alone (`bench --fill`: no rows, ids or dedup) "
      f"| {med['grids','crate']:,.0f} | {med['fill','bank']:,.0f} "
      f"| {med['fill','bank'] / med['grids','crate']:.1f}× |")
bank = med["minimal", "bank"]
print(f"| 9×9 minimal puzzles/s (both top-down) | {med['puzzles','crate']:,.0f} | {bank:,.0f} "
      f"| {bank / med['puzzles','crate']:.1f}× |")
for holes in (55, 60):
    bank = med[f"puzzles{holes}", "bank"]
    print(f"| 9×9 puzzles/s (crate: minimal; ours: {holes} holes) | {med['puzzles','crate']:,.0f} "
          f"| {bank:,.0f} | {bank / med['puzzles','crate']:.1f}× |")
if ("puzzles", "qqwing") in med:
    qq, bank = med["puzzles", "qqwing"], med["puzzles55", "bank"]
    print(f"| 9×9 puzzles/s (qqwing `--generate`, any difficulty; ours: 55 holes) | {qq:,.0f} (qqwing) "
          f"| {bank:,.0f} | {bank / qq:.0f}× |")
for task, name in (("check17", "17-clue set"), ("hardest", "forum hardest 11+")):
    crate, bank = med[task, "crate"], med[task, "bank"]
    print(f"| count to 2, {name}, µs/puzzle | {crate:.2f} | {bank:.2f} "
          f"| {bank / crate:.2f}× the crate's time |")
PY
