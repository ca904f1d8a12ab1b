//! Unavoidable sets: cells of a grid that some other grid fills with the same digits in
//! another arrangement, so that a puzzle needs a clue among them. A dig remembers those its
//! searches reveal and, before it starts, small ones on two lines (and for deep 9×9 digs,
//! of two digits), and settles removals and swaps with them without a search.

use rand::RngCore;

use super::{Digger, REMEMBERED_SETS};
use crate::grid::Grid;
use crate::rng::below;
use crate::shape::Shape;
use crate::solver::{CELL_WORDS, low_bits};

/// The longest cycle of two lines' digits remembered as an unavoidable set before a dig
/// starts (`a b / b a` is a cycle of 2 columns): 4 columns, 8 cells. Cycles of 3 and 4 made
/// 9×9 digs at 55 holes about 5% faster than rectangles alone; longer ones, nothing more.
const TWO_LINE_CYCLES: usize = 4;

/// The most rows a two-digit unavoidable set remembered before a dig to `holes` holes
/// spans: 4 on 9×9 from 54 holes on, where these sets spare about one removal test in
/// sixteen (sets of up to 3 or 5 rows spared fewer instructions in all); none on other sizes
/// and shallower digs, where building them cost more than the searches they spared (level at
/// 53 holes).
const fn two_digit_rows<S: Shape>(holes: usize) -> usize {
    if S::BOX == 3 && holes >= 54 { 4 } else { 0 }
}

/// 64-bit words in a [`CellSet`]: room for the 625 cells of 25×25.
const WORDS: usize = CELL_WORDS;

/// A set of cells, one bit each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct CellSet(pub(super) [u64; WORDS]);

impl CellSet {
    /// The cells `0..cells`, a word at a time.
    pub(super) fn first(cells: usize) -> Self {
        let mut set = CellSet::default();
        for (w, word) in set.0.iter_mut().enumerate() {
            *word = low_bits(cells.saturating_sub(64 * w).min(64));
        }
        set
    }

    #[inline(always)]
    pub(super) fn insert(&mut self, cell: usize) {
        self.0[cell / 64] |= 1 << (cell % 64);
    }

    /// Inserts the cells `start + k` for each bit `k` of `bits`.
    #[inline(always)]
    pub(super) fn insert_run(&mut self, start: usize, bits: u64) {
        let (w, shift) = (start / 64, start % 64);
        self.0[w] |= bits << shift;
        if shift != 0 && w + 1 < WORDS {
            self.0[w + 1] |= bits >> (64 - shift);
        }
    }

    #[inline(always)]
    pub(super) fn remove(&mut self, cell: usize) {
        self.0[cell / 64] &= !(1 << (cell % 64));
    }

    #[inline(always)]
    pub(super) fn contains(&self, cell: usize) -> bool {
        self.0[cell / 64] >> (cell % 64) & 1 != 0
    }

    /// True when `self ∩ other` is exactly `{cell}` (`cell` in both).
    #[inline(always)]
    pub(super) fn meets_only_at(&self, other: &CellSet, cell: usize, words: usize) -> bool {
        let mut only = CellSet::default();
        only.insert(cell);
        (0..words).all(|w| self.0[w] & other.0[w] == only.0[w])
    }

    /// The cells in both sets.
    #[inline(always)]
    pub(super) fn and(mut self, other: &CellSet) -> CellSet {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a &= b;
        }
        self
    }

    pub(super) fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// How many cells the set holds.
    pub(super) fn len(&self, words: usize) -> usize {
        self.0[..words]
            .iter()
            .map(|w| w.count_ones() as usize)
            .sum()
    }

    /// The `k`-th cell of the set in increasing order (`k < len`).
    pub(super) fn nth(&self, mut k: usize, words: usize) -> usize {
        for (w, &word) in self.0[..words].iter().enumerate() {
            let ones = word.count_ones() as usize;
            if k < ones {
                let mut word = word;
                for _ in 0..k {
                    word &= word - 1;
                }
                return 64 * w + word.trailing_zeros() as usize;
            }
            k -= ones;
        }
        unreachable!("nth past the end of a cell set")
    }

    /// A cell of the set drawn uniformly from `rng` (the set is not empty).
    pub(super) fn pick<R: RngCore>(&self, rng: &mut R, words: usize) -> usize {
        self.nth(below(rng, self.len(words) as u32) as usize, words)
    }
}

