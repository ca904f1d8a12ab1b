//! Stable content hashes of grid text.
//!
//! [`puzzle_id`] is the bank's `id` column: FNV-1a (64-bit) over the UTF-8 bytes of the
//! puzzle's text form, then the SplitMix64 finaliser ([`mix64`]) to spread the bits, written
//! as 16 lowercase hex digits. It depends on nothing but the text, so it is the same on every
//! platform and version; a test pins known values.
//!
//! [`dedup_key`] is the compact key the writer keeps for each distinct puzzle instead of the
//! puzzle itself: 128 bits, two independent 64-bit hashes of the text. The high half is the
//! id, which every row computes anyway. The low half is a lane over the text's 8-byte words,
//! eight bytes a step rather than FNV's one, each step one folded multiplication (the two
//! halves of a 128-bit product, XORed), finished by the SplitMix64 finaliser. Two texts share
//! a key only if both hashes collide. The key never leaves the process, so it may change
//! between versions. [`KeySet`] holds such keys in buckets of four 16-byte slots, placing
//! each by its own low 64 bits: they are already uniformly mixed.

use crate::rng::mix64;

const FNV64_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV64_PRIME: u64 = 0x0000_0100_0000_01b3;
// The key's lane's start value and multiplier: the first and third words of π's fraction
// in hex (the third made odd).
const LANE_START: u64 = 0x243F_6A88_85A3_08D3;
const LANE_MUL: u64 = 0xA409_3822_299F_31D1;

/// The 64-bit content hash of a puzzle's text form (the `id` column's value).
pub fn puzzle_id(text: impl AsRef<[u8]>) -> u64 {
    mix64(text.as_ref().iter().fold(FNV64_OFFSET, fnv_step))
}

/// `puzzle_id` as the bank writes it: 16 lowercase hex digits.
pub fn puzzle_id_hex(text: impl AsRef<[u8]>) -> String {
    format!("{:016x}", puzzle_id(text))
}

/// [`puzzle_id_hex`] into a fixed buffer, for the writer's hot path.
pub fn puzzle_id_digits(text: impl AsRef<[u8]>) -> [u8; 16] {
    id_digits(puzzle_id(text))
}

/// A [`puzzle_id`] as 16 lowercase hex digits.
pub fn id_digits(id: u64) -> [u8; 16] {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    std::array::from_fn(|i| HEX[(id >> (60 - 4 * i) & 0xF) as usize])
}

/// The 128-bit key by which exact duplicates are recognised: the text's [`puzzle_id`]
/// above its lane.
pub fn dedup_key(text: impl AsRef<[u8]>) -> u128 {
    id_and_key(text).1
}

/// [`puzzle_id`] and [`dedup_key`] of one text, in one pass over it. The id's chain of
/// byte steps is slow (each waits for the last multiplication) and the key's lane does not
/// depend on it, so taking a word of the lane with each eight bytes of the id costs little
/// more than the id alone.
pub fn id_and_key(text: impl AsRef<[u8]>) -> (u64, u128) {
    let bytes = text.as_ref();
    let (mut id, mut lane) = (FNV64_OFFSET, Lane::new());
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        id = word.iter().fold(id, fnv_step);
        lane.take(word_of(word));
    }
    let rest = words.remainder();
    id = rest.iter().fold(id, fnv_step);
    keyed(id, lane.finish(rest, bytes.len()))
}

/// A text's id and key, from its FNV-1a state and its lane's finished value.
#[inline(always)]
fn keyed(fnv: u64, lane: u64) -> (u64, u128) {
    let id = mix64(fnv);
    (id, u128::from(id) << 64 | u128::from(lane))
}

