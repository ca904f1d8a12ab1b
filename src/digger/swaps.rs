//! Digs past the minimal puzzle, and walks.
//!
//! A top-down dig that stops short of the target ends in a minimal puzzle (no clue can go)
//! or, with a budget, in one where no clue goes within it. The dig then goes on by *swaps*:
//! it empties a clue `x`, puts back a cell `y` common to every remembered unavoidable set
//! that `x` alone held (the puzzle needs a clue in each), keeps the swap when one search
//! finds no solution that differs at `x`, and tries again to empty every clue. A swap keeps
//! the clue count, so the dig walks among puzzles of one size until one of them lets a clue
//! go; it gives up after [`SWAPS_PER_MISSING_HOLE`] swaps per hole still missing. Swaps draw
//! from the attempt's stream like the visiting order.
//!
//! A *walk* ([`Digger::walk`]) takes the same swaps from a puzzle at its target, keeping every
//! one that leaves the puzzle unique: it visits puzzles with the same holes, each for the
//! price of one search, until one of them is wanted (one in a difficulty band, say). When a
//! swap fails, the walk swaps the same clue again: the second solution it found is an
//! unavoidable set that clue alone held, so the next cell put back is one every such set
//! known needs. Such a retry stands no more often than a swap of a fresh clue (47% of the
//! searched swaps of a hard band's walks at 55 holes, either way), but walks that retry
//! cost less: without retries, hard banks at 55 and 58 holes took 5.8% and 2.8% more
//! instructions, and a medium bank at 50 holes 1.9% more (docs/benchmark-log.md).
//! The caller may also send the walk back to the last puzzle it marked as a base ([`Step`]),
//! away from a region it does not want.

use std::sync::atomic::{AtomicBool, Ordering};

use rand::RngCore;

use super::sets::CellSet;
use super::{Digger, Dug, Job};
use crate::grid::Grid;
use crate::rng::shuffle;
use crate::shape::Shape;
use crate::solver::{Engine, Toward};

/// Swaps a dig may try for each hole that top-down digging left short of the target.
pub const SWAPS_PER_MISSING_HOLE: usize = 1000;

/// What a walk does after reaching a puzzle ([`Digger::walk`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step<T> {
    /// Stops with `T`: the puzzle is wanted.
    Take(T),
    /// Walks on from this puzzle, which becomes the one a [`Step::Back`] returns to.
    Base,
    /// Walks on from this puzzle.
    Pass,
    /// Walks on from the last [`Step::Base`] puzzle (the first puzzle if none), not from
    /// this one.
    Back,
}

/// What came of a swap ([`Digger::swap`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Swap {
    /// The puzzle stayed unique: the swap was kept.
    Kept,
    /// A search found a second solution, now remembered: the swap was undone.
    Refuted,
    /// No cell could be put back, or the search ran out of budget: nothing changed.
    Declined,
}

/// A stop flag that nothing sets, for walks, which end by their count of swaps.
static NEVER: AtomicBool = AtomicBool::new(false);

impl<'a, S: Shape, E, R> Job<'a, S, E, R> {
    /// The job of a walk from `puzzle`: swaps at its hole count, searched within the size's
    /// budget, remembering the sets they reveal.
    pub(super) fn walk(
        solver: &'a mut E,
        solution: &'a Grid<S>,
        puzzle: &Grid<S>,
        rng: &'a mut R,
        tests: &'a mut u64,
    ) -> Self {
        Job {
            solver,
            solution,
            holes: puzzle.holes(),
            rng,
            tests,
            budget: S::REMOVAL_BUDGET,
            remembers: true,
            stop: &NEVER,
        }
    }
}

impl<S: Shape> Digger<S> {
    /// Takes a minimal puzzle further down by swaps: empty a clue `x`, put back a cell `y`
    /// that every unavoidable set held by `x` alone needs, and keep the swap if the puzzle
    /// stays unique; then try to empty every clue again. A swap keeps the clue count, so the
    /// search walks among puzzles of one size until one of them lets a clue go. Gives up
    /// after [`SWAPS_PER_MISSING_HOLE`] swaps per hole still missing.
    pub(super) fn deepen<E: Engine<S>, R: RngCore>(
        &mut self,
        job: &mut Job<'_, S, E, R>,
        dug: &mut Dug<S>,
    ) {
        let mut swaps = SWAPS_PER_MISSING_HOLE * (job.holes - dug.holes);
        while dug.holes < job.holes && swaps > 0 && !job.stop.load(Ordering::Relaxed) {
            swaps -= 1;
            let x = dug.clues.pick(job.rng, Self::WORDS);
            if self.witness(&dug.clues, x).is_none() && self.removable(job, &mut dug.puzzle, x) {
                dug.empty(x);
                continue;
            }
            // x is held by a remembered set now: the last one found, if not before.
            if self.swap(job, dug, x) == Swap::Kept {
                self.minimise(job, dug);
            }
        }
    }

