//! The flags of `bench`.

use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use super::{DedupArg, parse_size, parse_threads, threads_or_all};
use crate::commands::{BenchConfig, FileTask, Length, Part, SolverBench};
use crate::config::{Dedup, Generation, Holes};
use crate::error::ConfigError;
use crate::rating::{Band, Level};
use crate::shape::Size;
use crate::symmetry::Symmetry;

/// Flags of `bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Grid sizes, comma-separated: 4, 9, 16, 25.
    #[arg(long, default_value = "9", value_delimiter = ',', value_parser = parse_size)]
    size: Vec<Size>,
    /// Holes per puzzle, or `minimal`; 0 measures complete grids only. [default: per size, as
    /// generate]
    #[arg(long, value_name = "N|minimal")]
    holes: Option<Holes>,
    /// Symmetry of the clue patterns, as for generate. [default: none]
    #[arg(long, value_name = "KIND")]
    symmetry: Option<Symmetry>,
    /// Keep only puzzles of this level, as for generate (the cost of rating shows in the
    /// puzzles/s). With --rate, time the rating generate gives each puzzle for that level's
    /// band, and count the puzzles it keeps.
    #[arg(long, value_name = "LEVEL", conflicts_with_all = ["solve", "canon"])]
    difficulty: Option<Level>,
    /// Thread counts to compare, comma-separated, each at most 1024. [default: 1 and all
    /// cores]
    #[arg(long, value_delimiter = ',', value_name = "N,…", value_parser = parse_threads)]
    threads: Vec<NonZeroUsize>,
    /// Puzzles per measurement.
    #[arg(long, value_name = "N", conflicts_with = "seconds")]
    count: Option<u64>,
    /// Seconds per measurement. [default: 3 unless --count is given]
    #[arg(long, value_name = "S")]
    seconds: Option<f64>,
    /// Master seed of every batch.
    #[arg(long, default_value_t = 1, value_name = "S")]
    seed: u64,
    /// Duplicate handling, as for generate (canonical shows the cost of canonical forms).
    /// [default: exact]
    #[arg(long, value_enum)]
    dedup: Option<DedupArg>,
    /// Print one JSON array instead of a table.
    #[arg(long)]
    json: bool,
    /// Instead of the pipeline, time the search engine alone: count the solutions (up to two)
    /// of every puzzle in FILE, read one per line as `solve` reads them.
    #[arg(long, value_name = "FILE", group = "file_bench")]
    solve: Option<PathBuf>,
    /// Instead of the pipeline, time the rater alone: rate every puzzle in FILE as `rate`
    /// does, and count the puzzles of each level.
    #[arg(long, value_name = "FILE", group = "file_bench")]
    rate: Option<PathBuf>,
    /// Instead of the pipeline, time canonical forms alone (as --dedup canonical computes
    /// them) for every puzzle in FILE, and count the distinct forms.
    #[arg(long, value_name = "FILE", group = "file_bench")]
    canon: Option<PathBuf>,
    /// Instead of the pipeline, time the fill alone: complete grids of each --size drawn as
    /// generate draws them (from --seed, attempt by attempt) and kept in memory, on one
    /// thread, for --count grids or --seconds.
    #[arg(
        long,
        conflicts_with_all = ["file_bench", "holes", "symmetry", "difficulty", "threads", "dedup"]
    )]
    fill: bool,
    /// Timed passes over the --solve, --rate or --canon file; the median pass is reported.
    #[arg(long, default_value_t = 3, value_name = "N", requires = "file_bench")]
    passes: usize,
}

impl BenchArgs {
    /// The checked configuration.
    pub fn into_config(self) -> Result<BenchConfig, String> {
        let generations = self
            .size
            .iter()
            .map(|&size| {
                Generation::new(size, self.holes)
                    .and_then(|g| g.with_symmetry(self.symmetry.unwrap_or_default()))
                    .and_then(|g| g.with_difficulty(self.difficulty.map(Band::of_level)))
                    .map_err(|e| e.to_string())
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut threads: Vec<usize> = self.threads.iter().map(|t| t.get()).collect();
        if threads.is_empty() {
            threads = vec![1, threads_or_all(None)];
            threads.dedup();
        }
        let length = match (self.count, self.seconds) {
            (Some(0), _) => return Err(ConfigError::ZeroCount.to_string()),
            (Some(count), _) => Length::Count(count),
            (None, Some(s)) if !(s > 0.0 && s.is_finite()) => {
                return Err(format!("--seconds {s} is not a positive duration"));
            }
            // The timer waits for a `Duration`, which holds up to 2⁶⁴ seconds.
            (None, Some(s)) if Duration::try_from_secs_f64(s).is_err() => {
                return Err(format!(
                    "--seconds {s:e} is longer than a timer can wait (at most {:e} seconds)",
                    Duration::MAX.as_secs_f64()
                ));
            }
            (None, Some(s)) => Length::Seconds(s),
            (None, None) => Length::Seconds(3.0),
        };
        if self.passes == 0 {
            return Err("--passes must be at least 1".to_owned());
        }
        let file = match (self.solve, self.rate, self.canon) {
            (Some(path), _, _) => Some((path, FileTask::Count)),
            (_, Some(path), _) => Some((path, FileTask::Rate)),
            (_, _, Some(path)) => Some((path, FileTask::Canon)),
            (None, None, None) => None,
        };
        let part = match file {
            Some((path, task)) => Part::File(SolverBench {
                path,
                passes: self.passes,
                task,
                level: self.difficulty,
            }),
            None if self.fill => Part::Fill,
            None => Part::Pipeline,
        };
        Ok(BenchConfig {
            generations,
            threads,
            length,
            seed: self.seed,
            dedup: self.dedup.map_or(Dedup::Exact, Dedup::from),
            json: self.json,
            part,
        })
    }
}
