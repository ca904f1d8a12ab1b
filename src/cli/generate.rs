//! The flags of `generate`, and those that fix a puzzle, which `bench` and `reproduce` share.

use std::io::IsTerminal;
use std::num::NonZeroUsize;
use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::{parse_rating, parse_size, parse_threads, threads_or_all};
use crate::config::{
    Continue, Dedup, GenerateConfig, Generation, Given, Holes, Job, Mode, Output, Report, Shard,
};
use crate::error::ConfigError;
use crate::rating::{Band, HIGHEST_TENTHS, Level, tenths_text};
use crate::shape::Size;
use crate::symmetry::Symmetry;

/// The parameters that, with a seed and an attempt index, fix a puzzle.
#[derive(Debug, Args)]
pub struct GenerationArgs {
    /// Grid size: 4, 9, 16 or 25. [default: 9]
    #[arg(long, value_parser = parse_size)]
    pub size: Option<Size>,
    /// Exact number of empty cells per puzzle; 0 makes complete grids; `minimal` digs each
    /// puzzle until no clue can go (hole counts then vary; up to 16×16).
    /// [default: 10 for 4×4, 50 for 9×9, 150 for 16×16, 300 for 25×25]
    #[arg(long, value_name = "N|minimal")]
    pub holes: Option<Holes>,
    /// Symmetry of every clue pattern: none, rot180, rot90, mirror (left–right), flip
    /// (top–bottom), diagonal, antidiagonal, dihedral (all eight), or random (one of the
    /// others, drawn per puzzle). Holes are dug by whole orbits, so some targets cannot be reached
    /// (rot90 on 9×9 needs 0 or 1 mod 4); the bank gains a `symmetry` column. [default: none]
    #[arg(long, value_name = "KIND")]
    pub symmetry: Option<Symmetry>,
    /// Keep only puzzles of this level, as `rate` grades them: easy (SE rating below 1.5),
    /// medium (1.5 to 2.4), hard (2.5 to 4.9) or diabolical (5.0 and up). Each attempt digs on
    /// until a puzzle falls in the band, within its retries; the bank gains `rating` and
    /// `level` columns. Pick --holes to suit: easy puzzles have fewer holes, and hard 9×9
    /// banks come fastest at about 55. Every 4×4 puzzle is easy (1.0 or 1.2).
    #[arg(long, value_name = "LEVEL", conflicts_with_all = ["min_rating", "max_rating"])]
    pub difficulty: Option<Level>,
    /// Keep only puzzles rated at least this on the SE scale, in tenths (e.g. 2.6). At most 12.0, the
    /// highest rating `rate` can give (a dynamic cell forcing chain of a 25×25 grid whose
    /// every candidate leads through every other); on the 1,680 graded 9×9 puzzles of the
    /// shared data, it gives at most 9.1.
    #[arg(long, value_name = "R", value_parser = parse_rating)]
    pub min_rating: Option<u32>,
    /// Keep only puzzles rated at most this on the SE scale (e.g. 4.4). At least 1.0 (a full
    /// house) for puzzles with holes; complete grids rate 0.0.
    #[arg(long, value_name = "R", value_parser = parse_rating)]
    pub max_rating: Option<u32>,
}

impl GenerationArgs {
    /// The band of ratings asked for, if any.
    fn band(&self) -> Result<Option<Band>, ConfigError> {
        Ok(match (self.difficulty, self.min_rating, self.max_rating) {
            (Some(level), _, _) => Some(Band::of_level(level)),
            (None, None, None) => None,
            (None, min, max) => {
                let band = Band {
                    min_tenths: min.unwrap_or(0),
                    max_tenths: max.unwrap_or(u32::MAX),
                };
                if band.min_tenths > band.max_tenths {
                    return Err(ConfigError::EmptyBand);
                }
                if band.min_tenths > HIGHEST_TENTHS {
                    return Err(ConfigError::BandAboveRater {
                        min: tenths_text(band.min_tenths),
                        highest: tenths_text(HIGHEST_TENTHS),
                    });
                }
                Some(band)
            }
        })
    }

