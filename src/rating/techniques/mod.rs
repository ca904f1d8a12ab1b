//! The techniques past singles, each as a search that offers the eliminations it finds, in
//! one file per family:
//!
//! - locked candidates, in [`crate::rating::logic`];
//! - [`subsets`]: naked and hidden pairs, triples and quads;
//! - [`fish`](mod@fish): X-Wing, Swordfish and Jellyfish;
//! - [`links`]: strong links on one digit: turbot fish, grouped turbot fish, empty
//!   rectangles and chains of three strong links;
//! - [`wings`]: XY-, XYZ-, WXYZ- and VWXYZ-Wings;
//! - [`uniqueness`]: unique rectangles;
//! - [`bug`](mod@bug): bivalue universal graves;
//! - [`loops`]: unique loops, offered with the unique rectangles rated above 4.5;
//! - [`aligned`]: aligned pair exclusion, the last technique of fixed rating, and aligned
//!   triple exclusion, tried when there is no forcing chain or cycle;
//! - [`chains`]: forcing chains and bidirectional cycles, whose ratings grow with their
//!   length, tried when every technique of fixed rating has failed;
//! - [`nishio`]: Nishio forcing chains, tried when there is no aligned triple exclusion;
//! - [`multiple`]: cell and region forcing chains, tried when there is no Nishio chain;
//! - [`dynamic`]: dynamic forcing chains, tried when there is no cell or region chain;
//! - [`placements`]: the full house, and the *direct* form of a technique, which keeps no
//!   elimination but places the hidden single its eliminations leave.
//!
//! [`eliminating`] lists them in the order the rater tries them.

mod aligned;
mod bug;
mod chains;
mod dynamic;
mod fish;
mod links;
mod loops;
mod multiple;
mod nishio;
mod placements;
mod subsets;
#[cfg(test)]
mod testing;
mod uniqueness;
mod wings;

use super::{ChainKind, SeTechnique};
use crate::rating::logic::{Found, Logic, locked};
use crate::shape::Shape;
use aligned::aligned_pair;
pub(super) use aligned::aligned_triple_step;
use bug::{Bug, bug};
pub(super) use chains::{chain_step, chain_tenths};
pub(super) use dynamic::dynamic_step;
use fish::fish;
use links::{
    ThreeLinks, Turbot, empty_rectangle, grouped_three_links, grouped_turbot, three_links, turbot,
};
use loops::unique_loop;
pub(super) use multiple::multiple_step;
pub(super) use nishio::nishio_step;
pub(super) use placements::{direct_pointing, direct_step, direct_steps, full_house};
pub(super) use subsets::hidden_subset;
pub(super) use subsets::{Subsets, Units, all_units};
use uniqueness::unique_rectangle;
use wings::{als_wing, wing};

/// What the search for a technique whose rating grows with its length found.
pub(super) enum Graded {
    /// A step, taken.
    Taken(SeTechnique),
    /// A step rated above the cap, not taken.
    AboveCap,
    /// No step.
    Nothing,
}

/// The best chain so far that settles one candidate, in SE's order: by rating, then
/// complexity, then sort key, then the first found.
struct Settling {
    /// SE's rating, in floating point.
    difficulty: f64,
    complexity: usize,
    key: u8,
    kind: ChainKind,
    /// The candidate (`N · cell + d`), and whether it holds (else it is false).
    target: u32,
    holds: bool,
}

impl Settling {
    /// Keeps in `best` a chain of `kind` that settles `target`, if it comes before it and
    /// removes something (a candidate that holds removes its cell's others).
    fn offer<S: Shape>(
        best: &mut Option<Settling>,
        logic: &Logic<S>,
        kind: ChainKind,
        target: u32,
        holds: bool,
        complexity: usize,
        key: u8,
    ) {
        let (cell, d) = (target as usize / S::N, target as usize % S::N);
        if holds && logic.cand[cell] & !(1 << d) == 0 {
            return;
        }
        let difficulty = chains::difficulty(kind.base_tenths(), complexity);
        let before = best
            .as_ref()
            .is_none_or(|b| (difficulty, complexity, key) < (b.difficulty, b.complexity, b.key));
        if before {
            *best = Some(Settling {
                difficulty,
                complexity,
                key,
                kind,
                target,
                holds,
            });
        }
    }

