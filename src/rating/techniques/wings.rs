//! Wings: XY-Wing, XYZ-Wing, and the WXYZ- and VWXYZ-Wings of almost locked sets.

use std::cmp::Reverse;

use super::sees;
use crate::logic::{Found, Logic};
use crate::shape::Shape;

/// XY-Wing (pivot {x,y}, pincers {x,z} and {y,z} it sees) or, with `xyz`, XYZ-Wing (pivot
/// {x,y,z}, pincers {x,z} and {y,z}): z leaves every cell that sees both pincers (and, for
/// XYZ, the pivot).
pub(super) fn wing<S: Shape>(logic: &Logic<S>, xyz: bool, found: &mut Found<'_, S>) {
    let size = if xyz { 3 } else { 2 };
    for pivot in 0..S::CELLS {
        let p = logic.cand[pivot];
        if p.count_ones() != size {
            continue;
        }
        let peers = S::peers(pivot);
        // The peers holding two digits, and those of them that share one digit with the
        // pivot (an XY-Wing) or two (an XYZ-Wing), by peer index, found without a branch
        // each: which peers qualify follows the grid.
        let shared = if xyz { 2 } else { 1 };
        let (mut bivalue, mut first) = (0u64, 0u64);
        for (i, &a) in peers.iter().enumerate() {
            let ca = logic.cand[a as usize];
            let two = u64::from(ca.count_ones() == 2);
            bivalue |= two << i;
            first |= (two & u64::from((ca & p).count_ones() == shared)) << i;
        }
        while first != 0 {
            let i = first.trailing_zeros();
            first &= first - 1;
            let a = peers[i as usize] as usize;
            let ca = logic.cand[a];
            // The bivalue peers after `a`.
            let mut second = bivalue & !(2u64 << i).wrapping_sub(1);
            while second != 0 {
                let b = peers[second.trailing_zeros() as usize] as usize;
                second &= second - 1;
                let cb = logic.cand[b];
                if cb == ca {
                    continue;
                }
                let z = ca & cb;
                let fits = if xyz {
                    z.count_ones() == 1 && ca | cb == p
                } else {
                    z.count_ones() == 1 && z & p == 0 && (ca | cb) & !z == p
                };
                if !fits {
                    continue;
                }
                let mut removal = S::cells(0u32);
                let mut any = false;
                for &cell in S::peers(a) {
                    let cell = cell as usize;
                    let sees_all = sees::<S>(cell, b) && (!xyz || sees::<S>(cell, pivot));
                    if sees_all && cell != pivot && logic.cand[cell] & z != 0 {
                        removal[cell] = z;
                        any = true;
                    }
                }
                if any && found(logic, &removal, 0) {
                    return;
                }
            }
        }
    }
}

