//! The command line: the only module that knows clap. [`Cli`] is parsed, then each
//! subcommand's flags become checked parameters ([`crate::config`]) in one step, where every
//! cross-flag check happens.

mod bench;
mod generate;

use std::num::NonZeroUsize;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::commands::{MergeConfig, SolveInput};
use crate::config::{Dedup, Generation, MAX_THREADS};
use crate::error::ConfigError;
use crate::shape::Size;
pub use bench::BenchArgs;
pub use generate::{DedupArg, GenerateArgs, GenerationArgs, ShardArg};

/// Build banks of Sudoku puzzles with exactly one solution, in bulk and reproducibly.
///
/// Seeded workers fill random complete grids (4×4, 9×9, 16×16, 25×25), dig each to an exact
/// number of holes while it keeps exactly one solution, and one writer streams the distinct
/// puzzles to CSV. The same seed gives the same bank at any thread count.
#[derive(Debug, Parser)]
#[command(name = "sudoku-bank", version, about, long_about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Build a bank of distinct puzzles, each with exactly one solution (CSV).
    Generate(GenerateArgs),
    /// Measure grids/s and puzzles/s of the pipeline, per size and thread count.
    Bench(BenchArgs),
    /// Merge banks into one, keeping the first of each puzzle; shards of one batch are
    /// merged by attempt index, which rebuilds the one-machine bank.
    ///
    /// Inputs must have the same columns and size. Banks whose manifests say they are the
    /// shards of one batch (generate --shard K/N, same seed and parameters, all N of them)
    /// are merged in attempt-index order: the first C rows are then byte for byte those of
    /// generate --count C on one machine, as long as no shard ran out of rows first. Other
    /// banks follow in argument order, rows in order. Writes OUT and its manifest OUT.json,
    /// which lists the inputs.
    Merge(MergeArgs),
    /// Print the row that `generate` writes for one attempt of a seeded batch.
    Reproduce(ReproduceArgs),
    /// Re-check a bank: every row's puzzle, solution, counts, id, uniqueness and order.
    Verify(VerifyArgs),
    /// Count the solutions (0, 1, or 2 for two or more) of puzzles and print the first.
    Solve(SolveArgs),
    /// Rate puzzles as people solve them: Sudoku Explainer rating and level, qqwing level.
    ///
    /// Solves step by step, always with the easiest technique that applies (singles, direct
    /// locking and hidden sets, locking, naked and hidden sets, X-Wing, Swordfish, Jellyfish,
    /// turbot fish, XY-, XYZ-, WXYZ- and VWXYZ-Wing, empty and unique rectangles, chains of
    /// three strong links, BUG, aligned pair exclusion, then SE's forcing chains and
    /// bidirectional cycles, aligned triple exclusion, Nishio forcing chains, cell and region
    /// forcing chains and dynamic forcing chains, rated 6.5, 7.5, 8.0 and 8.5 and up by their
    /// kind and length), and rates the puzzle by its hardest step on the SE scale.
    /// Levels: easy < 1.5 ≤ medium < 2.5 ≤ hard < 5.0 ≤ diabolical.
    /// Writes CSV: puzzle,rating,level,qqwing_level,hardest_technique,steps, in input order.
    Rate(RateArgs),
}

/// Flags of `merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The banks to merge, in order.
    #[arg(required = true, value_name = "BANK")]
    inputs: Vec<PathBuf>,
    /// The merged bank (a file; its manifest goes beside it, FILE.json).
    #[arg(short, long, value_name = "FILE")]
    out: PathBuf,
    /// How duplicate puzzles are recognised: exact text, or canonical form (equivalent
    /// puzzles; adds a canon_id column if the inputs lack one); none keeps every row.
    /// [default: for shards, their batches' own; else canonical for banks with a canon_id
    /// column, exact for others]
    #[arg(long, value_enum)]
    dedup: Option<DedupArg>,
    /// Stop after N rows (exit 1 if the inputs hold fewer distinct puzzles).
    #[arg(long, value_name = "N")]
    count: Option<u64>,
    /// Replace an existing output file.
    #[arg(long)]
    force: bool,
    /// Print errors only.
    #[arg(short, long)]
    quiet: bool,
}

