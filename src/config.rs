//! Checked run parameters, free of any command-line types.
//!
//! [`crate::cli`] turns flags into these; every cross-flag check happens in their
//! constructors, so a `Config` that exists is one the pipeline can run.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::error::ConfigError;
use crate::rating::{Band, FOUR_BY_FOUR_TENTHS, SeTechnique, tenths_text};
use crate::shape::Size;
use crate::symmetry::{Orbits, Symmetry};

/// What every attempt makes: the parameters that, with a seed and an index, fix a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Generation {
    /// Grid size.
    pub size: Size,
    /// How far each puzzle is dug.
    pub holes: Holes,
    /// The symmetry of every clue pattern (absent in manifests from before it existed).
    #[serde(default)]
    pub symmetry: Symmetry,
    /// The band of SE ratings kept, if any (`--difficulty`, `--min-rating`, `--max-rating`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub difficulty: Option<Band>,
}

impl Generation {
    /// Checks that `holes` can be reached on `size` at all; no symmetry. Minimal digs stop
    /// at 16×16: on 25×25, the removal tests of the last clues take millions of branches
    /// each (see docs/benchmark-log.md, "25×25 past 300 holes").
    pub fn new(size: Size, holes: Option<Holes>) -> Result<Self, ConfigError> {
        let holes = holes.unwrap_or(Holes::Exact(size.default_holes()));
        let max = size.max_holes();
        match holes {
            Holes::Exact(holes) if holes > max => Err(ConfigError::TooManyHoles {
                holes,
                n: size.n(),
                max,
                min_clues: size.cells() - max,
            }),
            Holes::Minimal if size == Size::TwentyFive => {
                Err(ConfigError::MinimalOutOfReach { n: size.n() })
            }
            _ => Ok(Generation {
                size,
                holes,
                symmetry: Symmetry::None,
                difficulty: None,
            }),
        }
    }

    /// The same, with clue patterns of `symmetry`: refused when no pattern of it has exactly
    /// the target's holes.
    pub fn with_symmetry(self, symmetry: Symmetry) -> Result<Self, ConfigError> {
        let with = Generation { symmetry, ..self };
        match self.holes {
            Holes::Exact(holes) if with.patterns().is_empty() => {
                let patterns = match symmetry {
                    Symmetry::Random => Symmetry::PATTERNS.to_vec(),
                    symmetry => vec![symmetry],
                };
                let mut reachable = vec![false; self.size.cells() + 1];
                for pattern in patterns {
                    let orbits = Orbits::new(pattern, self.size.n()).reachable();
                    for (any, this) in reachable.iter_mut().zip(orbits) {
                        *any |= this;
                    }
                }
                let below = (0..holes).rev().find(|&h| reachable[h]);
                let above = (holes + 1..=self.size.max_holes()).find(|&h| reachable[h]);
                let nearest = match (below, above) {
                    (Some(b), Some(a)) => format!("{b} or {a}"),
                    (Some(h), None) | (None, Some(h)) => h.to_string(),
                    (None, None) => "none".to_owned(),
                };
                Err(ConfigError::UnreachableBySymmetry {
                    holes,
                    symmetry,
                    n: self.size.n(),
                    nearest,
                })
            }
            _ => Ok(with),
        }
    }

    /// The same, keeping only puzzles whose SE rating falls in `band`. Refuses a band with
    /// minimal digs (a band's walks keep the hole count), and one that no puzzle of this
    /// size and target can fall in: one below a full house (1.0) for puzzles with holes, one
    /// without 0.0 for complete grids, and on 4×4 one that holds neither rating a 4×4 puzzle
    /// can have ([`FOUR_BY_FOUR_TENTHS`]).
    pub fn with_difficulty(self, band: Option<Band>) -> Result<Self, ConfigError> {
        if let Some(band) = band {
            if self.holes == Holes::Minimal {
                return Err(ConfigError::BandNeedsExactHoles);
            }
            let dug = self.holes != Holes::Exact(0);
            let lowest = SeTechnique::FullHouse.tenths();
            if dug && band.max_tenths < lowest {
                return Err(ConfigError::BandBelowRater {
                    max: tenths_text(band.max_tenths),
                    lowest: tenths_text(lowest),
                });
            }
            if !dug && !band.holds(0) {
                return Err(ConfigError::BandMissesGrids {
                    band: band.to_string(),
                });
            }
            if dug && self.size == Size::Four && !FOUR_BY_FOUR_TENTHS.iter().any(|&t| band.holds(t))
            {
                return Err(ConfigError::BandMissesFour {
                    band: band.to_string(),
                });
            }
        }
        Ok(Generation {
            difficulty: band,
            ..self
        })
    }

