//! The candidate grid every technique works on: each open cell's candidates, the digits
//! each unit lacks, and the placements and eliminations steps make, with the looks the
//! techniques share (a unit's places of each digit, hidden singles, pointings) and the
//! search for locked candidates. qqwing's techniques (`qqwing.rs`) and SE's (`techniques/`)
//! take their steps on it.

use crate::error::Unsolvable;
use crate::grid::{Digit, Grid};
use crate::shape::Shape;

/// The line of a box a pointing digit is confined to: its row or column within the box
/// (`0..BOX`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BoxLine {
    Row(usize),
    Column(usize),
}

/// A grid in the middle of a solve by techniques.
#[derive(Clone, Debug)]
pub struct Logic<S: Shape> {
    /// Candidates of each open cell; 0 once placed.
    pub(crate) cand: S::Cells<u32>,
    /// Placed digits, 0 while open.
    pub(crate) value: S::Cells<Digit>,
    /// The digits each unit still lacks.
    missing: S::Units<u32>,
    /// Open cells.
    open: usize,
}

impl<S: Shape> Logic<S> {
    /// The grid of `puzzle`, each open cell's candidates the digits its peers lack; fails
    /// when clues conflict.
    pub fn new(puzzle: &Grid<S>) -> Result<Self, Unsolvable> {
        let (n, side) = (S::N, S::BOX);
        let all = u32::MAX >> (32 - n);
        let mut value = S::cells(0);
        value.as_mut().copy_from_slice(puzzle.digits());
        // The digits of each unit, row by row, without the unit table and without a branch
        // on whether a cell is filled, which no predictor guesses well: an empty cell's digit
        // bit is 0, and adds nothing to its units.
        let mut used = S::units(0u32);
        let (rows, rest) = used.as_mut().split_at_mut(n);
        let (cols, boxes) = rest.split_at_mut(n);
        let mut clues = 0;
        for (r, digits) in value.as_ref().chunks_exact(n).enumerate() {
            let boxes = &mut boxes[r / side * side..][..side];
            for (c, (col, &d)) in cols.iter_mut().zip(digits).enumerate() {
                let bit = (1u32 << d) >> 1;
                rows[r] |= bit;
                *col |= bit;
                boxes[c / side] |= bit;
                clues += usize::from(d != 0);
            }
        }
        // A unit with a digit twice holds fewer digits than clues: the rows hold as many
        // digits as there are clues exactly when none repeats one, and so for the columns
        // and the boxes.
        let digits = |units: &[u32]| units.iter().map(|u| u.count_ones() as usize).sum::<usize>();
        if digits(rows) != clues || digits(cols) != clues || digits(boxes) != clues {
            return Err(Unsolvable);
        }
        let mut cand = S::cells(0u32);
        let cells = value.as_ref().chunks_exact(n);
        for (r, (cand, digits)) in cand.as_mut().chunks_exact_mut(n).zip(cells).enumerate() {
            let (row, boxes) = (rows[r], &boxes[r / side * side..][..side]);
            for (c, (cand, &d)) in cand.iter_mut().zip(digits).enumerate() {
                let empty = u32::from(d == 0).wrapping_neg();
                *cand = all & !(row | cols[c] | boxes[c / side]) & empty;
            }
        }
        let mut missing = used;
        for m in missing.as_mut() {
            *m = all & !*m;
        }
        Ok(Logic {
            cand,
            value,
            missing,
            open: S::CELLS - clues,
        })
    }

    /// True when every cell is placed.
    pub fn is_solved(&self) -> bool {
        self.open == 0
    }

    /// How many cells are open.
    pub(crate) fn open(&self) -> usize {
        self.open
    }

    /// The grid as it stands.
    pub fn grid(&self) -> Grid<S> {
        Grid::from_digits(self.value.as_ref()).expect("placed digits are in range")
    }

    pub(crate) fn place(&mut self, cell: usize, d: Digit) {
        self.value[cell] = d;
        self.cand[cell] = 0;
        self.open -= 1;
        let bit = 1u32 << (d - 1);
        let (n, side) = (S::N, S::BOX);
        // Units are numbered rows, then columns, then boxes: the table gives the cell's row,
        // column and box without a division.
        let units = S::units_of(cell);
        let (row, col) = (units[0], units[1] - n);
        let cand = self.cand.as_mut();
        // The cell's row, column and box, the cell itself among them (its candidates are gone).
        cand[row * n..][..n].iter_mut().for_each(|c| *c &= !bit);
        let column = &mut cand[col..][..(n - 1) * n + 1];
        (0..n).for_each(|i| column[i * n] &= !bit);
        let first = S::unit(units[2])[0] as usize;
        let block = &mut cand[first..][..(side - 1) * n + side];
        for i in 0..side {
            (0..side).for_each(|j| block[i * n + j] &= !bit);
        }
        for unit in units {
            self.missing[unit] &= !bit;
        }
    }

