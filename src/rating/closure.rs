//! Ratings from the *closure* of a set of techniques: apply them in bulk, in any order, until
//! none applies.
//!
//! Every technique rated below 2.6 only places digits, and what they place does not depend
//! on the order. A placement technique that places a digit from some grid still places it,
//! or leaves it to an easier placement, from any grid with more of the solution filled in:
//! singles and the direct techniques rest on digits being seen, and seeing only grows. So
//! the techniques rated at most `t` either fill the grid whatever order they take, or stop at
//! the same grid short of it. SE's path (always the easiest step) uses only techniques rated
//! at most `t` exactly when they fill the grid: while they have not, one of them applies.
//! The rating is therefore the least `t` whose techniques fill the grid, and each step places
//! one digit, so the path has one step per hole. [`placement_rating`] applies every technique
//! allowed in bulk and raises `t` only when they stall: exact, at a fraction of the path's
//! cost.

use super::techniques::{Finder, direct_pointing, direct_steps, hidden_subset};
use super::{Rating, SeTechnique};
use crate::error::Unsolvable;
use crate::grid::{Digit, Grid};
use crate::logic::Logic;
use crate::shape::Shape;

/// The techniques that only place digits, easiest first: every technique rated below 2.6.
const PLACING: [SeTechnique; 8] = [
    SeTechnique::FullHouse,
    SeTechnique::HiddenSingleBox,
    SeTechnique::HiddenSingleLine,
    SeTechnique::DirectPointing,
    SeTechnique::DirectClaiming,
    SeTechnique::DirectHiddenPair,
    SeTechnique::NakedSingle,
    SeTechnique::DirectHiddenTriple,
];

/// [`rate`](super::rate)'s rating of `puzzle`, steps included, when it is at most `cap`
/// tenths and at most 2.5 (the techniques that only place digits); `None` for any other
/// puzzle (rated higher, or with no solution). See the module docs for why it is exact.
pub fn placement_rating<S: Shape>(puzzle: &Grid<S>, cap: u32) -> Option<Rating> {
    let mut logic = Logic::new(puzzle).ok()?;
    let holes = puzzle.holes() as u32;
    let mut level = 0;
    while !logic.is_solved() {
        if !place_some(&mut logic, PLACING[level]).ok()? {
            level += 1;
            if level == PLACING.len() || PLACING[level].tenths() > cap {
                return None;
            }
        }
    }
    // (Singles can fill a grid that has no solution with a clash.)
    logic.grid().is_solution().then_some(Rating {
        hardest: (holes > 0).then_some(PLACING[level]),
        steps: holes,
        finished: true,
    })
}

/// Places digits by the techniques of [`PLACING`] up to `hardest`: every single one sweep
/// of the units (and cells) finds or, when there is none, the placements of the first direct
/// technique that has any. False when none applies; fails on a contradiction.
fn place_some<S: Shape>(logic: &mut Logic<S>, hardest: SeTechnique) -> Result<bool, Unsolvable> {
    let lines = 0..2 * S::N;
    let mut placed = false;
    for unit in 0..S::UNITS {
        let missing = logic.missing(unit);
        let needs = match missing.count_ones() {
            0 => continue,
            1 => SeTechnique::FullHouse,
            _ if lines.contains(&unit) => SeTechnique::HiddenSingleLine,
            _ => SeTechnique::HiddenSingleBox,
        };
        if needs > hardest {
            continue;
        }
        let (mut some, mut many) = (0u32, 0u32);
        for &cell in S::unit(unit) {
            let cand = logic.cand[cell as usize];
            many |= some & cand;
            some |= cand;
        }
        if missing & !some != 0 {
            return Err(Unsolvable);
        }
        let mut one = missing & !many;
        while one != 0 {
            let bit = one & one.wrapping_neg();
            one &= one - 1;
            // An earlier placement of this sweep may have taken the place (a clash).
            if let Some(&cell) = S::unit(unit)
                .iter()
                .find(|&&c| logic.cand[c as usize] & bit != 0)
            {
                place_if_open(logic, cell as usize, bit.trailing_zeros() as Digit + 1);
                placed = true;
            }
        }
    }
    if hardest >= SeTechnique::NakedSingle {
        for cell in 0..S::CELLS {
            if logic.value[cell] == 0 {
                let cand = logic.cand[cell];
                if cand == 0 {
                    return Err(Unsolvable);
                }
                if cand & (cand - 1) == 0 {
                    logic.place(cell, cand.trailing_zeros() as Digit + 1);
                    placed = true;
                }
            }
        }
    }
    if placed {
        return Ok(true);
    }
    if hardest >= SeTechnique::DirectPointing {
        if let Some((cell, d)) = direct_pointing(logic) {
            logic.place(cell, d);
            return Ok(true);
        }
    }
    // The rater's direct claiming looks for its hidden single in the box it clears, where
    // the line keeps two places or more (see `direct_step`):
    // it never places, so it is skipped.
    let direct: [(SeTechnique, Finder<S>); 2] = [
        (SeTechnique::DirectHiddenPair, |l, f| hidden_subset(l, 2, f)),
        (SeTechnique::DirectHiddenTriple, |l, f| {
            hidden_subset(l, 3, f)
        }),
    ];
    for (technique, find) in direct {
        if technique > hardest {
            break;
        }
        let mut found = [(0, 0); 16];
        let len = direct_steps(logic, find, &mut found);
        if len > 0 {
            for &(cell, d) in &found[..len] {
                place_if_open(logic, cell, d);
            }
            return Ok(true);
        }
    }
    Ok(false)
}

/// Places digit `d` in `cell` unless an earlier placement of the same sweep took the cell or
/// the digit's place (in a puzzle with no solution).
fn place_if_open<S: Shape>(logic: &mut Logic<S>, cell: usize, d: Digit) {
    if logic.cand[cell] >> (d - 1) & 1 != 0 {
        logic.place(cell, d);
    }
}
