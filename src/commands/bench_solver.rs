//! `bench --solve FILE`, `bench --rate FILE` and `bench --canon FILE`: the search engine
//! alone, counting the solutions (up to two) of every puzzle of a file as `solve` does, the
//! rater alone, rating each as `rate` does (or, with `--difficulty`, deciding whether it
//! falls in the level's band as `generate --difficulty` does), or canonical forms alone, as
//! `--dedup canonical` computes them; without reading or writing while the clock runs.
//!
//! The puzzles are parsed and checked once before timing; each pass then counts (or rates)
//! them all, and the median pass is reported, with the engine's branches (guesses) per puzzle
//! or the puzzles of each level (and those the band keeps).

use std::collections::HashSet;
use std::hint::black_box;
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use serde::Serialize;

use super::Exit;
use crate::canon::{self, Canonicalizer};
use crate::grid::{Grid, text_size};
use crate::output;
use crate::rating::{Band, Level, rate, rate_in};
use crate::shape::{Shape, Size};
use crate::solver::{Engine, Solver};

/// What `bench --solve` or `bench --rate` measures.
#[derive(Clone, Debug, PartialEq)]
pub struct SolverBench {
    /// Puzzles, one per line (blank and `#` lines skipped), all of one size.
    pub path: PathBuf,
    /// Timed passes over the file; the median is reported.
    pub passes: usize,
    /// Count solutions, or rate.
    pub task: FileTask,
    /// With [`FileTask::Rate`], time the banded rating of this level's band instead of the
    /// full rating: what `generate --difficulty` spends on each puzzle it rates.
    pub level: Option<Level>,
}

/// What is timed on each puzzle of the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FileTask {
    /// Count solutions up to two (`--solve`).
    Count,
    /// Rate on the SE scale (`--rate`).
    Rate,
    /// Compute the canonical form (`--canon`).
    Canon,
}

/// The measurement.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SolverRow {
    /// The file measured.
    pub file: String,
    /// What was timed.
    pub task: FileTask,
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
    /// Counting: branches (guesses) per puzzle.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub branches_per_puzzle: Option<f64>,
    /// Counting: puzzles with no solution, exactly one, and two or more.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solutions: Option<[usize; 3]>,
    /// Rating: puzzles rated easy, medium, hard and diabolical.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub levels: Option<[usize; 4]>,
    /// Banded rating: the level whose band was timed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub band: Option<&'static str>,
    /// Banded rating: the puzzles the band keeps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kept: Option<usize>,
    /// Canonical forms: how many distinct ones the file holds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distinct_forms: Option<usize>,
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
    if first.contains(',') {
        bail!(
            "{name}: line {first_line}: a CSV row, not a puzzle; the bench reads one puzzle per \
             line (a bank's puzzles: `cut -d, -f5 BANK | tail -n +2`)"
        );
    }
    let size = text_size(first).map_err(|e| anyhow!("{name}: line {first_line}: {e}"))?;
    let row = crate::with_shape!(size, S => measure::<S>(&name, &lines, config))?;
    let mut out = output::stdout();
    if json {
        serde_json::to_writer_pretty(&mut out, &[&row])?;
        writeln!(out)?;
    } else {
        let (label, detail) = match (row.solutions, row.levels, row.distinct_forms) {
            (Some([none, one, more]), _, _) => (
                "branches/p  solutions 0/1/2+",
                format!(
                    "{:>10.2} {:>17}",
                    row.branches_per_puzzle.unwrap_or(0.0),
                    format!("{none}/{one}/{more}")
                ),
            ),
            (_, Some([easy, medium, hard, diabolical]), _) => match (row.band, row.kept) {
                (Some(level), Some(kept)) => (
                    "easy/medium/hard/diabolical  kept",
                    format!("{easy}/{medium}/{hard}/{diabolical}  {kept} {level}"),
                ),
                _ => (
                    "easy/medium/hard/diabolical",
                    format!("{easy}/{medium}/{hard}/{diabolical}"),
                ),
            },
            (_, _, Some(forms)) => ("distinct forms", forms.to_string()),
            _ => ("", String::new()),
        };
        writeln!(
            out,
            "{:>5} {:>8} {:>6} {:>10} {:>11} {label}",
            "size", "puzzles", "passes", "µs/puzzle", "puzzles/s"
        )?;
        writeln!(
            out,
            "{:>5} {:>8} {:>6} {:>10.2} {:>11.0} {detail}",
            format!("{0}×{0}", row.size),
            row.puzzles,
            row.passes,
            row.us_per_puzzle,
            row.puzzles_per_sec,
        )?;
    }
    out.flush()?;
    Ok(Exit::Success)
}

