//! The manifest: a JSON sidecar `F.json` beside every bank written to a file `F`, saying
//! how the bank was made and how far the batch got (SPEC "Manifest").

use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use anyhow::{Context, Result, anyhow, bail};
use serde::{Deserialize, Serialize};

use crate::config::{Dedup, Generation, Job, Shard};
use crate::input::Input;
use crate::output::AtomicFile;
use crate::pipeline::{Outcome, Status};
use crate::rating::Band;
use crate::stats::Stats;

/// Everything known about one bank file. The top-level fields describe the latest run and
/// its batch; `batches` lists every batch whose rows the bank holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// `sudoku-bank`.
    pub tool: String,
    /// The tool's version.
    pub version: String,
    /// The command line of the latest run.
    pub command_line: Vec<String>,
    /// Every effective parameter of the latest batch.
    pub parameters: Job,
    /// When the latest run started (RFC 3339, UTC).
    pub started: String,
    /// When it finished (RFC 3339, UTC).
    pub finished: String,
    /// How the latest batch stands.
    pub status: Status,
    /// Rows in the bank, of every batch.
    pub rows: u64,
    /// The first attempt index the latest batch has not consumed.
    pub next_index: u64,
    /// The latest run's statistics, as `--stats-json` writes them.
    pub stats: Stats,
    /// Every batch in the bank, in the order their rows appear; the last is the latest.
    /// (Absent in manifests from before batches were recorded: then the top-level fields are
    /// the one batch.)
    #[serde(default)]
    pub batches: Vec<Batch>,
}

/// One batch of a bank: a run of rows from one seed, in ascending attempt index.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Batch {
    /// Its parameters; `count` is the rows the batch is to add to the bank.
    pub parameters: Job,
    /// The command line that started it.
    pub command_line: Vec<String>,
    /// When it started (RFC 3339, UTC).
    pub started: String,
    /// When it last ran to a stop (RFC 3339, UTC).
    pub finished: String,
    /// How it stands.
    pub status: Status,
    /// Rows it added to the bank.
    pub rows: u64,
    /// The first attempt index it has not consumed: where a resumption starts.
    pub next_index: u64,
}

impl Batch {
    /// A batch of `job` started now by `command_line`, with nothing done yet.
    pub fn start(job: &Job, command_line: Vec<String>, started: SystemTime) -> Self {
        Batch {
            parameters: job.clone(),
            command_line,
            started: timestamp(started),
            finished: timestamp(started),
            status: Status::Short,
            rows: 0,
            next_index: job.first_index,
        }
    }

    /// The batch after a run of `job` that ended with `outcome`.
    pub fn after(mut self, job: &Job, outcome: &Outcome) -> Self {
        self.parameters = job.clone();
        self.finished = timestamp(SystemTime::now());
        self.status = outcome.status;
        self.rows = outcome.rows;
        self.next_index = outcome.next_index;
        self
    }
}

impl Manifest {
    /// The manifest of a bank holding `batches`, after a run that began at `started`, ran
    /// the last batch and ended with `outcome`.
    pub fn new(
        batches: Vec<Batch>,
        command_line: Vec<String>,
        started: SystemTime,
        outcome: &Outcome,
    ) -> Self {
        let latest = batches.last().expect("a bank has a batch");
        Manifest {
            tool: env!("CARGO_PKG_NAME").to_owned(),
            version: env!("CARGO_PKG_VERSION").to_owned(),
            command_line,
            parameters: latest.parameters.clone(),
            started: timestamp(started),
            finished: latest.finished.clone(),
            status: latest.status,
            rows: batches.iter().map(|b| b.rows).sum(),
            next_index: latest.next_index,
            stats: outcome.stats.clone(),
            batches,
        }
    }

    /// Reads and checks the manifest of the bank at `bank`, which generate wrote.
    pub fn read(bank: &Path) -> Result<Manifest> {
        Manifest::read_generated(bank)?.ok_or_else(|| {
            anyhow!(
                "{} was written by merge: only a bank that generate wrote can be resumed or appended to",
                bank.display()
            )
        })
    }

    /// Reads and checks the manifest of the bank at `bank`; `None` when `merge` wrote the
    /// bank (its manifest lists inputs, not batches).
    pub fn read_generated(bank: &Path) -> Result<Option<Manifest>> {
        Ok(match Manifest::read_any(bank)? {
            Written::Generated(manifest) => Some(*manifest),
            Written::Merged(_) => None,
        })
    }

