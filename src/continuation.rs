//! Carrying on a bank file: `--resume` runs its last batch on from where it stopped,
//! `--append` adds a new batch with a new seed.
//!
//! Either way the bank is checked row by row against its manifest, every puzzle in it goes
//! into the dedup set, and the new bank is the old one's bytes followed by the new rows,
//! published whole like any bank. A resumed batch starts at the manifest's next attempt
//! index with its own rows already counted, so it writes exactly the rows an uninterrupted
//! run would have written after them.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::Path;

use anyhow::{Context, Result, anyhow, bail};

use crate::bank::{BankReader, Column, Next};
use crate::config::{Continue, Dedup, Generation, Given, Job, Mode};
use crate::dedup::Keyer;
use crate::grid::Grid;
use crate::hash::KeySet;
use crate::input::Input;
use crate::manifest::{Batch, Manifest};
use crate::pipeline::{Existing, Status};
use crate::shape::Shape;
use crate::symmetry::Symmetry;

/// A checked plan to carry on a bank.
#[derive(Debug)]
pub struct Continuation {
    /// Resume or append.
    pub mode: Mode,
    /// The batches the bank holds now.
    pub batches: Vec<Batch>,
    /// The batch to run: the last one resumed, or a new one.
    pub job: Job,
}

impl Continuation {
    /// Reads the manifest of the bank at `path` and works out the batch to run: `asked`
    /// holds the flags given (the rest are taken from the bank), `how` which of them were.
    pub fn plan(path: &Path, how: Continue, asked: &Job) -> Result<Continuation> {
        let manifest = Manifest::read(path)?;
        let last = manifest
            .batches
            .last()
            .expect("a read manifest has a batch");
        let bank = &last.parameters;
        let mut differ = Vec::new();
        if how.given.size && asked.generation.size != bank.generation.size {
            differ.push(format!(
                "--size {} (the bank's is {})",
                asked.generation.size.n(),
                bank.generation.size.n()
            ));
        }
        let name = path.display();
        let job = match how.mode {
            Mode::Resume => resumed(last, &name, how.given, asked, differ)?,
            Mode::Append => appended(&manifest.batches, &name, how.given, asked, &differ)?,
        };
        job.check_shard()?;
        Ok(Continuation {
            mode: how.mode,
            batches: manifest.batches,
            job,
        })
    }

    /// True when there is nothing to do: a resumed batch that is already complete.
    pub fn is_done(&self) -> bool {
        let last = self.batches.last().expect("a bank has a batch");
        self.mode == Mode::Resume && last.status == Status::Complete && last.rows >= self.job.count
    }

    /// The batches of the bank after this run: the resumed batch still to be updated last,
    /// or a new batch started now by `command_line`.
    pub fn batches_for_run(
        &self,
        command_line: Vec<String>,
        started: std::time::SystemTime,
    ) -> Vec<Batch> {
        let mut batches = self.batches.clone();
        if self.mode == Mode::Append {
            batches.push(Batch::start(&self.job, command_line, started));
        }
        batches
    }

    /// Checks the bank at `path` row by row against the manifest, then copies its bytes to
    /// `copy`; returns what the pipeline needs to know of it.
    pub fn load(&self, path: &Path, copy: &mut impl Write) -> Result<Existing> {
        let size = self.job.generation.size;
        let expected: u64 = self.batches.iter().map(|b| b.rows).sum();
        let first = &self.batches[0].parameters;
        let scan = crate::with_shape!(size, S => scan::<S>(path, first, self.job.dedup, expected))?;
        let name = path.display();
        if scan.rows != expected {
            bail!(
                "{name} has {} rows but its manifest counts {expected}: the bank changed after it was written (check it with verify, and start a new bank)",
                scan.rows
            );
        }
        let last = self.batches.last().expect("a bank has a batch");
        let batch_rows = match self.mode {
            Mode::Resume => last.rows,
            Mode::Append => 0,
        };
        if let (Mode::Resume, true, Some((seed, index))) = (self.mode, last.rows > 0, scan.last) {
            if seed != last.parameters.seed || index >= last.next_index {
                bail!(
                    "{name}: the last row (seed {seed}, index {index}) does not belong to the batch its manifest resumes (seed {}, attempts before {})",
                    last.parameters.seed,
                    last.next_index
                );
            }
        }
        let mut file = File::open(path).with_context(|| format!("cannot read {name}"))?;
        io::copy(&mut file, copy).with_context(|| format!("cannot copy {name}"))?;
        Ok(Existing {
            keys: scan.keys,
            batch_rows,
        })
    }
}

