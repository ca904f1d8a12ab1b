//! Ratings on the Sudoku Explainer (SE) scale: solve step by step, always with the easiest
//! technique that applies, and rate the puzzle by its hardest step.
//!
//! The techniques and their SE values (as Sukaku Explainer, which rated the shared graded
//! data, gives them), in SE's order: full house 1.0, hidden single in a box 1.2, in a row
//! or column 1.5; direct pointing 1.7, direct claiming 1.9, direct hidden pair 2.0 (a
//! locking or hidden set whose eliminations leave a hidden single, which is placed); naked
//! single 2.3; direct hidden triple 2.5; pointing 2.6, claiming 2.8, naked pair 3.0, X-Wing
//! 3.2, hidden pair 3.4, naked triple 3.6, Swordfish 3.8, hidden triple 4.0, turbot fish
//! 4.0–4.1, empty rectangles and grouped turbot fish 4.3, XY-Wing 4.2, XYZ-Wing 4.4, unique
//! rectangles 4.5 (type 3 4.5–4.8) and unique loops 4.6–5.6 (SE offers both together, by
//! rating, before the techniques after them), naked quad 5.0, Jellyfish 5.2, hidden quad
//! 5.4, chains of three strong links 5.4–5.6, WXYZ-Wing 5.5–5.6, BUG 5.6–6.2 (type 3 5.8
//! and up), VWXYZ-Wing 6.2–6.4, aligned pair exclusion 6.2; then SE's forcing chains and
//! bidirectional cycles, found and rated as SE does (X- and Y-cycles 6.5, forcing X-chains
//! 6.6, either with both kinds of link 7.0, each plus a tenth for each length it passes of 4,
//! 6, 8, 12, 16, 24, … links); when none applies, SE's aligned triple exclusion (7.5); when
//! none applies, its Nishio forcing chains (7.5 and up), and when none of those applies, its
//! cell and region forcing chains (8.0 and up), each rated by its complexity as SE counts
//! it, and when none of those applies, its dynamic forcing chains (8.5 and up). A puzzle
//! none of them finishes is marked unfinished and reported at 5.0 (or its hardest step, if
//! higher): it needs techniques this rater does not have (SE's dynamic chains nested with
//! other techniques, 9.0 and up, or, rarely, another step of SE's), almost all rated 5.0
//! or more in SE.
//!
//! Levels follow the Sudoku Exchange bank: easy < 1.5 ≤ medium < 2.5 ≤ hard < 5.0 ≤
//! diabolical (and every unfinished puzzle).
//!
//! This file takes the path. The candidate grid it steps on is in `logic.rs`, the
//! techniques and their ratings in `scale.rs`, the searches for their steps in
//! `techniques/`, the closure of the placements (every step rated 2.5 or below) in
//! `closure.rs`, and what a path need not search again in `fruitless.rs` and
//! `templates.rs`. Levels and bands are in `band.rs`, with `singles.rs`, the first look a
//! band takes at a 9×9 puzzle. qqwing's levels, from its own techniques on the same grid,
//! are in `qqwing.rs`.

use crate::error::Unsolvable;
use crate::grid::Grid;
use crate::shape::Shape;

mod band;
mod closure;
mod fruitless;
pub mod logic;
pub mod qqwing;
mod scale;
mod singles;
mod techniques;
mod templates;

pub use band::{Band, Fit, Level, fit, rate_in};
pub use closure::placement_rating;
use fruitless::{Fruitless, Scope};
use logic::Logic;
pub use scale::{ChainKind, SeTechnique};
use techniques::{
    ChainStep, Graded, Search, Units, aligned_triple_step, chain_step, chain_tenths,
    direct_pointing, direct_step, dynamic_step, eliminating, full_house, hidden_subset,
    multiple_step, nishio_step,
};

/// The rating reported for a puzzle the techniques do not finish, at least: 5.0.
const UNFINISHED_TENTHS: u32 = 50;

/// The highest rating the rater can give, in tenths: a dynamic cell forcing chain (8.5) of
/// a 25×25 grid whose 25 candidates each lead through every potential (each candidate on
/// and off) of the grid, rated by its complexity. A band that starts above this keeps no
/// puzzle.
pub const HIGHEST_TENTHS: u32 =
    chain_tenths(ChainKind::DynamicForcingChains, 25 * (2 * 25 * 25 * 25));

