//! The engine for every size: constraint propagation over candidate masks with depth-first search.
//!
//! Placing a digit removes it from the cell's peers; a peer left with one candidate is queued
//! and placed in turn (naked singles). When the queue runs dry, each unit is swept for digits
//! that fit in exactly one of its cells (hidden singles) and for digits that fit nowhere
//! (a contradiction). [`Locked`], the same engine with one more rule, then removes *locked
//! candidates*: a digit whose places in a box lie on one line leaves the rest of that line
//! (pointing), and one whose places in a line lie in one box leaves the rest of that box
//! (claiming). When no rule makes progress, the search branches on a cell with the
//! fewest candidates: it tries one digit and saves the same state with that digit removed, to
//! resume from on backtrack. The saved states live in a stack owned by the engine, so a
//! search allocates nothing once it has warmed up; every state is a fixed array.

use super::search::{Rules, Trail};
use super::{Ascending, Branching, Engine, Outcome, at_most_one, bit, digit};
use crate::error::Unsolvable;
use crate::grid::{Digit, Grid};
use crate::shape::Shape;

/// The state of a search: candidates and placed digits for every cell.
#[derive(Debug)]
struct State<S: Shape> {
    /// Candidates of each cell; a placed cell keeps just its digit.
    cand: S::Cells<u32>,
    /// Placed digit of each cell, 0 while open.
    value: S::Cells<Digit>,
    /// Digits placed in each unit.
    solved: S::Units<u32>,
    /// Number of placed cells.
    placed: usize,
}

impl<S: Shape> Clone for State<S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S: Shape> Copy for State<S> {}

impl<S: Shape> State<S> {
    fn open() -> Self {
        State {
            cand: S::cells(S::ALL),
            value: S::cells(0),
            solved: S::units(0),
            placed: 0,
        }
    }

    fn solved(&self) -> Grid<S> {
        Grid::from_digits(self.value.as_ref()).expect("a solved state holds digits 1..=N")
    }
}

/// The engine for every size, and the reference for the specialised ones. Completion
/// (filling) propagates naked singles only; counting adds hidden singles and, when `LOCKED`
/// is set (see [`Locked`]), locked candidates.
#[derive(Debug)]
pub struct Generic<S: Shape, const LOCKED: bool = false> {
    /// Saved alternatives: a state with one digit removed from a cell, and the cell.
    trail: Trail<(State<S>, u16), Grid<S>>,
    rules: Queue<S, LOCKED>,
}

/// [`Generic`] with locked candidates (pointing and claiming) once singles stall: the engine
/// of 25×25 grids, whose deep removal tests the singles alone search for far too long.
/// (Filling still propagates naked singles only, so it draws the same grids as [`Generic`].)
pub type Locked<S> = Generic<S, true>;

/// Segments (where a line crosses a box) per kind of line, for every size: `N · BOX` is at
/// most 125.
const SEGMENTS: usize = 128;

/// The generic engine's rules, and the queue of cells they have reduced to one candidate.
#[derive(Debug)]
struct Queue<S: Shape, const LOCKED: bool> {
    /// Cells reduced to one candidate and not yet placed.
    queue: S::Cells<u16>,
    queued: usize,
    /// Whether propagation sweeps for hidden singles: it prunes hard searches but costs more
    /// than it saves when filling an empty grid.
    hidden: bool,
}

impl<S: Shape, const LOCKED: bool> Default for Generic<S, LOCKED> {
    fn default() -> Self {
        Self::new()
    }
}

impl<S: Shape, const LOCKED: bool> Engine<S> for Generic<S, LOCKED> {
    fn new() -> Self {
        Generic {
            trail: Trail::new::<S>(),
            rules: Queue {
                queue: S::cells(0),
                queued: 0,
                hidden: true,
            },
        }
    }

    fn count_solutions(&mut self, puzzle: &Grid<S>, limit: usize) -> usize {
        self.rules.hidden = true;
        match self.rules.start(puzzle) {
            Ok(state) => {
                match self
                    .trail
                    .run(&mut self.rules, state, limit, u64::MAX, &mut Ascending)
                {
                    Outcome::Solutions(n) => n,
                    Outcome::OutOfBudget => unreachable!("the budget is unbounded"),
                }
            }
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
        self.rules.hidden = true;
        let Ok(mut state) = self.rules.start(puzzle) else {
            return Some(false);
        };
        let cand = state.cand[cell] & !bit(digit);
        if cand == 0 {
            return Some(false);
        }
        state.cand[cell] = cand;
        if at_most_one(cand) {
            self.rules.push(cell);
        }
        self.trail
            .run(&mut self.rules, state, 1, budget, branching)
            .found_any()
    }

    fn complete(
        &mut self,
        puzzle: &Grid<S>,
        budget: u64,
        branching: &mut impl Branching,
    ) -> Outcome {
        self.rules.hidden = false;
        match self.rules.start(puzzle) {
            Ok(state) => self.trail.run(&mut self.rules, state, 1, budget, branching),
            Err(Unsolvable) => Outcome::Solutions(0),
        }
    }

    fn solution(&self) -> Grid<S> {
        self.trail.first.unwrap_or_else(Grid::empty)
    }

    fn branches(&self) -> u64 {
        self.trail.branches
    }
}

impl<S: Shape, const LOCKED: bool> Rules<S> for Queue<S, LOCKED> {
    type State = State<S>;
    type Saved = (State<S>, u16);

