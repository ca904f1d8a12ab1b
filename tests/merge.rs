//! Shards, merge and canonical dedup, end to end.

use std::fs;
use std::path::Path;

use predicates::str::contains;

use crate::util::{bank, cmd, rows, stdout_of};

/// Runs `sudoku-bank ARGS` in `dir`, asserting exit 0.
fn run_in<'a>(dir: &Path, args: impl AsRef<[&'a str]>) {
    let args = args.as_ref();
    let out = bank().current_dir(dir).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Writes every shard of `params` to `shard-K.csv` in `dir` with `--count per_shard`, the
/// shard given as `--shard K/N` or through the environment, and merges them into
/// `merged.csv` with `--count count`; returns the merged bytes.
fn shard_and_merge(
    dir: &Path,
    params: &[&str],
    shards: u64,
    per_shard: u64,
    count: u64,
    how: &str,
) -> Vec<u8> {
    let per_shard = per_shard.to_string();
    let mut names = Vec::new();
    for k in 0..shards {
        let name = format!("shard-{k}.csv");
        let mut args = vec![
            "generate", "-q", "--force", "--count", &per_shard, "-o", &name,
        ];
        args.extend_from_slice(params);
        let given = format!("{k}/{shards}");
        let k8s = format!("k8s/{shards}");
        let mut command = bank();
        command.current_dir(dir).args(&args);
        match how {
            "slurm" => {
                // An array --array=1-N: ids start at 1.
                command
                    .args(["--shard", "slurm"])
                    .env("SLURM_ARRAY_TASK_ID", (k + 1).to_string())
                    .env("SLURM_ARRAY_TASK_MIN", "1")
                    .env("SLURM_ARRAY_TASK_COUNT", shards.to_string());
            }
            "k8s" => {
                command
                    .args(["--shard", &k8s])
                    .env("JOB_COMPLETION_INDEX", k.to_string());
            }
            _ => {
                command.args(["--shard", &given]);
            }
        }
        command.assert().success();
        names.push(name);
    }
    // Shards given in any order are merged by attempt index.
    names.reverse();
    let count = count.to_string();
    let mut args = vec![
        "merge",
        "-q",
        "--force",
        "-o",
        "merged.csv",
        "--count",
        &count,
    ];
    args.extend(names.iter().map(String::as_str));
    // No --dedup: banks with a canon_id column are merged by canonical form.
    run_in(dir, &args);
    fs::read(dir.join("merged.csv")).unwrap()
}

#[test]
fn merged_shards_are_the_one_machine_bank() {
    let dir = tempfile::tempdir().unwrap();
    // 4×4 at 8 holes repeats puzzles often, across shards too; 9×9 does not.
    let cases: [(Vec<&str>, u64, u64, &str); 5] = [
        (cmd("--size 4 --holes 8 --seed 3"), 3, 60, "given"),
        // A batch that keeps duplicates: its shards merge with its own dedup, not exact.
        (
            cmd("--size 4 --holes 0 --seed 87 --dedup none"),
            2,
            50,
            "given",
        ),
        (cmd("--seed 11 --holes 45"), 4, 200, "slurm"),
        (cmd("--seed 12 --threads 1"), 2, 150, "k8s"),
        (
            cmd("--size 4 --holes 12 --seed 5 --dedup canonical"),
            3,
            12,
            "given",
        ),
    ];
    for (params, shards, count, how) in cases {
        let mut one = vec!["generate", "-q", "--count"];
        let count_text = count.to_string();
        one.push(&count_text);
        one.extend_from_slice(&params);
        let whole = stdout_of(&one);
        let merged = shard_and_merge(dir.path(), &params, shards, count, count, how);
        assert_eq!(
            String::from_utf8(merged).unwrap(),
            whole,
            "{params:?} in {shards} shards ({how})"
        );
        stdout_of(&["verify", dir.path().join("merged.csv").to_str().unwrap()]);
    }
}

/// `verify` holds each row to the dedup its manifest records: a batch or merge with
/// `--dedup none` keeps repeated puzzles, and one by exact text keeps equivalent ones, even
/// in a bank with a `canon_id` column. Without a manifest it refuses both, as before.
#[test]
fn verify_keeps_to_the_dedup_a_bank_was_made_with() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let distinct = |name: &str, column: usize| {
        let text = fs::read_to_string(d.join(name)).unwrap();
        let rows = rows(&text);
        let values: std::collections::HashSet<&String> = rows.iter().map(|r| &r[column]).collect();
        (values.len(), rows.len())
    };
    // 4×4 complete grids repeat within 50 attempts.
    run_in(
        d,
        cmd("generate -q --size 4 --holes 0 --seed 87 --count 50 --dedup none -o n.csv"),
    );
    let (puzzles, rows_n) = distinct("n.csv", 4);
    assert!(puzzles < rows_n, "the bank repeats a puzzle");
    stdout_of(&["verify", "--provenance", d.join("n.csv").to_str().unwrap()]);
    // The same rows without their manifest: `verify` cannot know they may repeat.
    let bare = |name: &str, reason: &str| {
        fs::copy(d.join(name), d.join("bare.csv")).unwrap();
        bank()
            .arg("verify")
            .arg(d.join("bare.csv"))
            .assert()
            .code(1)
            .stdout(contains(reason));
    };
    bare("n.csv", "duplicate of row");
    // Canonical banks merged by exact text, or keeping every row, hold equivalent puzzles.
    for seed in ["1", "2"] {
        let out = format!("c{seed}.csv");
        let mut args = cmd("generate -q --size 4 --holes 8 --count 30 --dedup canonical");
        args.extend(["--seed", seed, "-o", &out]);
        run_in(d, &args);
    }
    for dedup in ["exact", "none"] {
        let out = format!("m-{dedup}.csv");
        run_in(
            d,
            [
                "merge", "-q", "--dedup", dedup, "c1.csv", "c2.csv", "-o", &out,
            ],
        );
        let (forms, rows_m) = distinct(&out, 8);
        assert!(
            forms < rows_m,
            "merge --dedup {dedup} keeps equivalent puzzles"
        );
        stdout_of(&["verify", d.join(&out).to_str().unwrap()]);
    }
    run_in(d, cmd("merge -q c1.csv c2.csv -o m-canonical.csv"));
    stdout_of(&["verify", d.join("m-canonical.csv").to_str().unwrap()]);
    bare("m-exact.csv", "equivalent to row");
}

