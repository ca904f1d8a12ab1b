//! The band engine for 9×9 and 16×16: candidates held digit by digit, band by band, in the
//! manner of JCZSolve.
//!
//! A *band* is a row of boxes: `BOX` rows of the grid. For each digit and each band one `u64`
//! holds the cells of the band where the digit may still go, bit `N·r + c` for row `r` of the
//! band and column `c` (27 bits on 9×9, all 64 on 16×16). Within a band a digit fills one cell
//! in each row and in each box, so the rows' choice of box is a permutation. Folding a band to
//! its row-by-box occupancy and looking the occupancy up in a table of what those permutations
//! allow ([`Banded::allowed_in`]) applies, in one step, hidden singles in the band's rows and boxes
//! and the band's pointing and claiming eliminations. A row left with one cell places the digit
//! there: its column is cleared in the other bands and the other digits are cleared from the
//! cell. (On 9×9 the same lookup names those rows: [`Banded::allowed_and_lone`].) A column rule finds digits that a column allows in one band only; naked singles (cells
//! with one digit left) come from two bit sums across the digits. The search branches on a cell
//! with the fewest candidates: on 9×9, in the box whose band and stack have the most open
//! cells; on 16×16, the one whose digits the most of its peers still allow. Cells of two
//! candidates come from three bit sums, other counts from bit planes, for a whole band at
//! once. A 16×16 removal test, which knows the grid it was dug from, branches first on such
//! a cell that has lost the grid's digit: a second solution must differ there.
//!
//! A band is recomputed only when it changed since it was last looked at (`dirty`), and the
//! column rule looks only at digits that changed since it last ran (`unruled`). Every
//! state is a few fixed arrays, copied onto a stack the engine keeps, so searches allocate
//! nothing once the engine has warmed up. A removal test begins from the start state of the
//! puzzle the last one was given, when only a few cells changed since (a dig's tests come a
//! few clues apart): each changed cell rebuilds one or two digits' entries, where building
//! the start state from the clues builds all of them. A top-down dig goes further: it has
//! the engine propagate, once, its puzzle less the next cells it will test, and each of
//! those tests places its few other clues on that state and propagates from there
//! ([`Engine::prepare_tests`]); a cell that propagation places needs no test at all
//! ([`Engine::base_places`]). [`Generic`](super::Generic) is the reference this engine is
//! tested against.

mod branch;
mod start;
mod state;
mod tables;

use super::search::{Rules, Trail};
use super::{Ascending, Branching, CELL_WORDS, CellWords, Engine, Outcome, differences};
use crate::error::Unsolvable;
use crate::grid::{Digit, Grid};
use start::Started;
use state::State;
pub use tables::Banded;

/// The band search engine (see the module docs). Keep one per thread.
#[derive(Debug)]
pub struct Bands<S: Banded> {
    trail: Trail<State<S>, State<S>>,
    /// The start state of the puzzle the last removal test was given, if it had one.
    started: Option<Started<S>>,
    /// The grid the last removal test was steered toward, or the last second solution was
    /// compared with ([`Engine::differences`]), kept while it stays the same.
    known: Option<Known<S>>,
    /// The puzzle of [`Engine::prepare_tests`] and its propagated state.
    base: Option<(Grid<S>, State<S>)>,
}

/// A known solution, as the cells of each (band, digit) entry it puts the digit in.
#[derive(Clone, Copy, Debug)]
struct Known<S: Banded> {
    grid: Grid<S>,
    cells: S::Bands,
}

impl<S: Banded> Known<S> {
    fn new(grid: Grid<S>) -> Self {
        let mut cells = S::bands(0);
        let width = State::<S>::WIDTH;
        for (cell, &digit) in grid.digits().iter().enumerate() {
            if digit != 0 {
                cells[S::N * (cell / width) + digit as usize - 1] |= 1 << (cell % width);
            }
        }
        Known { grid, cells }
    }
}

/// The band engine's rules: all in the state itself, but for the mode.
struct BandRules<'a, S: Banded> {
    mode: Mode,
    /// The known solution a removal test is steered toward ([`Known::cells`]), if any.
    known: Option<&'a S::Bands>,
}

