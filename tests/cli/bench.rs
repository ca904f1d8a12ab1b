//! bench: the engine on a file, JSON, the fill alone.

use std::fs;

use predicates::prelude::*;
use predicates::str::contains;

use crate::util::{bank, cmd, stdout_of};

#[test]
fn bench_times_the_engine_on_a_file() {
    // Two unique puzzles, one with two solutions and one with none, and a comment.
    let cases = include_str!("../../data/solve_cases.txt");
    let puzzles: Vec<(&str, &str)> = cases
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut parts = l.split(':');
            (parts.next().unwrap(), parts.next().unwrap())
        })
        .filter(|(p, _)| p.len() == 81)
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("puzzles.txt");
    let text: String = puzzles.iter().map(|(p, _)| format!("{p}\n")).collect();
    fs::write(&file, format!("# a comment\n\n{text}")).unwrap();
    let json = stdout_of(&[
        "bench",
        "--solve",
        file.to_str().unwrap(),
        "--passes",
        "2",
        "--json",
    ]);
    let rows: serde_json::Value = serde_json::from_str(&json).unwrap();
    let row = &rows.as_array().unwrap()[0];
    assert_eq!(row["puzzles"], puzzles.len());
    assert_eq!(row["passes"], 2);
    assert_eq!(row["size"], 9);
    assert!(row["us_per_puzzle"].as_f64().unwrap() > 0.0);
    let expected: Vec<usize> = ["0", "1", "2"]
        .iter()
        .map(|k| puzzles.iter().filter(|(_, count)| count == k).count())
        .collect();
    assert_eq!(row["solutions"], serde_json::json!(expected));
    // A malformed line is named, with exit 2.
    fs::write(&file, format!("{text}12345\n")).unwrap();
    bank()
        .args(["bench", "--solve", file.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(contains(format!("line {}", puzzles.len() + 1)));
    // So is a CSV file, with the way to take a bank's puzzles out of it.
    fs::write(&file, format!("id,size,puzzle\n{text}")).unwrap();
    bank()
        .args(["bench", "--solve", file.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(contains("line 1: a CSV row, not a puzzle").and(contains("cut -d, -f5")));

    // The rater alone: the first graded puzzles, counted by level.
    let graded = fs::read_to_string(crate::util::shared_data("se_rated_qqwing.txt")).unwrap();
    // Every `step`th graded puzzle, up to `count` of them, one per line in `file`.
    let write_sample = |step: usize, count: usize| {
        let sample: String = graded
            .lines()
            .step_by(step)
            .take(count)
            .map(|l| format!("{}\n", &l[..81]))
            .collect();
        fs::write(&file, sample).unwrap();
    };
    write_sample(1, 20);
    let json = stdout_of(&["bench", "--rate", file.to_str().unwrap(), "--json"]);
    let rows: serde_json::Value = serde_json::from_str(&json).unwrap();
    let row = &rows.as_array().unwrap()[0];
    assert_eq!(row["task"], "rate");
    let levels: Vec<u64> = row["levels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap())
        .collect();
    assert_eq!(levels.iter().sum::<u64>(), 20);
    assert!(row.get("solutions").is_none());
    // With a level, the banded rating generate uses: it keeps the puzzles of that level.
    write_sample(4, 300);
    for (k, level) in ["easy", "medium", "hard", "diabolical"]
        .into_iter()
        .enumerate()
    {
        let json = stdout_of(&[
            "bench",
            "--rate",
            file.to_str().unwrap(),
            "--difficulty",
            level,
            "--passes",
            "1",
            "--json",
        ]);
        let rows: serde_json::Value = serde_json::from_str(&json).unwrap();
        let row = &rows.as_array().unwrap()[0];
        assert_eq!(row["band"], level);
        let of_level = &row["levels"][k];
        assert!(
            of_level.as_u64().unwrap() > 0,
            "no {level} puzzle in the sample"
        );
        assert_eq!(&row["kept"], of_level, "{level}");
    }
    bank()
        .args(["bench", "--solve", "x", "--difficulty", "hard"])
        .assert()
        .code(2)
        .stderr(contains("cannot be used with"));
    bank()
        .args(["bench", "--rate", "x", "--solve", "y"])
        .assert()
        .code(2);
}

#[test]
fn bench_prints_json() {
    let json = stdout_of(&[
        "bench",
        "--json",
        "--size",
        "9,4",
        "--threads",
        "1,2",
        "--count",
        "50",
    ]);
    let rows: serde_json::Value = serde_json::from_str(&json).unwrap();
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 4);
    for row in rows {
        for key in [
            "size",
            "holes",
            "threads",
            "seconds",
            "grids_per_sec",
            "puzzles_per_sec",
        ] {
            assert!(row.get(key).is_some(), "{key} missing from {row}");
        }
        assert_eq!(row["puzzles"], 50);
        assert!(row["us_per_puzzle_thread"].as_f64().unwrap() > 0.0);
        assert!(row["speedup"].as_f64().unwrap() > 0.0);
        // Linux reports the process's peak resident memory; a bench holds a few MiB.
        if cfg!(target_os = "linux") {
            let peak = row["peak_memory_bytes"].as_u64().expect("a peak on Linux");
            assert!((1 << 20..1 << 30).contains(&peak), "{peak} bytes");
        }
    }
    let table = stdout_of(&["bench", "--holes", "0", "--threads", "1", "--count", "100"]);
    assert!(
        table.contains("puzzles/s") && table.contains("9×9") && table.contains("peak MiB"),
        "{table}"
    );
    // A measurement that makes no puzzle (one 25×25 dig to 550 holes takes far longer than
    // this) has no time per puzzle and no speed-up: null, `-` in the table, and a reason.
    let none = bank()
        .args(cmd(
            "bench --size 25 --holes 550 --threads 1,2 --seconds 0.2 --json",
        ))
        .output()
        .unwrap();
    assert!(none.status.success());
    let rows: serde_json::Value = serde_json::from_slice(&none.stdout).unwrap();
    for row in rows.as_array().unwrap() {
        assert_eq!(row["puzzles"], 0, "{row}");
        assert!(row["us_per_puzzle_thread"].is_null(), "{row}");
        assert!(row["speedup"].is_null(), "{row}");
    }
    let stderr = String::from_utf8(none.stderr).unwrap();
    assert!(
        stderr.starts_with("sudoku-bank: 25×25, 550 holes, 1 thread: no puzzle within"),
        "{stderr}"
    );
    let table = stdout_of(&cmd(
        "bench --size 25 --holes 550 --threads 1 --seconds 0.2",
    ));
    let row: Vec<&str> = table.lines().nth(1).unwrap().split_whitespace().collect();
    assert_eq!((row[8], row[10]), ("-", "-"), "{table}");
}

#[test]
fn bench_times_the_fill_alone() {
    let json = stdout_of(&[
        "bench", "--fill", "--size", "4,9,16", "--count", "300", "--json",
    ]);
    let rows: serde_json::Value = serde_json::from_str(&json).unwrap();
    let rows = rows.as_array().unwrap();
    let sizes: Vec<_> = rows
        .iter()
        .map(|row| row["size"].as_u64().unwrap())
        .collect();
    assert_eq!(sizes, [4, 9, 16]);
    for row in rows {
        assert_eq!(row["grids"], 300);
        let (rate, ns) = (
            row["grids_per_sec"].as_f64().unwrap(),
            row["ns_per_grid"].as_f64().unwrap(),
        );
        assert!(rate > 0.0 && (rate * ns / 1e9 - 1.0).abs() < 1e-6, "{row}");
    }
    let table = stdout_of(&["bench", "--fill", "--seconds", "0.1"]);
    assert!(
        table.contains("ns/grid") && table.contains("9×9"),
        "{table}"
    );
    // The fill alone has no holes, pattern, band, threads or dedup to choose.
    for other in [
        &["--holes", "0"][..],
        &["--symmetry", "rot180"],
        &["--difficulty", "easy"],
        &["--threads", "2"],
        &["--dedup", "none"],
        &["--solve", "x"],
    ] {
        bank()
            .args(["bench", "--fill"])
            .args(other)
            .assert()
            .code(2)
            .stderr(contains("cannot be used with"));
    }
}