    /// Reads the manifest of the bank at `bank`, checking a generate manifest's batches.
    fn read_any(bank: &Path) -> Result<Written> {
        let path = Manifest::path_for(bank);
        let input = Input::open(Some(&path)).with_context(|| {
            format!(
                "{} has no readable manifest (only banks that generate wrote to a file have one)",
                bank.display()
            )
        })?;
        let name = input.name;
        let mut text = String::new();
        let mut reader = input.reader;
        reader
            .read_to_string(&mut text)
            .with_context(|| format!("cannot read {name}"))?;
        let mut manifest: Manifest = match serde_json::from_str(&text) {
            Ok(manifest) => manifest,
            Err(_)
                if serde_json::from_str::<Command>(&text).is_ok_and(|c| c.command == "merge") =>
            {
                let merged = serde_json::from_str(&text)
                    .with_context(|| format!("{name} is not a readable merge manifest"))?;
                return Ok(Written::Merged(merged));
            }
            Err(err) => bail!("{name} is not a sudoku-bank manifest: {err}"),
        };
        if manifest.tool != env!("CARGO_PKG_NAME") {
            bail!("{name} was written by {:?}, not sudoku-bank", manifest.tool);
        }
        if manifest.batches.is_empty() {
            // A manifest from before banks had batches: its one batch is the manifest's own.
            manifest.batches.push(Batch {
                parameters: manifest.parameters.clone(),
                command_line: manifest.command_line.clone(),
                started: manifest.started.clone(),
                finished: manifest.finished.clone(),
                status: manifest.status,
                rows: manifest.rows,
                next_index: manifest.next_index,
            });
        }
        manifest.check_batches(&name)?;
        Ok(Written::Generated(Box::new(manifest)))
    }

    /// Checks each batch's parameters as the command line would, and that every batch has
    /// the size of the first; `name` names the manifest in the error.
    fn check_batches(&self, name: &str) -> Result<()> {
        let size = self.batches[0].parameters.generation.size;
        for (k, batch) in self.batches.iter().enumerate() {
            let job = &batch.parameters;
            let generation = job.generation;
            let checked = Generation::new(generation.size, Some(generation.holes))
                .map_err(anyhow::Error::from)
                .and_then(|_| {
                    Job::new(
                        generation,
                        job.count,
                        job.seed,
                        job.threads,
                        job.dedup,
                        Some(job.max_attempts),
                    )
                    .map_err(anyhow::Error::from)
                })
                .and_then(|_| {
                    Shard::new(job.shard.index, job.shard.count).map_err(anyhow::Error::from)
                });
            if let Err(err) = checked {
                bail!("{name}: batch {}: {err}", k + 1);
            }
            if generation.size != size {
                bail!(
                    "{name}: batch {} is {n}×{n}, the bank {m}×{m}",
                    k + 1,
                    n = generation.size.n(),
                    m = size.n()
                );
            }
        }
        Ok(())
    }

    /// Writes the manifest beside the bank at `bank`, atomically.
    pub fn write(&self, bank: &Path) -> Result<()> {
        let json = serde_json::to_vec_pretty(self)?;
        AtomicFile::write_all(&Manifest::path_for(bank), true, &json)
    }

    /// Where the manifest of the bank at `bank` lives: `bank` with `.json` appended.
    pub fn path_for(bank: &Path) -> PathBuf {
        let mut name = bank.as_os_str().to_owned();
        name.push(".json");
        PathBuf::from(name)
    }
}

/// A manifest as read: generate's, or merge's.
enum Written {
    Generated(Box<Manifest>),
    Merged(Merged),
}

/// Enough of a manifest to tell merge's from generate's.
#[derive(Deserialize)]
struct Command {
    command: String,
}

/// What is read of a merge's manifest: the bands of the batches it merged, and how it
/// recognised duplicates.
#[derive(Deserialize)]
struct Merged {
    #[serde(default)]
    bands: Vec<SeedBand>,
    dedup: Option<Dedup>,
}

/// The difficulty band of a batch, by the batch's seed: what a merged bank keeps of its
/// inputs' batches, so that `verify --provenance` regenerates their rated rows with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeedBand {
    /// The batch's master seed.
    pub seed: u64,
    /// Its band.
    #[serde(flatten)]
    pub band: Band,
}