/// What a band search is for, which decides how it propagates and branches.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Counting solutions: every rule, and branching on a cell with the fewest candidates,
    /// the busiest ([`State::busiest_of`]) where [`Banded::LONG_SEARCHES`] is set and
    /// otherwise one where the most cells are open ([`State::spread_of`]). Without the
    /// column rule a 16×16 dig at 150 holes runs at half the speed; branching where the
    /// most cells are open takes the forum-hardest puzzles from 141 branches each to 100
    /// (against the first cell with the fewest candidates).
    Count,
    /// Testing a removal from a dug puzzle: as `Count`, but branching first on a cell astray
    /// from the known solution when [`Banded::STEER_TESTS`] is set, and otherwise on the
    /// first cell with the fewest candidates when [`Banded::LONG_SEARCHES`] is not.
    Test,
    /// Filling an almost empty grid: no column rule, and branching on the first open cell,
    /// where the next open cell takes a digit too. Propagation there costs more than it
    /// prunes: 16×16 grids come about twice as fast without the column rule, take 30% fewer
    /// instructions with the cheaper branch cell, and 10% fewer with two cells a pass.
    Fill,
}

impl<S: Banded> Rules<S> for BandRules<'_, S> {
    type State = State<S>;
    type Saved = State<S>;

    fn propagate(&mut self, state: &mut State<S>) -> Result<(), Unsolvable> {
        state.propagate(self.mode != Mode::Fill)
    }

    fn is_solved(&self, state: &State<S>) -> bool {
        state.solved()
    }

    /// The solved state itself: reading its grid costs more than copying it.
    type Solved = State<S>;

    fn solved(&self, state: &State<S>) -> State<S> {
        *state
    }

    fn branch(
        &mut self,
        state: &mut State<S>,
        branching: &mut impl Branching,
        stack: &mut Vec<State<S>>,
    ) {
        let cell = match self.mode {
            Mode::Count if S::LONG_SEARCHES => state.busiest_of(state.fewest()),
            Mode::Count => state.spread_of(state.fewest()),
            Mode::Test => {
                let fewest = state.fewest();
                let astray = self
                    .known
                    .map_or([0; 4], |known| state.astray(known, fewest));
                if astray != [0; 4] {
                    state.busiest_of(astray)
                } else if S::LONG_SEARCHES {
                    state.busiest_of(fewest)
                } else {
                    State::<S>::first_of(fewest)
                }
            }
            Mode::Fill => state.first_open(),
        };
        let digits = state.digits_of(cell);
        let chosen = branching.choose(cell, digits);
        let d = chosen.trailing_zeros() as usize;
        let width = State::<S>::WIDTH;
        let i = S::N * (cell / width) + d;
        // The other digit, when the cell has two: each state then clears that one alone.
        let others = digits & !chosen;
        let other = others
            .is_power_of_two()
            .then(|| others.trailing_zeros() as usize);
        // Copied straight into the stack's buffer: one copy of the state, not two.
        stack.extend_from_slice(std::slice::from_ref(state));
        if let Some(rest) = stack.last_mut() {
            // A count comes back to almost every alternative (it stops only at its limit),
            // so the other digit of a two-candidate cell is placed in it at once; waiting
            // took a pass of propagation to find it as a naked single. A 9×9 removal test
            // often stops at its first solution and never comes back: there it waits (at
            // once, 55-hole and minimal digs took 0.5% and 0.8% more instructions, 1.5% and
            // 2.3% when placing cleared every digit). Long 16×16 removal tests come back as
            // counts do.
            let eager = self.mode == Mode::Count || self.mode == Mode::Test && S::LONG_SEARCHES;
            match other {
                Some(other) if eager => rest.place_pair(cell, other, d),
                _ => {
                    rest.cand[i] &= !(1 << (cell % width));
                    rest.dirty |= 1 << i;
                }
            }
        }
        match other {
            Some(other) => state.place_pair(cell, d, other),
            None => state.place(cell, d),
        }
        if self.mode == Mode::Fill && !state.solved() {
            // The next open cell takes a digit too, before propagation: a fill meets few
            // dead ends, so one pass of propagation for two cells mostly saves a pass. The
            // alternative saved above rules out only the first cell's digit, so a fill may
            // miss a solution, and then restarts; yet restarts became rarer (8 in 20,000
            // 16×16 grids, against 92).
            let next = state.first_open();
            let digits = state.digits_of(next);
            if digits != 0 {
                state.place(
                    next,
                    branching.choose(next, digits).trailing_zeros() as usize,
                );
            }
        }
    }

    fn resume(&mut self, saved: State<S>) -> State<S> {
        saved
    }
}

