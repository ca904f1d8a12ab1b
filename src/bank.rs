//! The bank: a CSV file with one row per puzzle (SPEC "The bank").
//!
//! Columns are looked up by name when reading, so later features can append columns
//! without breaking readers.

use std::io::{self, Write};

use serde::{Deserialize, Serialize};

use crate::attempt::Puzzle;
use crate::hash::{dedup_key, puzzle_id_digits, puzzle_id_hex};
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

/// Formats rows as CSV lines; keep one per worker thread. The workers format the rows they
/// make, so the single writer only deduplicates and copies bytes, and the text buffers are
/// reused from row to row. No field of a row can need quoting (hex digits, decimal numbers
/// and grid text), so a line is its fields joined by commas: the same bytes as the csv
/// crate writes for the [`Row`], which a test checks.
#[derive(Debug, Default)]
pub struct RowFormatter {
    puzzle: Vec<u8>,
    solution: Vec<u8>,
}

/// One formatted row: its CSV line and the dedup key of its puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// [`crate::hash::dedup_key`] of the puzzle's text.
    pub key: u128,
    /// The row, as CSV, with its line ending.
    pub bytes: Vec<u8>,
}

impl RowFormatter {
    /// A formatter with empty buffers.
    pub fn new() -> Self {
        Self::default()
    }

    /// The line of `made`, produced by attempt `index` of the batch seeded `seed`.
    pub fn line<S: Shape>(&mut self, made: &Puzzle<S>, seed: u64, index: u64) -> Line {
        made.puzzle.write_bytes(&mut self.puzzle);
        made.solution.write_bytes(&mut self.solution);
        let holes = self.puzzle.iter().filter(|&&b| b == b'.').count();
        let id = puzzle_id_digits(&self.puzzle);
        let mut digits = [itoa::Buffer::new(); 5];
        let [size, holes_digits, clues, seed_digits, index_digits] = &mut digits;
        let fields: [&[u8]; 8] = [
            &id,
            size.format(S::N).as_bytes(),
            holes_digits.format(holes).as_bytes(),
            clues.format(S::CELLS - holes).as_bytes(),
            &self.puzzle,
            &self.solution,
            seed_digits.format(seed).as_bytes(),
            index_digits.format(index).as_bytes(),
        ];
        let mut bytes = Vec::with_capacity(fields.iter().map(|f| f.len() + 1).sum());
        for (i, field) in fields.iter().enumerate() {
            if i > 0 {
                bytes.push(b',');
            }
            bytes.extend_from_slice(field);
        }
        bytes.push(b'\n');
        Line {
            key: dedup_key(&self.puzzle),
            bytes,
        }
    }
}

/// Writes a bank: the header first, then rows.
#[derive(Debug)]
pub struct BankWriter<W: Write> {
    out: W,
}

impl<W: Write> BankWriter<W> {
    /// A writer that has written the header row to `out`.
    pub fn new(mut out: W) -> io::Result<Self> {
        out.write_all(&csv_record(|csv| csv.write_record(COLUMNS))?)?;
        Ok(BankWriter { out })
    }

    /// Appends one row.
    pub fn write(&mut self, row: &Row) -> io::Result<()> {
        self.out.write_all(&csv_record(|csv| csv.serialize(row))?)
    }

    /// Appends one line made by a [`RowFormatter`].
    pub fn write_line(&mut self, line: &Line) -> io::Result<()> {
        self.out.write_all(&line.bytes)
    }

    /// Flushes everything written and hands back the output. Always call it: dropping the
    /// writer would swallow a failed flush.
    pub fn finish(mut self) -> io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}

/// One CSV record, as the csv crate writes it, with its line ending.
fn csv_record(
    write: impl FnOnce(&mut csv::Writer<Vec<u8>>) -> csv::Result<()>,
) -> io::Result<Vec<u8>> {
    let mut csv = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    write(&mut csv).map_err(io_error)?;
    csv.into_inner().map_err(|e| e.into_error())
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
        let puzzle = Generator::<Nine>::new(crate::config::Holes::Exact(40))
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
        // The workers' formatted line is the same bytes.
        let mut fast = BankWriter::new(Vec::new()).unwrap();
        let line = RowFormatter::new().line(&puzzle, 1, 0);
        assert_eq!(line.key, crate::hash::dedup_key(&row.puzzle));
        fast.write_line(&line).unwrap();
        assert_eq!(String::from_utf8(fast.finish().unwrap()).unwrap(), text);
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
