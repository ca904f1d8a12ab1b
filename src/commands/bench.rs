//! `bench`: throughput of the whole pipeline, per size and thread count (and, with
//! `--solve`, of the search engine alone: see [`super::bench_solver`]; with `--fill`, of the
//! fill alone: see [`super::bench_fill`]).
//!
//! Each measurement is a real batch — fill, dig, dedup and CSV formatting — written to a
//! sink instead of a file, so the figures are the ones a user gets from `generate`.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use anyhow::Result;
use serde::Serialize;

use super::Exit;
use super::bench_fill::bench_fill;
use super::bench_solver::{SolverBench, bench_solver};
use crate::bank::BankWriter;
use crate::config::{Dedup, Generation, Holes, Job};
use crate::output;
use crate::pipeline;
use crate::progress::Progress;
use crate::stats::counted;
use crate::symmetry::Symmetry;

/// How long each measurement runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Length {
    /// Until this many puzzles are written.
    Count(u64),
    /// For about this long.
    Seconds(f64),
}

/// What `bench` measures.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchConfig {
    /// Size and hole target of each measurement.
    pub generations: Vec<Generation>,
    /// Thread counts to compare.
    pub threads: Vec<usize>,
    /// How long each measurement runs.
    pub length: Length,
    /// The master seed of every batch.
    pub seed: u64,
    /// Duplicate handling (canonical dedup costs a canonical form per puzzle).
    pub dedup: Dedup,
    /// Print JSON instead of a table.
    pub json: bool,
    /// What is timed: the pipeline, or one part of it alone.
    pub part: Part,
}

/// What `bench` times.
#[derive(Clone, Debug, PartialEq)]
pub enum Part {
    /// The whole pipeline, as `generate` runs it.
    Pipeline,
    /// The search engine, the rater or canonical forms, on a file of puzzles.
    File(SolverBench),
    /// The fill alone, on one thread.
    Fill,
}

/// One measurement.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BenchRow {
    /// Grid side.
    pub size: usize,
    /// Holes per puzzle (0: full grids only), or `"minimal"`.
    pub holes: Holes,
    /// Symmetry of the clue patterns.
    pub symmetry: Symmetry,
    /// Worker threads.
    pub threads: usize,
    /// Puzzles written.
    pub puzzles: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Grids filled per second.
    pub grids_per_sec: f64,
    /// Puzzles written per second.
    pub puzzles_per_sec: f64,
    /// Microseconds of wall time per puzzle per thread; `None` when no puzzle was made.
    pub us_per_puzzle_thread: Option<f64>,
    /// Uniqueness searches per puzzle.
    pub tests_per_puzzle: f64,
    /// Puzzles/s relative to the first thread count measured for this size and target;
    /// `None` when that one made no puzzle.
    pub speedup: Option<f64>,
    /// The process's peak resident memory as the measurement ended (Linux only): the
    /// largest of this measurement's and those before it in the same run.
    pub peak_memory_bytes: Option<u64>,
}

/// Runs every measurement and prints the table (or JSON) on stdout.
pub fn bench(config: &BenchConfig) -> Result<Exit> {
    match &config.part {
        Part::Pipeline => {}
        Part::File(solver) => return bench_solver(solver, config.json),
        Part::Fill => {
            let sizes: Vec<_> = config.generations.iter().map(|g| g.size).collect();
            return bench_fill(&sizes, config.length, config.seed, config.json);
        }
    }
    let mut rows = Vec::new();
    for &generation in &config.generations {
        let mut baseline = None;
        for &threads in &config.threads {
            let mut row = measure(config, generation, threads)?;
            let base = *baseline.get_or_insert(row.puzzles_per_sec);
            row.speedup = (base > 0.0).then(|| row.puzzles_per_sec / base);
            let (n, target) = (row.size, row.holes.phrase());
            let threads = counted(threads as u64, "thread");
            if row.puzzles == 0 {
                // Said even with --json: the row's nulls need a reason.
                crate::message!(
                    "sudoku-bank: {n}×{n}, {target}, {threads}: no puzzle within {:.2} s; give it more --seconds",
                    row.seconds
                );
            } else if !config.json {
                crate::message!(
                    "sudoku-bank: {n}×{n}, {target}, {threads}: {pps:.0} puzzles/s",
                    pps = row.puzzles_per_sec
                );
            }
            rows.push(row);
        }
    }
    let mut out = output::stdout();
    if config.json {
        serde_json::to_writer_pretty(&mut out, &rows)?;
        writeln!(out)?;
    } else {
        write_table(&mut out, &rows)?;
    }
    out.flush()?;
    Ok(Exit::Success)
}

