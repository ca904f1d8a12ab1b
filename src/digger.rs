//! Digging: removing clues from a complete grid while the puzzle keeps exactly one solution.
//!
//! Cells are visited in an order drawn from the attempt's stream. A removal stands when no
//! solution puts another digit in the emptied cell — one search with the old digit excluded
//! (see [`Engine::has_solution_without`]). Three cheaper checks settle most removals first,
//! each giving exactly the answer the search would, so they change the speed of a dig and
//! never its result:
//!
//! - *naked*: the cell's clue peers hold every other digit, so the removal stands;
//! - *hidden*: in one of the cell's units, every other empty cell sees the removed digit
//!   among its clue peers, so the digit can only go back in this cell: the removal stands;
//! - *unavoidable sets*: when a search finds a second solution, the cells where it differs
//!   from the grid form an unavoidable set — a puzzle with no clue in it has both solutions.
//!   The dig remembers the last [`REMEMBERED_SETS`] of them, and a removal that would leave
//!   one without a clue fails without a search.

use rand::RngCore;

use crate::grid::Grid;
use crate::rng::shuffle;
use crate::shape::Shape;
use crate::solver::{Engine, bit};

/// Unavoidable sets a dig remembers; a new one replaces the oldest.
pub const REMEMBERED_SETS: usize = 32;

/// 64-bit words in a [`CellSet`]: room for the 625 cells of 25×25.
const WORDS: usize = 10;

/// A set of cells, one bit each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct CellSet([u64; WORDS]);

impl CellSet {
    #[inline(always)]
    fn insert(&mut self, cell: usize) {
        self.0[cell / 64] |= 1 << (cell % 64);
    }

    #[inline(always)]
    fn remove(&mut self, cell: usize) {
        self.0[cell / 64] &= !(1 << (cell % 64));
    }

    #[inline(always)]
    fn contains(&self, cell: usize) -> bool {
        self.0[cell / 64] >> (cell % 64) & 1 != 0
    }

    /// True when `self ∩ other` is exactly `{cell}` (`cell` in both).
    #[inline(always)]
    fn meets_only_at(&self, other: &CellSet, cell: usize, words: usize) -> bool {
        let mut only = CellSet::default();
        only.insert(cell);
        (0..words).all(|w| self.0[w] & other.0[w] == only.0[w])
    }
}