/// What a pass over a bank found.
struct Scan {
    rows: u64,
    keys: KeySet,
    /// The last row's seed and index.
    last: Option<(u64, u64)>,
}

/// Reads every row of the bank at `path`, of size `S`, whose first batch was `first`,
/// refusing anything `generate` would not have written; keys its puzzles under `dedup`.
fn scan<S: Shape>(path: &Path, first: &Job, dedup: Dedup, expected_rows: u64) -> Result<Scan> {
    let input = Input::open(Some(path))?;
    let name = input.name;
    let mut reader = BankReader::new(&name, input.reader)?;
    if !reader.has_header_of(&first.generation, first.dedup) {
        let expected: Vec<&str> = crate::bank::header(&first.generation, first.dedup).collect();
        bail!(
            "{name}: line 1: the header is not the one generate writes ({}), so rows cannot be added to it",
            expected.join(",")
        );
    }
    ends_with_line_break(path)?;
    let mut keys = KeySet::with_capacity(expected_rows);
    let mut keyer = Keyer::new(dedup);
    let mut record = csv::StringRecord::new();
    let mut scan_last = None;
    let mut rows = 0u64;
    let size_text = S::N.to_string();
    loop {
        match reader.read(&mut record)? {
            Next::End => break,
            Next::Malformed(bad) => bail!("{name}: line {}: {}", bad.line, bad.reason),
            Next::Row => {}
        }
        let line = crate::bank::line_of(&record);
        let field = |column| reader.field(&record, column);
        let at = |what: String| anyhow!("{name}: line {line}: {what}");
        if field(Column::Size) != size_text {
            return Err(at(format!(
                "size {:?}, the bank's is {}",
                field(Column::Size),
                S::N
            )));
        }
        let puzzle =
            Grid::<S>::parse(field(Column::Puzzle)).map_err(|err| at(format!("puzzle: {err}")))?;
        if let Some(conflict) = puzzle.conflict() {
            return Err(at(format!("puzzle clues conflict: {conflict}")));
        }
        keys.insert(keyer.key(&puzzle).key);
        let number = |column, label: &str| {
            field(column)
                .parse::<u64>()
                .map_err(|_| at(format!("{label} {:?} is not a whole number", field(column))))
        };
        scan_last = Some((
            number(Column::Seed, "seed")?,
            number(Column::Index, "index")?,
        ));
        rows += 1;
    }
    Ok(Scan {
        rows,
        keys,
        last: scan_last,
    })
}

/// Refuses a bank whose last row is cut short (no final line break), since rows appended
/// to it would join that row.
fn ends_with_line_break(path: &Path) -> Result<()> {
    let name = path.display();
    let mut file = File::open(path).with_context(|| format!("cannot read {name}"))?;
    let mut last = [0u8];
    file.seek(SeekFrom::End(-1))
        .and_then(|_| file.read_exact(&mut last))
        .with_context(|| format!("cannot read {name}"))?;
    if last[0] != b'\n' {
        bail!("{name} does not end with a line break: its last row is cut short");
    }
    Ok(())
}

/// Fails with the list of parameters that differ from the bank's, and what to do.
fn refuse_differences(differ: &[String], advice: &str) -> Result<()> {
    if differ.is_empty() {
        return Ok(());
    }
    Err(anyhow!(
        "{} differ{} from the bank: {advice}",
        differ.join(", "),
        if differ.len() == 1 { "s" } else { "" }
    ))
}

