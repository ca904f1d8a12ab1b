//! What makes two puzzles the same: the key each puzzle is deduplicated by.
//!
//! Under [`Dedup::Exact`] (and [`Dedup::None`], which keeps every puzzle but still keys it)
//! the key is [`dedup_key`] of the puzzle's text; under [`Dedup::Canonical`] it is
//! [`dedup_key`] of its canonical form's text ([`crate::canon`]), and the row's `canon_id`
//! is [`crate::hash::puzzle_id`] of that text. Workers, `--resume`, `--append` and `merge`
//! all key puzzles here, so they agree; a worker takes a text's own key with its id, in the
//! same pass ([`crate::hash::ids_and_keys`], which a test holds to [`dedup_key`]), and asks
//! here only for a key apart from it ([`Keyer::key_apart`]).

use crate::canon::Canonicalizer;
use crate::config::Dedup;
use crate::grid::Grid;
use crate::hash::{dedup_key, puzzle_id_digits};
use crate::shape::Shape;

/// A puzzle's dedup key, and its `canon_id` under canonical dedup.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key {
    /// The 128-bit key the writer's set holds.
    pub key: u128,
    /// The `canon_id` column's 16 hex digits, under [`Dedup::Canonical`].
    pub canon_id: Option<[u8; 16]>,
}

/// Keys puzzles under one dedup mode, reusing its buffers: keep one per thread.
#[derive(Debug)]
pub struct Keyer {
    dedup: Dedup,
    canonicalizer: Canonicalizer,
    text: Vec<u8>,
}

impl Keyer {
    /// A keyer for `dedup`.
    pub fn new(dedup: Dedup) -> Self {
        Keyer {
            dedup,
            canonicalizer: Canonicalizer::new(),
            text: Vec::new(),
        }
    }

    /// The key of `puzzle`. A size without canonical forms is keyed by its text: jobs refuse
    /// canonical dedup for those sizes before any puzzle is keyed.
    pub fn key<S: Shape>(&mut self, puzzle: &Grid<S>) -> Key {
        let canon = match self.dedup {
            Dedup::Canonical => self.canonicalizer.canonical(puzzle),
            Dedup::Exact | Dedup::None => None,
        };
        canon.unwrap_or(*puzzle).write_bytes(&mut self.text);
        Key {
            key: dedup_key(&self.text),
            canon_id: canon.map(|_| puzzle_id_digits(&self.text)),
        }
    }

    /// The key of `puzzle` when it is not the hash of its own text, [`dedup_key`]: under
    /// canonical dedup, [`Keyer::key`]; otherwise `None`. A worker hashes its rows' texts
    /// for their ids, and their keys come with them ([`crate::hash::id_and_key`]).
    pub fn key_apart<S: Shape>(&mut self, puzzle: &Grid<S>) -> Option<Key> {
        match self.dedup {
            Dedup::Canonical => Some(self.key(puzzle)),
            Dedup::Exact | Dedup::None => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::Nine;

    #[test]
    fn canonical_keys_join_equivalent_puzzles() {
        let text =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
        let puzzle = Grid::<Nine>::parse(text).unwrap();
        // The same puzzle with its digits relabelled (each d becomes 10 − d) and transposed.
        let mut moved = Grid::<Nine>::empty();
        for cell in 0..81 {
            let digit = puzzle.get(cell);
            moved.set(
                (cell % 9) * 9 + cell / 9,
                if digit == 0 { 0 } else { 10 - digit },
            );
        }
        let mut exact = Keyer::new(Dedup::Exact);
        assert_eq!(exact.key(&puzzle).key, dedup_key(text));
        assert_ne!(exact.key(&puzzle).key, exact.key(&moved).key);
        assert_eq!(exact.key(&puzzle).canon_id, None);
        let mut canonical = Keyer::new(Dedup::Canonical);
        let key = canonical.key(&puzzle);
        assert_eq!(key, canonical.key(&moved));
        let canon = crate::canon::canonical(&puzzle).unwrap().to_string();
        assert_eq!(key.key, dedup_key(&canon));
        assert_eq!(key.canon_id, Some(puzzle_id_digits(&canon)));
        // Under exact dedup the text's own hash is the key; under canonical, the form's.
        assert_eq!(exact.key_apart(&puzzle), None);
        assert_eq!(canonical.key_apart(&puzzle), Some(key));
    }
}
