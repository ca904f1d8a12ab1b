//! The command line: the only module that knows clap. [`Cli`] is parsed, then each
//! subcommand's flags become checked parameters ([`crate::config`]) in one step, where every
//! cross-flag check happens.

use std::io::IsTerminal;
use std::num::NonZeroUsize;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::bank::tenths_text;
use crate::commands::{BenchConfig, FileTask, Length, MergeConfig, Part, SolveInput, SolverBench};
use crate::config::{
    Continue, Dedup, GenerateConfig, Generation, Given, Holes, Job, Mode, Output, Report, Shard,
};
use crate::error::ConfigError;
use crate::rating::{Band, HIGHEST_TENTHS, Level, SeTechnique};
use crate::shape::Size;
use crate::symmetry::Symmetry;

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

/// The parameters that, with a seed and an attempt index, fix a puzzle.
#[derive(Debug, Args)]
pub struct GenerationArgs {
    /// Grid size: 4, 9, 16 or 25. [default: 9]
    #[arg(long, value_parser = parse_size)]
    pub size: Option<Size>,
    /// Exact number of empty cells per puzzle; 0 makes complete grids; `minimal` digs each
    /// puzzle until no clue can go (hole counts then vary).
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
    /// banks come fastest at about 55.
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

    fn into_generation(self) -> Result<Generation, ConfigError> {
        let band = self.band()?;
        if band.is_some() && self.holes == Some(Holes::Minimal) {
            return Err(ConfigError::BandNeedsExactHoles);
        }
        let generation = Generation::new(self.size.unwrap_or(Size::Nine), self.holes)?;
        // A puzzle with a hole needs a step: a full house (1.0) at least.
        let lowest = SeTechnique::FullHouse.tenths();
        if let Some(band) = band
            && band.max_tenths < lowest
            && generation.holes != Holes::Exact(0)
        {
            return Err(ConfigError::BandBelowRater {
                max: tenths_text(band.max_tenths),
                lowest: tenths_text(lowest),
            });
        }
        Ok(generation
            .with_symmetry(self.symmetry.unwrap_or_default())?
            .with_difficulty(band))
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
    /// Worker threads (the bank's bytes do not depend on it). [default: all cores]
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
    /// Also write the run's statistics as JSON to FILE.
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
        let (output, continuation) = match (self.resume, self.append) {
            (Some(path), _) => (Output::File(path), Some((Mode::Resume, given))),
            (None, Some(path)) => (Output::File(path), Some((Mode::Append, given))),
            (None, None) if self.out.as_os_str() == "-" => (Output::Stdout, None),
            (None, None) => (Output::File(self.out), None),
        };
        Ok(GenerateConfig {
            job,
            output,
            continuation: continuation.map(|(mode, given)| Continue { mode, given }),
            force: self.force,
            stats_json: self.stats_json,
            report: Report {
                quiet: self.quiet,
                progress: !self.quiet && std::io::stderr().is_terminal(),
            },
            random_seed: random_seed && continuation.is_none_or(|(mode, _)| mode == Mode::Append),
            command_line,
        })
    }
}

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
    /// Thread counts to compare, comma-separated. [default: 1 and all cores]
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
                    .map(|g| g.with_difficulty(self.difficulty.map(Band::of_level)))
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
    /// [default: canonical for banks with a canon_id column, exact for others]
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
    /// Threads rating at once; rows come out in input order, the same bytes for any count.
    /// With more than one, rows are written a batch of puzzles at a time. [default: all
    /// cores]
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
        .map_err(|_| format!("{text:?} is not a thread count (a whole number from 1)"))
}

fn threads_or_all(threads: Option<NonZeroUsize>) -> usize {
    threads
        .or_else(|| std::thread::available_parallelism().ok())
        .map_or(1, NonZeroUsize::get)
}

#[cfg(test)]
mod tests {
    use super::*;
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
        ] {
            let err = parse(args).unwrap_err().to_string();
            assert!(err.contains("is not a thread count"), "{err}");
        }
        let Command::Generate(args) = parse(&["generate", "--count", "0"]).unwrap().command else {
            panic!("not generate");
        };
        assert_eq!(args.into_config(vec![]), Err(ConfigError::ZeroCount));
        assert!(parse(&["bench", "--count", "5", "--seconds", "1"]).is_err());
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
