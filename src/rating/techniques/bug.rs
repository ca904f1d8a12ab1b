//! Bivalue universal graves (BUG): a technique that rests on the puzzle having one solution.

use super::sees;
use super::subsets::covering_subsets;
use crate::rating::logic::{Found, Logic};
use crate::shape::Shape;

/// The kinds of bivalue universal grave SE rates.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Bug {
    /// One cell holds more than two candidates: it keeps only its extra ones (5.6).
    One,
    /// Several cells, with one extra digit between them: it leaves every cell that sees all
    /// of them (5.7).
    Two,
    /// Several cells in one unit, with two extra digits or more between them, which one of
    /// them takes: with `k - 1` other cells of the unit holding the extras and no more than
    /// `k` digits between them, each of two or more, they make a naked set of `k` digits,
    /// which the unit's other cells lose (SE: 5.7 + (k - 1)/10, `k` from 2 to 6; its units
    /// in its order, box, row, column).
    Three(u32),
    /// Two cells in one unit, sharing one candidate besides their extra ones: each keeps its
    /// extra ones and that candidate (5.7).
    Four,
}

/// Bivalue universal grave: were every open cell left two candidates, each in two places of
/// each unit, the grid would have two solutions (or none). Cells with more candidates are
/// the grave's: in a unit where a digit has neither zero nor two places, the one such cell
/// among them holds it as an extra; when taking the extras away leaves that grave, one of
/// the extras is true, and that gives the eliminations of each kind (see [`Bug`]).
pub(super) fn bug<S: Shape>(logic: &Logic<S>, kind: Bug, found: &mut Found<'_, S>) {
    let Some(extra) = grave_extras(logic) else {
        return;
    };
    let rest = |cell: usize| logic.cand[cell] & !extra[cell];
    // The grave's cells: the first two, and how many.
    let mut graves = (0..S::CELLS).filter(|&cell| extra[cell] != 0);
    let (first, second) = (graves.next(), graves.next());
    let count = usize::from(first.is_some()) + usize::from(second.is_some()) + graves.count();
    let extras = extra.as_ref().iter().fold(0, |all, &bits| all | bits);
    let mut removal = S::cells(0u32);
    match (kind, first, second) {
        (Bug::One, Some(cell), None) => removal[cell] = rest(cell),
        (Bug::Two, Some(_), Some(_)) if extras.count_ones() == 1 => {
            for cell in 0..S::CELLS {
                let sees_all = (0..S::CELLS)
                    .filter(|&g| extra[g] != 0)
                    .all(|g| sees::<S>(cell, g));
                if logic.cand[cell] & extras != 0 && sees_all {
                    removal[cell] = extras;
                }
            }
        }
        (Bug::Three(k), Some(one), Some(_)) if extras.count_ones() >= 2 => {
            removal = bug_subset(logic, &extra, one, count, k);
        }
        (Bug::Four, Some(one), Some(two)) if count == 2 && sees::<S>(one, two) => {
            let shared = logic.cand[one] & logic.cand[two] & !extras;
            if shared.count_ones() == 1 {
                removal[one] = rest(one) & !shared;
                removal[two] = rest(two) & !shared;
            }
        }
        _ => {}
    }
    if removal.as_ref().iter().any(|&bits| bits != 0) {
        found(logic, &removal, 0);
    }
}

/// The extras of a bivalue universal grave ([`bug`]), by cell, when the grid is one: in each
/// unit, a digit with neither zero nor two places is an extra of the one cell of more than
/// two candidates that holds it there, and taking every extra away leaves two candidates in
/// every open cell and two places (or none) for every digit in every unit.
fn grave_extras<S: Shape>(logic: &Logic<S>) -> Option<S::Cells<u32>> {
    let mut extra = S::cells(0u32);
    for unit in 0..S::UNITS {
        let places = logic.unit_places(unit);
        let cells = S::unit(unit);
        for (d, &at) in places.iter().enumerate().take(S::N) {
            if at == 0 || at.count_ones() == 2 {
                continue;
            }
            let mut heavy = (0..S::N)
                .filter(|&k| at >> k & 1 != 0 && logic.cand[cells[k] as usize].count_ones() > 2);
            match (heavy.next(), heavy.next()) {
                // A digit out of pattern with no cell to blame: no grave.
                (None, _) => return None,
                (Some(k), None) => extra[cells[k] as usize] |= 1 << d,
                // Another unit names the cell, if any.
                (Some(_), Some(_)) => {}
            }
        }
    }
    let rest = |cell: usize| logic.cand[cell] & !extra[cell];
    let bivalue = (0..S::CELLS).all(|cell| logic.cand[cell] == 0 || rest(cell).count_ones() == 2);
    let paired = (0..S::UNITS).all(|unit| {
        (0..S::N).all(|d| {
            let places = S::unit(unit)
                .iter()
                .filter(|&&cell| rest(cell as usize) >> d & 1 != 0)
                .count();
            places == 0 || places == 2
        })
    });
    (bivalue && paired).then_some(extra)
}

