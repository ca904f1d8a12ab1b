//! The engine for every size: constraint propagation over candidate masks with depth-first search.
//!
//! Placing a digit removes it from the cell's peers; a peer left with one candidate is queued
//! and placed in turn (naked singles). When the queue runs dry, each unit is swept for digits
//! that fit in exactly one of its cells (hidden singles) and for digits that fit nowhere
//! (a contradiction). When neither rule makes progress, the search branches on a cell with the
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
/// (filling) propagates naked singles only; counting adds hidden singles.
#[derive(Debug)]
pub struct Generic<S: Shape> {
    /// Saved alternatives: a state with one digit removed from a cell, and the cell.
    trail: Trail<S, (State<S>, u16)>,
    rules: Queue<S>,
}

/// The generic engine's rules, and the queue of cells they have reduced to one candidate.
#[derive(Debug)]
struct Queue<S: Shape> {
    /// Cells reduced to one candidate and not yet placed.
    queue: S::Cells<u16>,
    queued: usize,
    /// Whether propagation sweeps for hidden singles: it prunes hard searches but costs more
    /// than it saves when filling an empty grid.
    hidden: bool,
}

impl<S: Shape> Default for Generic<S> {
    fn default() -> Self {
        Self::new()
    }
}

impl<S: Shape> Engine<S> for Generic<S> {
    fn new() -> Self {
        Generic {
            trail: Trail::new(),
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

    fn has_solution_without(
        &mut self,
        puzzle: &Grid<S>,
        cell: usize,
        digit: Digit,
        branching: &mut impl Branching,
    ) -> bool {
        self.rules.hidden = true;
        let Ok(mut state) = self.rules.start(puzzle) else {
            return false;
        };
        let cand = state.cand[cell] & !bit(digit);
        if cand == 0 {
            return false;
        }
        state.cand[cell] = cand;
        if at_most_one(cand) {
            self.rules.push(cell);
        }
        matches!(
            self.trail
                .run(&mut self.rules, state, 1, u64::MAX, branching),
            Outcome::Solutions(1)
        )
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

    fn solution(&self) -> &Grid<S> {
        &self.trail.first
    }

    fn branches(&self) -> u64 {
        self.trail.branches
    }
}

impl<S: Shape> Rules<S> for Queue<S> {
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
            if state.placed == S::CELLS || !self.hidden || !self.hidden_singles(state)? {
                return Ok(());
            }
        }
    }

    fn is_solved(&self, state: &State<S>) -> bool {
        state.placed == S::CELLS
    }

    fn grid(&self, state: &State<S>) -> Grid<S> {
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

impl<S: Shape> Queue<S> {
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
            let peer = peer as usize;
            let cand = state.cand[peer];
            if cand & b != 0 {
                let rest = cand & !b;
                if rest == 0 {
                    return Err(Unsolvable);
                }
                state.cand[peer] = rest;
                if at_most_one(rest) {
                    self.push(peer);
                }
            }
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
