//! The band engine for 9×9 and 16×16: candidates held digit by digit, band by band, in the
//! manner of JCZSolve.
//!
//! A *band* is a row of boxes: `BOX` rows of the grid. For each digit and each band one `u64`
//! holds the cells of the band where the digit may still go, bit `N·r + c` for row `r` of the
//! band and column `c` (27 bits on 9×9, all 64 on 16×16). Within a band a digit fills one cell
//! in each row and in each box, so the rows' choice of box is a permutation. Folding a band to
//! its row-by-box occupancy and looking the occupancy up in a table of what those permutations
//! allow ([`Banded::allowed`]) applies, in one step, hidden singles in the band's rows and boxes
//! and the band's pointing and claiming eliminations. A row left with one cell places the digit
//! there: its column is cleared in the other bands and the other digits are cleared from the
//! cell. A column rule finds digits that a column allows in one band only; naked singles (cells
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
//! the start state from the clues builds all of them. On 16×16 a dig goes further: it has
//! the engine propagate, once, its puzzle less the next cells it will test, and each of
//! those tests places its few other clues on that state and propagates from there
//! ([`Engine::prepare_tests`]). [`Generic`](super::Generic) is the reference this engine is
//! tested against.

use std::fmt::Debug;
use std::ops::{Index, IndexMut};

use super::search::{Rules, Trail};
use super::{Ascending, Branching, CELL_WORDS, CellWords, Engine, Outcome, differences};
use crate::error::Unsolvable;
use crate::grid::{Digit, Grid};
use crate::shape::{Nine, Shape, Sixteen};

/// A size whose bands fit one `u64`: 9×9 and 16×16. Provides the two table lookups of the
/// band update; everything else is computed from `BOX` and `N`.
pub trait Banded: Shape {
    /// One `u64` per (band, digit) pair, band-major: `N · band + digit`.
    type Bands: Copy + Debug + Send + Sync + Index<usize, Output = u64> + IndexMut<usize>;

    /// Every (band, digit) entry set to `value`.
    fn bands(value: u64) -> Self::Bands;

    /// The band's row-by-box occupancy: bit `BOX·r + j` when row `r` of the band still has a
    /// candidate cell in box `j`.
    fn occupancy(band: u64) -> usize;

    /// The cells of a band a digit can still take given its occupancy: the union of the
    /// row-to-box permutations the occupancy fits, expanded to cells. 0 when none fits.
    fn allowed(occupancy: usize) -> u64;

    /// The other cells of the row and box of cell `at` of a band, and its column in the band.
    fn peers_in_band(at: usize) -> u64;

    /// The peers of `cell` (of the grid) in every band: its row, box and column in its own
    /// band, its column in the others.
    fn band_peers(cell: usize) -> &'static [u64; 4];

    /// Whether the size's searches are long enough to spend more on a branch to take fewer.
    /// Then counts and removal tests alike branch on the busiest of the cells with the
    /// fewest candidates (`State::busiest_of`) rather than, for counts, on one where the
    /// most cells are open and, for removal tests, on the first; and removal tests, like
    /// counts, place the other digit of a two-candidate branch cell in the alternative they
    /// save. On 16×16 minimal digs the busiest cell took 5.9% fewer instructions over eight
    /// seeds (from 17% fewer to 15% more, seed by seed: a few long removal tests weigh
    /// most), and counting the solutions of minimal puzzles 31% fewer (7% more for 150-hole
    /// ones, which barely branch); placing the other digit took 3.2% fewer again, fewer at
    /// every seed. On 9×9 the busiest cell took the forum-hardest puzzles from 100 branches
    /// each to 84 and 4.6% fewer instructions, yet 3% more time; the 17-clue puzzles 4%
    /// more instructions and 6% more time; 55-hole digs 10% more instructions.
    const LONG_SEARCHES: bool;

    /// Whether removal tests steered toward a known solution branch first on a cell, among
    /// those with the fewest candidates, that can no longer take the known solution's digit
    /// (`State::astray`), the busiest of them: the search then works where the second
    /// solution, if any, must differ. On 16×16 minimal digs it halves the branches of a
    /// removal that stands; on 9×9 the searches are short and the second solutions it finds
    /// make poorer unavoidable sets for the swaps: 60 holes came 25% slower.
    const STEER_TESTS: bool;

    /// [`Engine::PREPARED_CELLS`] for the size: whether removal tests begin from the
    /// propagated state of a puzzle that lacks the next cells a dig tests, and how many.
    /// A 16×16 dig to 150 holes then took 21% fewer instructions and came 34% faster
    /// (eight cells; four and sixteen did less); its minimal digs, where searches rather
    /// than their starts cost most, were level. On 9×9 a test's search costs about what
    /// propagating the base does, which then saved too little to pay for itself: 55-hole
    /// digs took 1.7% more instructions with eight cells, 2.3% more with four.
    const PREPARED_CELLS: usize;

