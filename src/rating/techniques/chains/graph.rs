//! The implications a chain follows, from each potential of a grid: which potentials an
//! on potential turns off and an off one turns on, and, on grids of at most 128 cells, the
//! same links as masks of cells.

use super::{Links, NONE};
use crate::rating::logic::Logic;
use crate::shape::Shape;

/// The grid the implications follow. Potentials are numbered `N · cell + d` for digit
/// `d + 1`.
pub(in crate::rating::techniques) struct Graph<'a, S: Shape> {
    pub(super) logic: &'a Logic<S>,
    /// For each unit and digit (`N · unit + d`), the cells that allow the digit, in the
    /// unit's order: `N` slots each, of which `counts` are used.
    places: Vec<u16>,
    counts: Vec<u8>,
    /// On grids of at most 128 cells, the same links as cell masks.
    pub(super) masks: Option<Masks>,
}

/// The links of a grid of at most 128 cells (4×4, 9×9) as masks of cells (bit `cell`), so
/// that a forcing chain's search takes a layer of potentials a digit at a time.
pub(super) struct Masks {
    /// For each digit, the cells that allow it.
    pub(super) allow: [u128; 9],
    /// For each digit and cell (`CELLS · d + cell`), the other place of the digit in each
    /// unit of the cell that has two.
    pub(super) pairs: Vec<u128>,
    /// The cells of two candidates.
    pub(super) bivalue: u128,
}

impl<'a, S: Shape> Graph<'a, S> {
    pub(in crate::rating::techniques) fn new(logic: &'a Logic<S>) -> Self {
        let mut places = vec![0; S::UNITS * S::N * S::N];
        let mut counts = vec![0; S::UNITS * S::N];
        for unit in 0..S::UNITS {
            for &cell in S::unit(unit) {
                let mut digits = logic.cand[cell as usize];
                while digits != 0 {
                    let i = S::N * unit + digits.trailing_zeros() as usize;
                    digits &= digits - 1;
                    places[S::N * i + usize::from(counts[i])] = cell;
                    counts[i] += 1;
                }
            }
        }
        let masks = (!S::peer_masks().is_empty()).then(|| {
            let mut masks = Masks {
                allow: [0; 9],
                pairs: vec![0; S::N * S::CELLS],
                bivalue: 0,
            };
            for (cell, &cand) in logic.cand.as_ref().iter().enumerate() {
                for (d, allow) in masks.allow.iter_mut().enumerate().take(S::N) {
                    *allow |= u128::from(cand >> d & 1) << cell;
                }
                masks.bivalue |= u128::from(cand.count_ones() == 2) << cell;
            }
            for unit in 0..S::UNITS {
                for d in 0..S::N {
                    let i = S::N * unit + d;
                    if counts[i] == 2 {
                        let (a, b) = (
                            usize::from(places[S::N * i]),
                            usize::from(places[S::N * i + 1]),
                        );
                        masks.pairs[S::CELLS * d + a] |= 1 << b;
                        masks.pairs[S::CELLS * d + b] |= 1 << a;
                    }
                }
            }
            masks
        });
        Graph {
            logic,
            places,
            counts,
            masks,
        }
    }

    /// The cells of `unit` that allow digit `d + 1`, in the unit's order.
    #[inline]
    pub(in crate::rating::techniques) fn places(&self, unit: usize, d: usize) -> &[u16] {
        let i = S::N * unit + d;
        &self.places[S::N * i..][..usize::from(self.counts[i])]
    }

    /// Calls `off` with each potential that on potential `p` turns off, in SE's order: the
    /// cell's other digits (with Y-links), then the digit in the box, the rest of the row and
    /// the rest of the column.
    #[inline]
    pub(in crate::rating::techniques) fn on_to_off(
        &self,
        p: u32,
        links: Links,
        mut off: impl FnMut(u32),
    ) {
        let (cell, d) = (p as usize / S::N, p as usize % S::N);
        if links.y() {
            let mut others = self.logic.cand[cell] & !(1 << d);
            while others != 0 {
                off((S::N * cell) as u32 + others.trailing_zeros());
                others &= others - 1;
            }
        }
        let [row, col, boxed] = S::units_of(cell);
        for &other in self.places(boxed, d) {
            if usize::from(other) != cell {
                off((S::N * usize::from(other) + d) as u32);
            }
        }
        for unit in [row, col] {
            for &other in self.places(unit, d) {
                if S::units_of(usize::from(other))[2] != boxed {
                    off((S::N * usize::from(other) + d) as u32);
                }
            }
        }
    }

    /// Calls `on` with each potential that off potential `p` turns on, once each, in SE's
    /// order: the cell's other digit if it has two (with Y-links), then the digit's other
    /// place in the box, the row and the column, where it has two (with X-links).
    #[inline]
    pub(in crate::rating::techniques) fn off_to_on(
        &self,
        p: u32,
        links: Links,
        mut on: impl FnMut(u32),
    ) {
        let (cell, d) = (p as usize / S::N, p as usize % S::N);
        let cand = self.logic.cand[cell];
        if links.y() && cand.count_ones() == 2 {
            let other = (cand & !(1 << d)).trailing_zeros();
            on((S::N * cell) as u32 + other);
        }
        if links.x() {
            let [row, col, boxed] = S::units_of(cell);
            let mut turned = [NONE; 3];
            for (k, unit) in [boxed, row, col].into_iter().enumerate() {
                if let &[a, b] = self.places(unit, d) {
                    let other = u32::from(if usize::from(a) == cell { b } else { a });
                    // A cell that the box and a line both pair it with counts once.
                    if !turned.contains(&other) {
                        on((S::N as u32) * other + d as u32);
                        turned[k] = other;
                    }
                }
            }
        }
    }
}
