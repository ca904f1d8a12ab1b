//! Strong links on one digit: turbot fish (skyscrapers, two-string kites, turbot cranes),
//! grouped turbot fish and empty rectangles (`turbot.rs`: two links), and chains of three
//! strong links (`three.rs`). Each search looks at the digits of its mask `digits` alone
//! (see [`super::DigitFinder`]). This file holds what both kinds share: a digit's strong
//! links, and the ends of grouped links.

mod three;
mod turbot;

use crate::shape::Shape;
pub(super) use three::{ThreeLinks, grouped_three_links, three_links};
pub(super) use turbot::{Turbot, empty_rectangle, grouped_turbot, turbot};

/// A strong link on a digit: its two places, and the unit.
type Link = (usize, usize, usize);

/// The strong links on digit `d` of the first `units` units, whose places by digit `table`
/// holds, in unit order into `links`: how many, and how many of them lie in rows and in
/// lines (rows, then columns, then boxes). With `flat_boxes` false, a box's link whose two
/// places lie on one line is left out, as Sukaku Explainer leaves it out of its chains.
fn strong_links<S: Shape>(
    table: &S::Units<[u32; 32]>,
    units: usize,
    d: usize,
    flat_boxes: bool,
    links: &mut [Link],
) -> (usize, usize, usize) {
    let (mut len, mut rows, mut lines) = (0, 0, 0);
    for unit in 0..units {
        let places = table.as_ref()[unit][d];
        if places.count_ones() == 2 {
            let cells = S::unit(unit);
            let a = cells[places.trailing_zeros() as usize] as usize;
            let b = cells[(31 - places.leading_zeros()) as usize] as usize;
            let flat = unit >= 2 * S::N
                && link_unit(S::units_of(a), S::units_of(b)).is_some_and(|u| u < 2 * S::N);
            if flat_boxes || !flat {
                links[len] = (a, b, unit);
                len += 1;
            }
        }
        if unit + 1 == S::N {
            rows = len;
        }
        if unit + 1 == 2 * S::N {
            lines = len;
        }
    }
    (len, rows, lines)
}

/// A link end: one cell or a group of them, all in one box segment of a line.
#[derive(Clone, Copy, Debug)]
struct End {
    cells: [usize; 5],
    len: usize,
    /// The row, column and box every cell lies in (`usize::MAX` where they differ).
    units: [usize; 3],
}

impl End {
    fn new<S: Shape>(cells: &[usize]) -> End {
        let mut end = End {
            cells: [0; 5],
            len: cells.len(),
            units: S::units_of(cells[0]),
        };
        end.cells[..cells.len()].copy_from_slice(cells);
        for &cell in &cells[1..] {
            for (mine, unit) in end.units.iter_mut().zip(S::units_of(cell)) {
                if *mine != unit {
                    *mine = usize::MAX;
                }
            }
        }
        end
    }

    fn cells(&self) -> &[usize] {
        &self.cells[..self.len]
    }

    /// The unit the cells of both ends lie in ([`link_unit`]).
    fn common(&self, other: &End) -> Option<usize> {
        link_unit(self.units, other.units)
    }
}

/// The unit shared by two cells or groups, given the row, column and box each lies in
/// (`usize::MAX` where a group's cells differ), as SE names the unit of a link: a column,
/// else a row, else a box.
fn link_unit(one: [usize; 3], other: [usize; 3]) -> Option<usize> {
    [1, 0, 2]
        .into_iter()
        .map(|k| one[k])
        .find(|&u| u != usize::MAX && other.contains(&u))
}
