//! Ratings on the Sudoku Explainer (SE) scale: solve step by step, always with the easiest
//! technique that applies, and rate the puzzle by its hardest step.
//!
//! The techniques and their SE values, easiest first:
//! hidden single in a box 1.2, in a row or column 1.5; direct pointing 1.7, direct claiming
//! 1.9, direct hidden pair 2.0 (a locking or hidden set whose eliminations leave a hidden
//! single, which is placed); naked single 2.3; direct hidden triple 2.5; pointing 2.6,
//! claiming 2.8, naked pair 3.0, X-Wing 3.2, hidden pair 3.4, naked triple 3.6, Swordfish
//! 3.8, hidden triple 4.0, XY-Wing 4.2, XYZ-Wing 4.4, naked quad 5.0, Jellyfish 5.2, hidden
//! quad 5.4. A puzzle none of them finishes is marked unfinished and reported at 5.0 (or its
//! hardest step, if higher): it needs techniques this rater does not have (chains, more
//! uniqueness patterns, …), almost all rated 5.0 or more in SE.
//!
//! Levels follow the Sudoku Exchange bank: easy < 1.5 ≤ medium < 2.5 ≤ hard < 5.0 ≤
//! diabolical (and every unfinished puzzle).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::error::Unsolvable;
use crate::grid::{Digit, Grid};
use crate::logic::{Found, Logic, locked};
use crate::shape::Shape;

/// A technique of the SE scale.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)]
pub enum SeTechnique {
    FullHouse,
    HiddenSingleBox,
    HiddenSingleLine,
    DirectPointing,
    DirectClaiming,
    DirectHiddenPair,
    NakedSingle,
    DirectHiddenTriple,
    Pointing,
    Claiming,
    NakedPair,
    XWing,
    HiddenPair,
    NakedTriple,
    Swordfish,
    HiddenTriple,
    TurbotFish,
    XyWing,
    XyzWing,
    UniqueRectangle,
    NakedQuad,
    Jellyfish,
    HiddenQuad,
}

impl SeTechnique {
    /// Its SE rating, in tenths.
    pub fn tenths(self) -> u32 {
        use SeTechnique::*;
        match self {
            FullHouse => 10,
            HiddenSingleBox => 12,
            HiddenSingleLine => 15,
            DirectPointing => 17,
            DirectClaiming => 19,
            DirectHiddenPair => 20,
            NakedSingle => 23,
            DirectHiddenTriple => 25,
            Pointing => 26,
            Claiming => 28,
            NakedPair => 30,
            XWing => 32,
            HiddenPair => 34,
            NakedTriple => 36,
            Swordfish => 38,
            HiddenTriple => 40,
            TurbotFish => 40,
            XyWing => 42,
            XyzWing => 44,
            UniqueRectangle => 45,
            NakedQuad => 50,
            Jellyfish => 52,
            HiddenQuad => 54,
        }
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        use SeTechnique::*;
        match self {
            FullHouse => "full house",
            HiddenSingleBox => "hidden single (box)",
            HiddenSingleLine => "hidden single (line)",
            DirectPointing => "direct pointing",
            DirectClaiming => "direct claiming",
            DirectHiddenPair => "direct hidden pair",
            NakedSingle => "naked single",
            DirectHiddenTriple => "direct hidden triple",
            Pointing => "pointing",
            Claiming => "claiming",
            NakedPair => "naked pair",
            XWing => "X-Wing",
            HiddenPair => "hidden pair",
            NakedTriple => "naked triple",
            Swordfish => "Swordfish",
            HiddenTriple => "hidden triple",
            TurbotFish => "turbot fish",
            XyWing => "XY-Wing",
            XyzWing => "XYZ-Wing",
            UniqueRectangle => "unique rectangle",
            NakedQuad => "naked quad",
            Jellyfish => "Jellyfish",
            HiddenQuad => "hidden quad",
        }
    }
}

/// The Sudoku Exchange levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)]
pub enum Level {
    Easy,
    Medium,
    Hard,
    Diabolical,
}

impl Level {
    /// The level of an SE rating in tenths.
    pub fn of_tenths(tenths: u32) -> Level {
        match tenths {
            0..15 => Level::Easy,
            15..25 => Level::Medium,
            25..50 => Level::Hard,
            _ => Level::Diabolical,
        }
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Diabolical => "diabolical",
        }
    }
}