    pub(super) fn into_generation(self) -> Result<Generation, ConfigError> {
        let band = self.band()?;
        Generation::new(self.size.unwrap_or(Size::Nine), self.holes)?
            .with_symmetry(self.symmetry.unwrap_or_default())?
            .with_difficulty(band)
    }
}

/// Flags of `generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    #[command(flatten)]
    generation: GenerationArgs,
    /// Number of distinct puzzles to write (with --append: to add). [default: 1000; with
    /// --resume, the batch's]
    #[arg(long, value_name = "N")]
    count: Option<u64>,
    /// Master seed; the same seed and parameters give the same bank. [default: random,
    /// printed in the summary and the manifest]
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Worker threads, at most 1024 (the bank's bytes do not depend on it). [default: all
    /// cores]
    #[arg(long, value_name = "N", value_parser = parse_threads)]
    threads: Option<NonZeroUsize>,
    /// Output file ("-" for stdout). A file gets a manifest beside it, FILE.json.
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    out: PathBuf,
    /// Carry on the bank FILE (written by generate -o) from where it stopped: same
    /// parameters and seed, from its manifest's next attempt, as if never interrupted.
    /// --count and --max-attempts may be raised; other flags must match the bank's.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["out", "append", "force"])]
    resume: Option<PathBuf>,
    /// Add a new batch of --count distinct puzzles to the bank FILE, with a new seed
    /// (random unless given), skipping puzzles the bank already has. --holes, --symmetry and
    /// --dedup default to the bank's last batch; the size is the bank's.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["out", "force"])]
    append: Option<PathBuf>,
    /// How duplicate puzzles are treated: exact drops a puzzle whose text was already
    /// written; canonical also drops one equivalent to a written one (by relabelling digits,
    /// transposing, or permuting bands, stacks, rows in a band, columns in a stack) and adds
    /// a canon_id column (4×4 and 9×9); none keeps every one. [default: exact]
    #[arg(long, value_enum)]
    dedup: Option<DedupArg>,
    /// Run only shard K of N of the batch: the attempts whose index i has i mod N = K, so N
    /// machines with the same seed and parameters split one batch, and `merge` of their
    /// banks gives the one-machine bank. `slurm` takes K and N from a Slurm job array
    /// (SLURM_ARRAY_TASK_ID − SLURM_ARRAY_TASK_MIN, SLURM_ARRAY_TASK_COUNT); `k8s/N` takes K
    /// from a Kubernetes Indexed Job (JOB_COMPLETION_INDEX). --count and --max-attempts are
    /// the shard's own.
    #[arg(long, value_name = "K/N|slurm|k8s/N")]
    shard: Option<ShardArg>,
    /// Attempts allowed before giving up short of --count (exit 1). [default: 100 × count +
    /// 1000]
    #[arg(long, value_name = "N")]
    max_attempts: Option<u64>,
    /// Also write the run's statistics as JSON to FILE ("-" for stdout, when the bank goes
    /// to a file).
    #[arg(long, value_name = "FILE")]
    stats_json: Option<PathBuf>,
    /// Print errors only: no summary, no progress bar.
    #[arg(short, long)]
    quiet: bool,
    /// Replace an existing output file.
    #[arg(long)]
    force: bool,
}

/// Duplicate handling on the command line.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum DedupArg {
    /// Drop puzzles whose text was already written.
    Exact,
    /// Drop puzzles equivalent to one already written; add a canon_id column.
    Canonical,
    /// Keep every puzzle.
    None,
}

impl From<DedupArg> for Dedup {
    fn from(arg: DedupArg) -> Dedup {
        match arg {
            DedupArg::Exact => Dedup::Exact,
            DedupArg::Canonical => Dedup::Canonical,
            DedupArg::None => Dedup::None,
        }
    }
}

/// `--shard` as written: the shard itself, or where to find it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShardArg {
    /// `K/N`.
    Given(Shard),
    /// `slurm`: from the job array's environment.
    Slurm,
    /// `k8s/N`: K from the Indexed Job's environment.
    Kubernetes(u64),
}

