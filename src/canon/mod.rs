//! Canonical forms: one representative for every puzzle equivalent under the Sudoku group.
//!
//! Two puzzles are the same puzzle to a solver when one becomes the other by relabelling
//! digits, transposing, permuting bands, stacks, rows within a band or columns within a
//! stack. The canonical form of a puzzle is the lexicographically smallest text (`.` before
//! `1` before `2` …) over that whole group: for 9×9, 9! × 2 × 6⁸ transformations.
//!
//! For a fixed arrangement of cells, the smallest relabelling numbers digits in order of
//! first appearance, so the search is over arrangements only. It builds the output one row
//! at a time, for both orientations: every source row the band structure allows is tried
//! under every arrangement kept so far, and only the arrangements that give the smallest
//! row go on to the next. Columns are not enumerated. They are an
//! ordered partition refined by each row placed: columns (and whole stacks) that every row
//! so far leaves empty are still interchangeable, and the smallest row sorts the rest, so
//! the only column choices ever branched on are the orders of digits that appear for the
//! first time in the same block, which give the same row and different labellings. Rows
//! whose columns are all in place are read straight, and given up at the first value larger
//! than the best row's.
//!
//! A complete grid would tie every column order in its first row, so its first two rows are
//! placed together (`Search::complete_top`): the second row is built column by column,
//! each choice placing the first-row column of its digit as early as it can go.
//!
//! Canonical forms are computed for 4×4 and 9×9. For 16×16 and 25×25 the search has no
//! bound this module can promise (the group of 16×16 alone has 16! × 2 × 24¹⁰ elements, and
//! a sparse puzzle ties many of them row after row), and two random puzzles of those sizes
//! are equivalent with vanishing probability, so [`supported`] refuses them.
//!
//! The search is in `search.rs`; the first two rows of a complete grid, placed together,
//! in `top.rs`.

mod search;
mod top;

use crate::grid::Grid;
use crate::hash::puzzle_id_hex;
use crate::shape::{Shape, Size};
use search::{Node, Search};

/// The largest side handled: 9.
const MAX_N: usize = 9;

/// `Ok` when canonical forms are computed for grids of `size`; otherwise why not.
pub fn supported(size: Size) -> Result<(), String> {
    if size.n() <= MAX_N {
        Ok(())
    } else {
        Err(format!(
            "canonical forms are computed for 4×4 and 9×9 only: for {n}×{n} no pruned search \
             with a bounded cost is known here, and two random {n}×{n} puzzles are equivalent \
             with vanishing probability, so use --dedup exact",
            n = size.n()
        ))
    }
}

/// The canonical form of `grid`, as [`Canonicalizer::canonical`] gives it. For many
/// puzzles, keep a [`Canonicalizer`] instead: it reuses its buffers.
pub fn canonical<S: Shape>(grid: &Grid<S>) -> Option<Grid<S>> {
    Canonicalizer::new().canonical(grid)
}

/// The `canon_id` of `grid`: [`crate::hash::puzzle_id`] of its canonical text, 16 hex digits.
pub fn canon_id<S: Shape>(grid: &Grid<S>) -> Option<String> {
    canonical(grid).map(|canon| puzzle_id_hex(canon.to_string()))
}

/// A row of a grid, its digits by column.
type Row = [u8; MAX_N];

/// Computes canonical forms, keeping its buffers from one puzzle to the next: keep one per
/// thread. The search holds every arrangement whose rows so far are the smallest possible
/// (the ties), and extends them all by one row at a time.
#[derive(Debug, Default)]
pub struct Canonicalizer {
    ties: Vec<Node>,
    next: Vec<Node>,
}

impl Canonicalizer {
    /// A canonicalizer with empty buffers.
    pub fn new() -> Self {
        Self::default()
    }

    /// The canonical form of `grid`: the smallest text of any grid equivalent to it. `None`
    /// for sizes past 9×9 (see [`supported`]). `grid` must hold no digit twice in a row,
    /// column or box ([`Grid::conflict`]); for one that does, the result is unspecified (but
    /// the call returns).
    pub fn canonical<S: Shape>(&mut self, grid: &Grid<S>) -> Option<Grid<S>> {
        if S::N > MAX_N {
            return None;
        }
        let mut rows = [[0u8; MAX_N]; MAX_N];
        for (cell, &digit) in grid.digits().iter().enumerate() {
            rows[cell / S::N][cell % S::N] = digit;
        }
        let search = Search::new(S::BOX, rows);
        let mut digits = [0u8; MAX_N * MAX_N];
        let mut placed = 0;
        self.ties.clear();
        if grid.is_solution() {
            // A complete grid: its first row ties every column order, so the first two
            // rows are placed together.
            let second = search.complete_top(&mut self.ties);
            for (p, value) in digits.iter_mut().take(S::N).enumerate() {
                *value = p as u8 + 1;
            }
            digits[S::N..2 * S::N].copy_from_slice(&second[..S::N]);
            placed = 2;
        } else {
            self.ties.extend([search.root(0), search.root(1)]);
        }
        for depth in placed..S::N {
            let row = search.extend(depth, &self.ties, &mut self.next);
            digits[depth * S::N..(depth + 1) * S::N].copy_from_slice(&row[..S::N]);
            std::mem::swap(&mut self.ties, &mut self.next);
        }
        Grid::from_digits(&digits[..S::CELLS])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{Four, Nine};

    #[test]
    fn sizes_past_nine_are_refused() {
        assert!(supported(Size::Four).is_ok() && supported(Size::Nine).is_ok());
        let err = supported(Size::Sixteen).unwrap_err();
        assert!(
            err.contains("16×16") && err.contains("--dedup exact"),
            "{err}"
        );
        assert!(canonical(&Grid::<crate::shape::Sixteen>::empty()).is_none());
    }

    #[test]
    fn the_empty_grid_is_its_own_form() {
        assert_eq!(canonical(&Grid::<Nine>::empty()), Some(Grid::empty()));
        assert_eq!(canonical(&Grid::<Four>::empty()), Some(Grid::empty()));
    }
}
