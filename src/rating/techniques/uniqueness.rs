//! Unique rectangles: techniques that rest on the puzzle having one solution (so do the
//! bivalue universal graves of `bug.rs` and the unique loops of `loops.rs`).

use super::sees;
use super::subsets::covering_subsets;
use crate::rating::logic::{Found, Logic};
use crate::shape::Shape;

/// Unique rectangles (SE rates types 1, 2 and 4 of a rectangle alike, 4.5, and type 3 with a
/// hidden pair, tried after them; see [`Roof::type_3`] for the rest of type 3): four cells on
/// two rows, two columns and two boxes that all hold the same two candidates, where a puzzle
/// with one solution cannot leave them only those two (they could swap round the rectangle).
/// Type 1: three corners hold just the two, so the fourth loses both. Then, with two corners
/// on one side holding just the two (the *floor*), the two others (the *roof*) keep the
/// rectangle alive: type 2, the roof holds one more digit, the same in both corners, so one of
/// them takes it and every cell that sees both loses it; type 4, one of the two digits has no
/// place but the roof in a unit the roof lies in, so the roof corners lose the other.
pub(super) fn unique_rectangle<S: Shape>(logic: &Logic<S>, found: &mut Found<'_, S>) {
    if !unique_rectangle_type_1(logic, found) {
        unique_rectangle_with_roof(logic, found);
    }
}

/// Unique rectangles of type 1 (see [`unique_rectangle`]); true when `found` stopped the
/// search.
fn unique_rectangle_type_1<S: Shape>(logic: &Logic<S>, found: &mut Found<'_, S>) -> bool {
    let n = S::N;
    // Per row, its cells with two candidates (a mask of columns). Three corners hold two
    // candidates: both in one column, one at least in the other. Rectangles without are
    // skipped, in the same order.
    let mut two = [0u32; 32];
    for (r, two) in two.iter_mut().enumerate().take(n) {
        *two = (0..n)
            .filter(|&c| logic.cand[r * n + c].count_ones() == 2)
            .fold(0, |m, c| m | 1 << c);
    }
    for r1 in 0..n {
        for r2 in r1 + 1..n {
            let (both, either) = (two[r1] & two[r2], two[r1] | two[r2]);
            if both == 0 {
                continue;
            }
            for c1 in (0..n).filter(|&c| either >> c & 1 != 0) {
                for c2 in (c1 + 1..n).filter(|&c| either >> c & 1 != 0) {
                    if (both >> c1 | both >> c2) & 1 == 0 {
                        continue;
                    }
                    let corners = [r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2];
                    let boxes = corners.map(|c| S::units_of(c)[2]);
                    let two_boxes = boxes.iter().filter(|&&b| b == boxes[0]).count() == 2;
                    if !two_boxes {
                        continue;
                    }
                    for odd in 0..4 {
                        let pair = logic.cand[corners[(odd + 1) % 4]];
                        let others_pair = pair.count_ones() == 2
                            && (0..4)
                                .filter(|&k| k != odd)
                                .all(|k| logic.cand[corners[k]] == pair);
                        let fourth = corners[odd];
                        if others_pair
                            && logic.cand[fourth] & pair == pair
                            && logic.cand[fourth] != pair
                        {
                            let mut removal = S::cells(0u32);
                            removal[fourth] = pair;
                            if found(logic, &removal, 0) {
                                return true;
                            }
                        }
                    }
                }
            }
        }
    }
    false
}

/// Unique rectangles of types 2 and 4 (see [`unique_rectangle`]), then the hidden sets of
/// type 3 SE rates with them ([`Roof::type_3`]).
fn unique_rectangle_with_roof<S: Shape>(logic: &Logic<S>, found: &mut Found<'_, S>) {
    let types_2_and_4 = roofs(logic, &mut |roof| {
        roof.type_2(logic, found) || roof.type_4(logic, found)
    });
    if !types_2_and_4 {
        roofs(logic, &mut |roof| {
            roof.type_3(logic, RECTANGLE_TENTHS, RECTANGLE_TENTHS, found)
        });
    }
}

/// SE's rating of unique rectangles of types 1, 2 and 4, in tenths.
pub(super) const RECTANGLE_TENTHS: u32 = 45;

