//! Digs by whole orbits of a symmetry, so that the clue pattern keeps it: top-down, an orbit
//! at a time, and, when that stops short of the target, on by swaps of a clue orbit for an
//! empty one, as a dig without symmetry swaps one clue for another (see the parent module).

use std::sync::atomic::{AtomicBool, Ordering};

use rand::RngCore;

use super::sets::CellSet;
use super::{Digger, Dug, Job, Step, Swap};
use crate::grid::Grid;
use crate::rng::shuffle;
use crate::shape::Shape;
use crate::solver::{Engine, Toward};
use crate::symmetry::Orbits;

/// Swaps a dig by orbits may try for each hole still missing, over the square of the
/// pattern's largest orbit size: 50 for `rot180` and `mirror`, 12.5 for `rot90`, 3.1 for
/// `dihedral`. A dig that gives up tries another order, and the larger the orbits, the
/// rarer a swap that stands. Searches a puzzle of 9×9 banks (`generate --symmetry K --holes
/// H --count 300 --threads 1 --seed 5`) with 1,000, 100 and 5 swaps per missing hole:
/// `dihedral` to 48 holes 1,834, 252 and 68; `rot90` to 56 holes 8,243, 1,692 and 821;
/// `rot180` to 58 holes 514, 402 and 1,378.
pub const ORBIT_SWAPS_PER_MISSING_HOLE: usize = 200;

impl<S: Shape> Digger<S> {
    /// Digs `solution` by whole orbits of `orbits` toward `holes` holes, the puzzle keeping
    /// exactly one solution; returns the puzzle, which has the target's holes or is as far
    /// as the dig got. For a target of every cell, a minimal dig by orbits: no orbit of
    /// clues can go.
    ///
    /// Top-down, the dig visits every orbit once, in an order drawn from `rng`, and empties
    /// it when the puzzle stays unique and the target is not passed. As in a top-down dig,
    /// an engine that takes a base propagates the puzzle less the next orbits
    /// ([`Engine::prepared_cells`] of their cells, or the few more that finish the last
    /// orbit), and the orbit's cells that propagation places need no search; each other
    /// cell takes one search with its digit excluded. An orbit that would leave a
    /// remembered unavoidable set without a clue stays without a search. 9×9 `rot180` digs
    /// to 50 holes, which counted the solutions of every puzzle, came 1.6× as fast with the
    /// placed orbits skipped (24.1 searches a puzzle against 88.7) and 1.44× again with a
    /// search for each cell left (29.7 searches, each for less).
    ///
    /// A dig to an exact target searches at most [`Shape::REMOVAL_BUDGET`] branches for each
    /// removal, as other digs do, and an orbit whose search runs out of them stays: on
    /// 16×16 and 25×25 a removal stands only when propagation alone rules out every other
    /// digit. Unbounded, an engine without a base counted the solutions of every puzzle from
    /// its clues, and a 25×25 `rot180` dig to 320 holes took seconds; bounded, such an
    /// engine searches each cell of the orbit instead. 25×25 `rot180` banks at 320 holes
    /// came 60× as fast so, 16×16 `rot180` banks at 150 holes 3.7× (docs/benchmark-log.md).
    ///
    /// A dig to an exact target that stops short goes on by swaps of orbits (see the
    /// module docs and [`ORBIT_SWAPS_PER_MISSING_HOLE`]) until it reaches the target, gives
    /// up, or `stop` is set; but not on 4×4, where a dig costs a few searches and swaps
    /// that stand are rare: its caller's next order does better. With swaps, 4×4 banks to
    /// 12 holes (the most a 4×4 puzzle has) came 0.27× as fast by `rot180` orbits and 0.07×
    /// by `rot90` orbits (docs/benchmark-log.md).
    #[allow(clippy::too_many_arguments)]
    pub fn dig_orbits_until<E: Engine<S>, R: RngCore>(
        &mut self,
        solver: &mut E,
        solution: &Grid<S>,
        orbits: &Orbits,
        holes: usize,
        rng: &mut R,
        tests: &mut u64,
        stop: &AtomicBool,
    ) -> Grid<S> {
        self.forget(solution, holes);
        let exact = holes < S::CELLS;
        let mut job = Job {
            solver,
            solution,
            holes,
            rng,
            tests,
            budget: if exact { S::REMOVAL_BUDGET } else { u64::MAX },
            remembers: exact,
            stop,
        };
        let mut dug = self.orbits_top_down(&mut job, orbits);
        if exact && dug.holes < holes && S::BOX > 2 {
            self.deepen_orbits(&mut job, &mut dug, orbits);
        }
        dug.puzzle
    }

