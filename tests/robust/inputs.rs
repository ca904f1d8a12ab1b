//! Every reader survives what it is fed: malformed files and lines, arbitrary and damaged
//! banks, grid text.

use std::fs;

use proptest::prelude::*;
use sudoku_bank::bank::BankReader;
use sudoku_bank::commands::check_bank;
use sudoku_bank::input::LineLimit;
use sudoku_bank::manifest::RowsDedup;
use sudoku_bank::{Four, Grid, Nine, Sixteen, TwentyFive};

use super::path_str;
use crate::util::{bank, stdout_of};

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

#[test]
#[cfg(unix)]
fn file_names_need_not_be_text() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;

    // A file name is any bytes but `/` and NUL: 0xFF alone is not UTF-8.
    let dir = tempfile::tempdir().unwrap();
    let name = OsStr::from_bytes(b"bank-\xff.csv");
    let merged = OsStr::from_bytes(b"merged-\xfe.csv");
    let run = |args: &[&OsStr]| {
        let out = bank().current_dir(dir.path()).args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
    };
    let words = |line: &'static str| line.split_whitespace().map(OsStr::new).collect::<Vec<_>>();
    run(&[
        words("generate -q --count 3 --seed 1 -o").as_slice(),
        &[name],
    ]
    .concat());
    run(&[
        words("generate -q --append").as_slice(),
        &[name],
        &words("--count 2"),
    ]
    .concat());
    run(&[words("verify --provenance").as_slice(), &[name]].concat());
    run(&[
        words("merge -q").as_slice(),
        &[name, OsStr::new("-o"), merged],
    ]
    .concat());
    // The manifests write such a name with U+FFFD where its bytes are not text.
    let manifest =
        fs::read_to_string(dir.path().join(OsStr::from_bytes(b"merged-\xfe.csv.json"))).unwrap();
    assert!(manifest.contains("\"bank-\u{fffd}.csv\""), "{manifest}");
    assert!(manifest.contains("\"merged-\u{fffd}.csv\""), "{manifest}");
}

/// Runs the bank reader and every row check on `bytes`: errors and bad rows are fine, a
/// panic is not; every bad row is one line of the report.
fn read_as_bank(bytes: &[u8]) {
    let Ok(reader) = BankReader::new("prop", LineLimit::new(bytes)) else {
        return;
    };
    let mut report = Vec::new();
    if let Ok((rows, bad)) = check_bank(reader, None, &RowsDedup::Unknown, &mut report) {
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
