//! Throughput statistics: what the summary prints, `--stats-json` writes and the manifest
//! embeds.
//!
//! Each worker adds to its own [`Work`] and the writer sums them with `+=`, so no lock or
//! shared counter sits in the hot loop.

use std::ops::AddAssign;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

/// Counters of the work done by attempts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Work {
    /// Attempts run.
    pub attempts: u64,
    /// Complete grids filled.
    pub grids: u64,
    /// Fills cut short by the branch budget and started again.
    pub fill_restarts: u64,
    /// Dig passes that reached the hole target.
    pub digs_reached: u64,
    /// Dig passes that ended short of it.
    pub digs_missed: u64,
    /// Uniqueness searches run while digging.
    pub uniqueness_tests: u64,
    /// Time spent filling, summed over workers.
    pub fill_nanos: u64,
    /// Time spent digging, summed over workers.
    pub dig_nanos: u64,
    /// Time spent formatting rows, summed over workers.
    pub format_nanos: u64,
}

impl AddAssign for Work {
    fn add_assign(&mut self, other: Work) {
        self.attempts += other.attempts;
        self.grids += other.grids;
        self.fill_restarts += other.fill_restarts;
        self.digs_reached += other.digs_reached;
        self.digs_missed += other.digs_missed;
        self.uniqueness_tests += other.uniqueness_tests;
        self.fill_nanos += other.fill_nanos;
        self.dig_nanos += other.dig_nanos;
        self.format_nanos += other.format_nanos;
    }
}

impl std::iter::Sum for Work {
    fn sum<I: Iterator<Item = Work>>(works: I) -> Work {
        works.fold(Work::default(), |mut total, work| {
            total += work;
            total
        })
    }
}

/// A worker's clock, read once per phase of its work: each [`Clock::lap`] gives the time
/// since the previous lap (or since [`Clock::start`]), so consecutive phases share their
/// readings. A reading costs tens of nanoseconds here, a few per cent of a 9×9 grid.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    last: Instant,
}

impl Clock {
    /// A clock whose first lap starts now.
    pub fn start() -> Self {
        Clock {
            last: Instant::now(),
        }
    }

    /// Nanoseconds since the last lap, which ends now.
    pub fn lap(&mut self) -> u64 {
        let now = Instant::now();
        let nanos = now.duration_since(self.last).as_nanos() as u64;
        self.last = now;
        nanos
    }
}

/// The statistics of one run (SPEC "Statistics").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    /// Wall-clock seconds from start to the last row written.
    pub wall_seconds: f64,
    /// Worker threads.
    pub threads: usize,
    /// Attempts run.
    pub attempts: u64,
    /// Attempts that yielded a puzzle.
    pub successes: u64,
    /// Complete grids filled, and per wall second.
    pub grids: u64,
    /// Grids per wall-clock second.
    pub grids_per_sec: f64,
    /// Fills restarted by the branch budget.
    pub fill_restarts: u64,
    /// Dig passes that reached the hole target.
    pub digs_reached: u64,
    /// Dig passes that ended short of it.
    pub digs_missed: u64,
    /// Rows written.
    pub puzzles: u64,
    /// Rows per wall-clock second.
    pub puzzles_per_sec: f64,
    /// Puzzles dropped as duplicates of an earlier attempt.
    pub duplicates: u64,
    /// Uniqueness searches run while digging.
    pub uniqueness_tests: u64,
    /// Uniqueness searches per puzzle written.
    pub tests_per_puzzle: f64,
    /// Seconds of worker time spent filling.
    pub fill_cpu_seconds: f64,
    /// Seconds of worker time spent digging.
    pub dig_cpu_seconds: f64,
    /// Seconds of worker time spent formatting rows.
    pub format_cpu_seconds: f64,
    /// Seconds the writer spent deduplicating and writing.
    pub write_cpu_seconds: f64,
    /// The process's peak resident memory when the statistics were made, where the system
    /// reports it (Linux: `VmHWM` of `/proc/self/status`).
    pub peak_memory_bytes: Option<u64>,
}

