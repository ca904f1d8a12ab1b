//! Unavoidable sets: cells of a grid that some other grid fills with the same digits in
//! another arrangement, so that a puzzle needs a clue among them. A dig remembers those its
//! searches reveal and, before it starts, small ones on two lines (and for deep 9×9 digs,
//! of two digits), and settles removals and swaps with them without a search.

use rand::RngCore;

use super::cycles::{Cycles, Perm};
use super::{Digger, REMEMBERED_SETS};
use crate::grid::Grid;
use crate::rng::below;
use crate::shape::Shape;
use crate::solver::{CELL_WORDS, low_bits};

/// The longest cycle of two lines' digits remembered as an unavoidable set before a dig
/// starts (`a b / b a` is a cycle of 2 columns): 4 columns, 8 cells. Cycles of 3 and 4 made
/// 9×9 digs at 55 holes about 5% faster than rectangles alone; longer ones, nothing more.
/// [`Cycles`] finds cycles of four places at most, which the build checks.
const TWO_LINE_CYCLES: usize = 4;
const _: () = assert!(TWO_LINE_CYCLES <= 4);

/// The most rows a two-digit unavoidable set remembered before a dig to `holes` holes
/// spans: 4 on 9×9 from 54 holes on, where these sets spare about one removal test in
/// sixteen (sets of up to 3 or 5 rows spared fewer instructions in all); none on other sizes
/// and shallower digs, where building them cost more than the searches they spared (level at
/// 53 holes).
const fn two_digit_rows<S: Shape>(holes: usize) -> usize {
    if S::BOX == 3 && holes >= 54 { 4 } else { 0 }
}

/// How many of the grid's own sets a top-down dig looks up by cell
/// ([`Digger::top_down_witness`]). A 9×9 grid has fewer as a rule (at most 46 in 300 grids
/// dug to 60 holes); 16×16 grids have about 56 and 25×25 grids about 110, the rest scanned.
pub(super) const INDEXED_SETS: usize = 64;

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

    /// True when no cell is in both sets (of the first `words` words).
    #[inline(always)]
    pub(super) fn is_disjoint(&self, other: &CellSet, words: usize) -> bool {
        (0..words).all(|w| self.0[w] & other.0[w] == 0)
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

    /// The cells of the set in increasing order.
    pub(super) fn cells(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let bit = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    64 * w + bit
                })
            })
        })
    }

    /// A cell of the set drawn uniformly from `rng` (the set is not empty).
    pub(super) fn pick<R: RngCore>(&self, rng: &mut R, words: usize) -> usize {
        self.nth(below(rng, self.len(words) as u32) as usize, words)
    }
}

/// A grid's lines as permutations of their places, for [`Cycles`]: each line's digits and
/// where each digit stands on it, and, for two-digit sets, where each digit stands on every
/// row and every column. Places past the grid's size stay where they are, from `default`
/// on, since each grid writes over the same places.
#[derive(Clone, Debug, Default)]
pub(super) struct Lines {
    /// Of each row (`[0]`) and column (`[1]`): the digit (less one) in each place.
    digits: [[Perm; 25]; 2],
    /// Of each row (`[0]`) and column (`[1]`): the place of each digit (less one).
    places: [[Perm; 25]; 2],
    /// Of each digit (less one): its column on each row (`[0]`), its row on each column
    /// (`[1]`).
    digit_at: [[Perm; 25]; 2],
}

impl<S: Shape> Digger<S> {
    /// Forgets the remembered sets, to dig `solution` to `holes` holes, and remembers its
    /// small unavoidable sets on two lines and, for deep 9×9 digs, those of two digits too.
    pub(super) fn forget(&mut self, solution: &Grid<S>, holes: usize) {
        self.found = 0;
        self.grid = *solution;
        let two_digit_rows = two_digit_rows::<S>(holes);
        let lines = &mut self.lines;
        for (row, digits) in solution.digits().chunks_exact(S::N).enumerate() {
            for (col, &digit) in digits.iter().enumerate() {
                let d = digit - 1;
                lines.digits[0][row].0[col] = d;
                lines.digits[1][col].0[row] = d;
                lines.places[0][row].0[d as usize] = col as u8;
                lines.places[1][col].0[d as usize] = row as u8;
                if two_digit_rows >= 3 {
                    lines.digit_at[0][d as usize].0[row] = col as u8;
                    lines.digit_at[1][d as usize].0[col] = row as u8;
                }
            }
        }
        self.remember_two_line_sets(TWO_LINE_CYCLES);
        self.remember_two_digit_sets(two_digit_rows);
        self.index_grid_sets();
    }

