//! Banks survive what happens to a long run, and every reader survives what it is fed:
//! signals, kills, full disks, closed pipes, resumes, appends and malformed input.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use predicates::prelude::*;
use predicates::str::contains;
use proptest::prelude::*;
use sudoku_bank::bank::BankReader;
use sudoku_bank::commands::check_bank;
use sudoku_bank::input::LineLimit;
use sudoku_bank::{Four, Grid, Nine, Sixteen, TwentyFive};

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

/// One malformed input: what the file holds, the command, the exit code and a piece of the
/// message it must give.
struct Hostile {
    bytes: Vec<u8>,
    command: &'static str,
    code: i32,
    says: &'static str,
}

fn hostile(
    bytes: impl Into<Vec<u8>>,
    command: &'static str,
    code: i32,
    says: &'static str,
) -> Hostile {
    Hostile {
        bytes: bytes.into(),
        command,
        code,
        says,
    }
}

#[test]
fn malformed_input_gets_a_message_never_a_panic() {
    let good = stdout_of(&["generate", "--count", "4", "--seed", "5", "-q"]);
    let lines: Vec<&str> = good.lines().collect();
    let header = lines[0];
    let row = |k: usize| lines[k].to_owned();
    let with_field = |k: usize, field: usize, value: &str| {
        let mut fields: Vec<String> = lines[k].split(',').map(str::to_owned).collect();
        fields[field] = value.to_owned();
        format!("{header}\n{}\n", fields.join(","))
    };
    let puzzle = row(1).split(',').nth(4).unwrap().to_owned();
    let mut conflicting = puzzle.clone().into_bytes();
    let first_clue = conflicting.iter().position(|&b| b != b'.').unwrap();
    let twin = (0..9)
        .find(|&c| c != first_clue % 9 && conflicting[first_clue / 9 * 9 + c] == b'.')
        .unwrap();
    conflicting[first_clue / 9 * 9 + twin] = conflicting[first_clue];
    let conflicting = String::from_utf8(conflicting).unwrap();
    let mut huge = format!("{header}\n").into_bytes();
    huge.extend(vec![b'7'; 2 << 20]);
    huge.push(b'\n');
    let sixteen = stdout_of(&[
        "generate", "--size", "16", "--count", "1", "--seed", "1", "-q",
    ]);

    let cases = [
        hostile("", "verify", 2, "is empty"),
        hostile("\u{feff}", "verify", 2, "is empty"),
        hostile("a,b\n1,2\n", "verify", 2, "has no \"id\" column"),
        hostile(
            format!("{header},puzzle\n{}\n", row(1)),
            "verify",
            2,
            "column \"puzzle\" appears twice",
        ),
        hostile(
            with_field(1, 4, &puzzle[..80]),
            "verify",
            1,
            "row 1: puzzle: expected 81 cells, found 80",
        ),
        hostile(
            with_field(1, 4, &format!("{}x", &puzzle[..80])),
            "verify",
            1,
            "row 1: puzzle: column 81: unexpected character 'x'",
        ),
        hostile(
            with_field(1, 1, "8"),
            "verify",
            1,
            "size \"8\" is not 4, 9, 16 or 25",
        ),
        hostile(
            format!("{good}{}", sixteen.lines().nth(1).unwrap()),
            "verify",
            1,
            "row 5: size 16 differs from the first row's 9",
        ),
        hostile(
            with_field(1, 4, &conflicting),
            "verify",
            1,
            "clues conflict",
        ),
        hostile(
            format!("{header}\n{}\nshort,row\n", row(1)),
            "verify",
            1,
            "row 2: line 3: has 2 fields, the header 8",
        ),
        hostile(
            [format!("{header}\n").as_bytes(), b"\xff\xfe,9\n"].concat(),
            "verify",
            1,
            "row 1: line 2: field 1 is not UTF-8 text",
        ),
        hostile(
            huge.clone(),
            "verify",
            2,
            "line 2 is longer than 1048576 bytes",
        ),
        hostile(good.replace('\n', "\r\n"), "verify", 0, ""),
        hostile(format!("\u{feff}{good}"), "verify", 0, ""),
        hostile(
            format!("{}x\n", &puzzle[..80]),
            "solve",
            2,
            "line 1: column 81: unexpected character 'x'",
        ),
        hostile("123\n", "solve", 2, "line 1: 3 cells is not a grid size"),
        hostile(
            b"12\xff4\n".to_vec(),
            "solve",
            2,
            "line 1: column 3: not UTF-8 text",
        ),
        hostile(
            vec![b'.'; 3 << 20],
            "solve",
            2,
            "line 1 is longer than 1048576 bytes",
        ),
        hostile(format!("\u{feff}{puzzle}\r\n"), "solve", 0, ""),
        hostile(format!("{conflicting}\n"), "solve", 0, ""),
        hostile(huge, "append", 2, "line 2 is longer than 1048576 bytes"),
        hostile(
            with_field(1, 4, &puzzle[..80]),
            "append",
            2,
            "line 2: puzzle: expected 81 cells",
        ),
        hostile(
            with_field(1, 1, "16"),
            "append",
            2,
            "line 2: size \"16\", the bank's is 9",
        ),
        hostile(
            format!("{header},extra\n"),
            "append",
            2,
            "the header is not the one generate writes",
        ),
    ];
    let dir = tempfile::tempdir().unwrap();
    let manifest_of_good = {
        let path = dir.path().join("good.csv");
        bank()
            .args([
                "generate",
                "--count",
                "1",
                "--seed",
                "5",
                "-q",
                "-o",
                path_str(&path),
            ])
            .assert()
            .success();
        fs::read(dir.path().join("good.csv.json")).unwrap()
    };
    for (k, case) in cases.iter().enumerate() {
        let path = dir.path().join(format!("case{k}.csv"));
        fs::write(&path, &case.bytes).unwrap();
        let args: Vec<&str> = match case.command {
            "append" => {
                fs::write(
                    dir.path().join(format!("case{k}.csv.json")),
                    &manifest_of_good,
                )
                .unwrap();
                vec![
                    "generate",
                    "--append",
                    path_str(&path),
                    "--count",
                    "1",
                    "-q",
                ]
            }
            command => vec![command, path_str(&path)],
        };
        let out = bank().args(&args).output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(case.code),
            "case {k}: {stdout}{stderr}"
        );
        assert!(!stderr.contains("panicked"), "case {k}: {stderr}");
        let said = if case.code == 1 { &stdout } else { &stderr };
        assert!(said.contains(case.says), "case {k}: {stdout}{stderr}");
        if case.code == 2 {
            assert_eq!(stderr.lines().count(), 1, "case {k}: {stderr}");
            assert!(stderr.starts_with("sudoku-bank: "), "case {k}: {stderr}");
        }
        if case.command == "append" {
            assert_eq!(
                fs::read(&path).unwrap(),
                case.bytes,
                "case {k}: the bank changed"
            );
        }
    }
}