    fn propagate(&mut self, state: &mut State<S>) -> Result<(), Unsolvable> {
        loop {
            while self.queued > 0 {
                self.queued -= 1;
                let cell = self.queue[self.queued] as usize;
                if state.value[cell] == 0 {
                    let b = state.cand[cell];
                    self.place(state, cell, b)?;
                }
            }
            if state.placed == S::CELLS || !self.hidden {
                return Ok(());
            }
            // Each rule runs only when the ones before it find nothing.
            let progress =
                self.hidden_singles(state)? || LOCKED && self.locked_candidates(state)?;
            if !progress {
                return Ok(());
            }
        }
    }

    fn is_solved(&self, state: &State<S>) -> bool {
        state.placed == S::CELLS
    }

    type Solved = Grid<S>;

    fn solved(&self, state: &State<S>) -> Grid<S> {
        state.solved()
    }

    fn branch(
        &mut self,
        state: &mut State<S>,
        branching: &mut impl Branching,
        stack: &mut Vec<Self::Saved>,
    ) {
        let cell = Self::branch_cell(state);
        let cand = state.cand[cell];
        let b = branching.choose(cell, cand);
        // Copied into the stack once and narrowed there.
        stack.push((*state, cell as u16));
        if let Some((rest, _)) = stack.last_mut() {
            rest.cand[cell] = cand & !b;
        }
        state.cand[cell] = b;
        self.push(cell);
    }

    fn resume(&mut self, (state, cell): Self::Saved) -> State<S> {
        self.queued = 0;
        if at_most_one(state.cand[cell as usize]) {
            self.push(cell as usize);
        }
        state
    }
}

impl<S: Shape, const LOCKED: bool> Queue<S, LOCKED> {
    /// The state with every clue of `puzzle` placed and every open cell's candidates cut to
    /// the digits its row, column and box lack; open cells left with one candidate are queued.
    /// One pass over the cells, rather than a peer update per clue.
    fn start(&mut self, puzzle: &Grid<S>) -> Result<State<S>, Unsolvable> {
        self.queued = 0;
        let mut state = State::<S>::open();
        let used = &mut state.solved;
        for cell in 0..S::CELLS {
            let d = puzzle.get(cell);
            if d != 0 {
                let b = bit(d);
                let [row, col, boxed] = S::units_of(cell);
                if (used[row] | used[col] | used[boxed]) & b != 0 {
                    return Err(Unsolvable);
                }
                used[row] |= b;
                used[col] |= b;
                used[boxed] |= b;
                state.cand[cell] = b;
                state.value[cell] = d;
                state.placed += 1;
            }
        }
        for cell in 0..S::CELLS {
            if state.value[cell] == 0 {
                let [row, col, boxed] = S::units_of(cell);
                let cand = S::ALL & !(state.solved[row] | state.solved[col] | state.solved[boxed]);
                if cand == 0 {
                    return Err(Unsolvable);
                }
                state.cand[cell] = cand;
                if at_most_one(cand) {
                    self.push(cell);
                }
            }
        }
        Ok(state)
    }

    #[inline(always)]
    fn push(&mut self, cell: usize) {
        self.queue[self.queued] = cell as u16;
        self.queued += 1;
    }

    /// Places the single candidate `b` in `cell` and removes it from the peers.
    #[inline(always)]
    fn place(&mut self, state: &mut State<S>, cell: usize, b: u32) -> Result<(), Unsolvable> {
        state.cand[cell] = b;
        state.value[cell] = digit(b);
        state.placed += 1;
        let [row, col, boxed] = S::units_of(cell);
        state.solved[row] |= b;
        state.solved[col] |= b;
        state.solved[boxed] |= b;
        for &peer in S::peers(cell) {
            self.remove(state, peer as usize, b)?;
        }
        Ok(())
    }

