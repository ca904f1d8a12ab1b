//! Banks survive what happens to a long run: signals, kills, full disks, closed pipes,
//! resumes and appends. Every reader surviving what it is fed is in `inputs.rs`.

mod inputs;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use predicates::prelude::*;
use predicates::str::contains;

use crate::util::{bank, rows, stdout_of};

/// The parameters of the long batch the signal tests interrupt: about three seconds of work on
/// two threads here, so a signal after half a second still finds it running.
const LONG: [&str; 10] = [
    "generate",
    "--count",
    "120000",
    "--holes",
    "55",
    "--seed",
    "21",
    "--threads",
    "2",
    "-q",
];

fn spawn(args: &[&str]) -> Child {
    Command::new(assert_cmd::cargo::cargo_bin("sudoku-bank"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Sends `signal` (a `kill` name such as `INT`) to the child.
fn signal(child: &Child, signal: &str) {
    let status = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

/// Waits until the batch writing `dest` has started: its temporary file exists.
fn wait_for_temp(dir: &Path) {
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(10) {
        let temp = fs::read_dir(dir)
            .unwrap()
            .any(|e| e.unwrap().file_name().to_string_lossy().ends_with(".tmp"));
        if temp {
            return;
        }
        sleep(Duration::from_millis(2));
    }
    panic!("no temporary file appeared in {}", dir.display());
}

fn path_str(path: &Path) -> &str {
    path.to_str().unwrap()
}

fn manifest(bank: &Path) -> serde_json::Value {
    let path = PathBuf::from(format!("{}.json", bank.display()));
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

fn verify_passes(path: &Path) {
    bank()
        .args(["verify", "-q", path_str(path)])
        .assert()
        .success()
        .stdout("");
}

#[test]
fn sigint_leaves_a_valid_bank_that_resumes_to_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.csv");
    let mut args = LONG.to_vec();
    args.extend(["-o", path_str(&whole)]);
    bank().args(&args).assert().success();
    let expected = fs::read(&whole).unwrap();

    for delay in [0, 150, 500] {
        let part = dir.path().join(format!("part{delay}.csv"));
        let mut args = LONG.to_vec();
        args.extend(["-o", path_str(&part)]);
        let child = spawn(&args);
        wait_for_temp(dir.path());
        sleep(Duration::from_millis(delay));
        signal(&child, "INT");
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(130), "delay {delay}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("--resume"), "{stderr}");
        verify_passes(&part);
        let interrupted = manifest(&part);
        assert_eq!(interrupted["status"], "interrupted");
        let held = rows(&fs::read_to_string(&part).unwrap()).len() as u64;
        assert_eq!(interrupted["rows"], held);
        assert!(held < 120000);

        // Resume, interrupt the resumption too, then resume to the end.
        let child = spawn(&["generate", "--resume", path_str(&part), "-q"]);
        wait_for_temp(dir.path());
        sleep(Duration::from_millis(100));
        signal(&child, "INT");
        let code = child.wait_with_output().unwrap().status.code();
        assert!(matches!(code, Some(130 | 0)), "{code:?}");
        verify_passes(&part);
        bank()
            .args(["generate", "--resume", path_str(&part), "-q"])
            .assert()
            .success();
        assert!(fs::read(&part).unwrap() == expected, "delay {delay}");
        assert_eq!(manifest(&part)["status"], "complete");
        // A complete batch has nothing to resume and is left alone.
        bank()
            .args(["generate", "--resume", path_str(&part)])
            .assert()
            .success()
            .stderr(contains("nothing to resume"));
    }
}

#[test]
fn sigkill_leaves_the_old_bank_or_the_new_one_never_a_torn_one() {
    let dir = tempfile::tempdir().unwrap();
    let dest = dir.path().join("bank.csv");
    bank()
        .args([
            "generate",
            "--count",
            "10",
            "--seed",
            "1",
            "-q",
            "-o",
            path_str(&dest),
        ])
        .assert()
        .success();
    let old = fs::read(&dest).unwrap();
    for delay in [0, 50, 300, 1000] {
        let mut args = LONG.to_vec();
        args.extend(["--force", "-o", path_str(&dest)]);
        let mut child = spawn(&args);
        wait_for_temp(dir.path());
        sleep(Duration::from_millis(delay));
        signal(&child, "KILL");
        child.wait().unwrap();
        assert!(fs::read(&dest).unwrap() == old, "delay {delay}");
        verify_passes(&dest);
        // A kill leaves the temporary file behind (nothing runs to remove it); it never
        // has the bank's name.
        for entry in fs::read_dir(dir.path()).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "tmp") {
                fs::remove_file(path).unwrap();
            }
        }
    }
}

#[test]
fn resume_refuses_other_parameters_and_changed_banks() {
    let dir = tempfile::tempdir().unwrap();
    let dest = dir.path().join("bank.csv");
    let part = path_str(&dest);
    bank()
        .args(["generate", "--count", "20", "--seed", "3", "-q", "-o", part])
        .assert()
        .success();
    bank()
        .args([
            "generate", "--resume", part, "--size", "16", "--seed", "4", "--holes", "50",
        ])
        .assert()
        .code(2)
        .stderr(contains(
            "--size 16 (the bank's is 9), --seed 4 (the batch's is 3) differ",
        ));
    bank()
        .args(["generate", "--resume", part, "--count", "5"])
        .assert()
        .code(2)
        .stderr(contains("--count 5 is below the 20 rows"));
    // Raising --count extends the batch, as one longer run would have made it.
    bank()
        .args(["generate", "--resume", part, "--count", "30", "-q"])
        .assert()
        .success();
    let longer = stdout_of(&["generate", "--count", "30", "--seed", "3", "-q"]);
    assert_eq!(fs::read_to_string(&dest).unwrap(), longer);

    // A bank edited after it was written is refused, and left as it was.
    let mut text = fs::read_to_string(&dest).unwrap();
    text.truncate(text.trim_end().rfind('\n').unwrap() + 1);
    fs::write(&dest, &text).unwrap();
    bank()
        .args(["generate", "--resume", part, "--count", "40"])
        .assert()
        .code(2)
        .stderr(contains("has 29 rows but its manifest counts 30"));
    assert_eq!(fs::read_to_string(&dest).unwrap(), text);
    fs::write(&dest, &text[..text.len() - 10]).unwrap();
    bank()
        .args(["generate", "--resume", part, "--count", "40"])
        .assert()
        .code(2)
        .stderr(contains("does not end with a line break"));

    // No manifest, or a damaged one.
    let lone = dir.path().join("lone.csv");
    fs::write(&lone, &longer).unwrap();
    bank()
        .args(["generate", "--resume", path_str(&lone)])
        .assert()
        .code(2)
        .stderr(contains("has no readable manifest"));
    fs::write(
        dir.path().join("lone.csv.json"),
        "{\"tool\": \"sudoku-bank\",\n  oops",
    )
    .unwrap();
    bank()
        .args(["generate", "--append", path_str(&lone)])
        .assert()
        .code(2)
        .stderr(contains("lone.csv.json is not a sudoku-bank manifest").and(contains("line 2")));
}

#[test]
fn append_adds_a_distinct_batch() {
    let dir = tempfile::tempdir().unwrap();
    let dest = dir.path().join("bank.csv");
    let path = path_str(&dest);
    // 4×4 has 288 complete grids: a second batch collides with the first unless it skips
    // what the bank holds.
    bank()
        .args([
            "generate", "--size", "4", "--holes", "0", "--count", "200", "--seed", "1", "-q", "-o",
            path,
        ])
        .assert()
        .success();
    let first = fs::read_to_string(&dest).unwrap();
    bank()
        .args([
            "generate", "--append", path, "--count", "60", "--seed", "2", "-q",
        ])
        .assert()
        .success();
    let text = fs::read_to_string(&dest).unwrap();
    assert!(text.starts_with(&first));
    assert_eq!(rows(&text).len(), 260);
    verify_passes(&dest);
    let manifest = manifest(&dest);
    assert_eq!(manifest["rows"], 260);
    let batches = manifest["batches"].as_array().unwrap();
    assert_eq!(batches.len(), 2);
    assert_eq!(batches[0]["parameters"]["seed"], 1);
    assert_eq!(batches[1]["parameters"]["seed"], 2);
    assert_eq!(batches[1]["parameters"]["holes"], 0);
    assert_eq!(batches[1]["rows"], 60);
    assert!(manifest["stats"]["duplicates"].as_u64().unwrap() > 0);

    bank()
        .args(["generate", "--append", path, "--seed", "1"])
        .assert()
        .code(2)
        .stderr(contains("seed 1 already made batch 1"));
    bank()
        .args(["generate", "--append", path, "--size", "9"])
        .assert()
        .code(2)
        .stderr(contains("--size 9 (the bank's is 4) differs"));
}

/// Two runs carrying on one bank at once: the second to finish finds the bank replaced
/// and publishes nothing, so the rows of the first are not lost.
#[test]
fn a_bank_carried_on_twice_at_once_keeps_the_first_to_finish() {
    let dir = tempfile::tempdir().unwrap();
    let dest = dir.path().join("bank.csv");
    let path = path_str(&dest);
    let batch = |seed: &'static str, count: &'static str| {
        vec![
            "generate", "--append", path, "--holes", "0", "--seed", seed, "--count", count, "-q",
        ]
    };
    bank()
        .args([
            "generate", "--holes", "0", "--count", "100", "--seed", "1", "-q", "-o", path,
        ])
        .assert()
        .success();
    // A long batch, under way (its temporary file is there) when a short one ends.
    let long = spawn(&batch("2", "3000000"));
    wait_for_temp(dir.path());
    bank().args(batch("3", "10")).assert().success();
    let out = long.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(
        stderr,
        format!(
            "sudoku-bank: {path} changed while this run had it open (another run wrote it?); this run's work was not written, and the file keeps the other's\n"
        )
    );
    verify_passes(&dest);
    let manifest = manifest(&dest);
    assert_eq!(manifest["rows"], 110);
    let seeds: Vec<u64> = manifest["batches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["parameters"]["seed"].as_u64().unwrap())
        .collect();
    assert_eq!(seeds, [1, 3]);
    let left: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left.len(), 2, "{left:?}");
}

/// A bank reached through a symbolic link grows where it is; the link stays a link.
#[test]
#[cfg(unix)]
fn a_bank_behind_a_link_is_carried_on_where_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    fs::create_dir(&data).unwrap();
    let real = data.join("bank.csv");
    let link = dir.path().join("bank.csv");
    bank()
        .args([
            "generate",
            "--count",
            "3",
            "--seed",
            "1",
            "-q",
            "-o",
            path_str(&real),
        ])
        .assert()
        .success();
    std::os::unix::fs::symlink(&real, &link).unwrap();
    std::os::unix::fs::symlink(data.join("bank.csv.json"), dir.path().join("bank.csv.json"))
        .unwrap();
    bank()
        .args([
            "generate",
            "--append",
            path_str(&link),
            "--count",
            "2",
            "--seed",
            "2",
            "-q",
        ])
        .assert()
        .success();
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(rows(&fs::read_to_string(&real).unwrap()).len(), 5);
    verify_passes(&real);
}

/// A merge over one of its inputs, which another run replaces while the merge reads it:
/// the merge publishes nothing, and the other run's bank stays.
#[test]
fn a_merge_over_its_input_keeps_a_bank_written_meanwhile() {
    let dir = tempfile::tempdir().unwrap();
    let (big, small) = (dir.path().join("big.csv"), dir.path().join("small.csv"));
    for (path, count) in [(&big, "600000"), (&small, "10")] {
        bank()
            .args([
                "generate", "--holes", "0", "--count", count, "--seed", "1", "-q", "-o",
            ])
            .arg(path)
            .assert()
            .success();
    }
    let merge = spawn(&[
        "merge",
        "-q",
        path_str(&big),
        "-o",
        path_str(&big),
        "--force",
    ]);
    wait_for_temp(dir.path());
    // Another run publishes over the bank as a bank is published: by a rename.
    fs::rename(&small, &big).unwrap();
    let out = merge.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("changed while this run had it open"),
        "{stderr}"
    );
    assert_eq!(rows(&fs::read_to_string(&big).unwrap()).len(), 10);
}

