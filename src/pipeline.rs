//! The batch: attempts on rayon workers, one writer merging them in index order.
//!
//! A producer thread hands out consecutive ranges of attempt indices to the rayon pool and
//! sends each range's results, in index order, over a bounded channel. The calling thread is
//! the only writer: it walks the results in index order, drops duplicates, writes rows and
//! stops at exactly `count` rows. Which attempts run on which thread, and how large the ranges
//! are, changes nothing in the output: each attempt's result depends only on `(seed, index)`,
//! and the writer alone decides what is kept. The producer works at most one range ahead,
//! sizing ranges to about a quarter second of work at the pace seen so far, and from the
//! success rate so far so that little work is thrown away at the end. The workers share a
//! range in chunks of consecutive attempts, each taking the next chunk from a counter, and
//! format a chunk's rows into one buffer, four at a time (their ids' hashes run side by
//! side), so the writer only deduplicates and copies bytes, and no attempt allocates. The
//! writer hands each range's chunks back to the producer, which deals them out to the
//! workers to refill: once the first ranges are done, no chunk buffer is allocated either.
//! Each worker keeps its generator and formatter from one range to the next.
//!
//! When `stop` is set (Ctrl-C), workers start no new attempt and abandon a long search by
//! swaps; the writer still takes every attempt that finished before the first one that did
//! not, so a continuation from `next_index` gives the same bank as an uninterrupted run.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, Sender, SyncSender, channel, sync_channel};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use rayon::ThreadPool;
use serde::{Deserialize, Serialize};

use crate::attempt::Generator;
use crate::bank::{BankWriter, LINES_AT_ONCE, RowFormatter};
use crate::config::{Dedup, Job};
use crate::hash::KeySet;
use crate::progress::Progress;
use crate::shape::Shape;
use crate::stats::{Clock, Stats, Work};

/// How long one range should keep the pool busy: long enough that hand-offs to the writer
/// cost little, short enough that Ctrl-C and the progress bar stay responsive.
const RANGE_SECONDS: f64 = 0.25;
/// Attempts per worker thread in one range, at most.
const MAX_RANGE_PER_THREAD: u64 = 4096;
/// Chunks per worker thread in one range, at least (when the range has as many attempts):
/// enough for the pool to even out attempts that take unequal times.
const CHUNKS_PER_THREAD: u64 = 16;
/// Attempts in one chunk, at most.
const MAX_CHUNK: u64 = 64;
/// About how long one chunk should keep its worker busy, at most: a range ends when its
/// last chunk does, so the other workers wait for about half a chunk.
const CHUNK_SECONDS: f64 = 1e-4;

/// How a batch ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// `count` rows written.
    Complete,
    /// The attempt budget ran out first.
    Short,
    /// Stopped from outside (Ctrl-C, or a time limit); the rows written are valid.
    Interrupted,
}

/// What a batch did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// How it ended.
    pub status: Status,
    /// Rows written.
    pub rows: u64,
    /// The first attempt index not consumed: where a continuation would start.
    pub next_index: u64,
    /// Throughput statistics.
    pub stats: Stats,
}

/// The results of one range of attempts, in index order, in chunks of consecutive attempts.
struct Range {
    /// The position of the first in the shard's run of attempt indices.
    first: u64,
    chunks: Vec<Chunk>,
}

/// The results of a run of consecutive attempts made by one worker, in index order, with the
/// lines of its successes one after another in one buffer. The writer reads each attempt's
/// key and line end and, when it takes the whole chunk, the chunk's total work: an attempt's
/// own work is read only when a batch ends inside the chunk. The writer hands each range's
/// chunks back to the producer, and later chunks reuse their buffers ([`Worker::spare`]).
#[derive(Default)]
struct Chunk {
    /// The lines, as CSV with their line endings.
    bytes: Vec<u8>,
    /// Each finished attempt's success, if it made a puzzle: the puzzle's dedup key and where
    /// its line ends in `bytes`.
    lines: Vec<Option<(u128, usize)>>,
    /// Each finished attempt's work.
    works: Vec<Work>,
    /// The work of every finished attempt.
    work: Work,
    /// True when a stop left the attempt after the last finished one unstarted or
    /// unfinished, which ends the chunk.
    stopped: bool,
}

