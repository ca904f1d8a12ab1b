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
//! cost. The same bulk closure takes [`rate`](super::rate) from one step that eliminates to
//! the next: the path takes every placement rated 2.5 or below before any of them.

use super::fruitless::Fruitless;
use super::techniques::{Subsets, all_units, direct_pointing, direct_steps, hidden_subset};
use super::{Rating, SeTechnique};
use crate::error::Unsolvable;
use crate::grid::{Digit, Grid};
use crate::rating::logic::Logic;
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
    placement_rating_from(puzzle, cap, 0)
}

/// [`placement_rating`], with the ratings below `floor` tenths not told apart: a puzzle
/// rated below it may come out with the rating of any placement below it.
pub(super) fn placement_rating_from<S: Shape>(
    puzzle: &Grid<S>,
    cap: u32,
    floor: u32,
) -> Option<Rating> {
    placement_fill(puzzle, cap, floor).ok().flatten()
}

/// [`placement_rating_from`], telling a puzzle the placements leave unfilled (`Ok(None)`)
/// from one with no solution (an error).
pub(super) fn placement_fill<S: Shape>(
    puzzle: &Grid<S>,
    cap: u32,
    floor: u32,
) -> Result<Option<Rating>, Unsolvable> {
    let mut logic = Logic::new(puzzle)?;
    let closure = place_closure(&mut logic, cap, floor, None)?;
    // Every placement takes a digit its cell still has as a candidate, so no unit gets a
    // digit twice: a filled grid is a solution.
    debug_assert!(!logic.is_solved() || logic.grid().is_solution());
    Ok(logic.is_solved().then_some(Rating {
        hardest: closure.hardest,
        steps: puzzle.holes() as u32,
        finished: true,
    }))
}

/// How [`place_closure`] ended.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Closure {
    /// The hardest technique the path takes to place the closure's digits.
    pub hardest: Option<SeTechnique>,
}

/// Places every digit the techniques of [`PLACING`] rated at most `cap` tenths place, until
/// none applies or the grid is full: the grid the SE path reaches before it needs a step
/// that eliminates (or one above `cap`). Reports the hardest of them the path takes on the
/// way: the least technique whose closure with the easier ones places all these digits.
/// Techniques rated below `floor` tenths are not told apart: all of them are allowed from
/// the start, for fewer sweeps to the same grid, and the hardest of them stands for any.
/// The direct hidden pairs and triples look only at units whose candidates changed since
/// a search for hidden subsets of their size found nothing there (`fruitless`, the path's,
/// when there is one: a single closure would spend more keeping it than it saves), and note
/// where they find nothing. Fails on a contradiction.
pub(super) fn place_closure<S: Shape>(
    logic: &mut Logic<S>,
    cap: u32,
    floor: u32,
    mut fruitless: Option<&mut Fruitless>,
) -> Result<Closure, Unsolvable> {
    let mut level = PLACING
        .iter()
        .rposition(|t| t.tenths() < floor && t.tenths() <= cap)
        .unwrap_or(0);
    let mut closure = Closure::default();
    // `fresh`: the grid changed since the last sweep at this level found nothing.
    let mut fresh = true;
    while !logic.is_solved() {
        let placed = if fresh {
            sweep(logic, PLACING[level], fruitless.as_deref_mut())?
        } else {
            // The grid is as the last sweep left it, which found nothing easier than this
            // level's technique: only that technique can place.
            place_newly_allowed(logic, PLACING[level], fruitless.as_deref_mut())?
        };
        if placed {
            closure.hardest = Some(PLACING[level]);
            fresh = true;
            continue;
        }
        fresh = false;
        // Direct claiming never places here (see `place_direct`): skip its level.
        level += 1 + (PLACING.get(level + 1) == Some(&SeTechnique::DirectClaiming)) as usize;
        if level >= PLACING.len() || PLACING[level].tenths() > cap {
            break;
        }
    }
    Ok(closure)
}

/// Places digits by the techniques of [`PLACING`] up to `hardest`: every single one sweep
/// of the units (and cells) finds or, when there is none, the placements of the first direct
/// technique that has any. False when none applies; fails on a contradiction.
fn sweep<S: Shape>(
    logic: &mut Logic<S>,
    hardest: SeTechnique,
    mut fruitless: Option<&mut Fruitless>,
) -> Result<bool, Unsolvable> {
    let mut placed = hidden_singles(logic, hardest)?;
    if hardest >= SeTechnique::NakedSingle {
        placed |= naked_singles(logic)?;
    }
    if placed {
        return Ok(true);
    }
    for technique in [
        SeTechnique::DirectPointing,
        SeTechnique::DirectHiddenPair,
        SeTechnique::DirectHiddenTriple,
    ] {
        if technique > hardest {
            break;
        }
        if place_direct(logic, technique, fruitless.as_deref_mut()) {
            return Ok(true);
        }
    }
    Ok(false)
}

