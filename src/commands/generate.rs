//! `generate`: run the pipeline into a bank on stdout or in a file, with its manifest.

use std::io::{self, BufWriter, Write};
use std::sync::atomic::AtomicBool;
use std::time::SystemTime;

use anyhow::{Context, Result};

use super::Exit;
use crate::bank::BankWriter;
use crate::config::{GenerateConfig, Output};
use crate::manifest::Manifest;
use crate::output::AtomicFile;
use crate::pipeline::{self, Outcome, Status};
use crate::progress::Progress;

/// Builds the bank `config` describes. `stop` ends the batch early (Ctrl-C); what was
/// finished is still written as a valid bank.
pub fn generate(config: &GenerateConfig, stop: &AtomicBool) -> Result<Exit> {
    let job = &config.job;
    if let Some(path) = &config.stats_json {
        AtomicFile::check(path, true)?;
    }
    let started = SystemTime::now();
    let progress = Progress::new(job.count, config.report.progress);
    let outcome = match &config.output {
        Output::Stdout => {
            let mut writer = BankWriter::new(BufWriter::new(io::stdout().lock()))?;
            let outcome = pipeline::run(job, &mut writer, stop, &progress)?;
            writer.finish()?.flush()?;
            outcome
        }
        Output::File(path) => {
            let file = AtomicFile::create(path, config.force)?;
            let context = || format!("cannot write {}", path.display());
            let mut writer = BankWriter::new(file).with_context(context)?;
            let outcome = pipeline::run(job, &mut writer, stop, &progress).with_context(context)?;
            writer.finish().with_context(context)?.commit()?;
            let manifest = Manifest::new(job, config.command_line.clone(), started, &outcome);
            let json = serde_json::to_vec_pretty(&manifest)?;
            AtomicFile::write_all(&Manifest::path_for(path), true, &json)?;
            outcome
        }
    };
    if let Some(path) = &config.stats_json {
        let json = serde_json::to_vec_pretty(&outcome.stats)?;
        AtomicFile::write_all(path, true, &json)?;
    }
    report(config, &outcome);
    Ok(match outcome.status {
        Status::Complete => Exit::Success,
        Status::Short => Exit::Incomplete,
        Status::Interrupted => Exit::Interrupted,
    })
}

/// The summary on stderr, and the line that explains a short or interrupted batch.
fn report(config: &GenerateConfig, outcome: &Outcome) {
    let job = &config.job;
    let n = job.generation.size.n();
    if !config.report.quiet {
        let seed_note = if config.random_seed { " (random)" } else { "" };
        eprintln!(
            "sudoku-bank: {n}×{n}, {target}, seed {seed}{seed_note}, attempts {first}..{next}\n  {summary}",
            target = job.generation.holes.phrase(),
            seed = job.seed,
            first = job.first_index,
            next = outcome.next_index,
            summary = outcome.stats.summary(),
        );
    }
    match outcome.status {
        Status::Complete => {}
        Status::Short => eprintln!(
            "sudoku-bank: only {rows} of {count} puzzles within {attempts} attempts ({missed} dig passes missed {target}, {dups} duplicates dropped); raise --max-attempts or lower --holes",
            rows = outcome.rows,
            count = job.count,
            attempts = outcome.stats.attempts,
            missed = outcome.stats.digs_missed,
            target = job.generation.holes.phrase(),
            dups = outcome.stats.duplicates,
        ),
        Status::Interrupted => eprintln!(
            "sudoku-bank: interrupted after {rows} of {count} puzzles; the bank holds every finished row",
            rows = outcome.rows,
            count = job.count,
        ),
    }
}
