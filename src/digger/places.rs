//! Where a top-down dig's clues stand, as masks, so that the *hidden* check (the removed
//! digit has no other place in one of the cell's units) costs a few mask operations.

use crate::grid::Digit;
use crate::shape::Shape;

/// Where a top-down dig's clues stand, as masks over lines and boxes: for each digit, the
/// rows, columns and boxes that hold it as a clue (the boxes numbered band by band and again
/// stack by stack), and for each row, column and box, its empty places. Whether a clue is the
/// only place left for its digit in one of its units is then a few mask operations.
pub(super) struct Places {
    rows: [u32; 32],
    cols: [u32; 32],
    boxes: [u32; 32],
    boxes_by_stack: [u32; 32],
    /// Empty places: of each row by column, of each column by row, of each box row-major.
    empty_rows: [u32; 32],
    empty_cols: [u32; 32],
    empty_boxes: [u32; 32],
    /// For a mask of `BOX` bits, bit `i` widened to bits `i·BOX .. i·BOX + BOX` (the rows of
    /// a band's boxes, the columns of a stack's, the places of a box's rows) and bit `j`
    /// strided to bits `j, j + BOX, …` (the places of a box's columns).
    widened: [u32; 32],
    strided: [u32; 32],
}

impl Places {
    /// A full grid's: every digit in every unit, no place empty.
    pub(super) fn full<S: Shape>() -> Self {
        let (side, every) = (S::BOX, S::ALL);
        let mut widened = [0u32; 32];
        let mut strided = [0u32; 32];
        for mask in 0..1usize << side {
            for i in (0..side).filter(|i| mask >> i & 1 == 1) {
                widened[mask] |= ((1 << side) - 1) << (i * side);
                strided[mask] |= (0..side).map(|k| 1 << (k * side + i)).sum::<u32>();
            }
        }
        let mut digits = [0u32; 32];
        digits[1..=S::N].fill(every);
        Places {
            rows: digits,
            cols: digits,
            boxes: digits,
            boxes_by_stack: digits,
            empty_rows: [0; 32],
            empty_cols: [0; 32],
            empty_boxes: [0; 32],
            widened,
            strided,
        }
    }

    /// `cell`'s row and column, its band and stack, and its place within its box.
    #[inline(always)]
    fn at<S: Shape>(cell: usize) -> (usize, usize, usize, usize, usize) {
        let (row, col) = (cell / S::N, cell % S::N);
        let (band, stack) = (row / S::BOX, col / S::BOX);
        (
            row,
            col,
            band,
            stack,
            (row % S::BOX) * S::BOX + col % S::BOX,
        )
    }

    /// Takes `digit`'s clue at `cell` out of its units' masks, or puts it back.
    pub(super) fn toggle<S: Shape>(&mut self, cell: usize, digit: Digit) {
        let (row, col, band, stack, _) = Self::at::<S>(cell);
        let d = usize::from(digit) & 31;
        self.rows[d] ^= 1 << row;
        self.cols[d] ^= 1 << col;
        self.boxes[d] ^= 1 << (band * S::BOX + stack);
        self.boxes_by_stack[d] ^= 1 << (stack * S::BOX + band);
    }

    /// Marks `cell` empty.
    pub(super) fn empty<S: Shape>(&mut self, cell: usize) {
        let (row, col, band, stack, place) = Self::at::<S>(cell);
        self.empty_rows[row & 31] |= 1 << col;
        self.empty_cols[col & 31] |= 1 << row;
        self.empty_boxes[(band * S::BOX + stack) & 31] |= 1 << place;
    }

    /// True when `cell`, whose clue `digit` is out of the masks, is the only place its row,
    /// its column or its box leaves for `digit`: every other empty place of that unit sees
    /// `digit` in another unit.
    pub(super) fn hidden_single<S: Shape>(&self, cell: usize, digit: Digit) -> bool {
        let (row, col, band, stack, _) = Self::at::<S>(cell);
        let d = usize::from(digit) & 31;
        let side = S::BOX;
        let low = (1usize << side) - 1;
        let widened = |mask: u32, from: usize| self.widened[(mask as usize >> from) & low];
        let strided = |mask: u32, from: usize| self.strided[(mask as usize >> from) & low];
        let row_sees = self.cols[d] | widened(self.boxes[d], band * side);
        let col_sees = self.rows[d] | widened(self.boxes_by_stack[d], stack * side);
        let box_sees = widened(self.rows[d], band * side) | strided(self.cols[d], stack * side);
        self.empty_rows[row & 31] & !row_sees == 0
            || self.empty_cols[col & 31] & !col_sees == 0
            || self.empty_boxes[(band * side + stack) & 31] & !box_sees == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generator::fill;
    use crate::rng::{attempt_rng, below, shuffle};
    use crate::shape::{Four, Nine, Sixteen};
    use crate::solver::{Engine, Solver};
    /// Empties the cells of filled grids in a random order, keeping about half, and checks
    /// `Places::hidden_single` at every cell against a cell-by-cell look at the puzzle.
    fn hidden_singles_agree<S: Shape>(grids: u64) {
        let mut solver = Solver::<S>::new();
        for index in 0..grids {
            let mut rng = attempt_rng(9, index);
            let (mut puzzle, _) = fill(&mut solver, &mut rng);
            let mut places = Places::full::<S>();
            let mut order: Vec<usize> = (0..S::CELLS).collect();
            shuffle(&mut rng, &mut order);
            for cell in order {
                let digit = puzzle.get(cell);
                places.toggle::<S>(cell, digit);
                puzzle.set(cell, 0);
                // Every other cell of one of `cell`'s units is a clue or sees `digit`.
                let sees = |other: usize| {
                    S::units_of(other).into_iter().any(|unit| {
                        S::unit(unit)
                            .iter()
                            .any(|&c| puzzle.get(usize::from(c)) == digit)
                    })
                };
                let expected = S::units_of(cell).into_iter().any(|unit| {
                    S::unit(unit).iter().all(|&other| {
                        let other = usize::from(other);
                        other == cell || puzzle.get(other) != 0 || sees(other)
                    })
                });
                assert_eq!(places.hidden_single::<S>(cell, digit), expected, "{puzzle}");
                if below(&mut rng, 2) == 0 {
                    places.empty::<S>(cell);
                } else {
                    puzzle.set(cell, digit);
                    places.toggle::<S>(cell, digit);
                }
            }
        }
    }

    #[test]
    fn hidden_singles_come_from_the_masks() {
        hidden_singles_agree::<Four>(50);
        hidden_singles_agree::<Nine>(30);
        hidden_singles_agree::<Sixteen>(4);
        hidden_singles_agree::<crate::shape::TwentyFive>(1);
    }
}
