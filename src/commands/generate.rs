//! `generate`: run the pipeline into a bank on stdout or in a file, with its manifest, or
//! carry on a bank file (`--resume`, `--append`).

use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::SystemTime;

use anyhow::{Context, Result, bail};

use super::Exit;
use crate::bank::BankWriter;
use crate::config::{Continue, GenerateConfig, Job, Mode, Output};
use crate::continuation::Continuation;
use crate::manifest::{Batch, Manifest};
use crate::output::{self, AtomicFile, Stamp};
use crate::pipeline::{self, Existing, Outcome, Status};
use crate::progress::Progress;
use crate::stats::counted;
use crate::symmetry::Symmetry;

/// Builds the bank `config` describes, or carries on the one it names. `stop` ends the
/// batch early (Ctrl-C); what was finished is still written as a valid bank.
pub fn generate(config: &GenerateConfig, stop: &AtomicBool) -> Result<Exit> {
    if let Some(Output::File(path)) = &config.stats_json {
        AtomicFile::check(path, true)?;
        if let Output::File(bank) = &config.output {
            for (taken, what) in [
                (bank.clone(), "the bank"),
                (Manifest::path_for(bank), "the bank's manifest"),
            ] {
                if output::same_place(path, &taken) {
                    bail!(
                        "--stats-json {} would replace {what}; name another file",
                        path.display()
                    );
                }
            }
        }
    }
    let started = SystemTime::now();
    let (job, outcome) = match (&config.output, config.continuation) {
        (Output::Stdout, _) => to_stdout(config, stop)?,
        (Output::File(path), None) => to_new_file(config, path, started, stop)?,
        (Output::File(path), Some(how)) => match carry_on(config, path, how, started, stop)? {
            Some(run) => run,
            None => return Ok(Exit::Success),
        },
    };
    if let Some(place) = &config.stats_json {
        let json = serde_json::to_vec_pretty(&outcome.stats)?;
        match place {
            Output::File(path) => AtomicFile::write_all(path, true, &json)?,
            Output::Stdout => {
                let mut out = output::stdout();
                out.write_all(&json)?;
                out.write_all(b"\n")?;
                out.flush()?;
            }
        }
    }
    report(config, &job, &outcome);
    Ok(match outcome.status {
        Status::Complete => Exit::Success,
        Status::Short => Exit::Incomplete,
        Status::Interrupted => Exit::Interrupted,
    })
}

/// Runs the batch into a bank on stdout, without a manifest.
fn to_stdout(config: &GenerateConfig, stop: &AtomicBool) -> Result<(Job, Outcome)> {
    let job = &config.job;
    let progress = Progress::new(job.count, config.report.progress);
    let context = "cannot write the bank to stdout";
    let mut writer = BankWriter::new(
        BufWriter::with_capacity(output::BUFFER_BYTES, io::stdout().lock()),
        &job.generation,
        job.dedup,
    )
    .context(context)?;
    let outcome =
        pipeline::run(job, Existing::default(), &mut writer, stop, &progress).context(context)?;
    writer
        .finish()
        .and_then(|mut out| out.flush())
        .context(context)?;
    Ok((job.clone(), outcome))
}

/// Runs the batch into a new bank file at `path`, published with its manifest.
fn to_new_file(
    config: &GenerateConfig,
    path: &Path,
    started: SystemTime,
    stop: &AtomicBool,
) -> Result<(Job, Outcome)> {
    let job = &config.job;
    let batches = vec![Batch::start(job, config.command_line.clone(), started)];
    let file = AtomicFile::create(path, config.force)?;
    let mut writer =
        BankWriter::new(file, &job.generation, job.dedup).with_context(|| cannot_write(path))?;
    let outcome = run_into_file(config, path, job, Existing::default(), &mut writer, stop)?;
    publish(config, started, path, writer, batches, job, &outcome)?;
    Ok((job.clone(), outcome))
}

/// Resumes or appends to the bank file at `path`, as `how` says; `None` when a resumed
/// batch is already complete, which leaves the bank as it was.
fn carry_on(
    config: &GenerateConfig,
    path: &Path,
    how: Continue,
    started: SystemTime,
    stop: &AtomicBool,
) -> Result<Option<(Job, Outcome)>> {
    // The bank as this run reads it: another run may carry it on meanwhile.
    let read = Stamp::of(path)?;
    let plan = Continuation::plan(path, how, &config.job)?;
    if plan.is_done() {
        if !config.report.quiet {
            crate::message!(
                "sudoku-bank: {} is complete ({}): nothing to resume; raise --count to extend its batch, or --append a new one",
                path.display(),
                counted(plan.job.count, "puzzle")
            );
        }
        return Ok(None);
    }
    let mut file = AtomicFile::create(path, true)?.over(read);
    let existing = plan.load(path, &mut file)?;
    if !config.report.quiet {
        announce(&plan, path, &existing);
    }
    let batches = plan.batches_for_run(config.command_line.clone(), started);
    let mut writer = BankWriter::continuing(file);
    let outcome = run_into_file(config, path, &plan.job, existing, &mut writer, stop)?;
    publish(config, started, path, writer, batches, &plan.job, &outcome)?;
    Ok(Some((plan.job, outcome)))
}

