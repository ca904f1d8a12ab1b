//! What a pool thread does: runs chunks of consecutive attempts, and formats their rows.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::attempt::Generator;
use crate::bank::{LINES_AT_ONCE, RowFormatter};
use crate::config::Job;
use crate::shape::Shape;
use crate::stats::{Clock, Work};

/// The results of one range of attempts, in index order, in chunks of consecutive attempts.
pub(super) struct Range {
    /// The position of the first in the shard's run of attempt indices.
    pub(super) first: u64,
    pub(super) chunks: Vec<Chunk>,
}

/// The results of a run of consecutive attempts made by one worker, in index order, with the
/// lines of its successes one after another in one buffer. The writer reads each attempt's
/// key and line end and, when it takes the whole chunk, the chunk's total work: an attempt's
/// own work is read only when a batch ends inside the chunk. The writer hands each range's
/// chunks back to the producer, and later chunks reuse their buffers ([`Worker::spare`]).
#[derive(Default)]
pub(super) struct Chunk {
    /// The lines, as CSV with their line endings.
    pub(super) bytes: Vec<u8>,
    /// Each finished attempt's success, if it made a puzzle: the puzzle's dedup key and where
    /// its line ends in `bytes`.
    pub(super) lines: Vec<Option<(u128, usize)>>,
    /// Each finished attempt's work.
    pub(super) works: Vec<Work>,
    /// The work of every finished attempt.
    pub(super) work: Work,
    /// True when a stop left the attempt after the last finished one unstarted or
    /// unfinished, which ends the chunk.
    pub(super) stopped: bool,
}

impl Chunk {
    /// Runs the attempts at `positions` in the shard's run of indices, in order, until a
    /// stop, in the buffers of `chunk` (one the writer is done with, or a new one).
    pub(super) fn run<S: Shape>(
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
/// faults and 0.9 s in the kernel (docs/benchmark-log.md, "Chunk buffers reused").
pub(super) struct Worker<S: Shape> {
    generator: Generator<S>,
    formatter: RowFormatter,
    /// Chunks to reuse, their lines already written.
    pub(super) spare: Vec<Chunk>,
}

impl<S: Shape> Worker<S> {
    pub(super) fn new(job: &Job) -> Self {
        Worker {
            generator: Generator::for_generation(job.generation),
            formatter: RowFormatter::new(job.dedup),
            spare: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::tests::job;
    use crate::shape::{Nine, Size};

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
}