    /// [`Digger::dig_orbits_until`], never stopped from outside.
    pub fn dig_orbits<E: Engine<S>, R: RngCore>(
        &mut self,
        solver: &mut E,
        solution: &Grid<S>,
        orbits: &Orbits,
        holes: usize,
        rng: &mut R,
        tests: &mut u64,
    ) -> Grid<S> {
        let stop = AtomicBool::new(false);
        self.dig_orbits_until(solver, solution, orbits, holes, rng, tests, &stop)
    }

    /// The top-down part of [`Digger::dig_orbits_until`].
    fn orbits_top_down<E: Engine<S>, R: RngCore>(
        &mut self,
        job: &mut Job<'_, S, E, R>,
        orbits: &Orbits,
    ) -> Dug<S> {
        let mut order: S::Cells<u16> = S::cells(0);
        let order = &mut order.as_mut()[..orbits.len()];
        for (k, slot) in order.iter_mut().enumerate() {
            *slot = k as u16;
        }
        shuffle(job.rng, order);
        let mut dug = Dug {
            puzzle: *job.solution,
            clues: CellSet::first(S::CELLS),
            holes: 0,
        };
        // The end of the orbits the engine's prepared base lacks, as in a top-down dig.
        let mut prepared = 0;
        for (at, &k) in order.iter().enumerate() {
            let orbit = orbits.orbit(k as usize);
            if dug.holes + orbit.len() > job.holes {
                continue;
            }
            let wanted = E::prepared_cells(dug.holes);
            if wanted > 0 && at >= prepared {
                let mut base = dug.puzzle;
                let mut lacking = 0;
                prepared = at;
                while prepared < order.len() && lacking < wanted {
                    for &cell in orbits.orbit(order[prepared] as usize) {
                        base.set(cell as usize, 0);
                        lacking += 1;
                    }
                    prepared += 1;
                }
                job.solver.prepare_tests(&base);
            }
            if self.orbit_stands(job, &dug, orbit, true) {
                for &cell in orbit {
                    dug.empty(cell as usize);
                }
                if dug.holes == job.holes {
                    break;
                }
            }
        }
        dug
    }

    /// Whether `dug` less the clue orbit `orbit` keeps exactly one solution (as far as the
    /// job's budget tells: false when it runs out). The old puzzle was unique, so any other
    /// solution differs from the grid in a cell of the orbit: one search for each, with
    /// the grid's digit excluded, but none for a cell the engine's base places when
    /// `based` (the puzzle holds the base's clues), and none at all when the puzzle would
    /// leave a remembered unavoidable set without a clue (see [`Digger::unique_without`]).
    fn orbit_stands<E: Engine<S>, R: RngCore>(
        &mut self,
        job: &mut Job<'_, S, E, R>,
        dug: &Dug<S>,
        orbit: &[u16],
        based: bool,
    ) -> bool {
        let (mut puzzle, mut clues) = (dug.puzzle, dug.clues);
        for &cell in orbit {
            puzzle.set(cell as usize, 0);
            clues.remove(cell as usize);
        }
        !self.misses_a_set(&clues)
            && self.unique_without(job, &puzzle, orbit, dug.holes, based) == Some(true)
    }

