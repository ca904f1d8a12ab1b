//! `merge`: several banks into one, keeping the first of each puzzle.
//!
//! The inputs are streamed, one row of each in memory at a time. Every input must have the
//! same columns, and every row the first row's size. Banks whose manifests say they are
//! the shards of one batch (`generate --shard K/N`: same seed and parameters, every K from
//! 0 to N − 1) are merged by attempt index, which rebuilds the one-machine batch: its first
//! `C` rows are byte for byte those of `generate --count C`, as long as no shard ran out
//! of rows first. Other inputs follow in argument order, rows in order. The writer keeps a
//! 16-byte key per distinct puzzle ([`crate::dedup`]), never the rows.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use anyhow::{Context, Result, anyhow, bail};
use serde::{Deserialize, Serialize};

use super::Exit;
use crate::bank::{BankReader, BankWriter, CANON_COLUMN, Column, Next};
use crate::config::{Dedup, Generation, Shard};
use crate::dedup::Keyer;
use crate::grid::Grid;
use crate::hash::KeySet;
use crate::input::Input;
use crate::manifest::{Manifest, SeedBand, batch_bands, timestamp};
use crate::output::{self, AtomicFile, Stamp};
use crate::shape::{Shape, Size};
use crate::stats::counted;

/// What `merge` does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergeConfig {
    /// The banks to merge, in order.
    pub inputs: Vec<PathBuf>,
    /// The merged bank; its manifest goes beside it.
    pub output: PathBuf,
    /// How duplicates are recognised; by default, canonical form for banks with a
    /// `canon_id` column and exact text for others.
    pub dedup: Option<Dedup>,
    /// Stop after this many rows.
    pub count: Option<u64>,
    /// Replace an existing output.
    pub force: bool,
    /// Errors only on stderr.
    pub quiet: bool,
    /// The command line, for the manifest.
    pub command_line: Vec<String>,
}

/// The manifest `merge` writes beside its output.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MergeManifest {
    /// `sudoku-bank`.
    pub tool: String,
    /// The tool's version.
    pub version: String,
    /// `merge`.
    pub command: String,
    /// The command line.
    pub command_line: Vec<String>,
    /// When it started and finished (RFC 3339, UTC).
    pub started: String,
    /// When it finished.
    pub finished: String,
    /// How duplicates were recognised.
    pub dedup: Dedup,
    /// The row limit asked for.
    pub count: Option<u64>,
    /// Rows written.
    pub rows: u64,
    /// Rows dropped as duplicates.
    pub duplicates: u64,
    /// Every input, in argument order.
    pub inputs: Vec<InputSummary>,
    /// The difficulty bands of the inputs' rated batches, by seed, as their manifests give
    /// them (a merged input's from its own list), for `verify --provenance`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bands: Vec<SeedBand>,
}

/// One input of a merge.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InputSummary {
    /// The path given.
    pub path: String,
    /// Rows read from it.
    pub rows_read: u64,
    /// Rows of it written to the output.
    pub rows_kept: u64,
    /// The seed of its batch, when its manifest says.
    pub seed: Option<u64>,
    /// Its shard, when it is one.
    pub shard: Option<Shard>,
}

/// One input being read.
struct Source {
    path: PathBuf,
    reader: BankReader<Box<dyn Read>>,
    /// The row read and not yet merged, when `live`.
    record: csv::StringRecord,
    live: bool,
    /// Its attempt index.
    index: u64,
    shard: Option<ShardOf>,
    rows_read: u64,
    rows_kept: u64,
}

/// What an input's manifest says of it as a shard.
#[derive(Clone, Copy, Debug, PartialEq)]
struct ShardOf {
    /// What its batch is: every shard of one batch has the same.
    batch: (Generation, u64, Dedup, u64),
    seed: u64,
    shard: Shard,
    /// Below this attempt index the shard holds all its rows.
    next_index: u64,
}

impl Source {
    fn open(path: &Path) -> Result<Source> {
        let input = Input::open(Some(path))?;
        let reader: Box<dyn Read> = Box::new(input.reader);
        let mut source = Source {
            path: path.to_path_buf(),
            reader: BankReader::new(&input.name, reader)?,
            record: csv::StringRecord::new(),
            live: false,
            index: 0,
            shard: shard_of(path)?,
            rows_read: 0,
            rows_kept: 0,
        };
        source.advance()?;
        Ok(source)
    }