    /// The patterns an attempt may dig to: none, the one asked for, or for `random` each
    /// pattern that can reach the target.
    pub fn patterns(self) -> Vec<Symmetry> {
        let reaches = |symmetry| match self.holes {
            Holes::Exact(holes) => Orbits::new(symmetry, self.size.n()).reaches(holes),
            Holes::Minimal => true,
        };
        match self.symmetry {
            Symmetry::Random => Symmetry::PATTERNS
                .into_iter()
                .filter(|&s| reaches(s))
                .collect(),
            symmetry => [symmetry].into_iter().filter(|&s| reaches(s)).collect(),
        }
    }
}

/// How far each puzzle is dug: the `--holes` target. Written `55` or `minimal`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "HolesText", try_from = "HolesText")]
pub enum Holes {
    /// Exactly this many empty cells (0: complete grids).
    Exact(usize),
    /// Until no clue can go: a minimal puzzle, with as many holes as its dig reached.
    Minimal,
}

impl Holes {
    /// The target in words: `55 holes`, `minimal puzzles`.
    pub fn phrase(self) -> String {
        match self {
            Holes::Exact(holes) => format!("{holes} holes"),
            Holes::Minimal => "minimal puzzles".to_owned(),
        }
    }
}

/// As written on the command line: `55`, `minimal`.
impl fmt::Display for Holes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Holes::Exact(holes) => f.pad(&holes.to_string()),
            Holes::Minimal => f.pad("minimal"),
        }
    }
}

impl FromStr for Holes {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "minimal" => Ok(Holes::Minimal),
            _ => text.parse().map(Holes::Exact).map_err(|_| {
                format!("{text:?} is not a hole target (expected a number or \"minimal\")")
            }),
        }
    }
}

/// [`Holes`] as JSON: a number, or the string `"minimal"`.
#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum HolesText {
    Exact(usize),
    Named(String),
}

impl From<Holes> for HolesText {
    fn from(holes: Holes) -> Self {
        match holes {
            Holes::Exact(holes) => HolesText::Exact(holes),
            Holes::Minimal => HolesText::Named(holes.to_string()),
        }
    }
}

impl TryFrom<HolesText> for Holes {
    type Error = String;

    fn try_from(text: HolesText) -> Result<Self, String> {
        match text {
            HolesText::Exact(holes) => Ok(Holes::Exact(holes)),
            HolesText::Named(name) => name.parse(),
        }
    }
}

/// How the writer treats puzzles it has already written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Dedup {
    /// Drop a puzzle whose text equals an earlier one's (the default).
    Exact,
    /// Keep every successful attempt.
    None,
    /// Drop a puzzle equivalent to an earlier one under the Sudoku group (relabelling,
    /// transposition, band, stack, row and column permutations); the bank gains a
    /// `canon_id` column. 4×4 and 9×9 only ([`crate::canon::supported`]).
    Canonical,
}

impl Dedup {
    /// The mode as written on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Dedup::Exact => "exact",
            Dedup::None => "none",
            Dedup::Canonical => "canonical",
        }
    }
}

/// The most worker threads a batch runs. Past a few hundred on a machine with fewer cores,
/// the pool's idle threads cost more than the work (`generate --count 2` took 0.09 s on
/// 256 threads of a 2-core machine, 1.3 s on 1,024), and each thread keeps its own buffers.
pub const MAX_THREADS: usize = 1024;

/// One of `count` machines sharing a batch: it runs exactly the attempt indices `i` with
/// `i mod count == index`, so the shards partition the attempt stream of one machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Shard {
    /// This shard, `0..count`.
    pub index: u64,
    /// Shards in all.
    pub count: u64,
}

impl Shard {
    /// The whole batch, unsharded.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Shard `index` of `count`.
    pub fn new(index: u64, count: u64) -> Result<Self, ConfigError> {
        if count == 0 || index >= count {
            return Err(ConfigError::BadShard { index, count });
        }
        Ok(Shard { index, count })
    }

    /// True for [`Shard::WHOLE`].
    pub fn is_whole(&self) -> bool {
        *self == Shard::WHOLE
    }

    /// How many attempt indices (`0..=u64::MAX`) the shard holds: its positions. The whole
    /// batch's `2^64` are given as `u64::MAX`, which no attempt budget exceeds.
    pub fn positions(&self) -> u64 {
        ((u64::MAX - self.index) / self.count).saturating_add(1)
    }

    /// The attempt index of this shard's `position`-th attempt.
    pub fn index_at(&self, position: u64) -> u64 {
        position
            .saturating_mul(self.count)
            .saturating_add(self.index)
    }

