//! Digging: removing clues from a complete grid while the puzzle keeps exactly one solution.
//!
//! Cells are visited in an order drawn from the attempt's stream. A removal stands when no
//! solution puts another digit in the emptied cell — one search with the old digit excluded
//! (see [`Engine::has_solution_without`]). Four cheaper checks settle most removals first,
//! each giving exactly the answer the search would, so they change the speed of a dig and
//! never its result:
//!
//! - *naked*: the cell's clue peers hold every other digit, so the removal stands;
//! - *hidden*: in one of the cell's units, every other empty cell sees the removed digit
//!   among its clue peers, so the digit can only go back in this cell: the removal stands
//!   (a top-down dig keeps masks of where each digit stands and which places are empty, so
//!   this takes a few mask operations and no branch per cell);
//! - *unavoidable sets*: when a search finds a second solution, the cells where it differs
//!   from the grid form an unavoidable set — a puzzle with no clue in it has both solutions.
//!   The dig remembers the last [`REMEMBERED_SETS`] of them, starting with the grid's small
//!   sets on two rows of a band or two columns of a stack (`a b / b a`, `a b c / b c a`, up
//!   to four columns) and, on 9×9 digs to 54 holes or more, those of two digits on three or
//!   four rows, and a removal that would leave one without a clue fails without a search.
//!   A set a top-down search reveals holds the clue that stayed and no other, so it serves
//!   the swaps below and never a later top-down test: a minimal dig, which takes no swap,
//!   does not keep them, and a top-down dig looks among the grid's own sets alone, by cell.
//! - *propagated*: where the engine takes a base ([`Engine::prepared_cells`]), the dig has
//!   it propagate the puzzle less the next cells it will test, once, before the first of
//!   their tests. A cell that propagation places has its digit in every solution of that
//!   base, and so of every puzzle the dig reaches before it, which holds the base's clues:
//!   its removal stands. 9×9 digs to 55 holes so run 13.6 searches a puzzle against 21.1,
//!   16×16 digs to 150 holes 29.3 against 60.4. Digs by orbits take the same check, an
//!   orbit at a time.
//!
//! A search may be given a budget of branches ([`Shape::REMOVAL_BUDGET`]): a clue whose
//! search runs out of it stays, as if the removal had failed, and nothing is remembered. The
//! puzzles keep exactly one solution; the dig only declines to pay for the proof.
//!
//! A top-down dig that stops short of the target goes on by swaps of one clue for another,
//! and a walk takes the same swaps from a puzzle at its target (`swaps.rs`).
//!
//! Digs by the orbits of a symmetry (`orbits.rs`, [`Digger::dig_orbits_until`]) empty whole
//! orbits, with the same checks, and go on by swaps of orbits when they stop short.

mod cycles;
mod orbits;
mod places;
mod sets;
mod swaps;

use std::sync::atomic::AtomicBool;

use rand::RngCore;

use crate::grid::Grid;
use crate::rng::shuffle;
use crate::shape::Shape;
use crate::solver::{Engine, Toward, bit};
pub use orbits::ORBIT_SWAPS_PER_MISSING_HOLE;
use places::Places;
use sets::{CellSet, Lines};
use swaps::Swap;
pub use swaps::{SWAPS_PER_MISSING_HOLE, Step};

/// Unavoidable sets a dig remembers; a new one replaces the oldest.
pub const REMEMBERED_SETS: usize = 512;

/// A puzzle on its way down: the clues left and how many cells are empty.
#[derive(Clone, Copy, Debug)]
struct Dug<S: Shape> {
    puzzle: Grid<S>,
    clues: CellSet,
    holes: usize,
}

impl<S: Shape> Dug<S> {
    fn empty(&mut self, cell: usize) {
        self.puzzle.set(cell, 0);
        self.clues.remove(cell);
        self.holes += 1;
    }
}

/// What one dig works with: the engine, the grid, the hole target, the attempt's stream and
/// the count of uniqueness searches.
struct Job<'a, S: Shape, E, R> {
    solver: &'a mut E,
    solution: &'a Grid<S>,
    holes: usize,
    rng: &'a mut R,
    tests: &'a mut u64,
    /// Branches a removal test may take; a clue whose test runs out of them stays.
    budget: u64,
    /// Whether removal tests remember the unavoidable sets their second solutions reveal.
    /// Such a set holds the clue that stayed, and no other clue, so no later top-down test
    /// can use it: only swaps can, and a minimal dig takes none.
    remembers: bool,
    /// Set from outside to end a long search by swaps early (the dig then misses).
    stop: &'a AtomicBool,
}

