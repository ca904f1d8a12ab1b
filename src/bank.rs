//! The bank: a CSV file with one row per puzzle (SPEC "The bank").
//!
//! Columns are looked up by name when reading, so later features can append columns
//! without breaking readers.

use std::io::{self, Write};

use serde::{Deserialize, Serialize};

use crate::attempt::Puzzle;
use crate::hash::puzzle_id_hex;
use crate::shape::Shape;

/// The columns every bank has, in order.
pub const COLUMNS: [&str; 8] = [
    "id", "size", "holes", "clues", "puzzle", "solution", "seed", "index",
];

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
        }
    }
}

/// Writes a bank: the header first, then rows.
#[derive(Debug)]
pub struct BankWriter<W: Write> {
    csv: csv::Writer<W>,
}

impl<W: Write> BankWriter<W> {
    /// A writer that has written the header row to `out`.
    pub fn new(out: W) -> io::Result<Self> {
        let mut csv = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(out);
        csv.write_record(COLUMNS).map_err(io_error)?;
        Ok(BankWriter { csv })
    }

    /// Appends one row.
    pub fn write(&mut self, row: &Row) -> io::Result<()> {
        self.csv.serialize(row).map_err(io_error)
    }

    /// Flushes everything written and hands back the output. Always call it: dropping the
    /// writer would swallow a failed flush.
    pub fn finish(self) -> io::Result<W> {
        self.csv.into_inner().map_err(|e| e.into_error())
    }
}

/// The I/O error inside a CSV error (writing only fails on I/O).
fn io_error(err: csv::Error) -> io::Error {
    match err.into_kind() {
        csv::ErrorKind::Io(err) => err,
        other => io::Error::other(format!("{other:?}")),
    }
}

/// Where each named column sits in a CSV header.
#[derive(Debug, Clone)]
pub struct Columns {
    header: Vec<String>,
}

impl Columns {
    /// The header's columns.
    pub fn new(header: &csv::StringRecord) -> Self {
        Columns {
            header: header.iter().map(str::to_owned).collect(),
        }
    }

    /// The position of column `name`.
    pub fn find(&self, name: &str) -> Option<usize> {
        self.header.iter().position(|h| h == name)
    }

    /// The positions of all the bank's columns ([`COLUMNS`]), or the first one missing.
    pub fn bank(&self) -> Result<[usize; COLUMNS.len()], &'static str> {
        let mut at = [0; COLUMNS.len()];
        for (slot, name) in at.iter_mut().zip(COLUMNS) {
            *slot = self.find(name).ok_or(name)?;
        }
        Ok(at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attempt::Generator;
    use crate::shape::Nine;
    use crate::stats::Work;

    #[test]
    fn writes_header_and_rows() {
        let puzzle = Generator::<Nine>::new(40)
            .attempt(1, 0, &mut Work::default())
            .unwrap();
        let row = Row::new(&puzzle, 1, 0);
        assert_eq!((row.holes, row.clues, row.size), (40, 41, 9));
        let mut writer = BankWriter::new(Vec::new()).unwrap();
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
    }

    #[test]
    fn columns_are_found_by_name() {
        let header = csv::StringRecord::from(vec![
            "extra", "index", "seed", "solution", "puzzle", "clues", "holes", "size", "id",
        ]);
        let at = Columns::new(&header).bank().unwrap();
        assert_eq!(at, [8, 7, 6, 5, 4, 3, 2, 1]);
        let short = csv::StringRecord::from(vec!["id", "size"]);
        assert_eq!(Columns::new(&short).bank(), Err("holes"));
    }
}