impl<S: Shape> Digger<S> {
    /// Forgets the remembered sets, to dig `solution` to `holes` holes, and remembers its
    /// small unavoidable sets on two lines and, for deep 9×9 digs, those of two digits too.
    pub(super) fn forget(&mut self, solution: &Grid<S>, holes: usize) {
        self.found = 0;
        self.grid = *solution;
        self.remember_two_line_sets(solution, TWO_LINE_CYCLES);
        self.remember_two_digit_sets(solution, two_digit_rows::<S>(holes));
    }

    /// Remembers the unavoidable sets of two digits on three rows or more (those on two rows
    /// are two-line sets): rows whose two digits can swap places, keeping every row, column
    /// and box whole. Where one row swaps `a` and `b`, the column of its `a` must give up
    /// its `b`, so the row holding that `b` swaps too: the rows that swap are a cycle of
    /// that step, or several. Cycles of up to `max_rows` rows whose every box holds both
    /// digits or neither are remembered, two cells a row.
    fn remember_two_digit_sets(&mut self, solution: &Grid<S>, max_rows: usize) {
        if max_rows < 3 {
            return;
        }
        let n = S::N;
        // For each digit, the row that holds it in each column, and the column that holds
        // it in each row.
        let mut row_in_col = [[0u8; 25]; 26];
        let mut col_in_row = [[0u8; 25]; 26];
        for (row, line) in solution.digits().chunks_exact(n).enumerate() {
            for (col, &d) in line.iter().enumerate() {
                row_in_col[d as usize][col] = row as u8;
                col_in_row[d as usize][row] = col as u8;
            }
        }
        for a in 1..=n {
            for b in a + 1..=n {
                // Rows not yet on a cycle.
                let mut unseen = (1u32 << n) - 1;
                while unseen != 0 {
                    let start = unseen.trailing_zeros() as usize;
                    let (mut rows, mut row) = (0u32, start);
                    loop {
                        rows |= 1 << row;
                        row = row_in_col[b][col_in_row[a][row] as usize] as usize;
                        if row == start {
                            break;
                        }
                    }
                    unseen &= !rows;
                    if !(3..=max_rows).contains(&(rows.count_ones() as usize)) {
                        continue;
                    }
                    // Each box the cycle's cells touch must hold two of them.
                    let (mut boxes_a, mut boxes_b) = (0u32, 0u32);
                    let mut set = CellSet::default();
                    let mut left = rows;
                    while left != 0 {
                        let row = left.trailing_zeros() as usize;
                        left &= left - 1;
                        let (ca, cb) = (col_in_row[a][row], col_in_row[b][row]);
                        let (ca, cb) = (row * n + ca as usize, row * n + cb as usize);
                        boxes_a ^= 1 << (S::units_of(ca)[2] - 2 * n);
                        boxes_b ^= 1 << (S::units_of(cb)[2] - 2 * n);
                        set.insert(ca);
                        set.insert(cb);
                    }
                    if boxes_a == boxes_b {
                        self.remember(set);
                    }
                }
            }
        }
    }

    /// Remembers the small unavoidable sets that lie on two rows of one band (or two
    /// columns of one stack): where the two rows hold the same digits in the same columns,
    /// `a b / b a` or `a b c / b c a`, swapping the two rows' digits in those columns keeps
    /// every row, column and box whole (each swap stays inside one column, and so inside one
    /// box). These are the cycles of the permutation that takes one row's digits to the
    /// other's; cycles of up to `max_cycle` columns are remembered.
    fn remember_two_line_sets(&mut self, solution: &Grid<S>, max_cycle: usize) {
        let (n, side) = (S::N, S::BOX);
        for transposed in [false, true] {
            // Cell `k` of line `line`: of a row, or of a column when transposed.
            let cell = |line: usize, k: usize| {
                if transposed {
                    k * n + line
                } else {
                    line * n + k
                }
            };
            // Where each digit sits on a line: every digit of a full line is written over.
            let mut at = [0usize; 26];
            for band in 0..side {
                for i in 0..side {
                    for j in i + 1..side {
                        let (one, two) = (band * side + i, band * side + j);
                        for k in 0..n {
                            at[solution.get(cell(one, k)) as usize] = k;
                        }
                        // The cycles' places on the lines, as masks; a set is built only for
                        // a short one.
                        let mut seen = 0u64;
                        for start in 0..n {
                            if seen >> start & 1 != 0 {
                                continue;
                            }
                            let (mut k, mut places) = (start, 0u64);
                            loop {
                                places |= 1 << k;
                                k = at[solution.get(cell(two, k)) as usize];
                                if k == start {
                                    break;
                                }
                            }
                            seen |= places;
                            if places.count_ones() as usize > max_cycle {
                                continue;
                            }
                            // Built in its place in the ring.
                            let set = &mut self.sets[self.found % REMEMBERED_SETS];
                            self.found += 1;
                            *set = CellSet::default();
                            if transposed {
                                while places != 0 {
                                    let k = places.trailing_zeros() as usize;
                                    places &= places - 1;
                                    set.insert(cell(one, k));
                                    set.insert(cell(two, k));
                                }
                            } else {
                                set.insert_run(one * n, places);
                                set.insert_run(two * n, places);
                            }
                        }
                    }
                }
            }
        }
    }

