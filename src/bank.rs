//! The bank: a CSV file with one row per puzzle (SPEC "The bank").
//!
//! Columns are looked up by name when reading, so later features can append columns
//! without breaking readers.

use std::io::{self, Read, Write};

use anyhow::{anyhow, bail};

use serde::{Deserialize, Serialize};

use crate::attempt::Puzzle;
use crate::config::{Dedup, Generation};
use crate::dedup::{Key, Keyer};
use crate::grid::count_of;
use crate::hash::{id_and_key, id_digits, ids_and_keys, puzzle_id_hex};
use crate::input::CsvProblem;
use crate::rating::Level;
use crate::shape::Shape;
use crate::symmetry::Symmetry;

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

/// An SE rating in tenths as text: `2.6`.
pub fn tenths_text(tenths: u32) -> String {
    format!("{}.{}", tenths / 10, tenths % 10)
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

/// Lines a [`RowFormatter`] holds and formats together: enough that the hash chains of
/// their ids ([`crate::hash::ids_and_keys`]) keep the processor busy.
pub const LINES_AT_ONCE: usize = 4;

/// Formats rows as CSV lines; keep one per worker thread. The workers format the rows they
/// make, so the single writer only deduplicates and copies bytes, and the text buffers are
/// reused from row to row. No field of a row can need quoting (hex digits, decimal numbers
/// and grid text), so a line is its fields joined by commas: the same bytes as the csv
/// crate writes for the [`Row`], which a test checks.
///
/// A worker hands each puzzle over as it is made ([`RowFormatter::hold`]), and the
/// formatter keeps its texts, not the puzzle; [`RowFormatter::flush`] then writes the lines
/// held, hashing the ids of [`LINES_AT_ONCE`] side by side.
#[derive(Debug)]
pub struct RowFormatter {
    /// The lines held, the first `held` of them.
    lines: [Held; LINES_AT_ONCE],
    held: usize,
    /// Each line the last flush wrote: its dedup key, and where it ends.
    written: [(u128, usize); LINES_AT_ONCE],
    keyer: Keyer,
}

/// A line held until it is written: what it needs of its puzzle.
#[derive(Debug, Default)]
struct Held {
    /// The puzzle's text.
    puzzle: Vec<u8>,
    /// Its solution's text.
    solution: Vec<u8>,
    /// The attempt that made it.
    index: u64,
    symmetry: Symmetry,
    rating: Option<u32>,
    /// Its key when the text's own hash is not its key: under canonical dedup.
    key: Option<Key>,
}

impl RowFormatter {
    /// A formatter with empty buffers, keying puzzles under `dedup`.
    pub fn new(dedup: Dedup) -> Self {
        RowFormatter {
            lines: Default::default(),
            held: 0,
            written: [(0, 0); LINES_AT_ONCE],
            keyer: Keyer::new(dedup),
        }
    }

    /// The most bytes a line of a grid of `cells` cells takes: its two grids, and at most 128
    /// for the other fields, commas and line ending (118 with every optional column).
    pub const fn most_bytes(cells: usize) -> usize {
        2 * cells + 128
    }

    /// Holds the line of `made`, produced by attempt `index`, for the next
    /// [`RowFormatter::flush`]; true when [`LINES_AT_ONCE`] lines are held, and the next
    /// must wait for a flush.
    pub fn hold<S: Shape>(&mut self, made: &Puzzle<S>, index: u64) -> bool {
        assert!(self.held < LINES_AT_ONCE, "a full formatter holds no more");
        let line = &mut self.lines[self.held];
        made.puzzle.write_bytes(&mut line.puzzle);
        made.solution.write_bytes(&mut line.solution);
        line.index = index;
        line.symmetry = made.symmetry;
        line.rating = made.rating;
        line.key = self.keyer.key_apart(&made.puzzle);
        self.held += 1;
        self.held == LINES_AT_ONCE
    }

    /// Appends the CSV lines held, in the order they came, with their line endings, to
    /// `bytes`, for the batch seeded `seed` (`S` the size they were held at). Returns each
    /// line's dedup key ([`crate::dedup`]) and where it ends in `bytes`.
    pub fn flush<S: Shape>(&mut self, seed: u64, bytes: &mut Vec<u8>) -> &[(u128, usize)] {
        let held = std::mem::take(&mut self.held);
        let lines = &self.lines[..held];
        let mut hashed = [(0, 0); LINES_AT_ONCE];
        if let Ok(all) = <&[Held; LINES_AT_ONCE]>::try_from(lines) {
            hashed = ids_and_keys(all.each_ref().map(|line| line.puzzle.as_slice()));
        } else {
            for (hash, line) in hashed.iter_mut().zip(lines) {
                *hash = id_and_key(&line.puzzle);
            }
        }
        for ((line, (id, key)), written) in lines.iter().zip(hashed).zip(&mut self.written) {
            let key = line.key.unwrap_or(Key {
                key,
                canon_id: None,
            });
            Self::write_line::<S>(line, seed, (key, id), bytes);
            *written = (key.key, bytes.len());
        }
        &self.written[..held]
    }

    /// Appends the CSV line of `made`, produced by attempt `index` of the batch seeded
    /// `seed`, to `bytes`, after any lines held; returns the dedup key of its puzzle.
    pub fn append_line<S: Shape>(
        &mut self,
        made: &Puzzle<S>,
        seed: u64,
        index: u64,
        bytes: &mut Vec<u8>,
    ) -> u128 {
        self.hold(made, index);
        let written = self.flush::<S>(seed, bytes);
        written[written.len() - 1].0
    }

    /// Appends `line` of the batch seeded `seed`, whose key and id are `keyed`.
    fn write_line<S: Shape>(line: &Held, seed: u64, (key, id): (Key, u64), bytes: &mut Vec<u8>) {
        let holes = count_of(&line.puzzle, b'.');
        let id = id_digits(id);
        let mut digits = [itoa::Buffer::new(); 5];
        let [size, holes_digits, clues, seed_digits, index_digits] = &mut digits;
        // The grids' texts are sliced to their known length, so that their copies into
        // the line take no call to `memcpy`.
        let fields: [&[u8]; 8] = [
            &id,
            size.format(S::N).as_bytes(),
            holes_digits.format(holes).as_bytes(),
            clues.format(S::CELLS - holes).as_bytes(),
            &line.puzzle[..S::CELLS],
            &line.solution[..S::CELLS],
            seed_digits.format(seed).as_bytes(),
            index_digits.format(line.index).as_bytes(),
        ];
        for (i, field) in fields.iter().enumerate() {
            if i > 0 {
                bytes.push(b',');
            }
            bytes.extend_from_slice(field);
        }
        if line.symmetry != Symmetry::None {
            bytes.push(b',');
            bytes.extend_from_slice(line.symmetry.name().as_bytes());
        }
        if let Some(tenths) = line.rating {
            bytes.push(b',');
            bytes.extend_from_slice(tenths_text(tenths).as_bytes());
            bytes.push(b',');
            bytes.extend_from_slice(Level::of_tenths(tenths).name().as_bytes());
        }
        if let Some(canon_id) = key.canon_id {
            bytes.push(b',');
            bytes.extend_from_slice(&canon_id);
        }
        bytes.push(b'\n');
    }
}

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

    /// Appends lines made by a [`RowFormatter`] (any number, each with its line ending).
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