fn measure(config: &BenchConfig, generation: Generation, threads: usize) -> Result<BenchRow> {
    let count = match config.length {
        Length::Count(count) => count,
        Length::Seconds(_) => u64::MAX,
    };
    let mut job = Job::new(generation, count, config.seed, threads, config.dedup, None)?;
    job.max_attempts = u64::MAX;
    let stop = AtomicBool::new(false);
    let mut sink = BankWriter::new(io::sink(), &generation, config.dedup)?;
    let (done, finished) = mpsc::channel::<()>();
    let outcome = std::thread::scope(|scope| {
        if let Length::Seconds(seconds) = config.length {
            let stop = &stop;
            scope.spawn(move || {
                if finished
                    .recv_timeout(Duration::from_secs_f64(seconds))
                    .is_err()
                {
                    stop.store(true, Ordering::Relaxed);
                }
            });
        }
        let outcome = pipeline::run(
            &job,
            pipeline::Existing::default(),
            &mut sink,
            &stop,
            &Progress::hidden(),
        );
        drop(done);
        outcome
    })?;
    let stats = outcome.stats;
    Ok(BenchRow {
        size: generation.size.n(),
        holes: generation.holes,
        symmetry: generation.symmetry,
        threads,
        puzzles: stats.puzzles,
        seconds: stats.wall_seconds,
        grids_per_sec: stats.grids_per_sec,
        puzzles_per_sec: stats.puzzles_per_sec,
        us_per_puzzle_thread: (stats.puzzles > 0)
            .then(|| stats.wall_seconds * 1e6 * threads as f64 / stats.puzzles as f64),
        tests_per_puzzle: stats.tests_per_puzzle,
        speedup: Some(1.0),
        peak_memory_bytes: stats.peak_memory_bytes,
    })
}

fn write_table(out: &mut impl Write, rows: &[BenchRow]) -> io::Result<()> {
    writeln!(
        out,
        "{:>5} {:>6} {:>12} {:>7} {:>9} {:>8} {:>11} {:>11} {:>10} {:>8} {:>7} {:>9}",
        "size",
        "holes",
        "symmetry",
        "threads",
        "puzzles",
        "seconds",
        "grids/s",
        "puzzles/s",
        "µs/puz·thr",
        "tests/p",
        "speedup",
        "peak MiB"
    )?;
    // A figure a measurement without puzzles cannot give is shown as `-`.
    let or_dash = |figure: Option<f64>, format: fn(f64) -> String| {
        figure.map_or_else(|| "-".to_owned(), format)
    };
    for r in rows {
        writeln!(
            out,
            "{:>5} {:>6} {:>12} {:>7} {:>9} {:>8.3} {:>11.0} {:>11.0} {:>10} {:>8.1} {:>7} {:>9}",
            format!("{0}×{0}", r.size),
            r.holes,
            r.symmetry,
            r.threads,
            r.puzzles,
            r.seconds,
            r.grids_per_sec,
            r.puzzles_per_sec,
            or_dash(r.us_per_puzzle_thread, |us| format!("{us:.1}")),
            r.tests_per_puzzle,
            or_dash(r.speedup, |speedup| format!("{speedup:.2}×")),
            r.peak_memory_bytes
                .map_or_else(|| "-".to_string(), |bytes| (bytes >> 20).to_string())
        )?;
    }
    Ok(())
}
