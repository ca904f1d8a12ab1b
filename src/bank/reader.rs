//! Reading a bank: its header checked, its columns found by name, then row by row.

use std::io::Read;

use anyhow::{anyhow, bail};

use super::{CANON_COLUMN, COLUMNS, RATING_COLUMNS, SYMMETRY_COLUMN, header};
use crate::config::{Dedup, Generation};
use crate::input::CsvProblem;

/// Reads a bank row by row from any input, after checking its header: not empty, no column
/// named twice, every column of [`COLUMNS`] present (found by name, in any order).
pub struct BankReader<R: Read> {
    name: String,
    csv: csv::Reader<R>,
    at: [usize; COLUMNS.len()],
    /// Where the optional `symmetry` column is.
    symmetry_at: Option<usize>,
    /// Where the optional `rating` and `level` columns are.
    rating_at: Option<(usize, usize)>,
    /// Where the optional `canon_id` column is.
    canon_at: Option<usize>,
    header: csv::StringRecord,
}

/// A row that cannot be read as CSV: the reader goes on to the next one.
#[derive(Debug)]
pub struct Malformed {
    /// The line the row starts on.
    pub line: u64,
    /// What is wrong.
    pub reason: String,
}

impl<R: Read> BankReader<R> {
    /// Reads the header of the bank `name` from `reader`.
    pub fn new(name: &str, reader: R) -> anyhow::Result<Self> {
        let mut csv = csv::ReaderBuilder::new()
            .flexible(true)
            .has_headers(false)
            .from_reader(reader);
        let mut header = csv::StringRecord::new();
        let read = csv
            .read_record(&mut header)
            .map_err(|err| CsvProblem::of(err).into_error(name))?;
        if !read {
            bail!("{name} is empty: a bank starts with a header line");
        }
        for (i, column) in header.iter().enumerate() {
            if header.iter().take(i).any(|earlier| earlier == column) {
                bail!("{name}: line 1: column {column:?} appears twice in the header");
            }
        }
        let mut at = [0; COLUMNS.len()];
        for (slot, column) in at.iter_mut().zip(COLUMNS) {
            *slot = header
                .iter()
                .position(|h| h == column)
                .ok_or_else(|| anyhow!("{name} is not a bank: it has no {column:?} column"))?;
        }
        Ok(BankReader {
            name: name.to_owned(),
            csv,
            at,
            symmetry_at: header.iter().position(|h| h == SYMMETRY_COLUMN),
            rating_at: header
                .iter()
                .position(|h| h == RATING_COLUMNS[0])
                .zip(header.iter().position(|h| h == RATING_COLUMNS[1])),
            canon_at: header.iter().position(|h| h == CANON_COLUMN),
            header,
        })
    }

    /// True when the header is exactly the one `generate` writes for `generation` under
    /// `dedup`.
    pub fn has_header_of(&self, generation: &Generation, dedup: Dedup) -> bool {
        self.header.iter().eq(header(generation, dedup))
    }

    /// The name the bank was opened under.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The header as read.
    pub fn header(&self) -> &csv::StringRecord {
        &self.header
    }

    /// Reads the next row into `record`. A row that is not CSV text or lacks fields is
    /// [`Next::Malformed`], and the next call reads on; an error is the input failing (an
    /// I/O error, or an over-long line).
    pub fn read(&mut self, record: &mut csv::StringRecord) -> anyhow::Result<Next> {
        let malformed = |line, reason| Ok(Next::Malformed(Malformed { line, reason }));
        match self.csv.read_record(record) {
            Ok(false) => Ok(Next::End),
            Ok(true) if record.len() < self.header.len() => malformed(
                line_of(record),
                format!(
                    "has {} fields, the header {}",
                    record.len(),
                    self.header.len()
                ),
            ),
            Ok(true) => Ok(Next::Row),
            Err(err) => match CsvProblem::of(err) {
                CsvProblem::Io(io) => Err(anyhow!("cannot read {}: {io}", self.name)),
                CsvProblem::Record { line, reason } => malformed(line, reason),
            },
        }
    }

    /// The `rating` and `level` columns of `record`, when the bank has them.
    pub fn rating<'r>(&self, record: &'r csv::StringRecord) -> Option<(&'r str, &'r str)> {
        self.rating_at
            .map(|(r, l)| (record.get(r).unwrap_or(""), record.get(l).unwrap_or("")))
    }

    /// The `canon_id` column of `record`, when the bank has one.
    pub fn canon_id<'r>(&self, record: &'r csv::StringRecord) -> Option<&'r str> {
        self.canon_at.map(|at| record.get(at).unwrap_or(""))
    }

    /// The `symmetry` column of `record`, when the bank has one.
    pub fn symmetry<'r>(&self, record: &'r csv::StringRecord) -> Option<&'r str> {
        self.symmetry_at.map(|at| record.get(at).unwrap_or(""))
    }

    /// The bank's column `column` (of [`COLUMNS`]) in `record`.
    pub fn field<'r>(&self, record: &'r csv::StringRecord, column: Column) -> &'r str {
        record.get(self.at[column as usize]).unwrap_or("")
    }
}

/// What [`BankReader::read`] found.
#[derive(Debug)]
pub enum Next {
    /// A row with every field.
    Row,
    /// A row that cannot be read.
    Malformed(Malformed),
    /// The end of the bank.
    End,
}

/// The line `record` starts on.
pub fn line_of(record: &csv::StringRecord) -> u64 {
    record.position().map_or(0, |p| p.line())
}

/// The columns of [`COLUMNS`], by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Column {
    Id,
    Size,
    Holes,
    Clues,
    Puzzle,
    Solution,
    Seed,
    Index,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Holes;
    use crate::shape::Size;

    fn nine(holes: usize) -> Generation {
        Generation::new(Size::Nine, Some(Holes::Exact(holes))).unwrap()
    }

    #[test]
    fn columns_are_found_by_name() {
        let text = "extra,index,seed,solution,puzzle,clues,holes,size,id\nx,7,1,s,p,c,h,9,i\n";
        let mut reader = BankReader::new("b.csv", text.as_bytes()).unwrap();
        assert!(!reader.has_header_of(&nine(40), Dedup::Exact));
        let mut record = csv::StringRecord::new();
        assert!(matches!(reader.read(&mut record).unwrap(), Next::Row));
        assert_eq!(reader.field(&record, Column::Index), "7");
        assert_eq!(reader.field(&record, Column::Id), "i");
        assert!(matches!(reader.read(&mut record).unwrap(), Next::End));
    }

    #[test]
    fn bad_headers_are_named() {
        let err = |text: &str| match BankReader::new("b.csv", text.as_bytes()) {
            Ok(_) => panic!("{text:?} was read as a bank"),
            Err(err) => err.to_string(),
        };
        assert_eq!(err(""), "b.csv is empty: a bank starts with a header line");
        assert_eq!(
            err("id,size\n"),
            "b.csv is not a bank: it has no \"holes\" column"
        );
        let twice = format!("{},puzzle\n", COLUMNS.join(","));
        assert_eq!(
            err(&twice),
            "b.csv: line 1: column \"puzzle\" appears twice in the header"
        );
        let standard = format!("{}\n", COLUMNS.join(","));
        assert!(
            BankReader::new("b", standard.as_bytes())
                .unwrap()
                .has_header_of(&nine(50), Dedup::Exact)
        );
    }
}
