//! The 9×9 engine: candidates held digit by digit, band by band, in the manner of JCZSolve.
//!
//! For each digit and each band (three rows of the grid) one `u32` holds the 27 cells where the
//! digit may still go, bit `9r + c` for row `r` of the band and column `c`. Within a band a
//! digit fills one cell in each row and in each box, so the rows' choice of box is one of six
//! permutations. Folding a band to its 3×3 row-by-box occupancy and looking the occupancy up
//! in a table of what those permutations allow ([`ALLOWED`]) applies, in one step, hidden
//! singles in the band's rows and boxes and the band's pointing and claiming eliminations.
//! A row left with one cell places the digit there: its column is cleared in the other two
//! bands and the other digits are cleared from the cell. Naked singles (cells with one digit
//! left) are found across the nine digits with two bit sums. The search branches on a cell
//! with two candidates when there is one.
//!
//! A band is recomputed only when it changed since it was last looked at (`dirty`). Every
//! state is a few fixed arrays, copied onto a stack the engine keeps, so searches allocate
//! nothing once the engine has warmed up. [`Generic`](super::Generic) is the reference this
//! engine is tested against.

use super::{Ascending, Branching, Engine, Outcome};
use crate::error::Unsolvable;
use crate::grid::{Digit, Grid};
use crate::shape::Nine;

/// All 27 cells of a band.
const BAND: u32 = (1 << 27) - 1;

/// `(d, b)` bands are numbered `9b + d`; the 27 of them fit a `u32` bit set.
const ALL_BANDS: u32 = (1 << 27) - 1;

/// Which boxes of a band row hold a cell: the three 3-bit column groups of a 9-bit row,
/// folded to one bit each.
const BOXES_OF_ROW: [u32; 512] = {
    let mut table = [0; 512];
    let mut row = 0;
    while row < 512 {
        let mut b = 0;
        while b < 3 {
            if row >> (3 * b) & 7 != 0 {
                table[row] |= 1 << b;
            }
            b += 1;
        }
        row += 1;
    }
    table
};

/// For a band's 3×3 row-by-box occupancy (bit `3r + b`), the cells of the band a digit can
/// still take: the union of the row-to-box permutations that fit the occupancy, expanded to
/// cells. 0 when no permutation fits (the digit cannot go in this band: a contradiction).
const ALLOWED: [u32; 512] = {
    const PERMUTATIONS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut table = [0; 512];
    let mut occupancy = 0;
    while occupancy < 512 {
        let mut fits = 0u32;
        let mut p = 0;
        while p < 6 {
            let perm = PERMUTATIONS[p];
            let pattern = 1 << perm[0] | 1 << (3 + perm[1]) | 1 << (6 + perm[2]);
            if pattern & !occupancy == 0 {
                fits |= pattern;
            }
            p += 1;
        }
        let mut cells = 0;
        let mut at = 0;
        while at < 9 {
            if fits >> at & 1 != 0 {
                let (row, boxed) = (at / 3, at % 3);
                cells |= 0o7 << (9 * row + 3 * boxed);
            }
            at += 1;
        }
        table[occupancy as usize] = cells;
        occupancy += 1;
    }
    table
};

/// The columns of a set of boxes (bit `b` for box `b` of a band): 3 bits per box.
const BOX_COLUMNS: [u32; 8] = [0, 0o7, 0o70, 0o77, 0o700, 0o707, 0o770, 0o777];

/// A 9-bit row if it holds exactly one cell, else 0.
const LONE: [u32; 512] = {
    let mut table = [0; 512];
    let mut row = 0;
    while row < 512 {
        if (row as u32).count_ones() == 1 {
            table[row] = row as u32;
        }
        row += 1;
    }
    table
};

/// For each cell of a band, the other cells of its row and box within the band, and its
/// column within the band.
const PEERS_IN_BAND: [u32; 27] = {
    let mut table = [0; 27];
    let mut cell = 0;
    while cell < 27 {
        let (row, col) = (cell / 9, cell % 9);
        let mut other = 0;
        while other < 27 {
            let (r, c) = (other / 9, other % 9);
            if other != cell && (r == row || c == col || c / 3 == col / 3) {
                table[cell] |= 1 << other;
            }
            other += 1;
        }
        cell += 1;
    }
    table
};

/// The cells of a band in the columns of a 9-bit column set, in all three rows.
#[inline(always)]
const fn columns(cols: u32) -> u32 {
    cols | cols << 9 | cols << 18
}