/// A stderr that takes nothing (here a full device) loses the summary, warnings and
/// errors, and nothing else: each command still ends with its own exit code, where writing
/// them used to panic (exit 101).
#[test]
fn a_stderr_that_takes_nothing_changes_no_exit_code() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bank.csv");
    let path = path.to_str().unwrap();
    let cases: [(&[&str], i32); 5] = [
        (&["generate", "--count", "3", "--seed", "1"], 0),
        (&["generate", "--count", "3", "--seed", "1", "-o", path], 0),
        (&["verify", path], 0),
        (
            &["reproduce", "--seed", "1", "--index", "0", "--holes", "64"],
            1,
        ),
        (&["generate", "--count", "0"], 2),
    ];
    for (args, code) in cases {
        let out = Command::new(assert_cmd::cargo::cargo_bin("sudoku-bank"))
            .args(args)
            .stderr(fs::File::create("/dev/full").unwrap())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(code), "{args:?}");
    }
    assert_eq!(fs::read_to_string(path).unwrap().lines().count(), 4);
}

#[test]
fn full_disks_and_closed_files_give_one_line_and_no_bank() {
    // stdout on a full device.
    let out = Command::new(assert_cmd::cargo::cargo_bin("sudoku-bank"))
        .args(["generate", "--count", "2000", "-q"])
        .stdout(fs::File::create("/dev/full").unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("No space left on device"), "{stderr}");
    // Every other command's data on a full device: one line that names stdout.
    let dir = tempfile::tempdir().unwrap();
    let puzzles = dir.path().join("puzzles.txt");
    fs::write(&puzzles, format!("1{}\n", ".".repeat(80))).unwrap();
    let puzzles = path_str(&puzzles);
    let commands: [&[&str]; 5] = [
        &["solve", puzzles],
        &["reproduce", "--seed", "1", "--index", "0"],
        &["bench", "--solve", puzzles],
        &["bench", "--fill", "--count", "10"],
        &["bench", "--count", "10", "--threads", "1", "--json"],
    ];
    for args in commands {
        let out = Command::new(assert_cmd::cargo::cargo_bin("sudoku-bank"))
            .args(args)
            .stdout(fs::File::create("/dev/full").unwrap())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(
            stderr.lines().last(),
            Some("sudoku-bank: cannot write to stdout: No space left on device (os error 28)"),
            "{args:?}: {stderr}"
        );
    }

    // A file that outgrows the space it may take (the file size limit stands in for a full
    // file system): one line, exit 2, nothing under the name, no temporary file left.
    let dir = tempfile::tempdir().unwrap();
    let dest = dir.path().join("bank.csv");
    let script = format!(
        "ulimit -f 64; trap '' XFSZ; exec '{}' generate --count 20000 -q -o '{}'",
        assert_cmd::cargo::cargo_bin("sudoku-bank").display(),
        dest.display()
    );
    let out = Command::new("sh").args(["-c", &script]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("cannot write"), "{stderr}");
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
}
