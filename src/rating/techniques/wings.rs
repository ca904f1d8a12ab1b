//! Wings: XY-Wing, XYZ-Wing, and the WXYZ- and VWXYZ-Wings of almost locked sets.

use std::cmp::Reverse;

use super::sees;
use crate::rating::logic::{Found, Logic};
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
    // Cells of two candidates or more, few enough for a set.
    let mut open = S::cells(false);
    for (cell, open) in open.as_mut().iter_mut().enumerate() {
        *open = (2..=size + 1).contains(&(logic.cand[cell].count_ones() as usize));
    }
    let mut wings = AlsWings::new(logic, size, tenths);
    for_each_set(logic, size, &open, |set| wings.weigh(set));
    if let Some((_, removal)) = wings.best {
        found(logic, &removal, 0);
    }
}

/// Calls `each` with every set of `size` cells of one unit, each of them `open` (holding two
/// to `size + 1` candidates), that hold at most `size + 1` digits between them: the sets of
/// [`als_wing`]'s wings (cells that see one another lie in one unit). A box's three cells on
/// one line are taken in the line alone.
fn for_each_set<S: Shape>(
    logic: &Logic<S>,
    size: usize,
    open: &S::Cells<bool>,
    mut each: impl FnMut(&[usize]),
) {
    let fits = |cells: &[usize]| {
        let digits = cells.iter().fold(0, |all, &x| all | logic.cand[x]);
        digits.count_ones() as usize <= size + 1
    };
    let in_line = |set: &[usize; 3]| {
        let units = set.map(S::units_of);
        (0..2).any(|k| units.iter().all(|u| u[k] == units[0][k]))
    };
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
                            each(&three);
                        }
                        continue;
                    }
                    for &l in &cells[k + 1..] {
                        let four = [cells[i], cells[j], cells[k], l];
                        if fits(&four) {
                            each(&four);
                        }
                    }
                }
            }
        }
    }
}

/// How [`als_wing`] orders its wings: by eliminations, then SE's order (the set's cells,
/// then the fourth cell), first highest.
type WingKey = (u32, Reverse<([usize; 4], usize)>);

/// The digits a wing eliminates, each with whether the cells that lose it must see the
/// fourth cell too (besides the set's cells that hold it).
type Doomed = [(u32, bool); 5];

/// [`als_wing`]'s search: the grid, the wing it looks for, the grid's cells of two
/// candidates (the fourth cells), and the best wing found so far with its eliminations.
struct AlsWings<'a, S: Shape> {
    logic: &'a Logic<S>,
    size: usize,
    tenths: u32,
    pairs: S::Cells<u16>,
    pairs_len: usize,
    best: Option<(WingKey, S::Cells<u32>)>,
}

impl<'a, S: Shape> AlsWings<'a, S> {
    fn new(logic: &'a Logic<S>, size: usize, tenths: u32) -> Self {
        let mut pairs = S::cells(0u16);
        let mut pairs_len = 0;
        for cell in 0..S::CELLS {
            if logic.cand[cell].count_ones() == 2 {
                pairs[pairs_len] = cell as u16;
                pairs_len += 1;
            }
        }
        AlsWings {
            logic,
            size,
            tenths,
            pairs,
            pairs_len,
            best: None,
        }
    }

    /// Weighs the wings of `set` with each fourth cell, when the set is an almost locked
    /// set of the wing's rating, keeping the best.
    fn weigh(&mut self, set: &[usize]) {
        let cand = &self.logic.cand;
        let digits = set.iter().fold(0, |all, &x| all | cand[x]);
        let largest = set.iter().map(|&x| cand[x].count_ones()).max();
        if digits.count_ones() as usize != self.size + 1
            || als_wing_tenths(self.size, largest.unwrap_or(0)) != self.tenths
        {
            return;
        }
        for &y in &self.pairs.as_ref()[..self.pairs_len] {
            let y = y as usize;
            if cand[y] & !digits != 0 || set.contains(&y) {
                continue;
            }
            let Some(doomed) = self.doomed(set, digits, y) else {
                continue;
            };
            let (count, removal) = self.removal(set, y, &doomed);
            let mut cells = [0; 4];
            cells[..set.len()].copy_from_slice(set);
            let key = (count, Reverse((cells, y)));
            if count > 0 && self.best.as_ref().is_none_or(|b| key > b.0) {
                self.best = Some((key, removal));
            }
        }
    }

    /// The digits the wing of `set` (holding `digits`) and the fourth cell `y` eliminates;
    /// `None` when neither of `y`'s digits is restricted (every cell of the set that holds
    /// it sees `y`), which makes no wing.
    fn doomed(&self, set: &[usize], digits: u32, y: usize) -> Option<Doomed> {
        let cand = &self.logic.cand;
        let pair = cand[y];
        let restricted = |bit: u32| set.iter().all(|&x| cand[x] & bit == 0 || sees::<S>(y, x));
        let (x_bit, z_bit) = (pair & pair.wrapping_neg(), pair & (pair - 1));
        let mut doomed = [(0u32, false); 5];
        match (restricted(x_bit), restricted(z_bit)) {
            (false, false) => return None,
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
        Some(doomed)
    }

    /// The eliminations of the `doomed` digits of the wing of `set` and `y`, and how many.
    fn removal(&self, set: &[usize], y: usize, doomed: &Doomed) -> (u32, S::Cells<u32>) {
        let cand = &self.logic.cand;
        // The cells that see every one of the set that holds digit `bit`, and `also` if
        // given; outside the set and `also`.
        let seeing_all = |bit: u32, also: Option<usize>, cell: usize| {
            !set.contains(&cell)
                && also != Some(cell)
                && set
                    .iter()
                    .all(|&x| cand[x] & bit == 0 || sees::<S>(cell, x))
                && also.is_none_or(|y| sees::<S>(cell, y))
        };
        let mut removal = S::cells(0u32);
        let mut count = 0;
        for &(bit, with_y) in doomed.iter().filter(|d| d.0 != 0) {
            // A cell that loses the digit sees the fourth cell, or the first of the set that
            // holds it.
            let anchor = match with_y {
                true => Some(y),
                false => set.iter().copied().find(|&x| cand[x] & bit != 0),
            };
            let Some(anchor) = anchor else { continue };
            for &cell in S::peers(anchor) {
                let cell = cell as usize;
                let hit = cand[cell] & bit != 0
                    && cell != y
                    && seeing_all(bit, with_y.then_some(y), cell);
                if hit {
                    removal[cell] |= bit;
                    count += 1;
                }
            }
        }
        (count, removal)
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