/// Unique rectangles of type 3 that SE rates `tenths` (4.6 to 4.8; see [`Roof::type_3`]).
pub(super) fn unique_rectangle_type_3<S: Shape>(
    logic: &Logic<S>,
    tenths: u32,
    found: &mut Found<'_, S>,
) {
    roofs(logic, &mut |roof| {
        roof.type_3(logic, RECTANGLE_TENTHS, tenths, found)
    });
}

/// The roof of a rectangle on `pair` (see [`unique_rectangle`]): its two corners that may
/// hold more than the pair, in one row or one column; or the two cells of a unique loop
/// that hold more (see [`unique_loop`](super::loops::unique_loop)).
#[derive(Clone, Copy)]
pub(super) struct Roof {
    pub pair: u32,
    pub g1: usize,
    pub g2: usize,
}

/// Calls `visit` with the roof of every rectangle whose floor holds just the pair, floor by
/// floor: two cells with the same two candidates in a row (then a column), the first cell
/// before the second, until it returns true; true when it did.
fn roofs<S: Shape>(logic: &Logic<S>, visit: &mut impl FnMut(Roof) -> bool) -> bool {
    let n = S::N;
    let at = |r: usize, c: usize| r * n + c;
    for across in [true, false] {
        // Along a row the floor's cells differ in column and the roof lies in another row;
        // along a column, the other way round. `line` is the floor's row or column.
        let cell = |line: usize, k: usize| if across { at(line, k) } else { at(k, line) };
        for line in 0..n {
            for k1 in 0..n {
                let f1 = cell(line, k1);
                let pair = logic.cand[f1];
                if pair.count_ones() != 2 {
                    continue;
                }
                for k2 in k1 + 1..n {
                    let f2 = cell(line, k2);
                    if logic.cand[f2] != pair {
                        continue;
                    }
                    for roof_line in (0..n).filter(|&l| l != line) {
                        let (g1, g2) = (cell(roof_line, k1), cell(roof_line, k2));
                        let boxes = [f1, f2, g1, g2].map(|c| S::units_of(c)[2]);
                        let two_boxes = boxes.iter().filter(|&&b| b == boxes[0]).count() == 2;
                        let (c1, c2) = (logic.cand[g1], logic.cand[g2]);
                        if !two_boxes || c1 & pair != pair || c2 & pair != pair {
                            continue;
                        }
                        if visit(Roof { pair, g1, g2 }) {
                            return true;
                        }
                    }
                }
            }
        }
    }
    false
}

impl Roof {
    /// Type 2: both corners hold one digit more, the same; true when `found` stopped the search.
    pub(super) fn type_2<S: Shape>(self, logic: &Logic<S>, found: &mut Found<'_, S>) -> bool {
        let Roof { pair, g1, g2 } = self;
        let extra = logic.cand[g1] & !pair;
        if extra.count_ones() != 1 || logic.cand[g2] & !pair != extra {
            return false;
        }
        let mut removal = S::cells(0u32);
        let mut any = false;
        for &cell in S::peers(g1) {
            let cell = cell as usize;
            if cell != g2 && logic.cand[cell] & extra != 0 && sees::<S>(cell, g2) {
                removal[cell] = extra;
                any = true;
            }
        }
        any && found(logic, &removal, 0)
    }

    /// Type 4: in a unit both corners lie in, one digit of the pair has no other place, so both
    /// lose the other digit; true when `found` stopped the search.
    fn type_4<S: Shape>(self, logic: &Logic<S>, found: &mut Found<'_, S>) -> bool {
        let Roof { pair, g1, g2 } = self;
        let (u1, u2) = (S::units_of(g1), S::units_of(g2));
        for unit in (0..3).filter(|&k| u1[k] == u2[k]).map(|k| u1[k]) {
            let mut locked = pair;
            for &cell in S::unit(unit) {
                let cell = cell as usize;
                if cell != g1 && cell != g2 {
                    locked &= !logic.cand[cell];
                }
            }
            // One digit locked in the roof: the other goes from both corners (with both
            // locked, the roof would hold just the pair, and the puzzle no single solution).
            if locked.count_ones() == 1 {
                let mut removal = S::cells(0u32);
                removal[g1] = pair & !locked;
                removal[g2] = pair & !locked;
                if found(logic, &removal, unit) {
                    return true;
                }
            }
        }
        false
    }