impl Chunk {
    /// Runs the attempts at `positions` in the shard's run of indices, in order, until a
    /// stop, in the buffers of `chunk` (one the writer is done with, or a new one).
    fn run<S: Shape>(
        mut chunk: Chunk,
        job: &Job,
        positions: std::ops::Range<u64>,
        worker: &mut Worker<S>,
        clock: &mut Clock,
        stop: &AtomicBool,
    ) -> Chunk {
        let n = (positions.end - positions.start) as usize;
        chunk.clear();
        chunk.bytes.reserve(n * RowFormatter::most_bytes(S::CELLS));
        chunk.lines.reserve(n);
        chunk.works.reserve(n);
        let Worker {
            generator,
            formatter,
            ..
        } = worker;
        // The places of the attempts whose lines the formatter holds, in order.
        let mut waiting = [0; LINES_AT_ONCE];
        let mut held = 0;
        for position in positions {
            let mut work = Work::default();
            let index = job.shard.index_at(position);
            if stop.load(Ordering::Relaxed) {
                chunk.stopped = true;
                break;
            }
            // Read where it was returned: moved out first, each puzzle took a call to
            // `memcpy`.
            let made = generator.attempt_until(job.seed, index, &mut work, clock, stop);
            let Ok(made) = &made else {
                chunk.stopped = true;
                break;
            };
            let mut full = false;
            if let Some(made) = made {
                waiting[held] = chunk.lines.len();
                held += 1;
                full = formatter.hold(made, index);
            }
            chunk.lines.push(None);
            chunk.works.push(work);
            if full {
                chunk.format::<S>(&waiting[..held], job.seed, formatter, clock);
                held = 0;
            }
        }
        chunk.format::<S>(&waiting[..held], job.seed, formatter, clock);
        chunk.work = chunk.works.iter().copied().sum();
        chunk
    }

    /// Empties the chunk, keeping its buffers.
    fn clear(&mut self) {
        self.bytes.clear();
        self.lines.clear();
        self.works.clear();
        self.work = Work::default();
        self.stopped = false;
    }

    /// Writes the lines `formatter` holds, made by the attempts at places `waiting`, and
    /// records them for their attempts, the time it took in the last one's work. The time
    /// before it, since the clock's last lap, goes to that attempt's fill time: unrated
    /// complete grids leave their fills on the clock ([`Generator::attempt_until`]), so
    /// one reading times four of them.
    fn format<S: Shape>(
        &mut self,
        waiting: &[usize],
        seed: u64,
        formatter: &mut RowFormatter,
        clock: &mut Clock,
    ) {
        let Some(&last) = waiting.last() else {
            return;
        };
        self.works[last].fill_nanos += clock.lap();
        let lines = formatter.flush::<S>(seed, &mut self.bytes);
        for (&line, &at) in lines.iter().zip(waiting) {
            self.lines[at] = Some(line);
        }
        self.works[last].format_nanos += clock.lap();
    }

    /// Each finished attempt's success, if it made a puzzle: its puzzle's dedup key and its
    /// line.
    #[cfg(test)]
    fn rows(&self) -> impl Iterator<Item = Option<(u128, &[u8])>> {
        let mut start = 0;
        self.lines.iter().map(move |line| {
            let (key, end) = (*line)?;
            let bytes = &self.bytes[start..end];
            start = end;
            Some((key, bytes))
        })
    }
}

/// What a pool thread keeps from one range to the next: its generator and formatter, whose
/// engines and buffers then warm up once a batch, and chunks the writer is done with, whose
/// buffers its next chunks reuse. Freed by the writer and allocated anew by the workers,
/// chunk buffers could go back to the system between ranges and come back as fresh pages:
/// one run in five of a one-thread batch of 8,000,000 complete 9×9 grids took 407,160 page
/// faults and 0.9 s in the kernel (BENCHMARKS.md, "Chunk buffers reused").
struct Worker<S: Shape> {
    generator: Generator<S>,
    formatter: RowFormatter,
    /// Chunks to reuse, their lines already written.
    spare: Vec<Chunk>,
}

impl<S: Shape> Worker<S> {
    fn new(job: &Job) -> Self {
        Worker {
            generator: Generator::for_generation(job.generation),
            formatter: RowFormatter::new(job.dedup),
            spare: Vec::new(),
        }
    }
}