    /// Notes the grid's own sets, those [`Digger::forget`] just remembered, for
    /// [`Digger::top_down_witness`]: how many there are, and which of the first
    /// [`INDEXED_SETS`] of them hold each cell.
    fn index_grid_sets(&mut self) {
        self.grid_sets = self.found;
        self.holding = S::cells(0);
        for (k, set) in self.sets[..self.found.min(INDEXED_SETS)].iter().enumerate() {
            for (w, &word) in set.0[..Self::WORDS].iter().enumerate() {
                let mut rest = word;
                while rest != 0 {
                    let bit = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    self.holding.as_mut()[64 * w + bit] |= 1 << k;
                }
            }
        }
    }

    /// Remembers the unavoidable sets of two digits on three rows or more (those on two rows
    /// are two-line sets): rows whose two digits can swap places, keeping every row, column
    /// and box whole. Where one row swaps `a` and `b`, the column of its `a` must give up
    /// its `b`, so the row holding that `b` swaps too: the rows that swap are a cycle of
    /// that step, or several. Cycles of 3 to `max_rows` rows (at most 4) whose every box
    /// holds both digits or neither are remembered, two cells a row.
    fn remember_two_digit_sets(&mut self, max_rows: usize) {
        if max_rows < 3 {
            return;
        }
        let n = S::N;
        for a in 0..n {
            for b in a + 1..n {
                let [col_of, row_of] = &self.lines.digit_at;
                // Each row to the row holding `b` in the column where it holds `a`.
                let cycles = Cycles::of(&row_of[b], &col_of[a], n);
                let mut left = cycles.on_cycles_of(3..=max_rows);
                let (col_of_a, col_of_b) = (col_of[a], col_of[b]);
                while left != 0 {
                    let rows = cycles.cycle_of(left.trailing_zeros() as usize);
                    left &= !rows;
                    // Each box the cycle's cells touch must hold two of them: the boxes
                    // holding its `a`s an odd number of times are those holding its `b`s so.
                    let in_box = |row: usize, col: u8| {
                        1u32 << (row / S::BOX * S::BOX + col as usize / S::BOX)
                    };
                    let mut boxes = 0;
                    let mut rest = rows;
                    while rest != 0 {
                        let row = rest.trailing_zeros() as usize;
                        rest &= rest - 1;
                        boxes ^= in_box(row, col_of_a.0[row]) ^ in_box(row, col_of_b.0[row]);
                    }
                    if boxes != 0 {
                        continue;
                    }
                    let mut set = CellSet::default();
                    let mut rest = rows;
                    while rest != 0 {
                        let row = rest.trailing_zeros() as usize;
                        rest &= rest - 1;
                        set.insert(row * n + col_of_a.0[row] as usize);
                        set.insert(row * n + col_of_b.0[row] as usize);
                    }
                    self.remember(set);
                }
            }
        }
    }