/// A search state: where each digit may go, and which cells are still open.
#[derive(Clone, Copy, Debug)]
struct State {
    /// Bit `9r + c` of `cand[9b + d]`: digit `d + 1` may go in row `3b + r`, column `c`.
    cand: [u32; 27],
    /// Open cells of each band.
    open: [u32; 3],
    /// Bands changed since they were last recomputed.
    dirty: u32,
}

impl State {
    /// Every digit possible everywhere.
    fn empty() -> State {
        State {
            cand: [BAND; 27],
            open: [BAND; 3],
            dirty: ALL_BANDS,
        }
    }

    /// Removes `cells` from band `i`, marking the band dirty if that changed it.
    #[inline(always)]
    fn clear(&mut self, i: usize, cells: u32) {
        let old = self.cand[i];
        let new = old & !cells;
        self.cand[i] = new;
        self.dirty |= ((new != old) as u32) << i;
    }

    /// Removes `cells` from every digit of band `b` but `d`, marking the changed bands dirty.
    #[inline(always)]
    fn clear_others(&mut self, b: usize, d: usize, cells: u32) {
        let band = &mut self.cand[9 * b..9 * b + 9];
        let keep = band[d];
        let mut changed = 0;
        for (e, cand) in band.iter_mut().enumerate() {
            let old = *cand;
            *cand = old & !cells;
            changed |= ((*cand != old) as u32) << e;
        }
        band[d] = keep;
        self.dirty |= (changed & !(1 << d)) << (9 * b);
    }

    /// The candidates of `cell` as a digit mask (bit `d - 1` for digit `d`).
    #[inline]
    fn digits_of(&self, cell: usize) -> u32 {
        let (b, at) = (cell / 27, cell % 27);
        let mut mask = 0;
        for d in 0..9 {
            mask |= (self.cand[9 * b + d] >> at & 1) << d;
        }
        mask
    }

    /// Puts digit `d + 1` in `cell`, which is open and still allows it: clears its row, box
    /// and column, and the other digits of the cell.
    #[inline]
    fn place(&mut self, cell: usize, d: usize) {
        let (b, at) = (cell / 27, cell % 27);
        let bit = 1 << at;
        self.open[b] &= !bit;
        let col = columns(1 << (at % 9));
        for other in 0..3 {
            if other != b {
                self.clear(9 * other + d, col);
            }
        }
        self.clear(9 * b + d, PEERS_IN_BAND[at]);
        self.clear_others(b, d, bit);
    }

    /// Recomputes band `i` after a change; see the module docs.
    #[inline(always)]
    fn update(&mut self, i: usize) -> Result<(), Unsolvable> {
        let (d, b) = (i % 9, i / 9);
        let cand = self.cand[i];
        let occupancy = BOXES_OF_ROW[(cand & 0x1FF) as usize]
            | BOXES_OF_ROW[(cand >> 9 & 0x1FF) as usize] << 3
            | BOXES_OF_ROW[(cand >> 18) as usize] << 6;
        let cand = cand & ALLOWED[occupancy as usize];
        if cand == 0 {
            return Err(Unsolvable);
        }
        self.cand[i] = cand;
        let lone = LONE[(cand & 0x1FF) as usize]
            | LONE[(cand >> 9 & 0x1FF) as usize] << 9
            | LONE[(cand >> 18) as usize] << 18;
        let placed = lone & self.open[b];
        if placed == 0 {
            return Ok(());
        }
        self.open[b] &= !placed;
        let col = columns((placed | placed >> 9 | placed >> 18) & 0x1FF);
        for other in 0..3 {
            if other != b {
                self.clear(9 * other + d, col);
            }
        }
        self.clear_others(b, d, placed);
        Ok(())
    }

    /// Recomputes changed bands until none changes.
    #[inline]
    fn settle(&mut self) -> Result<(), Unsolvable> {
        while self.dirty != 0 {
            let i = self.dirty.trailing_zeros() as usize;
            self.dirty &= self.dirty - 1;
            self.update(i)?;
        }
        Ok(())
    }

