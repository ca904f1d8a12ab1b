//! What makes two puzzles the same: the key each puzzle is deduplicated by.
//!
//! Under [`Dedup::Exact`] (and [`Dedup::None`], which keeps every puzzle but still keys it)
//! the key is [`dedup_key`] of the puzzle's text; under [`Dedup::Canonical`] it is
//! [`dedup_key`] of its canonical form's text ([`crate::canon`]), and the row's `canon_id`
//! is [`crate::hash::puzzle_id`] of that text. Workers, `--resume`, `--append` and `merge`
//! all key puzzles here, so they agree.

use crate::canon::Canonicalizer;
use crate::config::Dedup;
use crate::grid::Grid;
use crate::hash::{dedup_key, ids_and_keys, puzzle_id_digits};
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

    /// The key of `puzzle`, whose text is `text`, and [`crate::hash::puzzle_id`] of `text`:
    /// [`Keyer::keys_and_ids`] of one puzzle.
    pub fn key_and_id<S: Shape>(&mut self, puzzle: &Grid<S>, text: &[u8]) -> (Key, u64) {
        let [keyed] = self.keys_and_ids([puzzle], [text]);
        keyed
    }

    /// [`Keyer::key_and_id`] of `L` puzzles at once, their texts hashed side by side
    /// ([`ids_and_keys`]).
    pub fn keys_and_ids<S: Shape, const L: usize>(
        &mut self,
        puzzles: [&Grid<S>; L],
        texts: [&[u8]; L],
    ) -> [(Key, u64); L] {
        let hashed = ids_and_keys(texts);
        std::array::from_fn(|k| {
            let (id, key) = hashed[k];
            let key = match self.dedup {
                Dedup::Canonical => self.key(puzzles[k]),
                Dedup::Exact | Dedup::None => Key {
                    key,
                    canon_id: None,
                },
            };
            (key, id)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::puzzle_id;
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
        // The row's id is the text's own under every mode; the key, the mode's.
        for (keyer, want) in [(&mut exact, dedup_key(text)), (&mut canonical, key.key)] {
            let (both, id) = keyer.key_and_id(&puzzle, text.as_bytes());
            assert_eq!((both.key, id), (want, puzzle_id(text)));
            assert_eq!(both, keyer.key(&puzzle));
            let moved_text = moved.to_string();
            let together =
                keyer.keys_and_ids([&puzzle, &moved], [text.as_bytes(), moved_text.as_bytes()]);
            assert_eq!(
                together,
                [
                    (keyer.key(&puzzle), puzzle_id(text)),
                    (keyer.key(&moved), puzzle_id(&moved_text))
                ]
            );
        }
    }
}
