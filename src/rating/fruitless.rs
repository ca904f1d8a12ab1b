//! What the searches of one rating path found nothing on, so that its later steps do not
//! look there again: the digits of each search by digit ([`Search::ByDigit`]), and the units
//! of each search for naked or hidden subsets ([`Search::ByUnit`], and the closure's direct
//! hidden pairs and triples, which share the hidden subsets' units). Along a path candidates
//! only shrink (a placement takes its digit from its cell too), so a digit's candidates are
//! unchanged exactly while their count is, and a unit's exactly while the sum of its cells'
//! candidate masks is (a cell that loses a candidate has a smaller mask).
//!
//! A search by digit rests on that digit's candidates alone, and a subset of a unit on that
//! unit's cells alone: where they are unchanged, the search would find nothing again.

use super::techniques::{Search, Subsets, TECHNIQUES, Units, all_units, eliminating};
use super::templates;
use crate::rating::logic::Logic;
use crate::shape::Shape;

/// The most units of a size (25×25).
const MOST_UNITS: usize = 75;

/// What one path's searches found nothing on (see the module docs). With templates, a digit
/// whose every candidate lies in one of its templates counts as found nothing on by every
/// search by digit, none of which can remove such a candidate (see [`templates`]).
pub(super) struct Fruitless {
    /// Each digit's candidates, counted at the last [`Fruitless::update`].
    counts: [u16; 32],
    /// Per technique of [`eliminating`], the digits it found nothing on.
    none: [u32; TECHNIQUES],
    /// Whether digits are checked against their templates.
    templates: bool,
    /// The digits checked against their templates since their candidates last changed.
    checked: u32,
    /// Each unit's sum of candidate masks at the last [`Fruitless::sum_units`].
    unit_sums: [u32; MOST_UNITS],
    /// Whether `unit_sums` is of the grid as it is: cleared by [`Fruitless::update`].
    units_summed: bool,
    /// Per subset search ([`Subsets::slot`]), each unit's sum plus one when the search last
    /// found nothing there; 0 when it has not, or found something. (A 25×25 unit's sum stays
    /// below 25 · 2²⁵.)
    barren: [[u32; MOST_UNITS]; Subsets::SLOTS],
}

/// Where a search of [`eliminating`] is to look: the digits of a search by digit, the units
/// of a search by unit (all of them for the others).
#[derive(Clone, Copy, Debug)]
pub(super) struct Scope {
    pub digits: u32,
    pub units: Units,
}

impl Scope {
    /// Every digit and unit of size `S`.
    pub(super) fn all<S: Shape>() -> Self {
        Scope {
            digits: S::ALL,
            units: all_units::<S>(),
        }
    }

    /// True when the scope holds nothing to look at.
    pub(super) fn is_empty(&self) -> bool {
        self.digits == 0 || self.units == 0
    }
}

impl Fruitless {
    /// Nothing known yet: every search looks at every digit and unit.
    pub(super) fn new() -> Self {
        Fruitless {
            counts: [u16::MAX; 32],
            none: [0; TECHNIQUES],
            templates: false,
            checked: 0,
            unit_sums: [0; MOST_UNITS],
            units_summed: false,
            barren: [[0; MOST_UNITS]; Subsets::SLOTS],
        }
    }

    /// As [`Fruitless::new`], checking digits against their templates when asked
    /// ([`Fruitless::check_templates`]).
    pub(super) fn with_templates() -> Self {
        Fruitless {
            templates: true,
            ..Fruitless::new()
        }
    }

    /// Forgets, for every technique, the digits whose candidates changed since the last
    /// update; the units are summed again when next needed.
    pub(super) fn update<S: Shape>(&mut self, logic: &Logic<S>) {
        // Every digit of every cell, without a branch on how many a cell holds.
        let mut counts = [0u16; 32];
        for &cand in logic.cand.as_ref() {
            for (d, count) in counts.iter_mut().enumerate().take(S::N) {
                *count += (cand >> d & 1) as u16;
            }
        }
        debug_assert!(
            counts
                .iter()
                .zip(&self.counts)
                .all(|(now, then)| now <= then)
        );
        let changed = (0..S::N)
            .filter(|&d| counts[d] != self.counts[d])
            .fold(0u32, |m, d| m | 1 << d);
        self.counts = counts;
        self.checked &= !changed;
        for none in &mut self.none {
            *none &= !changed;
        }
        self.units_summed = false;
    }

    /// With templates, checks the digits not checked since they changed, and marks those
    /// whose every candidate lies in a template as found nothing on by every search by
    /// digit.
    pub(super) fn check_templates<S: Shape>(&mut self, logic: &Logic<S>) {
        let digits = S::ALL & !self.checked;
        if !self.templates || digits == 0 {
            return;
        }
        self.checked |= digits;
        let covered = templates::covered_digits(logic, digits);
        for (none, (_, search)) in self.none.iter_mut().zip(eliminating::<S>()) {
            if let Search::ByDigit(_) = search {
                *none |= covered;
            }
        }
    }

