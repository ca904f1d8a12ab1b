//! Pinned outputs: a fixed-seed bank's bytes, and puzzles with known solution counts.

use sudoku_bank::hash::puzzle_id_hex;

use crate::util::{bank, stdout_of};

/// Changing the bytes of a fixed-seed bank changes what every user's seed reproduces; if a
/// change here is intended, it needs a new version and a changelog entry.
#[test]
fn fixed_seed_banks_are_pinned() {
    for (size, holes, count, expected) in [
        ("9", "50", "200", "80377f4d433dc23f"),
        ("16", "150", "20", "eb7f34f79bd1d249"),
    ] {
        let csv = stdout_of(&[
            "generate",
            "--size",
            size,
            "--holes",
            holes,
            "--count",
            count,
            "--seed",
            "2026",
            "--threads",
            "2",
            "-q",
        ]);
        assert_eq!(csv.lines().count(), count.parse::<usize>().unwrap() + 1);
        // The stable content hash of the id column, over the whole bank.
        let digest = puzzle_id_hex(&csv);
        assert_eq!(digest, expected, "bank of size {size} changed");
    }
}

#[test]
fn solve_reports_known_counts() {
    let cases = include_str!("../data/solve_cases.txt");
    let lines: Vec<&str> = cases
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let input: String = lines
        .iter()
        .map(|l| format!("{}\n", l.split(':').next().unwrap()))
        .collect();
    let out = bank().arg("solve").write_stdin(input).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let mut rows = text.lines();
    assert_eq!(rows.next(), Some("puzzle,solutions,solution"));
    for (line, row) in lines.iter().zip(rows) {
        let mut want = line.split(':');
        let (puzzle, count, solution) = (want.next().unwrap(), want.next().unwrap(), want.next());
        let got: Vec<&str> = row.split(',').collect();
        assert_eq!(got[0], puzzle);
        assert_eq!(got[1], count, "{puzzle}");
        if let Some(solution) = solution {
            assert_eq!(got[2], solution);
        }
        if count == "0" {
            assert_eq!(got[2], "");
        }
    }
}

#[test]
fn ids_are_stable() {
    assert_eq!(
        puzzle_id_hex(
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
        ),
        "fc22f0b1bc8c9fe6"
    );
}

/// The README's banks by level are what the command it names writes: each row shown is the
/// puzzle, rating and level of `generate --difficulty LEVEL --holes 50 --count 2 --seed 7`.
#[test]
fn readme_banks_by_level_are_current() {
    let is_row = |line: &&str| {
        let fields: Vec<&str> = line.split(',').collect();
        fields.len() == 3 && fields[0].len() == 81 && fields[1].parse::<f64>().is_ok()
    };
    let shown: Vec<&str> = include_str!("../README.md")
        .lines()
        .map(str::trim)
        .filter(is_row)
        .collect();
    let mut made = Vec::new();
    for level in ["easy", "medium", "hard", "diabolical"] {
        let csv = stdout_of(&[
            "generate",
            "--difficulty",
            level,
            "--holes",
            "50",
            "--count",
            "2",
            "--seed",
            "7",
            "-q",
        ]);
        let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
        let column = |name: &str| header.iter().position(|&h| h == name).unwrap();
        let (puzzle, rating, level) = (column("puzzle"), column("rating"), column("level"));
        for row in csv.lines().skip(1) {
            let fields: Vec<&str> = row.split(',').collect();
            made.push(format!(
                "{},{},{}",
                fields[puzzle], fields[rating], fields[level]
            ));
        }
    }
    assert_eq!(shown, made, "README.md \"Banks by level\" is out of date");
}

/// The README's library example is the crate's own (`src/lib.rs`), which `cargo test` runs
/// as a doctest: the two stay the same code.
#[test]
fn readme_library_example_is_the_crate_example() {
    let readme = include_str!("../README.md");
    let start = readme
        .find("```rust\n")
        .expect("README.md shows a Rust example")
        + "```rust\n".len();
    let shown = &readme[start..start + readme[start..].find("```").unwrap()];
    let crate_docs: String = include_str!("../src/lib.rs")
        .lines()
        .filter_map(|line| line.strip_prefix("//!"))
        .map(|line| line.strip_prefix(' ').unwrap_or(line))
        .skip_while(|line| *line != "```")
        .skip(1)
        .take_while(|line| *line != "```")
        .filter(|line| !line.starts_with("# "))
        .map(|line| format!("{line}\n"))
        .collect();
    assert_eq!(
        shown, crate_docs,
        "README.md \"As a library\" is out of date"
    );
}