    /// Places every naked single; fails on a cell with no digit left. Returns whether it
    /// placed anything.
    fn naked_singles(&mut self) -> Result<bool, Unsolvable> {
        let mut found = false;
        for b in 0..3 {
            let open = self.open[b];
            if open == 0 {
                continue;
            }
            let (mut once, mut twice) = (0, 0);
            for d in 0..9 {
                let cand = self.cand[9 * b + d];
                twice |= once & cand;
                once |= cand;
            }
            if open & !once != 0 {
                return Err(Unsolvable);
            }
            let mut singles = open & !twice;
            while singles != 0 {
                let at = singles.trailing_zeros() as usize;
                singles &= singles - 1;
                let bit = 1 << at;
                // An earlier single of this pass may have taken this cell's last digit.
                let Some(d) = (0..9).find(|&d| self.cand[9 * b + d] & bit != 0) else {
                    return Err(Unsolvable);
                };
                if self.open[b] & bit != 0 {
                    self.place(27 * b + at, d);
                    found = true;
                }
            }
        }
        Ok(found)
    }

    /// The column rule, for every digit: a digit that can go in a column only within one
    /// band must go there, so the rest of that column's box in the band loses it; a column
    /// where a digit can go nowhere is a contradiction.
    fn columns(&mut self) -> Result<(), Unsolvable> {
        for d in 0..9 {
            let fold = |c: u32| (c | c >> 9 | c >> 18) & 0x1FF;
            let k = [
                fold(self.cand[d]),
                fold(self.cand[9 + d]),
                fold(self.cand[18 + d]),
            ];
            if k[0] | k[1] | k[2] != 0x1FF {
                return Err(Unsolvable);
            }
            for b in 0..3 {
                let only = k[b] & !(k[(b + 1) % 3] | k[(b + 2) % 3]);
                if only != 0 {
                    let boxes = BOX_COLUMNS[BOXES_OF_ROW[only as usize] as usize];
                    self.clear(9 * b + d, columns(boxes & !only));
                }
            }
        }
        Ok(())
    }

    /// Applies every rule until none applies.
    fn propagate(&mut self) -> Result<(), Unsolvable> {
        loop {
            self.settle()?;
            if self.open == [0; 3] {
                return Ok(());
            }
            if self.naked_singles()? {
                continue;
            }
            self.columns()?;
            if self.dirty == 0 {
                return Ok(());
            }
        }
    }

    /// An open cell with the fewest candidates (two, if any cell has two), the first in
    /// row-major order. Candidates are counted for all cells of a band at once, in four
    /// bit planes.
    fn branch_cell(&self) -> usize {
        let mut planes = [[0u32; 4]; 3];
        for (b, [ones, twos, fours, eights]) in planes.iter_mut().enumerate() {
            for d in 0..9 {
                let carry = *ones & self.cand[9 * b + d];
                *ones ^= self.cand[9 * b + d];
                let carry2 = *twos & carry;
                *twos ^= carry;
                *eights |= *fours & carry2;
                *fours ^= carry2;
            }
        }
        for count in 2..=9u32 {
            for (b, [ones, twos, fours, eights]) in planes.iter().enumerate() {
                let bit = |plane: u32, on: bool| if on { plane } else { !plane };
                let cells = self.open[b]
                    & bit(*ones, count & 1 != 0)
                    & bit(*twos, count & 2 != 0)
                    & bit(*fours, count & 4 != 0)
                    & bit(*eights, count & 8 != 0);
                if cells != 0 {
                    return 27 * b + cells.trailing_zeros() as usize;
                }
            }
        }
        // Not reached: propagation leaves every open cell two digits or more.
        (0..3)
            .find(|&b| self.open[b] != 0)
            .map_or(0, |b| 27 * b + self.open[b].trailing_zeros() as usize)
    }

    /// The grid of a solved state.
    fn grid(&self) -> Grid<Nine> {
        let mut grid = Grid::empty();
        for i in 0..27 {
            let (d, b) = (i % 9, i / 9);
            let mut cells = self.cand[i];
            while cells != 0 {
                let at = cells.trailing_zeros() as usize;
                cells &= cells - 1;
                grid.set(27 * b + at, d as Digit + 1);
            }
        }
        grid
    }
}

/// The 9×9 search engine (see the module docs). Keep one per thread.
#[derive(Debug)]
pub struct Bands {
    /// Saved alternatives: a state with one digit removed from a cell.
    stack: Vec<State>,
    /// The first solution of the last search that found one.
    first: Grid<Nine>,
    /// Branches taken since the engine was created.
    branches: u64,
}

impl Default for Bands {
    fn default() -> Self {
        Self::new()
    }
}