    /// Reads the next row; a row that cannot be read stops the merge.
    fn advance(&mut self) -> Result<()> {
        let name = self.reader.name().to_owned();
        self.live = match self.reader.read(&mut self.record)? {
            Next::End => false,
            Next::Malformed(bad) => bail!("{name}: line {}: {}", bad.line, bad.reason),
            Next::Row => true,
        };
        if self.live {
            self.rows_read += 1;
            let text = self.reader.field(&self.record, Column::Index);
            self.index = text.parse().map_err(|_| {
                anyhow!(
                    "{name}: line {}: index {text:?} is not a whole number",
                    crate::bank::line_of(&self.record)
                )
            })?;
        }
        Ok(())
    }

    fn name(&self) -> String {
        self.path.display().to_string()
    }

    /// What the merge manifest says of this input.
    fn summary(&self) -> InputSummary {
        InputSummary {
            path: self.name(),
            rows_read: self.rows_read,
            rows_kept: self.rows_kept,
            seed: self.shard.map(|shard| shard.seed),
            shard: self.shard.map(|shard| shard.shard),
        }
    }
}

/// The input at `path` as a shard, when its manifest says it is one batch's shard.
fn shard_of(path: &Path) -> Result<Option<ShardOf>> {
    if !Manifest::path_for(path).exists() {
        return Ok(None);
    }
    let Some(manifest) = Manifest::read_generated(path)? else {
        return Ok(None);
    };
    let [batch] = manifest.batches.as_slice() else {
        return Ok(None);
    };
    let job = &batch.parameters;
    Ok((!job.shard.is_whole()).then_some(ShardOf {
        batch: (job.generation, job.seed, job.dedup, job.shard.count),
        seed: job.seed,
        shard: job.shard,
        next_index: batch.next_index,
    }))
}

/// Refuses an output whose bank or manifest would replace an input's manifest or an input.
/// The output may be an input bank itself: it is replaced only once every row is read.
fn refuse_overlap(out: &Path, inputs: &[PathBuf]) -> Result<()> {
    let out_manifest = Manifest::path_for(out);
    for input in inputs {
        if output::same_place(out, &Manifest::path_for(input)) {
            bail!(
                "-o {} would replace the manifest of {}, a bank being merged; name another file",
                out.display(),
                input.display()
            );
        }
        if output::same_place(&out_manifest, input) {
            bail!(
                "-o {} would put its manifest {} in place of a bank being merged; name another file",
                out.display(),
                out_manifest.display()
            );
        }
    }
    Ok(())
}

/// Merges `config.inputs` into `config.output`, with a manifest beside it.
pub fn merge(config: &MergeConfig) -> Result<Exit> {
    let started = SystemTime::now();
    AtomicFile::check(&config.output, config.force)?;
    refuse_overlap(&config.output, &config.inputs)?;
    // An output that is one of the inputs replaces only that input as it is read here.
    let read = config
        .inputs
        .iter()
        .find(|input| output::same_place(&config.output, input))
        .map(|input| Stamp::of(input))
        .transpose()?;
    let mut sources = config
        .inputs
        .iter()
        .map(|path| Source::open(path))
        .collect::<Result<Vec<_>>>()?;
    same_columns(&sources)?;
    let groups = groups(&sources)?;
    let (size, size_text) = first_size(&sources)?;
    let has_canon_id = sources[0].reader.header().iter().any(|c| c == CANON_COLUMN);
    let dedup = dedup_of(config, &sources, has_canon_id, size)?;
    let add_canon_id = dedup == Dedup::Canonical && !has_canon_id;
    let mut out = AtomicFile::create(&config.output, config.force)?;
    if let Some(read) = read {
        out = out.over(read);
    }
    let columns = sources[0].reader.header().clone();
    let columns = columns.iter().chain(add_canon_id.then_some(CANON_COLUMN));
    let output = config.output.display().to_string();
    let mut writer = BankWriter::with_header(&mut out, columns)
        .with_context(|| format!("cannot write {output}"))?;
    let mut merger = Merger {
        keyer: Keyer::new(dedup),
        seen: KeySet::default(),
        dedup,
        size_text,
        add_canon_id,
        scratch: csv::StringRecord::new(),
        rows: 0,
        duplicates: 0,
        count: config.count.unwrap_or(u64::MAX),
        output,
        quiet: config.quiet,
    };
    crate::with_shape!(size, S => merger.run::<S, _>(&mut sources, &groups, &mut writer))?;
    writer
        .finish()
        .with_context(|| format!("cannot write {}", merger.output))?;
    out.commit()?;
    write_manifest(config, started, &merger, &sources)?;
    if !config.quiet {
        report(config, &merger, &sources);
    }
    Ok(match config.count {
        Some(count) if merger.rows < count => Exit::Incomplete,
        _ => Exit::Success,
    })
}

