//! verify and reproduce: minimal banks, damaged rows and provenance.

use std::fs;

use predicates::str::contains;

use sudoku_bank::{Engine, Grid, Nine, Solver};

use crate::util::{bank, rows, stdout_of};

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
pub(super) fn verify_edited(csv: &str, edit: impl Fn(&mut Vec<String>)) -> (i32, String) {
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
fn summaries_count_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one.csv");
    let one = one.to_str().unwrap();
    bank()
        .args(["generate", "--count", "1", "--seed", "1", "-q", "-o", one])
        .assert()
        .success();
    bank()
        .args(["verify", one])
        .assert()
        .success()
        .stderr(format!("sudoku-bank: {one}: 1 row checked, 0 bad\n"));
    bank()
        .args(["generate", "--append", one, "--count", "1", "--seed", "2"])
        .assert()
        .success()
        .stderr(contains(format!(
            "sudoku-bank: appending 1 puzzle to {one} (1 there already)\n"
        )));
    bank()
        .args(["generate", "--resume", one])
        .assert()
        .success()
        .stderr(format!(
            "sudoku-bank: {one} is complete (1 puzzle): nothing to resume; raise --count to \
             extend its batch, or --append a new one\n"
        ));
}