/// What a [`sweep`] at `technique`'s level finds on a grid where one at the level below
/// found nothing: the placements of `technique` alone.
fn place_newly_allowed<S: Shape>(
    logic: &mut Logic<S>,
    technique: SeTechnique,
    fruitless: Option<&mut Fruitless>,
) -> Result<bool, Unsolvable> {
    match technique {
        SeTechnique::FullHouse | SeTechnique::HiddenSingleBox | SeTechnique::HiddenSingleLine => {
            hidden_singles(logic, technique)
        }
        SeTechnique::NakedSingle => naked_singles(logic),
        _ => Ok(place_direct(logic, technique, fruitless)),
    }
}

/// Places every full house and hidden single up to `hardest` that one sweep of the units
/// finds, looking at a unit again after it gave any (its placements can leave it more);
/// fails on a contradiction.
fn hidden_singles<S: Shape>(
    logic: &mut Logic<S>,
    hardest: SeTechnique,
) -> Result<bool, Unsolvable> {
    let mut placed = false;
    let lines = (0..2 * S::N, SeTechnique::HiddenSingleLine <= hardest);
    let boxes = (2 * S::N..S::UNITS, SeTechnique::HiddenSingleBox <= hardest);
    for (units, hidden) in [lines, boxes] {
        for unit in units {
            while singles_in(logic, unit, hidden)? {
                placed = true;
            }
        }
    }
    Ok(placed)
}

/// Places the full house of `unit`, or with `hidden` all its hidden singles; false when it
/// has none. Fails on a digit with no place left in the unit.
#[inline(always)]
fn singles_in<S: Shape>(
    logic: &mut Logic<S>,
    unit: usize,
    hidden: bool,
) -> Result<bool, Unsolvable> {
    let missing = logic.missing(unit);
    match missing.count_ones() {
        0 => return Ok(false),
        1 => {}
        _ if !hidden => return Ok(false),
        _ => {}
    }
    let (some, many) = logic.spread(unit);
    if missing & !some != 0 {
        return Err(Unsolvable);
    }
    let one = missing & !many;
    if one == 0 {
        return Ok(false);
    }
    // One pass over the unit finds every single's place. A cell that is the only place of
    // two digits takes the lower one (a clash: the other has no place left).
    let cells = S::unit(unit);
    let mut at = logic.places(unit, one);
    while at != 0 {
        let cell = cells[at.trailing_zeros() as usize] as usize;
        at &= at - 1;
        let here = logic.cand[cell] & one;
        if here != 0 {
            logic.place(cell, here.trailing_zeros() as Digit + 1);
        }
    }
    Ok(true)
}

/// Places every naked single; fails on an open cell without candidates.
fn naked_singles<S: Shape>(logic: &mut Logic<S>) -> Result<bool, Unsolvable> {
    let mut placed = false;
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
    Ok(placed)
}

/// Places what the direct technique `technique` finds: the first direct pointing, or every
/// placement of a direct hidden pair or triple, in the units where hidden subsets of its
/// size may have changed (`fruitless`), noting there those where no subset offers anything,
/// direct or not. The rater's direct claiming looks for its hidden single in the box it
/// clears, where the line keeps two places or more (see `direct_step`): it never places, so
/// it finds nothing here.
fn place_direct<S: Shape>(
    logic: &mut Logic<S>,
    technique: SeTechnique,
    mut fruitless: Option<&mut Fruitless>,
) -> bool {
    let k = match technique {
        SeTechnique::DirectPointing => {
            let Some((cell, d)) = direct_pointing(logic) else {
                return false;
            };
            logic.place(cell, d);
            return true;
        }
        SeTechnique::DirectHiddenPair => 2,
        SeTechnique::DirectHiddenTriple => 3,
        _ => return false,
    };
    let subsets = Subsets::Hidden(k);
    let units = match fruitless.as_deref_mut() {
        Some(fruitless) => fruitless.units_to_search(logic, subsets),
        None => all_units::<S>(),
    };
    if units == 0 {
        return false;
    }
    let mut found = [(0, 0); 16];
    let (len, offered) = direct_steps(logic, |l, f| hidden_subset(l, k, units, f), &mut found);
    // A search that filled `found` may have stopped before its last units.
    if let Some(fruitless) = fruitless.filter(|_| len < found.len()) {
        fruitless.searched(subsets, units, offered);
    }
    for &(cell, d) in &found[..len] {
        place_if_open(logic, cell, d);
    }
    len > 0
}

/// Places digit `d` in `cell` unless an earlier placement of the same sweep took the cell or
/// the digit's place (in a puzzle with no solution).
fn place_if_open<S: Shape>(logic: &mut Logic<S>, cell: usize, d: Digit) {
    if logic.cand[cell] >> (d - 1) & 1 != 0 {
        logic.place(cell, d);
    }
}