    /// Type 3, as SE finds it: both corners hold more digits than the pair, at least two
    /// between them (the *extras*), and one corner at least takes one of them, or the
    /// rectangle would be deadly. So, in a unit both lie in, the roof acts as one cell holding
    /// the extras:
    ///
    /// - *naked*: with `k - 1` other cells of the unit, each of two candidates or more, it
    ///   makes a naked set of `k` digits (each extra not in both corners in one of those
    ///   cells), which the unit's other cells lose; SE rates it `base` + (k - 1)/10;
    /// - *hidden*: the pair and `k - 2` other digits have no place in the unit but the first
    ///   corner and `k - 1` other cells, which lose their other candidates; `base` + (k - 2)/10.
    ///
    /// Only the sets SE rates `tenths` are offered, `k` rising from the number of extras,
    /// `base` being the rating of the rectangle or loop itself (4.5 for a rectangle), in
    /// SE's units in its order (box, row, column), naked before hidden. Like SE, a naked set
    /// needs `2k` open cells in the unit at least and a hidden one more than `2k`, and `k`
    /// stops at 7; true when `found` stopped the search.
    pub(super) fn type_3<S: Shape>(
        self,
        logic: &Logic<S>,
        base: u32,
        tenths: u32,
        found: &mut Found<'_, S>,
    ) -> bool {
        let Roof { pair, g1, g2 } = self;
        let (a, b) = (logic.cand[g1], logic.cand[g2]);
        let extra = (a | b) & !pair;
        if a == pair || b == pair || extra.count_ones() < 2 {
            return false;
        }
        let (u1, u2) = (S::units_of(g1), S::units_of(g2));
        let shared = [2, 0, 1]
            .into_iter()
            .filter(|&k| u1[k] == u2[k])
            .map(|k| u1[k]);
        for k in extra.count_ones()..=7 {
            let naked = base + k - 1 == tenths;
            let hidden = base + k - 2 == tenths;
            if !naked && !hidden {
                continue;
            }
            for unit in shared.clone() {
                let open = logic.missing(unit).count_ones();
                // Naked first, as SE, which needs 2k open cells in the unit for a naked set
                // and more for a hidden one.
                let mut removal = None;
                if naked && 2 * k <= open {
                    removal = self.naked_set(logic, self.in_unit::<S>(unit, extra), k);
                }
                if removal.is_none() && hidden && 2 * k < open {
                    removal = self.hidden_set(logic, self.in_unit::<S>(unit, extra), k);
                }
                if removal.is_some_and(|removal| found(logic, &removal, unit)) {
                    return true;
                }
            }
        }
        false
    }

    /// The roof as `unit` holds it, with its `extra` digits.
    fn in_unit<S: Shape>(self, unit: usize, extra: u32) -> InUnit {
        let cells = S::unit(unit);
        let at = |cell: usize| cells.iter().position(|&c| c as usize == cell).unwrap_or(0);
        InUnit {
            unit,
            p1: at(self.g1),
            p2: at(self.g2),
            extra,
        }
    }

    /// [`Roof::type_3`]'s naked set of `k` digits in the unit of `at`: the roof, standing as
    /// one cell holding the extra digits, with `k - 1` other cells; the eliminations from the
    /// unit's other cells, if any.
    fn naked_set<S: Shape>(self, logic: &Logic<S>, at: InUnit, k: u32) -> Option<S::Cells<u32>> {
        let (p1, p2) = (at.p1, at.p2);
        let cells = S::unit(at.unit);
        // Items: the unit's positions, the first corner's standing for the roof.
        let mut masks = [0u32; 32];
        let mut items = 1 << p1;
        masks[p1] = at.extra;
        for (p, &cell) in cells.iter().enumerate() {
            let cand = logic.cand[cell as usize];
            if p != p1 && p != p2 && cand.count_ones() >= 2 {
                masks[p] = cand;
                items |= 1 << p;
            }
        }
        let both = at.extra & logic.cand[self.g1] & logic.cand[self.g2];
        let mut removal = S::cells(0u32);
        let mut any = false;
        covering_subsets(items, k, &masks, &mut |chosen, digits| {
            let others = chosen & !(1 << p1);
            let placed = (0..S::N)
                .filter(|&p| others >> p & 1 != 0)
                .fold(both, |m, p| m | masks[p]);
            if chosen >> p1 & 1 == 0 || placed != digits {
                return false;
            }
            for (p, &cell) in cells.iter().enumerate() {
                let cell = cell as usize;
                let outside = chosen >> p & 1 == 0 && p != p2;
                if outside && logic.cand[cell] & digits != 0 {
                    removal[cell] = logic.cand[cell] & digits;
                    any = true;
                }
            }
            any
        });
        any.then_some(removal)
    }

