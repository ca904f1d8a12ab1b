//! A band search state and the rules that propagate it: the band update, naked singles and
//! the column rule. The choice of a branch cell is in `branch.rs`; see the parent module for
//! how they work together.

use std::fmt::Debug;

use super::Banded;
use crate::error::Unsolvable;
use crate::grid::{Digit, Grid};
use crate::solver::low_bits;

/// A search state: where each digit may go, and which cells are still open.
pub(super) struct State<S: Banded> {
    /// Bit `N·r + c` of `cand[N·b + d]`: digit `d + 1` may go in row `BOX·b + r`, column `c`.
    pub(super) cand: S::Bands,
    /// Open cells of each band (the first `BOX` entries are used).
    pub(super) open: [u64; 4],
    /// (band, digit) entries changed since they were last recomputed.
    pub(super) dirty: u64,
    /// Digits (bit `d` for digit `d + 1`) whose entries were recomputed since the column
    /// rule last looked at them.
    pub(super) unruled: u32,
}

impl<S: Banded> Clone for State<S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S: Banded> Copy for State<S> {}

impl<S: Banded> Debug for State<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("State")
            .field("open", &self.open)
            .field("dirty", &self.dirty)
            .finish_non_exhaustive()
    }
}

impl<S: Banded> State<S> {
    /// Cells in a band, and (band, digit) entries: both `BOX · N`.
    pub(super) const WIDTH: usize = S::BOX * S::N;
    /// The cells of one band row.
    pub(super) const ROW: u64 = low_bits(S::N);

    /// Every digit possible everywhere.
    pub(super) fn empty() -> Self {
        let band = low_bits(Self::WIDTH);
        let mut open = [0; 4];
        open[..S::BOX].fill(band);
        State {
            cand: S::bands(band),
            open,
            dirty: low_bits(Self::WIDTH),
            unruled: low_bits(S::N) as u32,
        }
    }

    /// One bit at the start of every band row.
    const ROW_STARTS: u64 = {
        let (mut starts, mut r) = (0, 0);
        while r < S::BOX {
            starts |= 1 << (S::N * r);
            r += 1;
        }
        starts
    };

    /// The cells of a band in the columns of an `N`-bit column set, in every row: one
    /// multiply, as the copies do not overlap.
    #[inline(always)]
    pub(super) fn columns(cols: u64) -> u64 {
        cols.wrapping_mul(Self::ROW_STARTS)
    }

    /// [`State::fold`] for cells in distinct columns: the copies of the rows the multiply
    /// adds into the top row never meet, so nothing carries.
    #[inline(always)]
    fn fold_distinct(cells: u64) -> u64 {
        cells.wrapping_mul(Self::ROW_STARTS) >> (S::N * (S::BOX - 1)) & Self::ROW
    }

    /// The columns of a band that hold a cell.
    #[inline(always)]
    pub(super) fn fold(band: u64) -> u64 {
        (0..S::BOX).fold(0, |cols, r| cols | band >> (S::N * r)) & Self::ROW
    }

    /// Removes `cells` from entry `i`; returns its dirty bit if that changed it, else 0.
    #[inline(always)]
    fn clear(&mut self, i: usize, cells: u64) -> u64 {
        let old = self.cand[i];
        let new = old & !cells;
        self.cand[i] = new;
        ((new != old) as u64) << i
    }

    /// Removes `cells` from every digit of band `b` but `d`; returns the dirty bits of the
    /// entries that changed.
    #[inline(always)]
    fn clear_others(&mut self, b: usize, d: usize, cells: u64) -> u64 {
        let keep = self.cand[S::N * b + d];
        let mut changed = 0;
        for e in 0..S::N {
            let i = S::N * b + e;
            let old = self.cand[i];
            let new = old & !cells;
            self.cand[i] = new;
            changed |= ((new != old) as u64) << e;
        }
        self.cand[S::N * b + d] = keep;
        (changed & !(1 << d)) << (S::N * b)
    }

