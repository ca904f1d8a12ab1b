//! The binary, end to end: generate, and what every command shares. Beside it: verify and
//! reproduce, solve, bench, and symmetric and rated banks with rate.

mod bench;
mod levels;
mod solve;
mod verify;

use std::fs;

use predicates::prelude::*;
use predicates::str::contains;

use crate::util::{bank, cmd, rows, stdout_of};

fn generate_args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["generate", "--count", "300", "--seed", "42", "-q"];
    args.extend_from_slice(extra);
    args
}

#[test]
fn same_seed_same_bytes_at_any_thread_count() {
    let one = stdout_of(&generate_args(&["--threads", "1"]));
    let two = stdout_of(&generate_args(&["--threads", "2"]));
    let again = stdout_of(&generate_args(&["--threads", "2"]));
    assert_eq!(one, two);
    assert_eq!(two, again);
    let rows = rows(&one);
    assert_eq!(rows.len(), 300);
    assert!(
        rows.windows(2)
            .all(|w| w[0][7].parse::<u64>().unwrap() < w[1][7].parse().unwrap())
    );
    assert!(
        rows.iter()
            .all(|r| r[1] == "9" && r[2] == "50" && r[3] == "31" && r[6] == "42")
    );
    let other_seed = stdout_of(&["generate", "--count", "300", "--seed", "43", "-q"]);
    assert_ne!(one, other_seed);
}

#[test]
fn file_bank_gets_manifest_and_stats() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("bank.csv");
    let stats = dir.path().join("stats.json");
    bank()
        .args(generate_args(&[
            "-o",
            out.to_str().unwrap(),
            "--stats-json",
            stats.to_str().unwrap(),
        ]))
        .assert()
        .success()
        .stdout("");
    let csv = fs::read_to_string(&out).unwrap();
    assert_eq!(csv, stdout_of(&generate_args(&[])));
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.path().join("bank.csv.json")).unwrap())
            .unwrap();
    assert_eq!(manifest["status"], "complete");
    assert_eq!(manifest["rows"], 300);
    assert_eq!(manifest["parameters"]["seed"], 42);
    assert_eq!(manifest["parameters"]["holes"], 50);
    assert_eq!(manifest["tool"], "sudoku-bank");
    let stats: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(stats).unwrap()).unwrap();
    assert_eq!(stats, manifest["stats"]);
    assert_eq!(stats["puzzles"], 300);

    // "-" puts the statistics on stdout when the bank goes to a file, and is refused when
    // the bank is on stdout too.
    let piped = bank()
        .current_dir(dir.path())
        .args([
            "generate",
            "-q",
            "--count",
            "4",
            "-o",
            "piped.csv",
            "--stats-json",
            "-",
        ])
        .output()
        .unwrap();
    assert!(piped.status.success());
    let stats: serde_json::Value = serde_json::from_slice(&piped.stdout).unwrap();
    assert_eq!(stats["puzzles"], 4);
    assert!(!dir.path().join("-").exists());
    bank()
        .current_dir(dir.path())
        .args(["generate", "-q", "--count", "4", "--stats-json", "-"])
        .assert()
        .code(2)
        .stdout("")
        .stderr("sudoku-bank: --stats-json - would mix the statistics into the bank on stdout; give the bank a file with -o, or the statistics one\n");
    assert!(!dir.path().join("-").exists());

    // An existing bank is refused without --force and left alone.
    bank()
        .args([
            "generate",
            "--count",
            "5",
            "-q",
            "-o",
            out.to_str().unwrap(),
        ])
        .assert()
        .code(2)
        .stderr(contains("already exists"));
    assert_eq!(fs::read_to_string(&out).unwrap(), csv);
    bank()
        .args([
            "generate",
            "--count",
            "5",
            "-q",
            "--force",
            "-o",
            out.to_str().unwrap(),
        ])
        .assert()
        .success();
    assert_eq!(rows(&fs::read_to_string(&out).unwrap()).len(), 5);
}

