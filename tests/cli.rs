//! The binary, end to end.

use std::fs;

use predicates::prelude::*;
use predicates::str::contains;

use sudoku_bank::{Engine, Grid, Nine, Solver};

use crate::util::{bank, rows, stdout_of};

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
    // So is a statistics file there, before any row is made.
    bank()
        .args(["generate", "--count", "3", "--stats-json", "/nonexistent/dir/s.json"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(
            "sudoku-bank: cannot create /nonexistent/dir/s.json: No such file or directory (os error 2)\n",
        );
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
    // A band the size never reaches: the shortfall names the band, not only the holes.
    let band = "generate --size 4 --holes 10 --difficulty hard --count 1 --max-attempts 20";
    bank()
        .args(band.split(' '))
        .args(["--seed", "3", "-q"])
        .assert()
        .code(1)
        .stderr(
            contains("within 20 attempts")
                .and(contains("missed 10 holes or the band (rating 2.5 to 4.9)"))
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
fn minimal_banks_verify_and_reproduce() {
    let dir = tempfile::tempdir().unwrap();
    // 16×16 exact digs give up costly removal tests and minimal digs do not, so there a
    // minimal row regenerates as a minimal dig, not always as the exact dig of its holes.
    for (size, count) in [("4", "5"), ("9", "30"), ("16", "4")] {
        let out = dir.path().join(format!("minimal{size}.csv"));
        bank()
            .args([
                "generate", "--size", size, "--holes", "minimal", "--count", count,
            ])
            .args(["--seed", "8", "-q", "-o", out.to_str().unwrap()])
            .assert()
            .success();
        let csv = fs::read_to_string(&out).unwrap();
        let rows = rows(&csv);
        assert_eq!(rows.len(), count.parse::<usize>().unwrap());
        // Hole counts vary from puzzle to puzzle on 9×9.
        if size == "9" {
            assert!(rows.iter().any(|r| r[2] != rows[0][2]), "{csv}");
        }
        bank()
            .args(["verify", "--provenance", out.to_str().unwrap()])
            .assert()
            .success();
        let manifest = fs::read_to_string(dir.path().join(format!("minimal{size}.csv.json")));
        assert!(manifest.unwrap().contains(r#""holes": "minimal""#));
        let last = csv.lines().last().unwrap();
        let index = last.rsplit(',').next().unwrap();
        let row = stdout_of(&[
            "reproduce",
            "--size",
            size,
            "--holes",
            "minimal",
            "--seed",
            "8",
            "--index",
            index,
        ]);
        assert_eq!(row.lines().nth(1), Some(last));
    }
    bank()
        .args(["generate", "--holes", "most"])
        .assert()
        .code(2)
        .stderr(contains("\"most\" is not a hole target"));
}

#[test]
fn reproduce_prints_the_generated_row() {
    let csv = stdout_of(&[
        "generate", "--count", "20", "--seed", "99", "--holes", "45", "-q",
    ]);
    let line = csv.lines().nth(13).unwrap();
    let index = line.rsplit(',').next().unwrap();
    let row = stdout_of(&[
        "reproduce",
        "--seed",
        "99",
        "--index",
        index,
        "--holes",
        "45",
    ]);
    assert_eq!(row, format!("{}\n{line}\n", csv.lines().next().unwrap()));
    // An attempt that cannot reach its target says so and exits 1.
    let mut generator =
        sudoku_bank::Generator::<sudoku_bank::Nine>::new(sudoku_bank::Holes::Exact(64));
    let failing = (0..20)
        .find(|&i| generator.attempt(1, i, &mut Default::default()).is_none())
        .expect("most 9×9 attempts miss 64 holes (17 clues)");
    bank()
        .args(["reproduce", "--seed", "1", "--holes", "64"])
        .args(["--index", &failing.to_string()])
        .assert()
        .code(1)
        .stdout("")
        .stderr(contains("yields no puzzle with 64 holes"));
}

/// Writes `csv` with one row changed by `edit` and returns what `verify` says.
fn verify_edited(csv: &str, edit: impl Fn(&mut Vec<String>)) -> (i32, String) {
    verify_edited_with(csv, &[], edit)
}

/// [`verify_edited`], with `args` (`--provenance`, say) given to `verify` too.
fn verify_edited_with(csv: &str, args: &[&str], edit: impl Fn(&mut Vec<String>)) -> (i32, String) {
    let mut lines: Vec<String> = csv.lines().map(str::to_owned).collect();
    edit(&mut lines);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("edited.csv");
    fs::write(&path, lines.join("\n") + "\n").unwrap();
    let out = bank()
        .arg("verify")
        .args(args)
        .arg(path.to_str().unwrap())
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
    )
}

fn set_field(line: &mut String, field: usize, value: &str) {
    let mut fields: Vec<&str> = line.split(',').collect();
    fields[field] = value;
    *line = fields.join(",");
}

#[test]
fn verify_catches_damaged_rows() {
    let csv = stdout_of(&["generate", "--count", "10", "--seed", "8", "-q"]);
    assert_eq!(verify_edited(&csv, |_| {}), (0, String::new()));

    // A changed solution digit.
    let (code, out) = verify_edited(&csv, |lines| {
        let solution = lines[3].split(',').nth(5).unwrap().to_owned();
        let swapped: String = solution
            .chars()
            .enumerate()
            .map(|(i, c)| {
                if i == 0 {
                    if c == '1' { '2' } else { '1' }
                } else {
                    c
                }
            })
            .collect();
        set_field(&mut lines[3], 5, &swapped);
    });
    assert_eq!(code, 1);
    assert!(
        out.starts_with("row 3: solution is not a complete, valid grid"),
        "{out}"
    );

    // A duplicated row (also breaks the ascending index).
    let (code, out) = verify_edited(&csv, |lines| {
        let copy = lines[2].clone();
        lines.insert(3, copy);
    });
    assert_eq!(code, 1);
    assert!(
        out.contains("row 3:") && out.contains("duplicate of row 2"),
        "{out}"
    );
    assert!(out.contains("is not above the previous row's"), "{out}");

    // A puzzle with more than one solution: empty a clue the puzzle needs, with holes,
    // clues and id made consistent so only uniqueness fails.
    let (code, out) = verify_edited(&csv, |lines| {
        let fields: Vec<String> = lines[1].split(',').map(str::to_owned).collect();
        let puzzle = &fields[4];
        let mut solver = Solver::<Nine>::new();
        let emptied = (0..81)
            .filter(|&cell| &puzzle[cell..=cell] != ".")
            .map(|cell| {
                let mut emptied = puzzle.clone();
                emptied.replace_range(cell..=cell, ".");
                emptied
            })
            .find(|emptied| solver.count_solutions(&Grid::parse(emptied).unwrap(), 2) == 2)
            .expect("a 50-hole puzzle has a clue it cannot lose");
        set_field(&mut lines[1], 4, &emptied);
        set_field(
            &mut lines[1],
            0,
            &sudoku_bank::hash::puzzle_id_hex(&emptied),
        );
        set_field(&mut lines[1], 2, "51");
        set_field(&mut lines[1], 3, "30");
    });
    assert_eq!(code, 1);
    assert_eq!(out, "row 1: puzzle has more than one solution\n");

    // A wrong holes value.
    let (code, out) = verify_edited(&csv, |lines| set_field(&mut lines[5], 2, "49"));
    assert_eq!(
        (code, out.as_str()),
        (1, "row 5: holes column says \"49\", the puzzle has 50\n")
    );

    // A malformed line.
    let (code, out) = verify_edited(&csv, |lines| lines[7] = "not,a,row".to_owned());
    assert_eq!(code, 1);
    assert!(out.starts_with("row 7: "), "{out}");
    let (code, out) = verify_edited(&csv, |lines| {
        let fields: Vec<&str> = lines[4].split(',').collect();
        let bad = format!("{}x", &fields[4][..80]);
        set_field(&mut lines[4], 4, &bad);
    });
    assert_eq!(code, 1);
    assert!(
        out.contains("row 4: puzzle: column 81: unexpected character 'x'"),
        "{out}"
    );
}

#[test]
fn verify_catches_damaged_provenance_columns() {
    // Columns: id,size,holes,clues,puzzle,solution,seed,index,symmetry,rating,level.
    let csv = stdout_of(&[
        "generate",
        "--count",
        "4",
        "--seed",
        "8",
        "--holes",
        "50",
        "--difficulty",
        "medium",
        "--symmetry",
        "rot180",
        "-q",
    ]);
    let provenance = ["--provenance"];
    assert_eq!(
        verify_edited_with(&csv, &provenance, |_| {}),
        (0, String::new())
    );
    let only = |edit: &dyn Fn(&mut Vec<String>)| verify_edited_with(&csv, &provenance, edit);

    let (code, out) = only(&|lines| set_field(&mut lines[2], 7, "two"));
    assert_eq!(
        (code, out.as_str()),
        (1, "row 2: index \"two\" is not a whole number\n")
    );
    let (code, out) = only(&|lines| set_field(&mut lines[2], 8, "spiral"));
    assert_eq!(code, 1);
    assert!(
        out.starts_with("row 2: symmetry \"spiral\" is not a pattern"),
        "{out}"
    );
    let (code, out) = only(&|lines| set_field(&mut lines[3], 9, "9.9"));
    assert_eq!(code, 1);
    assert!(
        out.starts_with("row 3: rating \"9.9\" and level \"medium\" are not the puzzle's ("),
        "{out}"
    );
    // Another seed's attempt gives another puzzle.
    let (code, out) = only(&|lines| set_field(&mut lines[4], 6, "9"));
    assert_eq!(
        (code, out.as_str()),
        (1, "row 4: does not regenerate from seed 9 index 3\n")
    );
}

#[test]
fn verify_refuses_what_is_not_a_bank() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.csv");
    fs::write(&path, "a,b\n1,2\n").unwrap();
    bank()
        .args(["verify", path.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(contains("is not a bank"));
    bank()
        .args(["verify", "/nonexistent.csv"])
        .assert()
        .code(2)
        .stderr(contains("cannot read"));
}

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
fn bench_times_the_engine_on_a_file() {
    // Two unique puzzles, one with two solutions and one with none, and a comment.
    let cases = include_str!("../data/solve_cases.txt");
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

#[test]
fn symmetric_banks_verify_and_reproduce() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("4", "8", "dihedral"),
        ("9", "49", "rot90"),
        ("9", "50", "random"),
        ("9", "minimal", "mirror"),
        ("16", "120", "rot180"),
        ("25", "200", "antidiagonal"),
        // Deep targets, which digs reach by swaps of orbits.
        ("9", "58", "rot180"),
        ("9", "56", "rot90"),
        ("16", "160", "rot180"),
        ("25", "320", "rot180"),
    ];
    for (size, holes, symmetry) in cases {
        let path = dir.path().join(format!("{size}-{symmetry}-{holes}.csv"));
        let path = path.to_str().unwrap();
        bank()
            .args([
                "generate",
                "--size",
                size,
                "--holes",
                holes,
                "--symmetry",
                symmetry,
                "--count",
                "4",
                "--seed",
                "3",
                "-q",
                "-o",
                path,
            ])
            .assert()
            .success();
        let text = fs::read_to_string(path).unwrap();
        assert!(text.starts_with("id,size,holes,clues,puzzle,solution,seed,index,symmetry\n"));
        for row in rows(&text) {
            if symmetry == "random" {
                assert!(!["none", "random"].contains(&row[8].as_str()), "{row:?}");
            } else {
                assert_eq!(row[8], symmetry);
            }
            // The row comes back from its seed and index, and with the pattern it names.
            let expected = format!("{}\n{}\n", text.lines().next().unwrap(), row.join(","));
            let holes = row[2].as_str();
            for asked in [symmetry, row[8].as_str()] {
                let args = [
                    "reproduce",
                    "--seed",
                    "3",
                    "--index",
                    &row[7],
                    "--size",
                    size,
                    "--holes",
                    holes,
                    "--symmetry",
                    asked,
                ];
                if holes.parse::<usize>().is_ok_and(|h| {
                    sudoku_bank::config::Generation::new(
                        sudoku_bank::Size::from_n(size.parse().unwrap()).unwrap(),
                        Some(sudoku_bank::Holes::Exact(h)),
                    )
                    .unwrap()
                    .with_symmetry(asked.parse().unwrap())
                    .is_ok()
                }) {
                    assert_eq!(stdout_of(&args), expected, "{args:?}");
                }
            }
        }
        bank()
            .args(["verify", "--provenance", "-q", path])
            .assert()
            .success()
            .stdout("");
    }

    // A target no pattern of the symmetry has, and a pattern that is not what it says.
    bank()
        .args(["generate", "--symmetry", "rot90", "--holes", "50"])
        .assert()
        .code(2)
        .stderr(contains("nearest reachable counts are 49 or 52"));
    let text = stdout_of(&[
        "generate",
        "--symmetry",
        "rot180",
        "--holes",
        "50",
        "--count",
        "3",
        "--seed",
        "2",
        "-q",
    ]);
    let (code, out) = verify_edited(&text, |lines| {
        lines[2] = lines[2].replace(",rot180", ",rot90");
    });
    assert_eq!(code, 1);
    assert_eq!(out, "row 2: the clue pattern is not rot90\n");

    // Batches appended to a symmetric bank keep its symmetry column.
    let path = dir.path().join("9-rot90-49.csv");
    let path = path.to_str().unwrap();
    bank()
        .args([
            "generate",
            "--append",
            path,
            "--count",
            "3",
            "--symmetry",
            "none",
        ])
        .assert()
        .code(2)
        .stderr(contains("would change the bank's columns"));
    bank()
        .args([
            "generate",
            "--append",
            path,
            "--count",
            "3",
            "--symmetry",
            "dihedral",
            "--holes",
            "45",
            "-q",
        ])
        .assert()
        .success();
    let text = fs::read_to_string(path).unwrap();
    assert_eq!(rows(&text).len(), 7);
    assert!(text.ends_with(",dihedral\n"));
    bank()
        .args(["verify", "--provenance", "-q", path])
        .assert()
        .success();
}

/// A hard bank's walks rate puzzles in a rhythm of the band's own, so its rows regenerate
/// only with that band: from the manifest, and without one from the row's level; and a
/// bank by a rating range of its own, through its manifest, with or without a symmetry,
/// and merged with another, through the merged bank's manifest.
#[test]
fn rated_banks_regenerate_with_their_band() {
    let dir = tempfile::tempdir().unwrap();
    for (name, args) in [
        ("hard", vec!["--difficulty", "hard"]),
        (
            "rot180",
            vec!["--difficulty", "hard", "--symmetry", "rot180"],
        ),
        ("range", vec!["--min-rating", "2.5", "--max-rating", "3.0"]),
    ] {
        let path = dir.path().join(format!("{name}.csv"));
        let path = path.to_str().unwrap();
        bank()
            .args([
                "generate", "--holes", "54", "--count", "20", "--seed", "3", "-q",
            ])
            .args(&args)
            .args(["-o", path])
            .assert()
            .success();
        bank()
            .args(["verify", "--provenance", "-q", path])
            .assert()
            .success()
            .stdout("");
        if name != "range" {
            // Without its manifest.
            let bare = dir.path().join(format!("{name}-bare.csv"));
            fs::copy(path, &bare).unwrap();
            bank()
                .args(["verify", "--provenance", "-q", bare.to_str().unwrap()])
                .assert()
                .success()
                .stdout("");
        }
    }
    let [range, other, merged] = ["range", "other", "merged"].map(|name| {
        dir.path()
            .join(format!("{name}.csv"))
            .to_str()
            .unwrap()
            .to_owned()
    });
    bank()
        .args([
            "generate", "--holes", "54", "--count", "20", "--seed", "4", "-q",
        ])
        .args(["--min-rating", "2.5", "--max-rating", "3.0", "-o", &other])
        .assert()
        .success();
    bank()
        .args(["merge", "-q", &range, &other, "-o", &merged])
        .assert()
        .success();
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(format!("{merged}.json")).unwrap()).unwrap();
    assert_eq!(
        manifest["bands"],
        serde_json::json!([
            {"seed": 3, "min_tenths": 25, "max_tenths": 30},
            {"seed": 4, "min_tenths": 25, "max_tenths": 30},
        ])
    );
    bank()
        .args(["verify", "--provenance", "-q", &merged])
        .assert()
        .success()
        .stdout("");
}

#[test]
fn rate_grades_puzzles() {
    // The first graded puzzles of the shared set: our rating and qqwing level are theirs.
    let graded = fs::read_to_string(crate::util::shared_data("se_rated_qqwing.txt")).unwrap();
    let lines: Vec<&str> = graded.lines().take(5).collect();
    let input: String = lines.iter().map(|l| format!("{}\n", &l[..81])).collect();
    let out = bank().arg("rate").write_stdin(input).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let mut rows = text.lines();
    assert_eq!(
        rows.next(),
        Some("puzzle,rating,level,qqwing_level,hardest_technique,steps")
    );
    for (line, row) in lines.iter().zip(rows) {
        let theirs: Vec<&str> = line.split(' ').collect();
        let ours: Vec<&str> = row.split(',').collect();
        assert_eq!(
            (ours[0], ours[1], ours[3]),
            (theirs[0], theirs[1], theirs[4]),
            "{row}"
        );
    }

    // A bank's puzzle column, and puzzles that cannot be rated.
    let csv = stdout_of(&["generate", "--count", "3", "--seed", "1", "-q"]);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bank.csv");
    fs::write(&path, &csv).unwrap();
    let rated = stdout_of(&["rate", "--column", "puzzle", path.to_str().unwrap()]);
    assert_eq!(rated.lines().count(), 4);
    let empty = ".".repeat(81);
    let clash = format!("55{}", ".".repeat(79));
    for (puzzle, says) in [
        (
            empty.as_str(),
            "line 2: the puzzle has more than one solution",
        ),
        (
            clash.as_str(),
            "line 2: clues conflict: 5 twice in row 1 (r1c1 and r1c2)",
        ),
    ] {
        bank()
            .arg("rate")
            .write_stdin(format!("# header comment\n{puzzle}\n"))
            .assert()
            .code(2)
            .stderr(contains(says));
    }
}

/// `rate` writes the same bytes on any number of threads: every row in input order, and on
/// a puzzle it cannot rate or a line it cannot read, the rows before it and the same error.
#[test]
fn rate_gives_the_same_output_on_any_thread_count() {
    let graded = fs::read_to_string(crate::util::shared_data("se_rated_qqwing.txt")).unwrap();
    let puzzles: Vec<&str> = graded.lines().take(300).map(|l| &l[..81]).collect();
    let clean = puzzles.join("\n").into_bytes();
    // Line 200 has no single solution; line 250 is not UTF-8.
    let mut ambiguous = puzzles.clone();
    let empty = ".".repeat(81);
    ambiguous[199] = &empty;
    let ambiguous = ambiguous.join("\n").into_bytes();
    let mut unreadable = puzzles[..249].join("\n").into_bytes();
    unreadable.extend_from_slice(b"\n\xff\n");
    unreadable.extend_from_slice(puzzles[250..].join("\n").as_bytes());
    // Each input, its exit code, the rows before its error (all when none) and the error.
    for (input, code, rated, error) in [
        (&clean, 0, 300, None),
        (
            &ambiguous,
            2,
            199,
            Some("line 200: the puzzle has more than one solution"),
        ),
        (
            &unreadable,
            2,
            249,
            Some("line 250: column 1: not UTF-8 text"),
        ),
    ] {
        let outputs: Vec<_> = ["1", "2", "3"]
            .iter()
            .map(|threads| {
                bank()
                    .args(["rate", "--threads", threads])
                    .write_stdin(input.clone())
                    .output()
                    .unwrap()
            })
            .collect();
        for out in &outputs {
            assert_eq!(out.status.code(), Some(code));
            assert_eq!(out.stdout, outputs[0].stdout);
            // The header and a row per puzzle rated.
            assert_eq!(
                String::from_utf8_lossy(&out.stdout).lines().count(),
                1 + rated
            );
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(error.is_none_or(|e| stderr.contains(e)), "{stderr}");
        }
    }
}

#[test]
fn difficulty_banks_keep_their_band() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("medium.csv");
    let path = path.to_str().unwrap();
    bank()
        .args([
            "generate",
            "--difficulty",
            "medium",
            "--holes",
            "50",
            "--count",
            "5",
            "--seed",
            "3",
            "-q",
            "-o",
            path,
        ])
        .assert()
        .success();
    let text = fs::read_to_string(path).unwrap();
    assert!(text.starts_with("id,size,holes,clues,puzzle,solution,seed,index,rating,level\n"));
    for row in rows(&text) {
        let rating: f64 = row[8].parse().unwrap();
        assert!((1.5..2.5).contains(&rating), "{row:?}");
        assert_eq!(row[9], "medium");
        // `rate` agrees, and the row comes back from its seed and index.
        let rated = bank()
            .arg("rate")
            .write_stdin(format!("{}\n", row[4]))
            .output()
            .unwrap();
        let rated = String::from_utf8(rated.stdout).unwrap();
        assert!(
            rated
                .lines()
                .nth(1)
                .unwrap()
                .starts_with(&format!("{},{},medium,", row[4], row[8]))
        );
        let reproduced = stdout_of(&[
            "reproduce",
            "--seed",
            "3",
            "--index",
            &row[7],
            "--holes",
            "50",
            "--difficulty",
            "medium",
        ]);
        assert_eq!(reproduced.lines().nth(1).unwrap(), row.join(","));
    }
    bank()
        .args(["verify", "--provenance", "-q", path])
        .assert()
        .success()
        .stdout("");
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(format!("{path}.json")).unwrap()).unwrap();
    assert_eq!(
        manifest["parameters"]["difficulty"],
        serde_json::json!({"min_tenths": 15, "max_tenths": 24})
    );

    // A band by rating, with a symmetry.
    let ranged = stdout_of(&[
        "generate",
        "--min-rating",
        "2.6",
        "--max-rating",
        "4.4",
        "--holes",
        "54",
        "--symmetry",
        "rot180",
        "--count",
        "3",
        "--seed",
        "5",
        "-q",
    ]);
    for row in rows(&ranged) {
        let rating: f64 = row[9].parse().unwrap();
        assert!((2.6..=4.4).contains(&rating), "{row:?}");
        assert_eq!((row[8].as_str(), row[10].as_str()), ("rot180", "hard"));
    }

    // Refusals, and a rating that is not the puzzle's.
    for (args, says) in [
        (
            vec!["--difficulty", "hard", "--holes", "minimal"],
            "need an exact --holes",
        ),
        (
            vec!["--min-rating", "3", "--max-rating", "2"],
            "--min-rating is above",
        ),
        (
            vec!["--min-rating", "12.1"],
            "above 12.0, the highest rating",
        ),
        (vec!["--max-rating", "0.9"], "below 1.0, the lowest rating"),
        (vec!["--difficulty", "tricky"], "not a level"),
    ] {
        bank()
            .arg("generate")
            .args(args)
            .assert()
            .code(2)
            .stderr(contains(says));
    }
    bank()
        .args(["generate", "--resume", path, "--difficulty", "hard"])
        .assert()
        .code(2)
        .stderr(contains("the difficulty band"));
    let (code, out) = verify_edited(&text, |lines| {
        lines[1] = lines[1].replace(",medium", ",hard");
    });
    assert_eq!(code, 1);
    assert!(out.starts_with("row 1: rating"), "{out}");
}
