//! `solve`: count the solutions of puzzles read one per line, or from a CSV column.

use std::io::{BufRead, BufWriter};
use std::path::Path;

use anyhow::{Context, Result, anyhow, bail};

use super::Exit;
use crate::bank::line_of;
use crate::grid::{Grid, text_size};
use crate::input::{CsvProblem, Input};
use crate::output;
use crate::shape::{Four, Nine, Shape, Sixteen, Size, TwentyFive};
use crate::solver::{Engine, Solver};

/// Where the puzzles are in the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveInput {
    /// One puzzle per line; blank lines and lines starting with `#` are skipped.
    Lines,
    /// The named column of a CSV file with a header row.
    Column(String),
}

/// Reads puzzles from `path` (stdin when `None`) and writes `puzzle,solutions,solution` CSV
/// to stdout. A malformed puzzle stops the run with an error naming its line.
pub fn solve(path: Option<&Path>, input: &SolveInput) -> Result<Exit> {
    let Input { name, reader } = Input::open(path)?;
    let mut solvers = Solvers::default();
    let mut out = csv::Writer::from_writer(BufWriter::new(output::stdout()));
    out.write_record(["puzzle", "solutions", "solution"])?;
    for_each_puzzle(&name, reader, input, &mut |line, text| {
        let (puzzle, count, solution) = solvers
            .count(text)
            .map_err(|e| anyhow!("{name}: line {line}: {e}"))?;
        out.write_record([puzzle.as_str(), &count.to_string(), &solution])?;
        Ok(())
    })?;
    out.flush()?;
    Ok(Exit::Success)
}

/// Calls `each` with the line number and text of every puzzle in the input `name`: one per
/// line (blank and `#` lines skipped), or the named CSV column.
pub(super) fn for_each_puzzle(
    name: &str,
    reader: impl BufRead,
    input: &SolveInput,
    each: &mut dyn FnMut(u64, &str) -> Result<()>,
) -> Result<()> {
    match input {
        SolveInput::Lines => each_line(name, reader, each),
        SolveInput::Column(column) => each_in_column(name, reader, column, each),
    }
}

/// Calls `each` with the number and text of every line of `reader` that holds a puzzle:
/// surrounding whitespace trimmed, blank and `#` lines skipped. A line with a comma is a CSV
/// row, refused with a pointer to `--column`.
fn each_line(
    name: &str,
    mut reader: impl BufRead,
    each: &mut dyn FnMut(u64, &str) -> Result<()>,
) -> Result<()> {
    let mut buf = Vec::new();
    let mut line = 0u64;
    loop {
        buf.clear();
        if reader
            .read_until(b'\n', &mut buf)
            .with_context(|| format!("cannot read {name}"))?
            == 0
        {
            return Ok(());
        }
        line += 1;
        let text = std::str::from_utf8(&buf)
            .map_err(|e| {
                anyhow!(
                    "{name}: line {line}: column {}: not UTF-8 text",
                    e.valid_up_to() + 1
                )
            })?
            .trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        if text.contains(',') {
            bail!(
                "{name}: line {line}: a CSV row, not a puzzle; to read a bank or \
                 another CSV file, name its column (--column puzzle)"
            );
        }
        each(line, text)?;
    }
}

/// Calls `each` with the line and field of every record of the CSV input `reader` in its
/// column `column`, which the header must name exactly once.
fn each_in_column(
    name: &str,
    reader: impl BufRead,
    column: &str,
    each: &mut dyn FnMut(u64, &str) -> Result<()>,
) -> Result<()> {
    let mut csv = csv::Reader::from_reader(reader);
    let header = csv
        .headers()
        .map_err(|e| CsvProblem::of(e).into_error(name))?;
    let mut found = header.iter().enumerate().filter(|(_, h)| *h == column);
    let Some((at, _)) = found.next() else {
        bail!("{name} has no column {column:?}");
    };
    if found.next().is_some() {
        bail!("{name}: line 1: column {column:?} appears twice in the header");
    }
    let mut record = csv::StringRecord::new();
    while csv
        .read_record(&mut record)
        .map_err(|e| CsvProblem::of(e).into_error(name))?
    {
        let line = line_of(&record);
        let text = record
            .get(at)
            .ok_or_else(|| anyhow!("{name}: line {line}: no field {column:?}"))?;
        each(line, text)?;
    }
    Ok(())
}

/// One solver per size, created on first use.
#[derive(Default)]
struct Solvers {
    four: Option<Solver<Four>>,
    nine: Option<Solver<Nine>>,
    sixteen: Option<Solver<Sixteen>>,
    twenty_five: Option<Solver<TwentyFive>>,
}

impl Solvers {
    /// The puzzle's normalised text, its solution count up to 2, and its first solution
    /// (empty when it has none).
    fn count(&mut self, text: &str) -> Result<(String, usize, String), crate::error::GridError> {
        match text_size(text)? {
            Size::Four => count::<Four>(self.four.get_or_insert_with(Engine::new), text),
            Size::Nine => count::<Nine>(self.nine.get_or_insert_with(Engine::new), text),
            Size::Sixteen => count::<Sixteen>(self.sixteen.get_or_insert_with(Engine::new), text),
            Size::TwentyFive => {
                count::<TwentyFive>(self.twenty_five.get_or_insert_with(Engine::new), text)
            }
        }
    }
}

fn count<S: Shape>(
    solver: &mut Solver<S>,
    text: &str,
) -> Result<(String, usize, String), crate::error::GridError> {
    let puzzle = Grid::<S>::parse(text)?;
    let n = solver.count_solutions(&puzzle, 2);
    let solution = if n > 0 {
        solver.solution().to_string()
    } else {
        String::new()
    };
    Ok((puzzle.to_string(), n, solution))
}