impl MergeArgs {
    /// The checked configuration; `command_line` is recorded in the manifest.
    pub fn into_config(self, command_line: Vec<String>) -> Result<MergeConfig, ConfigError> {
        if self.count == Some(0) {
            return Err(ConfigError::ZeroCount);
        }
        Ok(MergeConfig {
            inputs: self.inputs,
            output: self.out,
            dedup: self.dedup.map(Dedup::from),
            count: self.count,
            force: self.force,
            quiet: self.quiet,
            command_line,
        })
    }
}

/// Flags of `reproduce`.
#[derive(Debug, Args)]
pub struct ReproduceArgs {
    /// The batch's master seed.
    #[arg(long, value_name = "S")]
    pub seed: u64,
    /// The attempt index (the `index` column).
    #[arg(long, value_name = "I")]
    pub index: u64,
    #[command(flatten)]
    generation: GenerationArgs,
    /// The batch's --dedup: canonical adds the canon_id column. [default: exact]
    #[arg(long, value_enum)]
    dedup: Option<DedupArg>,
}

impl ReproduceArgs {
    /// The checked generation parameters and dedup mode.
    pub fn generation(self) -> Result<(Generation, Dedup), ConfigError> {
        let generation = self.generation.into_generation()?;
        let dedup = self.dedup.map_or(Dedup::Exact, Dedup::from);
        if dedup == Dedup::Canonical {
            crate::canon::supported(generation.size).map_err(ConfigError::NoCanonicalForm)?;
        }
        Ok((generation, dedup))
    }
}

/// Flags of `verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The bank to check ("-" reads stdin).
    pub file: PathBuf,
    /// Also check that each row regenerates from its seed and index.
    #[arg(long)]
    pub provenance: bool,
    /// No summary line on stderr.
    #[arg(short, long)]
    pub quiet: bool,
}

/// Flags of `solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Puzzles, one per line (size from the length: 16, 81, 256 or 625 cells); blank and `#`
    /// lines are skipped. "-" reads stdin. [default: stdin]
    pub file: Option<PathBuf>,
    /// Read the puzzles from this column of a CSV file with a header row instead.
    #[arg(long, value_name = "NAME")]
    pub column: Option<String>,
}

/// Flags of `rate`.
#[derive(Debug, Args)]
pub struct RateArgs {
    /// Where the puzzles are, as for `solve`.
    #[command(flatten)]
    pub puzzles: SolveArgs,
    /// Threads rating at once, at most 1024; rows come out in input order, the same bytes
    /// for any count. With more than one, rows are written a batch of puzzles at a time.
    /// [default: all cores]
    #[arg(long, value_name = "N", value_parser = parse_threads)]
    threads: Option<NonZeroUsize>,
}

impl RateArgs {
    /// Threads to rate with.
    pub fn threads(&self) -> usize {
        threads_or_all(self.threads)
    }
}

impl SolveArgs {
    /// How the input holds its puzzles.
    pub fn input(&self) -> SolveInput {
        match &self.column {
            Some(column) => SolveInput::Column(column.clone()),
            None => SolveInput::Lines,
        }
    }
}

/// An SE rating such as `2.6` or `3`, in tenths. SE rates in tenths, so a rating with more
/// decimals is refused rather than rounded: `--min-rating 3.05` would otherwise keep puzzles
/// rated 3.0.
fn parse_rating(text: &str) -> Result<u32, String> {
    let (whole, tenth) = text.split_once('.').unwrap_or((text, "0"));
    let digits = !whole.is_empty() && whole.len() <= 2 && whole.bytes().all(|b| b.is_ascii_digit());
    let tenths = match *tenth.as_bytes() {
        [t @ b'0'..=b'9'] if digits => whole
            .parse::<u32>()
            .ok()
            .map(|w| w * 10 + u32::from(t - b'0')),
        _ => None,
    };
    tenths.filter(|&tenths| tenths <= 200).ok_or_else(|| {
        format!("{text:?} is not an SE rating (a number of tenths from 0.0 to 20.0, such as 2.6)")
    })
}