/// What the bank already holds when a batch starts: nothing for a new bank; for a resumed
/// or appended one, every puzzle in it (so none is written twice) and the rows this batch
/// wrote before it was interrupted (they count towards `count`).
#[derive(Debug, Default)]
pub struct Existing {
    /// The dedup keys of every puzzle in the bank.
    pub keys: KeySet,
    /// Rows of this batch already in the bank.
    pub batch_rows: u64,
}

/// Counters the writer publishes for the producer's range sizing.
#[derive(Default)]
struct Consumed {
    /// Rows of the batch written so far, those already in the bank included.
    rows: AtomicU64,
    /// The first attempt index not yet taken by the writer.
    attempts: AtomicU64,
    /// Rows of the batch that were already in the bank.
    batch_rows: u64,
}

/// Runs `job`, writing its rows to `out`, until `count` rows, the attempt budget, or `stop`.
/// `existing` is what the bank already holds; `Outcome::rows` counts this batch's rows,
/// those already there included.
pub fn run<W: Write>(
    job: &Job,
    existing: Existing,
    out: &mut BankWriter<W>,
    stop: &AtomicBool,
    progress: &Progress,
) -> io::Result<Outcome> {
    crate::with_shape!(job.generation.size, S => run_sized::<S, W>(job, existing, out, stop, progress))
}

fn run_sized<S: Shape, W: Write>(
    job: &Job,
    existing: Existing,
    out: &mut BankWriter<W>,
    stop: &AtomicBool,
    progress: &Progress,
) -> io::Result<Outcome> {
    let started = Instant::now();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(job.threads)
        .build()
        .map_err(io::Error::other)?;
    let consumed = Consumed {
        rows: AtomicU64::new(existing.batch_rows),
        attempts: AtomicU64::new(job.shard.position_of(job.first_index)),
        batch_rows: existing.batch_rows,
    };
    let writer_done = AtomicBool::new(false);
    let (sender, receiver) = sync_channel::<Range>(1);
    let (done_with, returned) = channel::<Vec<Chunk>>();

    let outcome = std::thread::scope(|scope| {
        scope.spawn(|| {
            let ranges = Ranges { sender, returned };
            produce::<S>(job, &pool, ranges, &writer_done, stop, &consumed);
        });
        let writer = Writer::new(job, existing, out);
        let ends = WriterEnds {
            receiver,
            done_with,
        };
        let outcome = consume(writer, ends, stop, progress, &consumed, started);
        writer_done.store(true, Ordering::Relaxed);
        outcome
    })?;
    progress.finish();
    Ok(outcome)
}

/// The producer's ends of the channels to and from the writer.
struct Ranges {
    /// Ranges of results, in order.
    sender: SyncSender<Range>,
    /// The chunks of each range the writer is done with.
    returned: Receiver<Vec<Chunk>>,
}

/// Runs ranges of attempts on the pool until the writer is done, the budget is spent or
/// `stop` is set.
fn produce<S: Shape>(
    job: &Job,
    pool: &ThreadPool,
    ranges: Ranges,
    writer_done: &AtomicBool,
    stop: &AtomicBool,
    consumed: &Consumed,
) {
    let workers: Vec<Mutex<Worker<S>>> = (0..job.threads)
        .map(|_| Mutex::new(Worker::new(job)))
        .collect();
    // Positions in the shard's own run of attempt indices (all of them, unsharded).
    let end = job.max_attempts;
    let mut next = job.shard.position_of(job.first_index);
    // Attempts per thread that take about RANGE_SECONDS, and per chunk that take about
    // CHUNK_SECONDS, from the last range's pace.
    let (mut per_thread, mut per_chunk) = (1, 1);
    while next < end && !writer_done.load(Ordering::Relaxed) && !stop.load(Ordering::Relaxed) {
        let len = range_len(job, next, consumed, per_thread).min(end - next);
        let chunk_len = (len / (job.threads as u64 * CHUNKS_PER_THREAD))
            .min(per_chunk)
            .clamp(1, MAX_CHUNK);
        deal_spares(&workers, &ranges.returned, len.div_ceil(chunk_len));
        let started = Instant::now();
        let chunks = run_range::<S>(job, pool, &workers, next..next + len, chunk_len, stop);
        // The pace of the work alone, not of waiting for the writer below.
        let seconds_per_attempt = started.elapsed().as_secs_f64() * job.threads as f64 / len as f64;
        per_thread = (RANGE_SECONDS / seconds_per_attempt.max(1e-9)) as u64;
        per_chunk = (CHUNK_SECONDS / seconds_per_attempt.max(1e-9)) as u64;
        if ranges
            .sender
            .send(Range {
                first: next,
                chunks,
            })
            .is_err()
        {
            return;
        }
        next += len;
    }
}