    /// The columns of a set of boxes of a band (bit `j` for box `j`), as an `N`-bit row.
    fn box_columns(boxes: usize) -> u64;

    /// The rows of a band that hold exactly one cell, as cells. Every row of `band` holds a
    /// cell (as after [`Banded::allowed`], which leaves none empty or all empty). All rows at
    /// once, each an `N`-bit lane of one word.
    #[inline(always)]
    fn lone_rows(band: u64) -> u64 {
        let lanes = |bits: u64| (0..Self::BOX).fold(0, |all, r| all | bits << (Self::N * r));
        let (ones, low) = (lanes(1), lanes(low_bits(Self::N - 1)));
        // Each row less its first cell: no row borrows from the next, as none is empty.
        let rest = band & band.wrapping_sub(ones);
        // The top bit of each row whose rest holds a cell; the sums stay inside their rows.
        let more = (((rest & low) + low) | rest) & lanes(1 << (Self::N - 1));
        // Bit 0 of each row with one cell, spread over the row.
        let one = (more ^ lanes(1 << (Self::N - 1))) >> (Self::N - 1);
        band & one.wrapping_mul(low_bits(Self::N))
    }
}

/// For every `B`×`B` occupancy (bit `B·r + j`), the union of the row-to-box permutations
/// inside it: 0 when there is none.
const fn allowed_patterns<const B: usize, const LEN: usize>() -> [u16; LEN] {
    // The permutations of B rows onto B boxes, as patterns.
    let mut perms = [0u16; 24];
    let mut count = 0;
    let mut map = 0;
    let mut maps = 1;
    let mut k = 0;
    while k < B {
        maps *= B;
        k += 1;
    }
    while map < maps {
        let (mut rest, mut boxes, mut pattern, mut row) = (map, 0u32, 0u16, 0);
        while row < B {
            let j = rest % B;
            rest /= B;
            boxes |= 1 << j;
            pattern |= 1 << (B * row + j);
            row += 1;
        }
        if boxes == (1 << B) - 1 {
            perms[count] = pattern;
            count += 1;
        }
        map += 1;
    }
    let mut table = [0u16; LEN];
    let mut occupancy = 0;
    while occupancy < LEN {
        let mut p = 0;
        while p < count {
            if perms[p] as usize & !occupancy == 0 {
                table[occupancy] |= perms[p];
            }
            p += 1;
        }
        occupancy += 1;
    }
    table
}

/// For every `N`-bit band row (`N = B²`), which of its `B` boxes hold a cell.
const fn boxes_of_row<const B: usize, const LEN: usize>() -> [u8; LEN] {
    let mut table = [0u8; LEN];
    let mut row = 0;
    while row < LEN {
        let mut j = 0;
        while j < B {
            if row >> (B * j) & ((1 << B) - 1) != 0 {
                table[row] |= 1 << j;
            }
            j += 1;
        }
        row += 1;
    }
    table
}

/// For each cell of a band of box side `B`, the other cells of its row and box in the band,
/// and its column in the band.
const fn peers_in_band<const B: usize, const LEN: usize>() -> [u64; LEN] {
    let n = B * B;
    let mut table = [0u64; LEN];
    let mut cell = 0;
    while cell < LEN {
        let (row, col) = (cell / n, cell % n);
        let mut other = 0;
        while other < LEN {
            let (r, c) = (other / n, other % n);
            if other != cell && (r == row || c == col || c / B == col / B) {
                table[cell] |= 1 << other;
            }
            other += 1;
        }
        cell += 1;
    }
    table
}

/// A `B`×`B` row-by-box pattern expanded to the cells of a band.
const fn expand<const B: usize>(pattern: u16) -> u64 {
    let mut cells = 0u64;
    let mut at = 0;
    while at < B * B {
        if pattern >> at & 1 != 0 {
            let (row, j) = (at / B, at % B);
            cells |= ((1 << B) - 1) << (B * B * row + B * j);
        }
        at += 1;
    }
    cells
}

/// For each cell of a grid of box side `B`, its peers band by band (see
/// [`Banded::band_peers`]): its peers in its own band, its column in the others.
const fn band_peers<const B: usize, const WIDTH: usize, const CELLS: usize>() -> [[u64; 4]; CELLS] {
    let n = B * B;
    let in_band = peers_in_band::<B, WIDTH>();
    let mut table = [[0u64; 4]; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let (band, at) = (cell / WIDTH, cell % WIDTH);
        let mut other = 0;
        while other < B {
            table[cell][other] = if other == band {
                in_band[at]
            } else {
                // The cell's column, in every row of the other band.
                let mut column = 0;
                let mut r = 0;
                while r < B {
                    column |= 1 << (n * r + at % n);
                    r += 1;
                }
                column
            };
            other += 1;
        }
        cell += 1;
    }
    table
}