    /// Swaps clue `x` of `dug` for a cell that every remembered unavoidable set `x` alone
    /// holds needs (any empty cell when there is no such set), drawn from the job's stream,
    /// and keeps the swap when the puzzle stays unique (within the job's budget).
    fn swap<E: Engine<S>, R: RngCore>(
        &mut self,
        job: &mut Job<'_, S, E, R>,
        dug: &mut Dug<S>,
        x: usize,
    ) -> Swap {
        let solution = job.solution;
        let mut choices = self.common_witness(&dug.clues, x);
        for (w, clues) in choices.0.iter_mut().zip(dug.clues.0) {
            *w &= !clues;
        }
        if choices.is_empty() {
            return Swap::Declined;
        }
        // Every remembered set holds a clue of the unique puzzle: those whose only clue is
        // `x` hold `y` too, so each still holds one after the swap.
        let y = choices.pick(job.rng, Self::WORDS);
        let mut clues = dug.clues;
        clues.remove(x);
        clues.insert(y);
        let mut puzzle = dug.puzzle;
        puzzle.set(x, 0);
        puzzle.set(y, solution.get(y));
        // The old puzzle was unique, so any other solution of the new one differs at x.
        *job.tests += 1;
        match job.solver.has_solution_without_within(
            &puzzle,
            x,
            solution.get(x),
            job.budget,
            &mut Toward(solution),
        ) {
            Some(false) => {}
            Some(true) => {
                self.remember(CellSet(job.solver.differences(solution)));
                return Swap::Refuted;
            }
            None => return Swap::Declined,
        }
        dug.puzzle = puzzle;
        dug.clues = clues;
        Swap::Kept
    }

    /// Walks from `puzzle`, dug from `solution` and unique, by up to `swaps` swaps of one
    /// clue for another (those of the search by swaps, see the module docs), all drawn from
    /// `rng`, until `wanted` takes one of the puzzles it reaches ([`Step::Take`]), or sends
    /// it back to an earlier one ([`Step::Back`]): the hole count stays the same, and every
    /// puzzle on the way has exactly one solution. Returns what `wanted` took, or `None`.
    #[allow(clippy::too_many_arguments)]
    pub fn walk<E: Engine<S>, R: RngCore, T>(
        &mut self,
        solver: &mut E,
        solution: &Grid<S>,
        puzzle: &Grid<S>,
        swaps: usize,
        rng: &mut R,
        tests: &mut u64,
        wanted: &mut impl FnMut(&Grid<S>) -> Step<T>,
    ) -> Option<T> {
        let job = Job::walk(solver, solution, puzzle, rng, tests);
        self.walk_by(job, puzzle, swaps, wanted, Self::swap)
    }

