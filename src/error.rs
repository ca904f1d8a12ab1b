//! Library errors, worded for the person who typed the command.

use thiserror::Error;

/// A grid's text form could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GridError {
    /// A character that is not a digit of this size, `.`, or (up to 9×9) `0`.
    #[error("column {column}: unexpected character {ch:?}")]
    Character {
        /// 1-based character position in the line.
        column: usize,
        /// The offending character.
        ch: char,
    },
    /// The text has the wrong number of cells for the expected size.
    #[error("expected {expected} cells, found {found}")]
    Length {
        /// `N²` for the expected size.
        expected: usize,
        /// Characters found, whitespace trimmed.
        found: usize,
    },
    /// The length matches no supported size.
    #[error("{found} cells is not a grid size (expected 16, 81, 256 or 625)")]
    UnknownLength {
        /// Characters found, whitespace trimmed.
        found: usize,
    },
}

/// A search ran into a contradiction: the hot path's zero-sized dead end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unsolvable;