    /// How many of this shard's attempt indices lie below `index`: the position of the
    /// first at or above it.
    pub fn position_of(&self, index: u64) -> u64 {
        index.saturating_sub(self.index).div_ceil(self.count)
    }
}

impl Default for Shard {
    fn default() -> Self {
        Shard::WHOLE
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Where the bank goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    /// Standard output (`-o -` or no `-o`).
    Stdout,
    /// A file, written under a temporary name and renamed into place when complete.
    File(PathBuf),
}

/// What a batch produces, independent of where the rows go.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Job {
    /// Size and hole target.
    #[serde(flatten)]
    pub generation: Generation,
    /// Distinct puzzles wanted.
    pub count: u64,
    /// The master seed.
    pub seed: u64,
    /// Worker threads (does not change the bank's bytes).
    pub threads: usize,
    /// Duplicate handling.
    pub dedup: Dedup,
    /// The attempt budget: the batch ends short of `count` at this attempt index, or for a
    /// shard after this many of its own attempts (counted from index 0: the same thing
    /// unsharded).
    pub max_attempts: u64,
    /// The first attempt index (of the whole batch's stream, sharded or not).
    pub first_index: u64,
    /// The share of the attempt stream this machine runs.
    #[serde(default, skip_serializing_if = "Shard::is_whole")]
    pub shard: Shard,
}

impl Job {
    /// Checks the counts; `max_attempts` defaults to [`Job::default_max_attempts`], and
    /// `threads` is held to `1..=`[`MAX_THREADS`].
    pub fn new(
        generation: Generation,
        count: u64,
        seed: u64,
        threads: usize,
        dedup: Dedup,
        max_attempts: Option<u64>,
    ) -> Result<Self, ConfigError> {
        if count == 0 {
            return Err(ConfigError::ZeroCount);
        }
        let max_attempts = max_attempts.unwrap_or_else(|| Self::default_max_attempts(count));
        if max_attempts == 0 {
            return Err(ConfigError::ZeroAttempts);
        }
        if dedup == Dedup::Canonical {
            crate::canon::supported(generation.size).map_err(ConfigError::NoCanonicalForm)?;
        }
        Ok(Job {
            generation,
            count,
            seed,
            threads: threads.clamp(1, MAX_THREADS),
            dedup,
            max_attempts,
            first_index: 0,
            shard: Shard::WHOLE,
        })
    }

    /// Checks that the shard holds as many attempt indices as the budget allows attempts:
    /// past its last index, a shard would run that attempt again.
    pub fn check_shard(&self) -> Result<(), ConfigError> {
        if self.max_attempts > self.shard.positions() {
            return Err(ConfigError::ShardTooSmall {
                shard: self.shard,
                positions: self.shard.positions(),
                max_attempts: self.max_attempts,
            });
        }
        Ok(())
    }

    /// 100 attempts per puzzle wanted, plus 1,000: ample for any target most attempts reach,
    /// and a bounded run for one they almost never do.
    pub fn default_max_attempts(count: u64) -> u64 {
        count.saturating_mul(100).saturating_add(1000)
    }
}

/// How much the run tells on stderr.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Report {
    /// Errors only.
    pub quiet: bool,
    /// Show a progress bar (stderr is a terminal and not quiet).
    pub progress: bool,
}

/// How `generate` carries on an existing bank file (the `Output::File`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `--resume`: run the bank's last batch on from where it stopped.
    Resume,
    /// `--append`: add a new batch, with a new seed.
    Append,
}

/// Which of the job's flags were given on the command line; the others are taken from the
/// bank being carried on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct Given {
    pub size: bool,
    pub holes: bool,
    pub symmetry: bool,
    pub difficulty: bool,
    pub count: bool,
    pub seed: bool,
    pub dedup: bool,
    pub max_attempts: bool,
    pub shard: bool,
}

/// A bank to carry on, and what was asked of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Continue {
    /// Resume or append.
    pub mode: Mode,
    /// The flags given with it.
    pub given: Given,
}

