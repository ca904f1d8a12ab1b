//! The grid value type and its text form (SPEC "Text form of a grid").
//!
//! Row-major, one character per cell: `1`–`9`, then `A` = 10 … `P` = 25, `.` for an empty
//! cell. Readers also take `0` for empty on grids up to 9×9, lowercase letters, and
//! surrounding whitespace; anything else is an error that names the column and character.

use std::fmt;

use crate::error::GridError;
use crate::shape::{Shape, Size};

/// A digit `1..=N`, or 0 for an empty cell.
pub type Digit = u8;

/// How many of `bytes` are `byte`. Counted in byte lanes, 255 bytes at a time, so that the
/// compiler compares and sums 16 bytes a step: counted into a `usize`, the loop took four
/// bytes a pass, and counting a 9×9 row's holes cost 3% of a complete grid's time in the
/// pipeline.
pub fn count_of(bytes: &[u8], byte: u8) -> usize {
    bytes
        .chunks(255)
        .map(|chunk| {
            let count = chunk.iter().fold(0u8, |n, &b| n + u8::from(b == byte));
            usize::from(count)
        })
        .sum()
}

/// A grid of size `S`: a puzzle (with holes) or a solution (complete).
pub struct Grid<S: Shape> {
    cells: S::Cells<Digit>,
}

impl<S: Shape> Clone for Grid<S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S: Shape> Copy for Grid<S> {}

impl<S: Shape> PartialEq for Grid<S> {
    fn eq(&self, other: &Self) -> bool {
        self.digits() == other.digits()
    }
}

impl<S: Shape> Eq for Grid<S> {}

impl<S: Shape> std::hash::Hash for Grid<S> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.digits().hash(state);
    }
}

impl<S: Shape> Grid<S> {
    /// The grid with every cell empty.
    pub fn empty() -> Self {
        Grid { cells: S::cells(0) }
    }

    /// A grid from its row-major digits (0 = empty). `None` when a digit exceeds `N` or the
    /// length is not `N²`.
    pub fn from_digits(digits: &[Digit]) -> Option<Self> {
        if digits.len() != S::CELLS || digits.iter().any(|&d| d as usize > S::N) {
            return None;
        }
        let mut grid = Self::empty();
        grid.cells.as_mut().copy_from_slice(digits);
        Some(grid)
    }

    /// The digit in `cell` (0 when empty).
    #[inline(always)]
    pub fn get(&self, cell: usize) -> Digit {
        self.cells[cell]
    }

    /// Puts `digit` (0 to empty the cell, else 1 to `N`) in `cell`. Digits past `N` are
    /// caught in debug builds only: this is on every hot path.
    #[inline(always)]
    pub fn set(&mut self, cell: usize, digit: Digit) {
        debug_assert!(
            usize::from(digit) <= S::N,
            "digit {digit} on a {0}×{0} grid",
            S::N
        );
        self.cells[cell] = digit;
    }

    /// All cells, row-major.
    pub fn digits(&self) -> &[Digit] {
        self.cells.as_ref()
    }

    /// Empty cells.
    pub fn holes(&self) -> usize {
        count_of(self.digits(), 0)
    }

    /// Filled cells.
    pub fn clues(&self) -> usize {
        S::CELLS - self.holes()
    }

    /// True when no unit holds the same digit twice (holes allowed).
    pub fn is_consistent(&self) -> bool {
        self.conflict().is_none()
    }

    /// The first unit, in the order rows, columns, boxes, that holds a digit twice.
    pub fn conflict(&self) -> Option<Conflict> {
        (0..S::UNITS).find_map(|unit| {
            let mut first = [None; 26];
            S::unit(unit).iter().find_map(|&cell| {
                let d = self.cells[cell as usize];
                if d == 0 {
                    return None;
                }
                first[d as usize]
                    .replace(cell as usize)
                    .map(|earlier| Conflict {
                        digit: d,
                        unit: ["row", "column", "box"][unit / S::N],
                        unit_number: unit % S::N + 1,
                        cells: [earlier, cell as usize].map(|c| (c / S::N + 1, c % S::N + 1)),
                    })
            })
        })
    }