/// The ratings, in tenths, of 4×4 puzzles with holes and one solution: a full house (1.0)
/// or a hidden single in a box (1.2). Full houses and hidden singles in boxes fill every
/// such puzzle (tests/rating.rs rates every clue pattern of a grid of each of the two
/// classes the 288 complete 4×4 grids fall into), so a 4×4 band that holds neither keeps
/// no puzzle.
pub const FOUR_BY_FOUR_TENTHS: [u32; 2] = [10, 12];

/// An SE rating in tenths as text: `2.6`.
pub fn tenths_text(tenths: u32) -> String {
    format!("{}.{}", tenths / 10, tenths % 10)
}

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
///
/// A rating is for a puzzle with exactly one solution, which the `rate` command checks
/// first ([`Engine::count_solutions`](crate::Engine::count_solutions) up to 2 gives 1). On
/// a puzzle with more it means little: the path stalls where the solutions part
/// ([`Rating::finished`] false, reported as 5.0 or more), or a technique that assumes one
/// solution (unique rectangles, BUG) picks one of them.
///
/// It takes the SE path a run at a time: every step rated 2.5 or below only places digits,
/// and the path takes all of them (they come before any step that eliminates) and reaches
/// the same grid whatever their order (see [`placement_rating`]). So each run of them is
/// placed in bulk, with the hardest technique the path would use for it, then the path's
/// next step, the easiest that eliminates, is taken one at a time. [`rate_stepwise`] takes
/// every step one at a time and gives the same rating.
pub fn rate<S: Shape>(puzzle: &Grid<S>) -> Result<Rating, Unsolvable> {
    rate_up_to(puzzle, u32::MAX, 0, Path::Stepwise)
}

/// How [`rate_up_to`] takes the steps that eliminate.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Path {
    /// One at a time, the first the easiest technique finds: SE's path.
    Stepwise,
    /// Every elimination the easiest technique finds at once, for techniques up to
    /// [`BULK_UP_TO`] but those SE's list tries after a harder one ([`in_bulk`]); one at a
    /// time otherwise. The rating is SE's (see [`rate_in`]); the steps are not, and the
    /// hardest technique may be another of the same rating.
    Bulk,
}

/// The hardest technique [`Path::Bulk`] applies in bulk. Up to it, every technique keeps
/// its conclusion as the grid loses candidates: the pattern stays, or it falls to a smaller
/// one or to singles that reach the same eliminations (a locked digit, subset or fish line
/// down to one place is placed; so is a wing cell down to one candidate, and a XYZ-Wing
/// pivot that loses a digit leaves an XY-Wing or a naked pair; an empty rectangle whose box
/// keeps one line of its cross leaves a pointing, and one whose link loses an end, a placed
/// digit that clears the target or the box's row). So the closure of the
/// techniques rated at most `t`, for any `t` up to it, is the same grid whatever order
/// they take. Not so the unique rectangle above it, whose corners can be filled before it
/// is seen.
const BULK_UP_TO: SeTechnique = SeTechnique::XyzWing;

/// Whether [`Path::Bulk`] takes every elimination of the `k`th technique of `techniques`
/// (SE's list) at once: one up to [`BULK_UP_TO`] that no technique before it in the list
/// outrates. After one elimination, SE's path tries the techniques before it again, and one
/// rated higher that applies there rates the puzzle higher, where taking them all at once
/// may never meet it. So XY-Wings (4.2), which the list tries after the empty rectangles
/// and grouped turbot fish (4.3), go one at a time: in bulk,
/// `..........2.7.3...784.5.2..8..6.......9....75.5...2...6.754...9....3..8..9.26.7..`
/// came out 4.2, where SE's path takes a grouped turbot fish after its first XY-Wing and
/// rates it 4.3.
fn in_bulk<S: Shape>(techniques: &[(SeTechnique, Search<S>)], k: usize) -> bool {
    let (technique, _) = techniques[k];
    technique <= BULK_UP_TO
        && techniques[..k]
            .iter()
            .all(|&(earlier, _)| earlier.tenths() <= technique.tenths())
}