fn parse_size(text: &str) -> Result<Size, String> {
    text.parse::<usize>()
        .ok()
        .and_then(Size::from_n)
        .ok_or_else(|| format!("{text:?} is not a grid size (expected 4, 9, 16 or 25)"))
}

fn parse_threads(text: &str) -> Result<NonZeroUsize, String> {
    text.parse::<NonZeroUsize>()
        .ok()
        .filter(|threads| threads.get() <= MAX_THREADS)
        .ok_or_else(|| {
            format!("{text:?} is not a thread count (a whole number from 1 to {MAX_THREADS})")
        })
}

/// The threads asked for, else one per core, up to [`MAX_THREADS`].
fn threads_or_all(threads: Option<NonZeroUsize>) -> usize {
    threads
        .or_else(|| std::thread::available_parallelism().ok())
        .map_or(1, |threads| threads.get().min(MAX_THREADS))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::Length;
    use crate::config::{Holes, Output};
    use crate::symmetry::Symmetry;
    use clap::CommandFactory;

    #[test]
    fn parser_is_well_formed() {
        Cli::command().debug_assert();
    }

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        Cli::try_parse_from(std::iter::once("sudoku-bank").chain(args.iter().copied()))
    }

    #[test]
    fn generate_defaults() {
        let Command::Generate(args) = parse(&["generate"]).unwrap().command else {
            panic!("not generate");
        };
        let config = args.into_config(vec![]).unwrap();
        assert_eq!(
            config.job.generation,
            Generation {
                size: Size::Nine,
                holes: Holes::Exact(50),
                symmetry: Symmetry::None,
                difficulty: None,
            }
        );
        assert_eq!(config.job.count, 1000);
        assert_eq!(config.output, Output::Stdout);
        assert!(config.random_seed);
    }

    #[test]
    fn bad_sizes_and_counts_are_refused() {
        assert!(parse(&["generate", "--size", "8"]).is_err());
        for args in [
            &["generate", "--threads", "0"][..],
            &["bench", "--threads", "1,0"],
            &["rate", "--threads", "x"],
            &["generate", "--threads", "1025"],
            &["bench", "--threads", "1,99999999999"],
        ] {
            let err = parse(args).unwrap_err().to_string();
            assert!(
                err.contains("is not a thread count (a whole number from 1 to 1024)"),
                "{err}"
            );
        }
        assert!(parse(&["rate", "--threads", "1024"]).is_ok());
        let Command::Generate(args) = parse(&["generate", "--count", "0"]).unwrap().command else {
            panic!("not generate");
        };
        assert_eq!(args.into_config(vec![]), Err(ConfigError::ZeroCount));
        assert!(parse(&["bench", "--count", "5", "--seconds", "1"]).is_err());
        for (seconds, says) in [
            ("0", "is not a positive duration"),
            ("inf", "is not a positive duration"),
            ("1e300", "is longer than a timer can wait"),
        ] {
            let Command::Bench(args) = parse(&["bench", "--seconds", seconds]).unwrap().command
            else {
                panic!("not bench");
            };
            let err = args.into_config().unwrap_err();
            assert!(err.contains(says), "{seconds}: {err}");
        }
    }

    #[test]
    fn ratings_are_read_in_tenths() {
        for (text, tenths) in [
            ("2.6", 26),
            ("3", 30),
            ("0.0", 0),
            ("12.0", 120),
            ("20", 200),
        ] {
            assert_eq!(parse_rating(text), Ok(tenths), "{text}");
        }
        for text in [
            "3.05", "2.", ".5", "-1", "20.1", "1e1", "nan", "2,6", " 2.6", "100",
        ] {
            let err = parse_rating(text).unwrap_err();
            assert!(err.contains("is not an SE rating"), "{text}: {err}");
        }
    }

    #[test]
    fn bench_lists() {
        let Command::Bench(args) = parse(&[
            "bench",
            "--size",
            "9,16",
            "--threads",
            "1,2",
            "--holes",
            "0",
        ])
        .unwrap()
        .command
        else {
            panic!("not bench");
        };
        let config = args.into_config().unwrap();
        assert_eq!(config.generations.len(), 2);
        assert_eq!(config.threads, vec![1, 2]);
        assert_eq!(config.length, Length::Seconds(3.0));
    }
}
