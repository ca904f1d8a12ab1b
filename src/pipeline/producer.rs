//! The producer: hands out ranges of attempts to the pool, sized to the pace seen so far,
//! and sends each range's results to the writer in index order.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Instant;

use rayon::ThreadPool;

use super::Consumed;
use super::worker::{Chunk, Range, Worker};
use crate::config::Job;
use crate::shape::Shape;
use crate::stats::Clock;

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

/// The producer's ends of the channels to and from the writer.
pub(super) struct Ranges {
    /// Ranges of results, in order.
    pub(super) sender: SyncSender<Range>,
    /// The chunks of each range the writer is done with.
    pub(super) returned: Receiver<Vec<Chunk>>,
}

/// Runs ranges of attempts on the pool until the writer is done, the budget is spent or
/// `stop` is set.
pub(super) fn produce<S: Shape>(
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Dedup, Generation, Holes};
    use crate::shape::Size;

    fn consumed(rows: u64, attempts: u64, batch_rows: u64) -> Consumed {
        Consumed {
            rows: AtomicU64::new(rows),
            attempts: AtomicU64::new(attempts),
            batch_rows,
        }
    }

    #[test]
    fn ranges_hold_what_the_success_rate_says_the_batch_still_needs() {
        let generation = Generation::new(Size::Nine, Some(Holes::Exact(50))).unwrap();
        let job = Job::new(generation, 100, 1, 2, Dedup::Exact, None).unwrap();
        let len = |next, consumed: &Consumed| range_len(&job, next, consumed, 1000);
        // Nothing taken yet: every attempt counts as a success.
        assert_eq!(len(0, &consumed(0, 0, 0)), 100);
        // Half the attempts made a row: 50 rows to go take 100 attempts.
        assert_eq!(len(100, &consumed(50, 100, 0)), 100);
        // 40 attempts under way should bring 20 of them.
        assert_eq!(len(140, &consumed(50, 100, 0)), 60);
        // Rows already in the bank count towards the batch, not towards the rate.
        assert_eq!(len(100, &consumed(75, 100, 50)), 100);
        // At least one attempt a thread, even with the batch complete or all under way.
        assert_eq!(len(100, &consumed(100, 100, 0)), 2);
        assert_eq!(len(1000, &consumed(50, 100, 0)), 2);
        // At most `per_thread` attempts a thread, and never more than the cap.
        assert_eq!(range_len(&job, 0, &consumed(0, 0, 0), 10), 20);
        let big = Job::new(generation, 1 << 40, 1, 2, Dedup::Exact, None).unwrap();
        assert_eq!(
            range_len(&big, 0, &consumed(0, 0, 0), u64::MAX),
            2 * MAX_RANGE_PER_THREAD
        );
    }
}
