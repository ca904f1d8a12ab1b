//! solve, and the readers' input: files, columns, stdin.

use std::fs;

use predicates::prelude::*;
use predicates::str::contains;

use crate::util::{bank, rows, stdout_of};

#[test]
fn solve_reads_lines_and_columns() {
    let csv = stdout_of(&["generate", "--count", "5", "--seed", "12", "-q"]);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bank.csv");
    fs::write(&path, &csv).unwrap();
    let solved = stdout_of(&["solve", "--column", "puzzle", path.to_str().unwrap()]);
    for (row, out) in rows(&csv).iter().zip(rows(&solved)) {
        assert_eq!(out, vec![row[4].clone(), "1".to_owned(), row[5].clone()]);
    }
    bank()
        .args(["solve", "--column", "nope", path.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(contains("no column \"nope\""));
}

#[test]
fn a_dash_reads_stdin() {
    let puzzle =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    for command in ["solve", "rate"] {
        let from_stdin = |args: &[&str]| {
            let out = bank()
                .args(args)
                .write_stdin(format!("{puzzle}\n"))
                .output()
                .unwrap();
            assert!(out.status.success(), "{args:?}");
            out.stdout
        };
        let dashed = from_stdin(&[command, "-"]);
        assert_eq!(dashed, from_stdin(&[command]), "{command} -");
        assert!(String::from_utf8(dashed).unwrap().contains(puzzle));
    }
    let csv = stdout_of(&["generate", "--count", "20", "--seed", "3", "-q"]);
    bank()
        .args(["verify", "-"])
        .write_stdin(csv)
        .assert()
        .success()
        .stderr(contains("stdin: 20 rows checked, 0 bad"));
}

#[test]
fn solve_names_a_malformed_line() {
    let input = "# comment\n\n53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n123\n";
    bank()
        .arg("solve")
        .write_stdin(input)
        .assert()
        .code(2)
        .stderr(contains("stdin: line 4: 3 cells is not a grid size"));
    bank()
        .arg("solve")
        .write_stdin(format!("{}?\n", ".".repeat(80)))
        .assert()
        .code(2)
        .stderr(contains("line 1: column 81: unexpected character '?'"));
    // A bank given without --column: its header is named as CSV, with the way to read it.
    bank()
        .arg("rate")
        .write_stdin("id,size,holes,clues,puzzle,solution,seed,index\n")
        .assert()
        .code(2)
        .stderr(
            contains("stdin: line 1: a CSV row, not a puzzle").and(contains("--column puzzle")),
        );
}
