//! The writer: takes the ranges' results in index order, drops duplicates, writes rows.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender};
use std::time::{Duration, Instant};

use super::worker::{Chunk, Range};
use super::{Consumed, Existing, Outcome, Status};
use crate::bank::BankWriter;
use crate::config::{Dedup, Job};
use crate::hash::KeySet;
use crate::progress::Progress;
use crate::stats::{Stats, Work};

/// The writer's ends of the channels from and to the producer.
pub(super) struct WriterEnds {
    /// Ranges of results, in order.
    pub(super) receiver: Receiver<Range>,
    /// The chunks of each range the writer is done with.
    pub(super) done_with: Sender<Vec<Chunk>>,
}

/// The writer: takes ranges in index order, keeps the first of each distinct puzzle, and
/// stops at `count` rows, or at the first attempt a stop left unstarted.
pub(super) fn consume<W: Write>(
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
pub(super) struct Writer<'a, W: Write> {
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
    pub(super) fn new(job: &'a Job, existing: Existing, out: &'a mut BankWriter<W>) -> Self {
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
