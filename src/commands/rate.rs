//! `rate`: grade puzzles the way people solve them, on the Sudoku Explainer scale and on
//! qqwing's levels.

use std::io::BufWriter;
use std::path::Path;

use anyhow::{Result, anyhow};
use rayon::prelude::*;

use super::Exit;
use super::solve::{SolveInput, for_each_puzzle};
use crate::grid::{Grid, text_size};
use crate::input::Input;
use crate::output;
use crate::rating::qqwing::qqwing_level;
use crate::rating::{rate as se_rate, tenths_text};
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

/// Puzzles a batch holds at most when several threads rate: enough to keep them busy, few
/// enough to keep rows flowing and memory small.
const BATCH: usize = 1024;

/// Reads puzzles as `solve` does and writes one CSV row of ratings per puzzle to stdout, in
/// input order. A malformed puzzle, or one without exactly one solution, stops the run with
/// an error naming its line, after the rows of the puzzles before it. With more than one
/// thread the puzzles are rated a batch at a time (batches of 1, 2, 4, … up to 1,024
/// puzzles, so that the first rows come at once); the output is the same.
pub fn rate(path: Option<&Path>, input: &SolveInput, threads: usize) -> Result<Exit> {
    let Input { name, reader } = Input::open(path)?;
    let mut out = csv::Writer::from_writer(BufWriter::new(output::stdout()));
    out.write_record(RATE_COLUMNS)?;
    // One thread rates on this one, puzzle by puzzle.
    let pool = (threads > 1)
        .then(|| rayon::ThreadPoolBuilder::new().num_threads(threads).build())
        .transpose()?;
    let mut batch: Vec<(u64, String)> = Vec::new();
    let mut size = 1;
    // Rates the batch, on the pool if there is one, and writes its rows up to its first
    // error.
    let mut write_batch = |batch: &mut Vec<(u64, String)>| -> Result<()> {
        let rate = |(line, text): &(u64, String)| rate_line(&name, *line, text);
        let rows: Vec<Result<[String; 6]>> = match &pool {
            None => batch.iter().map(rate).collect(),
            Some(pool) => pool.install(|| batch.par_iter().map(rate).collect()),
        };
        batch.clear();
        for row in rows {
            out.write_record(row?)?;
        }
        Ok(())
    };
    let read = for_each_puzzle(&name, reader, input, &mut |line, text| {
        batch.push((line, text.to_owned()));
        if batch.len() >= size {
            if pool.is_some() {
                size = (2 * size).min(BATCH);
            }
            write_batch(&mut batch)?;
        }
        Ok(())
    });
    // The puzzles read before a reading error come first, with their own errors.
    write_batch(&mut batch)?;
    read?;
    out.flush()?;
    Ok(Exit::Success)
}

/// The row of ratings of the puzzle `text`, on line `line` of the input `name`.
fn rate_line(name: &str, line: u64, text: &str) -> Result<[String; 6]> {
    text_size(text)
        .map_err(|e| e.to_string())
        .and_then(|size| crate::with_shape!(size, S => rate_text::<S>(text)))
        .map_err(|e| anyhow!("{name}: line {line}: {e}"))
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