/// The dedup of a merge: as asked; else, for inputs that are all shards of batches of one
/// dedup mode, that mode, so that the shards of one batch merge to the bank one machine
/// writes (duplicates and all, for a batch with `--dedup none`); else canonical for inputs
/// with a `canon_id` column and exact for others. An error when canonical forms do not
/// cover the inputs' size.
fn dedup_of(
    config: &MergeConfig,
    sources: &[Source],
    has_canon_id: bool,
    size: Size,
) -> Result<Dedup> {
    let shards: Option<Vec<Dedup>> = sources
        .iter()
        .map(|source| source.shard.map(|shard| shard.batch.2))
        .collect();
    let batches = shards.filter(|modes| modes.windows(2).all(|pair| pair[0] == pair[1]));
    let dedup = config
        .dedup
        .or_else(|| batches.and_then(|modes| modes.first().copied()))
        .unwrap_or(if has_canon_id {
            Dedup::Canonical
        } else {
            Dedup::Exact
        });
    if dedup == Dedup::Canonical {
        crate::canon::supported(size).map_err(|e| anyhow!("--dedup canonical: {e}"))?;
    }
    Ok(dedup)
}

/// Writes the manifest of the merged bank, from what `merger` did with `sources`.
fn write_manifest(
    config: &MergeConfig,
    started: SystemTime,
    merger: &Merger,
    sources: &[Source],
) -> Result<()> {
    let manifest = MergeManifest {
        tool: env!("CARGO_PKG_NAME").to_owned(),
        version: env!("CARGO_PKG_VERSION").to_owned(),
        command: "merge".to_owned(),
        command_line: config.command_line.clone(),
        started: timestamp(started),
        finished: timestamp(SystemTime::now()),
        dedup: merger.dedup,
        count: config.count,
        rows: merger.rows,
        duplicates: merger.duplicates,
        inputs: sources.iter().map(Source::summary).collect(),
        bands: distinct_bands(&config.inputs),
    };
    AtomicFile::write_all(
        &Manifest::path_for(&config.output),
        true,
        &serde_json::to_vec_pretty(&manifest)?,
    )
}

/// Says on stderr what the merge read and wrote, and when it fell short of `--count`.
fn report(config: &MergeConfig, merger: &Merger, sources: &[Source]) {
    let read: u64 = sources.iter().map(|s| s.rows_read).sum();
    crate::message!(
        "sudoku-bank: merged {} into {}: {} read, {} written, {} ({} dedup)",
        counted(sources.len() as u64, "bank"),
        merger.output,
        counted(read, "row"),
        merger.rows,
        counted(merger.duplicates, "duplicate"),
        merger.dedup.name()
    );
    if let Some(count) = config.count.filter(|&count| merger.rows < count) {
        crate::message!(
            "sudoku-bank: the inputs hold {}, fewer than --count {count}",
            counted(merger.rows, "distinct puzzle")
        );
    }
}

/// The inputs in merge order: each one alone, except that the shards of one batch form one
/// group at the place of the first of them.
fn groups(sources: &[Source]) -> Result<Vec<Vec<usize>>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (i, source) in sources.iter().enumerate() {
        let batch = source.shard.map(|s| s.batch);
        let same_batch = groups
            .iter()
            .position(|g| batch.is_some() && sources[g[0]].shard.map(|s| s.batch) == batch);
        match same_batch {
            Some(at) => groups[at].push(i),
            None => groups.push(vec![i]),
        }
    }
    for group in &groups {
        let Some(shard) = sources[group[0]].shard else {
            continue;
        };
        let count = shard.shard.count;
        let mut have = vec![None; count as usize];
        for &i in group {
            let k = sources[i].shard.expect("a shard").shard.index as usize;
            if let Some(other) = have[k].replace(i) {
                bail!(
                    "{} and {} are both shard {}/{count} of the batch of seed {}",
                    sources[other].name(),
                    sources[i].name(),
                    k,
                    shard.seed
                );
            }
        }
        let missing: Vec<String> = (0..count)
            .filter(|&k| have[k as usize].is_none())
            .map(|k| format!("{k}/{count}"))
            .collect();
        if !missing.is_empty() {
            bail!(
                "{} {} a shard of the batch of seed {}, but shard{} {} {} missing: merge needs every shard to rebuild the batch in attempt order",
                sources[group[0]].name(),
                if group.len() == 1 {
                    "is"
                } else {
                    "and others are"
                },
                shard.seed,
                if missing.len() == 1 { "" } else { "s" },
                missing.join(", "),
                if missing.len() == 1 { "is" } else { "are" }
            );
        }
    }
    Ok(groups)
}