    /// The candidates of `cell` as a digit mask (bit `d - 1` for digit `d`).
    #[inline]
    pub(super) fn digits_of(&self, cell: usize) -> u32 {
        self.digits_at(cell / Self::WIDTH, cell % Self::WIDTH)
    }

    /// [`State::digits_of`] the cell at place `at` of band `b`: gathered from every entry of
    /// the band, without a branch.
    #[inline(always)]
    fn digits_at(&self, b: usize, at: usize) -> u32 {
        (0..S::N).fold(0, |mask, d| {
            mask | ((self.cand[S::N * b + d] >> at & 1) as u32) << d
        })
    }

    /// Puts digit `d + 1` in `cell`, which is open and still allows it: clears its row, box
    /// and column, and the other digits of the cell, marking the changed entries dirty.
    #[inline]
    pub(super) fn place(&mut self, cell: usize, d: usize) {
        let (b, at) = (cell / Self::WIDTH, cell % Self::WIDTH);
        self.place_only(cell, d);
        self.dirty |= self.clear_others(b, d, 1 << at);
    }

    /// [`State::place`] for a cell that allows one other digit, `other + 1`: clears that
    /// one alone from the cell.
    #[inline]
    pub(super) fn place_pair(&mut self, cell: usize, d: usize, other: usize) {
        let (b, at) = (cell / Self::WIDTH, cell % Self::WIDTH);
        self.place_only(cell, d);
        self.dirty |= self.clear(S::N * b + other, 1 << at);
    }

    /// [`State::place`] for a cell that allows no other digit (a naked single): clears its
    /// row, box and column, and leaves the other digits as they are.
    #[inline]
    fn place_only(&mut self, cell: usize, d: usize) {
        let (b, at) = (cell / Self::WIDTH, cell % Self::WIDTH);
        self.open[b] &= !(1 << at);
        let col = Self::columns(1 << (at % S::N));
        let mut dirty = 0;
        for other in 0..S::BOX {
            if other != b {
                dirty |= self.clear(S::N * other + d, col);
            }
        }
        dirty |= self.clear(S::N * b + d, S::peers_in_band(at));
        self.dirty |= dirty;
    }

    /// Puts the clue `d + 1` in `cell` of a propagated state: places it if the cell is
    /// open, checks it if propagation placed it. False when the cell does not allow it.
    pub(super) fn place_clue(&mut self, cell: usize, d: usize) -> bool {
        let (b, at) = (cell / Self::WIDTH, cell % Self::WIDTH);
        if self.cand[S::N * b + d] >> at & 1 == 0 {
            return false;
        }
        if self.open[b] >> at & 1 != 0 {
            self.place(cell, d);
        }
        true
    }

    /// Recomputes the entry of band `b` and digit `d + 1` after a change (see the module
    /// docs), and puts the digit in every open cell left alone on its row; returns the dirty
    /// bits of the entries that changed in turn. The allowed cells and the rows left with
    /// one come from one lookup ([`Banded::allowed_and_lone`]). A 9×9 pass updates each
    /// entry so; a 16×16 pass takes the two halves apart ([`State::refine`],
    /// [`State::place_lone`]; see [`State::settle_entries`]). Written out here rather than
    /// calling them: so called, the 9×9 propagation compiled otherwise and 17-clue counts
    /// took 1.017× the time.
    #[inline(always)]
    fn update(&mut self, b: usize, d: usize) -> Result<u64, Unsolvable> {
        let i = S::N * b + d;
        let (cand, lone) = S::allowed_and_lone(self.cand[i]);
        if cand == 0 {
            return Err(Unsolvable);
        }
        self.cand[i] = cand;
        let placed = lone & self.open[b];
        if placed == 0 {
            return Ok(0);
        }
        self.open[b] &= !placed;
        let col = Self::columns(Self::fold_distinct(placed));
        let mut dirty = 0;
        for other in 0..S::BOX {
            if other != b {
                dirty |= self.clear(S::N * other + d, col);
            }
        }
        Ok(dirty | self.clear_others(b, d, placed))
    }