fn measure<S: Shape>(
    name: &str,
    lines: &[(usize, &str)],
    config: &SolverBench,
) -> Result<SolverRow> {
    let puzzles = lines
        .iter()
        .map(|&(line, text)| {
            Grid::<S>::parse(text).map_err(|e| anyhow!("{name}: line {line}: {e}"))
        })
        .collect::<Result<Vec<_>>>()?;
    if config.task == FileTask::Canon {
        canon::supported(Size::from_n(S::N).expect("a size"))
            .map_err(|e| anyhow!("{name}: {e}"))?;
    }
    let mut work = FileWork::<S>::new(config);
    // One untimed pass: the answers, and a warm engine.
    for (puzzle, &(line, _)) in puzzles.iter().zip(lines) {
        work.answer(puzzle)
            .map_err(|e| anyhow!("{name}: line {line}: {e}"))?;
    }
    let branches = work.solver.branches();
    let mut times: Vec<Duration> = (0..config.passes)
        .map(|_| {
            let started = Instant::now();
            for puzzle in &puzzles {
                work.run(black_box(puzzle));
            }
            started.elapsed()
        })
        .collect();
    times.sort_unstable();
    let median = times[times.len() / 2].as_secs_f64();
    let n = puzzles.len() as f64;
    let counting = config.task == FileTask::Count;
    Ok(SolverRow {
        file: name.to_owned(),
        task: config.task,
        size: S::N,
        puzzles: puzzles.len(),
        passes: config.passes,
        us_per_puzzle: median * 1e6 / n,
        puzzles_per_sec: if median > 0.0 { n / median } else { 0.0 },
        branches_per_puzzle: counting
            .then(|| (work.solver.branches() - branches) as f64 / (n * config.passes as f64)),
        solutions: counting.then_some(work.solutions),
        levels: (config.task == FileTask::Rate).then_some(work.levels),
        band: work.band.map(|(level, _)| level.name()),
        kept: work.band.map(|_| work.kept),
        distinct_forms: (config.task == FileTask::Canon).then_some(work.forms.len()),
    })
}

/// What a file bench does with each puzzle: the engines its task needs, and the answers of
/// its untimed pass.
struct FileWork<S: Shape> {
    task: FileTask,
    solver: Solver<S>,
    canonicalizer: Canonicalizer,
    /// The level whose band is timed, and the band, when rating.
    band: Option<(Level, Band)>,
    /// Puzzles with no solution, one, and two or more, when counting.
    solutions: [usize; 3],
    /// Puzzles of each level, when rating.
    levels: [usize; 4],
    /// Puzzles in the band.
    kept: usize,
    /// The distinct canonical forms, when canonicalising.
    forms: HashSet<Option<Grid<S>>>,
}

impl<S: Shape> FileWork<S> {
    fn new(config: &SolverBench) -> Self {
        let level = config.level.filter(|_| config.task == FileTask::Rate);
        FileWork {
            task: config.task,
            solver: Solver::<S>::new(),
            canonicalizer: Canonicalizer::new(),
            band: level.map(|level| (level, Band::of_level(level))),
            solutions: [0; 3],
            levels: [0; 4],
            kept: 0,
            forms: HashSet::new(),
        }
    }

    /// Does the task to `puzzle` and notes the answer; an error for a puzzle the rater
    /// finds without a solution.
    fn answer(&mut self, puzzle: &Grid<S>) -> Result<()> {
        match self.task {
            FileTask::Count => self.solutions[self.solver.count_solutions(puzzle, 2)] += 1,
            FileTask::Rate => {
                let rating = rate(puzzle).map_err(|_| anyhow!("the puzzle has no solution"))?;
                self.levels[rating.level() as usize] += 1;
                let in_band = |(_, band)| rate_in(puzzle, band).is_some();
                self.kept += self.band.is_some_and(in_band) as usize;
            }
            FileTask::Canon => {
                self.forms.insert(self.canonicalizer.canonical(puzzle));
            }
        }
        Ok(())
    }

    /// Does the task to `puzzle`, as timed: the answer is dropped.
    #[inline]
    fn run(&mut self, puzzle: &Grid<S>) {
        match self.task {
            FileTask::Count => {
                black_box(self.solver.count_solutions(puzzle, 2));
            }
            FileTask::Rate => match self.band {
                Some((_, band)) => {
                    black_box(rate_in(puzzle, band));
                }
                None => {
                    let _ = black_box(rate(puzzle));
                }
            },
            FileTask::Canon => {
                black_box(self.canonicalizer.canonical(puzzle));
            }
        }
    }
}