    /// True when every cell is filled and every unit holds each digit once.
    pub fn is_solution(&self) -> bool {
        self.holes() == 0 && self.is_consistent()
    }

    /// True when every clue of `self` has the same digit in `other`.
    pub fn agrees_with(&self, other: &Self) -> bool {
        self.digits()
            .iter()
            .zip(other.digits())
            .all(|(&a, &b)| a == 0 || a == b)
    }

    /// Parses the text form (see the module docs).
    pub fn parse(text: &str) -> Result<Self, GridError> {
        let (offset, body) = trim_with_offset(text);
        let found = body.chars().count();
        if found != S::CELLS {
            return Err(GridError::Length {
                expected: S::CELLS,
                found,
            });
        }
        let mut grid = Self::empty();
        for (cell, ch) in body.chars().enumerate() {
            let digit = digit_from_char(ch, S::N).ok_or(GridError::Character {
                column: offset + cell + 1,
                ch,
            })?;
            grid.cells[cell] = digit;
        }
        Ok(grid)
    }

    /// Writes the text form into `out` (cleared first); reuses its allocation.
    pub fn write_text(&self, out: &mut String) {
        out.clear();
        out.extend(self.digits().iter().map(|&d| char_from_digit(d)));
    }

    /// Writes the text form as ASCII bytes into `out` (cleared first); reuses its allocation.
    pub fn write_bytes(&self, out: &mut Vec<u8>) {
        out.clear();
        out.resize(S::CELLS, 0);
        // As arithmetic rather than a table lookup, so the loop runs many cells at a time:
        // `.` for 0, then `1`–`9`, then `A`–`P` (`'A'` is `'0' + 17`).
        for (byte, &d) in out.iter_mut().zip(self.digits()) {
            let text = b'0' + d + if d > 9 { 7 } else { 0 };
            *byte = if d == 0 { b'.' } else { text };
        }
    }
}

impl<S: Shape> fmt::Display for Grid<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = String::with_capacity(S::CELLS);
        self.write_text(&mut text);
        f.write_str(&text)
    }
}

impl<S: Shape> fmt::Debug for Grid<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({self})")
    }
}

/// A digit given twice in one unit: clues that no solution can satisfy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conflict {
    /// The digit.
    pub digit: Digit,
    /// `row`, `column` or `box`.
    pub unit: &'static str,
    /// Which one, from 1.
    pub unit_number: usize,
    /// The two cells, as (row, column) from 1.
    pub cells: [(usize, usize); 2],
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [(r1, c1), (r2, c2)] = self.cells;
        write!(
            f,
            "{} twice in {} {} (r{r1}c{c1} and r{r2}c{c2})",
            char_from_digit(self.digit),
            self.unit,
            self.unit_number
        )
    }
}

/// The character for `digit` in the text form (`.` for 0).
pub fn char_from_digit(digit: Digit) -> char {
    match digit {
        0 => '.',
        1..=9 => (b'0' + digit) as char,
        _ => (b'A' + digit - 10) as char,
    }
}

/// The digit a text-form character stands for on an `n`×`n` grid (0 for empty), or `None`.
pub fn digit_from_char(ch: char, n: usize) -> Option<Digit> {
    let digit = match ch {
        '.' => return Some(0),
        '0' if n <= 9 => return Some(0),
        '1'..='9' => ch as u32 - '0' as u32,
        'A'..='Z' => ch as u32 - 'A' as u32 + 10,
        'a'..='z' => ch as u32 - 'a' as u32 + 10,
        _ => return None,
    };
    (digit as usize <= n).then_some(digit as Digit)
}

/// The size of a grid given in text form, from its length once trimmed.
pub fn text_size(text: &str) -> Result<Size, GridError> {
    let found = trim_with_offset(text).1.chars().count();
    Size::from_cells(found).ok_or(GridError::UnknownLength { found })
}

