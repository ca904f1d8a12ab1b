//! `bench --solve FILE`: the search engine alone, counting the solutions (up to two) of every
//! puzzle of a file, as `solve` does, but without reading or writing while the clock runs.
//!
//! The puzzles are parsed and checked once before timing; each pass then counts them all, and
//! the median pass is reported, with the engine's branches (guesses) per puzzle.

use std::hint::black_box;
use std::io::{self, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use serde::Serialize;

use super::Exit;
use crate::grid::{Grid, text_size};
use crate::shape::Shape;
use crate::solver::{Engine, Solver};

/// What `bench --solve` measures.
#[derive(Clone, Debug, PartialEq)]
pub struct SolverBench {
    /// Puzzles, one per line (blank and `#` lines skipped), all of one size.
    pub path: PathBuf,
    /// Timed passes over the file; the median is reported.
    pub passes: usize,
}

/// The measurement.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SolverRow {
    /// The file measured.
    pub file: String,
    /// Grid side.
    pub size: usize,
    /// Puzzles in the file.
    pub puzzles: usize,
    /// Timed passes.
    pub passes: usize,
    /// Microseconds per puzzle in the median pass.
    pub us_per_puzzle: f64,
    /// Puzzles per second in the median pass.
    pub puzzles_per_sec: f64,
    /// Branches (guesses) per puzzle.
    pub branches_per_puzzle: f64,
    /// Puzzles with no solution, exactly one, and two or more.
    pub solutions: [usize; 3],
}

/// Times the engine over `config`'s file and prints the result (a table, or JSON).
pub fn bench_solver(config: &SolverBench, json: bool) -> Result<Exit> {
    let name = config.path.display().to_string();
    let text =
        std::fs::read_to_string(&config.path).with_context(|| format!("cannot read {name}"))?;
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(at, line)| (at + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
        .collect();
    let Some(&(first_line, first)) = lines.first() else {
        bail!("{name} holds no puzzle");
    };
    let size = text_size(first).map_err(|e| anyhow!("{name}: line {first_line}: {e}"))?;
    let row = crate::with_shape!(size, S => measure::<S>(&name, &lines, config.passes))?;
    let mut out = io::stdout().lock();
    if json {
        serde_json::to_writer_pretty(&mut out, &[&row])?;
        writeln!(out)?;
    } else {
        writeln!(
            out,
            "{:>5} {:>8} {:>6} {:>10} {:>11} {:>10} {:>17}",
            "size", "puzzles", "passes", "µs/puzzle", "puzzles/s", "branches/p", "solutions 0/1/2+"
        )?;
        writeln!(
            out,
            "{:>5} {:>8} {:>6} {:>10.2} {:>11.0} {:>10.2} {:>17}",
            format!("{0}×{0}", row.size),
            row.puzzles,
            row.passes,
            row.us_per_puzzle,
            row.puzzles_per_sec,
            row.branches_per_puzzle,
            format!(
                "{}/{}/{}",
                row.solutions[0], row.solutions[1], row.solutions[2]
            ),
        )?;
    }
    out.flush()?;
    Ok(Exit::Success)
}

fn measure<S: Shape>(name: &str, lines: &[(usize, &str)], passes: usize) -> Result<SolverRow> {
    let puzzles = lines
        .iter()
        .map(|&(line, text)| {
            Grid::<S>::parse(text).map_err(|e| anyhow!("{name}: line {line}: {e}"))
        })
        .collect::<Result<Vec<_>>>()?;
    let mut solver = Solver::<S>::new();
    // One untimed pass: the answers, and a warm engine.
    let mut solutions = [0; 3];
    for puzzle in &puzzles {
        solutions[solver.count_solutions(puzzle, 2)] += 1;
    }
    let branches = solver.branches();
    let mut times: Vec<Duration> = (0..passes)
        .map(|_| {
            let started = Instant::now();
            for puzzle in &puzzles {
                black_box(solver.count_solutions(black_box(puzzle), 2));
            }
            started.elapsed()
        })
        .collect();
    times.sort_unstable();
    let median = times[times.len() / 2].as_secs_f64();
    let n = puzzles.len() as f64;
    Ok(SolverRow {
        file: name.to_owned(),
        size: S::N,
        puzzles: puzzles.len(),
        passes,
        us_per_puzzle: median * 1e6 / n,
        puzzles_per_sec: if median > 0.0 { n / median } else { 0.0 },
        branches_per_puzzle: (solver.branches() - branches) as f64 / (n * passes as f64),
        solutions,
    })
}