/// Says on stderr what a continuation of the bank at `path`, which holds `existing`, is
/// about to do.
fn announce(plan: &Continuation, path: &Path, existing: &Existing) {
    match plan.mode {
        Mode::Resume => crate::message!(
            "sudoku-bank: resuming {} at attempt {} with {} of {} puzzles",
            path.display(),
            plan.job.first_index,
            plan.batches.last().map_or(0, |b| b.rows),
            plan.job.count
        ),
        Mode::Append => crate::message!(
            "sudoku-bank: appending {} to {} ({} there already)",
            counted(plan.job.count, "puzzle"),
            path.display(),
            existing.keys.len()
        ),
    }
}

/// Publishes the bank file at `path` that `writer` holds, after a run of `job` (the last
/// of `batches`) that started at `started` and ended with `outcome`, then its manifest.
fn publish(
    config: &GenerateConfig,
    started: SystemTime,
    path: &Path,
    writer: BankWriter<AtomicFile>,
    mut batches: Vec<Batch>,
    job: &Job,
    outcome: &Outcome,
) -> Result<()> {
    writer
        .finish()
        .with_context(|| cannot_write(path))?
        .commit()?;
    let last = batches.pop().expect("a bank has a batch");
    batches.push(last.after(job, outcome));
    Manifest::new(batches, config.command_line.clone(), started, outcome).write(path)
}

/// Runs `job` into a bank file's `writer`, after what the file `existing`ly holds.
fn run_into_file(
    config: &GenerateConfig,
    path: &Path,
    job: &Job,
    existing: Existing,
    writer: &mut BankWriter<AtomicFile>,
    stop: &AtomicBool,
) -> Result<Outcome> {
    let progress = Progress::new(job.count, config.report.progress);
    pipeline::run(job, existing, writer, stop, &progress).with_context(|| cannot_write(path))
}

fn cannot_write(path: &Path) -> String {
    format!("cannot write {}", path.display())
}

/// The summary on stderr, and the line that explains a short or interrupted batch.
fn report(config: &GenerateConfig, job: &Job, outcome: &Outcome) {
    let n = job.generation.size.n();
    if !config.report.quiet {
        let seed_note = if config.random_seed { " (random)" } else { "" };
        crate::message!(
            "sudoku-bank: {n}×{n}, {target}{symmetry}, seed {seed}{seed_note}, attempts {first}..{next}\n  {summary}",
            target = job.generation.holes.phrase(),
            symmetry = match job.generation.symmetry {
                Symmetry::None => String::new(),
                symmetry => format!(", {symmetry} symmetry"),
            },
            seed = job.seed,
            first = job.first_index,
            next = outcome.next_index,
            summary = outcome.stats.summary(),
        );
    }
    match outcome.status {
        Status::Complete => {}
        Status::Short => {
            // A dig pass misses by falling short of the holes or, with a band, outside it.
            let (missed, hint) = match job.generation.difficulty {
                None => (job.generation.holes.phrase(), "lower --holes"),
                Some(band) => (
                    format!("{} or the band ({band})", job.generation.holes.phrase()),
                    "try other --holes or a wider band",
                ),
            };
            crate::message!(
                "sudoku-bank: only {rows} of {count} puzzles within {attempts} ({passes} dig passes missed {missed}, {dups} duplicates dropped); raise --max-attempts or {hint}",
                rows = outcome.rows,
                count = job.count,
                attempts = counted(outcome.stats.attempts, "attempt"),
                passes = outcome.stats.digs_missed,
                dups = outcome.stats.duplicates,
            )
        }
        Status::Interrupted => {
            let resume = match &config.output {
                Output::File(path) => format!(
                    "; `sudoku-bank generate --resume {}` carries on",
                    path.display()
                ),
                Output::Stdout => String::new(),
            };
            crate::message!(
                "sudoku-bank: interrupted after {rows} of {count} puzzles; the bank holds every finished row{resume}",
                rows = outcome.rows,
                count = job.count,
            )
        }
    }
}