    /// [`Digger::walk`] by the swaps `swap` makes of the clue it is given (and what comes with
    /// it: its orbit, for a walk by orbits).
    pub(super) fn walk_by<E: Engine<S>, R: RngCore, T>(
        &mut self,
        mut job: Job<'_, S, E, R>,
        puzzle: &Grid<S>,
        swaps: usize,
        wanted: &mut impl FnMut(&Grid<S>) -> Step<T>,
        mut swap: impl FnMut(&mut Self, &mut Job<'_, S, E, R>, &mut Dug<S>, usize) -> Swap,
    ) -> Option<T> {
        // Sets remembered from digging this grid still hold; those of another grid do not.
        if self.grid != *job.solution {
            self.forget(job.solution, puzzle.holes());
        }
        let mut dug = Dug {
            puzzle: *puzzle,
            clues: CellSet::default(),
            holes: puzzle.holes(),
        };
        for cell in (0..S::CELLS).filter(|&cell| puzzle.get(cell) != 0) {
            dug.clues.insert(cell);
        }
        // The clue to swap again: a refuted swap of it found a second solution, whose set
        // it alone held, so its next swap puts back a cell that set needs too.
        let mut again = None;
        // Where a `Step::Back` returns to.
        let mut base = dug;
        for _ in 0..swaps {
            if dug.clues.is_empty() {
                return None;
            }
            let x = again
                .take()
                .unwrap_or_else(|| dug.clues.pick(job.rng, Self::WORDS));
            match swap(self, &mut job, &mut dug, x) {
                Swap::Kept => match wanted(&dug.puzzle) {
                    Step::Take(found) => return Some(found),
                    Step::Base => base = dug,
                    Step::Pass => {}
                    Step::Back => dug = base,
                },
                Swap::Refuted => again = Some(x),
                Swap::Declined => {}
            }
        }
        None
    }

    /// Empties every clue that can go, in an order drawn from the job's stream, stopping at
    /// the target.
    fn minimise<E: Engine<S>, R: RngCore>(&mut self, job: &mut Job<'_, S, E, R>, dug: &mut Dug<S>) {
        let mut order: S::Cells<u16> = S::cells(0);
        let clues = S::CELLS - dug.holes;
        for (k, slot) in order.as_mut()[..clues].iter_mut().enumerate() {
            *slot = dug.clues.nth(k, Self::WORDS) as u16;
        }
        shuffle(job.rng, &mut order.as_mut()[..clues]);
        for &cell in &order.as_ref()[..clues] {
            if dug.holes == job.holes {
                return;
            }
            let cell = cell as usize;
            if self.witness(&dug.clues, cell).is_none()
                && self.removable(job, &mut dug.puzzle, cell)
            {
                dug.empty(cell);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::digs;
    use super::*;
    use crate::generator::fill;
    use crate::rng::attempt_rng;
    use crate::shape::{Four, Nine, Sixteen};
    use crate::solver::Solver;

    /// Every puzzle a walk reaches has the dug puzzle's holes and exactly one solution, the
    /// grid; the walk moves, and it stops at the first puzzle wanted. Walks also start from
    /// a grid other than the one last dug (whose unavoidable sets do not hold for it).
    fn walks<S: Shape>(holes: usize, attempts: u64) {
        let mut solver = Solver::<S>::new();
        let mut reference = crate::solver::Generic::<S>::new();
        let mut digger = Digger::<S>::new();
        let mut dug = Vec::new();
        for index in 0..attempts {
            let mut rng = attempt_rng(5, index);
            let (solution, _) = fill(&mut solver, &mut rng);
            let mut tests = 0;
            if let Some(puzzle) = digger.dig(&mut solver, &solution, holes, &mut rng, &mut tests) {
                dug.push((solution, puzzle, rng));
            }
        }
        assert!(dug.len() > 1, "too few digs reached {holes} holes");
        let mut moved = 0;
        // Walk from each dug puzzle in reverse order, so most walks start on another grid.
        for (solution, start, mut rng) in dug.into_iter().rev() {
            let mut tests = 0;
            let mut seen = 0;
            let stopped = digger.walk(
                &mut solver,
                &solution,
                &start,
                40,
                &mut rng,
                &mut tests,
                &mut |puzzle| {
                    assert_eq!(puzzle.holes(), holes);
                    assert!(puzzle.agrees_with(&solution));
                    assert_eq!(reference.count_solutions(puzzle, 2), 1);
                    assert_eq!(reference.solution(), solution);
                    moved += (*puzzle != start) as usize;
                    seen += 1;
                    if seen == 5 {
                        Step::Take(*puzzle)
                    } else {
                        Step::Pass
                    }
                },
            );
            assert!(stopped.is_none() || seen == 5);
            // Sent back every time, a walk never gets further than one swap from its start:
            // one clue moved.
            let mut back = 0;
            digger.walk(
                &mut solver,
                &solution,
                &start,
                20,
                &mut rng,
                &mut tests,
                &mut |puzzle| {
                    let moved = (0..S::CELLS).filter(|&c| puzzle.get(c) != start.get(c));
                    assert_eq!(moved.count(), 2);
                    back += 1;
                    Step::<()>::Back
                },
            );
            assert!(back > 0, "no swap kept");
        }
        assert!(moved > 0, "no walk moved");
    }

    #[test]
    fn walks_keep_holes_and_uniqueness() {
        walks::<Four>(9, 20);
        walks::<Nine>(50, 10);
        walks::<Nine>(58, 10);
        walks::<Sixteen>(130, 2);
    }

    /// Targets past where top-down digging stops are reached by swaps, still unique.
    #[test]
    fn swaps_reach_deep_targets() {
        digs::<Four>(12, 30);
        digs::<Nine>(60, 20);
        digs::<Nine>(62, 40);
    }
}