#[test]
fn merge_says_where_a_short_shard_ends_the_one_machine_bank() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (k, count) in [(0, 20), (1, 40), (2, 20)] {
        let count = count.to_string();
        let shard = format!("{k}/3");
        let out = format!("s{k}.csv");
        run_in(
            d,
            [
                "generate", "-q", "--seed", "9", "--count", &count, "--shard", &shard, "-o", &out,
            ],
        );
    }
    // Shards 0 and 2 hold every row below index 60 and nothing past it: 60 rows are the
    // one-machine bank's, and a 70-row merge says where it leaves it.
    let out = bank()
        .current_dir(d)
        .args(cmd("merge s0.csv s1.csv s2.csv --count 70 -o m.csv"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("note: past attempt index 60 a shard has no more rows"),
        "{stderr}"
    );
    let merged = rows(&fs::read_to_string(d.join("m.csv")).unwrap());
    let one = rows(&stdout_of(&cmd("generate -q --seed 9 --count 70")));
    assert_eq!(merged.len(), 70);
    assert_eq!(merged[..60], one[..60]);
    assert_ne!(merged[60..], one[60..]);
}

#[test]
fn shards_partition_the_attempts_and_resume() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    run_in(
        d,
        cmd("generate -q --seed 7 --count 40 --shard 2/5 -o s.csv"),
    );
    let shard = fs::read_to_string(d.join("s.csv")).unwrap();
    assert!(
        rows(&shard)
            .iter()
            .all(|r| r[7].parse::<u64>().unwrap() % 5 == 2)
    );
    let manifest = fs::read_to_string(d.join("s.csv.json")).unwrap();
    assert!(manifest.contains("\"shard\": {\n      \"index\": 2,\n      \"count\": 5\n    }"));
    // A shard cut short by its budget resumes as a shard, to the same bytes.
    bank()
        .current_dir(d)
        .args(cmd(
            "generate -q --seed 7 --count 40 --shard 2/5 -o short.csv --max-attempts 20",
        ))
        .assert()
        .code(1);
    bank_cmd_fails(
        d,
        cmd("generate --resume short.csv --shard 1/5"),
        "--shard 1/5 (the batch's is 2/5)",
    );
    run_in(
        d,
        cmd("generate -q --resume short.csv --max-attempts 100000"),
    );
    assert_eq!(fs::read_to_string(d.join("short.csv")).unwrap(), shard);
    // Bad shards and missing environments are one line each.
    for (args, message) in [
        (cmd("--shard 5/5"), "shard 5/5 does not exist"),
        (cmd("--shard x"), "is not a shard"),
        (cmd("--shard slurm"), "SLURM_ARRAY_TASK_ID is not set"),
        (cmd("--shard k8s/4"), "JOB_COMPLETION_INDEX is not set"),
    ] {
        bank()
            .args(["generate", "--count", "1"])
            .args(args)
            .env_remove("SLURM_ARRAY_TASK_ID")
            .env_remove("JOB_COMPLETION_INDEX")
            .assert()
            .code(2)
            .stderr(contains(message));
    }
}