/// Everything `generate` needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenerateConfig {
    /// What to make.
    pub job: Job,
    /// Where the bank goes.
    pub output: Output,
    /// Carry on the bank at `output` rather than write a new one; `job` then holds only the
    /// flags given, and the rest comes from the bank's manifest.
    pub continuation: Option<Continue>,
    /// Replace an existing output file.
    pub force: bool,
    /// Where to write the statistics as JSON, if anywhere: a file, or stdout when the bank
    /// goes to a file.
    pub stats_json: Option<Output>,
    /// Stderr verbosity.
    pub report: Report,
    /// Whether the seed was drawn at random (the summary then says so).
    pub random_seed: bool,
    /// The command line, for the manifest.
    pub command_line: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shard_counts_its_attempt_indices() {
        let shard = |index, count| Shard::new(index, count).unwrap();
        assert_eq!(Shard::WHOLE.positions(), u64::MAX);
        assert_eq!(shard(0, 2).positions(), 1 << 63);
        assert_eq!(shard(1, 2).positions(), 1 << 63);
        assert_eq!(shard(0, 3).positions(), u64::MAX / 3 + 1);
        // u64::MAX = 3 · (u64::MAX / 3): shard 2/3 ends one index short of it.
        assert_eq!(shard(2, 3).positions(), u64::MAX / 3);
        assert_eq!(shard(5, u64::MAX).positions(), 1);
        // Its last position is its last index, below 2^64.
        for s in [shard(2, 3), shard(5, u64::MAX), shard(7, 1 << 40)] {
            let last = s.index_at(s.positions() - 1);
            assert!(last.checked_add(s.count).is_none(), "{s}: {last}");
        }
    }

    #[test]
    fn hole_limits_are_checked() {
        let exact = |size, holes| Generation::new(size, Some(Holes::Exact(holes)));
        assert!(exact(Size::Nine, 64).is_ok());
        let err = exact(Size::Nine, 65).unwrap_err();
        assert!(err.to_string().contains("at least 17 clues"), "{err}");
        assert!(exact(Size::Four, 13).is_err());
        assert!(exact(Size::Sixteen, 256).is_err());
        assert!(Generation::new(Size::Sixteen, Some(Holes::Minimal)).is_ok());
        assert_eq!(
            Generation::new(Size::TwentyFive, Some(Holes::Minimal)),
            Err(ConfigError::MinimalOutOfReach { n: 25 })
        );
        assert_eq!(
            Generation::new(Size::Nine, None).unwrap().holes,
            Holes::Exact(50)
        );
    }

    #[test]
    fn hole_targets_read_and_write() {
        assert_eq!("55".parse(), Ok(Holes::Exact(55)));
        assert_eq!("minimal".parse(), Ok(Holes::Minimal));
        assert!("many".parse::<Holes>().unwrap_err().contains("\"many\""));
        for holes in [Holes::Exact(0), Holes::Exact(55), Holes::Minimal] {
            let json = serde_json::to_string(&holes).unwrap();
            assert_eq!(serde_json::from_str::<Holes>(&json).unwrap(), holes);
        }
        assert_eq!(serde_json::to_string(&Holes::Exact(55)).unwrap(), "55");
        assert_eq!(
            serde_json::to_string(&Holes::Minimal).unwrap(),
            "\"minimal\""
        );
    }

    #[test]
    fn counts_are_checked() {
        let g = Generation::new(Size::Nine, None).unwrap();
        assert_eq!(
            Job::new(g, 0, 1, 1, Dedup::Exact, None),
            Err(ConfigError::ZeroCount)
        );
        assert_eq!(
            Job::new(g, 5, 1, 1, Dedup::Exact, Some(0)),
            Err(ConfigError::ZeroAttempts)
        );
        assert_eq!(
            Job::new(g, 5, 1, 1, Dedup::Exact, None)
                .unwrap()
                .max_attempts,
            1500
        );
        for (asked, runs) in [
            (0, 1),
            (3, 3),
            (MAX_THREADS, MAX_THREADS),
            (usize::MAX, 1024),
        ] {
            let job = Job::new(g, 5, 1, asked, Dedup::Exact, None).unwrap();
            assert_eq!(job.threads, runs, "{asked} threads asked");
        }
        let sixteen = Generation::new(Size::Sixteen, None).unwrap();
        let err = Job::new(sixteen, 5, 1, 1, Dedup::Canonical, None).unwrap_err();
        assert!(err.to_string().contains("4×4 and 9×9 only"), "{err}");
    }

    #[test]
    fn shards_partition_the_indices() {
        assert!(Shard::new(3, 3).is_err() && Shard::new(0, 0).is_err());
        let shards: Vec<Shard> = (0..4).map(|k| Shard::new(k, 4).unwrap()).collect();
        let mut owner = vec![None; 100];
        for shard in &shards {
            for position in 0..25 {
                let index = shard.index_at(position) as usize;
                assert_eq!(owner[index].replace(shard.index), None);
                assert_eq!(shard.position_of(index as u64), position);
                assert_eq!(shard.position_of(index as u64 + 1), position + 1);
            }
        }
        assert!(owner.iter().all(Option::is_some));
        assert_eq!(Shard::WHOLE.position_of(17), 17);
        assert_eq!(Shard::new(2, 4).unwrap().to_string(), "2/4");
    }
}