/// [`id_and_key`] of `L` texts at once. Each text's id is a chain of multiplications, one
/// per byte, each waiting for the last; the chains of different texts do not wait on one
/// another, so the processor runs them side by side, and `L` texts take about as long as
/// one. Texts of unequal lengths are hashed one by one.
pub fn ids_and_keys<const L: usize>(texts: [&[u8]; L]) -> [(u64, u128); L] {
    let len = texts.first().map_or(0, |text| text.len());
    if texts.iter().any(|text| text.len() != len) {
        return texts.map(id_and_key);
    }
    let mut ids = [FNV64_OFFSET; L];
    let mut lanes = [(); L].map(|()| Lane::new());
    let whole = len - len % 8;
    for at in (0..whole).step_by(8) {
        for ((id, lane), text) in ids.iter_mut().zip(&mut lanes).zip(texts) {
            let word = &text[at..at + 8];
            *id = word.iter().fold(*id, fnv_step);
            lane.take(word_of(word));
        }
    }
    std::array::from_fn(|k| {
        let rest = &texts[k][whole..];
        let id = rest.iter().fold(ids[k], fnv_step);
        keyed(id, lanes[k].finish(rest, len))
    })
}

/// One byte of FNV-1a.
#[inline(always)]
fn fnv_step(hash: u64, &byte: &u8) -> u64 {
    (hash ^ u64::from(byte)).wrapping_mul(FNV64_PRIME)
}

/// Eight bytes as a little-endian word.
#[inline(always)]
fn word_of(bytes: &[u8]) -> u64 {
    u64::from_le_bytes(bytes.try_into().expect("eight bytes"))
}

/// The lane of [`dedup_key`]: the low half of the key, a word at a time.
#[derive(Clone, Copy)]
struct Lane(u64);

impl Lane {
    fn new() -> Self {
        Lane(LANE_START)
    }

    #[inline(always)]
    fn take(&mut self, word: u64) {
        self.0 = folded_mul(self.0 ^ word, LANE_MUL);
    }

    /// The lane of a text of `len` bytes whose whole words were taken and whose last bytes
    /// (fewer than eight) are `rest`.
    fn finish(mut self, rest: &[u8], len: usize) -> u64 {
        let mut last = [0u8; 8];
        last[..rest.len()].copy_from_slice(rest);
        self.take(u64::from_le_bytes(last));
        self.take(len as u64);
        mix64(self.0)
    }
}

/// The two halves of the 128-bit product of `x` and `k`, folded together: one
/// multiplication whose every output bit depends on many bits of `x`.
#[inline(always)]
fn folded_mul(x: u64, k: u64) -> u64 {
    let product = u128::from(x) * u128::from(k);
    product as u64 ^ (product >> 64) as u64
}

/// A set of [`dedup_key`]s: one open-addressed table of `u128` slots, 16 bytes a slot and no
/// other storage, in buckets of four that each fill one 64-byte cache line. A key's home
/// bucket comes from its low 64 bits, which are already uniformly mixed; a full bucket passes
/// its keys on to the next. Slot value 0 means empty (the key 0 is held apart).
///
/// Buckets, rather than a run of slots from a home slot, keep a key's search on the one
/// cache line the writer warms more often: near the end of a batch, when the table is
/// nearly 4/5 full, a run from a home slot often went on past its line
/// (docs/benchmark-log.md, "Cheaper rows and a dedup set in buckets").
///
/// Sized up front for the keys a batch can hold (up to [`KeySet::MAX_PRESIZED`]), the table
/// does not grow during the batch. A new table is written whole up front, so a batch's set
/// is resident from its start (a page first read and then written would cost the other
/// cores a TLB flush).
#[derive(Debug, Clone)]
pub struct KeySet {
    buckets: Vec<Bucket>,
    len: usize,
    has_zero: bool,
}

/// Four slots on one cache line.
#[derive(Debug, Clone, Copy, Default)]
#[repr(align(64))]
struct Bucket([u128; 4]);

impl Default for KeySet {
    fn default() -> Self {
        KeySet::with_capacity(0)
    }
}

impl KeySet {
    /// The most keys per slot, 4/5: a load that keeps searches short.
    const LOAD: (usize, usize) = (4, 5);
    /// Slots per bucket.
    const WIDTH: usize = 4;
    /// The most keys a set is sized for up front: 16 Mi keys, 320 MiB of slots.
    pub const MAX_PRESIZED: u64 = 1 << 24;
    /// The room a set starts with when asked for more than [`KeySet::MAX_PRESIZED`]: it
    /// doubles from there.
    const UNSIZED: u64 = 1 << 20;