static PEERS_IN_BAND_3: [u64; 27] = peers_in_band::<3, 27>();
static PEERS_IN_BAND_4: [u64; 64] = peers_in_band::<4, 64>();
static BAND_PEERS_3: [[u64; 4]; 81] = band_peers::<3, 27, 81>();
static BAND_PEERS_4: [[u64; 4]; 256] = band_peers::<4, 64, 256>();
static BOXES_OF_ROW_3: [u8; 1 << 9] = boxes_of_row::<3, { 1 << 9 }>();
static BOXES_OF_ROW_4: [u8; 1 << 16] = boxes_of_row::<4, { 1 << 16 }>();
/// 9×9 keeps its allowed cells expanded: 512 entries.
static ALLOWED_CELLS_3: [u64; 1 << 9] = {
    let patterns = allowed_patterns::<3, { 1 << 9 }>();
    let mut table = [0u64; 1 << 9];
    let mut occupancy = 0;
    while occupancy < 1 << 9 {
        table[occupancy] = expand::<3>(patterns[occupancy]);
        occupancy += 1;
    }
    table
};
/// 16×16 keeps its allowed cells expanded too: 65,536 entries, 512 KiB, one lookup where
/// a table of patterns took five (7.9% fewer instructions in a 16×16 dig). Building it at
/// compile time takes long enough to trip the lint.
#[allow(long_running_const_eval)]
static ALLOWED_CELLS_4: [u64; 1 << 16] = {
    let patterns = allowed_patterns::<4, { 1 << 16 }>();
    let rows = expand_row::<4, 16>();
    let mut table = [0u64; 1 << 16];
    let mut occupancy = 0;
    while occupancy < 1 << 16 {
        let p = patterns[occupancy] as usize;
        table[occupancy] = rows[p & 0xF]
            | rows[p >> 4 & 0xF] << 16
            | rows[p >> 8 & 0xF] << 32
            | rows[p >> 12 & 0xF] << 48;
        occupancy += 1;
    }
    table
};
/// A row's boxes (`B` bits) expanded to the row's cells.
const fn expand_row<const B: usize, const LEN: usize>() -> [u64; LEN] {
    let mut table = [0u64; LEN];
    let mut bits = 0;
    while bits < LEN {
        table[bits] = expand::<B>(bits as u16);
        bits += 1;
    }
    table
}
static EXPAND_ROW_3: [u64; 8] = expand_row::<3, 8>();
static EXPAND_ROW_4: [u64; 16] = expand_row::<4, 16>();

impl Banded for Nine {
    type Bands = [u64; 27];
    const LONG_SEARCHES: bool = false;
    const STEER_TESTS: bool = false;
    const PREPARED_CELLS: usize = 0;

    fn bands(value: u64) -> Self::Bands {
        [value; 27]
    }

    #[inline(always)]
    fn occupancy(band: u64) -> usize {
        let row = |r: usize| BOXES_OF_ROW_3[(band >> (9 * r) & 0x1FF) as usize] as usize;
        row(0) | row(1) << 3 | row(2) << 6
    }

    #[inline(always)]
    fn allowed(occupancy: usize) -> u64 {
        ALLOWED_CELLS_3[occupancy]
    }

    #[inline(always)]
    fn peers_in_band(at: usize) -> u64 {
        PEERS_IN_BAND_3[at]
    }

    #[inline(always)]
    fn band_peers(cell: usize) -> &'static [u64; 4] {
        &BAND_PEERS_3[cell]
    }

    #[inline(always)]
    fn box_columns(boxes: usize) -> u64 {
        EXPAND_ROW_3[boxes]
    }
}

impl Banded for Sixteen {
    type Bands = [u64; 64];
    const LONG_SEARCHES: bool = true;
    const STEER_TESTS: bool = true;
    const PREPARED_CELLS: usize = 8;

    fn bands(value: u64) -> Self::Bands {
        [value; 64]
    }

    #[inline(always)]
    fn occupancy(band: u64) -> usize {
        let row = |r: usize| BOXES_OF_ROW_4[(band >> (16 * r) & 0xFFFF) as usize] as usize;
        row(0) | row(1) << 4 | row(2) << 8 | row(3) << 12
    }

    #[inline(always)]
    fn allowed(occupancy: usize) -> u64 {
        ALLOWED_CELLS_4[occupancy]
    }

    #[inline(always)]
    fn peers_in_band(at: usize) -> u64 {
        PEERS_IN_BAND_4[at]
    }

    #[inline(always)]
    fn band_peers(cell: usize) -> &'static [u64; 4] {
        &BAND_PEERS_4[cell]
    }

    #[inline(always)]
    fn box_columns(boxes: usize) -> u64 {
        EXPAND_ROW_4[boxes]
    }
}