/// Digs puzzles; keep one per worker thread and reuse it.
#[derive(Debug)]
pub struct Digger<S: Shape> {
    /// Unavoidable sets found by the current dig, a ring of the last [`REMEMBERED_SETS`].
    sets: [CellSet; REMEMBERED_SETS],
    /// Sets found so far in this dig (the ring holds the last of them).
    found: usize,
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
            shape: std::marker::PhantomData,
        }
    }

    /// One digging pass over `solution` towards exactly `holes` empty cells. Returns the
    /// puzzle if it got there; `tests` counts the uniqueness searches run.
    pub fn dig<R: RngCore>(
        &mut self,
        solver: &mut impl Engine<S>,
        solution: &Grid<S>,
        holes: usize,
        rng: &mut R,
        tests: &mut u64,
    ) -> Option<Grid<S>> {
        let mut order: S::Cells<u16> = S::cells(0);
        for (cell, slot) in order.as_mut().iter_mut().enumerate() {
            *slot = cell as u16;
        }
        shuffle(rng, order.as_mut());

        self.found = 0;
        let mut puzzle = *solution;
        let mut clues = CellSet::default();
        for cell in 0..S::CELLS {
            clues.insert(cell);
        }
        // Digits placed in each unit: every unit is full to begin with.
        let mut used: S::Units<u32> = S::units(S::ALL);
        let mut removed = 0;
        for (visited, &cell) in order.as_ref().iter().enumerate() {
            if removed == holes {
                break;
            }
            if removed + (S::CELLS - visited) < holes {
                return None;
            }
            let cell = cell as usize;
            let digit = puzzle.get(cell);
            let b = bit(digit);
            let units = S::units_of(cell);
            for unit in units {
                used[unit] &= !b;
            }
            let stands = if self.forced(&puzzle, &used, cell, b) {
                true
            } else if self.unavoidable(&clues, cell) {
                false
            } else {
                *tests += 1;
                puzzle.set(cell, 0);
                let other = solver.has_solution_without(&puzzle, cell, digit);
                if other {
                    self.remember(solver.solution(), solution);
                }
                !other
            };
            if stands {
                puzzle.set(cell, 0);
                clues.remove(cell);
                removed += 1;
            } else {
                puzzle.set(cell, digit);
                for unit in units {
                    used[unit] |= b;
                }
            }
        }
        (removed == holes).then_some(puzzle)
    }

    /// The naked and hidden checks: true when the clue digit `b` of `cell` (already taken
    /// out of `used`) is the only digit the cell can take, or the only cell of one of its
    /// units that can take it.
    fn forced(&self, puzzle: &Grid<S>, used: &S::Units<u32>, cell: usize, b: u32) -> bool {
        let sees = |c: usize| {
            let [row, col, boxed] = S::units_of(c);
            used[row] | used[col] | used[boxed]
        };
        if sees(cell) | b == S::ALL {
            return true;
        }
        S::units_of(cell).into_iter().any(|unit| {
            S::unit(unit).iter().all(|&other| {
                let other = other as usize;
                other == cell || puzzle.get(other) != 0 || sees(other) & b != 0
            })
        })
    }

    /// True when a remembered unavoidable set has `cell` as its only clue.
    fn unavoidable(&self, clues: &CellSet, cell: usize) -> bool {
        self.sets[..self.found.min(REMEMBERED_SETS)]
            .iter()
            .any(|set| set.contains(cell) && set.meets_only_at(clues, cell, Self::WORDS))
    }

    /// Remembers the cells where `other` differs from `solution`.
    fn remember(&mut self, other: &Grid<S>, solution: &Grid<S>) {
        let mut set = CellSet::default();
        for (cell, (a, b)) in other.digits().iter().zip(solution.digits()).enumerate() {
            if a != b {
                set.insert(cell);
            }
        }
        self.sets[self.found % REMEMBERED_SETS] = set;
        self.found += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generator::fill;
    use crate::rng::attempt_rng;
    use crate::shape::{Four, Nine, Sixteen};
    use crate::solver::Solver;

    fn digs<S: Shape>(holes: usize, attempts: u64) {
        let mut solver = Solver::<S>::new();
        let mut digger = Digger::<S>::new();
        let mut reached = 0;
        for index in 0..attempts {
            let mut rng = attempt_rng(9, index);
            let (solution, _) = fill(&mut solver, &mut rng);
            let mut tests = 0;
            if let Some(puzzle) = digger.dig(&mut solver, &solution, holes, &mut rng, &mut tests) {
                reached += 1;
                assert_eq!(puzzle.holes(), holes);
                assert!(puzzle.agrees_with(&solution));
                assert_eq!(solver.count_solutions(&puzzle, 2), 1);
                assert_eq!(solver.solution(), &solution);
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
            if solver.has_solution_without(&puzzle, cell, digit) {
                puzzle.set(cell, digit);
            } else {
                removed += 1;
            }
        }
        (removed == holes).then_some(puzzle)
    }

    /// The shortcuts give the answers the searches would: the same dig, fewer searches.
    fn shortcuts_change_nothing<S: Shape>(holes: usize, attempts: u64) {
        let mut solver = Solver::<S>::new();
        let mut digger = Digger::<S>::new();
        let (mut tests, mut searches, mut reached) = (0, 0, 0);
        for index in 0..attempts {
            let mut rng = attempt_rng(4, index);
            let (solution, _) = fill(&mut solver, &mut rng);
            let (mut a, mut b) = (rng.clone(), rng);
            let dug = digger.dig(&mut solver, &solution, holes, &mut a, &mut tests);
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

    #[test]
    fn dug_puzzles_are_unique() {
        digs::<Four>(10, 30);
        digs::<Nine>(50, 30);
        digs::<Nine>(55, 30);
        digs::<Sixteen>(120, 3);
    }
}