    /// The remembered sets, newest last.
    pub(super) fn remembered(&self) -> &[CellSet] {
        &self.sets[..self.found.min(REMEMBERED_SETS)]
    }

    /// A remembered unavoidable set whose only clue is `cell`.
    pub(super) fn witness(&self, clues: &CellSet, cell: usize) -> Option<&CellSet> {
        self.remembered()
            .iter()
            .find(|set| set.contains(cell) && set.meets_only_at(clues, cell, Self::WORDS))
    }

    /// The cells common to every remembered unavoidable set whose only clue is `cell`
    /// (there is one).
    pub(super) fn common_witness(&self, clues: &CellSet, cell: usize) -> CellSet {
        self.remembered()
            .iter()
            .filter(|set| set.contains(cell) && set.meets_only_at(clues, cell, Self::WORDS))
            .fold(CellSet::first(S::CELLS), |common, set| common.and(set))
    }

    /// True when a remembered unavoidable set holds none of `clues`.
    pub(super) fn misses_a_set(&self, clues: &CellSet) -> bool {
        self.remembered()
            .iter()
            .any(|set| (0..Self::WORDS).all(|w| set.0[w] & clues.0[w] == 0))
    }

    /// Remembers an unavoidable set.
    pub(super) fn remember(&mut self, set: CellSet) {
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
    use crate::solver::{Engine, Solver};
    /// Every set remembered for a grid before a dig is unavoidable: swapping its digits
    /// within it, between its two lines or its two digits, gives another solution. Returns
    /// how many sets there were, and how many of them held two digits on three rows or more,
    /// for digs to `holes` holes.
    fn remembered_sets<S: Shape>(grids: u64, holes: usize) -> (usize, usize) {
        let mut solver = Solver::<S>::new();
        let mut digger = Digger::<S>::new();
        let (mut found, mut two_digit) = (0, 0);
        for index in 0..grids {
            let (solution, _) = fill(&mut solver, &mut attempt_rng(6, index));
            digger.forget(&solution, holes);
            for set in digger.remembered() {
                let cells: Vec<usize> = (0..S::CELLS).filter(|&c| set.contains(c)).collect();
                let longest = TWO_LINE_CYCLES.max(two_digit_rows::<S>(S::CELLS));
                assert!((4..=2 * longest).contains(&cells.len()));
                let mut rows: Vec<usize> = cells.iter().map(|&c| c / S::N).collect();
                rows.dedup();
                let mut digits: Vec<_> = cells.iter().map(|&c| solution.get(c)).collect();
                digits.sort_unstable();
                digits.dedup();
                let mut swapped = solution;
                for &c in &cells {
                    if digits.len() == 2 && rows.len() > 2 {
                        let other = digits[0] + digits[1] - solution.get(c);
                        swapped.set(c, other);
                        continue;
                    }
                    // The cell's partner: same column on the other row, or same row on the
                    // other column.
                    let partner = if rows.len() == 2 {
                        let other = if c / S::N == rows[0] {
                            rows[1]
                        } else {
                            rows[0]
                        };
                        other * S::N + c % S::N
                    } else {
                        *cells
                            .iter()
                            .find(|&&p| p != c && p / S::N == c / S::N)
                            .expect("two cells per row")
                    };
                    swapped.set(c, solution.get(partner));
                }
                assert!(swapped.is_solution() && swapped != solution, "{solution}");
                found += 1;
                two_digit += usize::from(digits.len() == 2 && rows.len() > 2);
            }
        }
        (found, two_digit)
    }

    #[test]
    fn remembered_sets_are_unavoidable() {
        let (found, two_digit) = remembered_sets::<Nine>(50, 55);
        assert!(
            found > 50 && two_digit > 50,
            "{found} sets, {two_digit} of two digits"
        );
        // Shallower digs and other sizes remember two-line sets alone.
        assert!(matches!(remembered_sets::<Nine>(20, 53), (found, 0) if found > 20));
        assert!(matches!(remembered_sets::<Sixteen>(5, 200), (found, 0) if found > 5));
        assert_eq!(remembered_sets::<Four>(20, 12).1, 0);
    }
}