/// The bands of the rated batches of the bank at `bank`, from its manifest: a bank `generate`
/// wrote lists its batches, one `merge` wrote the bands of its inputs' batches. Empty when
/// there is no manifest or it cannot be read.
pub fn batch_bands(bank: &Path) -> Vec<SeedBand> {
    match Manifest::read_any(bank) {
        Ok(Written::Generated(manifest)) => manifest
            .batches
            .iter()
            .filter_map(|batch| {
                let job = &batch.parameters;
                Some(SeedBand {
                    seed: job.seed,
                    band: job.generation.difficulty?,
                })
            })
            .collect(),
        Ok(Written::Merged(merged)) => merged.bands,
        Err(_) => Vec::new(),
    }
}

/// How a bank's rows were deduplicated, as its manifest says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum RowsDedup {
    /// Not known: there is no manifest, or it cannot be read.
    #[default]
    Unknown,
    /// By the batch each row belongs to, by the batch's seed: `generate --dedup`.
    ByBatch(Vec<(u64, Dedup)>),
    /// One mode for every row: `merge --dedup`.
    All(Dedup),
}

impl RowsDedup {
    /// How the row of the batch of `seed` (if the row gives one) was deduplicated; `None`
    /// when not known.
    pub fn of(&self, seed: Option<u64>) -> Option<Dedup> {
        match self {
            RowsDedup::Unknown => None,
            RowsDedup::ByBatch(batches) => seed.and_then(|seed| {
                batches
                    .iter()
                    .find(|&&(batch, _)| batch == seed)
                    .map(|&(_, dedup)| dedup)
            }),
            RowsDedup::All(dedup) => Some(*dedup),
        }
    }
}

/// How the rows of the bank at `bank` were deduplicated, from its manifest: by batch for a
/// bank `generate` wrote, one mode for a bank `merge` wrote; [`RowsDedup::Unknown`] when
/// there is no manifest or it cannot be read.
pub fn rows_dedup(bank: &Path) -> RowsDedup {
    match Manifest::read_any(bank) {
        Ok(Written::Generated(manifest)) => RowsDedup::ByBatch(
            manifest
                .batches
                .iter()
                .map(|batch| (batch.parameters.seed, batch.parameters.dedup))
                .collect(),
        ),
        Ok(Written::Merged(Merged {
            dedup: Some(dedup), ..
        })) => RowsDedup::All(dedup),
        Ok(Written::Merged(_)) | Err(_) => RowsDedup::Unknown,
    }
}

/// `time` as RFC 3339 in UTC, to the second.
pub fn timestamp(time: SystemTime) -> String {
    humantime::format_rfc3339_seconds(time).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sidecar_path_appends_json() {
        assert_eq!(
            Manifest::path_for(Path::new("out/bank.csv")),
            PathBuf::from("out/bank.csv.json")
        );
        assert_eq!(timestamp(SystemTime::UNIX_EPOCH), "1970-01-01T00:00:00Z");
    }

    /// A merge's manifest is told from generate's and gives its bands; one whose bands
    /// cannot be read is refused as a merge manifest, and other JSON as no manifest.
    #[test]
    fn merge_manifests_give_their_bands() {
        let dir = tempfile::tempdir().unwrap();
        let bank = dir.path().join("merged.csv");
        let write = |json: &str| std::fs::write(Manifest::path_for(&bank), json).unwrap();
        let band = SeedBand {
            seed: 7,
            band: Band::of_level(crate::rating::Level::Hard),
        };

        write(
            r#"{"command": "merge", "bands": [{"seed": 7, "min_tenths": 25, "max_tenths": 49}]}"#,
        );
        assert!(Manifest::read_generated(&bank).unwrap().is_none());
        assert_eq!(batch_bands(&bank), vec![band]);

        write(r#"{"command": "merge"}"#);
        assert!(Manifest::read_generated(&bank).unwrap().is_none());
        assert_eq!(batch_bands(&bank), vec![]);

        write(r#"{"command": "merge", "bands": "oops"}"#);
        let err = Manifest::read_generated(&bank).unwrap_err().to_string();
        assert!(err.contains("is not a readable merge manifest"), "{err}");
        assert_eq!(batch_bands(&bank), vec![]);

        write(r#"{"command": "other"}"#);
        let err = Manifest::read_generated(&bank).unwrap_err().to_string();
        assert!(err.contains("is not a sudoku-bank manifest"), "{err}");
    }
}