/// Digs puzzles; keep one per worker thread and reuse it.
#[derive(Debug)]
pub struct Digger<S: Shape> {
    /// Unavoidable sets of the current grid, a ring of the last [`REMEMBERED_SETS`] found.
    sets: [CellSet; REMEMBERED_SETS],
    /// Sets found so far on this grid (the ring holds the last of them).
    found: usize,
    /// The grid those sets are of.
    grid: Grid<S>,
    /// That grid's lines as permutations, to find its small sets.
    lines: Box<Lines>,
    /// How many of the ring's first sets are the grid's own, those [`Digger::forget`]
    /// remembered.
    grid_sets: usize,
    /// For each cell, which of the first [`sets::INDEXED_SETS`] of the grid's own sets hold
    /// it: bit `k` for the set in slot `k`.
    holding: S::Cells<u64>,
    shape: std::marker::PhantomData<S>,
}

impl<S: Shape> Default for Digger<S> {
    fn default() -> Self {
        Self::new()
    }
}

impl<S: Shape> Digger<S> {
    const WORDS: usize = S::CELLS.div_ceil(64);

    /// A digger with empty memory.
    pub fn new() -> Self {
        Digger {
            sets: [CellSet::default(); REMEMBERED_SETS],
            found: 0,
            grid: Grid::empty(),
            lines: Box::default(),
            grid_sets: 0,
            holding: S::cells(0),
            shape: std::marker::PhantomData,
        }
    }

    /// Digs `solution` to exactly `holes` empty cells, the puzzle keeping exactly one
    /// solution; `None` if it did not get there. Digs top-down in an order drawn from `rng`;
    /// when that stops short of the target, searches on by swaps of one clue for another
    /// (see the module docs). Searches take at most [`Shape::REMOVAL_BUDGET`] branches.
    /// `tests` counts the uniqueness searches run.
    pub fn dig<E: Engine<S>, R: RngCore>(
        &mut self,
        solver: &mut E,
        solution: &Grid<S>,
        holes: usize,
        rng: &mut R,
        tests: &mut u64,
    ) -> Option<Grid<S>> {
        self.dig_until(solver, solution, holes, rng, tests, &AtomicBool::new(false))
    }

    /// [`Digger::dig`], giving up early (`None`) once `stop` is set: the search by swaps can
    /// run for a long time on deep targets of large grids.
    pub fn dig_until<E: Engine<S>, R: RngCore>(
        &mut self,
        solver: &mut E,
        solution: &Grid<S>,
        holes: usize,
        rng: &mut R,
        tests: &mut u64,
        stop: &AtomicBool,
    ) -> Option<Grid<S>> {
        self.forget(solution, holes);
        self.dig_job(&mut Job {
            solver,
            solution,
            holes,
            rng,
            tests,
            budget: S::REMOVAL_BUDGET,
            remembers: true,
            stop,
        })
    }

    /// Digs the job's grid to its target: top-down, then by swaps.
    fn dig_job<E: Engine<S>, R: RngCore>(&mut self, job: &mut Job<'_, S, E, R>) -> Option<Grid<S>> {
        let mut dug = self.top_down(job);
        if dug.holes < job.holes {
            self.deepen(job, &mut dug);
        }
        (dug.holes == job.holes).then_some(dug.puzzle)
    }

    /// Digs `solution` until no clue can go: a minimal puzzle, with exactly one solution.
    /// Its searches have no budget, and remember no unavoidable set. Where
    /// [`Shape::REMOVAL_BUDGET`] is unbounded too, it is the puzzle [`Digger::dig`] gives
    /// from the same stream for a target of its holes.
    pub fn dig_minimal<E: Engine<S>, R: RngCore>(
        &mut self,
        solver: &mut E,
        solution: &Grid<S>,
        rng: &mut R,
        tests: &mut u64,
    ) -> Grid<S> {
        self.forget(solution, S::CELLS);
        let mut job = Job {
            solver,
            solution,
            holes: S::CELLS,
            rng,
            tests,
            budget: u64::MAX,
            remembers: false,
            stop: &AtomicBool::new(false),
        };
        self.top_down(&mut job).puzzle
    }

