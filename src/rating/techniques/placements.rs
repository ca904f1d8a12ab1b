//! Placements: the full house, and the *direct* form of a technique, which keeps no
//! elimination but places the hidden single its eliminations leave.

use super::Units;
use crate::grid::Digit;
use crate::rating::logic::{BoxLine, Found, Logic};
use crate::shape::Shape;

/// The placement a direct technique gives: the first eliminations `find` offers that leave
/// a removed digit one place in the unit they lie in (SE's `HiddenSet` looks there alone).
/// The eliminations themselves are not kept.
pub(in crate::rating) fn direct_step<S: Shape>(
    logic: &Logic<S>,
    find: impl Fn(&Logic<S>, &mut Found<'_, S>),
) -> Option<(usize, Digit)> {
    let mut placed = None;
    find(logic, &mut |logic, removal, unit| {
        placed = single_after(logic, unit, removal);
        placed.is_some()
    });
    placed
}

/// The placements [`direct_step`] takes from each set of eliminations `find` offers, in the
/// order found, up to `out.len()` of them: how many were written to `out`, and the units
/// where `find` offered any set at all (direct or not).
pub(in crate::rating) fn direct_steps<S: Shape>(
    logic: &Logic<S>,
    find: impl Fn(&Logic<S>, &mut Found<'_, S>),
    out: &mut [(usize, Digit)],
) -> (usize, Units) {
    let (mut len, mut offered) = (0, 0);
    find(logic, &mut |logic, removal, unit| {
        offered |= 1 << unit;
        if let Some(placed) = single_after(logic, unit, removal) {
            out[len] = placed;
            len += 1;
        }
        len == out.len()
    });
    (len, offered)
}

/// The placement [`direct_step`] finds from pointing, found without elimination arrays: a
/// digit with two places or more in a box, all on one line, leaves the line's cells in the
/// other boxes it crosses, and goes where that leaves it one place in one of those boxes.
/// (The line itself keeps the box's places, two or more, so no single is left there.)
pub(in crate::rating) fn direct_pointing<S: Shape>(logic: &Logic<S>) -> Option<(usize, Digit)> {
    let (n, side) = (S::N, S::BOX);
    let at = |row: usize, col: usize| row * n + col;
    let mut found = None;
    logic.pointings(&mut |b, bit, line| {
        let (top, left) = (b / side * side, b % side * side);
        // `cell(k, i, j)`: the cell of line `i`, place `j` of the `k`-th box along the line.
        found = match line {
            BoxLine::Row(i) => single_across::<S>(
                logic,
                bit,
                b % side,
                |stack, i, j| at(top + i, stack * side + j),
                i,
            ),
            BoxLine::Column(j) => single_across::<S>(
                logic,
                bit,
                b / side,
                |band, i, j| at(band * side + j, left + i),
                j,
            ),
        };
        found.is_some()
    });
    found
}

/// For a line at offset `line` (0..side) within its boxes, crossing boxes `0..side` (`cell(k,
/// line, j)` the `j`-th cell of the line in box `k`, `cell(k, i, j)` for the box's other
/// lines `i`), skipping box `from`: the cell where the digit `bit` is left with one place in
/// a box once the line loses it, in a box where the line held it.
fn single_across<S: Shape>(
    logic: &Logic<S>,
    bit: u32,
    from: usize,
    cell: impl Fn(usize, usize, usize) -> usize,
    line: usize,
) -> Option<(usize, Digit)> {
    let side = S::BOX;
    for k in (0..side).filter(|&k| k != from) {
        let on_line = (0..side).any(|j| logic.cand[cell(k, line, j)] & bit != 0);
        if !on_line {
            continue;
        }
        let mut left = (0..side)
            .filter(|&i| i != line)
            .flat_map(|i| (0..side).map(move |j| (i, j)))
            .map(|(i, j)| cell(k, i, j))
            .filter(|&c| logic.cand[c] & bit != 0);
        if let (Some(c), None) = (left.next(), left.next()) {
            return Some((c, bit.trailing_zeros() as Digit + 1));
        }
    }
    None
}

/// A hidden single that `removal` leaves in `unit`: a missing digit removed there with one
/// place left.
fn single_after<S: Shape>(
    logic: &Logic<S>,
    unit: usize,
    removal: &S::Cells<u32>,
) -> Option<(usize, Digit)> {
    let cells = S::unit(unit);
    let mut removed =
        cells.iter().fold(0, |any, &c| any | removal[c as usize]) & logic.missing(unit);
    while removed != 0 {
        let bit = removed & removed.wrapping_neg();
        removed &= removed - 1;
        let mut left = cells
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| logic.cand[c] & bit != 0 && removal[c] & bit == 0);
        if let (Some(cell), None) = (left.next(), left.next()) {
            return Some((cell, bit.trailing_zeros() as Digit + 1));
        }
    }
    None
}

/// The open cell of the first unit that has only one, and the digit it lacks.
pub(in crate::rating) fn full_house<S: Shape>(logic: &Logic<S>) -> Option<(usize, Digit)> {
    (0..S::UNITS).find_map(|unit| {
        let missing = logic.missing(unit);
        if missing.count_ones() != 1 {
            return None;
        }
        let mut open = S::unit(unit)
            .iter()
            .filter(|&&c| logic.value[c as usize] == 0);
        let cell = *open.next()? as usize;
        open.next()
            .is_none()
            .then(|| (cell, missing.trailing_zeros() as Digit + 1))
    })
}