    /// Whether `puzzle`, a unique puzzle less the clues of `orbit` (and perhaps with other
    /// clues added), has exactly one solution, by the searches of [`Digger::orbit_stands`]:
    /// `Some(false)` when a search found another, `None` when the job's budget ran out
    /// first. `holes` is the hole count before the orbit went, for the engine's choice of
    /// base. An engine without a base counts solutions instead, for an orbit of several
    /// cells, when the job has no budget (on 25×25 a search for each cell took twice the
    /// instructions of a count).
    fn unique_without<E: Engine<S>, R: RngCore>(
        &mut self,
        job: &mut Job<'_, S, E, R>,
        puzzle: &Grid<S>,
        orbit: &[u16],
        holes: usize,
        based: bool,
    ) -> Option<bool> {
        if E::prepared_cells(holes) == 0 && orbit.len() > 1 && job.budget == u64::MAX {
            *job.tests += 1;
            return Some(job.solver.count_solutions(puzzle, 2) == 1);
        }
        for &cell in orbit {
            let cell = cell as usize;
            if based && job.solver.base_places(cell) {
                continue;
            }
            *job.tests += 1;
            let other = job.solver.has_solution_without_within(
                puzzle,
                cell,
                job.solution.get(cell),
                job.budget,
                &mut Toward(job.solution),
            );
            if other == Some(true) && job.remembers {
                self.remember(CellSet(job.solver.differences(job.solution)));
            }
            if other != Some(false) {
                return other.map(|found| !found);
            }
        }
        Some(true)
    }

    /// Takes a dig by orbits that stopped short further down by swaps, as
    /// [`Digger::deepen`] takes a top-down dig: empty a clue orbit `X` if the puzzle stays
    /// unique; if not, swap it for an empty orbit `Y` that every remembered unavoidable set
    /// `X` alone holds needs ([`Digger::swap_orbit`]), and keep the swap when the puzzle
    /// stays unique; after a kept swap, try to empty every clue orbit again. Gives up after
    /// [`ORBIT_SWAPS_PER_MISSING_HOLE`] swaps per hole still missing, over the square of
    /// the largest orbit's size, or once the job's `stop` is set.
    fn deepen_orbits<E: Engine<S>, R: RngCore>(
        &mut self,
        job: &mut Job<'_, S, E, R>,
        dug: &mut Dug<S>,
        orbits: &Orbits,
    ) {
        let largest = orbits.largest();
        let mut swaps =
            (ORBIT_SWAPS_PER_MISSING_HOLE * (job.holes - dug.holes)).div_ceil(largest * largest);
        while dug.holes < job.holes && swaps > 0 && !job.stop.load(Ordering::Relaxed) {
            swaps -= 1;
            let k = orbits.orbit_of(dug.clues.pick(job.rng, Self::WORDS));
            let orbit = orbits.orbit(k);
            if dug.holes + orbit.len() <= job.holes && self.orbit_stands(job, dug, orbit, false) {
                for &cell in orbit {
                    dug.empty(cell as usize);
                }
                continue;
            }
            if self.swap_orbit(job, dug, orbits, orbit) == Swap::Kept {
                self.minimise_orbits(job, dug, orbits);
            }
        }
    }