#[test]
fn a_shard_never_runs_an_attempt_twice() {
    // Shard 1 of 2^63 − 1 holds three attempt indices: 1, 2^63 and 2^64 − 1.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let shard = "1/9223372036854775807";
    let out = stdout_of(&cmd(&format!(
        "generate -q --seed 1 --count 3 --shard {shard} --max-attempts 3"
    )));
    let indices: Vec<String> = rows(&out).iter().map(|r| r[7].clone()).collect();
    assert_eq!(
        indices,
        ["1", "9223372036854775808", "18446744073709551615"]
    );
    // A budget past its last index would run that attempt again and again: refused, on a
    // new batch and on a resumed one whose budget grows with its count.
    bank()
        .args(cmd(&format!(
            "generate -q --seed 1 --count 3 --shard {shard}"
        )))
        .assert()
        .code(2)
        .stdout("")
        .stderr(format!(
            "sudoku-bank: shard {shard} holds only 3 attempt indices (of 0 to 2^64 − 1), fewer than the 1300 attempts it may make (--max-attempts); use fewer shards or a lower --max-attempts\n"
        ));
    let short = format!("generate -q --seed 1 --count 3 --shard {shard} --max-attempts 2 -o s.csv");
    bank().current_dir(d).args(cmd(&short)).assert().code(1);
    bank_cmd_fails(
        d,
        cmd("generate -q --resume s.csv --count 4"),
        "holds only 3 attempt indices",
    );
    run_in(d, cmd("generate -q --resume s.csv --max-attempts 3"));
    assert_eq!(fs::read_to_string(d.join("s.csv")).unwrap(), out);
}

/// Runs `sudoku-bank ARGS` in `dir`, asserting exit 2 and `message` on stderr.
fn bank_cmd_fails<'a>(dir: &Path, args: impl AsRef<[&'a str]>, message: &str) {
    let args = args.as_ref();
    bank()
        .current_dir(dir)
        .args(args)
        .assert()
        .code(2)
        .stderr(contains(message));
}

#[test]
fn merge_keeps_first_occurrences_and_lists_its_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    run_in(d, cmd("generate -q --seed 1 --count 50 -o a.csv"));
    run_in(d, cmd("generate -q --seed 2 --count 30 -o b.csv"));
    run_in(d, cmd("merge -q a.csv b.csv a.csv -o m.csv"));
    let a = fs::read_to_string(d.join("a.csv")).unwrap();
    let b = fs::read_to_string(d.join("b.csv")).unwrap();
    let merged = fs::read_to_string(d.join("m.csv")).unwrap();
    // Argument order, rows in order, the second a.csv all duplicates.
    assert_eq!(
        merged,
        a.clone()
            + b.lines()
                .skip(1)
                .map(|l| l.to_owned() + "\n")
                .collect::<String>()
                .as_str()
    );
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(d.join("m.csv.json")).unwrap()).unwrap();
    assert_eq!(manifest["command"], "merge");
    assert_eq!(manifest["rows"], 80);
    assert_eq!(manifest["duplicates"], 50);
    let kept: Vec<u64> = manifest["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["rows_kept"].as_u64().unwrap())
        .collect();
    assert_eq!(kept, [50, 30, 0]);
    stdout_of(&["verify", d.join("m.csv").to_str().unwrap()]);
    // --count stops early; more than the inputs hold is exit 1 with what there is.
    run_in(d, cmd("merge -q a.csv b.csv --count 60 -o c.csv"));
    assert_eq!(
        rows(&fs::read_to_string(d.join("c.csv")).unwrap()).len(),
        60
    );
    bank()
        .current_dir(d)
        .args(["merge", "a.csv", "b.csv", "--count", "100", "-o", "d.csv"])
        .assert()
        .code(1)
        .stderr(contains("80 distinct puzzles, fewer than --count 100"));
    // What a merge read and wrote, counted in words.
    bank()
        .current_dir(d)
        .args(["merge", "a.csv", "-o", "one.csv"])
        .assert()
        .success()
        .stderr(
            "sudoku-bank: merged 1 bank into one.csv: 50 rows read, 50 written, 0 duplicates \
             (exact dedup)\n",
        );
    // A merged bank merges again, but is not a batch to carry on.
    run_in(d, cmd("merge -q m.csv b.csv -o again.csv"));
    assert_eq!(fs::read_to_string(d.join("again.csv")).unwrap(), merged);
    bank_cmd_fails(
        d,
        cmd("generate --resume m.csv"),
        "m.csv was written by merge",
    );
    bank_cmd_fails(d, cmd("merge a.csv -o m.csv"), "already exists");
}