    /// The first half of [`State::update`]: narrows the entry of band `b` and digit `d + 1`
    /// to the cells its permutations allow; returns the open cells left alone on their
    /// rows, where the digit must go.
    #[inline(always)]
    fn refine(&mut self, b: usize, d: usize) -> Result<u64, Unsolvable> {
        let i = S::N * b + d;
        let cand = S::allowed_in(self.cand[i]);
        if cand == 0 {
            return Err(Unsolvable);
        }
        self.cand[i] = cand;
        Ok(S::lone_rows(cand) & self.open[b])
    }

    /// The second half of [`State::update`]: puts digit `d + 1` in the cells `placed` of
    /// band `b` (one a row, in distinct boxes), clearing their columns in the other bands
    /// and their other digits; returns the dirty bits of the entries that changed. The
    /// other bands are counted on from `b`, without a branch on each band: with one,
    /// 16×16 minimal digs came 0.97× as fast.
    #[inline(always)]
    fn place_lone(&mut self, b: usize, d: usize, placed: u64) -> u64 {
        self.open[b] &= !placed;
        let col = Self::columns(Self::fold_distinct(placed));
        let mut dirty = 0;
        for k in 1..S::BOX {
            dirty |= self.clear(S::N * ((b + k) % S::BOX) + d, col);
        }
        dirty | self.clear_others(b, d, placed)
    }

    /// Recomputes changed entries until none changes, in passes over the entries dirty as
    /// each pass begins; the rules reach the same state in any order. On 9×9 a pass goes a
    /// band at a time, the code for each band written out with the band a constant. On
    /// 16×16 it is one loop over all four bands' entries: the end of each band's loop
    /// mispredicted, and 16×16 minimal digs came 1.04–1.07× as fast with one loop (on 9×9,
    /// 17-clue counts took 1.018× the time). The dirty bits stay in a register meanwhile:
    /// kept in the state, each update waited for the last one's writes to them.
    #[inline]
    fn settle(&mut self) -> Result<(), Unsolvable> {
        let (mut dirty, mut unruled) = (self.dirty, 0);
        let mut settle = || {
            while dirty != 0 {
                let todo = dirty;
                // The digits of the entries this pass recomputes: the entries of a digit
                // line up as a band's cells of a column do.
                unruled |= Self::fold(todo) as u32;
                if S::BOX == 4 {
                    self.settle_entries(todo, &mut dirty)?;
                } else {
                    self.settle_band(0, todo, &mut dirty)?;
                    self.settle_band(1, todo, &mut dirty)?;
                    self.settle_band(2, todo, &mut dirty)?;
                }
            }
            Ok(())
        };
        let settled = settle();
        self.dirty = dirty;
        self.unruled |= unruled;
        settled
    }

    /// Recomputes the entries of band `b` in `todo` (the entries dirty as the pass began),
    /// adding the entries they change to `dirty`, for the next pass. The entries come from
    /// that first look, not from `dirty` after each update: the processor then knows the
    /// next entry before the last update ends and runs them side by side (against `dirty`
    /// after each update, 17-clue counts came 5.5% faster and 9×9 digs at 55 holes 9%;
    /// against a look as each band begins, the forum-hardest puzzles 7%).
    #[inline(always)]
    fn settle_band(&mut self, b: usize, todo: u64, dirty: &mut u64) -> Result<(), Unsolvable> {
        let lane = low_bits(S::N) << (S::N * b);
        let mut todo = todo & lane;
        while todo != 0 {
            let i = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            *dirty &= !(1 << i);
            *dirty |= self.update(b, i - S::N * b)?;
        }
        Ok(())
    }