    /// Removes `bits` from `cell`'s candidates; true when any was there.
    pub(crate) fn eliminate(&mut self, cell: usize, bits: u32) -> bool {
        let had = self.cand[cell] & bits != 0;
        self.cand[cell] &= !bits;
        had
    }

    /// Removes the candidates `removal` gives each cell.
    pub(crate) fn eliminate_all(&mut self, removal: &S::Cells<u32>) {
        for (cell, &bits) in removal.as_ref().iter().enumerate() {
            self.eliminate(cell, bits);
        }
    }

    /// Places the first naked single; fails on an open cell without candidates.
    pub fn naked_single(&mut self) -> Result<bool, Unsolvable> {
        for cell in 0..S::CELLS {
            if self.value[cell] != 0 {
                continue;
            }
            match self.cand[cell].count_ones() {
                0 => return Err(Unsolvable),
                1 => {
                    self.place(cell, self.cand[cell].trailing_zeros() as Digit + 1);
                    return Ok(true);
                }
                _ => {}
            }
        }
        Ok(false)
    }

    /// Calls `visit` with the position in `unit` and the candidates of each of its cells, in
    /// the unit table's order. Rows, columns and boxes are read as runs of cells, without
    /// the table.
    #[inline(always)]
    fn for_each_in(&self, unit: usize, mut visit: impl FnMut(usize, u32)) {
        let (n, side) = (S::N, S::BOX);
        let cand = self.cand.as_ref();
        let first = S::unit(unit)[0] as usize;
        if unit < n {
            let row = &cand[first..][..n];
            (0..n).for_each(|k| visit(k, row[k]));
        } else if unit < 2 * n {
            let column = &cand[first..][..(n - 1) * n + 1];
            (0..n).for_each(|k| visit(k, column[k * n]));
        } else {
            let block = &cand[first..][..(side - 1) * n + side];
            for i in 0..side {
                (0..side).for_each(|j| visit(i * side + j, block[i * n + j]));
            }
        }
    }

    /// The digits with a place in `unit`, and those with two places or more.
    #[inline]
    pub(crate) fn spread(&self, unit: usize) -> (u32, u32) {
        let (mut some, mut many) = (0u32, 0u32);
        self.for_each_in(unit, |_, x| {
            many |= some & x;
            some |= x;
        });
        (some, many)
    }

    /// The open cells of `unit` where any digit of `bits` may go, as unit positions. Each
    /// cell adds its bit without a branch.
    #[inline]
    pub(crate) fn places(&self, unit: usize, bits: u32) -> u32 {
        let mut at = 0;
        self.for_each_in(unit, |k, x| at |= u32::from(x & bits != 0) << k);
        at
    }

    /// For every digit (bit index), the open cells of `unit` where it may go, as unit
    /// positions: [`Logic::places`] for all digits at once. Each digit gathers its bit from
    /// every cell, without a branch: against a loop over each cell's candidates, which
    /// mispredicts its exit, the rater's hard band took 12% less time on 9×9 for 12% more
    /// instructions. 9×9 transposes a bit matrix instead ([`Logic::unit_places_of_nine`]).
    pub(crate) fn unit_places(&self, unit: usize) -> [u32; 32] {
        if S::N == 9 {
            return self.unit_places_of_nine(unit);
        }
        let mut cands = [0u32; 32];
        for (cand, &cell) in cands.iter_mut().zip(S::unit(unit)) {
            *cand = self.cand[cell as usize];
        }
        let mut places = [0u32; 32];
        for (d, places) in places.iter_mut().enumerate().take(S::N) {
            *places = cands[..S::N]
                .iter()
                .enumerate()
                .fold(0, |at, (k, &cand)| at | (cand >> d & 1) << k);
        }
        places
    }