/// The harder of two steps: the one rated higher, or the later in SE's list.
fn harder(a: Option<SeTechnique>, b: Option<SeTechnique>) -> Option<SeTechnique> {
    std::cmp::max_by_key(a, b, |t| t.map(|t| (t.tenths(), t)))
}

/// Rates `puzzle` with the techniques rated at most `cap` tenths: [`rate`] when `cap` takes
/// them all; otherwise a puzzle that needs a harder one comes out unfinished. Ratings below
/// `floor` tenths are not told apart: a puzzle rated below it may come out with the rating
/// of any placement below it.
///
/// Once the path has eliminated, the placements' ratings no longer matter either: every
/// step that eliminates is rated above them. So the runs of placements are closed with
/// every placement rated below the rating so far (or `floor`) allowed from the start (see
/// [`closure::place_closure`]).
fn rate_up_to<S: Shape>(
    puzzle: &Grid<S>,
    cap: u32,
    floor: u32,
    path: Path,
) -> Result<Rating, Unsolvable> {
    let mut logic = Logic::new(puzzle)?;
    let mut rating = Rating {
        hardest: None,
        steps: 0,
        finished: false,
    };
    let mut fruitless = Fruitless::with_templates();
    loop {
        let open = logic.open();
        let lumped = floor.max(rating.tenths() + 1);
        let closure = closure::place_closure(&mut logic, cap, lumped, Some(&mut fruitless))?;
        rating.steps += (open - logic.open()) as u32;
        rating.hardest = harder(rating.hardest, closure.hardest);
        if logic.is_solved() {
            rating.finished = true;
            return Ok(rating);
        }
        let Some(step) = eliminating_step(&mut logic, cap, path, &mut fruitless) else {
            return Ok(rating);
        };
        rating.steps += 1;
        rating.hardest = harder(rating.hardest, Some(step));
    }
}

/// [`rate`] the way SE rates: one step at a time, always the easiest that applies. Slower;
/// the reference [`rate`] is tested against.
pub fn rate_stepwise<S: Shape>(puzzle: &Grid<S>) -> Result<Rating, Unsolvable> {
    let mut logic = Logic::new(puzzle)?;
    let mut rating = Rating {
        hardest: None,
        steps: 0,
        finished: false,
    };
    while !logic.is_solved() {
        let step = match placing_step(&mut logic)? {
            Some(step) => step,
            // Each step looks afresh at every digit.
            None => {
                match eliminating_step(&mut logic, u32::MAX, Path::Stepwise, &mut Fruitless::new())
                {
                    Some(step) => step,
                    None => return Ok(rating),
                }
            }
        };
        rating.steps += 1;
        rating.hardest = harder(rating.hardest, Some(step));
    }
    rating.finished = true;
    Ok(rating)
}

/// Takes the easiest step of the SE scale that applies among those that only place digits
/// (rated 2.5 or below), if one does.
fn placing_step<S: Shape>(logic: &mut Logic<S>) -> Result<Option<SeTechnique>, Unsolvable> {
    use SeTechnique::*;
    if let Some((cell, d)) = full_house(logic) {
        logic.place(cell, d);
        return Ok(Some(FullHouse));
    }
    let boxes = 2 * S::N..3 * S::N;
    if let Some((cell, d)) = logic.find_hidden_single(boxes)? {
        logic.place(cell, d);
        return Ok(Some(HiddenSingleBox));
    }
    if let Some((cell, d)) = logic.find_hidden_single(0..2 * S::N)? {
        logic.place(cell, d);
        return Ok(Some(HiddenSingleLine));
    }
    if let Some((cell, d)) = direct_pointing(logic) {
        logic.place(cell, d);
        return Ok(Some(DirectPointing));
    }
    // Direct claiming looks for its hidden single in the box it clears, where the line keeps
    // two places or more (see `direct_step`): it never places.
    if let Some((cell, d)) = direct_step(logic, |l, f| hidden_subset(l, 2, Units::MAX, f)) {
        logic.place(cell, d);
        return Ok(Some(DirectHiddenPair));
    }
    if logic.naked_single()? {
        return Ok(Some(NakedSingle));
    }
    if let Some((cell, d)) = direct_step(logic, |l, f| hidden_subset(l, 3, Units::MAX, f)) {
        logic.place(cell, d);
        return Ok(Some(DirectHiddenTriple));
    }
    Ok(None)
}