    /// A set with room for `keys` keys before it grows, or for 2^20 keys when `keys` is past
    /// [`KeySet::MAX_PRESIZED`] (a batch bounded by time, say).
    pub fn with_capacity(keys: u64) -> Self {
        KeySet {
            buckets: vec![Bucket::default(); Self::buckets_for(keys)],
            len: 0,
            has_zero: false,
        }
    }

    /// Makes room for `more` keys beyond those held, as [`KeySet::with_capacity`] would for
    /// all of them.
    pub fn reserve(&mut self, more: u64) {
        let wanted = Self::buckets_for((self.len as u64).saturating_add(more));
        if wanted > self.buckets.len() {
            self.resize(wanted);
        }
    }

    /// Buckets for `keys` keys at most [`KeySet::LOAD`] full, within the presizing bound.
    fn buckets_for(keys: u64) -> usize {
        let keys = if keys > Self::MAX_PRESIZED {
            Self::UNSIZED
        } else {
            keys
        } as usize;
        (keys * Self::LOAD.1 / Self::LOAD.0)
            .div_ceil(Self::WIDTH)
            .max(4)
    }

    /// Adds `key`; false when it was already there.
    pub fn insert(&mut self, key: u128) -> bool {
        if key == 0 {
            return !std::mem::replace(&mut self.has_zero, true);
        }
        if (self.len + 1) * Self::LOAD.1 > self.buckets.len() * Self::WIDTH * Self::LOAD.0 {
            self.grow();
        }
        let added = Self::place(&mut self.buckets, key);
        self.len += added as usize;
        added
    }

    /// How many keys the set holds.
    pub fn len(&self) -> usize {
        self.len + self.has_zero as usize
    }

    /// True when the set holds no key.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Reads the home bucket of each of `keys`, so that inserting them soon after finds
    /// their buckets in the cache. These reads do not wait on one another, so their cache
    /// misses overlap; an insert's read waits on the work between inserts (the writer's
    /// bookkeeping of each row), so those misses come one after another.
    pub fn warm(&self, keys: impl IntoIterator<Item = u128>) {
        let mut folded = 0;
        for key in keys {
            folded ^= self.buckets[Self::home(key, self.buckets.len())].0[0];
        }
        std::hint::black_box(folded);
    }

    /// The bucket where the search for `key` starts: its low 64 bits scaled to `len`
    /// buckets.
    #[inline]
    fn home(key: u128, len: usize) -> usize {
        ((u128::from(key as u64) * len as u128) >> 64) as usize
    }

    /// Puts non-zero `key` in the first free slot from its home bucket on; false when it is
    /// there already. Keys are never removed, so a bucket fills from its first slot, and
    /// the key, if held, comes before the first free slot.
    #[inline]
    fn place(buckets: &mut [Bucket], key: u128) -> bool {
        let mut at = Self::home(key, buckets.len());
        loop {
            for slot in &mut buckets[at].0 {
                if *slot == key {
                    return false;
                }
                if *slot == 0 {
                    *slot = key;
                    return true;
                }
            }
            at = if at + 1 == buckets.len() { 0 } else { at + 1 };
        }
    }

    fn grow(&mut self) {
        self.resize(2 * self.buckets.len());
    }

