//! Start states: a puzzle's clues placed in a band state, built clue by clue from each
//! clue's peers; kept and moved cell by cell from one removal test to the next (a digit's
//! entries rebuilt from the cells sorted by digit); or, for the tests a dig prepared, the
//! propagated state of a puzzle with fewer clues and the clues it lacks placed on it.

use super::state::State;
use super::{Banded, Bands};
use crate::error::Unsolvable;
use crate::grid::{Digit, Grid};
use crate::shape::Shape;
use crate::solver::low_bits;

/// A puzzle's start state ([`Bands::start`]) with what it was built from, kept so that the
/// next removal test can begin from it: a dig's tests come a few clues apart, and changing
/// a clue rebuilds one digit's entries where a start builds them all.
#[derive(Clone, Copy, Debug)]
pub(super) struct Started<S: Banded> {
    puzzle: Grid<S>,
    holding: Holding,
    state: State<S>,
}

/// Per band, the cells holding each digit (index 0: the empty cells).
type Holding = [[u64; 17]; 4];

impl<S: Banded> Started<S> {
    /// The start state of `puzzle`; fails as [`Bands::start`] does.
    fn new(puzzle: &Grid<S>) -> Result<Self, Unsolvable> {
        Ok(Started {
            puzzle: *puzzle,
            holding: Bands::holding(puzzle),
            state: Bands::start(puzzle)?,
        })
    }

    /// Moves to `puzzle`, one changed cell at a time, unless more than `most` cells changed:
    /// false then, and nothing moved. Fails (leaving `self` torn) when a new clue clashes.
    fn move_to(&mut self, puzzle: &Grid<S>, most: usize) -> Result<bool, Unsolvable> {
        let mut changed = [0usize; 32];
        let mut len = 0;
        let few = differing_cells(&self.puzzle, puzzle, |cell| {
            changed[len] = cell;
            len += 1;
            len <= most
        });
        if !few {
            return Ok(false);
        }
        for &cell in &changed[..len] {
            self.set(cell, puzzle.get(cell))?;
        }
        Ok(true)
    }

    /// Gives `cell` the clue `digit` (0: empties it), keeping the state what
    /// [`Bands::start`] gives for the new puzzle: the entries of the digit it had and the
    /// digit it gets are rebuilt; the other digits lose the cell when it fills, and take it
    /// when it empties, where no clue of theirs sees it.
    fn set(&mut self, cell: usize, digit: Digit) -> Result<(), Unsolvable> {
        let width = State::<S>::WIDTH;
        let (b, bit) = (cell / width, 1u64 << (cell % width));
        let before = self.puzzle.get(cell);
        self.puzzle.set(cell, digit);
        self.holding[b][before as usize] &= !bit;
        self.holding[b][digit as usize] |= bit;
        let others = if digit == 0 {
            self.state.open[b] |= bit;
            let seen = S::peers(cell)
                .iter()
                .fold(0u32, |seen, &c| seen | 1 << self.puzzle.get(c as usize));
            // Bit `d + 1` of `seen` for digit `d + 1`.
            !(seen >> 1)
        } else {
            self.state.open[b] &= !bit;
            0
        };
        for d in 0..S::N {
            let i = S::N * b + d;
            if others >> d & 1 != 0 {
                self.state.cand[i] |= bit;
            } else {
                self.state.cand[i] &= !bit;
            }
        }
        for d in [before, digit] {
            if d != 0 {
                Bands::build_digit(&mut self.state, &self.holding, d as usize - 1)?;
            }
        }
        Ok(())
    }
}

/// The filled cells of a band's `digits` (64 at most), as bits: compared all at once.
#[inline(always)]
fn filled_cells(digits: &[Digit]) -> u64 {
    digits.iter().enumerate().fold(0, |filled, (at, &digit)| {
        filled | u64::from(digit != 0) << at
    })
}

/// Calls `visit` with each cell where `one` and `other` differ, in order, while it returns
/// true; returns whether it always did.
fn differing_cells<S: Shape>(
    one: &Grid<S>,
    other: &Grid<S>,
    mut visit: impl FnMut(usize) -> bool,
) -> bool {
    // Eight cells at a time, as words: a byte of their difference is a changed cell.
    let (old, new) = (one.digits(), other.digits());
    let word = |eight: &[Digit]| u64::from_le_bytes(eight.try_into().expect("eight cells"));
    for (k, (a, b)) in old.chunks_exact(8).zip(new.chunks_exact(8)).enumerate() {
        let mut differ = word(a) ^ word(b);
        while differ != 0 {
            let byte = differ.trailing_zeros() as usize / 8;
            differ &= !(0xff << (8 * byte));
            if !visit(8 * k + byte) {
                return false;
            }
        }
    }
    (S::CELLS / 8 * 8..S::CELLS).all(|cell| old[cell] == new[cell] || visit(cell))
}