impl FromStr for Level {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        [Level::Easy, Level::Medium, Level::Hard, Level::Diabolical]
            .into_iter()
            .find(|l| l.name() == text)
            .ok_or_else(|| {
                format!("{text:?} is not a level (expected easy, medium, hard or diabolical)")
            })
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// A band of ratings, in tenths, both ends included: what `--difficulty` or
/// `--min-rating`/`--max-rating` keep.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Band {
    /// The lowest rating kept, in tenths.
    pub min_tenths: u32,
    /// The highest rating kept, in tenths.
    pub max_tenths: u32,
}

impl Band {
    /// The band of a level.
    pub fn of_level(level: Level) -> Band {
        let (min_tenths, max_tenths) = match level {
            Level::Easy => (0, 14),
            Level::Medium => (15, 24),
            Level::Hard => (25, 49),
            Level::Diabolical => (50, u32::MAX),
        };
        Band {
            min_tenths,
            max_tenths,
        }
    }

    /// True when `rating` falls in the band (see [`Rating::reported_tenths`]).
    pub fn admits(&self, rating: &Rating) -> bool {
        (self.min_tenths..=self.max_tenths).contains(&rating.reported_tenths())
    }
}

impl fmt::Display for Band {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tenths = |t: u32| format!("{}.{}", t / 10, t % 10);
        match self.max_tenths {
            u32::MAX => write!(f, "rating {} and up", tenths(self.min_tenths)),
            max => write!(f, "rating {} to {}", tenths(self.min_tenths), tenths(max)),
        }
    }
}

/// The rating reported for a puzzle the techniques do not finish, at least: 5.0.
const UNFINISHED_TENTHS: u32 = 50;

/// A rated puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rating {
    /// The hardest step taken.
    pub hardest: Option<SeTechnique>,
    /// Steps taken.
    pub steps: u32,
    /// True when the techniques solved the puzzle.
    pub finished: bool,
}

impl Rating {
    /// The SE rating in tenths: the hardest step's (0 for a complete grid).
    pub fn tenths(&self) -> u32 {
        self.hardest.map_or(0, SeTechnique::tenths)
    }

    /// The rating reported and compared with bands: the hardest step's, or 5.0 when the
    /// techniques did not finish (SE would need techniques this rater lacks, almost all rated
    /// 5.0 or more), when the hardest step taken is below that.
    pub fn reported_tenths(&self) -> u32 {
        if self.finished {
            self.tenths()
        } else {
            self.tenths().max(UNFINISHED_TENTHS)
        }
    }

    /// The level; diabolical when unfinished.
    pub fn level(&self) -> Level {
        if self.finished {
            Level::of_tenths(self.tenths())
        } else {
            Level::Diabolical
        }
    }
}

/// Rates `puzzle`; fails when its clues contradict each other or a step finds a
/// contradiction (a puzzle with no solution).
pub fn rate<S: Shape>(puzzle: &Grid<S>) -> Result<Rating, Unsolvable> {
    rate_up_to(puzzle, u32::MAX)
}

/// Rates `puzzle` with the techniques rated at most `cap` tenths: [`rate`] when `cap` takes
/// them all; otherwise a puzzle that needs a harder one comes out unfinished.
fn rate_up_to<S: Shape>(puzzle: &Grid<S>, cap: u32) -> Result<Rating, Unsolvable> {
    let mut logic = Logic::new(puzzle)?;
    let mut rating = Rating {
        hardest: None,
        steps: 0,
        finished: false,
    };
    while !logic.is_solved() {
        let Some(step) = se_step(&mut logic, cap)? else {
            return Ok(rating);
        };
        rating.steps += 1;
        rating.hardest = rating.hardest.max(Some(step));
    }
    rating.finished = true;
    Ok(rating)
}

/// `puzzle`'s rating when it falls in `band`, as [`rate`] gives it; `None` when it does not,
/// or when the puzzle has no solution. It spends no more than the band needs: a band below
/// 1.5 takes only what [`easy_rating`] accepts; a medium band (1.5 to below 2.5), made at
/// hole counts where many puzzles are easy, turns those away before the candidate solver
/// starts (harder bands, made deeper, rarely meet one and skip the check); and the solver
/// stops at the first step rated above the band.
pub fn rate_in<S: Shape>(puzzle: &Grid<S>, band: Band) -> Option<Rating> {
    let line_single = SeTechnique::HiddenSingleLine.tenths();
    if band.max_tenths < line_single {
        return easy_rating(puzzle).filter(|r| band.admits(r));
    }
    let medium =
        band.min_tenths >= line_single && band.max_tenths < Band::of_level(Level::Hard).min_tenths;
    if medium && easy_rating(puzzle).is_some() {
        return None;
    }
    // A band that ends below 5.0 looks for no step above it: a puzzle that needs one is out
    // of the band, and so is one that no technique finishes (rated 5.0 or more). A band that
    // reaches 5.0 needs the full search, to tell those apart.
    let cap = if band.max_tenths < UNFINISHED_TENTHS {
        band.max_tenths
    } else {
        u32::MAX
    };
    rate_up_to(puzzle, cap).ok().filter(|r| band.admits(r))
}