    /// Swaps the clue orbit `orbit` of `dug` for an empty orbit, drawn from the job's
    /// stream among those that meet every remembered unavoidable set the clue orbit alone
    /// holds (any when there is none), and keeps the swap when the puzzle stays unique
    /// (within the job's budget).
    ///
    /// The orbit put back is no larger than the one emptied, so the dig never climbs back,
    /// and large enough not to pass the target. Where one of exactly the size that makes
    /// the target is among them, the swap takes one of those: a dig by `rot180` orbits to
    /// an even target that emptied the centre (so that every pair it can still empty
    /// leaves it one hole past the target or one short) puts the centre back for a pair,
    /// and a swap of pairs for pairs never would: `generate --symmetry rot180 --holes 50
    /// --count 300 --threads 1 --seed 5` missed the target in no dig so, and in 609 with
    /// swaps of equal sizes alone (docs/benchmark-log.md).
    fn swap_orbit<E: Engine<S>, R: RngCore>(
        &mut self,
        job: &mut Job<'_, S, E, R>,
        dug: &mut Dug<S>,
        orbits: &Orbits,
        orbit: &[u16],
    ) -> Swap {
        let mut rest = dug.clues;
        for &cell in orbit {
            rest.remove(cell as usize);
        }
        // The cells of orbits that meet every set the orbit alone holds.
        let mut meeting = CellSet::first(S::CELLS);
        for set in self.remembered() {
            if set.is_disjoint(&rest, Self::WORDS) {
                let mut orbits_of_set = CellSet::default();
                for cell in set.cells() {
                    for &other in orbits.orbit(orbits.orbit_of(cell)) {
                        orbits_of_set.insert(other as usize);
                    }
                }
                meeting = meeting.and(&orbits_of_set);
            }
        }
        // How far past the target emptying the orbit alone would go.
        let over = (dug.holes + orbit.len()).saturating_sub(job.holes);
        let (mut fitting, mut exact) = (CellSet::default(), CellSet::default());
        for cell in meeting.cells().filter(|&cell| !dug.clues.contains(cell)) {
            let size = orbits.orbit(orbits.orbit_of(cell)).len();
            if (over.max(1)..=orbit.len()).contains(&size) {
                fitting.insert(cell);
            }
            if size == over {
                exact.insert(cell);
            }
        }
        let choices = if exact.is_empty() { fitting } else { exact };
        if choices.is_empty() {
            return Swap::Declined;
        }
        let back = orbits.orbit(orbits.orbit_of(choices.pick(job.rng, Self::WORDS)));
        let mut swapped = Dug {
            puzzle: dug.puzzle,
            clues: rest,
            holes: dug.holes + orbit.len() - back.len(),
        };
        for &cell in orbit {
            swapped.puzzle.set(cell as usize, 0);
        }
        for &cell in back {
            let cell = cell as usize;
            swapped.puzzle.set(cell, job.solution.get(cell));
            swapped.clues.insert(cell);
        }
        match self.unique_without(job, &swapped.puzzle, orbit, dug.holes, false) {
            Some(true) => {
                *dug = swapped;
                Swap::Kept
            }
            Some(false) => Swap::Refuted,
            None => Swap::Declined,
        }
    }

    /// [`Digger::walk`] by swaps of orbits of the same size: every puzzle on the way keeps
    /// the symmetry of `orbits`, its hole count and exactly one solution.
    #[allow(clippy::too_many_arguments)]
    pub fn walk_orbits<E: Engine<S>, R: RngCore, T>(
        &mut self,
        solver: &mut E,
        solution: &Grid<S>,
        puzzle: &Grid<S>,
        orbits: &Orbits,
        swaps: usize,
        rng: &mut R,
        tests: &mut u64,
        wanted: &mut impl FnMut(&Grid<S>) -> Step<T>,
    ) -> Option<T> {
        let job = Job::walk(solver, solution, puzzle, rng, tests);
        self.walk_by(job, puzzle, swaps, wanted, |digger, job, dug, clue| {
            digger.swap_orbit(job, dug, orbits, orbits.orbit(orbits.orbit_of(clue)))
        })
    }

