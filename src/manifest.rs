//! The manifest: a JSON sidecar `F.json` beside every bank written to a file `F`, saying
//! how the bank was made and how far the batch got (SPEC "Manifest").

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use serde::{Deserialize, Serialize};

use crate::config::Job;
use crate::pipeline::{Outcome, Status};
use crate::stats::Stats;

/// Everything known about one bank file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// `sudoku-bank`.
    pub tool: String,
    /// The tool's version.
    pub version: String,
    /// The command line that made the bank.
    pub command_line: Vec<String>,
    /// Every effective parameter.
    pub parameters: Job,
    /// When the batch started (RFC 3339, UTC).
    pub started: String,
    /// When it finished (RFC 3339, UTC).
    pub finished: String,
    /// How it ended.
    pub status: Status,
    /// Rows in the bank.
    pub rows: u64,
    /// The first attempt index not consumed.
    pub next_index: u64,
    /// The same statistics `--stats-json` writes.
    pub stats: Stats,
}

impl Manifest {
    /// The manifest of a finished batch.
    pub fn new(
        job: &Job,
        command_line: Vec<String>,
        started: SystemTime,
        outcome: &Outcome,
    ) -> Self {
        Manifest {
            tool: env!("CARGO_PKG_NAME").to_owned(),
            version: env!("CARGO_PKG_VERSION").to_owned(),
            command_line,
            parameters: job.clone(),
            started: timestamp(started),
            finished: timestamp(SystemTime::now()),
            status: outcome.status,
            rows: outcome.rows,
            next_index: outcome.next_index,
            stats: outcome.stats.clone(),
        }
    }

    /// Where the manifest of the bank at `bank` lives: `bank` with `.json` appended.
    pub fn path_for(bank: &Path) -> PathBuf {
        let mut name = bank.as_os_str().to_owned();
        name.push(".json");
        PathBuf::from(name)
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
}