/// The rating of a puzzle that full houses and hidden singles in boxes solve, without the
/// candidate solver: `None` for any other puzzle (rated 1.5 or more, or with no solution).
/// It is [`rate`]'s rating whenever that is below 1.5, steps included, at a fraction of the
/// cost: what `--difficulty easy` needs.
///
/// Both techniques only place digits, and a placement never takes one away from the other
/// cells, so what they can place from a grid they can still place from any grid with more of
/// the solution filled in: their closure does not depend on the order of steps. SE's path
/// takes full houses while there are any, so the rating is 1.0 when full houses alone solve
/// the puzzle, 1.2 when the two together do, and at least 1.5 otherwise.
pub fn easy_rating<S: Shape>(puzzle: &Grid<S>) -> Option<Rating> {
    let mut grid = *puzzle;
    if !grid.is_consistent() {
        return None;
    }
    let holes = grid.holes() as u32;
    let full_houses_only = close_easy(&mut grid, false);
    if !full_houses_only && !close_easy(&mut grid, true) {
        return None;
    }
    Some(Rating {
        hardest: (holes > 0).then_some(if full_houses_only {
            SeTechnique::FullHouse
        } else {
            SeTechnique::HiddenSingleBox
        }),
        steps: holes,
        finished: true,
    })
}

/// Places full houses (and hidden singles in boxes, with `box_singles`) in `grid` until none
/// is left; true when that fills it.
fn close_easy<S: Shape>(grid: &mut Grid<S>, box_singles: bool) -> bool {
    // Digits present per unit.
    let mut used = S::units(0u32);
    for cell in 0..S::CELLS {
        let d = grid.get(cell);
        if d != 0 {
            for unit in S::units_of(cell) {
                used[unit] |= 1 << (d - 1);
            }
        }
    }
    let mut progress = true;
    while progress {
        progress = false;
        for unit in 0..S::UNITS {
            let missing = S::ALL & !used[unit];
            if missing == 0 {
                continue;
            }
            let cells = S::unit(unit);
            if missing.count_ones() == 1 {
                // A full house: the one open cell takes the one missing digit.
                if let Some(&cell) = cells.iter().find(|&&c| grid.get(c as usize) == 0) {
                    place(
                        grid,
                        &mut used,
                        cell as usize,
                        missing.trailing_zeros() as u8 + 1,
                    );
                    progress = true;
                }
            } else if box_singles && unit >= 2 * S::N {
                let mut digits = missing;
                while digits != 0 {
                    let bit = digits & digits.wrapping_neg();
                    digits &= digits - 1;
                    let mut places = cells.iter().map(|&c| c as usize).filter(|&c| {
                        grid.get(c) == 0 && S::units_of(c).iter().all(|&u| used[u] & bit == 0)
                    });
                    if let (Some(cell), None) = (places.next(), places.next()) {
                        place(grid, &mut used, cell, bit.trailing_zeros() as u8 + 1);
                        progress = true;
                    }
                }
            }
        }
    }
    // (A puzzle with no solution can fill up with a clash; that is not solved.)
    grid.is_solution()
}

fn place<S: Shape>(grid: &mut Grid<S>, used: &mut S::Units<u32>, cell: usize, digit: Digit) {
    grid.set(cell, digit);
    for unit in S::units_of(cell) {
        used[unit] |= 1 << (digit - 1);
    }
}

