//! The subcommands, each a function from checked parameters to an [`Exit`].

mod bench;
mod bench_fill;
mod bench_solver;
mod generate;
mod merge;
mod rate;
mod reproduce;
mod solve;
mod verify;

pub use bench::{BenchConfig, BenchRow, Length, Part, bench};
pub use bench_fill::FillRow;
pub use bench_solver::{FileTask, SolverBench, SolverRow};
pub use generate::generate;
pub use merge::{InputSummary, MergeConfig, MergeManifest, merge};
pub use rate::{RATE_COLUMNS, rate};
pub use reproduce::reproduce;
pub use solve::{SolveInput, solve};
pub use verify::{check_bank, verify};

use std::process::ExitCode;

/// How a command ended (SPEC "Exit codes and streams").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// Everything asked for was done.
    Success,
    /// Finished short of `--count`, a failed attempt, or bad rows found by `verify`.
    Incomplete,
    /// Usage, input or I/O error.
    Error,
    /// Stopped by Ctrl-C after flushing what was finished.
    Interrupted,
}

impl From<Exit> for ExitCode {
    fn from(exit: Exit) -> ExitCode {
        ExitCode::from(match exit {
            Exit::Success => 0,
            Exit::Incomplete => 1,
            Exit::Error => 2,
            Exit::Interrupted => 130,
        })
    }
}