    /// [`Roof::type_3`]'s hidden set of `k` digits in the unit of `at`: the pair and `k - 2`
    /// other digits (none of the extra ones) with no place but the first corner and `k - 1`
    /// other cells; the eliminations of those cells' other candidates, if any.
    fn hidden_set<S: Shape>(self, logic: &Logic<S>, at: InUnit, k: u32) -> Option<S::Cells<u32>> {
        let (p1, p2) = (at.p1, at.p2);
        let cells = S::unit(at.unit);
        // Items: digits, each with its places in the unit but the second corner's.
        let mut masks = [0u32; 32];
        let rest = logic.missing(at.unit) & !self.pair & !at.extra;
        let items = rest | self.pair;
        for d in (0..S::N).filter(|&d| items >> d & 1 != 0) {
            masks[d] = logic.places(at.unit, 1 << d) & !(1 << p2);
            if masks[d] == 0 {
                // SE's tuple search fails on a digit without a place.
                masks[d] = u32::MAX;
            }
        }
        let mut removal = S::cells(0u32);
        let mut any = false;
        covering_subsets(items, k, &masks, &mut |digits, places| {
            if digits & self.pair != self.pair {
                return false;
            }
            for (p, &cell) in cells.iter().enumerate() {
                let cell = cell as usize;
                let inside = places >> p & 1 != 0 && p != p1;
                if inside && logic.cand[cell] & !digits != 0 {
                    removal[cell] = logic.cand[cell] & !digits;
                    any = true;
                }
            }
            any
        });
        any.then_some(removal)
    }
}

/// A roof ([`Roof::type_3`]) as a unit that holds both its corners sees it: the unit, the
/// corners' positions in it, and the roof's extra digits.
#[derive(Clone, Copy)]
struct InUnit {
    unit: usize,
    p1: usize,
    p2: usize,
    extra: u32,
}

#[cfg(test)]
mod tests {
    use super::super::tests::first_offer;
    use super::*;
    use crate::grid::Grid;
    use crate::shape::Nine;

    /// What the unique rectangle search offers first on an empty 9×9 grid whose cells 0 and 3
    /// (row 1, columns 1 and 4) hold just 1 and 2, and whose cells 9 and 12, below them, hold
    /// `roof`; `also` changes the other candidates first.
    fn first_rectangle(roof: u32, also: impl Fn(&mut Logic<Nine>)) -> Vec<(usize, u32)> {
        let mut logic = Logic::new(&Grid::<Nine>::empty()).unwrap();
        also(&mut logic);
        (logic.cand[0], logic.cand[3]) = (0b11, 0b11);
        (logic.cand[9], logic.cand[12]) = (roof, roof);
        first_offer(&logic, unique_rectangle)
    }

    #[test]
    fn unique_rectangles_with_a_roof() {
        // Type 2: the roof holds 1, 2 and 5, so one of its cells is 5, and the rest of its
        // row (the only cells that see both) loses 5.
        let row: Vec<(usize, u32)> = (9..18)
            .filter(|&c| c != 9 && c != 12)
            .map(|c| (c, 0b1_0000))
            .collect();
        assert_eq!(first_rectangle(0b1_0011, |_| {}), row);
        // Type 4: the roof holds 1, 2, 5 and 6, and 1 has no other place in its row: one
        // roof cell is 1, so neither can be 2.
        let no_other_1 = |logic: &mut Logic<Nine>| {
            for c in 9..18 {
                logic.cand[c] &= !1;
            }
        };
        assert_eq!(
            first_rectangle(0b11_0011, no_other_1),
            vec![(9, 0b10), (12, 0b10)]
        );
        // Neither: two more digits in the roof, and 1 and 2 with other places in its row.
        assert_eq!(first_rectangle(0b11_0011, |_| {}), vec![]);
    }