    /// Visits every cell once in an order drawn from the job's stream and empties it if the
    /// puzzle stays unique, stopping at the target. Without a budget, a dig that stops short
    /// ends in a minimal puzzle: a clue that could not go when visited cannot go later, with
    /// fewer clues around it.
    fn top_down<E: Engine<S>, R: RngCore>(&mut self, job: &mut Job<'_, S, E, R>) -> Dug<S> {
        let mut order: S::Cells<u16> = S::cells(0);
        for (cell, slot) in order.as_mut().iter_mut().enumerate() {
            *slot = cell as u16;
        }
        shuffle(job.rng, order.as_mut());

        let mut dug = Dug {
            puzzle: *job.solution,
            clues: CellSet::first(S::CELLS),
            holes: 0,
        };
        // Digits placed in each unit: every unit is full to begin with. `places` holds the
        // same clues the other way round (each digit's units), for the hidden check.
        let mut used: S::Units<u32> = S::units(S::ALL);
        let mut places = Places::full::<S>();
        // The end of the cells the engine's prepared base lacks (see `prepare`).
        let mut prepared = 0;
        for (at, &cell) in order.as_ref().iter().enumerate() {
            if dug.holes == job.holes {
                break;
            }
            let cell = cell as usize;
            let digit = dug.puzzle.get(cell);
            let b = bit(digit);
            let units = S::units_of(cell);
            for unit in units {
                used[unit] &= !b;
            }
            places.toggle::<S>(cell, digit);
            let [row, col, boxed] = units;
            let naked = used[row] | used[col] | used[boxed] | b == S::ALL;
            let stands = naked
                || places.hidden_single::<S>(cell, digit)
                || !self.top_down_witness(&dug.clues, cell) && {
                    if E::prepared_cells(dug.holes) > 0 && at >= prepared {
                        prepared = Self::prepare(job, &dug, order.as_ref(), at);
                    }
                    job.solver.base_places(cell) || self.removable(job, &mut dug.puzzle, cell)
                };
            if stands {
                dug.empty(cell);
                places.empty::<S>(cell);
            } else {
                for unit in units {
                    used[unit] |= b;
                }
                places.toggle::<S>(cell, digit);
            }
        }
        dug
    }

