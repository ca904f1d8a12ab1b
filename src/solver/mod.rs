//! Counting solutions, testing removals and completing grids: the search engines.
//!
//! Every size has one engine, [`Shape::Solver`], reached through the alias [`Solver`]:
//! [`Bands`], a bit-board engine for the sizes whose bands fit a machine word (9×9 and
//! 16×16), [`Generic`] for 4×4, and for 25×25 [`Locked`], which is [`Generic`] with locked
//! candidates. [`Generic`] serves every size and is the reference the tests hold the others
//! to. All keep their search state in fixed arrays and their backtrack stack in a buffer they
//! reuse, so a search allocates nothing once the engine has warmed up.

mod bands;
mod bits;
mod generic;
mod search;

pub use bands::{Banded, Bands};
pub use bits::{at_most_one, bit, digit, low_bits, lowest};
pub use generic::{Generic, Locked};

use rand::RngCore;

use crate::grid::{Digit, Grid};
use crate::rng::pick_bit;
use crate::shape::Shape;

/// The engine of size `S`.
pub type Solver<S> = <S as Shape>::Solver;

/// What every search engine does. Keep one engine per thread and reuse it.
pub trait Engine<S: Shape>: Send + std::fmt::Debug {
    /// A new engine.
    fn new() -> Self;

    /// Counts the solutions of `puzzle`, stopping at `limit` (a limit of 0 stops at the
    /// first, as 1 does). A puzzle whose clues clash has 0. After a count of at least 1,
    /// [`Engine::solution`] holds the first one found.
    fn count_solutions(&mut self, puzzle: &Grid<S>, limit: usize) -> usize;

    /// True when `puzzle` has a solution whose `cell` is not `digit` (`cell` empty in
    /// `puzzle`). This is the whole uniqueness test of a removal: if the puzzle with `digit`
    /// at `cell` is unique, the puzzle without it is unique exactly when no solution puts
    /// another digit there. `branching` orders the digits tried at each branch: it changes
    /// which other solution is found first (in [`Engine::solution`]) and how soon, never the
    /// answer.
    fn has_solution_without(
        &mut self,
        puzzle: &Grid<S>,
        cell: usize,
        digit: Digit,
        branching: &mut impl Branching,
    ) -> bool {
        self.has_solution_without_within(puzzle, cell, digit, u64::MAX, branching)
            .expect("an unbounded search settles")
    }

    /// [`Engine::has_solution_without`] taking at most `budget` branches: `None` when the
    /// budget ran out before the search settled the question.
    fn has_solution_without_within(
        &mut self,
        puzzle: &Grid<S>,
        cell: usize,
        digit: Digit,
        budget: u64,
        branching: &mut impl Branching,
    ) -> Option<bool>;

    /// How many of the cells a dig will test next its base for [`Engine::prepare_tests`]
    /// should leave out, when the dig has emptied `holes` cells so far; 0 when the engine
    /// does not use a base.
    fn prepared_cells(holes: usize) -> usize {
        let _ = holes;
        0
    }

    /// Lets the removal tests that follow begin from what propagation makes of `base`, a
    /// puzzle every clue of which their puzzles hold, rather than from their own clues:
    /// the work of propagating `base` is then shared by all of them. A test whose puzzle
    /// lacks one of `base`'s clues begins from its clues as before. Changes no answer, and
    /// no search: propagation reaches the same state either way.
    fn prepare_tests(&mut self, base: &Grid<S>) {
        let _ = base;
    }

    /// True when propagating the base of the last [`Engine::prepare_tests`] placed `cell`,
    /// a cell the base lacks. Every puzzle that holds the base's clues then has that digit
    /// in `cell` in each of its solutions, so emptying `cell` in such a puzzle, unique
    /// before, leaves it unique: its removal stands without a search. False when there is
    /// no base (as for engines without one).
    fn base_places(&self, cell: usize) -> bool {
        let _ = cell;
        false
    }

