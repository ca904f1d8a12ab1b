//! One attempt: fill a grid and dig it to the hole target, retrying within the attempt.
//!
//! Everything an attempt does — the grid, every dig order, every retry — draws from the
//! stream of `(seed, index)` alone, so `generate`, `reproduce` and `verify --provenance`
//! get the same puzzle for the same attempt wherever and whenever it runs.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::config::Holes;
use crate::digger::Digger;
use crate::generator;
use crate::grid::Grid;
use crate::rng::attempt_rng;
use crate::shape::Shape;
use crate::solver::{Engine, Solver};
use crate::stats::Work;

/// Dig orders tried on one grid before the attempt fills a new one.
pub const ORDERS_PER_GRID: u32 = 3;
/// Grids an attempt fills before it gives up.
pub const GRIDS_PER_ATTEMPT: u32 = 2;

/// An attempt abandoned because the batch was stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stopped;

/// A puzzle with exactly one solution, and that solution.
#[derive(Debug, PartialEq, Eq)]
pub struct Puzzle<S: Shape> {
    /// The clues, with holes.
    pub puzzle: Grid<S>,
    /// Its only solution.
    pub solution: Grid<S>,
}

impl<S: Shape> Clone for Puzzle<S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S: Shape> Copy for Puzzle<S> {}

/// Runs attempts for one hole target; keep one per worker thread and reuse it.
#[derive(Debug)]
pub struct Generator<S: Shape> {
    solver: Solver<S>,
    digger: Digger<S>,
    holes: Holes,
}

impl<S: Shape> Generator<S> {
    /// A generator of puzzles dug to `holes` (exactly 0: complete grids).
    pub fn new(holes: Holes) -> Self {
        Generator {
            solver: Solver::<S>::new(),
            digger: Digger::new(),
            holes,
        }
    }

    /// Runs attempt `index` of the batch with master seed `seed`, adding its work to `work`.
    /// `None` when every retry fell short of the hole target.
    pub fn attempt(&mut self, seed: u64, index: u64, work: &mut Work) -> Option<Puzzle<S>> {
        // Nothing sets this flag, so the attempt always finishes.
        self.attempt_until(seed, index, work, &AtomicBool::new(false))
            .ok()
            .flatten()
    }

    /// [`Generator::attempt`], abandoned once `stop` is set: `Err(Stopped)` then says the
    /// attempt did not finish, so it has no result (neither a puzzle nor a miss), and the
    /// work it did is not added to `work`.
    pub fn attempt_until(
        &mut self,
        seed: u64,
        index: u64,
        work: &mut Work,
        stop: &AtomicBool,
    ) -> Result<Option<Puzzle<S>>, Stopped> {
        let mut own = Work::default();
        let made = self.run(seed, index, &mut own, stop);
        if made.is_none() && stop.load(Ordering::Relaxed) {
            return Err(Stopped);
        }
        *work += own;
        Ok(made)
    }

    fn run(
        &mut self,
        seed: u64,
        index: u64,
        work: &mut Work,
        stop: &AtomicBool,
    ) -> Option<Puzzle<S>> {
        let mut rng = attempt_rng(seed, index);
        work.attempts += 1;
        for _ in 0..GRIDS_PER_ATTEMPT {
            let started = Instant::now();
            let (solution, restarts) = generator::fill(&mut self.solver, &mut rng);
            work.grids += 1;
            work.fill_restarts += restarts;
            work.fill_nanos += elapsed_nanos(started);
            let holes = match self.holes {
                Holes::Exact(0) => {
                    return Some(Puzzle {
                        puzzle: solution,
                        solution,
                    });
                }
                Holes::Exact(holes) => holes,
                Holes::Minimal => {
                    let started = Instant::now();
                    let puzzle = self.digger.dig_minimal(
                        &mut self.solver,
                        &solution,
                        &mut rng,
                        &mut work.uniqueness_tests,
                    );
                    work.dig_nanos += elapsed_nanos(started);
                    work.digs_reached += 1;
                    return Some(Puzzle { puzzle, solution });
                }
            };
            for _ in 0..ORDERS_PER_GRID {
                let started = Instant::now();
                let dug = self.digger.dig_until(
                    &mut self.solver,
                    &solution,
                    holes,
                    &mut rng,
                    &mut work.uniqueness_tests,
                    stop,
                );
                work.dig_nanos += elapsed_nanos(started);
                match dug {
                    Some(puzzle) => {
                        work.digs_reached += 1;
                        return Some(Puzzle { puzzle, solution });
                    }
                    None => work.digs_missed += 1,
                }
            }
        }
        None
    }
}

pub(crate) fn elapsed_nanos(since: Instant) -> u64 {
    since.elapsed().as_nanos() as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::Nine;

    #[test]
    fn attempts_are_reproducible() {
        let mut a = Generator::<Nine>::new(Holes::Exact(50));
        let mut b = Generator::<Nine>::new(Holes::Exact(50));
        let mut work = Work::default();
        // Run b on other indices first: an attempt must not depend on what ran before it.
        for index in 10..20 {
            b.attempt(3, index, &mut work);
        }
        for index in 0..10 {
            assert_eq!(
                a.attempt(3, index, &mut work),
                b.attempt(3, index, &mut work)
            );
        }
        assert_eq!(work.attempts, 30);
    }

    #[test]
    fn a_stopped_attempt_finishes_as_usual_or_not_at_all() {
        // 62 holes needs the search by swaps, which a stop cuts short.
        let mut generator = Generator::<Nine>::new(Holes::Exact(62));
        let stop = AtomicBool::new(true);
        let mut stopped = 0;
        for index in 0..10 {
            let mut work = Work::default();
            match generator.attempt_until(5, index, &mut work, &stop) {
                Ok(made) => {
                    assert_eq!(made, generator.attempt(5, index, &mut Work::default()));
                    assert_eq!(work.attempts, 1);
                }
                Err(Stopped) => {
                    stopped += 1;
                    assert_eq!(work, Work::default(), "a stopped attempt adds no work");
                }
            }
        }
        assert!(stopped > 0);
    }

    #[test]
    fn zero_holes_gives_full_grids() {
        let mut work = Work::default();
        let p = Generator::<Nine>::new(Holes::Exact(0))
            .attempt(1, 1, &mut work)
            .unwrap();
        assert_eq!(p.puzzle, p.solution);
        assert!(p.solution.is_solution());
        assert_eq!(work.digs_reached + work.digs_missed, 0);
    }
}