#[test]
fn summary_names_the_seed() {
    bank()
        .args(["generate", "--count", "3", "--threads", "1"])
        .assert()
        .success()
        .stderr(
            contains("seed")
                .and(contains("(random)"))
                .and(contains("3 puzzles in"))
                .and(contains("on 1 thread:"))
                .and(contains("puzzles/s")),
        );
    bank()
        .args(["generate", "--count", "3", "-q"])
        .assert()
        .success()
        .stderr("");
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("bank.csv");
    let out = out.to_str().unwrap();
    for args in [
        vec!["generate", "--size", "7", "-o", out],
        vec!["generate", "--holes", "65", "-o", out],
        vec!["generate", "--size", "4", "--holes", "13", "-o", out],
        vec!["generate", "--size", "16", "--holes", "256", "-o", out],
        vec!["generate", "--count", "0", "-o", out],
        vec![
            "generate",
            "--count",
            "3",
            "-o",
            "/nonexistent/dir/bank.csv",
        ],
    ] {
        let assert = bank().args(&args).assert().code(2);
        let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("sudoku-bank:") || stderr.starts_with("error:"),
            "{args:?}: {stderr}"
        );
    }
    assert_eq!(
        fs::read_dir(dir.path()).unwrap().count(),
        0,
        "a file was left behind"
    );
    // A bank in a directory that does not exist: the path asked for, not the temporary
    // file's, in one line.
    bank()
        .args(["generate", "--count", "3", "-o", "/nonexistent/dir/bank.csv"])
        .assert()
        .code(2)
        .stderr(
            "sudoku-bank: cannot create /nonexistent/dir/bank.csv: No such file or directory (os error 2)\n",
        );
    // Statistics that would replace the bank or its manifest, however the path is spelt.
    let taken = dir.path().join("taken.csv");
    let taken = taken.to_str().unwrap();
    for (stats, what) in [
        (taken.to_owned(), "the bank"),
        (format!("{taken}.json"), "the bank's manifest"),
        (
            format!("{}/./taken.csv.json", dir.path().display()),
            "the bank's manifest",
        ),
    ] {
        bank()
            .args([
                "generate",
                "--count",
                "3",
                "-o",
                taken,
                "--stats-json",
                &stats,
            ])
            .assert()
            .code(2)
            .stderr(format!(
                "sudoku-bank: --stats-json {stats} would replace {what}; name another file\n"
            ));
    }
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
    // So is a statistics file there, before any row is made.
    bank()
        .args(["generate", "--count", "3", "--stats-json", "/nonexistent/dir/s.json"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(
            "sudoku-bank: cannot create /nonexistent/dir/s.json: No such file or directory (os error 2)\n",
        );
    // A 25×25 minimal dig would not end: refused by every command that digs.
    for command in ["generate", "bench", "reproduce --seed 1 --index 0"] {
        bank()
            .args(cmd(command))
            .args(["--size", "25", "--holes", "minimal"])
            .timeout(std::time::Duration::from_secs(20))
            .assert()
            .code(2)
            .stdout("")
            .stderr(
                "sudoku-bank: --holes minimal is out of reach for 25×25: past about 330 holes a single removal test can take millions of branches, so a dig until no clue can go does not end in useful time; give an exact --holes, such as 350\n",
            );
    }
}

#[test]
fn unreachable_target_ends_short_with_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("bank.csv");
    bank()
        .args([
            "generate",
            "--size",
            "4",
            "--holes",
            "12",
            "--count",
            "1000",
            "--max-attempts",
            "200",
        ])
        .args(["--seed", "3", "-o", out.to_str().unwrap()])
        .assert()
        .code(1)
        .stderr(contains("only").and(contains("of 1000 puzzles within 200 attempts")));
    let manifest = fs::read_to_string(dir.path().join("bank.csv.json")).unwrap();
    assert!(manifest.contains("\"status\": \"short\""));
    bank()
        .args(["verify", out.to_str().unwrap()])
        .assert()
        .success();
    // A band the hole count never reaches (every 4×4 puzzle of six clues rates 1.2): the
    // shortfall names the band, not only the holes.
    let band = "generate --size 4 --holes 10 --max-rating 1.0 --count 1 --max-attempts 20";
    bank()
        .args(band.split(' '))
        .args(["--seed", "3", "-q"])
        .assert()
        .code(1)
        .stderr(
            contains("within 20 attempts")
                .and(contains("missed 10 holes or the band (rating 0.0 to 1.0)"))
                .and(contains("a wider band")),
        );
}

#[test]
fn every_size_generates_and_verifies() {
    let dir = tempfile::tempdir().unwrap();
    for (size, holes, count) in [
        ("4", "10", "20"),
        ("9", "55", "20"),
        ("16", "150", "3"),
        ("25", "300", "1"),
        ("25", "350", "2"),
    ] {
        let out = dir.path().join(format!("bank{size}-{holes}.csv"));
        bank()
            .args([
                "generate", "--size", size, "--holes", holes, "--count", count, "--seed", "5", "-q",
            ])
            .args(["-o", out.to_str().unwrap()])
            .assert()
            .success();
        let csv = fs::read_to_string(&out).unwrap();
        assert_eq!(rows(&csv).len(), count.parse::<usize>().unwrap());
        assert!(rows(&csv).iter().all(|r| r[2] == holes));
        bank()
            .args(["verify", "--provenance", out.to_str().unwrap()])
            .assert()
            .success();
    }
}

#[test]
fn outputs_must_be_regular_files() {
    // A directory stands for a device, a pipe or a socket: nothing is renamed over it, and
    // nothing is generated first.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().to_str().unwrap();
    for flag in ["-o", "--stats-json"] {
        bank()
            .args(["generate", "--count", "2", "--force", flag, path])
            .assert()
            .code(2)
            .stdout("")
            .stderr(contains("is not a regular file"));
    }
    assert!(dir.path().is_dir());
}

#[test]
fn closed_pipe_ends_quietly() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("sudoku-bank"))
        .args([
            "generate", "--count", "200000", "--holes", "20", "--seed", "1", "-q",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 64];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut first)
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

#[test]
fn help_explains_every_command() {
    for command in ["generate", "bench", "reproduce", "verify", "solve", "rate"] {
        bank()
            .args([command, "--help"])
            .assert()
            .success()
            .stdout(contains("Usage"));
    }
    bank()
        .arg("--help")
        .assert()
        .success()
        .stdout(contains("generate").and(contains("verify")));
    bank()
        .args(["generate", "--help"])
        .assert()
        .success()
        .stdout(
            contains("--symmetry")
                .and(contains("--resume"))
                .and(contains("--append")),
        );
}
