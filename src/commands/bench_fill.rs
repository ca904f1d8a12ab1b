//! `bench --fill`: the fill alone. Complete grids are drawn as `generate` draws them (attempt
//! `i` from `(seed, i)`) and kept in memory, on one thread: what a solved-grid generator such
//! as the `sudoku` crate's `generate_solved` does, without the pipeline's rows, ids, dedup
//! and writer. `bench --holes 0` measures the whole pipeline on the same grids.

use std::hint::black_box;
use std::io::Write;
use std::time::Instant;

use anyhow::Result;
use serde::Serialize;

use super::Exit;
use super::bench::Length;
use crate::generator::fill;
use crate::output;
use crate::rng::attempt_rng;
use crate::shape::{Shape, Size};
use crate::solver::{Engine, Solver};

/// Grids of size `S` filled between looks at the clock, in a measurement by time: a 9×9 grid
/// takes about 0.4 µs, so a look each grid would cost a few percent of it; a 16×16 grid takes
/// about 13 µs and a 25×25 one 0.6 ms, where 256 would overrun the time asked for.
const fn grids_per_look<S: Shape>() -> u64 {
    if S::N <= 9 { 256 } else { 1 }
}

/// One measurement.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FillRow {
    /// Grid side.
    pub size: usize,
    /// Grids filled.
    pub grids: u64,
    /// Seconds they took.
    pub seconds: f64,
    /// Grids filled per second.
    pub grids_per_sec: f64,
    /// Nanoseconds per grid.
    pub ns_per_grid: f64,
}

/// Fills grids of each size for the given length and prints the table (or JSON) on stdout.
pub fn bench_fill(sizes: &[Size], length: Length, seed: u64, json: bool) -> Result<Exit> {
    let rows: Vec<FillRow> = sizes
        .iter()
        .map(|&size| crate::with_shape!(size, S => measure::<S>(length, seed)))
        .collect();
    let mut out = output::stdout();
    if json {
        serde_json::to_writer_pretty(&mut out, &rows)?;
        writeln!(out)?;
    } else {
        writeln!(
            out,
            "{:>5} {:>9} {:>8} {:>11} {:>9}",
            "size", "grids", "seconds", "grids/s", "ns/grid"
        )?;
        for r in &rows {
            writeln!(
                out,
                "{:>5} {:>9} {:>8.3} {:>11.0} {:>9.1}",
                format!("{0}×{0}", r.size),
                r.grids,
                r.seconds,
                r.grids_per_sec,
                r.ns_per_grid
            )?;
        }
    }
    out.flush()?;
    Ok(Exit::Success)
}

/// Fills grids of size `S` from attempt 0 on, for `length` (a count of grids, or about so
/// many seconds).
fn measure<S: Shape>(length: Length, seed: u64) -> FillRow {
    let mut solver = Solver::<S>::new();
    let (count, seconds) = match length {
        Length::Count(count) => (count, f64::INFINITY),
        Length::Seconds(seconds) => (u64::MAX, seconds),
    };
    let started = Instant::now();
    let mut grids = 0;
    while grids < count && started.elapsed().as_secs_f64() < seconds {
        let end = count.min(grids + grids_per_look::<S>());
        for index in grids..end {
            black_box(fill(&mut solver, &mut attempt_rng(seed, index)));
        }
        grids = end;
    }
    let seconds = started.elapsed().as_secs_f64();
    FillRow {
        size: S::N,
        grids,
        seconds,
        grids_per_sec: grids as f64 / seconds,
        ns_per_grid: seconds * 1e9 / grids as f64,
    }
}