    /// What the type 3 search rated `tenths` offers first on the grid of
    /// [`first_rectangle`] with the roof 1, 2, 5 (cell 9) and 1, 2, 6 (cell 12), after `also`.
    fn first_type_3(tenths: u32, also: impl Fn(&mut Logic<Nine>)) -> Vec<(usize, u32)> {
        let mut logic = Logic::new(&Grid::<Nine>::empty()).unwrap();
        also(&mut logic);
        (logic.cand[0], logic.cand[3]) = (0b11, 0b11);
        (logic.cand[9], logic.cand[12]) = (0b1_0011, 0b10_0011);
        first_offer(&logic, |l, f| unique_rectangle_type_3(l, tenths, f))
    }

    #[test]
    fn unique_rectangles_of_type_3() {
        let all = Nine::ALL;
        // Naked: cell 15 holds 5 and 6, the roof's extras, so row 2's other cells lose them;
        // a naked pair, 4.6.
        let pair_at_15 = |logic: &mut Logic<Nine>| logic.cand[15] = 0b11_0000;
        let row: Vec<(usize, u32)> = [10, 11, 13, 14, 16, 17]
            .into_iter()
            .map(|c| (c, 0b11_0000))
            .collect();
        assert_eq!(first_type_3(46, pair_at_15), row);
        assert_eq!(first_type_3(47, pair_at_15), vec![]);
        // Types 1, 2 and 4 do not apply there.
        let mut logic = Logic::new(&Grid::<Nine>::empty()).unwrap();
        pair_at_15(&mut logic);
        (logic.cand[0], logic.cand[3]) = (0b11, 0b11);
        (logic.cand[9], logic.cand[12]) = (0b1_0011, 0b10_0011);
        assert_eq!(first_offer(&logic, unique_rectangle), vec![]);
        // Cells 15 and 16 holding 5 and 7 make three cells of 5, 6 and 7 with the roof, but
        // 6 lies in one corner alone and in neither cell: SE sees no naked triple.
        let fives_and_sevens = |logic: &mut Logic<Nine>| {
            (logic.cand[15], logic.cand[16]) = (0b101_0000, 0b101_0000);
        };
        assert_eq!(first_type_3(47, fives_and_sevens), vec![]);
        // With 6 in cell 16 instead, it does: the rest of the row loses 5, 6 and 7.
        let triple = |logic: &mut Logic<Nine>| {
            (logic.cand[15], logic.cand[16]) = (0b101_0000, 0b110_0000);
        };
        let row: Vec<(usize, u32)> = [10, 11, 13, 14, 17]
            .into_iter()
            .map(|c| (c, 0b111_0000))
            .collect();
        assert_eq!(first_type_3(47, triple), row);
        // Hidden: 1 and 2 have no place in row 2 but the roof and cell 15, which keeps just
        // them; SE rates that hidden pair with types 1, 2 and 4 (4.5).
        let hidden_at_15 = |logic: &mut Logic<Nine>| {
            for c in [10, 11, 13, 14, 16, 17] {
                logic.cand[c] &= !0b11;
            }
        };
        let mut logic = Logic::new(&Grid::<Nine>::empty()).unwrap();
        hidden_at_15(&mut logic);
        (logic.cand[0], logic.cand[3]) = (0b11, 0b11);
        (logic.cand[9], logic.cand[12]) = (0b1_0011, 0b10_0011);
        assert_eq!(
            first_offer(&logic, unique_rectangle),
            vec![(15, all & !0b11)]
        );
        assert_eq!(first_type_3(46, hidden_at_15), vec![]);
        // With 3 confined to cells 15 and 16, and 1 and 2 to the roof and cell 15, a hidden
        // triple in the first corner and cells 15 and 16, 4.6.
        let hidden_triple = |logic: &mut Logic<Nine>| {
            for c in [10, 11, 13, 14, 16, 17] {
                logic.cand[c] &= !0b11;
            }
            for c in [10, 11, 13, 14, 17] {
                logic.cand[c] &= !0b100;
            }
        };
        assert_eq!(
            first_type_3(46, hidden_triple),
            vec![(15, all & !0b111), (16, all & !0b111)]
        );
    }
}
