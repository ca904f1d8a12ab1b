//! Naked and hidden subsets: `k` cells of a unit holding `k` digits between them, or `k`
//! digits of a unit confined to `k` cells.

use crate::rating::logic::{Found, Logic};
use crate::shape::Shape;

/// Units as a mask, bit `u` for unit `u` (rows, then columns, then boxes): up to the 75 of
/// 25×25.
pub(in crate::rating) type Units = u128;

/// A search for naked or hidden subsets of `k` (2 to 4), one unit at a time: what a subset
/// finds in a unit rests on that unit's cells alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::rating) enum Subsets {
    Naked(u32),
    Hidden(u32),
}

impl Subsets {
    /// How many searches there are, for [`Subsets::slot`].
    pub(in crate::rating) const SLOTS: usize = 6;

    /// The search's place among the [`Subsets::SLOTS`].
    pub(in crate::rating) fn slot(self) -> usize {
        match self {
            Subsets::Naked(k) => k as usize - 2,
            Subsets::Hidden(k) => k as usize + 1,
        }
    }

    /// Offers the subsets of the units in `units`, in order of unit, until `found` returns
    /// true.
    pub(in crate::rating) fn run<S: Shape>(
        self,
        logic: &Logic<S>,
        units: Units,
        found: &mut Found<'_, S>,
    ) {
        match self {
            Subsets::Naked(k) => naked_subset(logic, k, units, found),
            Subsets::Hidden(k) => hidden_subset(logic, k, units, found),
        }
    }
}

/// Every unit of size `S`.
pub(in crate::rating) fn all_units<S: Shape>() -> Units {
    Units::MAX >> (Units::BITS as usize - S::UNITS)
}

/// The units of `units` that size `S` has, in increasing order.
fn each<S: Shape>(units: Units) -> impl Iterator<Item = usize> {
    let mut units = units & all_units::<S>();
    std::iter::from_fn(move || {
        (units != 0).then(|| {
            let unit = units.trailing_zeros() as usize;
            units &= units - 1;
            unit
        })
    })
}

/// Calls `visit` with every `k`-subset of the set bits of `items` (as a mask) whose `masks`
/// (one per bit) cover exactly `k` bits between them, and with that cover, in increasing
/// order of their lowest bits, until it returns true. A subset is dropped as soon as its
/// first members cover more than `k`, so supersets of such a start are never built.
pub(super) fn covering_subsets(
    items: u32,
    k: u32,
    masks: &[u32; 32],
    visit: &mut impl FnMut(u32, u32) -> bool,
) -> bool {
    fn go(
        items: u32,
        left: u32,
        (chosen, cover): (u32, u32),
        k: u32,
        masks: &[u32; 32],
        visit: &mut impl FnMut(u32, u32) -> bool,
    ) -> bool {
        if left == 0 {
            return cover.count_ones() == k && visit(chosen, cover);
        }
        let mut rest = items;
        while rest.count_ones() >= left {
            let bit = rest & rest.wrapping_neg();
            rest &= rest - 1;
            let wider = cover | masks[bit.trailing_zeros() as usize];
            if wider.count_ones() <= k && go(rest, left - 1, (chosen | bit, wider), k, masks, visit)
            {
                return true;
            }
        }
        false
    }
    go(items, k, (0, 0), k, masks, visit)
}

