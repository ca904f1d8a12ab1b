//! The bank: a CSV file with one row per puzzle (SPEC "The bank").
//!
//! Columns are looked up by name when reading, so later features can append columns
//! without breaking readers.
//!
//! The parts: the columns and [`Row`] here; `format.rs` formats rows on the workers,
//! `writer.rs` writes a bank, `reader.rs` reads and checks one.

mod format;
mod reader;
mod writer;

use serde::{Deserialize, Serialize};

use crate::attempt::Puzzle;
use crate::config::{Dedup, Generation};
use crate::dedup::Keyer;
use crate::hash::puzzle_id_hex;
use crate::rating::{Level, tenths_text};
use crate::shape::Shape;
use crate::symmetry::Symmetry;
pub use format::{LINES_AT_ONCE, RowFormatter};
pub use reader::{BankReader, Column, Malformed, Next, line_of};
pub use writer::BankWriter;

/// The columns every bank has, in order.
pub const COLUMNS: [&str; 8] = [
    "id", "size", "holes", "clues", "puzzle", "solution", "seed", "index",
];

/// The column a bank of symmetric puzzles adds: the symmetry of the row's clue pattern.
pub const SYMMETRY_COLUMN: &str = "symmetry";

/// The columns a bank made with a difficulty band adds: each puzzle's SE rating and level.
pub const RATING_COLUMNS: [&str; 2] = ["rating", "level"];

/// The column a bank deduplicated by canonical form adds: the stable hash of the puzzle's
/// canonical text ([`crate::dedup`]), the same for every equivalent puzzle.
pub const CANON_COLUMN: &str = "canon_id";

/// The header `generate` writes for `generation` under `dedup`: [`COLUMNS`], then
/// [`SYMMETRY_COLUMN`] when a symmetry was asked for, [`RATING_COLUMNS`] when a difficulty
/// band was, and [`CANON_COLUMN`] under canonical dedup.
pub fn header(generation: &Generation, dedup: Dedup) -> impl Iterator<Item = &'static str> {
    let symmetric = generation.symmetry != Symmetry::None;
    let rated = generation.difficulty.is_some();
    COLUMNS
        .into_iter()
        .chain(symmetric.then_some(SYMMETRY_COLUMN))
        .chain(RATING_COLUMNS.into_iter().filter(move |_| rated))
        .chain((dedup == Dedup::Canonical).then_some(CANON_COLUMN))
}

/// One row of a bank.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    /// Content hash of `puzzle` ([`crate::hash::puzzle_id`]), 16 hex digits.
    pub id: String,
    /// Grid side N.
    pub size: usize,
    /// Empty cells in `puzzle`.
    pub holes: usize,
    /// Filled cells in `puzzle`.
    pub clues: usize,
    /// The puzzle's text form.
    pub puzzle: String,
    /// The text form of its only solution.
    pub solution: String,
    /// The batch's master seed.
    pub seed: u64,
    /// The attempt whose stream produced this row.
    pub index: u64,
    /// The symmetry of the clue pattern, in banks that asked for one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symmetry: Option<Symmetry>,
    /// The SE rating, `x.y`, in banks made with a difficulty band.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating: Option<String>,
    /// The level of that rating.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<String>,
    /// The hash of the canonical form, in banks deduplicated by it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub canon_id: Option<String>,
}

impl Row {
    /// The row for `puzzle`, produced by attempt `index` of the batch seeded `seed`.
    pub fn new<S: Shape>(puzzle: &Puzzle<S>, seed: u64, index: u64) -> Row {
        let text = puzzle.puzzle.to_string();
        let holes = puzzle.puzzle.holes();
        Row {
            id: puzzle_id_hex(&text),
            size: S::N,
            holes,
            clues: S::CELLS - holes,
            puzzle: text,
            solution: puzzle.solution.to_string(),
            seed,
            index,
            symmetry: (puzzle.symmetry != Symmetry::None).then_some(puzzle.symmetry),
            rating: puzzle.rating.map(tenths_text),
            level: puzzle.rating.map(|t| Level::of_tenths(t).name().to_owned()),
            canon_id: None,
        }
    }