impl<S: Banded> Bands<S> {
    /// Keeps the grid `digits` (a removal test's known solution) as [`Known`] masks, rebuilt
    /// only when it changed: true when there is one.
    fn know(&mut self, digits: Option<&[Digit]>) -> bool {
        let Some(digits) = digits else {
            return false;
        };
        if !matches!(&self.known, Some(known) if known.grid.digits() == digits) {
            self.known = Grid::from_digits(digits).map(Known::new);
        }
        self.known.is_some()
    }

    /// Counts the solutions from `state`, up to `limit`, with every rule, trying digits in
    /// the order `branching` gives.
    fn count(
        &mut self,
        state: State<S>,
        limit: usize,
        mode: Mode,
        branching: &mut impl Branching,
    ) -> usize {
        let mut rules = BandRules { mode, known: None };
        match self
            .trail
            .run(&mut rules, state, limit, u64::MAX, branching)
        {
            Outcome::Solutions(n) => n,
            Outcome::OutOfBudget => unreachable!("the budget is unbounded"),
        }
    }
}

impl<S: Banded> Engine<S> for Bands<S> {
    fn new() -> Self {
        Bands {
            trail: Trail::new::<S>(),
            started: None,
            known: None,
            base: None,
        }
    }

    fn count_solutions(&mut self, puzzle: &Grid<S>, limit: usize) -> usize {
        match Self::start(puzzle) {
            Ok(state) => self.count(state, limit, Mode::Count, &mut Ascending),
            Err(Unsolvable) => 0,
        }
    }

    fn has_solution_without_within(
        &mut self,
        puzzle: &Grid<S>,
        cell: usize,
        digit: Digit,
        budget: u64,
        branching: &mut impl Branching,
    ) -> Option<bool> {
        let start = match self.start_from_base(puzzle, cell) {
            Some(start) => start,
            None => self.start_kept(puzzle),
        };
        let Ok(mut state) = start else {
            return Some(false);
        };
        let width = State::<S>::WIDTH;
        let i = S::N * (cell / width) + digit as usize - 1;
        state.cand[i] &= !(1 << (cell % width));
        state.dirty |= 1 << i;
        let steered = S::STEER_TESTS && self.know(branching.known());
        let mut rules = BandRules {
            mode: Mode::Test,
            known: self
                .known
                .as_ref()
                .filter(|_| steered)
                .map(|known| &known.cells),
        };
        self.trail
            .run(&mut rules, state, 1, budget, branching)
            .found_any()
    }

    /// [`Banded::PREPARED_CELLS`], and more for a puzzle with fewer holes than
    /// [`Banded::WIDER_BELOW`]: half the difference.
    fn prepared_cells(holes: usize) -> usize {
        S::PREPARED_CELLS.max(S::WIDER_BELOW.saturating_sub(holes) / 2)
    }

    fn prepare_tests(&mut self, base: &Grid<S>) {
        self.base = Self::start(base).ok().and_then(|mut state| {
            state.propagate(true).ok()?;
            Some((*base, state))
        });
    }

    fn base_places(&self, cell: usize) -> bool {
        let width = State::<S>::WIDTH;
        self.base.as_ref().is_some_and(|(base, state)| {
            base.get(cell) == 0 && state.open[cell / width] >> (cell % width) & 1 == 0
        })
    }

    fn complete(
        &mut self,
        puzzle: &Grid<S>,
        budget: u64,
        branching: &mut impl Branching,
    ) -> Outcome {
        let mut rules = BandRules {
            mode: Mode::Fill,
            known: None,
        };
        match Self::start(puzzle) {
            Ok(state) => self.trail.run(&mut rules, state, 1, budget, branching),
            Err(Unsolvable) => Outcome::Solutions(0),
        }
    }

    fn solution(&self) -> Grid<S> {
        self.trail
            .first
            .map_or_else(Grid::empty, |state| state.grid())
    }