    /// Completes `puzzle` with digits chosen by `branching`, giving up after `budget`
    /// branches. The first solution found is then in [`Engine::solution`]. Made for fills,
    /// it may trade completeness for speed (the band engine does): `Solutions(0)` says only
    /// that this search found none.
    fn complete(
        &mut self,
        puzzle: &Grid<S>,
        budget: u64,
        branching: &mut impl Branching,
    ) -> Outcome;

    /// The first solution found by the last search that found one (an empty grid before
    /// any search found one).
    fn solution(&self) -> Grid<S>;

    /// The cells where [`Engine::solution`] differs from `grid`, bit `cell % 64` of word
    /// `cell / 64`: the unavoidable set that a second solution of a dug puzzle reveals.
    fn differences(&mut self, grid: &Grid<S>) -> CellWords {
        differences(&self.solution(), grid)
    }

    /// Branches taken by this engine so far (a measure of search effort: guesses).
    fn branches(&self) -> u64;
}

/// Words of a set of cells, one bit each: room for the 625 cells of 25×25.
pub const CELL_WORDS: usize = 10;

/// A set of cells, bit `cell % 64` of word `cell / 64`.
pub type CellWords = [u64; CELL_WORDS];

/// The cells where two grids differ.
pub fn differences<S: Shape>(one: &Grid<S>, other: &Grid<S>) -> CellWords {
    let mut words = [0; CELL_WORDS];
    for (cell, (a, b)) in one.digits().iter().zip(other.digits()).enumerate() {
        words[cell / 64] |= u64::from(a != b) << (cell % 64);
    }
    words
}

/// How a search picks the digit to try first at a branch.
pub trait Branching {
    /// One set bit of `candidates`, the candidates of `cell`: two or more at a branch cell,
    /// perhaps one at the next open cell a band engine's fill also places.
    fn choose(&mut self, cell: usize, candidates: u32) -> u32;

    /// The solution this order steers toward, if any, as a grid of `N`×`N` digits.
    fn known(&self) -> Option<&[Digit]> {
        None
    }
}

/// Tries digits in increasing order: the deterministic choice for counting.
#[derive(Debug, Default, Clone, Copy)]
pub struct Ascending;

impl Branching for Ascending {
    #[inline(always)]
    fn choose(&mut self, _cell: usize, candidates: u32) -> u32 {
        lowest(candidates)
    }
}

/// Tries the digit a known solution has in the cell first, then the others in increasing
/// order: a search for a second solution then stays close to the known one, which suits a
/// dug puzzle, whose second solutions usually differ from its grid in a few cells. (On an
/// almost empty grid with very many solutions, that order can search long before it leaves
/// the known solution's neighbourhood.)
#[derive(Debug, Clone, Copy)]
pub struct Toward<'a, S: Shape>(pub &'a Grid<S>);

impl<S: Shape> Branching for Toward<'_, S> {
    #[inline(always)]
    fn choose(&mut self, cell: usize, candidates: u32) -> u32 {
        let own = bit(self.0.get(cell));
        if candidates & own != 0 {
            own
        } else {
            lowest(candidates)
        }
    }

    fn known(&self) -> Option<&[Digit]> {
        Some(self.0.digits())
    }
}

/// Tries digits in random order, drawn from an attempt's stream: how grids are filled.
#[derive(Debug)]
pub struct Random<'a, R: RngCore>(pub &'a mut R);

impl<R: RngCore> Branching for Random<'_, R> {
    #[inline(always)]
    fn choose(&mut self, _cell: usize, candidates: u32) -> u32 {
        pick_bit(self.0, candidates)
    }
}

/// What a bounded search found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The search finished (or reached its solution limit) and found this many solutions.
    Solutions(usize),
    /// The branch budget ran out first.
    OutOfBudget,
}

impl Outcome {
    /// Whether the search found a solution; `None` when the budget ran out first.
    pub fn found_any(self) -> Option<bool> {
        match self {
            Outcome::Solutions(n) => Some(n > 0),
            Outcome::OutOfBudget => None,
        }
    }
}