    fn resize(&mut self, buckets: usize) {
        let old = std::mem::replace(&mut self.buckets, vec![Bucket::default(); buckets]);
        for key in old
            .iter()
            .flat_map(|bucket| bucket.0)
            .filter(|&key| key != 0)
        {
            Self::place(&mut self.buckets, key);
        }
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
    fn one_pass_gives_the_id_and_the_key() {
        let grid =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
        for len in 0..=grid.len() {
            let text = &grid[..len];
            assert_eq!(
                id_and_key(text),
                (puzzle_id(text), dedup_key(text)),
                "{text}"
            );
        }
    }

    #[test]
    fn texts_hashed_together_hash_as_alone() {
        let grid =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
        for len in 0..=grid.len() {
            let texts = [&grid[..len], &grid[grid.len() - len..], &grid[len / 2..len]];
            let bytes = texts.map(str::as_bytes);
            // Equal lengths (the first two) hashed side by side, and unequal ones.
            assert_eq!(
                ids_and_keys([bytes[0], bytes[1]]),
                [0, 1].map(|k| id_and_key(bytes[k]))
            );
            assert_eq!(ids_and_keys(bytes), bytes.map(id_and_key), "{len}");
        }
        assert_eq!(ids_and_keys::<0>([]), []);
    }

    #[test]
    fn ids_tell_puzzles_apart() {
        // The key's high half is the id, so keys tell apart whatever ids do.
        for text in ["", "1.2.", "12345678.1", &"7.".repeat(40)] {
            assert_eq!((dedup_key(text) >> 64) as u64, puzzle_id(text), "{text}");
        }
        assert_ne!(puzzle_id("1.2."), puzzle_id("1..2"));
        assert_ne!(dedup_key("1.2."), dedup_key("1..2"));
        // Texts that differ only past a word boundary, or only in length.
        assert_ne!(dedup_key("12345678.1"), dedup_key("12345678.2"));
        assert_ne!(dedup_key("1234567"), dedup_key("1234567\0"));
        let mut set = KeySet::default();
        assert!(set.insert(dedup_key("1.2.")) && !set.insert(dedup_key("1.2.")));
    }

    #[test]
    fn keys_of_nearly_equal_texts_spread_evenly() {
        // Texts that differ in a few characters: a number written over dots, at one of
        // seven places. Both halves of their keys differ, and the homes the low halves
        // give spread over 2^16 buckets as random ones would: the chi-square statistic of
        // 65,535 degrees of freedom has a deviation of 362, and the bound is six of them.
        let (texts, buckets) = (500_000u64, 1usize << 16);
        let (mut high, mut low) = (std::collections::HashSet::new(), Vec::new());
        let mut counts = vec![0u32; buckets];
        for i in 0..texts {
            let mut text = [b'.'; 81];
            let digits = i.to_string();
            let at = (i % 7) as usize * 9;
            text[at..at + digits.len()].copy_from_slice(digits.as_bytes());
            let key = dedup_key(text);
            high.insert((key >> 64) as u64);
            low.push(key as u64);
            counts[KeySet::home(key, buckets)] += 1;
        }
        low.sort_unstable();
        low.dedup();
        assert_eq!((high.len() as u64, low.len() as u64), (texts, texts));
        let mean = texts as f64 / buckets as f64;
        let chi: f64 = counts
            .iter()
            .map(|&c| (f64::from(c) - mean).powi(2) / mean)
            .sum();
        assert!((chi - (buckets - 1) as f64).abs() < 6.0 * 362.0, "{chi}");
    }

    #[test]
    fn key_sets_hold_each_key_once() {
        // Keys crowded into a few home slots, and the zero key, across several growths.
        let mut set = KeySet::with_capacity(3);
        let keys: Vec<u128> = (0..5_000u128)
            .map(|i| (i % 7) << 64 | (i % 5) << 61 | i)
            .collect();
        for &key in &keys {
            assert!(set.insert(key), "{key:#x} is new");
        }
        for &key in &keys {
            assert!(!set.insert(key), "{key:#x} is there");
        }
        assert_eq!(set.len(), keys.len());
        // Keys whose home is the last bucket pass on to the first.
        let mut wrapping = KeySet::with_capacity(64);
        let last: Vec<u128> = (1..=20).map(|i| u128::from(u64::MAX - i)).collect();
        for &key in &last {
            assert!(wrapping.insert(key));
        }
        assert!(wrapping.buckets[0].0.iter().any(|&slot| slot != 0));
        assert!(last.iter().all(|&key| !wrapping.insert(key)));
        let mut hashed = KeySet::with_capacity(100_000);
        for i in 0..100_000 {
            assert!(hashed.insert(dedup_key(i.to_string())));
        }
        assert!(!hashed.insert(dedup_key("99999")));
        assert_eq!(hashed.len(), 100_000);
        // Reserving room keeps every key, and makes room without a growth on insert.
        let buckets = hashed.buckets.len();
        hashed.reserve(300_000);
        assert!(hashed.buckets.len() > buckets);
        let reserved = hashed.buckets.len();
        for i in 100_000..200_000 {
            assert!(hashed.insert(dedup_key(i.to_string())));
        }
        assert_eq!(hashed.buckets.len(), reserved);
        assert!(!hashed.insert(dedup_key("0")));
        assert_eq!(hashed.len(), 200_000);
    }
}