/// WXYZ- and VWXYZ-Wings (Sukaku Explainer's, an ALS-XZ whose smaller set is one cell): `size`
/// cells that see one another (three or four, so all in one unit) holding `size + 1` digits
/// between them (an almost locked set: one of the digits is placed outside the cells), each
/// holding two or more, and a fourth cell holding exactly two of those digits, x and z.
/// When every cell of the set that holds x sees the fourth cell, x cannot be in both, so the
/// set holds z or the fourth cell does: z leaves every cell that sees the fourth and all of
/// the set's cells that hold it. When z too is restricted that way, the cells are locked:
/// each of their digits leaves every cell that sees all of them that hold it (the fourth
/// counting for x and z).
///
/// SE rates a wing by its size and the most candidates a cell of the set holds
/// ([`als_wing_tenths`]); this offers the wing rated `tenths` with the most eliminations.
pub(super) fn als_wing<S: Shape>(
    logic: &Logic<S>,
    size: usize,
    tenths: u32,
    found: &mut Found<'_, S>,
) {
    type Key = (u32, Reverse<([usize; 4], usize)>);
    let mut best: Option<(Key, S::Cells<u32>)> = None;
    // Cells of two candidates or more (few enough for the set), and of two.
    let mut open = S::cells(false);
    let mut pairs = S::cells(0u16);
    let mut len = 0;
    for cell in 0..S::CELLS {
        let count = logic.cand[cell].count_ones() as usize;
        open[cell] = (2..=size + 1).contains(&count);
        if count == 2 {
            pairs[len] = cell as u16;
            len += 1;
        }
    }
    let pairs = &pairs.as_ref()[..len];
    let cand = |cells: &[usize]| cells.iter().fold(0, |all, &x| all | logic.cand[x]);
    let mut weigh = |set: &[usize]| {
        let digits = cand(set);
        let largest = set.iter().map(|&x| logic.cand[x].count_ones()).max();
        if digits.count_ones() as usize != size + 1
            || als_wing_tenths(size, largest.unwrap_or(0)) != tenths
        {
            return;
        }
        // The cells that see every one of the set that holds digit `bit`, and `also` if
        // given; outside the set and `also`.
        let seeing_all = |bit: u32, also: Option<usize>, cell: usize| {
            !set.contains(&cell)
                && also != Some(cell)
                && set
                    .iter()
                    .all(|&x| logic.cand[x] & bit == 0 || sees::<S>(cell, x))
                && also.is_none_or(|y| sees::<S>(cell, y))
        };
        for &y in pairs {
            let (y, pair) = (y as usize, logic.cand[y as usize]);
            if pair & !digits != 0 || set.contains(&y) {
                continue;
            }
            let restricted = |bit: u32| {
                set.iter()
                    .all(|&x| logic.cand[x] & bit == 0 || sees::<S>(y, x))
            };
            let (x_bit, z_bit) = (pair & pair.wrapping_neg(), pair & (pair - 1));
            // The digits eliminated, each with whether the fourth cell must be seen too.
            let mut doomed = [(0u32, false); 5];
            match (restricted(x_bit), restricted(z_bit)) {
                (false, false) => continue,
                (true, false) => doomed[0] = (z_bit, true),
                (false, true) => doomed[0] = (x_bit, true),
                (true, true) => {
                    doomed[0] = (x_bit, true);
                    doomed[1] = (z_bit, true);
                    let mut rest = digits & !pair;
                    for slot in &mut doomed[2..] {
                        *slot = (rest & rest.wrapping_neg(), false);
                        rest &= rest.wrapping_sub(1);
                    }
                }
            }
            let mut removal = S::cells(0u32);
            let mut count = 0;
            for &(bit, with_y) in doomed.iter().filter(|d| d.0 != 0) {
                // A cell that loses the digit sees the fourth cell, or the first of the set
                // that holds it.
                let anchor = match with_y {
                    true => Some(y),
                    false => set.iter().copied().find(|&x| logic.cand[x] & bit != 0),
                };
                let Some(anchor) = anchor else { continue };
                for &cell in S::peers(anchor) {
                    let cell = cell as usize;
                    let hit = logic.cand[cell] & bit != 0
                        && cell != y
                        && seeing_all(bit, with_y.then_some(y), cell);
                    if hit {
                        removal[cell] |= bit;
                        count += 1;
                    }
                }
            }
            // SE takes the most eliminations, then the first wing in its order: by the
            // set's cells, then the fourth cell.
            let mut cells = [0; 4];
            cells[..set.len()].copy_from_slice(set);
            let key = (count, Reverse((cells, y)));
            if count > 0 && best.as_ref().is_none_or(|b| key > b.0) {
                best = Some((key, removal));
            }
        }
    };
    let fits = |cells: &[usize]| cand(cells).count_ones() as usize <= size + 1;
    // The sets: cells that see one another lie in one unit. A box's three cells on one line
    // are taken in the line alone.
    let mut open_cells = [0usize; 32];
    for unit in 0..S::UNITS {
        let mut len = 0;
        for &cell in S::unit(unit) {
            if open[cell as usize] {
                open_cells[len] = cell as usize;
                len += 1;
            }
        }
        let cells = &open_cells[..len];
        let in_line = |set: &[usize; 3]| {
            let units = set.map(S::units_of);
            (0..2).any(|k| units.iter().all(|u| u[k] == units[0][k]))
        };
        for i in 0..len {
            for j in i + 1..len {
                if !fits(&[cells[i], cells[j]]) {
                    continue;
                }
                for k in j + 1..len {
                    let three = [cells[i], cells[j], cells[k]];
                    if !fits(&three) {
                        continue;
                    }
                    if size == 3 {
                        if unit < 2 * S::N || !in_line(&three) {
                            weigh(&three);
                        }
                        continue;
                    }
                    for &l in &cells[k + 1..] {
                        let four = [cells[i], cells[j], cells[k], l];
                        if fits(&four) {
                            weigh(&four);
                        }
                    }
                }
            }
        }
    }
    if let Some((_, removal)) = best {
        found(logic, &removal, 0);
    }
}

/// Sukaku Explainer's rating of a wing of [`als_wing`] whose set has `size` cells, the
/// largest holding `largest` candidates, in tenths: a WXYZ-Wing (three cells) 5.5, or 5.6
/// when a cell of three is the largest; a VWXYZ-Wing (four) 6.2 for a cell of five, 6.3 for
/// two or four, 6.4 for three (its `getDifficulty`: cells of middling size rate highest).
fn als_wing_tenths(size: usize, largest: u32) -> u32 {
    let (base, middle) = if size == 3 { (55, 3) } else { (62, 3) };
    let spread = size as u32 - 2;
    base + spread - largest.abs_diff(middle)
}
