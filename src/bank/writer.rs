//! Writing a bank: the header, then rows, from a [`super::Row`], a formatted line or a
//! record read from another bank.

use std::io::{self, Write};

use super::{Row, header};
use crate::config::{Dedup, Generation};

/// Writes a bank: the header first, then rows.
#[derive(Debug)]
pub struct BankWriter<W: Write> {
    out: W,
}

impl<W: Write> BankWriter<W> {
    /// A writer that has written the header row of a bank of `generation` under `dedup`
    /// to `out`.
    pub fn new(out: W, generation: &Generation, dedup: Dedup) -> io::Result<Self> {
        Self::with_header(out, header(generation, dedup))
    }

    /// A writer that has written the header row `columns` to `out`.
    pub fn with_header<'c>(
        mut out: W,
        columns: impl IntoIterator<Item = &'c str>,
    ) -> io::Result<Self> {
        out.write_all(&csv_record(|csv| csv.write_record(columns))?)?;
        Ok(BankWriter { out })
    }

    /// A writer that adds rows to `out`, which already holds a header (and rows).
    pub fn continuing(out: W) -> Self {
        BankWriter { out }
    }

    /// Appends one row.
    pub fn write(&mut self, row: &Row) -> io::Result<()> {
        self.out.write_all(&csv_record(|csv| csv.serialize(row))?)
    }

    /// Appends lines made by a [`RowFormatter`](super::RowFormatter) (any number, each with its line ending).
    pub fn write_lines(&mut self, lines: &[u8]) -> io::Result<()> {
        self.out.write_all(lines)
    }

    /// Appends one row read from another bank, field by field.
    pub fn write_record(&mut self, record: &csv::StringRecord) -> io::Result<()> {
        self.out
            .write_all(&csv_record(|csv| csv.write_record(record))?)
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
