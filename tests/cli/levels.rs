//! Symmetric and rated banks, and rate.

use std::fs;

use predicates::str::contains;

use super::verify::verify_edited;
use crate::util::{bank, rows, stdout_of};

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
            "needs an exact --holes target, not minimal",
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
        (
            vec!["--size", "4", "--difficulty", "medium"],
            "no 4×4 puzzle is rated within the band (rating 1.5 to 2.4)",
        ),
        (
            vec!["--size", "4", "--min-rating", "1.1", "--max-rating", "1.1"],
            "so each rates 1.0 or 1.2",
        ),
        (
            vec!["--holes", "0", "--min-rating", "2"],
            "no complete grid is rated within the band (rating 2.0 and up)",
        ),
    ] {
        bank()
            .arg("generate")
            .args(args)
            .assert()
            .code(2)
            .stderr(contains(says));
    }
    // `bench` takes the same bands.
    for (args, says) in [
        (
            ["--size", "4", "--difficulty", "medium"],
            "no 4×4 puzzle is rated within",
        ),
        (
            ["--holes", "minimal", "--difficulty", "hard"],
            "needs an exact --holes target, not minimal",
        ),
    ] {
        bank()
            .arg("bench")
            .args(args)
            .args(["--seconds", "1"])
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
