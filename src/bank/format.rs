//! Rows formatted as CSV lines on the workers, four at a time.

use crate::attempt::Puzzle;
use crate::config::Dedup;
use crate::dedup::{Key, Keyer};
use crate::grid::count_of;
use crate::hash::{id_and_key, id_digits, ids_and_keys};
use crate::rating::{Level, tenths_text};
use crate::shape::Shape;
use crate::symmetry::Symmetry;

/// Lines a [`RowFormatter`] holds and formats together: enough that the hash chains of
/// their ids ([`crate::hash::ids_and_keys`]) keep the processor busy.
pub const LINES_AT_ONCE: usize = 4;

/// Formats rows as CSV lines; keep one per worker thread. The workers format the rows they
/// make, so the single writer only deduplicates and copies bytes, and the text buffers are
/// reused from row to row. No field of a row can need quoting (hex digits, decimal numbers
/// and grid text), so a line is its fields joined by commas: the same bytes as the csv
/// crate writes for the [`Row`](super::Row), which a test checks.
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