/// Deals out the chunks the writer is done with, and those the workers did not use, for a
/// range of `chunks` chunks: in turn, so that each worker has its share, and no more than
/// the range needs. A worker that takes more chunks than its share makes new ones, so spares
/// left with the others would pile up; the first ranges, short ones in short chunks, would
/// leave thousands of chunks, each to grow when reused.
fn deal_spares<S: Shape>(
    workers: &[Mutex<Worker<S>>],
    returned: &Receiver<Vec<Chunk>>,
    chunks: u64,
) {
    let mut spare: Vec<Chunk> = returned.try_iter().flatten().collect();
    for worker in workers {
        spare.append(&mut locked(worker).spare);
    }
    spare.truncate(chunks as usize);
    for (k, chunk) in spare.into_iter().enumerate() {
        locked(&workers[k % workers.len()]).spare.push(chunk);
    }
}

/// Runs the attempts at `positions` in chunks of `chunk_len` on every thread of `pool`:
/// each thread takes the next chunk not yet taken until none is left, so a thread waits at
/// the end of a range for no more than the chunks still running. Thread `t` works as
/// `workers[t]`, locked once a range.
fn run_range<S: Shape>(
    job: &Job,
    pool: &ThreadPool,
    workers: &[Mutex<Worker<S>>],
    positions: std::ops::Range<u64>,
    chunk_len: u64,
    stop: &AtomicBool,
) -> Vec<Chunk> {
    let count = (positions.end - positions.start).div_ceil(chunk_len);
    let taken = AtomicU64::new(0);
    let mut chunks: Vec<(u64, Chunk)> = pool
        .broadcast(|context| {
            let mut worker = locked(&workers[context.index()]);
            let mut clock = Clock::start();
            let mut mine = Vec::new();
            loop {
                let c = taken.fetch_add(1, Ordering::Relaxed);
                if c >= count {
                    return mine;
                }
                let start = positions.start + c * chunk_len;
                let attempts = start..(start + chunk_len).min(positions.end);
                let spare = worker.spare.pop().unwrap_or_default();
                let chunk = Chunk::run(spare, job, attempts, &mut worker, &mut clock, stop);
                mine.push((c, chunk));
            }
        })
        .into_iter()
        .flatten()
        .collect();
    chunks.sort_unstable_by_key(|&(c, _)| c);
    chunks.into_iter().map(|(_, chunk)| chunk).collect()
}

/// A worker's state, locked. A worker that panicked poisons its lock, and the panic reaches
/// the caller through the pool: the state is not looked at again.
fn locked<S: Shape>(worker: &Mutex<Worker<S>>) -> MutexGuard<'_, Worker<S>> {
    worker.lock().unwrap_or_else(PoisonError::into_inner)
}

/// How many attempts the next range should hold: enough, at the success rate seen so far,
/// to finish the batch with what is already under way, within bounds that keep every thread
/// busy and the writer fed: at least one attempt per thread, at most `per_thread`.
fn range_len(job: &Job, next: u64, consumed: &Consumed, per_thread: u64) -> u64 {
    let threads = job.threads as u64;
    let first = job.shard.position_of(job.first_index);
    let rows = consumed.rows.load(Ordering::Relaxed);
    let attempts = consumed.attempts.load(Ordering::Relaxed);
    let rate = if attempts > first {
        let made = (rows - consumed.batch_rows).max(1);
        (made as f64 / (attempts - first) as f64).min(1.0)
    } else {
        1.0
    };
    let in_flight = next.saturating_sub(attempts) as f64 * rate;
    let wanted = (job.count.saturating_sub(rows) as f64 - in_flight).max(0.0) / rate;
    let most = threads * per_thread.clamp(1, MAX_RANGE_PER_THREAD);
    (wanted.ceil() as u64).clamp(threads, most)
}

/// The writer's ends of the channels from and to the producer.
struct WriterEnds {
    /// Ranges of results, in order.
    receiver: Receiver<Range>,
    /// The chunks of each range the writer is done with.
    done_with: Sender<Vec<Chunk>>,
}

