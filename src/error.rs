//! Library errors, worded for the person who typed the command.

use thiserror::Error;

/// A grid's text form could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GridError {
    /// A character that is not a digit of this size, `.`, or (up to 9×9) `0`.
    #[error("column {column}: unexpected character {ch:?}")]
    Character {
        /// 1-based character position in the line.
        column: usize,
        /// The offending character.
        ch: char,
    },
    /// The text has the wrong number of cells for the expected size.
    #[error("expected {expected} cells, found {found}")]
    Length {
        /// `N²` for the expected size.
        expected: usize,
        /// Characters found, whitespace trimmed.
        found: usize,
    },
    /// The length matches no supported size.
    #[error("{found} cells is not a grid size (expected 16, 81, 256 or 625)")]
    UnknownLength {
        /// Characters found, whitespace trimmed.
        found: usize,
    },
}

/// A search ran into a contradiction: the hot path's zero-sized dead end. Callers of
/// [`rate`](crate::rating::rate) get it for a puzzle with no solution, as an error `?` can
/// pass on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("the puzzle has no solution")]
pub struct Unsolvable;

/// A combination of parameters that cannot work, found before any work starts.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ConfigError {
    /// More holes than a puzzle with one solution of this size can have.
    #[error(
        "--holes {holes} is impossible for {n}×{n}: a puzzle with exactly one solution keeps at least {min_clues} clues, so at most {max} holes"
    )]
    TooManyHoles {
        /// The requested target.
        holes: usize,
        /// The grid side.
        n: usize,
        /// The most holes possible.
        max: usize,
        /// The fewest clues possible.
        min_clues: usize,
    },
    /// `--holes minimal` on a size where a minimal dig does not end in useful time.
    #[error(
        "--holes minimal is out of reach for {n}×{n}: past about 330 holes a single removal test can take millions of branches, so a dig until no clue can go does not end in useful time; give an exact --holes, such as 350"
    )]
    MinimalOutOfReach {
        /// The grid side.
        n: usize,
    },
    /// A hole target that no clue pattern of the symmetry has.
    #[error(
        "--holes {holes} cannot be reached with --symmetry {symmetry} on {n}×{n}: holes come in whole orbits of the symmetry; the nearest reachable counts are {nearest}"
    )]
    UnreachableBySymmetry {
        /// The requested target.
        holes: usize,
        /// The requested symmetry.
        symmetry: crate::symmetry::Symmetry,
        /// The grid side.
        n: usize,
        /// The nearest reachable targets, in words.
        nearest: String,
    },
    /// A difficulty band with `--holes minimal`.
    #[error(
        "a difficulty band (--difficulty, --min-rating, --max-rating) needs an exact --holes target, not minimal"
    )]
    BandNeedsExactHoles,
    /// `--min-rating` above `--max-rating`.
    #[error("--min-rating is above --max-rating: no puzzle can be kept")]
    EmptyBand,
    /// `--min-rating` above the highest rating the rater gives.
    #[error(
        "--min-rating {min} is above {highest}, the highest rating `rate` can give (a dynamic cell forcing chain of a 25×25 grid whose every candidate leads through every other): no puzzle can be kept"
    )]
    BandAboveRater {
        /// The lowest rating asked for.
        min: String,
        /// The highest rating the rater gives.
        highest: String,
    },
    /// `--max-rating` below the lowest rating of a puzzle with holes.
    #[error(
        "--max-rating {max} is below {lowest}, the lowest rating of a puzzle with holes (a full house): no puzzle can be kept"
    )]
    BandBelowRater {
        /// The highest rating asked for.
        max: String,
        /// The lowest rating of a puzzle with holes.
        lowest: String,
    },
    /// A 4×4 band that holds neither rating a 4×4 puzzle can have.
    #[error(
        "no 4×4 puzzle is rated within the band ({band}): full houses and hidden singles in boxes fill every 4×4 puzzle with one solution, so each rates 1.0 or 1.2"
    )]
    BandMissesFour {
        /// The band asked for, in words.
        band: String,
    },
    /// A band without 0.0 for complete grids.
    #[error(
        "no complete grid is rated within the band ({band}): complete grids (--holes 0) rate 0.0"
    )]
    BandMissesGrids {
        /// The band asked for, in words.
        band: String,
    },
    /// `--count 0`.
    #[error("--count must be at least 1")]
    ZeroCount,
    /// `--max-attempts 0`.
    #[error("--max-attempts must be at least 1")]
    ZeroAttempts,
    /// `--dedup canonical` for a size without canonical forms.
    #[error("--dedup canonical: {0}")]
    NoCanonicalForm(String),
    /// `--shard slurm` or `k8s/N` outside such a job.
    #[error("--shard: {0} (run it inside the job array, or give --shard K/N)")]
    ShardEnvironment(String),
    /// A shard outside `0..count`.
    #[error(
        "shard {index}/{count} does not exist: shards are numbered 0 to count − 1, and count is at least 1"
    )]
    BadShard {
        /// The shard asked for.
        index: u64,
        /// Shards in all.
        count: u64,
    },
    /// `--stats-json -` with the bank on stdout too.
    #[error(
        "--stats-json - would mix the statistics into the bank on stdout; give the bank a file with -o, or the statistics one"
    )]
    StatsWithBankOnStdout,
    /// A shard with fewer attempt indices than the attempts its budget allows.
    #[error(
        "shard {shard} holds only {positions} attempt indices (of 0 to 2^64 − 1), fewer than the {max_attempts} attempts it may make (--max-attempts); use fewer shards or a lower --max-attempts"
    )]
    ShardTooSmall {
        /// The shard.
        shard: crate::config::Shard,
        /// The attempt indices it holds.
        positions: u64,
        /// The attempts allowed.
        max_attempts: u64,
    },
}
