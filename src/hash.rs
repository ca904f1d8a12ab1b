//! Stable content hashes of grid text.
//!
//! [`puzzle_id`] is the bank's `id` column: FNV-1a (64-bit) over the UTF-8 bytes of the
//! puzzle's text form, then the SplitMix64 finaliser ([`mix64`]) to spread the bits, written
//! as 16 lowercase hex digits. It depends on nothing but the text, so it is the same on every
//! platform and version; a test pins known values.
//!
//! [`dedup_key`] is FNV-1a (128-bit) over the same bytes: the compact key the writer keeps
//! for each distinct puzzle instead of the puzzle itself.

use crate::rng::mix64;

const FNV64_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV64_PRIME: u64 = 0x0000_0100_0000_01b3;
const FNV128_OFFSET: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
const FNV128_PRIME: u128 = 0x0000_0000_0100_0000_0000_0000_0000_013b;

/// The 64-bit content hash of a puzzle's text form (the `id` column's value).
pub fn puzzle_id(text: &str) -> u64 {
    let hash = text.bytes().fold(FNV64_OFFSET, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(FNV64_PRIME)
    });
    mix64(hash)
}

/// `puzzle_id` as the bank writes it: 16 lowercase hex digits.
pub fn puzzle_id_hex(text: &str) -> String {
    format!("{:016x}", puzzle_id(text))
}

/// The 128-bit key by which exact duplicates are recognised.
pub fn dedup_key(text: &str) -> u128 {
    text.bytes().fold(FNV128_OFFSET, |h, b| {
        (h ^ u128::from(b)).wrapping_mul(FNV128_PRIME)
    })
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
        assert_eq!(dedup_key(""), FNV128_OFFSET);
        assert_eq!(dedup_key("a"), 0xd228_cb69_6f1a_8caf_7891_2b70_4e4a_8964);
    }

    #[test]
    fn ids_tell_puzzles_apart() {
        assert_ne!(puzzle_id("1.2."), puzzle_id("1..2"));
        assert_ne!(dedup_key("1.2."), dedup_key("1..2"));
    }
}