/// A mask of the `bits` lowest bits (`bits ≤ 64`).
const fn low_bits(bits: usize) -> u64 {
    if bits == 64 {
        u64::MAX
    } else {
        (1 << bits) - 1
    }
}

/// A search state: where each digit may go, and which cells are still open.
struct State<S: Banded> {
    /// Bit `N·r + c` of `cand[N·b + d]`: digit `d + 1` may go in row `BOX·b + r`, column `c`.
    cand: S::Bands,
    /// Open cells of each band (the first `BOX` entries are used).
    open: [u64; 4],
    /// (band, digit) entries changed since they were last recomputed.
    dirty: u64,
    /// Digits (bit `d` for digit `d + 1`) whose entries were recomputed since the column
    /// rule last looked at them.
    unruled: u32,
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
    const WIDTH: usize = S::BOX * S::N;
    /// The cells of one band row.
    const ROW: u64 = low_bits(S::N);

    /// Every digit possible everywhere.
    fn empty() -> Self {
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

    /// The cells of a band in the columns of an `N`-bit column set, in every row.
    #[inline(always)]
    fn columns(cols: u64) -> u64 {
        (0..S::BOX).fold(0, |cells, r| cells | cols << (S::N * r))
    }

    /// The columns of a band that hold a cell.
    #[inline(always)]
    fn fold(band: u64) -> u64 {
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
    fn digits_of(&self, cell: usize) -> u32 {
        let (b, at) = (cell / Self::WIDTH, cell % Self::WIDTH);
        (0..S::N).fold(0, |mask, d| {
            mask | ((self.cand[S::N * b + d] >> at & 1) as u32) << d
        })
    }

    /// Puts digit `d + 1` in `cell`, which is open and still allows it: clears its row, box
    /// and column, and the other digits of the cell, marking the changed entries dirty.
    #[inline]
    fn place(&mut self, cell: usize, d: usize) {
        let (b, at) = (cell / Self::WIDTH, cell % Self::WIDTH);
        let bit = 1 << at;
        self.open[b] &= !bit;
        let col = Self::columns(1 << (at % S::N));
        let mut dirty = 0;
        for other in 0..S::BOX {
            if other != b {
                dirty |= self.clear(S::N * other + d, col);
            }
        }
        dirty |= self.clear(S::N * b + d, S::peers_in_band(at));
        self.dirty |= dirty | self.clear_others(b, d, bit);
    }

    /// Puts the clue `d + 1` in `cell` of a propagated state: places it if the cell is
    /// open, checks it if propagation placed it. False when the cell does not allow it.
    fn place_clue(&mut self, cell: usize, d: usize) -> bool {
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
    /// docs); returns the dirty bits of the entries that changed in turn.
    #[inline(always)]
    fn update(&mut self, b: usize, d: usize) -> Result<u64, Unsolvable> {
        let i = S::N * b + d;
        let cand = self.cand[i] & S::allowed(S::occupancy(self.cand[i]));
        if cand == 0 {
            return Err(Unsolvable);
        }
        self.cand[i] = cand;
        let placed = S::lone_rows(cand) & self.open[b];
        if placed == 0 {
            return Ok(0);
        }
        self.open[b] &= !placed;
        let col = Self::columns(Self::fold(placed));
        let mut dirty = 0;
        for other in 0..S::BOX {
            if other != b {
                dirty |= self.clear(S::N * other + d, col);
            }
        }
        Ok(dirty | self.clear_others(b, d, placed))
    }

    /// Recomputes changed entries until none changes, a band at a time: the code for each
    /// band is written out with the band a constant, and the rules reach the same state in
    /// any order. The dirty bits stay in a register meanwhile: kept in the state, each update
    /// waited for the last one's writes to them.
    #[inline]
    fn settle(&mut self) -> Result<(), Unsolvable> {
        let (mut dirty, mut unruled) = (self.dirty, 0);
        let mut settle = || {
            while dirty != 0 {
                // The banded sizes have three bands or four.
                self.settle_band(0, &mut dirty, &mut unruled)?;
                self.settle_band(1, &mut dirty, &mut unruled)?;
                self.settle_band(2, &mut dirty, &mut unruled)?;
                if S::BOX == 4 {
                    self.settle_band(3, &mut dirty, &mut unruled)?;
                }
            }
            Ok(())
        };
        let settled = settle();
        self.dirty = dirty;
        self.unruled |= unruled;
        settled
    }

    /// Recomputes band `b`'s dirty entries until none is left, adding the entries they
    /// change to `dirty` and their digits to `unruled`.
    #[inline(always)]
    fn settle_band(
        &mut self,
        b: usize,
        dirty: &mut u64,
        unruled: &mut u32,
    ) -> Result<(), Unsolvable> {
        let lane = low_bits(S::N) << (S::N * b);
        while *dirty & lane != 0 {
            let i = (*dirty & lane).trailing_zeros() as usize;
            *dirty &= !(1 << i);
            let d = i - S::N * b;
            *unruled |= 1 << d;
            *dirty |= self.update(b, d)?;
        }
        Ok(())
    }

    /// Places every naked single; fails on a cell with no digit left. Returns whether it
    /// placed anything.
    fn naked_singles(&mut self) -> Result<bool, Unsolvable> {
        let mut found = false;
        for b in 0..S::BOX {
            let open = self.open[b];
            if open == 0 {
                continue;
            }
            let (mut once, mut twice) = (0, 0);
            for d in 0..S::N {
                let cand = self.cand[S::N * b + d];
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
                let Some(d) = (0..S::N).find(|&d| self.cand[S::N * b + d] & bit != 0) else {
                    return Err(Unsolvable);
                };
                if self.open[b] & bit != 0 {
                    self.place(Self::WIDTH * b + at, d);
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
    fn propagate(&mut self, columns: bool) -> Result<(), Unsolvable> {
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
    fn solved(&self) -> bool {
        self.open == [0; 4]
    }

    /// The first open cell in row-major order (there is one).
    fn first_open(&self) -> usize {
        let b = (0..S::BOX)
            .find(|&b| self.open[b] != 0)
            .expect("an unsolved state has an open cell");
        b * Self::WIDTH + self.open[b].trailing_zeros() as usize
    }

    /// For every band, its open cells with the fewest candidates (propagation leaves every
    /// open cell two or more). Cells with exactly two, the usual answer, are found for a
    /// whole band at once from which digits a cell holds once, twice and three times;
    /// failing those, candidates are counted in five bit planes (counts up to 31).
    fn fewest(&self) -> [u64; 4] {
        let mut pairs = [0u64; 4];
        for (b, pairs) in pairs.iter_mut().enumerate().take(S::BOX) {
            let (mut once, mut twice, mut thrice) = (0, 0, 0);
            for d in 0..S::N {
                let cand = self.cand[S::N * b + d];
                thrice |= twice & cand;
                twice |= once & cand;
                once |= cand;
            }
            *pairs = self.open[b] & twice & !thrice;
        }
        if pairs != [0; 4] {
            return pairs;
        }
        let mut planes = [[0u64; 5]; 4];
        for (b, planes) in planes.iter_mut().enumerate().take(S::BOX) {
            for d in 0..S::N {
                let mut carry = self.cand[S::N * b + d];
                for plane in planes.iter_mut() {
                    let next = *plane & carry;
                    *plane ^= carry;
                    carry = next;
                }
            }
        }
        let mut cells = [0u64; 4];
        for count in 3..=S::N {
            for (b, planes) in planes.iter().enumerate().take(S::BOX) {
                cells[b] = planes
                    .iter()
                    .enumerate()
                    .fold(self.open[b], |cells, (k, &p)| {
                        cells & if count >> k & 1 != 0 { p } else { !p }
                    });
            }
            if cells != [0; 4] {
                return cells;
            }
        }
        self.open
    }

    /// The first of `cells` (per band) in row-major order; 0 when there is none.
    fn first_of(cells: [u64; 4]) -> usize {
        (0..S::BOX)
            .find(|&b| cells[b] != 0)
            .map_or(0, |b| Self::WIDTH * b + cells[b].trailing_zeros() as usize)
    }

    /// An open cell with the fewest candidates in the box whose band and stack have the
    /// most open cells between them (the first such box, and its first such cell): a digit
    /// placed there bears on the most open cells, since its row lies in the band and its
    /// column in the stack.
    fn spread_of(&self, cells: [u64; 4]) -> usize {
        let stack = |j: usize| Self::columns(S::box_columns(1 << j));
        let mut stack_open = [0u32; 4];
        for (j, open) in stack_open.iter_mut().enumerate().take(S::BOX) {
            *open = (0..S::BOX)
                .map(|b| (self.open[b] & stack(j)).count_ones())
                .sum();
        }
        let (mut best, mut most) = (0, 0);
        for (b, &cells) in cells.iter().enumerate().take(S::BOX) {
            if cells == 0 {
                continue;
            }
            let band_open = self.open[b].count_ones();
            for (j, &stack_open) in stack_open.iter().enumerate().take(S::BOX) {
                let here = cells & stack(j);
                if here != 0 && band_open + stack_open > most {
                    most = band_open + stack_open;
                    best = Self::WIDTH * b + here.trailing_zeros() as usize;
                }
            }
        }
        best
    }

    /// Of `cells` (per band), the one whose digits bear on the most candidates: for each of
    /// its digits, the number of its peers that still allow that digit, multiplied together
    /// (saturating). Every branch of the cell clears its digit from those peers, so this
    /// favours cells where each branch prunes much, and equally: against their sum, the
    /// product took 4% fewer instructions for a 16×16 minimal dig. The first such cell on
    /// a tie.
    fn busiest_of(&self, cells: [u64; 4]) -> usize {
        let (mut best, mut most) = (Self::first_of(cells), 0);
        // The score of each cell of the band at hand, by its place in the band.
        let mut scores = [1u32; 64];
        for (b, &cells) in cells.iter().enumerate().take(S::BOX) {
            if cells == 0 {
                continue;
            }
            // The digits some of the cells hold, found without a branch per digit.
            let mut digits = (0..S::N).fold(0u32, |digits, d| {
                digits | ((self.cand[S::N * b + d] & cells != 0) as u32) << d
            });
            while digits != 0 {
                let d = digits.trailing_zeros() as usize;
                digits &= digits - 1;
                let mut holding = self.cand[S::N * b + d] & cells;
                while holding != 0 {
                    let at = holding.trailing_zeros() as usize;
                    holding &= holding - 1;
                    let peers = S::band_peers(Self::WIDTH * b + at);
                    let seen: u32 = (0..S::BOX)
                        .map(|o| (self.cand[S::N * o + d] & peers[o]).count_ones())
                        .sum();
                    scores[at] = scores[at].saturating_mul(seen);
                }
            }
            let mut rest = cells;
            while rest != 0 {
                let at = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                if scores[at] > most {
                    most = scores[at];
                    best = Self::WIDTH * b + at;
                }
                scores[at] = 1;
            }
        }
        best
    }

    /// Those of `cells` (per band) that can no longer take the digit `known` has there
    /// (`known` as [`Known::cells`]).
    fn astray(&self, known: &S::Bands, mut cells: [u64; 4]) -> [u64; 4] {
        for (b, cells) in cells.iter_mut().enumerate().take(S::BOX) {
            let kept = (0..S::N).fold(0, |kept, d| {
                kept | self.cand[S::N * b + d] & known[S::N * b + d]
            });
            *cells &= !kept;
        }
        cells
    }

    /// The grid of a solved state.
    fn grid(&self) -> Grid<S> {
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

/// A puzzle's start state ([`Bands::start`]) with what it was built from, kept so that the
/// next removal test can begin from it: a dig's tests come a few clues apart, and changing
/// a clue rebuilds one digit's entries where a start builds them all.
#[derive(Clone, Copy, Debug)]
struct Started<S: Banded> {
    puzzle: Grid<S>,
    holding: Holding,
    state: State<S>,
}

/// Per band, the cells holding each digit (index 0: the empty cells).
type Holding = [[u64; 17]; 4];

impl<S: Banded> Started<S> {
    /// The start state of `puzzle`; fails as [`Bands::start`] does.
    fn new(puzzle: &Grid<S>) -> Result<Self, Unsolvable> {
        let holding = Bands::holding(puzzle);
        let state = Bands::start_from(&holding)?;
        Ok(Started {
            puzzle: *puzzle,
            holding,
            state,
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
        // Copied straight into the stack's buffer: one copy of the state, not two.
        stack.extend_from_slice(std::slice::from_ref(state));
        if let Some(rest) = stack.last_mut() {
            // A count comes back to almost every alternative (it stops only at its limit),
            // so the other digit of a two-candidate cell is placed in it at once; waiting
            // took a pass of propagation to find it as a naked single. A 9×9 removal test
            // often stops at its first solution and never comes back: there it waits (at
            // once, 55-hole and minimal digs took 1.5% and 2.3% more instructions). Long
            // 16×16 removal tests come back as counts do.
            let others = digits & !chosen;
            let eager = self.mode == Mode::Count || self.mode == Mode::Test && S::LONG_SEARCHES;
            if eager && others.is_power_of_two() {
                rest.place(cell, others.trailing_zeros() as usize);
            } else {
                rest.cand[i] &= !(1 << (cell % width));
                rest.dirty |= 1 << i;
            }
        }
        state.place(cell, d);
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
    /// The state with every clue of `puzzle` placed, not yet propagated; fails when two
    /// clues of one digit share a unit. Sorts the cells by digit in one pass, then builds
    /// each entry from its digit's clues at once (the rows and boxes they hold in the band,
    /// their columns in every band, and the other digits' clues are cleared), giving what
    /// placing the clues one by one would. Clashes show as clues that share a column, row
    /// or box counted once.
    fn start(puzzle: &Grid<S>) -> Result<State<S>, Unsolvable> {
        Self::start_from(&Self::holding(puzzle))
    }

    /// The cells of `puzzle` by band and digit.
    fn holding(puzzle: &Grid<S>) -> Holding {
        let mut holding = [[0u64; 17]; 4];
        let width = State::<S>::WIDTH;
        for (band, digits) in holding.iter_mut().zip(puzzle.digits().chunks_exact(width)) {
            for (at, &digit) in digits.iter().enumerate() {
                band[digit as usize] |= 1 << at;
            }
        }
        holding
    }

    /// [`Bands::start`] from the puzzle's cells by band and digit.
    fn start_from(holding: &Holding) -> Result<State<S>, Unsolvable> {
        let mut state = State::<S>::empty();
        for d in 0..S::N {
            Self::build_digit(&mut state, holding, d)?;
        }
        for (b, band) in holding.iter().enumerate().take(S::BOX) {
            state.open[b] = band[0];
        }
        Ok(state)
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
    fn start_kept(&mut self, puzzle: &Grid<S>) -> Result<State<S>, Unsolvable> {
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
    fn start_from_base(
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

    const PREPARED_CELLS: usize = S::PREPARED_CELLS;

    fn prepare_tests(&mut self, base: &Grid<S>) {
        self.base = Self::start(base).ok().and_then(|mut state| {
            state.propagate(true).ok()?;
            Some((*base, state))
        });
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
        let Some(solved) = self.trail.first else {
            return differences(&self.solution(), grid);
        };
        self.know(Some(grid.digits()));
        let Some(known) = &self.known else {
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

    /// The rows holding one cell, one row at a time: what `lone_rows` gives.
    fn lone_rows_one_by_one<S: Banded>(band: u64) -> u64 {
        (0..S::BOX).fold(0, |lone, r| {
            let row = band >> (S::N * r) & low_bits(S::N);
            lone | if row.count_ones() == 1 {
                row << (S::N * r)
            } else {
                0
            }
        })
    }

    #[test]
    fn lone_rows_take_rows_of_one_cell() {
        let mut rng = crate::rng::attempt_rng(3, 0);
        for _ in 0..20_000 {
            // Sparse bands, so that rows of one cell are common; every row keeps a cell.
            let band = (0..3).fold(u64::MAX, |b, _| b & rand::RngCore::next_u64(&mut rng));
            for (n, rows) in [(9, 3), (16, 4)] {
                let mut band = band & low_bits(n * rows);
                for r in 0..rows {
                    if band >> (n * r) & low_bits(n) == 0 {
                        band |= 1 << (n * r + r);
                    }
                }
                if n == 9 {
                    assert_eq!(Nine::lone_rows(band), lone_rows_one_by_one::<Nine>(band));
                } else {
                    assert_eq!(
                        Sixteen::lone_rows(band),
                        lone_rows_one_by_one::<Sixteen>(band),
                        "{band:#x}"
                    );
                }
            }
        }
    }

    /// The start states two ways are the same, entry for entry.
    fn same<S: Banded>(a: &State<S>, b: &State<S>) -> bool {
        let entries = S::N * S::BOX;
        (0..entries).all(|i| a.cand[i] == b.cand[i])
            && a.open[..S::BOX] == b.open[..S::BOX]
            && (a.dirty, a.unruled) == (b.dirty, b.unruled)
    }

    /// A complete grid: the first one the engine fills in ascending order.
    fn a_grid<S: Banded>() -> Grid<S> {
        let mut engine = Bands::<S>::new();
        engine.complete(&Grid::empty(), u64::MAX, &mut Ascending);
        engine.solution()
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

    /// `astray` against a cell-by-cell look, on propagated states of a grid with random
    /// holes (some of them given another clue, so that cells lose the grid's digit).
    /// The busiest cell, scored one cell at a time from its digits and its peers (as
    /// [`Shape::peers`] lists them): the highest score, the first cell on a tie.
    fn busiest_one_by_one<S: Banded>(state: &State<S>, cells: [u64; 4]) -> usize {
        let width = State::<S>::WIDTH;
        let listed = |cell: usize| cells[cell / width] >> (cell % width) & 1 != 0;
        let score = |cell: usize| {
            let digits = state.digits_of(cell);
            (0..S::N)
                .filter(|&d| digits >> d & 1 != 0)
                .map(|d| {
                    S::peers(cell)
                        .iter()
                        .filter(|&&p| state.digits_of(p as usize) >> d & 1 != 0)
                        .count() as u32
                })
                .fold(1u32, u32::saturating_mul)
        };
        let first = (0..S::CELLS).find(|&cell| listed(cell)).unwrap_or(0);
        (0..S::CELLS)
            .filter(|&cell| listed(cell))
            .fold((first, 0), |(best, most), cell| {
                let here = score(cell);
                if here > most {
                    (cell, here)
                } else {
                    (best, most)
                }
            })
            .0
    }

    /// On states part way through a search, the busiest of the cells with the fewest
    /// candidates, and of all open cells, is the one a cell-by-cell count picks.
    fn busiest_cells_score_highest<S: Banded>() {
        use rand::Rng;
        let mut rng = crate::rng::attempt_rng(11, S::N as u64);
        let solution = a_grid::<S>();
        let mut states = 0;
        for _ in 0..200 {
            let mut puzzle = solution;
            for _ in 0..rng.random_range(S::CELLS / 2..S::CELLS) {
                puzzle.set(rng.random_range(0..S::CELLS), 0);
            }
            let Ok(mut state) = Bands::start(&puzzle) else {
                continue;
            };
            if state.propagate(true).is_err() || state.solved() {
                continue;
            }
            for cells in [state.fewest(), state.open] {
                assert_eq!(state.busiest_of(cells), busiest_one_by_one(&state, cells));
            }
            states += 1;
        }
        assert!(states > 50, "only {states} open states");
    }

    fn astray_cells_lost_the_known_digit<S: Banded>() {
        use rand::Rng;
        let mut rng = crate::rng::attempt_rng(7, S::N as u64);
        let solution = a_grid::<S>();
        let known = Known::new(solution);
        let mut astray_cells = 0;
        for _ in 0..200 {
            let mut puzzle = solution;
            for _ in 0..rng.random_range(S::CELLS / 2..S::CELLS) {
                puzzle.set(rng.random_range(0..S::CELLS), 0);
            }
            let cell = rng.random_range(0..S::CELLS);
            puzzle.set(cell, rng.random_range(1..=S::N as Digit));
            let Ok(mut state) = Bands::start(&puzzle) else {
                continue;
            };
            if state.propagate(true).is_err() {
                continue;
            }
            let astray = state.astray(&known.cells, state.open);
            for cell in 0..S::CELLS {
                let (b, at) = (cell / State::<S>::WIDTH, cell % State::<S>::WIDTH);
                let lost = state.digits_of(cell) >> (solution.get(cell) - 1) & 1 == 0;
                let open = state.open[b] >> at & 1 != 0;
                assert_eq!(astray[b] >> at & 1 != 0, open && lost, "cell {cell}");
                astray_cells += (open && lost) as usize;
            }
        }
        assert!(astray_cells > 0, "no open cell lost its digit");
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
    fn differences_come_from_the_masks() {
        differences_from_masks::<Nine>();
        differences_from_masks::<Sixteen>();
    }

    #[test]
    fn busiest_cells_are_those_a_cell_by_cell_count_picks() {
        busiest_cells_score_highest::<Nine>();
        busiest_cells_score_highest::<Sixteen>();
    }

    #[test]
    fn astray_cells_are_those_that_lost_the_known_digit() {
        astray_cells_lost_the_known_digit::<Nine>();
        astray_cells_lost_the_known_digit::<Sixteen>();
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

    #[test]
    fn tables() {
        // A full band allows every cell; one row empty allows nothing.
        assert_eq!(Nine::allowed(0o777), (1 << 27) - 1);
        assert_eq!(Nine::allowed(0o077), 0);
        // Row 0 only in box 0 forces boxes 1 and 2 onto rows 1 and 2.
        assert_eq!(Nine::allowed(0o771), 0o7 | 0o770 << 9 | 0o770 << 18);
        assert_eq!(Nine::occupancy(0b100_000_001), 0b101);
        assert_eq!(Sixteen::allowed(0xFFFF), u64::MAX);
        assert_eq!(Sixteen::allowed(0x0FFF), 0);
        // Rows 0 and 1 both only in box 0: no permutation fits.
        assert_eq!(Sixteen::allowed(0xFF11), 0);
        assert_eq!(Sixteen::occupancy(0x8001 << 16), 0b1001 << 4);
        assert_eq!(
            Nine::lone_rows(0b1000 | 0b11 << 9 | 0b1 << 26),
            0b1000 | 0b1 << 26
        );
        assert_eq!(
            Sixteen::lone_rows(0b11 | 0b1 << 20 | 0x8001 << 32 | 0x8000 << 48),
            0b1 << 20 | 0x8000 << 48
        );
        assert_eq!(Nine::peers_in_band(0).count_ones(), 8 + 2 + 4);
        assert_eq!(Sixteen::peers_in_band(63).count_ones(), 15 + 3 + 9);
        // Every cell's peers, band by band, are those the shape lists.
        fn band_peers_listed<S: Banded>() {
            let width = State::<S>::WIDTH;
            for cell in 0..S::CELLS {
                let mut listed = [0u64; 4];
                for &p in S::peers(cell) {
                    listed[p as usize / width] |= 1 << (p as usize % width);
                }
                assert_eq!(S::band_peers(cell), &listed, "cell {cell}");
            }
        }
        band_peers_listed::<Nine>();
        band_peers_listed::<Sixteen>();
    }
}