    /// Takes the step when it is rated at most `cap` tenths: removes the candidate, or when
    /// it holds, its cell's other candidates.
    fn take<S: Shape>(best: Option<Settling>, logic: &mut Logic<S>, cap: u32) -> Graded {
        let Some(best) = best else {
            return Graded::Nothing;
        };
        let (cell, d) = (best.target as usize / S::N, best.target as usize % S::N);
        Graded::chain(best.difficulty, best.kind, cap, || {
            let bits = if best.holds {
                logic.cand[cell] & !(1 << d)
            } else {
                1 << d
            };
            logic.eliminate(cell, bits);
        })
    }
}

/// A chaining step: takes SE's next chain of its kind rated at most the cap (in tenths).
pub(super) type ChainStep<S> = fn(&mut Logic<S>, u32) -> Graded;

impl Graded {
    /// The step of a chain of `kind` rated `rating` (SE's value, in floating point): taken
    /// by `apply` when it is at most `cap` tenths.
    fn chain(rating: f64, kind: ChainKind, cap: u32, apply: impl FnOnce()) -> Graded {
        let tenths = (rating * 10.0).round() as u32;
        if tenths > cap {
            return Graded::AboveCap;
        }
        apply();
        Graded::Taken(SeTechnique::Chain { tenths, kind })
    }
}

