//! `verify`: re-check every row of a bank, reporting each bad row.

use std::collections::HashMap;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use anyhow::Result;

use super::Exit;
use super::reproduce::regenerate;
use crate::bank::{BankReader, Column, Next};
use crate::canon::Canonicalizer;
use crate::config::{Dedup, Generation, Holes};
use crate::grid::Grid;
use crate::hash::{dedup_key, puzzle_id_hex};
use crate::input::Input;
use crate::manifest::{RowsDedup, SeedBand, batch_bands, rows_dedup};
use crate::output;
use crate::rating::{Band, Rating, rate, tenths_text};
use crate::shape::{Shape, Size};
use crate::solver::{Engine, Solver};
use crate::stats::counted;
use crate::symmetry::Symmetry;

/// Checks the bank at `path`: every row parses, has the right sizes and counts, a valid
/// solution that agrees with its clues and is the puzzle's only one, a matching id, no
/// duplicate puzzle (nor, with a `canon_id` column, two equivalent ones) unless the
/// manifest says the row's batch or merge kept them (`--dedup none`, or `exact` for
/// equivalent puzzles), the size of the first row, and an index above the previous row's of
/// the same seed (an appended batch starts its own run of indices); with `provenance`, that
/// it regenerates from its seed and index. Writes `row K: reason` to stdout for each bad
/// row.
///
/// The bank is streamed: what is kept per row is its puzzle's 16-byte key and row number.
pub fn verify(path: &Path, provenance: bool, quiet: bool) -> Result<Exit> {
    let input = Input::open(Some(path))?;
    let reader = BankReader::new(&input.name, input.reader)?;
    let mut out = BufWriter::new(output::stdout());
    let bands = provenance.then(|| {
        let mut bands = BatchBands::new();
        for SeedBand { seed, band } in batch_bands(path) {
            bands.entry(seed).or_default().push(band);
        }
        bands
    });
    let (rows, bad) = check_bank(reader, bands.as_ref(), &rows_dedup(path), &mut out)?;
    out.flush()?;
    if !quiet {
        crate::message!(
            "sudoku-bank: {}: {} checked, {bad} bad",
            input.name,
            counted(rows, "row")
        );
    }
    Ok(if bad == 0 {
        Exit::Success
    } else {
        Exit::Incomplete
    })
}

/// The difficulty bands of a bank's rated batches, by seed, as its manifest records them
/// ([`batch_bands`]): empty when it has none (a bank written to stdout). A seed may have
/// several, when banks of one seed were merged.
pub type BatchBands = HashMap<u64, Vec<Band>>;

/// Checks every row `reader` gives, as [`verify`] does, writing `row K: reason` to `out`
/// for each bad row; returns the rows checked and how many were bad. With `provenance`, it
/// also regenerates each row, a rated one with the band its batch had when `provenance`
/// knows it. A row that repeats an earlier row's puzzle is bad unless `dedup` says its
/// batch kept duplicates; where `dedup` does not know, as if deduplicated by text, or by
/// canonical form in a bank with a `canon_id` column.
pub fn check_bank<R: io::Read>(
    mut reader: BankReader<R>,
    provenance: Option<&BatchBands>,
    dedup: &RowsDedup,
    out: &mut impl Write,
) -> Result<(u64, u64)> {
    let mut checker = Checker {
        dedup: dedup.clone(),
        ..Checker::default()
    };
    let mut record = csv::StringRecord::new();
    let (mut rows, mut bad) = (0u64, 0u64);
    loop {
        let problems = match reader.read(&mut record)? {
            Next::End => break,
            Next::Row => checker.check(&reader, &record, rows + 1, provenance),
            Next::Malformed(malformed) => {
                vec![format!("line {}: {}", malformed.line, malformed.reason)]
            }
        };
        rows += 1;
        if !problems.is_empty() {
            bad += 1;
            writeln!(out, "row {rows}: {}", problems.join("; "))?;
        }
    }
    Ok((rows, bad))
}

/// What later rows are checked against.
#[derive(Default)]
struct Checker {
    /// Row number of each puzzle seen.
    seen: HashMap<u128, u64>,
    /// The previous row's seed and index.
    last: Option<(u64, u64)>,
    /// The first row's size.
    size: Option<Size>,
    /// Row number of each canonical form seen, in banks with a `canon_id` column.
    forms: HashMap<u128, u64>,
    /// How the rows were deduplicated.
    dedup: RowsDedup,
    canonicalizer: Canonicalizer,
}