impl Bands {
    /// An engine with room for the deepest search.
    pub fn new() -> Self {
        Bands {
            stack: Vec::with_capacity(81),
            first: Grid::empty(),
            branches: 0,
        }
    }

    /// The state with every clue of `puzzle` placed, not yet propagated.
    fn start(puzzle: &Grid<Nine>) -> Result<State, Unsolvable> {
        let mut state = State::empty();
        for cell in 0..81 {
            let digit = puzzle.get(cell);
            if digit != 0 {
                let d = digit as usize - 1;
                if state.cand[9 * (cell / 27) + d] & 1 << (cell % 27) == 0 {
                    return Err(Unsolvable);
                }
                state.place(cell, d);
            }
        }
        Ok(state)
    }

    /// Depth-first search from `state` for up to `limit` solutions within `budget` branches.
    fn search(
        &mut self,
        mut state: State,
        limit: usize,
        budget: u64,
        branching: &mut impl Branching,
    ) -> Outcome {
        self.stack.clear();
        let mut found = 0;
        let mut taken = 0;
        loop {
            let dead_end = match state.propagate() {
                Err(Unsolvable) => true,
                Ok(()) if state.open == [0; 3] => {
                    found += 1;
                    if found == 1 {
                        self.first = state.grid();
                    }
                    if found >= limit {
                        return Outcome::Solutions(found);
                    }
                    true
                }
                Ok(()) => {
                    if taken == budget {
                        return Outcome::OutOfBudget;
                    }
                    taken += 1;
                    self.branches += 1;
                    let cell = state.branch_cell();
                    let digits = state.digits_of(cell);
                    let pick = branching.choose(digits);
                    let (b, bit) = (cell / 27, 1 << (cell % 27));
                    let d = pick.trailing_zeros() as usize;
                    let mut rest = state;
                    rest.cand[9 * b + d] &= !bit;
                    rest.dirty |= 1 << (9 * b + d);
                    self.stack.push(rest);
                    state.place(cell, d);
                    false
                }
            };
            if dead_end {
                let Some(rest) = self.stack.pop() else {
                    return Outcome::Solutions(found);
                };
                state = rest;
            }
        }
    }
}

impl Engine<Nine> for Bands {
    fn new() -> Self {
        Bands::new()
    }

    fn count_solutions(&mut self, puzzle: &Grid<Nine>, limit: usize) -> usize {
        match Self::start(puzzle) {
            Ok(state) => match self.search(state, limit, u64::MAX, &mut Ascending) {
                Outcome::Solutions(n) => n,
                Outcome::OutOfBudget => unreachable!("the budget is unbounded"),
            },
            Err(Unsolvable) => 0,
        }
    }

    fn has_solution_without(&mut self, puzzle: &Grid<Nine>, cell: usize, digit: Digit) -> bool {
        let Ok(mut state) = Self::start(puzzle) else {
            return false;
        };
        let i = 9 * (cell / 27) + digit as usize - 1;
        state.cand[i] &= !(1 << (cell % 27));
        state.dirty |= 1 << i;
        matches!(
            self.search(state, 1, u64::MAX, &mut Ascending),
            Outcome::Solutions(1)
        )
    }

    fn complete(
        &mut self,
        puzzle: &Grid<Nine>,
        budget: u64,
        branching: &mut impl Branching,
    ) -> Outcome {
        match Self::start(puzzle) {
            Ok(state) => self.search(state, 1, budget, branching),
            Err(Unsolvable) => Outcome::Solutions(0),
        }
    }

    fn solution(&self) -> &Grid<Nine> {
        &self.first
    }

    fn branches(&self) -> u64 {
        self.branches
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables() {
        // A full band allows every cell; one row empty allows nothing.
        assert_eq!(ALLOWED[0o777], BAND);
        assert_eq!(ALLOWED[0o077], 0);
        // Row 0 only in box 0 forces boxes 1 and 2 onto rows 1 and 2.
        assert_eq!(ALLOWED[0o771], 0o7 | 0o770 << 9 | 0o770 << 18);
        assert_eq!(BOXES_OF_ROW[0b100_000_001], 0b101);
        assert_eq!(LONE[0b1000], 0b1000);
        assert_eq!(LONE[0b1010], 0);
        assert_eq!(PEERS_IN_BAND[0].count_ones(), 8 + 2 + 4);
    }
}