/// A search for eliminations: calls `found` with each set of eliminations (per cell, the
/// candidates to remove; never empty) until it returns true.
pub(super) type Finder<S> = fn(&Logic<S>, &mut Found<'_, S>);

/// A [`Finder`] that takes one digit at a time, each digit's eliminations resting on that
/// digit's candidates alone; it looks at the digits in its second argument (a mask) alone.
pub(super) type DigitFinder<S> = fn(&Logic<S>, u32, &mut Found<'_, S>);

/// A search among techniques of several ratings: offers the eliminations of the first step
/// SE's list takes among them, if any, and returns its technique.
pub(super) type GradedFinder<S> = fn(&Logic<S>, &mut Found<'_, S>) -> Option<SeTechnique>;

/// A technique's search: across digits; one digit at a time, which a rating path need not
/// repeat on a digit whose candidates have not changed since it found nothing there; one
/// unit at a time (naked and hidden subsets), which it need not repeat on such a unit; or,
/// for techniques of several ratings that SE offers together, a graded one.
#[derive(Clone, Copy)]
pub(super) enum Search<S: Shape> {
    Across(Finder<S>),
    ByDigit(DigitFinder<S>),
    ByUnit(Subsets),
    Graded(GradedFinder<S>),
}

impl<S: Shape> Search<S> {
    /// Runs the search; one by digit looks at the digits in `digits` alone, one by unit at
    /// the units in `units` alone.
    pub(super) fn run(self, logic: &Logic<S>, digits: u32, units: Units, found: &mut Found<'_, S>) {
        match self {
            Search::Across(find) => find(logic, found),
            Search::ByDigit(find) => find(logic, digits, found),
            Search::ByUnit(subsets) => subsets.run(logic, units, found),
            Search::Graded(find) => {
                find(logic, found);
            }
        }
    }
}

/// How many techniques [`eliminating`] lists.
pub(super) const TECHNIQUES: usize = 38;

/// The techniques that eliminate candidates, in SE's order, with their searches: by rating,
/// but for empty rectangles and grouped turbot fish (4.3), which SE's list tries with the
/// other turbot fish, before XY-Wings (4.2), the unique loops (4.6 to 5.6), which it tries
/// with the unique rectangles (the entry that stands for them is their least rating,
/// that of the rectangles of type 3 they come with), and aligned pair exclusion (6.2),
/// which it tries last.
pub(super) fn eliminating<S: Shape>() -> [(SeTechnique, Search<S>); TECHNIQUES] {
    use SeTechnique::*;
    use Search::{Across, ByDigit, ByUnit, Graded};
    [
        (Pointing, ByDigit(|l, d, f| locked(l, false, d, f))),
        (Claiming, ByDigit(|l, d, f| locked(l, true, d, f))),
        (NakedPair, ByUnit(Subsets::Naked(2))),
        (XWing, ByDigit(|l, d, f| fish(l, 2, d, f))),
        (HiddenPair, ByUnit(Subsets::Hidden(2))),
        (NakedTriple, ByUnit(Subsets::Naked(3))),
        (Swordfish, ByDigit(|l, d, f| fish(l, 3, d, f))),
        (HiddenTriple, ByUnit(Subsets::Hidden(3))),
        (
            Skyscraper,
            ByDigit(|l, d, f| turbot(l, Turbot::Skyscraper, d, f)),
        ),
        (
            TwoStringKite,
            ByDigit(|l, d, f| turbot(l, Turbot::Kite, d, f)),
        ),
        (
            TurbotCrane,
            ByDigit(|l, d, f| turbot(l, Turbot::Crane, d, f)),
        ),
        (EmptyRectangle, ByDigit(empty_rectangle)),
        (GroupedTurbot, ByDigit(grouped_turbot)),
        (XyWing, Across(|l, f| wing(l, false, f))),
        (XyzWing, Across(|l, f| wing(l, true, f))),
        (UniqueRectangle, Across(unique_rectangle)),
        (UniqueRectangle46, Graded(unique_loop)),
        (NakedQuad, ByUnit(Subsets::Naked(4))),
        (Jellyfish, ByDigit(|l, d, f| fish(l, 4, d, f))),
        (HiddenQuad, ByUnit(Subsets::Hidden(4))),
        (
            ThreeSkyscrapers,
            ByDigit(|l, d, f| three_links(l, ThreeLinks::Parallel, d, f)),
        ),
        (WxyzWing, Across(|l, f| als_wing(l, 3, 55, f))),
        (
            ThreeStrongLinks,
            ByDigit(|l, d, f| three_links(l, ThreeLinks::Mixed, d, f)),
        ),
        (WxyzWingOfThree, Across(|l, f| als_wing(l, 3, 56, f))),
        (
            ThreeStrongLinksBoxRowColumn,
            ByDigit(|l, d, f| three_links(l, ThreeLinks::BoxRowColumn, d, f)),
        ),
        (BugType1, Across(|l, f| bug(l, Bug::One, f))),
        (ThreeStrongLinksGrouped, ByDigit(grouped_three_links)),
        (BugType2, Across(|l, f| bug(l, Bug::Two, f))),
        (BugType4, Across(|l, f| bug(l, Bug::Four, f))),
        (BugType3Pair, Across(|l, f| bug(l, Bug::Three(2), f))),
        (BugType3Triple, Across(|l, f| bug(l, Bug::Three(3), f))),
        (BugType3Quad, Across(|l, f| bug(l, Bug::Three(4), f))),
        (BugType3Five, Across(|l, f| bug(l, Bug::Three(5), f))),
        (VwxyzWingOfFive, Across(|l, f| als_wing(l, 4, 62, f))),
        (BugType3Six, Across(|l, f| bug(l, Bug::Three(6), f))),
        (VwxyzWing, Across(|l, f| als_wing(l, 4, 63, f))),
        (VwxyzWingOfThree, Across(|l, f| als_wing(l, 4, 64, f))),
        (AlignedPairExclusion, Across(aligned_pair)),
    ]
}

/// True when two cells share a unit.
pub(super) fn sees<S: Shape>(a: usize, b: usize) -> bool {
    match S::peer_masks().get(a) {
        Some(&peers) => peers >> b & 1 != 0,
        None => {
            a != b && {
                let (ua, ub) = (S::units_of(a), S::units_of(b));
                ua.iter().zip(&ub).any(|(x, y)| x == y)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every set of eliminations `find` offers on `logic`, in order.
    pub(super) fn offers<S: Shape>(
        logic: &Logic<S>,
        find: impl Fn(&Logic<S>, &mut Found<'_, S>),
    ) -> Vec<Vec<u32>> {
        let mut offered = Vec::new();
        find(logic, &mut |_, removal, _| {
            offered.push(removal.as_ref().to_vec());
            false
        });
        offered
    }

    /// The first set of eliminations `find` offers on `logic`, as (cell, candidates); empty
    /// when it offers none.
    pub(super) fn first_offer<S: Shape>(
        logic: &Logic<S>,
        find: impl Fn(&Logic<S>, &mut Found<'_, S>),
    ) -> Vec<(usize, u32)> {
        let mut first = Vec::new();
        find(logic, &mut |_, removal, _| {
            first = (0..S::CELLS)
                .filter(|&c| removal[c] != 0)
                .map(|c| (c, removal[c]))
                .collect();
            true
        });
        first
    }
}