    /// From the solved state's entries and the grid's, as masks: no grid is built.
    fn differences(&mut self, grid: &Grid<S>) -> CellWords {
        self.know(Some(grid.digits()));
        let (Some(solved), Some(known)) = (&self.trail.first, &self.known) else {
            return differences(&self.solution(), grid);
        };
        let width = State::<S>::WIDTH;
        let mut words = [0; CELL_WORDS];
        for b in 0..S::BOX {
            let differ = (0..S::N).fold(0, |differ, d| {
                differ | solved.cand[S::N * b + d] & !known.cells[S::N * b + d]
            });
            let (word, shift) = (width * b / 64, width * b % 64);
            words[word] |= differ << shift;
            if shift != 0 && shift + width > 64 {
                words[word + 1] |= differ >> (64 - shift);
            }
        }
        words
    }

    fn branches(&self) -> u64 {
        self.trail.branches
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{Nine, Sixteen};
    /// A complete grid: the first one the engine fills in ascending order.
    pub(super) fn a_grid<S: Banded>() -> Grid<S> {
        let mut engine = Bands::<S>::new();
        engine.complete(&Grid::empty(), u64::MAX, &mut Ascending);
        engine.solution()
    }

    /// `differences` from the masks against a cell-by-cell comparison, after removal tests
    /// that found a second solution on puzzles with random holes.
    fn differences_from_masks<S: Banded>() {
        use crate::solver::Toward;
        use rand::Rng;
        let mut rng = crate::rng::attempt_rng(11, S::N as u64);
        let mut engine = Bands::<S>::new();
        let solution = a_grid::<S>();
        let mut found = 0;
        for _ in 0..300 {
            let mut puzzle = solution;
            for _ in 0..rng.random_range(S::CELLS / 3..S::CELLS * 2 / 3) {
                puzzle.set(rng.random_range(0..S::CELLS), 0);
            }
            let cell = rng.random_range(0..S::CELLS);
            puzzle.set(cell, 0);
            let digit = solution.get(cell);
            let mut toward = Toward(&solution);
            if engine.has_solution_without_within(&puzzle, cell, digit, 1000, &mut toward)
                == Some(true)
            {
                let cells = engine.differences(&solution);
                assert_eq!(cells, differences(&engine.solution(), &solution));
                assert!(cells[cell / 64] >> (cell % 64) & 1 != 0);
                found += 1;
            }
        }
        assert!(found > 10, "{found} second solutions");
    }

    #[test]
    fn differences_come_from_the_masks() {
        differences_from_masks::<Nine>();
        differences_from_masks::<Sixteen>();
    }

    /// A cell the propagation of a prepared base places is one that no puzzle holding the
    /// base's clues can take another digit in, by the reference engine: its removal stands.
    /// Cells the base holds, or an engine with no base, never count as placed.
    fn base_places_settled_cells<S: Banded>() {
        use crate::solver::Generic;
        use rand::Rng;
        let mut rng = crate::rng::attempt_rng(13, S::N as u64);
        let mut engine = Bands::<S>::new();
        let mut reference = Generic::<S>::new();
        let solution = a_grid::<S>();
        assert!((0..S::CELLS).all(|cell| !engine.base_places(cell)));
        let (mut placed, mut open) = (0, 0);
        for _ in 0..40 {
            let mut base = solution;
            for _ in 0..rng.random_range(S::CELLS / 2..S::CELLS) {
                base.set(rng.random_range(0..S::CELLS), 0);
            }
            engine.prepare_tests(&base);
            for cell in 0..S::CELLS {
                if base.get(cell) != 0 {
                    assert!(!engine.base_places(cell));
                } else if engine.base_places(cell) {
                    // A puzzle between the base and the grid, less the cell.
                    let mut puzzle = base;
                    for other in 0..S::CELLS {
                        if other != cell && rng.random_bool(0.5) {
                            puzzle.set(other, solution.get(other));
                        }
                    }
                    let digit = solution.get(cell);
                    let mut ascending = Ascending;
                    assert!(!reference.has_solution_without(&puzzle, cell, digit, &mut ascending));
                    placed += 1;
                } else {
                    open += 1;
                }
            }
        }
        assert!(placed > 100 && open > 100, "{placed} placed, {open} open");
    }

    #[test]
    fn cells_a_base_places_keep_their_digit() {
        base_places_settled_cells::<Nine>();
        base_places_settled_cells::<Sixteen>();
    }
}