/// The writer: takes ranges in index order, keeps the first of each distinct puzzle, and
/// stops at `count` rows, or at the first attempt a stop left unstarted.
fn consume<W: Write>(
    mut writer: Writer<'_, W>,
    ends: WriterEnds,
    stop: &AtomicBool,
    progress: &Progress,
    consumed: &Consumed,
    started: Instant,
) -> io::Result<Outcome> {
    let mut writing = Duration::ZERO;
    while writer.status == Status::Short {
        let Ok(range) = ends.receiver.recv() else {
            break;
        };
        let writing_started = Instant::now();
        let mut first = range.first;
        for chunk in &range.chunks {
            writer.take(chunk, first)?;
            first += chunk.lines.len() as u64;
            if writer.status != Status::Short {
                break;
            }
        }
        // Back to the producer, for the next chunks to reuse; the producer may have ended.
        let _ = ends.done_with.send(range.chunks);
        writing += writing_started.elapsed();
        consumed.rows.store(writer.rows, Ordering::Relaxed);
        consumed
            .attempts
            .store(writer.next_position, Ordering::Relaxed);
        progress.set(writer.rows);
    }
    if writer.status == Status::Short && stop.load(Ordering::Relaxed) {
        writer.status = Status::Interrupted;
    }
    Ok(writer.outcome(started.elapsed(), writing))
}

/// What the writer keeps while it takes the attempts in index order: the keys of the
/// puzzles in the bank, and counts of what the attempts it took made and did.
struct Writer<'a, W: Write> {
    job: &'a Job,
    out: &'a mut BankWriter<W>,
    /// The dedup keys of every puzzle in the bank: those it held, and those written since.
    seen: KeySet,
    /// Rows of the batch in the bank before it started.
    batch_rows: u64,
    /// Rows of the batch in the bank, `batch_rows` included.
    rows: u64,
    /// Attempts taken that made a puzzle, written or not.
    successes: u64,
    /// Puzzles dropped as already in the bank.
    duplicates: u64,
    /// The work of the attempts taken.
    work: Work,
    /// The position of the first attempt not taken, in the shard's run of attempt indices.
    next_position: u64,
    status: Status,
}

impl<'a, W: Write> Writer<'a, W> {
    fn new(job: &'a Job, existing: Existing, out: &'a mut BankWriter<W>) -> Self {
        let Existing {
            keys: mut seen,
            batch_rows,
        } = existing;
        if job.dedup != Dedup::None {
            // Room for the whole batch up front, so the set does not stop the writer to grow
            // as it fills.
            seen.reserve(job.count.saturating_sub(batch_rows));
        }
        Writer {
            job,
            out,
            seen,
            batch_rows,
            rows: batch_rows,
            successes: 0,
            duplicates: 0,
            work: Work::default(),
            next_position: job.shard.position_of(job.first_index),
            status: if batch_rows >= job.count {
                Status::Complete
            } else {
                Status::Short
            },
        }
    }

    /// Takes the attempts of `chunk`, the first at position `first`, up to the one that
    /// completes the batch: writes the lines of the puzzles not yet in the bank, and counts
    /// the rest as duplicates.
    fn take(&mut self, chunk: &Chunk, first: u64) -> io::Result<()> {
        let dedup = self.job.dedup != Dedup::None;
        if dedup {
            self.seen
                .warm(chunk.lines.iter().flatten().map(|&(key, _)| key));
        }
        // Lines kept one after another are written at once, from `run` to the end of the
        // last.
        let mut taken = chunk.lines.len();
        let (mut start, mut run) = (0, 0);
        for (k, line) in chunk.lines.iter().enumerate() {
            let Some((key, end)) = *line else { continue };
            let line_start = std::mem::replace(&mut start, end);
            self.successes += 1;
            if dedup && !self.seen.insert(key) {
                self.duplicates += 1;
                self.out.write_lines(&chunk.bytes[run..line_start])?;
                run = end;
                continue;
            }
            self.rows += 1;
            if self.rows == self.job.count {
                self.status = Status::Complete;
                taken = k + 1;
                break;
            }
        }
        self.out.write_lines(&chunk.bytes[run..start])?;
        self.work += if taken == chunk.lines.len() {
            chunk.work
        } else {
            chunk.works[..taken].iter().copied().sum()
        };
        self.next_position = first + taken as u64;
        if self.status == Status::Short && chunk.stopped {
            self.status = Status::Interrupted;
        }
        Ok(())
    }