    /// Empties every clue orbit that can go, in an order drawn from the job's stream,
    /// stopping at the target.
    fn minimise_orbits<E: Engine<S>, R: RngCore>(
        &mut self,
        job: &mut Job<'_, S, E, R>,
        dug: &mut Dug<S>,
        orbits: &Orbits,
    ) {
        let mut order: S::Cells<u16> = S::cells(0);
        let mut clued = 0;
        for k in 0..orbits.len() {
            if dug.clues.contains(orbits.orbit(k)[0] as usize) {
                order.as_mut()[clued] = k as u16;
                clued += 1;
            }
        }
        let order = &mut order.as_mut()[..clued];
        shuffle(job.rng, order);
        for &k in order.iter() {
            if dug.holes == job.holes {
                return;
            }
            let orbit = orbits.orbit(k as usize);
            if dug.holes + orbit.len() <= job.holes && self.orbit_stands(job, dug, orbit, false) {
                for &cell in orbit {
                    dug.empty(cell as usize);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::assert_dug;
    use super::*;
    use crate::generator::fill;
    use crate::rng::{AttemptRng, attempt_rng};
    use crate::shape::{Nine, Sixteen};
    use crate::solver::{Generic, Solver};
    use crate::symmetry::Symmetry;

    /// The top-down part alone of a dig by orbits with `engine`, its searches taking at
    /// most `budget` branches.
    #[allow(clippy::too_many_arguments)]
    fn top_down<S: Shape, E: Engine<S>>(
        digger: &mut Digger<S>,
        engine: &mut E,
        solution: &Grid<S>,
        orbits: &Orbits,
        holes: usize,
        budget: u64,
        rng: &mut AttemptRng,
        tests: &mut u64,
    ) -> Dug<S> {
        digger.forget(solution, holes);
        let mut job = Job {
            solver: engine,
            solution,
            holes,
            rng,
            tests,
            budget,
            remembers: true,
            stop: &AtomicBool::new(false),
        };
        digger.orbits_top_down(&mut job, orbits)
    }

    /// A top-down dig by orbits with the size's engine, which skips the searches of orbits
    /// its bases place, empties the same orbits as one with the reference engine, which has
    /// no base and searches every orbit; with fewer searches.
    fn orbit_shortcuts_change_nothing<S: Shape>(symmetry: Symmetry, holes: usize, attempts: u64) {
        let orbits = Orbits::new(symmetry, S::N);
        let mut solver = Solver::<S>::new();
        let mut reference = Generic::<S>::new();
        let mut digger = Digger::<S>::new();
        let (mut tests, mut searches, mut reached) = (0, 0, 0);
        for index in 0..attempts {
            let mut rng = attempt_rng(8, index);
            let (solution, _) = fill(&mut solver, &mut rng);
            let (mut a, mut b) = (rng.clone(), rng);
            let fast = top_down(
                &mut digger,
                &mut solver,
                &solution,
                &orbits,
                holes,
                u64::MAX,
                &mut a,
                &mut tests,
            );
            let searched = top_down(
                &mut digger,
                &mut reference,
                &solution,
                &orbits,
                holes,
                u64::MAX,
                &mut b,
                &mut searches,
            );
            assert_eq!(fast.puzzle, searched.puzzle);
            reached += (fast.holes == holes) as u32;
        }
        assert!(
            reached > 0,
            "no dig by {symmetry} orbits reached {holes} holes"
        );
        assert!(
            2 * tests < searches,
            "{tests} searches with shortcuts, {searches} without"
        );
    }

    #[test]
    fn orbit_shortcuts_give_the_searched_answer() {
        orbit_shortcuts_change_nothing::<Nine>(Symmetry::Rot180, 50, 40);
        orbit_shortcuts_change_nothing::<Nine>(Symmetry::Mirror, 48, 40);
        orbit_shortcuts_change_nothing::<Sixteen>(Symmetry::Rot180, 130, 2);
    }

    /// Digs by `symmetry`'s orbits to `holes`, from `attempts` grids: every puzzle has the
    /// symmetry and, by the reference engine, exactly one solution, the grid; and swaps
    /// took some of them to the target, past a top-down dig that stopped short.
    fn deep_orbit_digs<S: Shape>(symmetry: Symmetry, holes: usize, attempts: u64) {
        let orbits = Orbits::new(symmetry, S::N);
        let mut solver = Solver::<S>::new();
        let mut reference = Generic::<S>::new();
        let mut digger = Digger::<S>::new();
        let (mut reached, mut by_swaps, mut tests) = (0, 0, 0);
        for index in 0..attempts {
            let mut rng = attempt_rng(5, index);
            let (solution, _) = fill(&mut solver, &mut rng);
            // The top-down part of the dig below, as it runs there.
            let short = top_down(
                &mut digger,
                &mut solver,
                &solution,
                &orbits,
                holes,
                S::REMOVAL_BUDGET,
                &mut rng.clone(),
                &mut tests,
            )
            .holes
                < holes;
            let puzzle =
                digger.dig_orbits(&mut solver, &solution, &orbits, holes, &mut rng, &mut tests);
            assert!(symmetry.holds(S::N, |cell| puzzle.get(cell) != 0));
            assert!(puzzle.holes() <= holes);
            assert_dug(&mut reference, &puzzle, &solution, puzzle.holes());
            if puzzle.holes() == holes {
                reached += 1;
                by_swaps += short as u32;
            }
        }
        assert!(
            by_swaps > 0,
            "no {symmetry} dig needed swaps to reach {holes} holes ({reached} reached)"
        );
    }

    /// A walk by orbits from a puzzle dug by `symmetry`'s orbits to `holes` reaches other
    /// puzzles (it may come back to one), each with the symmetry, the same holes and, by
    /// the reference engine, exactly one solution, the grid; it ends at the one `wanted`
    /// takes.
    fn orbit_walks<S: Shape>(symmetry: Symmetry, holes: usize, attempts: u64) {
        let orbits = Orbits::new(symmetry, S::N);
        let mut solver = Solver::<S>::new();
        let mut reference = Generic::<S>::new();
        let mut digger = Digger::<S>::new();
        let (mut tests, mut reached) = (0, 0);
        for index in 0..attempts {
            let mut rng = attempt_rng(7, index);
            let (solution, _) = fill(&mut solver, &mut rng);
            let start =
                digger.dig_orbits(&mut solver, &solution, &orbits, holes, &mut rng, &mut tests);
            if start.holes() != holes {
                continue;
            }
            let (mut seen, mut moved) = (0, false);
            let taken = digger.walk_orbits(
                &mut solver,
                &solution,
                &start,
                &orbits,
                200,
                &mut rng,
                &mut tests,
                &mut |puzzle| {
                    assert!(symmetry.holds(S::N, |cell| puzzle.get(cell) != 0));
                    assert_dug(&mut reference, puzzle, &solution, holes);
                    moved |= puzzle != &start;
                    seen += 1;
                    if seen == 10 {
                        Step::Take(*puzzle)
                    } else {
                        Step::Pass
                    }
                },
            );
            reached += seen;
            assert_eq!(taken.is_some(), seen == 10);
            assert_eq!(moved, seen > 0);
        }
        assert!(
            reached > 0,
            "no {symmetry} walk kept a swap at {holes} holes"
        );
    }

    #[test]
    fn walks_by_orbits_keep_the_pattern_and_one_solution() {
        orbit_walks::<Nine>(Symmetry::Rot180, 54, 4);
        orbit_walks::<Nine>(Symmetry::Rot90, 48, 4);
        orbit_walks::<Nine>(Symmetry::Dihedral, 44, 4);
        orbit_walks::<Sixteen>(Symmetry::Mirror, 140, 1);
    }

    #[test]
    fn swaps_of_orbits_reach_deep_symmetric_targets() {
        deep_orbit_digs::<Nine>(Symmetry::Rot180, 58, 6);
        deep_orbit_digs::<Nine>(Symmetry::Rot90, 56, 6);
        deep_orbit_digs::<Nine>(Symmetry::Mirror, 56, 6);
        deep_orbit_digs::<Nine>(Symmetry::Dihedral, 52, 6);
        deep_orbit_digs::<Sixteen>(Symmetry::Rot180, 160, 2);
    }
}