    /// Queues every digit that has one place left in some unit; fails when a digit has none.
    /// Returns whether anything was queued.
    fn hidden_singles(&mut self, state: &mut State<S>) -> Result<bool, Unsolvable> {
        let (once, twice) = unit_sums::<S>(state.cand.as_ref());
        let mut found = false;
        for unit in 0..S::UNITS {
            let solved = state.solved[unit];
            if solved == S::ALL {
                continue;
            }
            let cells = S::unit(unit);
            let (once, twice) = (once[unit], twice[unit]);
            if once != S::ALL {
                return Err(Unsolvable);
            }
            let hidden = once & !twice & !solved;
            if hidden == 0 {
                continue;
            }
            for &cell in cells {
                let cell = cell as usize;
                let cand = state.cand[cell];
                let only = cand & hidden;
                if only != 0 && only != cand {
                    if !at_most_one(only) {
                        return Err(Unsolvable);
                    }
                    state.cand[cell] = only;
                    self.push(cell);
                    found = true;
                }
            }
        }
        Ok(found)
    }

    /// Removes locked candidates (see the module docs), from the candidates as they stand
    /// when it starts; returns whether it removed any, and fails when a cell loses its last.
    /// Runs only once no single is left, so no placed digit is a candidate of a peer.
    fn locked_candidates(&mut self, state: &mut State<S>) -> Result<bool, Unsolvable> {
        let (n, b) = (S::N, S::BOX);
        debug_assert!(n * b <= SEGMENTS);
        // The candidates of each segment: of row `r` in stack `k` at `r · BOX + k`, and of
        // column `c` in band `k` at `c · BOX + k`.
        let mut segments = [[0u32; SEGMENTS]; 2];
        for (r, row) in state.cand.as_ref().chunks_exact(n).enumerate() {
            for (c, &cand) in row.iter().enumerate() {
                segments[0][r * b + c / b] |= cand;
                segments[1][c * b + r / b] |= cand;
            }
        }
        let mut removed = false;
        for (kind, segments) in segments.iter().enumerate() {
            // Position `pos` of line `line` (a row for kind 0, a column for kind 1), and the
            // box unit where block `k` of the line lies.
            let cell = |line: usize, pos: usize| match kind {
                0 => line * n + pos,
                _ => pos * n + line,
            };
            let box_unit = |line: usize, k: usize| match kind {
                0 => 2 * n + line / b * b + k,
                _ => 2 * n + k * b + line / b,
            };
            for line in 0..n {
                // Claiming: a digit of the line in one block only leaves the block's box.
                let blocks = &segments[line * b..(line + 1) * b];
                let only = in_exactly_one(blocks.iter().copied()) & !state.solved[kind * n + line];
                for (k, &segment) in blocks.iter().enumerate() {
                    let gone = segment & only;
                    if gone == 0 {
                        continue;
                    }
                    let first = line / b * b;
                    for other in (first..first + b).filter(|&other| other != line) {
                        for pos in k * b..(k + 1) * b {
                            removed |= self.remove(state, cell(other, pos), gone)?;
                        }
                    }
                }
            }
            for first in (0..n).step_by(b) {
                for k in 0..b {
                    // Pointing: a digit of a box on one of its lines only leaves that line.
                    let lines = (first..first + b).map(|line| segments[line * b + k]);
                    let only = in_exactly_one(lines) & !state.solved[box_unit(first, k)];
                    if only == 0 {
                        continue;
                    }
                    for line in first..first + b {
                        let gone = segments[line * b + k] & only;
                        if gone == 0 {
                            continue;
                        }
                        for pos in (0..n).filter(|pos| pos / b != k) {
                            removed |= self.remove(state, cell(line, pos), gone)?;
                        }
                    }
                }
            }
        }
        Ok(removed)
    }

    /// Removes the digits `gone` from `cell`'s candidates, queueing it when one is left;
    /// returns whether any was there.
    #[inline(always)]
    fn remove(&mut self, state: &mut State<S>, cell: usize, gone: u32) -> Result<bool, Unsolvable> {
        let cand = state.cand[cell];
        if cand & gone == 0 {
            return Ok(false);
        }
        let rest = cand & !gone;
        if rest == 0 {
            return Err(Unsolvable);
        }
        state.cand[cell] = rest;
        if at_most_one(rest) {
            self.push(cell);
        }
        Ok(true)
    }