    /// Where technique `k` of [`eliminating`] has to look: for a search by digit, the
    /// digits but those it found nothing on; for one by unit, the units whose candidates
    /// changed since it found nothing there; for any other, everywhere.
    pub(super) fn scope<S: Shape>(
        &mut self,
        logic: &Logic<S>,
        k: usize,
        search: Search<S>,
    ) -> Scope {
        match search {
            Search::ByDigit(_) => Scope {
                digits: S::ALL & !self.none[k],
                units: all_units::<S>(),
            },
            Search::ByUnit(subsets) => {
                if !self.units_summed {
                    self.sum_units(logic);
                }
                Scope {
                    digits: S::ALL,
                    units: self.changed_units::<S>(subsets),
                }
            }
            Search::Across(_) | Search::Graded(_) => Scope::all::<S>(),
        }
    }

    /// Notes that technique `k` of [`eliminating`] found nothing in `scope`.
    pub(super) fn found_nothing<S: Shape>(&mut self, k: usize, search: Search<S>, scope: Scope) {
        match search {
            Search::ByUnit(subsets) => self.searched(subsets, scope.units, 0),
            _ => self.none[k] = S::ALL,
        }
    }

    /// The units whose candidates changed since `subsets` last found nothing there, on the
    /// grid as it is (its units summed afresh): for a search outside [`eliminating`] (the
    /// closure's direct hidden subsets), to be followed by [`Fruitless::searched`].
    pub(super) fn units_to_search<S: Shape>(
        &mut self,
        logic: &Logic<S>,
        subsets: Subsets,
    ) -> Units {
        self.sum_units(logic);
        self.changed_units::<S>(subsets)
    }

    /// Notes that `subsets` looked at `looked` on the grid last summed, and offered
    /// eliminations in `offered` alone.
    pub(super) fn searched(&mut self, subsets: Subsets, looked: Units, offered: Units) {
        let barren = &mut self.barren[subsets.slot()];
        let mut rest = looked;
        while rest != 0 {
            let unit = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            barren[unit] = if offered >> unit & 1 != 0 {
                0
            } else {
                self.unit_sums[unit] + 1
            };
        }
    }

    /// Sums each unit's candidate masks: rows as runs of cells, columns a row at a time.
    fn sum_units<S: Shape>(&mut self, logic: &Logic<S>) {
        let (n, cand) = (S::N, logic.cand.as_ref());
        let (rows, rest) = self.unit_sums.split_at_mut(n);
        let (columns, boxes) = rest.split_at_mut(n);
        columns[..n].fill(0);
        for (sum, row) in rows.iter_mut().zip(cand.chunks_exact(n)) {
            *sum = row.iter().sum();
            for (column, &c) in columns.iter_mut().zip(row) {
                *column += c;
            }
        }
        for (b, sum) in boxes.iter_mut().enumerate().take(n) {
            *sum = S::unit(2 * n + b)
                .iter()
                .map(|&cell| cand[cell as usize])
                .sum();
        }
        self.units_summed = true;
    }

    /// The units whose sum differs from the one `subsets` last found nothing at.
    fn changed_units<S: Shape>(&self, subsets: Subsets) -> Units {
        let barren = &self.barren[subsets.slot()];
        (0..S::UNITS).fold(0, |units, unit| {
            units | Units::from(barren[unit] != self.unit_sums[unit] + 1) << unit
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::shape::Nine;

    /// A unit a subset search found nothing in is left out until one of its cells loses a
    /// candidate; then that cell's three units come back, and no other. A unit where the
    /// search offered something, and every unit of another search, are looked at throughout.
    #[test]
    fn units_come_back_when_their_candidates_change() {
        let puzzle = Grid::<Nine>::parse(
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        )
        .unwrap();
        let mut logic = Logic::new(&puzzle).unwrap();
        let mut fruitless = Fruitless::new();
        let (pairs, all) = (Subsets::Naked(2), all_units::<Nine>());
        assert_eq!(fruitless.units_to_search(&logic, pairs), all);
        fruitless.searched(pairs, all, 1 << 4);
        assert_eq!(fruitless.units_to_search(&logic, pairs), 1 << 4);
        let cell = (0..81).find(|&c| logic.cand[c].count_ones() > 1).unwrap();
        logic.eliminate(cell, logic.cand[cell] & logic.cand[cell].wrapping_neg());
        let units = Nine::units_of(cell)
            .iter()
            .fold(1 << 4, |mask: Units, &unit| mask | 1 << unit);
        assert_eq!(fruitless.units_to_search(&logic, pairs), units);
        assert_eq!(fruitless.units_to_search(&logic, Subsets::Hidden(2)), all);
    }
}
