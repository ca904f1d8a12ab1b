//! Reading files that may be anything: every reader of puzzles, banks and manifests opens
//! its input here.
//!
//! Input is streamed, never read whole, and a line may be at most [`MAX_LINE`] bytes: past
//! that the read fails with the line's number, so a file without line breaks cannot make a
//! reader hold gigabytes. A UTF-8 byte-order mark at the start is dropped.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

use anyhow::{Context, Result};

/// The longest line any reader accepts, in bytes: far above a 25×25 bank row (about 1,400
/// bytes), far below what could hurt.
pub const MAX_LINE: usize = 1 << 20;

/// The UTF-8 byte-order mark some editors put at the start of a text file.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// An input: its name for messages, and its bytes.
pub struct Input {
    /// The path as given, or `stdin`.
    pub name: String,
    /// The bytes, with any byte-order mark dropped and lines limited to [`MAX_LINE`].
    pub reader: BufReader<LineLimit<Box<dyn Read>>>,
}

impl Input {
    /// Opens `path`, or stdin when `None` or `-`.
    pub fn open(path: Option<&Path>) -> Result<Input> {
        let path = path.filter(|path| path.as_os_str() != "-");
        let (name, reader): (String, Box<dyn Read>) = match path {
            Some(path) => {
                let name = path.display().to_string();
                let file = File::open(path).with_context(|| format!("cannot read {name}"))?;
                (name, Box::new(file))
            }
            None => ("stdin".to_owned(), Box::new(io::stdin().lock())),
        };
        let mut reader = BufReader::with_capacity(1 << 16, LineLimit::new(reader));
        let starts_with_bom = reader
            .fill_buf()
            .with_context(|| format!("cannot read {name}"))?
            .starts_with(BOM);
        if starts_with_bom {
            reader.consume(BOM.len());
        }
        Ok(Input { name, reader })
    }
}

/// What a CSV reader's error means.
#[derive(Debug)]
pub enum CsvProblem {
    /// The input itself failed (an I/O error, or an over-long line).
    Io(io::Error),
    /// One record is bad: the reader can go on to the next.
    Record {
        /// The line the record starts on.
        line: u64,
        /// What is wrong, in words.
        reason: String,
    },
}

impl CsvProblem {
    /// Sorts out `err`.
    pub fn of(err: csv::Error) -> CsvProblem {
        let line = err.position().map_or(0, |p| p.line());
        let reason = match err.into_kind() {
            csv::ErrorKind::Io(io) => return CsvProblem::Io(io),
            csv::ErrorKind::Utf8 { err, .. } => format!(
                "field {} is not UTF-8 text (byte {})",
                err.field() + 1,
                err.valid_up_to() + 1
            ),
            csv::ErrorKind::UnequalLengths {
                expected_len, len, ..
            } => format!("has {len} fields, the header {expected_len}"),
            other => format!("not CSV: {other:?}"),
        };
        CsvProblem::Record { line, reason }
    }

    /// The problem as one error naming the input `name`.
    pub fn into_error(self, name: &str) -> anyhow::Error {
        match self {
            CsvProblem::Io(io) => anyhow::anyhow!("cannot read {name}: {io}"),
            CsvProblem::Record { line, reason } => anyhow::anyhow!("{name}: line {line}: {reason}"),
        }
    }
}

/// A reader that fails once a line runs past [`MAX_LINE`] bytes.
pub struct LineLimit<R> {
    inner: R,
    /// Bytes since the last line break.
    run: usize,
    /// Line breaks seen: the current line is `breaks + 1`.
    breaks: u64,
}

impl<R: Read> LineLimit<R> {
    /// Limits the lines of `inner`.
    pub fn new(inner: R) -> Self {
        LineLimit {
            inner,
            run: 0,
            breaks: 0,
        }
    }
}

impl<R: Read> Read for LineLimit<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let read = self.inner.read(buf)?;
        for (i, segment) in buf[..read].split(|&b| b == b'\n').enumerate() {
            if i > 0 {
                self.breaks += 1;
                self.run = 0;
            }
            self.run += segment.len();
            if self.run > MAX_LINE {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("line {} is longer than {MAX_LINE} bytes", self.breaks + 1),
                ));
            }
        }
        Ok(read)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(bytes: Vec<u8>, chunk: usize) -> io::Result<Vec<u8>> {
        let mut reader = LineLimit::new(io::Cursor::new(bytes));
        let mut out = Vec::new();
        let mut buf = vec![0; chunk];
        loop {
            match reader.read(&mut buf)? {
                0 => return Ok(out),
                n => out.extend_from_slice(&buf[..n]),
            }
        }
    }

    #[test]
    fn long_lines_fail_with_their_number() {
        for chunk in [1000, 1 << 16, 3 << 20] {
            let mut ok = b"short\n".to_vec();
            ok.extend(vec![b'x'; MAX_LINE]);
            ok.extend(b"\nend\n");
            assert_eq!(read_all(ok.clone(), chunk).unwrap(), ok);

            let mut long = b"short\nalso short\n".to_vec();
            long.extend(vec![b'x'; MAX_LINE + 1]);
            long.extend(b"\nend\n");
            let err = read_all(long, chunk).unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::InvalidData);
            assert_eq!(
                err.to_string(),
                format!("line 3 is longer than {MAX_LINE} bytes"),
                "chunk {chunk}"
            );
        }
    }

    #[test]
    fn a_byte_order_mark_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bom.txt");
        std::fs::write(&path, b"\xEF\xBB\xBFabc\n").unwrap();
        let mut text = String::new();
        Input::open(Some(&path))
            .unwrap()
            .reader
            .read_to_string(&mut text)
            .unwrap();
        assert_eq!(text, "abc\n");
    }
}