    /// The batch's outcome, `wall` after it started, the writer busy for `writing` of it.
    fn outcome(self, wall: Duration, writing: Duration) -> Outcome {
        let stats = Stats::new(
            &self.work,
            wall,
            self.job.threads,
            self.successes,
            self.rows - self.batch_rows,
            self.duplicates,
            writing,
        );
        Outcome {
            status: self.status,
            rows: self.rows,
            next_index: self.job.shard.index_at(self.next_position),
            stats,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Generation, Holes};
    use crate::shape::{Nine, Size};

    fn bank(job: &Job) -> (Vec<u8>, Outcome) {
        let mut out = BankWriter::new(Vec::new(), &job.generation, job.dedup).unwrap();
        let outcome = run(
            job,
            Existing::default(),
            &mut out,
            &AtomicBool::new(false),
            &Progress::hidden(),
        )
        .unwrap();
        (out.finish().unwrap(), outcome)
    }

    fn job(size: Size, holes: usize, count: u64, threads: usize) -> Job {
        let generation = Generation::new(size, Some(Holes::Exact(holes))).unwrap();
        Job::new(generation, count, 11, threads, Dedup::Exact, None).unwrap()
    }

    #[test]
    fn bytes_do_not_depend_on_threads() {
        let (one, a) = bank(&job(Size::Nine, 50, 300, 1));
        let (two, b) = bank(&job(Size::Nine, 50, 300, 2));
        let (three, _) = bank(&job(Size::Nine, 50, 300, 3));
        assert_eq!(a.status, Status::Complete);
        assert_eq!(a.rows, 300);
        assert_eq!(one, two);
        assert_eq!(one, three);
        assert_eq!(a.next_index, b.next_index);
        // The statistics count the attempts taken, up to the one that completed the batch,
        // however the chunks fell.
        assert_eq!(
            (a.stats.attempts, b.stats.attempts),
            (a.next_index, a.next_index)
        );
        assert_eq!(a.stats.successes, b.stats.successes);
        assert_eq!(String::from_utf8(one).unwrap().lines().count(), 301);
    }

    #[test]
    fn duplicates_are_dropped_and_counted() {
        // 4×4 has only 288 complete grids, so 200 of them collide often.
        let (bytes, outcome) = bank(&job(Size::Four, 0, 200, 2));
        assert_eq!(outcome.status, Status::Complete);
        assert!(outcome.stats.duplicates > 0);
        // Lines around the dropped ones are written whole, and as one thread writes them.
        assert_eq!(bank(&job(Size::Four, 0, 200, 1)).0, bytes);
        let text = String::from_utf8(bytes).unwrap();
        assert_eq!(text.lines().count(), 201);
        assert!(text.lines().all(|line| line.split(',').count() == 8));
        let puzzles: std::collections::HashSet<&str> = text
            .lines()
            .skip(1)
            .map(|l| l.split(',').nth(4).unwrap())
            .collect();
        assert_eq!(puzzles.len(), 200);
    }

    #[test]
    fn budget_ends_a_batch_short() {
        let mut short = job(Size::Four, 12, 5000, 2);
        short.max_attempts = 300;
        let (_, outcome) = bank(&short);
        assert_eq!(outcome.status, Status::Short);
        assert!(outcome.rows < 5000);
        assert_eq!(outcome.next_index, 300);
        assert_eq!(outcome.stats.attempts, 300);
    }

    #[test]
    fn a_continued_batch_writes_the_rest_of_the_bank() {
        // 4×4 grids collide often, so the preloaded keys matter.
        let whole_job = job(Size::Four, 0, 150, 2);
        let (whole, _) = bank(&whole_job);
        let text = String::from_utf8(whole).unwrap();
        let lines: Vec<&str> = text.lines().skip(1).collect();
        let (done, rest) = lines.split_at(60);
        let mut keys = KeySet::default();
        for line in done {
            keys.insert(crate::hash::dedup_key(line.split(',').nth(4).unwrap()));
        }
        let last_index: u64 = done[59].split(',').nth(7).unwrap().parse().unwrap();
        let mut continued = whole_job.clone();
        continued.first_index = last_index + 1;
        let mut out = BankWriter::continuing(Vec::new());
        let existing = Existing {
            keys,
            batch_rows: 60,
        };
        let outcome = run(
            &continued,
            existing,
            &mut out,
            &AtomicBool::new(false),
            &Progress::hidden(),
        )
        .unwrap();
        assert_eq!(outcome.status, Status::Complete);
        assert_eq!(outcome.rows, 150);
        assert_eq!(outcome.stats.puzzles, 90);
        let tail = String::from_utf8(out.finish().unwrap()).unwrap();
        assert_eq!(
            tail,
            rest.iter().map(|l| format!("{l}\n")).collect::<String>()
        );
    }

    #[test]
    fn a_chunk_gives_each_success_its_own_line() {
        let job = job(Size::Nine, 50, 10, 1);
        let run = |spare, positions, stop: bool| {
            Chunk::run(
                spare,
                &job,
                positions,
                &mut Worker::<Nine>::new(&job),
                &mut Clock::start(),
                &AtomicBool::new(stop),
            )
        };
        // Enough attempts for lines formatted four at a time and some formatted alone.
        let chunk = run(Chunk::default(), 3..14, false);
        let rows: Vec<_> = chunk.rows().collect();
        assert_eq!(
            (rows.len(), chunk.works.len(), chunk.stopped),
            (11, 11, false)
        );
        let lines = rows.iter().flatten().count();
        assert!(
            lines > LINES_AT_ONCE && lines % LINES_AT_ONCE > 0,
            "{lines}"
        );
        assert_eq!(chunk.work.attempts, 11);
        assert_eq!(chunk.work, chunk.works.iter().copied().sum());
        let mut generator = Generator::<Nine>::for_generation(job.generation);
        for ((index, row), work) in (3..).zip(rows).zip(&chunk.works) {
            assert_eq!(work.attempts, 1);
            // The line formatted alone, from the same attempt.
            let made = generator.attempt(job.seed, index, &mut Work::default());
            let alone = made.map(|made| {
                let mut bytes = Vec::new();
                let key =
                    RowFormatter::new(job.dedup).append_line(&made, job.seed, index, &mut bytes);
                (key, bytes)
            });
            assert_eq!(row.map(|(key, bytes)| (key, bytes.to_vec())), alone);
        }
        // A chunk the writer is done with, reused, holds what a new one would.
        let new = run(Chunk::default(), 20..26, false);
        let reused = run(chunk, 20..26, false);
        assert!(reused.rows().eq(new.rows()));
        assert_eq!(reused.works.len(), 6);
        assert_eq!((reused.work.attempts, reused.stopped), (6, false));
        // A stop before the first attempt ends the chunk there, reused or not.
        for spare in [Chunk::default(), reused] {
            let stopped = run(spare, 3..8, true);
            assert!(stopped.stopped && stopped.lines.is_empty() && stopped.bytes.is_empty());
            assert_eq!(stopped.work, Work::default());
        }
    }

    #[test]
    fn complete_grids_are_timed_a_group_of_lines_at_a_time() {
        let job = job(Size::Nine, 0, 9, 1);
        let chunk = Chunk::run(
            Chunk::default(),
            &job,
            0..9,
            &mut Worker::<Nine>::new(&job),
            &mut Clock::start(),
            &AtomicBool::new(false),
        );
        // Each group of lines formatted together (two of four, then one alone) records
        // its grids' fills and its formatting on its last attempt, and only there.
        let ends = [3, 7, 8];
        for (k, work) in chunk.works.iter().enumerate() {
            let timed = (work.fill_nanos > 0, work.format_nanos > 0);
            let end = ends.contains(&k);
            assert_eq!(timed, (end, end), "attempt {k}");
        }
        assert_eq!((chunk.work.grids, chunk.work.attempts), (9, 9));
    }

    #[test]
    fn stop_interrupts_with_valid_rows() {
        let stopped = job(Size::Nine, 50, 1000, 2);
        let mut out = BankWriter::new(Vec::new(), &stopped.generation, stopped.dedup).unwrap();
        let outcome = run(
            &stopped,
            Existing::default(),
            &mut out,
            &AtomicBool::new(true),
            &Progress::hidden(),
        )
        .unwrap();
        assert_eq!(outcome.status, Status::Interrupted);
        // Stopped before it began: no attempt ran, and the next one is the first.
        assert_eq!((outcome.rows, outcome.next_index), (0, 0));
        assert_eq!(outcome.stats.attempts, 0);
    }
}
