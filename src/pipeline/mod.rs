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
//!
//! The parts, in the order an attempt's row goes through them: `producer.rs` sizes the
//! ranges and runs them on the pool, `worker.rs` runs a chunk of attempts and formats its
//! rows, and `writer.rs` takes the chunks in index order.

mod producer;
mod worker;
mod writer;

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{channel, sync_channel};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::bank::BankWriter;
use crate::config::Job;
use crate::hash::KeySet;
use crate::progress::Progress;
use crate::shape::Shape;
use crate::stats::Stats;
use producer::{Ranges, produce};
use worker::{Chunk, Range};
use writer::{Writer, WriterEnds, consume};

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
#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Dedup, Generation, Holes};
    use crate::shape::Size;

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

    pub(super) fn job(size: Size, holes: usize, count: u64, threads: usize) -> Job {
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