#[test]
fn merge_refuses_mixed_or_broken_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    run_in(d, cmd("generate -q --seed 1 --count 5 -o nine.csv"));
    run_in(
        d,
        cmd("generate -q --seed 1 --count 5 --size 4 -o four.csv"),
    );
    run_in(
        d,
        cmd("generate -q --seed 1 --count 5 --symmetry rot180 -o sym.csv"),
    );
    run_in(
        d,
        cmd("generate -q --seed 1 --count 5 --shard 0/2 -o half.csv"),
    );
    run_in(
        d,
        cmd("generate -q --seed 1 --count 5 --size 16 -o big.csv"),
    );
    let nine = fs::read_to_string(d.join("nine.csv")).unwrap();
    fs::write(d.join("cut.csv"), &nine[..nine.len() - 30]).unwrap();
    fs::write(d.join("bad.csv"), nine.replacen(",9,50,", ",9,50,\"", 1)).unwrap();
    // Two 1s in the first row of the first puzzle.
    let mut fields: Vec<String> = nine
        .lines()
        .nth(1)
        .unwrap()
        .split(',')
        .map(str::to_owned)
        .collect();
    fields[4].replace_range(..2, "11");
    let clash = format!("{}\n{}\n", nine.lines().next().unwrap(), fields.join(","));
    fs::write(d.join("clash.csv"), clash).unwrap();
    let header = format!("{}\n", nine.lines().next().unwrap());
    fs::write(d.join("empty.csv"), &header).unwrap();
    fs::write(d.join("empty2.csv"), &header).unwrap();
    for (inputs, message) in [
        (
            cmd("nine.csv four.csv"),
            "four.csv: line 2: size \"4\" differs from the first row's 9",
        ),
        (
            cmd("nine.csv sym.csv"),
            "merge needs banks with the same columns",
        ),
        (cmd("nine.csv half.csv"), "shard 1/2 is missing"),
        (cmd("nine.csv missing.csv"), "missing.csv"),
        (cmd("nine.csv bad.csv"), "bad.csv: line"),
        (
            cmd("clash.csv"),
            "clash.csv: line 2: puzzle clues conflict: 1 twice in row 1",
        ),
        (cmd("cut.csv nine.csv"), "cut.csv: line 6: has 6 fields"),
        (cmd("empty.csv empty2.csv"), "the inputs hold no rows"),
    ] {
        bank()
            .current_dir(d)
            .arg("merge")
            .args(&inputs)
            .args(["-o", "out.csv"])
            .assert()
            .code(2)
            .stderr(contains(message));
        assert!(!d.join("out.csv").exists(), "{inputs:?} left an output");
    }
    bank()
        .current_dir(d)
        .args(["merge", "big.csv", "--dedup", "canonical", "-o", "out.csv"])
        .assert()
        .code(2)
        .stderr(contains("4×4 and 9×9 only"));
    // An output over an input's manifest, or whose manifest would land on an input bank,
    // even with --force; the files stay as they were. Over an input bank itself it may go.
    fs::write(d.join("odd.csv.json"), &nine).unwrap();
    let manifest = fs::read_to_string(d.join("nine.csv.json")).unwrap();
    for (line, message) in [
        (
            "merge nine.csv -o ./nine.csv.json --force",
            "-o ./nine.csv.json would replace the manifest of nine.csv, a bank being merged; name another file",
        ),
        (
            "merge nine.csv odd.csv.json -o odd.csv --force",
            "-o odd.csv would put its manifest odd.csv.json in place of a bank being merged; name another file",
        ),
    ] {
        bank()
            .current_dir(d)
            .args(cmd(line))
            .assert()
            .code(2)
            .stderr(format!("sudoku-bank: {message}\n"));
    }
    assert_eq!(
        fs::read_to_string(d.join("nine.csv.json")).unwrap(),
        manifest
    );
    assert_eq!(fs::read_to_string(d.join("odd.csv.json")).unwrap(), nine);
    run_in(d, cmd("merge -q nine.csv -o nine.csv --force"));
    assert_eq!(fs::read_to_string(d.join("nine.csv")).unwrap(), nine);
}