impl<S: Banded> Bands<S> {
    /// The state with every clue of `puzzle` placed, not yet propagated; fails when two
    /// clues of one digit share a unit. Each clue clears its digit from its peers, band by
    /// band ([`Banded::band_peers`]), giving what placing the clues one by one would. A
    /// 17-clue puzzle takes 17 such steps, where sorting every cell by digit and building
    /// each digit's entries band by band took 17-clue counts 2–3% more time.
    pub(super) fn start(puzzle: &Grid<S>) -> Result<State<S>, Unsolvable> {
        let width = State::<S>::WIDTH;
        let mut state = State::<S>::empty();
        let (mut seen, mut clues, mut clash) = (S::bands(0), S::bands(0), 0);
        for (b, digits) in puzzle.digits().chunks_exact(width).enumerate() {
            let filled = filled_cells(digits);
            state.open[b] = low_bits(width) & !filled;
            let mut rest = filled;
            while rest != 0 {
                let at = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                // A grid holds digits 1..=N: the bound changes no digit, and lets the
                // compiler drop the index checks below (17-clue counts took 2% fewer
                // instructions).
                debug_assert!(digits[at] as usize <= S::N);
                let d = (digits[at] as usize - 1).min(S::N - 1);
                let peers = S::band_peers(width * b + at);
                for (o, &peers) in peers.iter().enumerate().take(S::BOX) {
                    let i = S::N * o + d;
                    clash |= clues[i] & peers;
                    seen[i] |= peers;
                }
                clues[S::N * b + d] |= 1 << at;
            }
        }
        if clash != 0 {
            return Err(Unsolvable);
        }
        for b in 0..S::BOX {
            let filled = low_bits(width) & !state.open[b];
            for d in 0..S::N {
                let i = S::N * b + d;
                state.cand[i] = low_bits(width) & !(filled | seen[i]) | clues[i];
            }
        }
        Ok(state)
    }

    /// The cells of `puzzle` by band and digit.
    fn holding(puzzle: &Grid<S>) -> Holding {
        let mut holding = [[0u64; 17]; 4];
        let width = State::<S>::WIDTH;
        for (band, digits) in holding.iter_mut().zip(puzzle.digits().chunks_exact(width)) {
            let filled = filled_cells(digits);
            band[0] = low_bits(width) & !filled;
            let mut rest = filled;
            while rest != 0 {
                let at = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                band[digits[at] as usize] |= 1 << at;
            }
        }
        holding
    }

    /// Builds the entries of digit `d + 1` from its clues and the filled cells: the cells
    /// left once its clues' rows, boxes and columns and the other clues are cleared, and its
    /// clues. Fails when two of its clues share a unit.
    #[inline(always)]
    fn build_digit(state: &mut State<S>, holding: &Holding, d: usize) -> Result<(), Unsolvable> {
        let width = State::<S>::WIDTH;
        // The digit's clue columns, and a clash if two share one.
        let (mut cols, mut clues) = (0, 0);
        for band in &holding[..S::BOX] {
            cols |= State::<S>::fold(band[d + 1]);
            clues += band[d + 1].count_ones();
        }
        if cols.count_ones() != clues {
            return Err(Unsolvable);
        }
        let in_cols = State::<S>::columns(cols);
        for (b, band) in holding.iter().enumerate().take(S::BOX) {
            let mine = band[d + 1];
            let filled = low_bits(width) & !band[0];
            if mine == 0 {
                // No clue of the digit in the band: its columns and the filled cells only.
                state.cand[S::N * b + d] = low_bits(width) & !(filled | in_cols);
                continue;
            }
            let occupancy = S::occupancy(mine);
            let (mut rows, mut boxes, mut row_cells) = (0usize, 0usize, 0u64);
            for r in 0..S::BOX {
                let in_row = occupancy >> (S::BOX * r) & low_bits(S::BOX) as usize;
                boxes |= in_row;
                rows += (in_row != 0) as usize;
                row_cells |= ((in_row != 0) as u64 * State::<S>::ROW) << (S::N * r);
            }
            // Two clues in a row or in a box.
            if mine.count_ones() as usize != rows || rows != boxes.count_ones() as usize {
                return Err(Unsolvable);
            }
            let box_cells = State::<S>::columns(S::box_columns(boxes));
            state.cand[S::N * b + d] =
                low_bits(width) & !(filled | row_cells | box_cells | in_cols) | mine;
        }
        Ok(())
    }

