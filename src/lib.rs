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
//!
//! # Example
//!
//! One attempt of a seeded batch, outside the pipeline: the puzzle that `sudoku-bank
//! reproduce --seed 7 --index 1234 --holes 55` prints (and `generate --seed 7 --holes 55`
//! writes for attempt 1234), checked with a search engine and rated.
//!
//! ```
//! use sudoku_bank::stats::Work;
//! use sudoku_bank::{Engine, Generator, Grid, Holes, Nine, Solver, rating};
//!
//! let mut generator = Generator::<Nine>::new(Holes::Exact(55));
//! let made = generator
//!     .attempt(7, 1234, &mut Work::default())
//!     .expect("this attempt reaches 55 holes");
//! let text = "5.8...4....16........74...96...3.......9......7.1.6.8.8......4513.46.2.8..7...1..";
//! assert_eq!(made.puzzle, Grid::<Nine>::parse(text)?);
//! assert_eq!(made.puzzle.holes(), 55);
//!
//! // Exactly one solution, the one the attempt filled.
//! let mut solver = Solver::<Nine>::new();
//! assert_eq!(solver.count_solutions(&made.puzzle, 2), 1);
//! assert_eq!(solver.solution(), made.solution);
//!
//! // As a person solves it: Sudoku Explainer's 2.0, a direct hidden pair.
//! let rated = rating::rate(&made.puzzle)?;
//! assert_eq!((rated.tenths(), rated.level().name()), (20, "medium"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
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