    /// [`State::settle_band`] for the entries of every band in `todo`, in one loop, and in
    /// two halves: it refines every entry first ([`State::refine`]), noting those that
    /// place, and then places them ([`State::place_lone`]). Whether an entry places could
    /// not be foretold, and a branch on it at each update mispredicted; the end of the
    /// second loop mispredicts once a pass instead. An entry that a placement of the second
    /// loop changed before its own turn waits for the next pass (it is dirty again): its
    /// lone cells may have gone. 16×16 minimal digs came 1.04–1.05× as fast, digs to 150
    /// holes 1.04–1.07× and fills 0.97×, for more updates in all (14% more instructions);
    /// 9×9 counts and digs were slower so (17-clue counts 1.06× the time).
    #[inline(always)]
    fn settle_entries(&mut self, mut todo: u64, dirty: &mut u64) -> Result<(), Unsolvable> {
        let mut placing = 0u64;
        while todo != 0 {
            let i = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            *dirty &= !(1 << i);
            let (b, d) = (i / S::N, i % S::N);
            let placed = self.refine(b, d)?;
            placing |= ((placed != 0) as u64) << i;
        }
        while placing != 0 {
            let i = placing.trailing_zeros() as usize;
            placing &= placing - 1;
            if *dirty >> i & 1 != 0 {
                continue;
            }
            let (b, d) = (i / S::N, i % S::N);
            let placed = S::lone_rows(self.cand[i]) & self.open[b];
            *dirty |= self.place_lone(b, d, placed);
        }
        Ok(())
    }

    /// For each band, the cells some digit allows and those two or more allow.
    #[inline(always)]
    fn sums(&self) -> [(u64, u64); 4] {
        let mut sums = [(0, 0); 4];
        for d in 0..S::N {
            for (b, (once, twice)) in sums.iter_mut().enumerate().take(S::BOX) {
                let cand = self.cand[S::N * b + d];
                *twice |= *once & cand;
                *once |= cand;
            }
        }
        sums
    }

    /// Places every naked single; fails on a cell with no digit left. Returns whether it
    /// placed anything.
    fn naked_singles(&mut self) -> Result<bool, Unsolvable> {
        let mut found = false;
        // On 16×16 the sums of all four bands are taken first, in one loop, so that their
        // chains run side by side (minimal digs 6% faster); on 9×9 a band at a time, each
        // after the singles of the bands before it are placed (17-clue counts 0.6% faster).
        let all = if S::BOX == 4 {
            self.sums()
        } else {
            [(0, 0); 4]
        };
        // By index: iterating over `all` or a copy of `open` took 1–2% more instructions on
        // 9×9, where `all` is unused.
        #[allow(clippy::needless_range_loop)]
        for b in 0..S::BOX {
            let open = self.open[b];
            if open == 0 {
                continue;
            }
            let (once, twice) = if S::BOX == 4 {
                all[b]
            } else {
                (0..S::N).fold((0, 0), |(once, twice), d| {
                    let cand = self.cand[S::N * b + d];
                    (once | cand, twice | once & cand)
                })
            };
            if open & !once != 0 {
                return Err(Unsolvable);
            }
            let mut singles = open & !twice;
            while singles != 0 {
                let at = singles.trailing_zeros() as usize;
                singles &= singles - 1;
                let bit = 1 << at;
                // The cell's one digit, gathered: a search that stops at it mispredicts
                // where it stops. An earlier single of this pass may have taken that digit.
                let digits = self.digits_at(b, at);
                if digits == 0 {
                    return Err(Unsolvable);
                }
                let d = digits.trailing_zeros() as usize;
                if self.open[b] & bit != 0 {
                    // The other digits had left the cell: placing it clears none of them.
                    self.place_only(Self::WIDTH * b + at, d);
                    found = true;
                }
            }
        }
        Ok(found)
    }

