#!/usr/bin/env python3
"""Soak test: random generate flag combinations, each checked end to end.

Usage: scripts/soak.py [SECONDS] [SEED]   (default 300 seconds, seed 1)

For each drawn combination (size, holes, symmetry, dedup, difficulty or rating band, count,
seed) it checks what the README promises:
  - one thread and two threads write the same bytes;
  - `verify --provenance` passes on the bank;
  - the bank's shards, merged, are the one-machine bank;
  - a run cut short by --max-attempts and carried on with --resume is the uninterrupted bank;
  - an appended batch leaves a bank that `verify --provenance` passes;
  - `reproduce` prints each of the first rows;
  - `rate --column puzzle` gives each rated row its rating and level.
Prints each failure with its flags and exits 1 if there was one. Runs the release build, or
the binary the SUDOKU_BANK environment variable names (to soak an older build).
"""
import csv
import io
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(os.environ.get("SUDOKU_BANK", ROOT / "target" / "release" / "sudoku-bank"))


def run(args):
    return subprocess.run([str(BIN)] + args, capture_output=True, timeout=600)


def draw(rnd):
    """A generate flag combination: its flags (without --count and --seed), and them by name."""
    size = rnd.choice([4, 9, 9, 9, 16])
    holes = {4: rnd.choice([0, 4, 8, 10, 12]), 9: rnd.choice([0, 30, 45, 50, 55, 58]),
             16: rnd.choice([0, 80, 120, 150])}[size]
    named = {"--size": str(size), "--holes": str(holes)}
    if rnd.random() < 0.3 and size != 16:
        named["--dedup"] = rnd.choice(["exact", "canonical", "none"])
    if rnd.random() < 0.3:
        named["--symmetry"] = rnd.choice(["rot180", "rot90", "mirror", "flip", "diagonal",
                                          "antidiagonal", "dihedral", "random"])
    if rnd.random() < 0.3 and holes > 0 and size != 16:
        if rnd.random() < 0.6:
            named["--difficulty"] = rnd.choice(["easy", "medium", "hard"])
        else:
            named["--min-rating"] = rnd.choice(["1.2", "1.5", "2.0"])
            named["--max-rating"] = rnd.choice(["2.6", "3.4", "4.4"])
    flags = [word for pair in named.items() for word in pair] + ["-q"]
    return flags, named


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 300
    rnd = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    if "SUDOKU_BANK" not in os.environ:
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    failures = 0
    combos = 0
    start = time.time()
    while time.time() - start < seconds:
        combos += 1
        flags, named = draw(rnd)
        seed = str(rnd.randrange(10_000))
        count = str(rnd.choice([1, 5, 20, 40]))
        what = " ".join(flags + ["--seed", seed, "--count", count])

        def fail(check, detail=b""):
            nonlocal failures
            failures += 1
            text = detail.decode(errors="replace") if isinstance(detail, bytes) else detail
            print(f"FAIL {check}: generate {what}: {text.strip()[-300:]}", flush=True)

        work = Path(tempfile.mkdtemp(prefix="soak-"))
        try:
            batch = flags + ["--seed", seed, "--count", count]
            banks = []
            for threads in ["1", "2"]:
                out = work / f"t{threads}.csv"
                done = run(["generate"] + batch + ["--threads", threads, "-o", str(out)])
                if done.returncode == 2:
                    break  # refused up front (an unreachable target): nothing to check
                if done.returncode not in (0, 1):
                    fail("exit code", done.stderr)
                banks.append(out.read_bytes() if out.exists() else b"")
            if len(banks) < 2:
                continue
            if banks[0] != banks[1]:
                fail("one thread against two")
            bank = work / "t1.csv"
            checked = run(["verify", "--provenance", str(bank)])
            if checked.returncode != 0:
                fail("verify --provenance", checked.stdout + checked.stderr)
            if done.returncode == 0 and rnd.random() < 0.5:
                shards = rnd.choice([2, 3])
                names = []
                for k in range(shards):
                    name = str(work / f"s{k}.csv")
                    run(["generate"] + batch + ["--shard", f"{k}/{shards}", "-o", name])
                    names.append(name)
                merged = run(["merge"] + names + ["--count", count, "-o", str(work / "m.csv")])
                if merged.returncode == 0 and (work / "m.csv").read_bytes() != banks[0]:
                    fail(f"{shards} shards merged")
            # Cut short, then carried on with the budget of the full run.
            short = work / "r.csv"
            cut = run(["generate"] + batch + ["--max-attempts", str(rnd.choice([1, 3, 10])),
                                              "-o", str(short)])
            if cut.returncode in (0, 1):
                budget = str(100 * int(count) + 1000)
                run(["generate", "--resume", str(short), "--max-attempts", budget])
                if short.read_bytes() != banks[0]:
                    fail("resumed after a short run")
                append = ["generate", "--append", str(short), "--count", "5",
                          "--seed", str(int(seed) + 1), "-q"]
                added = run(append)
                if added.returncode in (0, 1):
                    checked = run(["verify", "--provenance", str(short)])
                    if checked.returncode != 0:
                        fail("verify --provenance after --append", checked.stdout)
            text = banks[0].decode()
            lines = text.splitlines()
            rows = list(csv.DictReader(io.StringIO(text)))
            for line, row in list(zip(lines[1:], rows))[:3]:
                args = ["reproduce", "--seed", seed, "--index", row["index"]]
                for flag in ["--size", "--holes", "--symmetry", "--difficulty", "--min-rating",
                             "--max-rating", "--dedup"]:
                    if flag in named and not (flag == "--dedup" and named[flag] == "none"):
                        args += [flag, named[flag]]
                again = run(args)
                shown = again.stdout.decode().splitlines()
                if again.returncode != 0 or len(shown) < 2 or shown[1] != line:
                    fail(f"reproduce --index {row['index']}", again.stdout + again.stderr)
            if rows and "rating" in rows[0]:
                rated = run(["rate", "--column", "puzzle", str(bank)])
                for row, got in zip(rows, csv.DictReader(io.StringIO(rated.stdout.decode()))):
                    if (row["rating"], row["level"]) != (got["rating"], got["level"]):
                        fail(f"rating of index {row['index']}",
                             f"bank {row['rating']} {row['level']}, rate {got['rating']} {got['level']}")
        finally:
            shutil.rmtree(work, ignore_errors=True)
    print(f"soak: {combos} combinations in {time.time() - start:.0f} s, {failures} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