    /// [`Logic::unit_places`] on 9×9, as a transposition of a bit matrix: the first eight
    /// digits of the first eight cells are one byte per cell of a word, transposed in three
    /// rounds of swaps to one byte per digit; the ninth cell and the ninth digit are
    /// gathered bit by bit.
    fn unit_places_of_nine(&self, unit: usize) -> [u32; 32] {
        let cells = S::unit(unit);
        let (mut matrix, mut ninth) = (0u64, 0u32);
        for (k, &cell) in cells[..8].iter().enumerate() {
            let cand = self.cand[cell as usize];
            matrix |= u64::from(cand & 0xFF) << (8 * k);
            ninth |= (cand >> 8 & 1) << k;
        }
        // Bit 8k + d (cell k, digit d) goes to bit 8d + k.
        let swap = |x: u64, mask: u64, shift: u32| {
            let t = (x ^ x >> shift) & mask;
            x ^ t ^ t << shift
        };
        matrix = swap(matrix, 0x00AA_00AA_00AA_00AA, 7);
        matrix = swap(matrix, 0x0000_CCCC_0000_CCCC, 14);
        matrix = swap(matrix, 0x0000_0000_F0F0_F0F0, 28);
        let last = self.cand[cells[8] as usize];
        let mut places = [0u32; 32];
        for (d, places) in places.iter_mut().enumerate().take(8) {
            *places = (matrix >> (8 * d) & 0xFF) as u32 | (last >> d & 1) << 8;
        }
        places[8] = ninth | (last >> 8 & 1) << 8;
        places
    }

    /// Calls `visit` with every pointing — a digit with two places or more in a box, all on
    /// one row or one column of the box — box by box, digits in increasing order, until it
    /// returns true; true when it did.
    pub(crate) fn pointings(&self, visit: &mut impl FnMut(usize, u32, BoxLine) -> bool) -> bool {
        let (n, side) = (S::N, S::BOX);
        for b in 0..n {
            let missing = self.missing(2 * n + b);
            if missing == 0 {
                continue;
            }
            // Each row and column of the box, as the digits with a place there and those
            // with two or more, for all digits at once.
            let (top, left) = (b / side * side, b % side * side);
            let (mut rows, mut cols) = ([Spread::default(); 5], [Spread::default(); 5]);
            for (i, row) in rows.iter_mut().enumerate().take(side) {
                for (j, col) in cols.iter_mut().enumerate().take(side) {
                    let cand = self.cand[(top + i) * n + left + j];
                    row.add(cand);
                    col.add(cand);
                }
            }
            let along_row = confined_with_two(&rows[..side]) & missing;
            let along_col = confined_with_two(&cols[..side]) & missing;
            let mut digits = along_row | along_col;
            while digits != 0 {
                let bit = digits & digits.wrapping_neg();
                digits &= digits - 1;
                let line = if along_row & bit != 0 {
                    BoxLine::Row(rows.iter().position(|r| r.some & bit != 0).unwrap_or(0))
                } else {
                    BoxLine::Column(cols.iter().position(|c| c.some & bit != 0).unwrap_or(0))
                };
                if visit(b, bit, line) {
                    return true;
                }
            }
        }
        false
    }

    /// The digits still to place in `unit`.
    pub(crate) fn missing(&self, unit: usize) -> u32 {
        self.missing[unit]
    }

