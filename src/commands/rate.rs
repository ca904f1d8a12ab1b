//! `rate`: grade puzzles the way people solve them, on the Sudoku Explainer scale and on
//! qqwing's levels.

use std::io::{self, BufWriter};
use std::path::Path;

use anyhow::{Result, anyhow};

use super::Exit;
use super::solve::{SolveInput, for_each_puzzle};
use crate::bank::tenths_text;
use crate::grid::{Grid, text_size};
use crate::input::Input;
use crate::logic::qqwing_level;
use crate::rating::rate as se_rate;
use crate::shape::Shape;
use crate::solver::{Engine, Solver};

/// The columns `rate` writes.
pub const RATE_COLUMNS: [&str; 6] = [
    "puzzle",
    "rating",
    "level",
    "qqwing_level",
    "hardest_technique",
    "steps",
];

/// Reads puzzles as `solve` does and writes one CSV row of ratings per puzzle to stdout. A
/// malformed puzzle, or one without exactly one solution, stops the run with an error naming
/// its line.
pub fn rate(path: Option<&Path>, input: &SolveInput) -> Result<Exit> {
    let Input { name, reader } = Input::open(path)?;
    let mut out = csv::Writer::from_writer(BufWriter::new(io::stdout().lock()));
    out.write_record(RATE_COLUMNS)?;
    for_each_puzzle(&name, reader, input, &mut |line, text| {
        let row = text_size(text)
            .map_err(|e| e.to_string())
            .and_then(|size| crate::with_shape!(size, S => rate_text::<S>(text)))
            .map_err(|e| anyhow!("{name}: line {line}: {e}"))?;
        out.write_record(row)?;
        Ok(())
    })?;
    out.flush()?;
    Ok(Exit::Success)
}

/// The row of ratings of the puzzle `text`.
fn rate_text<S: Shape>(text: &str) -> Result<[String; 6], String> {
    let puzzle = Grid::<S>::parse(text).map_err(|e| e.to_string())?;
    if let Some(conflict) = puzzle.conflict() {
        return Err(format!("clues conflict: {conflict}"));
    }
    match Solver::<S>::new().count_solutions(&puzzle, 2) {
        0 => return Err("the puzzle has no solution".to_owned()),
        1 => {}
        _ => return Err("the puzzle has more than one solution; ratings need one".to_owned()),
    }
    let no_solution = |_| "the puzzle has no solution".to_owned();
    let rating = se_rate(&puzzle).map_err(no_solution)?;
    let qqwing = qqwing_level(&puzzle).map_err(no_solution)?;
    let tenths = rating.reported_tenths();
    let hardest = match (rating.finished, rating.hardest) {
        (true, Some(technique)) => technique.name().to_owned(),
        (true, None) => "none".to_owned(),
        (false, Some(technique)) => format!("beyond this rater (after {})", technique.name()),
        (false, None) => "beyond this rater".to_owned(),
    };
    Ok([
        puzzle.to_string(),
        tenths_text(tenths),
        rating.level().to_string(),
        qqwing.to_string(),
        hardest,
        rating.steps.to_string(),
    ])
}