/// The eliminations of a BUG type 3 ([`Bug::Three`]) of `k` cells: in a unit of `one`, the
/// first grave cell, that holds all `count` of them, the grave's cells stand together for
/// one cell holding every extra, which with `k - 1` other cells of the unit forms a naked
/// subset; the unit's other cells lose its digits. The first unit that gives any, in SE's
/// order (box, row, column).
fn bug_subset<S: Shape>(
    logic: &Logic<S>,
    extra: &S::Cells<u32>,
    one: usize,
    count: usize,
    k: u32,
) -> S::Cells<u32> {
    let extras = extra.as_ref().iter().fold(0, |all, &bits| all | bits);
    let mut removal = S::cells(0u32);
    let holds_every_grave = |unit: usize| {
        S::unit(unit)
            .iter()
            .filter(|&&cell| extra[cell as usize] != 0)
            .count()
            == count
    };
    for unit in [2, 0, 1].map(|i| S::units_of(one)[i]) {
        if !holds_every_grave(unit) {
            continue;
        }
        // Items: the unit's positions, the first grave cell's standing for them all.
        let cells = S::unit(unit);
        let mut masks = [0u32; 32];
        let mut items = 0u32;
        let mut graves_at = 0u32;
        for (p, &cell) in cells.iter().enumerate() {
            let cand = logic.cand[cell as usize];
            if extra[cell as usize] != 0 {
                graves_at |= 1 << p;
            } else if cand.count_ones() >= 2 {
                masks[p] = cand;
                items |= 1 << p;
            }
        }
        let first = graves_at.trailing_zeros() as usize;
        masks[first] = extras;
        covering_subsets(items | 1 << first, k, &masks, &mut |chosen, digits| {
            let others = chosen & !(1 << first);
            let covered = (0..S::N)
                .filter(|&p| others >> p & 1 != 0)
                .fold(0, |m, p| m | masks[p]);
            // SE asks the other cells alone to hold every digit of the set.
            if chosen >> first & 1 == 0 || covered != digits {
                return false;
            }
            for (p, &cell) in cells.iter().enumerate() {
                let outside = (chosen | graves_at) >> p & 1 == 0;
                removal[cell as usize] = if outside {
                    logic.cand[cell as usize] & digits
                } else {
                    0
                };
            }
            removal.as_ref().iter().any(|&bits| bits != 0)
        });
        if removal.as_ref().iter().any(|&bits| bits != 0) {
            break;
        }
    }
    removal
}

#[cfg(test)]
mod tests {
    use super::super::tests::first_offer;
    use super::*;
    use crate::grid::Grid;
    use crate::shape::Nine;

    /// A grid on SE's path for a puzzle of the shared Sudoku Exchange set: every open cell
    /// holds two candidates but cells 14 and 16 (row 2), which hold three; without 6 in cell
    /// 14 and 5 in cell 16, the grid would be a grave.
    fn near_grave() -> Logic<Nine> {
        let grid = Grid::<Nine>::parse(
            "..4.973.89.834.7..73.85.24931.4.897.49.71.8.3867539421583..4197279185634.4.973582",
        )
        .unwrap();
        let mut logic = Logic::new(&grid).unwrap();
        set_candidates(
            &mut logic,
            "16 25 . 26 . . . 15 . \
             . 25 . . . 126 . 156 56 \
             . . 16 . . 16 . . . \
             . . 25 . 26 . . . 56 \
             . . 25 . . 26 . 56 . \
             . . . . . . . . . \
             . . . 26 26 . . . . \
             . . . . . . . . . \
             16 . 16 . . . . . .",
        );
        logic
    }

    /// Gives each cell of `logic` the candidates `candidates` lists: nine cells a row, each
    /// the digits it holds, `.` for none.
    fn set_candidates(logic: &mut Logic<Nine>, candidates: &str) {
        for (cell, digits) in candidates.split_whitespace().enumerate() {
            logic.cand[cell] = digits
                .bytes()
                .filter(u8::is_ascii_digit)
                .fold(0, |m, d| m | 1 << (d - b'1'));
        }
    }

    #[test]
    fn bivalue_universal_grave_of_type_3() {
        let logic = near_grave();
        let offer = |kind| first_offer(&logic, |l, f| bug(l, kind, f));
        // Type 4 first (5.7): the two cells share 1 besides their extras, so each keeps its
        // extra and 1.
        assert_eq!(offer(Bug::Four), vec![(14, 0b10), (16, 0b10_0000)]);
        // Type 3 (5.8): the extras 5 and 6 make a naked pair with cell 17, so cell 10 loses 5.
        assert_eq!(offer(Bug::Three(2)), vec![(10, 0b1_0000)]);
        for kind in [Bug::One, Bug::Two, Bug::Three(3)] {
            assert_eq!(offer(kind), vec![]);
        }
    }

    #[test]
    fn type_3_graves_need_the_other_cells_to_hold_the_whole_set() {
        // Without the extras 5 (cell 0) and 7 (cell 3), every open cell holds two digits,
        // each in two places of each unit. In row 1, the extras and cells 1 and 4 (7 and 8)
        // hold three digits, 5, 7 and 8, and the extras and cells 7 and 8 (5 and 9) three
        // digits too; but cells 1 and 4 lack 5, and cells 7 and 8 lack 7, so SE sees no
        // naked triple in either (the first would take 5 from cells 7 and 8).
        let mut logic = Logic::new(&Grid::<Nine>::empty()).unwrap();
        set_candidates(
            &mut logic,
            "125 78 . 237 78 . 13 59 59 \
             12 78 . 23 78 . 13 . . \
             . . . . . . . . . \
             . . . . . . . 59 59 \
             . . . . . . . . . \
             . . . . . . . . . \
             . . . . . . . . . \
             . . . . . . . . . \
             . . . . . . . . .",
        );
        let offer = |kind| first_offer(&logic, |l, f| bug(l, kind, f));
        assert_eq!(offer(Bug::Three(3)), vec![]);
        // Cells 1, 4 and 7 hold 5, 7, 8 and 9 between them, which the extras add nothing to:
        // a naked quad with the grave, and cell 8 loses 5 and 9.
        assert_eq!(offer(Bug::Three(4)), vec![(8, 0b1_0001_0000)]);
    }
}