/// Takes the first step in SE's order ([`eliminating`]) that eliminates candidates, among
/// those rated at most `cap` tenths, if one applies; with [`Path::Bulk`], all that technique
/// finds. A technique above `cap` is looked for only where SE tries it before one within it
/// (the grouped turbot fish before XY-Wings): if it applies, SE's path takes it, and no step
/// within `cap` is taken. Searches look only where `fruitless` (the path's) says they may
/// find something, and note there where they found nothing.
fn eliminating_step<S: Shape>(
    logic: &mut Logic<S>,
    cap: u32,
    path: Path,
    fruitless: &mut Fruitless,
) -> Option<SeTechnique> {
    let techniques = eliminating::<S>();
    fruitless.update(logic);
    let mut templates_due = false;
    for (k, &(technique, search)) in techniques.iter().enumerate() {
        templates_due |= technique == TEMPLATES_FROM;
        if templates_due && matches!(search, Search::ByDigit(_)) {
            fruitless.check_templates(logic);
        }
        let scope = fruitless.scope(logic, k, search);
        if technique.tenths() > cap {
            // SE takes a technique where its list puts it: one above the cap that comes
            // before one within it ends the path here if it applies.
            let within_later = techniques[k + 1..].iter().any(|t| t.0.tenths() <= cap);
            if !within_later || offers(logic, search, scope) {
                return None;
            }
            fruitless.found_nothing(k, search, scope);
            continue;
        }
        if let Search::Graded(find) = search {
            // Its steps' ratings vary: one above the cap is SE's step, and ends the path.
            let mut chosen = None;
            let step = find(logic, &mut |_, removal, _| {
                chosen = Some(*removal);
                true
            });
            match (step, chosen) {
                (Some(step), Some(removal)) if step.tenths() <= cap => {
                    logic.eliminate_all(&removal);
                    return Some(step);
                }
                (Some(_), _) => return None,
                (None, _) => {
                    fruitless.found_nothing(k, search, scope);
                    continue;
                }
            }
        }
        if scope.is_empty() {
            continue;
        }
        let all = path == Path::Bulk && in_bulk(&techniques, k);
        let mut chosen: Option<S::Cells<u32>> = None;
        search.run(logic, scope.digits, scope.units, &mut |_, removal, _| {
            match &mut chosen {
                None => chosen = Some(*removal),
                Some(union) => {
                    for (bits, &more) in union.as_mut().iter_mut().zip(removal.as_ref()) {
                        *bits |= more;
                    }
                }
            }
            !all
        });
        if let Some(removal) = chosen {
            logic.eliminate_all(&removal);
            return Some(technique);
        }
        fruitless.found_nothing(k, search, scope);
    }
    chaining_step(logic, cap)
}

/// The step of SE's chains, if one within `cap` tenths applies (and SE's path takes none
/// above it first).
fn chaining_step<S: Shape>(logic: &mut Logic<S>, cap: u32) -> Option<SeTechnique> {
    // SE's chains, whose ratings grow with their length, each kind (forcing chains and
    // cycles, Nishio, cell and region, dynamic) only when the ones before find nothing; and
    // aligned triple exclusion, which SE's chaining list tries after forcing chains and
    // cycles.
    let chaining: [(ChainKind, ChainStep<S>); 5] = [
        (ChainKind::XCycle, chain_step),
        (ChainKind::AlignedTripleExclusion, aligned_triple_step),
        (ChainKind::NishioForcingChain, nishio_step),
        (ChainKind::CellForcingChains, multiple_step),
        (ChainKind::DynamicForcingChains, dynamic_step),
    ];
    for (easiest, step) in chaining {
        if cap < easiest.base_tenths() {
            break;
        }
        match step(logic, cap) {
            Graded::Taken(step) => return Some(step),
            Graded::AboveCap => return None,
            Graded::Nothing => {}
        }
    }
    None
}

