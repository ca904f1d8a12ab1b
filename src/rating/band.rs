//! Difficulty bands: the Sudoku Exchange levels, the bands of ratings that `--difficulty`
//! and `--min-rating`/`--max-rating` keep, and where a puzzle falls against a band, found at
//! no more cost than the band needs: singles first on 9×9 (`singles.rs`), then the
//! placements alone for a band that ends at 2.5 or below (`closure.rs`), else the path up
//! to the band's top.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::{
    Path, Rating, SeTechnique, UNFINISHED_TENTHS, closure, rate_up_to, singles, tenths_text,
};
use crate::error::Unsolvable;
use crate::grid::Grid;
use crate::shape::Shape;

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
        self.holds(rating.reported_tenths())
    }

    /// True when a rating of `tenths` falls in the band.
    pub fn holds(&self, tenths: u32) -> bool {
        (self.min_tenths..=self.max_tenths).contains(&tenths)
    }

    /// True when the band ends at 2.5 or below: the techniques that only place digits rate
    /// every puzzle in it ([`placement_rating`](super::placement_rating)), and tell every
    /// other puzzle apart as above it, where the other bands need the step-by-step search.
    pub fn placements_only(&self) -> bool {
        self.max_tenths <= SeTechnique::DirectHiddenTriple.tenths()
    }

    /// True when the band reaches past the placements but stops below 5.0, and a puzzle
    /// below it is one the placements finish (the hard band): the placements alone tell
    /// such a puzzle apart, and no search goes past the band's top.
    pub fn placements_tell_below(&self) -> bool {
        let placements = SeTechnique::DirectHiddenTriple.tenths();
        !self.placements_only()
            && self.min_tenths <= placements
            && self.max_tenths < UNFINISHED_TENTHS
    }
}

impl fmt::Display for Band {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let min = tenths_text(self.min_tenths);
        match self.max_tenths {
            u32::MAX => write!(f, "rating {min} and up"),
            max => write!(f, "rating {min} to {}", tenths_text(max)),
        }
    }
}

/// `puzzle`'s rating in tenths as [`rate`](super::rate) reports it
/// ([`Rating::reported_tenths`]) when it falls in `band`; `None` when it does not, or when
/// the puzzle has no solution. It spends no more than the band needs: a band that ends at
/// 2.5 or below takes only what [`placement_rating`](super::placement_rating) gives, and for
/// a harder band the rater looks for no step rated above it.
///
/// It takes SE's path in bulk: up to XYZ-Wing (4.4), all the eliminations the first
/// technique in SE's order finds at once; one at a time above. That gives SE's rating,
/// though not its steps. Up to XYZ-Wing, the techniques up to any place in SE's order reach
/// one grid whatever their order, so SE's path, which takes them while any applies, reaches
/// that grid too, and the first technique either path needs at a grid where none before it
/// applies is the same. Past that grid both take one step at a time, from the same grid to
/// the next such grid. (SE's order is its rating order but for the grouped turbot fish,
/// tried before XY-Wings; the tests hold these ratings equal to [`rate`](super::rate)'s on
/// the shared sets.)
/// Placements rated below the band are not told apart.
pub fn rate_in<S: Shape>(puzzle: &Grid<S>, band: Band) -> Option<u32> {
    match fit(puzzle, band) {
        Fit::In(tenths) => Some(tenths),
        Fit::Below | Fit::Above | Fit::Unsolvable => None,
    }
}

/// Where a puzzle falls against a band ([`fit`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fit {
    /// Rated below the band.
    Below,
    /// In the band, rated this many tenths.
    In(u32),
    /// Rated above the band (as is a puzzle with no solution that no step contradicts).
    Above,
    /// A step found that the puzzle has no solution.
    Unsolvable,
}

/// [`rate_in`], telling which side of the band a puzzle outside it falls on, at the same cost.
/// On 9×9, singles alone tell most puzzles apart first (`singles.rs`), and the path takes
/// the others from what the singles placed.
pub fn fit<S: Shape>(puzzle: &Grid<S>, band: Band) -> Fit {
    singles::fit(puzzle, band).unwrap_or_else(|placed| fit_by_path(&placed, band))
}

/// [`fit`] by the rater's path alone.
pub(super) fn fit_by_path<S: Shape>(puzzle: &Grid<S>, band: Band) -> Fit {
    let rating = if band.placements_only() {
        match closure::placement_fill(puzzle, band.max_tenths, band.min_tenths) {
            Ok(Some(rating)) => rating,
            // The placements up to the band's top leave cells open.
            Ok(None) => return Fit::Above,
            Err(Unsolvable) => return Fit::Unsolvable,
        }
    } else {
        // A band that ends below 5.0 looks for no step above it: a puzzle that needs one is
        // out of the band, and so is one that no technique finishes (rated 5.0 or more). A
        // band that reaches 5.0 needs the full search, to tell those apart.
        let cap = if band.max_tenths < UNFINISHED_TENTHS {
            band.max_tenths
        } else {
            u32::MAX
        };
        match rate_up_to(puzzle, cap, band.min_tenths, Path::Bulk) {
            Ok(rating) => rating,
            Err(Unsolvable) => return Fit::Unsolvable,
        }
    };
    match rating.reported_tenths() {
        tenths if tenths < band.min_tenths => Fit::Below,
        tenths if tenths > band.max_tenths => Fit::Above,
        tenths => Fit::In(tenths),
    }
}
