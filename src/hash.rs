//! Stable content hashes of grid text.
//!
//! [`puzzle_id`] is the bank's `id` column: FNV-1a (64-bit) over the UTF-8 bytes of the
//! puzzle's text form, then the SplitMix64 finaliser ([`mix64`]) to spread the bits, written
//! as 16 lowercase hex digits. It depends on nothing but the text, so it is the same on every
//! platform and version; a test pins known values.
//!
//! [`dedup_key`] is the compact key the writer keeps for each distinct puzzle instead of the
//! puzzle itself: 128 bits from two 64-bit lanes over the text's 8-byte words, each step
//! mixed by the SplitMix64 finaliser, eight bytes at a time rather than FNV's one. It never
//! leaves the process, so it may change between versions. [`KeySet`] holds such keys,
//! hashing each by its own low 64 bits: they are already uniformly mixed.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use crate::rng::mix64;

const FNV64_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV64_PRIME: u64 = 0x0000_0100_0000_01b3;
const LANE_A: u64 = 0x243F_6A88_85A3_08D3;
const LANE_B: u64 = 0x1319_8A2E_0370_7344;

/// The 64-bit content hash of a puzzle's text form (the `id` column's value).
pub fn puzzle_id(text: impl AsRef<[u8]>) -> u64 {
    let hash = text.as_ref().iter().fold(FNV64_OFFSET, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(FNV64_PRIME)
    });
    mix64(hash)
}

/// `puzzle_id` as the bank writes it: 16 lowercase hex digits.
pub fn puzzle_id_hex(text: impl AsRef<[u8]>) -> String {
    format!("{:016x}", puzzle_id(text))
}

/// [`puzzle_id_hex`] into a fixed buffer, for the writer's hot path.
pub fn puzzle_id_digits(text: impl AsRef<[u8]>) -> [u8; 16] {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let id = puzzle_id(text);
    std::array::from_fn(|i| HEX[(id >> (60 - 4 * i) & 0xF) as usize])
}

/// The 128-bit key by which exact duplicates are recognised.
pub fn dedup_key(text: impl AsRef<[u8]>) -> u128 {
    let bytes = text.as_ref();
    let (mut a, mut b) = (LANE_A, LANE_B);
    let mut words = bytes.chunks_exact(8);
    let mut take = |word: u64| {
        a = mix64(a ^ word);
        b = mix64(b.wrapping_add(word).rotate_left(29));
    };
    for word in &mut words {
        take(u64::from_le_bytes(word.try_into().expect("eight bytes")));
    }
    let mut last = [0u8; 8];
    last[..words.remainder().len()].copy_from_slice(words.remainder());
    take(u64::from_le_bytes(last));
    take(bytes.len() as u64);
    u128::from(a) << 64 | u128::from(b)
}

/// A set of [`dedup_key`]s.
pub type KeySet = HashSet<u128, BuildHasherDefault<KeyHasher>>;

/// Hashes a [`dedup_key`] by its low 64 bits (see the module docs).
#[derive(Debug, Default, Clone, Copy)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        // Only `u128` keys go through here; fold anything else in, all the same.
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(FNV64_PRIME);
        }
    }

    fn write_u128(&mut self, key: u128) {
        self.0 = key as u64;
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_pinned() {
        // Values computed independently from the definition above; they must never change.
        assert_eq!(puzzle_id_hex(""), "f52a15e9a9b5e89b");
        assert_eq!(
            puzzle_id_hex(
                "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
            ),
            "fc22f0b1bc8c9fe6"
        );
        let text =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
        assert_eq!(puzzle_id_digits(text), *b"fc22f0b1bc8c9fe6");
    }

    #[test]
    fn ids_tell_puzzles_apart() {
        assert_ne!(puzzle_id("1.2."), puzzle_id("1..2"));
        assert_ne!(dedup_key("1.2."), dedup_key("1..2"));
        // Texts that differ only past a word boundary, or only in length.
        assert_ne!(dedup_key("12345678.1"), dedup_key("12345678.2"));
        assert_ne!(dedup_key("1234567"), dedup_key("1234567\0"));
        let mut set = KeySet::default();
        assert!(set.insert(dedup_key("1.2.")) && !set.insert(dedup_key("1.2.")));
    }
}