/// `text` without surrounding whitespace, and how many characters were cut from its start.
fn trim_with_offset(text: &str) -> (usize, &str) {
    let start = text.trim_start();
    let offset = text[..text.len() - start.len()].chars().count();
    (offset, start.trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{Four, Nine, Sixteen, TwentyFive};

    const SOLVED_9: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    #[test]
    fn counts_past_a_byte_lane() {
        // 25×25 lengths and beyond, with more than 255 of the byte counted.
        for len in [0, 1, 81, 254, 255, 256, 625, 1000] {
            let bytes: Vec<u8> = (0..len).map(|i| (i % 3 == 0) as u8).collect();
            let expected = bytes.iter().filter(|&&b| b == 1).count();
            assert_eq!(count_of(&bytes, 1), expected, "{len}");
            assert_eq!(count_of(&bytes, 0), len - expected, "{len}");
        }
        assert_eq!(count_of(&[7; 625], 7), 625);
    }

    #[test]
    fn text_round_trips() {
        let grid = Grid::<Nine>::parse(SOLVED_9).unwrap();
        assert_eq!(grid.to_string(), SOLVED_9);
        assert!(grid.is_solution());
        let puzzle = "1.3.".repeat(4);
        assert_eq!(Grid::<Four>::parse(&puzzle).unwrap().to_string(), puzzle);
    }

    #[test]
    fn bytes_are_the_text() {
        // Every character of 25×25 text: empty, digits and letters.
        let mut grid = Grid::<TwentyFive>::empty();
        for cell in 0..625 {
            grid.set(cell, (cell % 26) as Digit);
        }
        let mut bytes = b"left over".to_vec();
        grid.write_bytes(&mut bytes);
        assert_eq!(bytes, grid.to_string().as_bytes());
        assert!(grid.to_string().starts_with(".123456789ABCDEFGHIJKLMNOP."));
    }

    #[test]
    fn readers_accept_zero_lowercase_and_whitespace() {
        let text = format!("  {}\t\n", "0".repeat(81));
        let grid = Grid::<Nine>::parse(&text).unwrap();
        assert_eq!(grid.holes(), 81);
        let mut letters = "g".to_owned();
        letters.push_str(&".".repeat(255));
        assert_eq!(Grid::<Sixteen>::parse(&letters).unwrap().get(0), 16);
        assert_eq!(char_from_digit(25), 'P');
        assert_eq!(digit_from_char('p', 25), Some(25));
    }

    #[test]
    fn errors_name_column_and_character() {
        let mut text = ".".repeat(81);
        text.replace_range(4..5, "x");
        let err = Grid::<Nine>::parse(&format!(" {text}")).unwrap_err();
        assert_eq!(err, GridError::Character { column: 6, ch: 'x' });
        // `0` means empty only up to 9×9, and digits above N are errors.
        assert!(Grid::<Sixteen>::parse(&"0".repeat(256)).is_err());
        assert!(Grid::<Four>::parse(&"5".repeat(16)).is_err());
        assert!(matches!(
            Grid::<Nine>::parse("123"),
            Err(GridError::Length {
                expected: 81,
                found: 3
            })
        ));
        assert!(matches!(
            text_size("12345"),
            Err(GridError::UnknownLength { found: 5 })
        ));
        assert_eq!(text_size(&".".repeat(625)).unwrap(), Size::TwentyFive);
        assert!(Grid::<TwentyFive>::parse(&".".repeat(625)).is_ok());
    }

    #[test]
    fn consistency_and_agreement() {
        let solved = Grid::<Nine>::parse(SOLVED_9).unwrap();
        let mut puzzle = solved;
        puzzle.set(0, 0);
        assert!(puzzle.agrees_with(&solved) && puzzle.is_consistent() && !puzzle.is_solution());
        puzzle.set(0, 3); // the row already has a 3
        assert!(!puzzle.is_consistent());
        assert_eq!(
            puzzle.conflict().unwrap().to_string(),
            "3 twice in row 1 (r1c1 and r1c2)"
        );
        // Columns and boxes are named too.
        let mut column = Grid::<Nine>::empty();
        column.set(4, 7);
        column.set(76, 7);
        assert_eq!(
            column.conflict().unwrap().to_string(),
            "7 twice in column 5 (r1c5 and r9c5)"
        );
        let mut boxed = Grid::<Sixteen>::empty();
        boxed.set(0, 16);
        boxed.set(3 * 16 + 3, 16);
        assert_eq!(
            boxed.conflict().unwrap().to_string(),
            "G twice in box 1 (r1c1 and r4c4)"
        );
        assert!(!puzzle.agrees_with(&solved));
    }
}
