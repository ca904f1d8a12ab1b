//! `verify`: re-check every row of a bank, reporting each bad row.

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Write};
use std::path::Path;

use anyhow::{Context, Result, anyhow};

use super::Exit;
use super::reproduce::regenerate;
use crate::bank::{COLUMNS, Columns};
use crate::config::{Generation, Holes};
use crate::grid::Grid;
use crate::hash::{dedup_key, puzzle_id_hex};
use crate::shape::{Shape, Size};
use crate::solver::{Engine, Solver};

/// Checks the bank at `path`: every row parses, has the right sizes and counts, a valid
/// solution that agrees with its clues and is the puzzle's only one, a matching id, no
/// duplicate puzzle and an index above the previous row's; with `provenance`, that it
/// regenerates from its seed and index. Writes `row K: reason` to stdout for each bad row.
pub fn verify(path: &Path, provenance: bool, quiet: bool) -> Result<Exit> {
    let name = path.display();
    let file = File::open(path).with_context(|| format!("cannot read {name}"))?;
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .from_reader(BufReader::new(file));
    let header = reader
        .headers()
        .with_context(|| format!("cannot read {name} as a bank"))?;
    let at = Columns::new(header)
        .bank()
        .map_err(|missing| anyhow!("{name} is not a bank: it has no {missing:?} column"))?;

    let mut checker = Checker::default();
    let mut out = BufWriter::new(io::stdout().lock());
    let mut record = csv::StringRecord::new();
    let (mut rows, mut bad) = (0u64, 0u64);
    loop {
        let problems = match reader.read_record(&mut record) {
            Ok(false) => break,
            Ok(true) if record.len() < header_len(&at) => {
                vec![format!(
                    "has {} fields, the header {}",
                    record.len(),
                    header_len(&at)
                )]
            }
            Ok(true) => checker.check(&record, &at, rows + 1, provenance),
            Err(err) => match err.kind() {
                csv::ErrorKind::Io(_) => return Err(err).context(format!("cannot read {name}")),
                _ => vec![format!("malformed: {err}")],
            },
        };
        rows += 1;
        if !problems.is_empty() {
            bad += 1;
            writeln!(out, "row {rows}: {}", problems.join("; "))?;
        }
    }
    out.flush()?;
    if !quiet {
        eprintln!("sudoku-bank: {name}: {rows} rows checked, {bad} bad");
    }
    Ok(if bad == 0 {
        Exit::Success
    } else {
        Exit::Incomplete
    })
}

fn header_len(at: &[usize; COLUMNS.len()]) -> usize {
    at.iter().max().map_or(0, |&m| m + 1)
}

/// What later rows are checked against.
#[derive(Default)]
struct Checker {
    /// Row number of each puzzle seen.
    seen: HashMap<u128, u64>,
    /// The previous row's index.
    last_index: Option<u64>,
}

impl Checker {
    fn check(
        &mut self,
        record: &csv::StringRecord,
        at: &[usize; COLUMNS.len()],
        row: u64,
        provenance: bool,
    ) -> Vec<String> {
        let field = |column: usize| record.get(at[column]).unwrap_or("");
        let [id, size, holes, clues, puzzle, solution, seed, index] = std::array::from_fn(field);
        let mut problems = Vec::new();
        let number = |name: &str, text: &str, problems: &mut Vec<String>| {
            text.parse::<u64>()
                .map_err(|_| problems.push(format!("{name} {text:?} is not a whole number")))
                .ok()
        };
        let seed = number("seed", seed, &mut problems);
        let index = number("index", index, &mut problems);
        if let Some(index) = index {
            if let Some(last) = self.last_index.filter(|&last| index <= last) {
                problems.push(format!(
                    "index {index} is not above the previous row's {last}"
                ));
            }
            self.last_index = Some(index);
        }
        let Some(size) = size.parse().ok().and_then(Size::from_n) else {
            problems.push(format!("size {size:?} is not 4, 9, 16 or 25"));
            return problems;
        };
        let fields = Fields {
            id,
            holes,
            clues,
            puzzle,
            solution,
        };
        let Some(text) = crate::with_shape!(size, S => check_grids::<S>(&fields, &mut problems))
        else {
            return problems;
        };
        if let Some(first) = self.seen.insert(dedup_key(&text), row) {
            problems.push(format!("duplicate of row {first}"));
        }
        if let (true, Some(seed), Some(index)) = (provenance, seed, index) {
            let generation = Generation {
                size,
                // A minimal puzzle is also the exact-target puzzle of its own hole count.
                holes: Holes::Exact(text.bytes().filter(|&b| b == b'.').count()),
            };
            match regenerate(generation, seed, index) {
                Some(made) if made.puzzle == text && made.solution == solution => {}
                _ => problems.push(format!(
                    "does not regenerate from seed {seed} index {index}"
                )),
            }
        }
        problems
    }
}

/// The text fields of a row that describe its grids.
struct Fields<'a> {
    id: &'a str,
    holes: &'a str,
    clues: &'a str,
    puzzle: &'a str,
    solution: &'a str,
}

/// Checks the grids of a row of size `S`; returns the puzzle's normalised text when it parses.
fn check_grids<S: Shape>(fields: &Fields<'_>, problems: &mut Vec<String>) -> Option<String> {
    let puzzle = match Grid::<S>::parse(fields.puzzle) {
        Ok(puzzle) => puzzle,
        Err(err) => {
            problems.push(format!("puzzle: {err}"));
            return None;
        }
    };
    let text = puzzle.to_string();
    let expected_id = puzzle_id_hex(&text);
    if fields.id != expected_id {
        problems.push(format!(
            "id {:?} does not match the puzzle (expected {expected_id})",
            fields.id
        ));
    }
    for (name, value, actual) in [
        ("holes", fields.holes, puzzle.holes()),
        ("clues", fields.clues, puzzle.clues()),
    ] {
        if value.parse::<usize>().ok() != Some(actual) {
            problems.push(format!(
                "{name} column says {value:?}, the puzzle has {actual}"
            ));
        }
    }
    let solution = match Grid::<S>::parse(fields.solution) {
        Ok(solution) if solution.is_solution() => Some(solution),
        Ok(_) => {
            problems.push("solution is not a complete, valid grid".to_owned());
            None
        }
        Err(err) => {
            problems.push(format!("solution: {err}"));
            None
        }
    };
    // A valid solution that agrees with the clues solves the puzzle, so with a unique
    // puzzle it is the solution.
    if solution.is_some_and(|s| !puzzle.agrees_with(&s)) {
        problems.push("puzzle clues disagree with the solution".to_owned());
    }
    match Solver::<S>::new().count_solutions(&puzzle, 2) {
        0 => problems.push("puzzle has no solution".to_owned()),
        1 => {}
        _ => problems.push("puzzle has more than one solution".to_owned()),
    }
    Some(text)
}