/// Takes the easiest step of the SE scale that applies, among those rated at most `cap`
/// tenths (they are tried in increasing rating, so a step above `cap` is never looked for).
fn se_step<S: Shape>(logic: &mut Logic<S>, cap: u32) -> Result<Option<SeTechnique>, Unsolvable> {
    use SeTechnique::*;
    let over = |technique: SeTechnique| technique.tenths() > cap;
    if let Some((cell, d)) = full_house(logic) {
        logic.place(cell, d);
        return Ok(Some(FullHouse));
    }
    let boxes = 2 * S::N..3 * S::N;
    if over(HiddenSingleBox) {
        return Ok(None);
    }
    if let Some((cell, d)) = logic.find_hidden_single(boxes)? {
        logic.place(cell, d);
        return Ok(Some(HiddenSingleBox));
    }
    if over(HiddenSingleLine) {
        return Ok(None);
    }
    if let Some((cell, d)) = logic.find_hidden_single(0..2 * S::N)? {
        logic.place(cell, d);
        return Ok(Some(HiddenSingleLine));
    }
    let direct: [(SeTechnique, Finder<S>); 3] = [
        (DirectPointing, |l, f| locked(l, false, f)),
        (DirectClaiming, |l, f| locked(l, true, f)),
        (DirectHiddenPair, |l, f| hidden_subset(l, 2, f)),
    ];
    for (technique, find) in direct {
        if over(technique) {
            return Ok(None);
        }
        if let Some((cell, d)) = direct_step(logic, find) {
            logic.place(cell, d);
            return Ok(Some(technique));
        }
    }
    if over(NakedSingle) {
        return Ok(None);
    }
    if logic.naked_single()? {
        return Ok(Some(NakedSingle));
    }
    if over(DirectHiddenTriple) {
        return Ok(None);
    }
    if let Some(placed) = direct_step(logic, |l, f| hidden_subset(l, 3, f)) {
        logic.place(placed.0, placed.1);
        return Ok(Some(DirectHiddenTriple));
    }
    let indirect: [(SeTechnique, Finder<S>); 15] = [
        (Pointing, |l, f| locked(l, false, f)),
        (Claiming, |l, f| locked(l, true, f)),
        (NakedPair, |l, f| naked_subset(l, 2, f)),
        (XWing, |l, f| fish(l, 2, f)),
        (HiddenPair, |l, f| hidden_subset(l, 2, f)),
        (NakedTriple, |l, f| naked_subset(l, 3, f)),
        (Swordfish, |l, f| fish(l, 3, f)),
        (HiddenTriple, |l, f| hidden_subset(l, 3, f)),
        (TurbotFish, turbot),
        (XyWing, |l, f| wing(l, false, f)),
        (XyzWing, |l, f| wing(l, true, f)),
        (UniqueRectangle, unique_rectangle),
        (NakedQuad, |l, f| naked_subset(l, 4, f)),
        (Jellyfish, |l, f| fish(l, 4, f)),
        (HiddenQuad, |l, f| hidden_subset(l, 4, f)),
    ];
    for (technique, find) in indirect {
        if over(technique) {
            return Ok(None);
        }
        let mut chosen = None;
        find(logic, &mut |_, removal, _| {
            chosen = Some(*removal);
            true
        });
        if let Some(removal) = chosen {
            for (cell, &bits) in removal.as_ref().iter().enumerate() {
                logic.eliminate(cell, bits);
            }
            return Ok(Some(technique));
        }
    }
    Ok(None)
}