impl Checker {
    /// The problems of the row numbered `row` (see [`verify`] for the checks).
    fn check<R: io::Read>(
        &mut self,
        reader: &BankReader<R>,
        record: &csv::StringRecord,
        row: u64,
        provenance: Option<&BatchBands>,
    ) -> Vec<String> {
        let field = |column| reader.field(record, column);
        let mut problems = Vec::new();
        let (seed, index) =
            self.check_order(field(Column::Seed), field(Column::Index), &mut problems);
        let Some(size) = self.check_size(field(Column::Size), &mut problems) else {
            return problems;
        };
        let fields = Fields {
            id: field(Column::Id),
            holes: field(Column::Holes),
            clues: field(Column::Clues),
            puzzle: field(Column::Puzzle),
            solution: field(Column::Solution),
        };
        let Some(text) = crate::with_shape!(size, S => check_grids::<S>(&fields, &mut problems))
        else {
            return problems;
        };
        let dedup = self.dedup.of(seed);
        let repeated = self.seen.insert(dedup_key(&text), row);
        if let Some(first) = repeated.filter(|_| dedup != Some(Dedup::None)) {
            problems.push(format!("duplicate of row {first}"));
        }
        if let Some(canon_id) = reader.canon_id(record) {
            let distinct = dedup.is_none_or(|dedup| dedup == Dedup::Canonical);
            self.check_canon_id(canon_id, size, &text, (row, distinct), &mut problems);
        }
        let symmetry = reader
            .symmetry(record)
            .and_then(|symmetry| check_symmetry(symmetry, size, &text, &mut problems));
        let rating = reader
            .rating(record)
            .and_then(|(rating, level)| check_rating(rating, level, size, &text, &mut problems));
        if let (Some(bands), Some(seed), Some(index)) = (provenance, seed, index) {
            let made = RowMade {
                size,
                symmetry,
                rating,
                puzzle: &text,
                solution: fields.solution,
            };
            if !made.comes_from(bands, seed, index) {
                problems.push(format!(
                    "does not regenerate from seed {seed} index {index}"
                ));
            }
        }
        problems
    }

    /// The row's seed and index, when they are whole numbers; an index must be above the
    /// previous row's of the same seed.
    fn check_order(
        &mut self,
        seed: &str,
        index: &str,
        problems: &mut Vec<String>,
    ) -> (Option<u64>, Option<u64>) {
        let mut number = |name: &str, text: &str| {
            text.parse::<u64>()
                .map_err(|_| problems.push(format!("{name} {text:?} is not a whole number")))
                .ok()
        };
        let (seed, index) = (number("seed", seed), number("index", index));
        if let (Some(seed), Some(index)) = (seed, index) {
            match self.last {
                Some((last_seed, last)) if last_seed == seed && index <= last => problems.push(
                    format!("index {index} is not above the previous row's {last}"),
                ),
                _ => {}
            }
            self.last = Some((seed, index));
        }
        (seed, index)
    }

    /// The row's size, when it is one; it must be the first row's.
    fn check_size(&mut self, text: &str, problems: &mut Vec<String>) -> Option<Size> {
        let Some(size) = text.parse().ok().and_then(Size::from_n) else {
            problems.push(format!("size {text:?} is not 4, 9, 16 or 25"));
            return None;
        };
        match self.size {
            Some(first) if first != size => problems.push(format!(
                "size {} differs from the first row's {}",
                size.n(),
                first.n()
            )),
            _ => self.size = self.size.or(Some(size)),
        }
        Some(size)
    }

    /// A bank with a `canon_id` column: the canon_id is the form's, and when the row is
    /// to be `distinct` (deduplicated by canonical form), no earlier row is equivalent.
    /// (Clues that conflict are reported by [`check_grids`], and have no canonical form to
    /// check.)
    fn check_canon_id(
        &mut self,
        canon_id: &str,
        size: Size,
        text: &str,
        (row, distinct): (u64, bool),
        problems: &mut Vec<String>,
    ) {
        let canon = crate::with_shape!(size, S => {
            Grid::<S>::parse(text)
                .ok()
                .filter(|p| p.is_consistent())
                .map(|p| self.canonicalizer.canonical(&p).map(|c| c.to_string()))
        });
        match canon {
            None => {}
            Some(None) => problems.push(format!(
                "canon_id {canon_id:?}: {}",
                crate::canon::supported(size).err().unwrap_or_default()
            )),
            Some(Some(canon)) => {
                let expected = puzzle_id_hex(&canon);
                if canon_id != expected {
                    problems.push(format!(
                        "canon_id {canon_id:?} is not the puzzle's (expected {expected})"
                    ));
                }
                match self.forms.insert(dedup_key(&canon), row) {
                    Some(first) if first != row && distinct => {
                        problems.push(format!("equivalent to row {first}"));
                    }
                    _ => {}
                }
            }
        }
    }
}