/// The technique of [`eliminating`] from which on a path checks digits against their
/// templates ([`Fruitless::check_templates`]). The searches before it are cheap, and a step
/// often ends at one of them. For the hard band on the 5,000 puzzles of
/// `generate --holes 55 --count 5000 --seed 9`, checking before Swordfish or X-Wing took
/// 1,400M instructions, before skyscrapers 1,433M and before pointing 1,485M (1,766M
/// without templates).
const TEMPLATES_FROM: SeTechnique = SeTechnique::Swordfish;

/// Whether `search` offers any eliminations on `logic` within `scope`.
fn offers<S: Shape>(logic: &Logic<S>, search: Search<S>, scope: Scope) -> bool {
    let mut any = false;
    if !scope.is_empty() {
        search.run(logic, scope.digits, scope.units, &mut |_, _, _| {
            any = true;
            true
        });
    }
    any
}

#[cfg(test)]
mod tests {
    use super::techniques::TECHNIQUES;
    use super::*;
    use crate::shape::Nine;

    #[test]
    fn the_highest_rating_is_the_longest_chains() {
        let fixed = techniques::eliminating::<Nine>()
            .iter()
            .map(|(technique, _)| technique.tenths())
            .max();
        assert_eq!(fixed, Some(SeTechnique::VwxyzWingOfThree.tenths()));
        assert!(ChainKind::XCycle.base_tenths() > fixed.unwrap());
        // SE's length steps go 4, 6, 8, 12, 16, 24, …, 16,384, 24,576, 32,768: a chain of
        // 31,250 potentials (all of a 25×25 grid) passes 26 of them, and 25 such chains
        // (781,250) pass 35 (…, 393,216, 524,288).
        assert_eq!(chain_tenths(ChainKind::ForcingChain, 31_250), 70 + 26);
        assert_eq!(HIGHEST_TENTHS, 85 + 35);
        // A Nishio chain's two sides count at most every potential of one digit each.
        assert!(chain_tenths(ChainKind::NishioForcingChain, 2 * 2 * 25 * 25) < HIGHEST_TENTHS);
    }

    /// Diabolical puzzles (from `sudoku_exchange_diabolical.txt` and `se_rated_qqwing.txt` in
    /// the shared data) whose paths take each chain of three strong links and WXYZ-Wing.
    const PAST_QUADS: [&str; 10] = [
        ".1.7.....4.6.2....9.21.5....48.9....6.1...5.7....5.84....5.37.2....7.9.6.....6.5.",
        ".215.........83.2...6...8.....8....1.38...45.7....6.....2...5...5.62.........173.",
        "..7...5......8....9...7...1.251.893...3...6....9...2.....5.3...7.......6.1.2.7.4.",
        "....4.....2.6.9.1...63.87...5..9..2...8...3..93.....74.8.5.2.4..43...26.5.......3",
        "..8.2.9..6.......55..9.1..2..1.7.5...72...69.3.......7...4.7....1.5.3.2..5..1..8.",
        "1...732.6..7.1....2.3..571.4.5......73.....58......3.4.213..8.5....9.4..3.456...2",
        "2...5...6.1.....9.6..8.1..3..7.9.6.....7.3...9...8...21.......5.6.9.2.1...3.6.2..",
        "5..8....1.....4.....46123...35...6.8..2...5..6.8...19...61259.....3.....1....8..2",
        "..9....167.1...23.......9.7...8.24..84.......6.2..9..11.64....9...1....8...67..4.",
        "6...5.......6..341.........49.3.8.15........8.5..1.7..3..8..1.......5.7..459.18.6",
    ];