    /// The column rule, for every digit whose entries changed since it last ran: a digit
    /// that can go in a column only within one band must go there, so the rest of that
    /// column's box in the band loses it; a column where a digit can go nowhere is a
    /// contradiction. (A digit with no change since would give the same answer as then.)
    fn columns_rule(&mut self) -> Result<(), Unsolvable> {
        let mut digits = self.unruled;
        self.unruled = 0;
        while digits != 0 {
            let d = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            let mut cols = [0u64; 4];
            for (b, c) in cols.iter_mut().enumerate().take(S::BOX) {
                *c = Self::fold(self.cand[S::N * b + d]);
            }
            let (mut once, mut twice) = (0, 0);
            for &c in &cols[..S::BOX] {
                twice |= once & c;
                once |= c;
            }
            if once != Self::ROW {
                return Err(Unsolvable);
            }
            let only = once & !twice;
            if only == 0 {
                continue;
            }
            for (b, &c) in cols.iter().enumerate().take(S::BOX) {
                let mine = c & only;
                if mine != 0 {
                    // The boxes those columns cross, less the columns themselves.
                    let in_boxes = S::box_columns(S::occupancy(mine));
                    self.dirty |= self.clear(S::N * b + d, Self::columns(in_boxes & !mine));
                }
            }
        }
        Ok(())
    }

    /// Applies every rule until none applies; the column rule only when `columns` is set.
    /// Kept out of line: once the start state took fewer steps, the compiler inlined it
    /// into the search, and 17-clue counts, forum-hardest counts and 55-hole digs came 1–2%
    /// slower.
    #[inline(never)]
    pub(super) fn propagate(&mut self, columns: bool) -> Result<(), Unsolvable> {
        loop {
            self.settle()?;
            if self.solved() {
                return Ok(());
            }
            if self.naked_singles()? {
                continue;
            }
            if columns {
                self.columns_rule()?;
            }
            if self.dirty == 0 {
                return Ok(());
            }
        }
    }

    /// True when every cell is placed.
    #[inline]
    pub(super) fn solved(&self) -> bool {
        self.open == [0; 4]
    }

    /// The grid of a solved state.
    pub(super) fn grid(&self) -> Grid<S> {
        let mut grid = Grid::empty();
        for i in 0..Self::WIDTH {
            let (b, d) = (i / S::N, i % S::N);
            let mut cells = self.cand[i];
            while cells != 0 {
                let at = cells.trailing_zeros() as usize;
                cells &= cells - 1;
                grid.set(Self::WIDTH * b + at, d as Digit + 1);
            }
        }
        grid
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{Nine, Sixteen};
    /// `columns` and `fold_distinct` against the shifts they replace: every column set, and
    /// cells drawn one to a row, each row from a box of its own, as a band update's lone
    /// rows are.
    fn multiplies_match_shifts<S: Banded>() {
        use rand::Rng;
        let mut rng = crate::rng::attempt_rng(3, S::N as u64);
        let by_shifts = |cols: u64| (0..S::BOX).fold(0, |cells, r| cells | cols << (S::N * r));
        for cols in 0..1u64 << S::N {
            assert_eq!(State::<S>::columns(cols), by_shifts(cols));
        }
        for _ in 0..10_000 {
            let mut boxes: Vec<usize> = (0..S::BOX).collect();
            crate::rng::shuffle(&mut rng, &mut boxes);
            let mut cells = 0;
            for (r, &j) in boxes.iter().enumerate() {
                if rng.random_bool(0.5) {
                    let col = S::BOX * j + rng.random_range(0..S::BOX);
                    cells |= 1 << (S::N * r + col);
                }
            }
            assert_eq!(State::<S>::fold_distinct(cells), State::<S>::fold(cells));
        }
    }

    #[test]
    fn column_multiplies_match_the_shifts() {
        multiplies_match_shifts::<Nine>();
        multiplies_match_shifts::<Sixteen>();
    }
}