impl std::str::FromStr for ShardArg {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let count = |n: &str| {
            n.parse::<u64>()
                .map_err(|_| format!("{n:?} in {text:?} is not a shard count"))
        };
        match text.split_once('/') {
            None if text == "slurm" => Ok(ShardArg::Slurm),
            Some(("k8s", n)) => Ok(ShardArg::Kubernetes(count(n)?)),
            Some((k, n)) => {
                let k = k
                    .parse::<u64>()
                    .map_err(|_| format!("{k:?} in {text:?} is not a shard number"))?;
                Shard::new(k, count(n)?)
                    .map(ShardArg::Given)
                    .map_err(|e| e.to_string())
            }
            None => Err(format!(
                "{text:?} is not a shard: write K/N (e.g. 0/4), slurm, or k8s/N"
            )),
        }
    }
}

impl ShardArg {
    /// The shard, reading the environment through `var` where asked to.
    pub fn resolve(self, var: impl Fn(&str) -> Option<String>) -> Result<Shard, ConfigError> {
        let number = |name: &str| -> Result<u64, ConfigError> {
            let value = var(name)
                .ok_or_else(|| ConfigError::ShardEnvironment(format!("{name} is not set")))?;
            value.trim().parse().map_err(|_| {
                ConfigError::ShardEnvironment(format!("{name}={value:?} is not a whole number"))
            })
        };
        match self {
            ShardArg::Given(shard) => Ok(shard),
            ShardArg::Slurm => {
                let id = number("SLURM_ARRAY_TASK_ID")?;
                let min = number("SLURM_ARRAY_TASK_MIN").unwrap_or(0);
                let count = number("SLURM_ARRAY_TASK_COUNT")?;
                Shard::new(id.saturating_sub(min), count)
            }
            ShardArg::Kubernetes(count) => Shard::new(number("JOB_COMPLETION_INDEX")?, count),
        }
    }
}

impl GenerateArgs {
    /// The checked configuration; `command_line` is recorded in the manifest.
    pub fn into_config(self, command_line: Vec<String>) -> Result<GenerateConfig, ConfigError> {
        let given = Given {
            size: self.generation.size.is_some(),
            holes: self.generation.holes.is_some(),
            symmetry: self.generation.symmetry.is_some(),
            difficulty: self.generation.band()?.is_some(),
            count: self.count.is_some(),
            seed: self.seed.is_some(),
            dedup: self.dedup.is_some(),
            max_attempts: self.max_attempts.is_some(),
            shard: self.shard.is_some(),
        };
        let generation = self.generation.into_generation()?;
        let random_seed = self.seed.is_none();
        let seed = self.seed.unwrap_or_else(rand::random);
        let dedup = self.dedup.map_or(Dedup::Exact, Dedup::from);
        let shard = match self.shard {
            Some(arg) => arg.resolve(|name| std::env::var(name).ok())?,
            None => Shard::WHOLE,
        };
        let job = Job::new(
            generation,
            self.count.unwrap_or(1000),
            seed,
            threads_or_all(self.threads),
            dedup,
            self.max_attempts,
        )?;
        let job = Job { shard, ..job };
        job.check_shard()?;
        let (output, continuation) = match (self.resume, self.append) {
            (Some(path), _) => (Output::File(path), Some((Mode::Resume, given))),
            (None, Some(path)) => (Output::File(path), Some((Mode::Append, given))),
            (None, None) if self.out.as_os_str() == "-" => (Output::Stdout, None),
            (None, None) => (Output::File(self.out), None),
        };
        let stats_json = self.stats_json.map(|path| {
            if path.as_os_str() == "-" {
                Output::Stdout
            } else {
                Output::File(path)
            }
        });
        if output == Output::Stdout && stats_json == Some(Output::Stdout) {
            return Err(ConfigError::StatsWithBankOnStdout);
        }
        Ok(GenerateConfig {
            job,
            output,
            continuation: continuation.map(|(mode, given)| Continue { mode, given }),
            force: self.force,
            stats_json,
            report: Report {
                quiet: self.quiet,
                progress: !self.quiet && std::io::stderr().is_terminal(),
            },
            random_seed: random_seed && continuation.is_none_or(|(mode, _)| mode == Mode::Append),
            command_line,
        })
    }
}