/// Runs the bank reader and every row check on `bytes`: errors and bad rows are fine, a
/// panic is not; every bad row is one line of the report.
fn read_as_bank(bytes: &[u8]) {
    let Ok(reader) = BankReader::new("prop", LineLimit::new(bytes)) else {
        return;
    };
    let mut report = Vec::new();
    if let Ok((rows, bad)) = check_bank(reader, None, &mut report) {
        assert!(bad <= rows);
        assert_eq!(report.iter().filter(|&&b| b == b'\n').count() as u64, bad);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_text_parses_or_is_refused(text in "[0-9a-zA-Z.\\s\u{feff}é]{0,700}") {
        fn round_trip<S: sudoku_bank::Shape>(text: &str) {
            if let Ok(grid) = Grid::<S>::parse(text) {
                assert_eq!(Grid::<S>::parse(&grid.to_string()), Ok(grid));
            }
        }
        round_trip::<Four>(&text);
        round_trip::<Nine>(&text);
        round_trip::<Sixteen>(&text);
        round_trip::<TwentyFive>(&text);
    }

    #[test]
    fn any_bytes_read_as_a_bank_without_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2000)) {
        read_as_bank(&bytes);
    }

    #[test]
    fn damaged_banks_are_reported_without_panic(
        flips in proptest::collection::vec((0usize..1_000_000, any::<u8>()), 1..8),
        cut in 0usize..1_000_000,
    ) {
        let mut bytes = small_bank().into_bytes();
        for (at, byte) in flips {
            let at = at % bytes.len();
            bytes[at] = byte;
        }
        bytes.truncate(bytes.len() - cut % 64);
        read_as_bank(&bytes);
    }
}

/// A few rows of every size, made once.
fn small_bank() -> String {
    use std::sync::OnceLock;
    static BANK: OnceLock<String> = OnceLock::new();
    BANK.get_or_init(|| {
        let mut text = stdout_of(&[
            "generate", "--size", "4", "--count", "3", "--seed", "2", "-q",
        ]);
        for size in ["9", "16"] {
            let more = stdout_of(&[
                "generate", "--size", size, "--count", "1", "--seed", "2", "-q",
            ]);
            text.push_str(more.lines().nth(1).unwrap());
            text.push('\n');
        }
        text
    })
    .clone()
}