    /// The open cell with the fewest candidates.
    #[inline]
    fn branch_cell(state: &State<S>) -> usize {
        let mut best = 0;
        let mut fewest = u32::MAX;
        for cell in 0..S::CELLS {
            if state.value[cell] == 0 {
                let n = state.cand[cell].count_ones();
                if n < fewest {
                    best = cell;
                    fewest = n;
                    if n == 2 {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// The digits in exactly one of `masks`.
#[inline(always)]
fn in_exactly_one(masks: impl Iterator<Item = u32>) -> u32 {
    let (once, twice) = masks.fold((0, 0), |(once, twice), m| (once | m, twice | once & m));
    once & !twice
}

/// For every unit, the digits it allows in at least one cell (`once`) and in at least two
/// (`twice`). Sums are built from *segments*, the `BOX` cells where a row crosses a box: a
/// row and a box are each `BOX` segments, merged with the associative rule
/// `(o₁, t₁) + (o₂, t₂) = (o₁ | o₂, t₁ | t₂ | o₁ & o₂)`. Columns are summed a whole row at a
/// time, which the compiler turns into vector operations. No index is checked cell by cell.
#[inline(always)]
fn unit_sums<S: Shape>(cand: &[u32]) -> (S::Units<u32>, S::Units<u32>) {
    let (mut once, mut twice) = (S::units(0u32), S::units(0u32));
    let (n, b) = (S::N, S::BOX);
    for (r, row) in cand.chunks_exact(n).enumerate() {
        let (mut row_once, mut row_twice) = (0, 0);
        for (j, segment) in row.chunks_exact(b).enumerate() {
            let (mut seg_once, mut seg_twice) = (0, 0);
            for &c in segment {
                seg_twice |= seg_once & c;
                seg_once |= c;
            }
            row_twice |= seg_twice | row_once & seg_once;
            row_once |= seg_once;
            let boxed = 2 * n + r / b * b + j;
            twice[boxed] |= seg_twice | once[boxed] & seg_once;
            once[boxed] |= seg_once;
        }
        once[r] = row_once;
        twice[r] = row_twice;
    }
    let (col_once, col_twice) = (&mut once.as_mut()[n..2 * n], &mut twice.as_mut()[n..2 * n]);
    for row in cand.chunks_exact(n) {
        for ((o, t), &c) in col_once.iter_mut().zip(col_twice.iter_mut()).zip(row) {
            *t |= *o & c;
            *o |= c;
        }
    }
    (once, twice)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{Four, Nine, Sixteen};
    use crate::solver::Random;

    const PUZZLE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    const SOLUTION: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    #[test]
    fn solves_a_classic() {
        let mut solver = Generic::<Nine>::new();
        let puzzle = Grid::parse(PUZZLE).unwrap();
        assert_eq!(solver.count_solutions(&puzzle, 2), 1);
        assert_eq!(solver.solution().to_string(), SOLUTION);
    }

    #[test]
    fn counts_zero_one_and_many() {
        let mut solver = Generic::<Nine>::new();
        let empty = Grid::<Nine>::empty();
        assert_eq!(solver.count_solutions(&empty, 2), 2);
        assert_eq!(solver.count_solutions(&empty, 50), 50);
        // Clashing clues: two 5s in the first row.
        let mut clash = Grid::<Nine>::parse(PUZZLE).unwrap();
        clash.set(2, 5);
        assert_eq!(solver.count_solutions(&clash, 2), 0);
        // Consistent clues with no completion: row 0 holds 1–8, and the 9 its last cell
        // needs sits in that cell's column.
        let mut dead = Grid::<Nine>::empty();
        for col in 1..9 {
            dead.set(col, col as u8);
        }
        dead.set(27, 9);
        assert!(dead.is_consistent());
        assert_eq!(solver.count_solutions(&dead, 2), 0);
        // The 4×4 grid has 288 solutions.
        let mut small = Generic::<Four>::new();
        assert_eq!(small.count_solutions(&Grid::empty(), 1000), 288);
    }

    #[test]
    fn removal_test_sees_second_solutions() {
        let mut solver = Generic::<Nine>::new();
        let solution = Grid::<Nine>::parse(SOLUTION).unwrap();
        let mut puzzle = Grid::<Nine>::parse(PUZZLE).unwrap();
        // Removing a clue from a unique puzzle: the answer agrees with a full count.
        for cell in 0..81 {
            let d = puzzle.get(cell);
            if d == 0 {
                continue;
            }
            puzzle.set(cell, 0);
            let unique = solver.count_solutions(&puzzle, 2) == 1;
            assert_eq!(
                solver.has_solution_without(&puzzle, cell, d, &mut Ascending),
                !unique
            );
            puzzle.set(cell, d);
        }
        assert!(!solver.has_solution_without(&solution, 0, 5, &mut Ascending));
    }

    #[test]
    fn random_completion_fills_large_grids() {
        let mut rng = crate::rng::attempt_rng(1, 2);
        let mut solver = Generic::<Sixteen>::new();
        let outcome = solver.complete(&Grid::empty(), u64::MAX, &mut Random(&mut rng));
        assert_eq!(outcome, Outcome::Solutions(1));
        assert!(solver.solution().is_solution());
    }
}