/// Naked subsets of `k` cells: `k` open cells of a unit holding `k` digits between them, in
/// the units of `units`.
pub(super) fn naked_subset<S: Shape>(
    logic: &Logic<S>,
    k: u32,
    units: Units,
    found: &mut Found<'_, S>,
) {
    for unit in each::<S>(units) {
        let cells = S::unit(unit);
        let open = (0..S::N).fold(0u32, |m, p| {
            m | u32::from(logic.value[cells[p] as usize] == 0) << p
        });
        if open.count_ones() <= k {
            continue;
        }
        // Only cells with at most k candidates can be among the k: the subsets of those
        // come in the same order as among all open cells, so the first found is the same.
        let small = (0..S::N).fold(open, |m, p| {
            m & !(u32::from(logic.cand[cells[p] as usize].count_ones() > k) << p)
        });
        let mut cands = [0u32; 32];
        for (p, &cell) in cells.iter().enumerate() {
            cands[p] = logic.cand[cell as usize];
        }
        let done = covering_subsets(small, k, &cands, &mut |chosen, digits| {
            let mut removal = S::cells(0u32);
            let mut any = false;
            let rest = open & !chosen;
            for p in (0..S::N).filter(|&p| rest >> p & 1 != 0) {
                let cell = cells[p] as usize;
                if logic.cand[cell] & digits != 0 {
                    removal[cell] = logic.cand[cell] & digits;
                    any = true;
                }
            }
            any && found(logic, &removal, unit)
        });
        if done {
            return;
        }
    }
}

/// Hidden subsets of `k` digits: `k` missing digits of a unit confined to `k` cells, in the
/// units of `units`.
pub(in crate::rating) fn hidden_subset<S: Shape>(
    logic: &Logic<S>,
    k: u32,
    units: Units,
    found: &mut Found<'_, S>,
) {
    for unit in each::<S>(units) {
        let missing = logic.missing(unit);
        if missing.count_ones() <= k {
            continue;
        }
        let cells = S::unit(unit);
        let table = logic.unit_places(unit);
        // Only digits with at most k places can be among the k (the same order argument
        // as for naked subsets).
        let few = (0..S::N).fold(missing, |m, d| {
            m & !(u32::from(table[d].count_ones() > k) << d)
        });
        let done = covering_subsets(few, k, &table, &mut |digits, places| {
            let mut removal = S::cells(0u32);
            let mut any = false;
            for p in (0..S::N).filter(|&p| places >> p & 1 != 0) {
                let cell = cells[p] as usize;
                if logic.cand[cell] & !digits != 0 {
                    removal[cell] = logic.cand[cell] & !digits;
                    any = true;
                }
            }
            any && found(logic, &removal, unit)
        });
        if done {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::first_offer;
    use super::*;
    use crate::grid::Grid;
    use crate::shape::Nine;

    #[test]
    fn naked_pairs_clear_the_rest_of_a_unit_whose_first_cell_is_filled() {
        // Row 1 begins with a clue, and cells 4 and 8 hold just 3 and 7: the row's other
        // open cells lose both.
        let mut puzzle = Grid::<Nine>::empty();
        puzzle.set(0, 5);
        let mut logic = Logic::new(&puzzle).unwrap();
        (logic.cand[4], logic.cand[8]) = (0b100_0100, 0b100_0100);
        let rest: Vec<(usize, u32)> = [1, 2, 3, 5, 6, 7].map(|c| (c, 0b100_0100)).to_vec();
        assert_eq!(
            first_offer(&logic, |l, f| naked_subset(l, 2, Units::MAX, f)),
            rest
        );
    }

    #[test]
    fn covering_subsets_are_enumerated_once_in_order() {
        // Item i covers bit i: every 2-subset covers two bits.
        let masks: [u32; 32] = std::array::from_fn(|i| 1 << i);
        let mut seen = Vec::new();
        covering_subsets(0b10110, 2, &masks, &mut |s, cover| {
            seen.push((s, cover));
            false
        });
        assert_eq!(
            seen,
            vec![(0b00110, 0b00110), (0b10010, 0b10010), (0b10100, 0b10100)]
        );
        // Items 1 and 2 cover three bits together, items 1 and 4 one: only {1, 4} is kept
        // among pairs, and a visit returning true stops the walk.
        let mut masks = [0u32; 32];
        (masks[1], masks[2], masks[4]) = (0b011, 0b100, 0b001);
        let mut seen = Vec::new();
        covering_subsets(0b10110, 2, &masks, &mut |s, cover| {
            seen.push((s, cover));
            true
        });
        assert_eq!(seen, vec![(0b10010, 0b011)]);
    }
}