/// The job that resumes `last`, the last batch of the bank `name`: its own parameters, but
/// for the count and the attempt budget, which may grow, and the threads. `differ` lists
/// the flags already found to disagree with the bank; any other given flag that disagrees
/// with the batch is refused too.
fn resumed(
    last: &Batch,
    name: &impl std::fmt::Display,
    given: Given,
    asked: &Job,
    mut differ: Vec<String>,
) -> Result<Job> {
    let bank = &last.parameters;
    differ.extend(batch_differences(given, asked, bank));
    refuse_differences(
        &differ,
        "--resume continues the bank's last batch with its own parameters; leave them out, or --append a new batch",
    )?;
    let count = if given.count { asked.count } else { bank.count };
    if count < last.rows {
        bail!(
            "--count {count} is below the {} rows the batch of {name} already has",
            last.rows
        );
    }
    let max_attempts = if given.max_attempts {
        asked.max_attempts
    } else if count > bank.count {
        bank.max_attempts.max(Job::default_max_attempts(count))
    } else {
        bank.max_attempts
    };
    Ok(Job {
        count,
        max_attempts,
        threads: asked.threads,
        first_index: last.next_index,
        ..bank.clone()
    })
}

/// The flags given that disagree with the parameters of the batch `bank`, each with the
/// batch's own value where it has one to show.
fn batch_differences(given: Given, asked: &Job, bank: &Job) -> Vec<String> {
    let mut differ = Vec::new();
    if given.holes && asked.generation.holes != bank.generation.holes {
        differ.push(format!(
            "--holes {} (the batch's is {})",
            asked.generation.holes, bank.generation.holes
        ));
    }
    if given.symmetry && asked.generation.symmetry != bank.generation.symmetry {
        differ.push(format!(
            "--symmetry {} (the batch's is {})",
            asked.generation.symmetry, bank.generation.symmetry
        ));
    }
    if given.difficulty && asked.generation.difficulty != bank.generation.difficulty {
        differ.push("the difficulty band".to_owned());
    }
    if given.seed && asked.seed != bank.seed {
        differ.push(format!(
            "--seed {} (the batch's is {})",
            asked.seed, bank.seed
        ));
    }
    if given.dedup && asked.dedup != bank.dedup {
        differ.push(format!(
            "--dedup {} (the batch's is {})",
            asked.dedup.name(),
            bank.dedup.name()
        ));
    }
    if given.shard && asked.shard != bank.shard {
        differ.push(format!(
            "--shard {} (the batch's is {})",
            asked.shard, bank.shard
        ));
    }
    differ
}

/// The job of a new batch for the bank `name`, whose batches are `batches`: the flags
/// given, the bank's parameters for the others, and a seed none of its batches used. It
/// may not change the bank's size or columns; `differ` lists the flags already found to
/// disagree with the bank.
fn appended(
    batches: &[Batch],
    name: &impl std::fmt::Display,
    given: Given,
    asked: &Job,
    differ: &[String],
) -> Result<Job> {
    let bank = &batches.last().expect("a bank has a batch").parameters;
    refuse_differences(differ, "a bank holds one size")?;
    if let Some(k) = batches.iter().position(|b| b.parameters.seed == asked.seed) {
        bail!(
            "seed {} already made batch {} of {name}; --append needs a new seed (or leave --seed out for a random one), --resume carries on that batch",
            asked.seed,
            k + 1
        );
    }
    let generation = Generation::new(
        bank.generation.size,
        Some(if given.holes {
            asked.generation.holes
        } else {
            bank.generation.holes
        }),
    )?
    .with_symmetry(if given.symmetry {
        asked.generation.symmetry
    } else {
        bank.generation.symmetry
    })?
    .with_difficulty(if given.difficulty {
        asked.generation.difficulty
    } else {
        bank.generation.difficulty
    })?;
    if generation.difficulty.is_some() != bank.generation.difficulty.is_some() {
        bail!(
            "a difficulty band would change the bank's columns: a bank's batches are all rated (with rating and level columns) or none is"
        );
    }
    if (generation.symmetry == Symmetry::None) != (bank.generation.symmetry == Symmetry::None) {
        bail!(
            "--symmetry {} would change the bank's columns: a bank's batches are all symmetric (with a symmetry column) or none is",
            generation.symmetry
        );
    }
    let dedup = if given.dedup { asked.dedup } else { bank.dedup };
    if (dedup == Dedup::Canonical) != (bank.dedup == Dedup::Canonical) {
        bail!(
            "--dedup {} would change the bank's columns: a bank's batches are all deduplicated by canonical form (with a canon_id column) or none is",
            dedup.name()
        );
    }
    if dedup == Dedup::Canonical {
        crate::canon::supported(generation.size).map_err(|e| anyhow!(e))?;
    }
    Ok(Job {
        generation,
        dedup,
        first_index: 0,
        ..asked.clone()
    })
}