/// The symmetry column's pattern, which the puzzle's clues must have; `None` when it names
/// none.
fn check_symmetry(
    symmetry: &str,
    size: Size,
    text: &str,
    problems: &mut Vec<String>,
) -> Option<Symmetry> {
    match symmetry.parse::<Symmetry>() {
        Ok(kind) if kind != Symmetry::Random => {
            let clue = |cell: usize| text.as_bytes()[cell] != b'.';
            if !kind.holds(size.n(), clue) {
                problems.push(format!("the clue pattern is not {kind}"));
            }
            Some(kind)
        }
        _ => {
            problems.push(format!("symmetry {symmetry:?} is not a pattern"));
            None
        }
    }
}

/// A rated row: the rating and level must be ours. Returns our rating of the puzzle.
fn check_rating(
    rating: &str,
    level: &str,
    size: Size,
    text: &str,
    problems: &mut Vec<String>,
) -> Option<Rating> {
    let ours = crate::with_shape!(size, S => {
        Grid::<S>::parse(text).ok().and_then(|p| rate(&p).ok())
    })?;
    let expected = tenths_text(ours.reported_tenths());
    if rating != expected || level != ours.level().name() {
        problems.push(format!(
            "rating {rating:?} and level {level:?} are not the puzzle's ({expected}, {})",
            ours.level()
        ));
    }
    Some(ours)
}

/// What a row says was made, as its provenance is checked: its grids, and how they were dug.
struct RowMade<'a> {
    size: Size,
    symmetry: Option<Symmetry>,
    /// Our rating of a rated row.
    rating: Option<Rating>,
    puzzle: &'a str,
    solution: &'a str,
}

impl RowMade<'_> {
    /// True when the attempt `index` of `seed` gives this row's puzzle and solution.
    fn comes_from(&self, bands: &BatchBands, seed: u64, index: u64) -> bool {
        // The bands to regenerate a rated row with, in turn: each band the manifest lists
        // for its seed, its level's (as `--difficulty` gives it), its rating alone; each
        // only if it holds the rating. A puzzle before it in the attempt's walk fell on
        // the same side of any of them, but the walk's rhythm of ratings and its returns
        // depend on the band.
        let tried: Vec<Option<Band>> = match &self.rating {
            None => vec![None],
            Some(ours) => {
                let e = ours.reported_tenths();
                let alone = Band {
                    min_tenths: e,
                    max_tenths: e,
                };
                let batches = bands.get(&seed).map_or(&[][..], Vec::as_slice);
                let mut tried = Vec::with_capacity(batches.len() + 2);
                let others = [Band::of_level(ours.level()), alone];
                for &band in batches.iter().chain(&others) {
                    if band.admits(ours) && !tried.contains(&Some(band)) {
                        tried.push(Some(band));
                    }
                }
                tried
            }
        };
        let regenerates = |holes, difficulty| {
            let generation = Generation {
                size: self.size,
                holes,
                symmetry: self.symmetry.unwrap_or_default(),
                difficulty,
            };
            regenerate(generation, Dedup::Exact, seed, index)
                .is_some_and(|made| made.puzzle == self.puzzle && made.solution == self.solution)
        };
        // A minimal puzzle is also the exact-target puzzle of its own hole count, but
        // where exact digs give up costly removal tests and minimal digs do not.
        let gives_up = crate::with_shape!(self.size, S => S::REMOVAL_BUDGET != u64::MAX);
        let holes = self.puzzle.bytes().filter(|&b| b == b'.').count();
        tried
            .iter()
            .any(|&band| regenerates(Holes::Exact(holes), band))
            || gives_up && self.rating.is_none() && regenerates(Holes::Minimal, None)
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
    if let Some(conflict) = puzzle.conflict() {
        problems.push(format!("puzzle clues conflict: {conflict}"));
        return Some(text);
    }
    match Solver::<S>::new().count_solutions(&puzzle, 2) {
        0 => problems.push("puzzle has no solution".to_owned()),
        1 => {}
        _ => problems.push("puzzle has more than one solution".to_owned()),
    }
    Some(text)
}