    /// Walks SE's path from `puzzle`, checking that every elimination every technique
    /// offers on the way keeps `solution`'s digit, that no search by digit offers one on a
    /// digit its templates cover, and that a finished path ends at the solution; counts in
    /// `offered` the sets each technique offered, in `covered` the digits templates cover.
    fn check_path(
        puzzle: &Grid<Nine>,
        solution: &Grid<Nine>,
        offered: &mut [usize; TECHNIQUES],
        covered: &mut usize,
    ) {
        let mut logic = Logic::new(puzzle).unwrap();
        loop {
            closure::place_closure(&mut logic, u32::MAX, 0, None).unwrap();
            if logic.is_solved() {
                assert_eq!(logic.grid(), *solution, "{puzzle}");
                return;
            }
            for (k, (technique, search)) in eliminating::<Nine>().into_iter().enumerate() {
                search.run(&logic, Nine::ALL, Units::MAX, &mut |_, removal, _| {
                    for (cell, &bits) in removal.as_ref().iter().enumerate() {
                        let digit = 1 << (solution.get(cell) - 1);
                        assert_eq!(bits & digit, 0, "{technique:?} in {puzzle}");
                    }
                    offered[k] += 1;
                    false
                });
            }
            // No search by digit offers anything on a digit its templates cover.
            let by_templates = templates::covered_digits(&logic, Nine::ALL);
            *covered += by_templates.count_ones() as usize;
            for (technique, search) in eliminating::<Nine>() {
                if let Search::ByDigit(_) = search {
                    search.run(&logic, by_templates, Units::MAX, &mut |_, _, _| {
                        panic!("{technique:?} on digits {by_templates:#b} in {puzzle}")
                    });
                }
            }
            let fresh = &mut Fruitless::new();
            if eliminating_step(&mut logic, u32::MAX, Path::Stepwise, fresh).is_none() {
                return;
            }
        }
    }

    /// Every elimination every technique offers keeps the solution's digit, on the grids
    /// SE's path goes through for 9×9 puzzles dug to 56 holes, for [`PAST_QUADS`] and for
    /// the Sudoku Exchange diabolical puzzles (the uniqueness techniques may assume one
    /// solution: these puzzles have one); that the searches by digit offer nothing on the
    /// digits their templates cover; and that a path that finishes ends at the solution.
    #[test]
    fn eliminations_keep_the_solution() {
        let mut generator = crate::Generator::<Nine>::new(crate::Holes::Exact(56));
        let (mut offered, mut covered) = ([0usize; TECHNIQUES], 0);
        for index in 0..150 {
            let work = &mut crate::stats::Work::default();
            if let Some(made) = generator.attempt(21, index, work) {
                check_path(&made.puzzle, &made.solution, &mut offered, &mut covered);
            }
        }
        use crate::solver::Engine;
        let mut solver = crate::solver::Solver::<Nine>::new();
        for text in PAST_QUADS {
            let puzzle = Grid::<Nine>::parse(text).unwrap();
            assert_eq!(solver.count_solutions(&puzzle, 2), 1, "{text}");
            check_path(&puzzle, &solver.solution(), &mut offered, &mut covered);
        }
        // And the 480 diabolical puzzles of the shared data, which the rater mostly does not
        // finish: its techniques above 4.5 see much use on them.
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../shared/data/sudoku_exchange_diabolical.txt"
        );
        let text = std::fs::read_to_string(path).expect("../shared/data beside the repository");
        for line in text.lines() {
            let digits = line.split_whitespace().nth(1).unwrap();
            let puzzle = Grid::<Nine>::parse(digits).unwrap();
            assert_eq!(solver.count_solutions(&puzzle, 2), 1, "{digits}");
            check_path(&puzzle, &solver.solution(), &mut offered, &mut covered);
        }
        assert!(
            covered > 10_000,
            "{covered} digits covered by their templates"
        );
        // Every technique but naked quads, Jellyfish, hidden quads, BUG type 3 past its
        // naked pairs and aligned pair exclusion was seen at work (those have tests of
        // their own).
        let techniques = eliminating::<Nine>();
        let unseen = [
            SeTechnique::BugType3Triple,
            SeTechnique::BugType3Quad,
            SeTechnique::BugType3Five,
            SeTechnique::BugType3Six,
            SeTechnique::AlignedPairExclusion,
        ];
        for (k, (technique, _)) in techniques.iter().enumerate() {
            let quads = SeTechnique::NakedQuad..=SeTechnique::HiddenQuad;
            if !quads.contains(technique) && !unseen.contains(technique) {
                assert!(offered[k] > 0, "{technique:?} never offered: {offered:?}");
            }
        }
    }

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