    /// Prepares the engine's removal tests ([`Engine::prepare_tests`]) of the cells from
    /// `order[at]` on, with the puzzle less the next [`Engine::prepared_cells`] of them as
    /// the base: every puzzle the dig tests until then holds its clues. Returns where
    /// those cells end.
    fn prepare<E: Engine<S>, R: RngCore>(
        job: &mut Job<'_, S, E, R>,
        dug: &Dug<S>,
        order: &[u16],
        at: usize,
    ) -> usize {
        let end = (at + E::prepared_cells(dug.holes)).min(order.len());
        let mut base = dug.puzzle;
        for &cell in &order[at..end] {
            base.set(cell as usize, 0);
        }
        job.solver.prepare_tests(&base);
        end
    }
    /// The uniqueness search for emptying clue `cell` of `puzzle`: true when no solution puts
    /// another digit there, false when one does or the job's budget ran out first. Leaves
    /// `puzzle` as it was, and remembers the unavoidable set a second solution reveals
    /// (when the job [remembers](Job::remembers)).
    fn removable<E: Engine<S>, R: RngCore>(
        &mut self,
        job: &mut Job<'_, S, E, R>,
        puzzle: &mut Grid<S>,
        cell: usize,
    ) -> bool {
        *job.tests += 1;
        let digit = puzzle.get(cell);
        puzzle.set(cell, 0);
        let other = job.solver.has_solution_without_within(
            puzzle,
            cell,
            digit,
            job.budget,
            &mut Toward(job.solution),
        );
        puzzle.set(cell, digit);
        if other == Some(true) && job.remembers {
            self.remember(CellSet(job.solver.differences(job.solution)));
        }
        other == Some(false)
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::generator::fill;
    use crate::rng::attempt_rng;
    use crate::shape::{Four, Nine, Sixteen};
    use crate::solver::Solver;

    /// `puzzle` has `holes` holes and, by the reference engine, exactly one solution:
    /// `solution`, whose clues it shows.
    pub(super) fn assert_dug<S: Shape>(
        reference: &mut crate::solver::Generic<S>,
        puzzle: &Grid<S>,
        solution: &Grid<S>,
        holes: usize,
    ) {
        assert_eq!(puzzle.holes(), holes);
        assert!(puzzle.agrees_with(solution));
        assert_eq!(reference.count_solutions(puzzle, 2), 1);
        assert_eq!(&reference.solution(), solution);
    }

    /// Digs `attempts` grids to `holes` and checks every puzzle reached with the reference
    /// engine: exactly one solution, the grid.
    pub(super) fn digs<S: Shape>(holes: usize, attempts: u64) {
        let mut solver = Solver::<S>::new();
        let mut reference = crate::solver::Generic::<S>::new();
        let mut digger = Digger::<S>::new();
        let mut reached = 0;
        for index in 0..attempts {
            let mut rng = attempt_rng(9, index);
            let (solution, _) = fill(&mut solver, &mut rng);
            let mut tests = 0;
            if let Some(puzzle) = digger.dig(&mut solver, &solution, holes, &mut rng, &mut tests) {
                reached += 1;
                assert_dug(&mut reference, &puzzle, &solution, holes);
            }
        }
        assert!(reached > 0, "no dig reached {holes} holes");
    }

    /// The dig with every removal searched: no shortcut.
    fn dig_by_search_alone<S: Shape>(
        solver: &mut Solver<S>,
        solution: &Grid<S>,
        holes: usize,
        rng: &mut impl RngCore,
        searches: &mut u64,
    ) -> Option<Grid<S>> {
        // The same order as the dig draws: a shuffle of the cells as u16.
        let mut order: Vec<u16> = (0..S::CELLS as u16).collect();
        shuffle(rng, &mut order);
        let mut puzzle = *solution;
        let mut removed = 0;
        for (visited, cell) in order.into_iter().map(usize::from).enumerate() {
            if removed == holes {
                break;
            }
            if removed + (S::CELLS - visited) < holes {
                return None;
            }
            let digit = puzzle.get(cell);
            puzzle.set(cell, 0);
            *searches += 1;
            if solver.has_solution_without(&puzzle, cell, digit, &mut Toward(solution)) {
                puzzle.set(cell, digit);
            } else {
                removed += 1;
            }
        }
        (removed == holes).then_some(puzzle)
    }

    /// The shortcuts give the answers the searches would: the same top-down dig, fewer
    /// searches.
    fn shortcuts_change_nothing<S: Shape>(holes: usize, attempts: u64) {
        let mut solver = Solver::<S>::new();
        let mut digger = Digger::<S>::new();
        let (mut tests, mut searches, mut reached) = (0, 0, 0);
        for index in 0..attempts {
            let mut rng = attempt_rng(4, index);
            let (solution, _) = fill(&mut solver, &mut rng);
            let (mut a, mut b) = (rng.clone(), rng);
            digger.forget(&solution, holes);
            let dug = digger.top_down(&mut Job {
                solver: &mut solver,
                solution: &solution,
                holes,
                rng: &mut a,
                tests: &mut tests,
                budget: u64::MAX,
                remembers: true,
                stop: &AtomicBool::new(false),
            });
            let dug = (dug.holes == holes).then_some(dug.puzzle);
            let searched =
                dig_by_search_alone(&mut solver, &solution, holes, &mut b, &mut searches);
            assert_eq!(dug, searched);
            reached += dug.is_some() as u32;
        }
        assert!(reached > 0, "no dig reached {holes} holes");
        assert!(
            2 * tests < searches,
            "{tests} searches with shortcuts, {searches} without"
        );
    }

    #[test]
    fn shortcuts_give_the_searched_answer() {
        shortcuts_change_nothing::<Four>(10, 50);
        shortcuts_change_nothing::<Nine>(55, 100);
        shortcuts_change_nothing::<Nine>(58, 300);
        shortcuts_change_nothing::<Sixteen>(150, 3);
    }

    /// Digs to `holes` with removal tests of at most `budget` branches keep exactly one
    /// solution, the grid; against unbounded digs of the same streams, the budget changes
    /// some puzzles.
    fn budgeted_digs<S: Shape>(holes: usize, budget: u64, attempts: u64) {
        let mut solver = Solver::<S>::new();
        let mut reference = crate::solver::Generic::<S>::new();
        let mut digger = Digger::<S>::new();
        let (mut reached, mut changed, mut tests) = (0, 0, 0);
        for index in 0..attempts {
            let mut rng = attempt_rng(6, index);
            let (solution, _) = fill(&mut solver, &mut rng);
            let mut dig = |budget| {
                digger.forget(&solution, holes);
                digger.dig_job(&mut Job {
                    solver: &mut solver,
                    solution: &solution,
                    holes,
                    rng: &mut rng.clone(),
                    tests: &mut tests,
                    budget,
                    remembers: true,
                    stop: &AtomicBool::new(false),
                })
            };
            let unbounded = dig(u64::MAX);
            let dug = dig(budget);
            changed += (dug != unbounded) as u32;
            if let Some(puzzle) = dug {
                reached += 1;
                assert_dug(&mut reference, &puzzle, &solution, holes);
            }
        }
        assert!(reached > 0, "no dig reached {holes} holes");
        assert!(changed > 0, "the budget changed no dig");
    }

    #[test]
    fn budgets_keep_puzzles_unique() {
        budgeted_digs::<Nine>(58, 0, 40);
        budgeted_digs::<Nine>(60, 3, 20);
        budgeted_digs::<Sixteen>(160, 0, 3);
        budgeted_digs::<Sixteen>(150, Sixteen::REMOVAL_BUDGET, 3);
    }

    #[test]
    fn dug_puzzles_are_unique() {
        digs::<Four>(10, 30);
        digs::<Nine>(50, 30);
        digs::<Nine>(55, 30);
        digs::<Sixteen>(120, 3);
    }

    /// Minimal digs: unique, no clue can go, no remembered set of their own (the same dig
    /// keeping them runs the same searches) and, where exact digs have no removal budget,
    /// the exact-target dig of the same stream to the same count gives the same puzzle
    /// (what `verify --provenance` relies on).
    fn minimal_digs<S: Shape>(attempts: u64) {
        let mut solver = Solver::<S>::new();
        let mut reference = crate::solver::Generic::<S>::new();
        let mut digger = Digger::<S>::new();
        let mut kept_sets = 0;
        for index in 0..attempts {
            let mut rng = attempt_rng(8, index);
            let (solution, _) = fill(&mut solver, &mut rng);
            let mut tests = 0;
            let mut again = rng.clone();
            let puzzle = digger.dig_minimal(&mut solver, &solution, &mut rng, &mut tests);
            assert_eq!(reference.count_solutions(&puzzle, 2), 1);
            for cell in (0..S::CELLS).filter(|&cell| puzzle.get(cell) != 0) {
                let mut fewer = puzzle;
                fewer.set(cell, 0);
                assert_eq!(
                    reference.count_solutions(&fewer, 2),
                    2,
                    "clue {cell} can go"
                );
            }
            // It keeps no set of its own, only those it started with; keeping them would
            // spare it no search (each holds a clue that stayed).
            let found = digger.found;
            digger.forget(&solution, S::CELLS);
            assert_eq!(found, digger.found);
            let mut kept_tests = 0;
            let kept = digger.top_down(&mut Job {
                solver: &mut solver,
                solution: &solution,
                holes: S::CELLS,
                rng: &mut again.clone(),
                tests: &mut kept_tests,
                budget: u64::MAX,
                remembers: true,
                stop: &AtomicBool::new(false),
            });
            assert_eq!((kept.puzzle, kept_tests), (puzzle, tests));
            kept_sets += digger.found - found;
            if S::REMOVAL_BUDGET == u64::MAX {
                let exact = digger.dig(
                    &mut solver,
                    &solution,
                    puzzle.holes(),
                    &mut again,
                    &mut tests,
                );
                assert_eq!(exact, Some(puzzle));
            }
        }
        assert!(kept_sets > 0, "the searches revealed no set");
    }

    #[test]
    fn minimal_puzzles_keep_only_needed_clues() {
        minimal_digs::<Four>(20);
        minimal_digs::<Nine>(20);
        minimal_digs::<Sixteen>(2);
    }
}
