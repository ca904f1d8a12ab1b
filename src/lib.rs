//! sudoku-bank builds banks of Sudoku puzzles in bulk.
//!
//! The pipeline: [`attempt`] fills a random complete grid ([`generator`]) and digs it to an
//! exact number of holes while it keeps exactly one solution ([`digger`], checked by the
//! [`solver`]); [`pipeline`] runs attempts on rayon workers, each from its own seeded stream
//! ([`rng`]), and one writer deduplicates them in attempt order into a CSV bank ([`bank`])
//! with a manifest ([`manifest`]) and statistics ([`stats`]).
//!
//! Sizes 4×4, 9×9, 16×16 and 25×25 share one generic core: code over `S: `[`Shape`] is
//! compiled once per size, and [`with_shape!`] picks the size once per run.
#![deny(missing_docs)]

/// Writes a line to stderr, as `eprintln!` does, without panicking when it cannot: a summary,
/// warning or error that stderr does not take (closed, a full disk, a reader gone) is dropped,
/// and the command goes on to its own exit code.
#[macro_export]
macro_rules! message {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($arg)*);
    }};
}

pub mod attempt;
pub mod bank;
pub mod canon;
pub mod cli;
pub mod commands;
pub mod config;
pub mod continuation;
pub mod dedup;
pub mod digger;
pub mod error;
pub mod generator;
pub mod grid;
pub mod hash;
pub mod input;
pub mod manifest;
pub mod output;
pub mod pipeline;
pub mod progress;
pub mod rating;
pub mod rng;
pub mod shape;
pub mod solver;
pub mod stats;
pub mod symmetry;

pub use attempt::{Generator, Puzzle};
pub use config::Holes;
pub use grid::Grid;
pub use shape::{Four, Nine, Shape, Sixteen, Size, TwentyFive};
pub use solver::{Engine, Solver};