/// A search for eliminations: calls `found` with each set of eliminations (per cell, the
/// candidates to remove; never empty) until it returns true.
type Finder<S> = fn(&Logic<S>, &mut Found<'_, S>);

/// The placement a direct technique gives: the first eliminations `find` offers that leave
/// a removed digit one place in the unit they lie in or, for a line, in a box they touch.
/// The eliminations themselves are not kept.
fn direct_step<S: Shape>(logic: &Logic<S>, find: Finder<S>) -> Option<(usize, Digit)> {
    let mut placed = None;
    find(logic, &mut |logic, removal, unit| {
        let boxes = (unit < 2 * S::N)
            .then_some(2 * S::N..3 * S::N)
            .into_iter()
            .flatten()
            .filter(|&u| S::unit(u).iter().any(|&c| removal[c as usize] != 0));
        placed = std::iter::once(unit)
            .chain(boxes)
            .find_map(|u| single_after(logic, u, removal));
        placed.is_some()
    });
    placed
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
fn full_house<S: Shape>(logic: &Logic<S>) -> Option<(usize, Digit)> {
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

/// Calls `visit` with every `k`-subset of the set bits of `items` (as a mask) until it
/// returns true.
fn subsets(items: u32, k: u32, visit: &mut dyn FnMut(u32) -> bool) -> bool {
    fn go(items: u32, k: u32, chosen: u32, visit: &mut dyn FnMut(u32) -> bool) -> bool {
        if k == 0 {
            return visit(chosen);
        }
        let mut rest = items;
        while rest.count_ones() >= k {
            let bit = rest & rest.wrapping_neg();
            rest &= rest - 1;
            if go(rest, k - 1, chosen | bit, visit) {
                return true;
            }
        }
        false
    }
    go(items, k, 0, visit)
}

/// Naked subsets of `k` cells: `k` open cells of a unit holding `k` digits between them.
fn naked_subset<S: Shape>(logic: &Logic<S>, k: u32, found: &mut Found<'_, S>) {
    for unit in 0..S::UNITS {
        let cells = S::unit(unit);
        let open = (0..S::N)
            .filter(|&p| logic.value[cells[p] as usize] == 0)
            .fold(0u32, |m, p| m | 1 << p);
        if open.count_ones() <= k {
            continue;
        }
        // Only cells with at most k candidates can be among the k: the subsets of those
        // come in the same order as among all open cells, so the first found is the same.
        let small = (0..S::N)
            .filter(|&p| open >> p & 1 != 0 && logic.cand[cells[p] as usize].count_ones() <= k)
            .fold(0u32, |m, p| m | 1 << p);
        let done = subsets(small, k, &mut |chosen| {
            let digits = (0..S::N)
                .filter(|&p| chosen >> p & 1 != 0)
                .fold(0, |d, p| d | logic.cand[cells[p] as usize]);
            if digits.count_ones() != k {
                return false;
            }
            let mut removal = S::cells(0u32);
            let mut any = false;
            for p in (0..S::N).filter(|&p| open & !chosen >> p & 1 != 0) {
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

/// Hidden subsets of `k` digits: `k` missing digits of a unit confined to `k` cells.
fn hidden_subset<S: Shape>(logic: &Logic<S>, k: u32, found: &mut Found<'_, S>) {
    for unit in 0..S::UNITS {
        let cells = S::unit(unit);
        let table = logic.unit_places(unit);
        let missing = logic.missing(unit);
        if missing.count_ones() <= k {
            continue;
        }
        // Only digits with at most k places can be among the k (the same order argument
        // as for naked subsets).
        let few = (0..S::N as u32)
            .filter(|&d| missing >> d & 1 != 0 && table[d as usize].count_ones() <= k)
            .fold(0u32, |m, d| m | 1 << d);
        let done = subsets(few, k, &mut |digits| {
            let mut places = 0u32;
            let mut each = digits;
            while each != 0 {
                let bit = each & each.wrapping_neg();
                each &= each - 1;
                places |= table[bit.trailing_zeros() as usize];
            }
            if places.count_ones() != k {
                return false;
            }
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

/// Fish of size `k` (X-Wing, Swordfish, Jellyfish): a digit whose places in `k` rows lie in
/// `k` columns between them leaves those columns' other cells; and the same with rows and
/// columns swapped.
fn fish<S: Shape>(logic: &Logic<S>, k: u32, found: &mut Found<'_, S>) {
    for d in 0..S::N {
        let bit = 1u32 << d;
        for (base, cover) in [(0, S::N), (S::N, 0)] {
            // Base lines where the digit is missing, with 2..=k places.
            let lines = (0..S::N)
                .filter(|&l| {
                    let places = logic.places(base + l, bit).count_ones();
                    (2..=k).contains(&places)
                })
                .fold(0u32, |m, l| m | 1 << l);
            if lines.count_ones() < k {
                continue;
            }
            let done = subsets(lines, k, &mut |chosen| {
                let covers = (0..S::N)
                    .filter(|&l| chosen >> l & 1 != 0)
                    .fold(0, |m, l| m | logic.places(base + l, bit));
                if covers.count_ones() != k {
                    return false;
                }
                let mut removal = S::cells(0u32);
                let mut any = false;
                for c in (0..S::N).filter(|&c| covers >> c & 1 != 0) {
                    for (l, &cell) in S::unit(cover + c).iter().enumerate() {
                        let cell = cell as usize;
                        if chosen >> l & 1 == 0 && logic.cand[cell] & bit != 0 {
                            removal[cell] = bit;
                            any = true;
                        }
                    }
                }
                any && found(logic, &removal, 0)
            });
            if done {
                return;
            }
        }
    }
}

/// Turbot fish (skyscraper, two-string kite and their box forms): a digit with exactly two
/// places in each of two units, A–B and C–D, where B sees C; one of A and D holds the digit,
/// so it leaves every cell that sees both.
fn turbot<S: Shape>(logic: &Logic<S>, found: &mut Found<'_, S>) {
    for d in 0..S::N {
        let bit = 1u32 << d;
        // Every strong link: the two places of the digit in a unit with exactly two.
        let mut links = [(0usize, 0usize); 75];
        let mut len = 0;
        for unit in 0..S::UNITS {
            let places = logic.places(unit, bit);
            if places.count_ones() == 2 {
                let cells = S::unit(unit);
                let first = cells[places.trailing_zeros() as usize] as usize;
                let second = cells[(31 - places.leading_zeros()) as usize] as usize;
                links[len] = (first, second);
                len += 1;
            }
        }
        let links = &links[..len];
        for (i, &one) in links.iter().enumerate() {
            for &two in &links[i + 1..] {
                if one == two {
                    continue;
                }
                for (a, b) in [(one.0, one.1), (one.1, one.0)] {
                    for (c, e) in [(two.0, two.1), (two.1, two.0)] {
                        let distinct = a != c && a != e && b != c && b != e;
                        if !distinct || !sees::<S>(b, c) {
                            continue;
                        }
                        let mut removal = S::cells(0u32);
                        let mut any = false;
                        for cell in 0..S::CELLS {
                            let doomed = cell != a
                                && cell != e
                                && logic.cand[cell] & bit != 0
                                && sees::<S>(cell, a)
                                && sees::<S>(cell, e);
                            if doomed {
                                removal[cell] = bit;
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
    }
}

/// Unique rectangle, type 1: four cells on two rows, two columns and two boxes, three of
/// them with the same two candidates. Were the fourth to take neither, the two digits could
/// swap round the rectangle and the puzzle would have two solutions; so it loses both.
fn unique_rectangle<S: Shape>(logic: &Logic<S>, found: &mut Found<'_, S>) {
    let n = S::N;
    for r1 in 0..n {
        for r2 in r1 + 1..n {
            for c1 in 0..n {
                for c2 in c1 + 1..n {
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
                                return;
                            }
                        }
                    }
                }
            }
        }
    }
}

/// True when two cells share a unit.
fn sees<S: Shape>(a: usize, b: usize) -> bool {
    a != b && {
        let (ua, ub) = (S::units_of(a), S::units_of(b));
        ua.iter().zip(&ub).any(|(x, y)| x == y)
    }
}

/// XY-Wing (pivot {x,y}, pincers {x,z} and {y,z} it sees) or, with `xyz`, XYZ-Wing (pivot
/// {x,y,z}, pincers {x,z} and {y,z}): z leaves every cell that sees both pincers (and, for
/// XYZ, the pivot).
fn wing<S: Shape>(logic: &Logic<S>, xyz: bool, found: &mut Found<'_, S>) {
    let size = if xyz { 3 } else { 2 };
    for pivot in 0..S::CELLS {
        let p = logic.cand[pivot];
        if p.count_ones() != size {
            continue;
        }
        let peers = S::peers(pivot);
        for (i, &a) in peers.iter().enumerate() {
            let a = a as usize;
            let ca = logic.cand[a];
            if ca.count_ones() != 2 || (ca & p).count_ones() != if xyz { 2 } else { 1 } {
                continue;
            }
            for &b in &peers[i + 1..] {
                let b = b as usize;
                let cb = logic.cand[b];
                if cb.count_ones() != 2 || cb == ca {
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
                for cell in 0..S::CELLS {
                    let sees_all = sees::<S>(cell, a)
                        && sees::<S>(cell, b)
                        && (!xyz || sees::<S>(cell, pivot));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::Nine;

    #[test]
    fn levels_follow_the_bank_boundaries() {
        assert_eq!(Level::of_tenths(12), Level::Easy);
        assert_eq!(Level::of_tenths(15), Level::Medium);
        assert_eq!(Level::of_tenths(23), Level::Medium);
        assert_eq!(Level::of_tenths(25), Level::Hard);
        assert_eq!(Level::of_tenths(44), Level::Hard);
        assert_eq!(Level::of_tenths(50), Level::Diabolical);
    }

    #[test]
    fn subsets_are_enumerated_once() {
        let mut seen = Vec::new();
        subsets(0b10110, 2, &mut |s| {
            seen.push(s);
            false
        });
        assert_eq!(seen, vec![0b00110, 0b10010, 0b10100]);
    }

    #[test]
    fn a_complete_grid_rates_zero() {
        let grid = Grid::<Nine>::parse(
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179",
        )
        .unwrap();
        let rating = rate(&grid).unwrap();
        assert!(rating.finished);
        assert_eq!((rating.tenths(), rating.level()), (0, Level::Easy));
    }
}