    /// The row with the `canon_id` column that canonical dedup gives it.
    pub fn keyed<S: Shape>(mut self, puzzle: &Puzzle<S>, dedup: Dedup) -> Row {
        self.canon_id = Keyer::new(dedup)
            .key(&puzzle.puzzle)
            .canon_id
            .map(|id| String::from_utf8_lossy(&id).into_owned());
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attempt::Generator;
    use crate::config::Holes;
    use crate::shape::{Nine, Size};
    use crate::stats::Work;

    fn nine(holes: usize) -> Generation {
        Generation::new(Size::Nine, Some(Holes::Exact(holes))).unwrap()
    }

    #[test]
    fn writes_header_and_rows() {
        let puzzle = Generator::<Nine>::new(Holes::Exact(40))
            .attempt(1, 0, &mut Work::default())
            .unwrap();
        let row = Row::new(&puzzle, 1, 0);
        assert_eq!((row.holes, row.clues, row.size), (40, 41, 9));
        let mut writer = BankWriter::new(Vec::new(), &nine(40), Dedup::Exact).unwrap();
        writer.write(&row).unwrap();
        let text = String::from_utf8(writer.finish().unwrap()).unwrap();
        let mut lines = text.lines();
        assert_eq!(
            lines.next(),
            Some("id,size,holes,clues,puzzle,solution,seed,index")
        );
        let expected = format!("{},9,40,41,{},{},1,0", row.id, row.puzzle, row.solution);
        assert_eq!(lines.next(), Some(expected.as_str()));
        assert!(text.ends_with('\n') && !text.contains('\r'));
        // The workers' formatted line is the same bytes.
        let mut fast = BankWriter::new(Vec::new(), &nine(40), Dedup::Exact).unwrap();
        let mut line = b"before".to_vec();
        let key = RowFormatter::new(Dedup::Exact).append_line(&puzzle, 1, 0, &mut line);
        assert_eq!(key, crate::hash::dedup_key(&row.puzzle));
        assert_eq!(line.drain(..6).as_slice(), b"before");
        fast.write_lines(&line).unwrap();
        assert_eq!(String::from_utf8(fast.finish().unwrap()).unwrap(), text);
    }

    #[test]
    fn symmetric_banks_have_a_symmetry_column() {
        let generation = nine(40).with_symmetry(Symmetry::Rot90).unwrap();
        let puzzle = Generator::<Nine>::for_generation(generation)
            .attempt(1, 0, &mut Work::default())
            .unwrap();
        let row = Row::new(&puzzle, 1, 0);
        assert_eq!(row.symmetry, Some(Symmetry::Rot90));
        let mut slow = BankWriter::new(Vec::new(), &generation, Dedup::Exact).unwrap();
        slow.write(&row).unwrap();
        let text = String::from_utf8(slow.finish().unwrap()).unwrap();
        assert!(text.starts_with("id,size,holes,clues,puzzle,solution,seed,index,symmetry\n"));
        assert!(text.ends_with(",1,0,rot90\n"), "{text}");
        let mut fast = BankWriter::new(Vec::new(), &generation, Dedup::Exact).unwrap();
        let mut line = Vec::new();
        RowFormatter::new(Dedup::Exact).append_line(&puzzle, 1, 0, &mut line);
        fast.write_lines(&line).unwrap();
        assert_eq!(String::from_utf8(fast.finish().unwrap()).unwrap(), text);
        let reader = BankReader::new("b", text.as_bytes()).unwrap();
        assert!(
            reader.has_header_of(&generation, Dedup::Exact)
                && !reader.has_header_of(&nine(40), Dedup::Exact)
        );
    }

    #[test]
    fn canonical_banks_have_a_canon_id_column() {
        let puzzle = Generator::<Nine>::new(Holes::Exact(40))
            .attempt(1, 0, &mut Work::default())
            .unwrap();
        let row = Row::new(&puzzle, 1, 0).keyed(&puzzle, Dedup::Canonical);
        let canon = crate::canon::canonical(&puzzle.puzzle).unwrap().to_string();
        assert_eq!(row.canon_id, Some(puzzle_id_hex(&canon)));
        let mut slow = BankWriter::new(Vec::new(), &nine(40), Dedup::Canonical).unwrap();
        slow.write(&row).unwrap();
        let text = String::from_utf8(slow.finish().unwrap()).unwrap();
        assert!(text.starts_with("id,size,holes,clues,puzzle,solution,seed,index,canon_id\n"));
        let mut fast = BankWriter::new(Vec::new(), &nine(40), Dedup::Canonical).unwrap();
        let mut line = Vec::new();
        let key = RowFormatter::new(Dedup::Canonical).append_line(&puzzle, 1, 0, &mut line);
        assert_eq!(key, crate::hash::dedup_key(&canon));
        // Lines formatted together are the lines formatted alone.
        let mut together = Vec::new();
        let mut formatter = RowFormatter::new(Dedup::Canonical);
        let full = [0, 1, 2, 3].map(|index| formatter.hold(&puzzle, index));
        assert_eq!(full, [false, false, false, true]);
        let keys = formatter.flush::<Nine>(1, &mut together).to_vec();
        assert!(formatter.flush::<Nine>(1, &mut together).is_empty());
        let mut alone = Vec::new();
        for (index, (key, end)) in keys.into_iter().enumerate() {
            let mut formatter = RowFormatter::new(Dedup::Canonical);
            let want = formatter.append_line(&puzzle, 1, index as u64, &mut alone);
            assert_eq!((key, end), (want, alone.len()));
        }
        assert_eq!(together, alone);
        fast.write_lines(&line).unwrap();
        assert_eq!(String::from_utf8(fast.finish().unwrap()).unwrap(), text);
        let mut reader = BankReader::new("b", text.as_bytes()).unwrap();
        assert!(reader.has_header_of(&nine(40), Dedup::Canonical));
        let mut record = csv::StringRecord::new();
        assert!(matches!(reader.read(&mut record).unwrap(), Next::Row));
        assert_eq!(reader.canon_id(&record), row.canon_id.as_deref());
        // A record written back is the same line.
        let mut copy = BankWriter::continuing(Vec::new());
        copy.write_record(&record).unwrap();
        assert_eq!(
            String::from_utf8(copy.finish().unwrap()).unwrap(),
            text.lines().nth(1).unwrap().to_owned() + "\n"
        );
    }
}