impl Stats {
    /// Statistics from the summed work and the writer's own figures.
    pub fn new(
        work: &Work,
        wall: Duration,
        threads: usize,
        successes: u64,
        puzzles: u64,
        duplicates: u64,
        write: Duration,
    ) -> Stats {
        let wall_seconds = wall.as_secs_f64();
        let per_sec = |n: u64| {
            if wall_seconds > 0.0 {
                n as f64 / wall_seconds
            } else {
                0.0
            }
        };
        Stats {
            wall_seconds,
            threads,
            attempts: work.attempts,
            successes,
            grids: work.grids,
            grids_per_sec: per_sec(work.grids),
            fill_restarts: work.fill_restarts,
            digs_reached: work.digs_reached,
            digs_missed: work.digs_missed,
            puzzles,
            puzzles_per_sec: per_sec(puzzles),
            duplicates,
            uniqueness_tests: work.uniqueness_tests,
            tests_per_puzzle: if puzzles > 0 {
                work.uniqueness_tests as f64 / puzzles as f64
            } else {
                0.0
            },
            fill_cpu_seconds: work.fill_nanos as f64 / 1e9,
            dig_cpu_seconds: work.dig_nanos as f64 / 1e9,
            format_cpu_seconds: work.format_nanos as f64 / 1e9,
            write_cpu_seconds: write.as_secs_f64(),
            peak_memory_bytes: peak_resident_bytes(),
        }
    }

    /// The human summary: a few lines for stderr.
    pub fn summary(&self) -> String {
        format!(
            "{puzzles} in {wall:.2} s on {threads}: {pps:.0} puzzles/s\n  \
             attempts {attempts} ({successes} yielded a puzzle), grids {grids} ({gps:.0}/s, {restarts} fill restarts)\n  \
             digs reached {reached}, missed {missed}; duplicates dropped {dups}; uniqueness tests {tpp:.1}/puzzle\n  \
             cpu: fill {fill:.2} s, dig {dig:.2} s, format {format:.2} s, dedup + write {write:.2} s{memory}",
            puzzles = counted(self.puzzles, "puzzle"),
            wall = self.wall_seconds,
            threads = counted(self.threads as u64, "thread"),
            pps = self.puzzles_per_sec,
            attempts = self.attempts,
            successes = self.successes,
            grids = self.grids,
            gps = self.grids_per_sec,
            restarts = self.fill_restarts,
            reached = self.digs_reached,
            missed = self.digs_missed,
            dups = self.duplicates,
            tpp = self.tests_per_puzzle,
            fill = self.fill_cpu_seconds,
            dig = self.dig_cpu_seconds,
            format = self.format_cpu_seconds,
            write = self.write_cpu_seconds,
            memory = match self.peak_memory_bytes {
                Some(bytes) => format!("; peak memory {:.0} MiB", bytes as f64 / (1 << 20) as f64),
                None => String::new(),
            },
        )
    }
}

/// `n` and the noun, plural unless `n` is 1: "1 thread", "2 threads".
pub(crate) fn counted(n: u64, noun: &str) -> String {
    match n {
        1 => format!("1 {noun}"),
        _ => format!("{n} {noun}s"),
    }
}

/// The process's peak resident set size, from `/proc/self/status` (Linux only).
fn peak_resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn laps_split_the_time_between_readings() {
        let before = Instant::now();
        let mut clock = Clock::start();
        std::thread::sleep(Duration::from_millis(2));
        let first = clock.lap();
        std::thread::sleep(Duration::from_millis(1));
        let second = clock.lap();
        let outside = before.elapsed().as_nanos() as u64;
        assert!(
            first >= 2_000_000 && second >= 1_000_000,
            "{first} {second}"
        );
        assert!(first + second <= outside);
    }

    #[test]
    fn work_sums_and_rates() {
        let mut total = Work::default();
        let one = Work {
            attempts: 2,
            grids: 3,
            uniqueness_tests: 10,
            ..Work::default()
        };
        total += one;
        total += one;
        assert_eq!(total.grids, 6);
        let stats = Stats::new(&total, Duration::from_secs(2), 2, 4, 4, 0, Duration::ZERO);
        assert_eq!(stats.grids_per_sec, 3.0);
        assert_eq!(stats.puzzles_per_sec, 2.0);
        assert_eq!(stats.tests_per_puzzle, 5.0);
        assert!(stats.summary().contains("4 puzzles"));
        if cfg!(target_os = "linux") {
            let peak = stats.peak_memory_bytes.expect("Linux reports VmHWM");
            assert!(peak > 1 << 20, "{peak} bytes");
            assert!(stats.summary().contains("peak memory"));
        }
    }
}