    /// Remembers the small unavoidable sets that lie on two rows of one band (or two
    /// columns of one stack): where the two rows hold the same digits in the same columns,
    /// `a b / b a` or `a b c / b c a`, swapping the two rows' digits in those columns keeps
    /// every row, column and box whole (each swap stays inside one column, and so inside one
    /// box). These are the cycles of the permutation that takes each place of one row to
    /// the place of the same digit on the other; cycles of up to `max_cycle` columns (at
    /// most 4) are remembered.
    fn remember_two_line_sets(&mut self, max_cycle: usize) {
        let (n, side) = (S::N, S::BOX);
        for (lines, transposed) in [false, true].into_iter().enumerate() {
            for band in 0..side {
                for i in 0..side {
                    for j in i + 1..side {
                        let (one, two) = (band * side + i, band * side + j);
                        // Each place of line two to the place of its digit on line one.
                        let cycles = Cycles::of(
                            &self.lines.places[lines][one],
                            &self.lines.digits[lines][two],
                            n,
                        );
                        let mut left = cycles.on_cycles_of(2..=max_cycle);
                        while left != 0 {
                            let mut places = cycles.cycle_of(left.trailing_zeros() as usize);
                            left &= !places;
                            // Built in its place in the ring.
                            let set = &mut self.sets[self.found % REMEMBERED_SETS];
                            self.found += 1;
                            *set = CellSet::default();
                            if transposed {
                                while places != 0 {
                                    let k = places.trailing_zeros() as usize;
                                    places &= places - 1;
                                    set.insert(k * n + one);
                                    set.insert(k * n + two);
                                }
                            } else {
                                set.insert_run(one * n, places as u64);
                                set.insert_run(two * n, places as u64);
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

    /// [`Digger::witness`] in a top-down dig, as a yes or no: there only the grid's own sets
    /// can be witnesses, and the first [`INDEXED_SETS`] of them are looked up by the cell.
    /// A set that a top-down search revealed holds the clue that stayed, and that clue stays
    /// for the rest of the dig, which visits each cell once: no later cell is its only clue.
    /// (Once the ring has gone round, some of the grid's sets are gone, and their slots hold
    /// such sets: the answer is still the scan's.) The scan over every set took 1.2% more
    /// instructions for a 9×9 dig to 55 holes.
    pub(super) fn top_down_witness(&self, clues: &CellSet, cell: usize) -> bool {
        let mut holding = self.holding.as_ref()[cell];
        while holding != 0 {
            let k = holding.trailing_zeros() as usize;
            holding &= holding - 1;
            if self.sets[k].meets_only_at(clues, cell, Self::WORDS) {
                return true;
            }
        }
        // The ring holds the grid's sets up to its size: `forget` goes round it too when a
        // grid has more (possible on 25×25, with up to twelve two-line sets a pair of lines).
        let held = self.grid_sets.min(REMEMBERED_SETS);
        self.sets[INDEXED_SETS.min(held)..held]
            .iter()
            .any(|set| set.contains(cell) && set.meets_only_at(clues, cell, Self::WORDS))
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
            .any(|set| set.is_disjoint(clues, Self::WORDS))
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
    use crate::shape::{Four, Nine, Sixteen, TwentyFive};
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

    /// The sets `forget` remembers for digs to `holes` holes, found by walking every cycle
    /// of every line pair and digit pair one step at a time, in the same order.
    fn walked_sets<S: Shape>(solution: &Grid<S>, holes: usize) -> Vec<CellSet> {
        let (n, side) = (S::N, S::BOX);
        let digit = |row: usize, col: usize| solution.get(row * n + col) as usize;
        // The cycles of `next` (a permutation of 0..n), by their first place, as masks.
        let cycles = |next: &dyn Fn(usize) -> usize| {
            let (mut seen, mut found) = (0u32, Vec::new());
            for start in 0..n {
                if seen >> start & 1 == 0 {
                    let (mut places, mut k) = (0u32, start);
                    loop {
                        places |= 1 << k;
                        k = next(k);
                        if k == start {
                            break;
                        }
                    }
                    seen |= places;
                    found.push(places);
                }
            }
            found
        };
        let places = |mask: u32| (0..n).filter(move |k| mask >> k & 1 != 0);
        let mut sets = Vec::new();
        for transposed in [false, true] {
            let at = |line: usize, k: usize| if transposed { (k, line) } else { (line, k) };
            for band in 0..side {
                for i in 0..side {
                    for j in i + 1..side {
                        let (one, two) = (band * side + i, band * side + j);
                        let place_on_one = |d: usize| {
                            (0..n)
                                .find(|&k| {
                                    let (r, c) = at(one, k);
                                    digit(r, c) == d
                                })
                                .expect("every digit is on a full line")
                        };
                        let next = |k: usize| {
                            let (r, c) = at(two, k);
                            place_on_one(digit(r, c))
                        };
                        for cycle in cycles(&next) {
                            if cycle.count_ones() as usize <= TWO_LINE_CYCLES {
                                let mut set = CellSet::default();
                                for k in places(cycle) {
                                    for line in [one, two] {
                                        let (r, c) = at(line, k);
                                        set.insert(r * n + c);
                                    }
                                }
                                sets.push(set);
                            }
                        }
                    }
                }
            }
        }
        let col_of = |d: usize, row: usize| (0..n).find(|&c| digit(row, c) == d).expect("full");
        let row_of = |d: usize, col: usize| (0..n).find(|&r| digit(r, col) == d).expect("full");
        let in_box = |row: usize, col: usize| row / side * side + col / side;
        for a in 1..=n {
            for b in a + 1..=n {
                for rows in cycles(&|row| row_of(b, col_of(a, row))) {
                    let count = rows.count_ones() as usize;
                    if !(3..=two_digit_rows::<S>(holes)).contains(&count) {
                        continue;
                    }
                    let mut boxes_a: Vec<_> =
                        places(rows).map(|r| in_box(r, col_of(a, r))).collect();
                    let mut boxes_b: Vec<_> =
                        places(rows).map(|r| in_box(r, col_of(b, r))).collect();
                    boxes_a.sort_unstable();
                    boxes_b.sort_unstable();
                    if boxes_a == boxes_b {
                        let mut set = CellSet::default();
                        for r in places(rows) {
                            set.insert(r * n + col_of(a, r));
                            set.insert(r * n + col_of(b, r));
                        }
                        sets.push(set);
                    }
                }
            }
        }
        sets
    }

    /// `forget` finds the sets a walk along each cycle finds, in the same order.
    fn sets_as_walked<S: Shape>(grids: u64, holes: usize) {
        let mut solver = Solver::<S>::new();
        let mut digger = Digger::<S>::new();
        for index in 0..grids {
            let (solution, _) = fill(&mut solver, &mut attempt_rng(9, index));
            digger.forget(&solution, holes);
            assert_eq!(
                digger.remembered(),
                walked_sets(&solution, holes),
                "{solution}"
            );
        }
    }

    #[test]
    fn remembered_sets_are_those_of_short_cycles() {
        sets_as_walked::<Four>(50, 12);
        sets_as_walked::<Nine>(200, 55);
        sets_as_walked::<Nine>(50, 50);
        sets_as_walked::<Sixteen>(20, 150);
        sets_as_walked::<TwentyFive>(3, 300);
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