    /// [`Bands::start`] for `puzzle`, from the kept start state when few cells changed since
    /// (half a unit's worth at most: each change rebuilds one or two digits of `N`), which
    /// then moves to `puzzle`.
    pub(super) fn start_kept(&mut self, puzzle: &Grid<S>) -> Result<State<S>, Unsolvable> {
        if let Some(started) = &mut self.started {
            match started.move_to(puzzle, S::N / 2) {
                Ok(true) => return Ok(started.state),
                Ok(false) => {}
                Err(Unsolvable) => {
                    self.started = None;
                    return Err(Unsolvable);
                }
            }
        }
        let started = Started::new(puzzle);
        self.started = started.ok();
        started.map(|started| started.state)
    }

    /// The state a removal test of `cell` from `puzzle` begins with, from the prepared
    /// base's propagated state and the clues `puzzle` adds to it; `None` when there is no
    /// base or `puzzle` lacks one of its clues.
    pub(super) fn start_from_base(
        &self,
        puzzle: &Grid<S>,
        cell: usize,
    ) -> Option<Result<State<S>, Unsolvable>> {
        let (base, state) = self.base.as_ref()?;
        if base.get(cell) != 0 {
            return None;
        }
        let mut state = *state;
        // A clue that clashes with the base's state leaves no solution, but only if the
        // puzzle holds the base: the cells after it are still checked.
        let mut clash = false;
        let fits = differing_cells(base, puzzle, |c| {
            let (was, digit) = (base.get(c), puzzle.get(c));
            if was != 0 {
                return false;
            }
            clash = clash || !state.place_clue(c, digit as usize - 1);
            true
        });
        fits.then_some(if clash { Err(Unsolvable) } else { Ok(state) })
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::a_grid;
    use super::*;
    use crate::shape::{Nine, Sixteen};
    use crate::solver::Engine;

    /// Two clues of one digit in a row, a column (in two bands, or in one) or a box: the
    /// start state is refused, and there is no solution; one of them alone leaves many.
    fn refuses_clashes<S: Banded>() {
        let n = S::N;
        let cell = |row: usize, col: usize| row * n + col;
        let pairs = [
            (cell(0, 0), cell(0, n - 1)),               // a row, two boxes
            (cell(0, 0), cell(0, 1)),                   // a row and a box
            (cell(1, 2), cell(n - 1, 2)),               // a column, two bands
            (cell(0, 1), cell(1, 1)),                   // a column and a box, one band
            (cell(0, 0), cell(S::BOX - 1, S::BOX - 1)), // a box, two rows and columns
        ];
        let mut engine = Bands::<S>::new();
        for (one, two) in pairs {
            let mut puzzle = Grid::<S>::empty();
            puzzle.set(one, 5);
            assert!(Bands::start(&puzzle).is_ok());
            assert_eq!(engine.count_solutions(&puzzle, 2), 2);
            puzzle.set(two, 5);
            assert!(Bands::start(&puzzle).is_err(), "5 at {one} and {two}");
            assert_eq!(engine.count_solutions(&puzzle, 2), 0);
        }
    }

    /// The start states two ways are the same, entry for entry.
    fn same<S: Banded>(a: &State<S>, b: &State<S>) -> bool {
        let entries = S::N * S::BOX;
        (0..entries).all(|i| a.cand[i] == b.cand[i])
            && a.open[..S::BOX] == b.open[..S::BOX]
            && (a.dirty, a.unruled) == (b.dirty, b.unruled)
    }

    /// A kept start state moved by a few cells at a time — clues emptied, put back, and
    /// some that clash — is the start state built afresh, and fails exactly when that does.
    fn kept_starts_are_fresh_ones<S: Banded>() {
        use rand::Rng;
        let mut rng = crate::rng::attempt_rng(3, S::N as u64);
        let solution = a_grid::<S>();
        let mut puzzle = solution;
        let mut started = Started::new(&puzzle).unwrap();
        let (mut moved, mut clashed) = (0, 0);
        for _ in 0..3000 {
            for _ in 0..rng.random_range(1..=3) {
                let cell = rng.random_range(0..S::CELLS);
                let digit = match rng.random_range(0..10) {
                    0 => rng.random_range(1..=S::N as Digit),
                    1..5 => solution.get(cell),
                    _ => 0,
                };
                puzzle.set(cell, digit);
            }
            let fresh = Started::new(&puzzle);
            match started.move_to(&puzzle, 3) {
                Ok(true) => {
                    let fresh = fresh.expect("a kept start for a clashing puzzle");
                    assert!(same(&started.state, &fresh.state));
                    assert_eq!(started.holding, fresh.holding);
                    moved += 1;
                }
                Ok(false) => unreachable!("three cells at most changed"),
                Err(Unsolvable) => {
                    assert!(fresh.is_err(), "a refused start for a puzzle without clash");
                    clashed += 1;
                    // Back to the solution's clues, from scratch, as the engine does.
                    puzzle = solution;
                    started = Started::new(&puzzle).unwrap();
                }
            }
        }
        assert!(
            moved > 1000 && clashed > 10,
            "{moved} moved, {clashed} clashed"
        );
        // More changes than allowed: nothing moves.
        let before = started;
        assert_eq!(started.move_to(&Grid::empty(), 3), Ok(false));
        assert_eq!(started.puzzle, before.puzzle);
    }

    /// Removal tests begun from a prepared base (a puzzle lacking a few more clues) reach
    /// the propagated state a fresh start reaches, and so take the same branches to the
    /// same answer and second solution; a base the puzzle does not hold is not used.
    fn prepared_tests_are_fresh_ones<S: Banded>() {
        use crate::solver::Toward;
        use rand::Rng;
        let mut rng = crate::rng::attempt_rng(5, S::N as u64);
        let (mut prepared, mut fresh) = (Bands::<S>::new(), Bands::<S>::new());
        let solution = a_grid::<S>();
        let (mut used, mut found) = (0, 0);
        for _ in 0..300 {
            let mut puzzle = solution;
            for _ in 0..rng.random_range(S::CELLS / 3..S::CELLS * 2 / 3) {
                puzzle.set(rng.random_range(0..S::CELLS), 0);
            }
            let cell = rng.random_range(0..S::CELLS);
            let digit = solution.get(cell);
            puzzle.set(cell, 0);
            let mut base = puzzle;
            for _ in 0..rng.random_range(0..10) {
                base.set(rng.random_range(0..S::CELLS), 0);
            }
            // Now and then a base with a clue the puzzle lacks, which must go unused: one
            // more clue, or the clues of another grid (the digits relabelled) in the lower
            // half only, with which the puzzle's clues in the upper half most likely clash
            // before the first one the puzzle lacks.
            let foreign = rng.random_range(0..10);
            if foreign == 0 {
                let hole = (0..S::CELLS)
                    .filter(|&c| puzzle.get(c) == 0)
                    .nth(rng.random_range(0..puzzle.holes()))
                    .expect("a hole");
                base.set(hole, solution.get(hole));
            } else if foreign == 1 {
                for c in 0..S::CELLS {
                    let relabelled = match base.get(c) {
                        0 => 0,
                        d => d % S::N as Digit + 1,
                    };
                    base.set(c, if c < S::CELLS / 2 { 0 } else { relabelled });
                }
            }
            let foreign = foreign < 2;
            prepared.prepare_tests(&base);
            let Some(start) = prepared.start_from_base(&puzzle, cell) else {
                assert!(foreign || prepared.base.is_none());
                continue;
            };
            assert!(!foreign);
            used += 1;
            match (start, Bands::start(&puzzle)) {
                (Ok(mut from_base), Ok(mut from_clues)) => {
                    let (a, b) = (from_base.propagate(true), from_clues.propagate(true));
                    assert_eq!(a.is_ok(), b.is_ok());
                    if a.is_ok() {
                        assert!(
                            (0..S::N * S::BOX).all(|i| from_base.cand[i] == from_clues.cand[i])
                                && from_base.open[..S::BOX] == from_clues.open[..S::BOX]
                        );
                    }
                }
                (start, fresh_start) => assert!(start.is_err() && fresh_start.is_err()),
            }
            // The answer and the branches it took.
            let test = |engine: &mut Bands<S>| {
                let before = engine.branches();
                let answer = engine.has_solution_without_within(
                    &puzzle,
                    cell,
                    digit,
                    1000,
                    &mut Toward(&solution),
                );
                (answer, engine.branches() - before)
            };
            let (answer, branches) = test(&mut prepared);
            assert_eq!((answer, branches), test(&mut fresh));
            if answer == Some(true) {
                assert_eq!(prepared.solution(), fresh.solution());
                found += 1;
            }
        }
        assert!(
            used > 100 && found > 10,
            "{used} tests from a base, {found} found another"
        );
    }

    #[test]
    fn prepared_tests_begin_where_fresh_ones_end_up() {
        prepared_tests_are_fresh_ones::<Nine>();
        prepared_tests_are_fresh_ones::<Sixteen>();
    }

    #[test]
    fn kept_start_states_are_fresh_ones() {
        kept_starts_are_fresh_ones::<Nine>();
        kept_starts_are_fresh_ones::<Sixteen>();
    }

    #[test]
    fn clashing_clues_have_no_solution() {
        refuses_clashes::<Nine>();
        refuses_clashes::<Sixteen>();
    }
}