/// The writer's side of a merge.
struct Merger {
    keyer: Keyer,
    seen: KeySet,
    dedup: Dedup,
    size_text: String,
    add_canon_id: bool,
    /// The row with its `canon_id` added.
    scratch: csv::StringRecord,
    rows: u64,
    duplicates: u64,
    count: u64,
    output: String,
    quiet: bool,
}

impl Merger {
    fn run<S: Shape, W: std::io::Write>(
        &mut self,
        sources: &mut [Source],
        groups: &[Vec<usize>],
        writer: &mut BankWriter<W>,
    ) -> Result<()> {
        for group in groups {
            // Below this index every shard of the group holds all its rows; past it, the
            // merge is no longer the one-machine batch.
            let exact_until = group
                .iter()
                .filter_map(|&i| sources[i].shard.map(|s| s.next_index))
                .min();
            let mut warned = false;
            loop {
                if self.rows >= self.count {
                    return Ok(());
                }
                // The input whose row comes next: the lowest index among the group's shards
                // (an unsharded input is a group of one).
                let Some(i) = group
                    .iter()
                    .copied()
                    .filter(|&i| sources[i].live)
                    .min_by_key(|&i| sources[i].index)
                else {
                    break;
                };
                let source = &mut sources[i];
                if let Some(until) = exact_until.filter(|&u| source.index >= u && !warned) {
                    warned = true;
                    if !self.quiet {
                        crate::message!(
                            "sudoku-bank: note: past attempt index {until} a shard has no more rows, so the rows that follow are not those one machine would write (resume the shards with a higher --count for more)"
                        );
                    }
                }
                if self.take::<S, W>(source, writer)? {
                    source.rows_kept += 1;
                }
                source.advance()?;
            }
        }
        Ok(())
    }

    /// Writes the current row of `source` unless it is a duplicate; true when written.
    fn take<S: Shape, W: std::io::Write>(
        &mut self,
        source: &Source,
        writer: &mut BankWriter<W>,
    ) -> Result<bool> {
        let record = &source.record;
        let line = crate::bank::line_of(record);
        let name = source.name();
        let size = source.reader.field(record, Column::Size);
        if size != self.size_text {
            bail!(
                "{name}: line {line}: size {size:?} differs from the first row's {}: merge needs banks of one size",
                self.size_text
            );
        }
        let text = source.reader.field(record, Column::Puzzle);
        let puzzle =
            Grid::<S>::parse(text).map_err(|err| anyhow!("{name}: line {line}: puzzle: {err}"))?;
        if let Some(conflict) = puzzle.conflict() {
            bail!("{name}: line {line}: puzzle clues conflict: {conflict}");
        }
        let key = self.keyer.key(&puzzle);
        if self.dedup != Dedup::None && !self.seen.insert(key.key) {
            self.duplicates += 1;
            return Ok(false);
        }
        let written = if self.add_canon_id {
            self.scratch.clone_from(record);
            let canon_id = key.canon_id.expect("canonical keys have an id");
            self.scratch
                .push_field(std::str::from_utf8(&canon_id).expect("hex digits"));
            writer.write_record(&self.scratch)
        } else {
            writer.write_record(record)
        };
        written.with_context(|| format!("cannot write {}", self.output))?;
        self.rows += 1;
        Ok(true)
    }
}

/// Refuses inputs whose columns are not the first input's.
fn same_columns(sources: &[Source]) -> Result<()> {
    let first = &sources[0];
    for source in &sources[1..] {
        if source.reader.header() != first.reader.header() {
            bail!(
                "{} has the columns {}, {} has {}: merge needs banks with the same columns",
                source.name(),
                source.reader.header().iter().collect::<Vec<_>>().join(","),
                first.name(),
                first.reader.header().iter().collect::<Vec<_>>().join(","),
            );
        }
    }
    Ok(())
}

/// The size of the first row of the inputs, and its text; an error when they hold no row.
fn first_size(sources: &[Source]) -> Result<(Size, String)> {
    let Some(text) = sources
        .iter()
        .find(|s| s.live)
        .map(|s| s.reader.field(&s.record, Column::Size).to_owned())
    else {
        bail!("the inputs hold no rows");
    };
    let size = text
        .parse()
        .ok()
        .and_then(Size::from_n)
        .ok_or_else(|| anyhow!("size {text:?} is not 4, 9, 16 or 25"))?;
    Ok((size, text))
}

/// The difficulty bands of the rated batches of `inputs`, as their manifests give them, each
/// once, in the order first met.
fn distinct_bands(inputs: &[PathBuf]) -> Vec<SeedBand> {
    let mut bands: Vec<SeedBand> = Vec::new();
    for band in inputs.iter().flat_map(|input| batch_bands(input)) {
        if !bands.contains(&band) {
            bands.push(band);
        }
    }
    bands
}