#[test]
fn canonical_dedup_drops_equivalent_puzzles() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // 4×4 puzzles with 12 holes (4 clues) fall into few classes: many attempts are
    // equivalent to an earlier puzzle.
    run_in(
        d,
        cmd("generate -q --size 4 --holes 12 --seed 2 --count 10 --dedup canonical -o c.csv"),
    );
    let text = fs::read_to_string(d.join("c.csv")).unwrap();
    assert!(text.starts_with("id,size,holes,clues,puzzle,solution,seed,index,canon_id\n"));
    let canon_rows = rows(&text);
    let ids: std::collections::HashSet<&String> = canon_rows.iter().map(|r| &r[8]).collect();
    assert_eq!(ids.len(), 10);
    stdout_of(&["verify", d.join("c.csv").to_str().unwrap()]);
    let json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(d.join("c.csv.json")).unwrap()).unwrap();
    assert!(json["stats"]["duplicates"].as_u64().unwrap() > 0, "{json}");
    // The same attempts under exact dedup keep equivalent puzzles, which merge --dedup
    // canonical then drops, adding the column.
    run_in(
        d,
        cmd("generate -q --size 4 --holes 12 --seed 2 --count 40 -o e.csv"),
    );
    run_in(d, cmd("merge -q --dedup canonical e.csv -o m.csv"));
    let merged = fs::read_to_string(d.join("m.csv")).unwrap();
    let merged_ids: std::collections::HashSet<String> =
        rows(&merged).into_iter().map(|r| r[8].clone()).collect();
    assert_eq!(merged_ids.len(), rows(&merged).len());
    assert!(rows(&merged).len() < 40);
    stdout_of(&["verify", d.join("m.csv").to_str().unwrap()]);
    // reproduce prints a canonical bank's row.
    let first = &canon_rows[0];
    let again = stdout_of(&[
        "reproduce",
        "--size",
        "4",
        "--holes",
        "12",
        "--seed",
        "2",
        "--index",
        &first[7],
        "--dedup",
        "canonical",
    ]);
    assert_eq!(again.lines().nth(1).unwrap(), first.join(","));
    // Canonical dedup is refused past 9×9, and so is changing a bank's columns.
    bank()
        .args(["generate", "--size", "16", "--dedup", "canonical"])
        .assert()
        .code(2)
        .stderr(contains("4×4 and 9×9 only"));
    bank_cmd_fails(
        d,
        cmd("generate --append c.csv --dedup exact --count 1"),
        "would change the bank's columns",
    );
    // verify checks canon_id, and finds a row equivalent to another (here the first row
    // transposed, id and all made right).
    run_in(
        d,
        cmd("generate -q --seed 3 --count 5 --dedup canonical -o v.csv"),
    );
    let bank_text = fs::read_to_string(d.join("v.csv")).unwrap();
    let mut lines: Vec<Vec<String>> = bank_text
        .lines()
        .map(|l| l.split(',').map(str::to_owned).collect())
        .collect();
    lines[2][8] = "0000000000000000".to_owned();
    let mut moved = lines[1].clone();
    let transpose = |text: &str| -> String {
        (0..81)
            .map(|i| text.as_bytes()[(i % 9) * 9 + i / 9] as char)
            .collect()
    };
    moved[4] = transpose(&lines[1][4]);
    moved[5] = transpose(&lines[1][5]);
    moved[0] = sudoku_bank::hash::puzzle_id_hex(&moved[4]);
    moved[7] = "1000".to_owned();
    lines.push(moved);
    let edited: String = lines.iter().map(|l| l.join(",") + "\n").collect();
    fs::write(d.join("v.csv"), edited).unwrap();
    let out = bank()
        .current_dir(d)
        .args(cmd("verify v.csv"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let report = String::from_utf8(out.stdout).unwrap();
    assert!(
        report.contains("row 2: canon_id \"0000000000000000\" is not the puzzle's"),
        "{report}"
    );
    assert!(report.contains("row 6: equivalent to row 1"), "{report}");
    // Appending keeps the bank free of equivalent puzzles.
    run_in(d, cmd("generate -q --append c.csv --count 3 --seed 9"));
    stdout_of(&["verify", d.join("c.csv").to_str().unwrap()]);
}