    /// Places the first hidden single, boxes first; fails when a digit has no place left in
    /// a unit that lacks it.
    pub fn hidden_single(&mut self) -> Result<bool, Unsolvable> {
        let units = (2 * S::N..3 * S::N).chain(0..2 * S::N);
        match self.find_hidden_single(units)? {
            Some((cell, d)) => {
                self.place(cell, d);
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// The first hidden single in `units`: a missing digit with one place, and that place.
    /// Fails when a missing digit has no place.
    pub(crate) fn find_hidden_single(
        &self,
        units: impl Iterator<Item = usize>,
    ) -> Result<Option<(usize, Digit)>, Unsolvable> {
        for unit in units {
            // The digits with a place in the unit, and those with two or more.
            let (some, many) = self.spread(unit);
            let missing = self.missing(unit);
            let (none, one) = (missing & !some, missing & some & !many);
            // The lowest missing digit with no place or one, as a scan in digit order finds.
            let hit = none | one;
            if hit == 0 {
                continue;
            }
            let bit = hit & hit.wrapping_neg();
            if none & bit != 0 {
                return Err(Unsolvable);
            }
            let cell = S::unit(unit)
                .iter()
                .find(|&&c| self.cand[c as usize] & bit != 0)
                .expect("a digit with one place has a cell");
            return Ok(Some((*cell as usize, bit.trailing_zeros() as Digit + 1)));
        }
        Ok(None)
    }
}

/// What a search for eliminations calls with each set it finds (per cell, the candidates to
/// remove; never empty) and the unit they lie in, until it returns true.
pub(crate) type Found<'a, S> = dyn FnMut(&Logic<S>, &<S as Shape>::Cells<u32>, usize) -> bool + 'a;

/// The digits with a place among some cells, and those with two places or more.
#[derive(Clone, Copy, Default)]
struct Spread {
    some: u32,
    many: u32,
}

impl Spread {
    /// Adds a cell with candidates `cand`.
    #[inline(always)]
    fn add(&mut self, cand: u32) {
        self.many |= self.some & cand;
        self.some |= cand;
    }
}

/// Of the digits spread over disjoint parts, those with places in one part alone, and two or
/// more there.
#[inline(always)]
fn confined_with_two(parts: &[Spread]) -> u32 {
    let (mut once, mut more, mut two) = (0u32, 0u32, 0u32);
    for part in parts {
        more |= once & part.some;
        once |= part.some;
        two |= part.many;
    }
    once & !more & two
}

/// Pointing (a box's digit confined to one line) or, with `claiming`, claiming (a line's
/// digit confined to one box). Offers them unit by unit (boxes for pointing, rows then
/// columns for claiming), each unit's digits in increasing order, a box's row before its
/// column. Looks at the digits in `digits` alone.
pub(crate) fn locked<S: Shape>(
    logic: &Logic<S>,
    claiming: bool,
    digits: u32,
    found: &mut Found<'_, S>,
) {
    let mut removal = S::cells(0u32);
    // Offers the digit's places among `cells` as eliminations, if there are any.
    let mut offer = |cells: &mut dyn Iterator<Item = usize>, bit: u32, unit: usize| {
        let mut taken = [0usize; 32];
        let mut len = 0;
        for cell in cells {
            if logic.cand[cell] & bit != 0 {
                removal[cell] = bit;
                taken[len] = cell;
                len += 1;
            }
        }
        let stop = len > 0 && found(logic, &removal, unit);
        for &cell in &taken[..len] {
            removal[cell] = 0;
        }
        stop
    };
    if claiming {
        offer_claimings(logic, digits, &mut offer);
    } else {
        offer_pointings(logic, digits, &mut offer);
    }
}

/// How [`locked`] offers a digit (`bit`) as eliminated from some cells of a unit, and
/// learns whether to stop.
type Offer<'a> = dyn FnMut(&mut dyn Iterator<Item = usize>, u32, usize) -> bool + 'a;

/// [`locked`]'s pointings: a box's digit on one of its lines leaves the rest of the line.
fn offer_pointings<S: Shape>(logic: &Logic<S>, digits: u32, offer: &mut Offer<'_>) {
    let (n, side) = (S::N, S::BOX);
    logic.pointings(&mut |b, bit, line| {
        if digits & bit == 0 {
            return false;
        }
        let (top, left) = (b / side * side, b % side * side);
        match line {
            BoxLine::Row(i) => {
                let row = top + i;
                let mut line = (0..n)
                    .filter(|&c| !(left..left + side).contains(&c))
                    .map(|c| row * n + c);
                offer(&mut line, bit, row)
            }
            BoxLine::Column(j) => {
                let col = left + j;
                let mut line = (0..n)
                    .filter(|&r| !(top..top + side).contains(&r))
                    .map(|r| r * n + col);
                offer(&mut line, bit, n + col)
            }
        }
    });
}

/// [`locked`]'s claimings: a line's digit in one box leaves the rest of the box.
fn offer_claimings<S: Shape>(logic: &Logic<S>, digits: u32, offer: &mut Offer<'_>) {
    let (n, side) = (S::N, S::BOX);
    for unit in 0..2 * n {
        // Cell `k` of the line; its row and column.
        let at = |k: usize| {
            if unit < n { (unit, k) } else { (k, unit - n) }
        };
        // The line's stretch in each box it crosses, as the digits with a place there and
        // those with two or more, for all digits at once.
        let mut stretches = [Spread::default(); 5];
        for (k, &cell) in S::unit(unit).iter().enumerate() {
            stretches[k / side].add(logic.cand[cell as usize]);
        }
        let mut claimed = confined_with_two(&stretches[..side]) & logic.missing(unit) & digits;
        while claimed != 0 {
            let bit = claimed & claimed.wrapping_neg();
            claimed &= claimed - 1;
            let stretch = stretches
                .iter()
                .position(|s| s.some & bit != 0)
                .unwrap_or(0);
            // The box, less the line.
            let (r0, c0) = at(stretch * side);
            let (top, left) = (r0 / side * side, c0 / side * side);
            let mut rest = (0..side * side)
                .map(|k| (top + k / side, left + k % side))
                .filter(|&(r, c)| if unit < n { r != unit } else { c != unit - n })
                .map(|(r, c)| r * n + c);
            let b = top / side * side + left / side;
            if offer(&mut rest, bit, 2 * n + b) {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{Four, Nine, Sixteen};

    #[test]
    fn conflicting_clues_are_refused() {
        /// The same digit in the first cell and in `other`, which shares one unit with it.
        fn clash<S: Shape>(other: usize) -> Option<Unsolvable> {
            let mut puzzle = Grid::<S>::empty();
            puzzle.set(0, 5);
            puzzle.set(other, 5);
            Logic::new(&puzzle).err()
        }
        fn every_unit<S: Shape>() {
            // Two cells of a row, of a column, and of a box only.
            for other in [S::N - 1, (S::N - 1) * S::N, S::N + 1] {
                assert_eq!(clash::<S>(other), Some(Unsolvable), "cell {other}");
            }
            // Apart, the two clues stand.
            assert_eq!(clash::<S>(S::CELLS - 1), None);
        }
        every_unit::<Nine>();
        every_unit::<Sixteen>();
    }

    /// Pointings and claimings, found digit by digit, cell by cell: for each box (pointing)
    /// or line (claiming), each missing digit in increasing order with two places or more,
    /// all in one line of the box or one box of the line. The unit it lies in, the digit,
    /// and the cells of the other unit it leaves.
    fn locked_by_scan<S: Shape>(logic: &Logic<S>, claiming: bool) -> Vec<(usize, u32, Vec<usize>)> {
        let n = S::N;
        let mut found = Vec::new();
        let units = if claiming { 0..2 * n } else { 2 * n..3 * n };
        for unit in units {
            for d in 0..n {
                let bit = 1u32 << d;
                if logic.missing(unit) & bit == 0 {
                    continue;
                }
                let places: Vec<usize> = S::unit(unit)
                    .iter()
                    .map(|&c| c as usize)
                    .filter(|&c| logic.cand[c] & bit != 0)
                    .collect();
                if places.len() < 2 {
                    continue;
                }
                // The other units holding every place: the box of a line, or a box's lines.
                let shared: Vec<usize> = (0..3 * n)
                    .filter(|&u| u != unit && (u >= 2 * n) == claiming)
                    .filter(|&u| places.iter().all(|&c| S::units_of(c).contains(&u)))
                    .collect();
                let Some(&other) = shared.first() else {
                    continue;
                };
                let doomed: Vec<usize> = S::unit(other)
                    .iter()
                    .map(|&c| c as usize)
                    .filter(|&c| logic.cand[c] & bit != 0 && !places.contains(&c))
                    .collect();
                if !doomed.is_empty() {
                    found.push((other, bit, doomed));
                }
            }
        }
        found
    }

    /// What `locked` offers: the unit, the digit and the cells.
    fn locked_offers<S: Shape>(logic: &Logic<S>, claiming: bool) -> Vec<(usize, u32, Vec<usize>)> {
        let mut offered = Vec::new();
        locked(logic, claiming, S::ALL, &mut |_, removal, unit| {
            let cells: Vec<usize> = (0..S::CELLS).filter(|&c| removal[c] != 0).collect();
            offered.push((unit, removal[cells[0]], cells));
            false
        });
        offered
    }

    /// Locked candidates, found for all digits of a unit at once, are those a scan of each
    /// digit finds, in the same order, on grids along the singles' path of dug puzzles; so
    /// are every unit's places for all digits at once ([`Logic::unit_places`]) those of
    /// each digit alone ([`Logic::places`]).
    fn locked_matches_a_scan<S: Shape>(holes: usize, attempts: u64) {
        let mut generator = crate::Generator::<S>::new(crate::Holes::Exact(holes));
        let mut offered = 0;
        for index in 0..attempts {
            let Some(made) = generator.attempt(3, index, &mut Default::default()) else {
                continue;
            };
            let mut logic = Logic::new(&made.puzzle).unwrap();
            loop {
                for claiming in [false, true] {
                    let offers = locked_offers(&logic, claiming);
                    assert_eq!(offers, locked_by_scan(&logic, claiming), "{}", made.puzzle);
                    offered += offers.len();
                }
                for unit in 0..S::UNITS {
                    for (d, &places) in logic.unit_places(unit).iter().enumerate() {
                        let alone = if d < S::N {
                            logic.places(unit, 1 << d)
                        } else {
                            0
                        };
                        assert_eq!(places, alone, "unit {unit}, digit {}", d + 1);
                    }
                }
                if !logic.hidden_single().unwrap() && !logic.naked_single().unwrap() {
                    break;
                }
            }
        }
        assert!(offered >= 100, "{offered} offered");
    }

    #[test]
    fn locked_candidates_and_unit_places_match_a_scan_of_each_digit() {
        locked_matches_a_scan::<Four>(10, 40);
        locked_matches_a_scan::<Nine>(55, 40);
        locked_matches_a_scan::<Sixteen>(140, 3);
    }
}
