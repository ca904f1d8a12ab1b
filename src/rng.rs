//! The random stream of each attempt (SPEC "Determinism").
//!
//! Attempt `i` of a batch with master seed `s` draws from xoshiro256++ whose 256-bit state is
//! four consecutive SplitMix64 outputs, starting from `mix(s) ^ mix(i ^ INDEX_DOMAIN)` where
//! `mix` is the SplitMix64 finaliser. `mix` is a bijection, so distinct indices under one
//! seed never share a starting state. The stream depends on `(s, i)` alone — not on threads,
//! timing or what other attempts drew — which is what makes a bank reproducible at any
//! `--threads`, and any single row reproducible from its `seed` and `index`.
//!
//! The helpers here ([`below`], [`shuffle`], [`pick_bit`], [`Picks`]) are written out rather
//! than taken from `rand`'s distributions so the mapping from stream to choices is pinned by
//! this crate.

use rand::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The generator every attempt uses.
pub type AttemptRng = Xoshiro256PlusPlus;

const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;
const INDEX_DOMAIN: u64 = 0xD1B5_4A32_D192_ED03;
const CHOICE_DOMAIN: u64 = 0x8CB9_2BA7_2F3D_8DD7;

/// The SplitMix64 finaliser: a bijective 64-bit mix.
pub const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The random stream of attempt `index` under master seed `seed`.
pub fn attempt_rng(seed: u64, index: u64) -> AttemptRng {
    let mut state = mix64(seed) ^ mix64(index ^ INDEX_DOMAIN);
    let mut bytes = [0u8; 32];
    for word in bytes.chunks_exact_mut(8) {
        state = state.wrapping_add(GOLDEN_GAMMA);
        word.copy_from_slice(&mix64(state).to_le_bytes());
    }
    AttemptRng::from_seed(bytes)
}

/// A number fixed by `(seed, index)` alone, apart from the attempt's stream: what an attempt
/// chooses before it starts drawing (the symmetry of a `random` pattern), so that the stream
/// is the same whatever was chosen.
pub fn attempt_choice(seed: u64, index: u64) -> u64 {
    mix64(mix64(seed ^ CHOICE_DOMAIN) ^ mix64(index))
}

/// A uniform integer in `0..n` (`n > 0`), by Lemire's multiply-and-reject method.
#[inline]
pub fn below<R: RngCore + ?Sized>(rng: &mut R, n: u32) -> u32 {
    debug_assert!(n > 0);
    let mut m = u64::from(rng.next_u32()) * u64::from(n);
    if (m as u32) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u32) < threshold {
            m = u64::from(rng.next_u32()) * u64::from(n);
        }
    }
    (m >> 32) as u32
}

/// Shuffles `items` uniformly (Fisher–Yates).
pub fn shuffle<R: RngCore + ?Sized, T>(rng: &mut R, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = below(rng, i as u32 + 1) as usize;
        items.swap(i, j);
    }
}

/// One set bit of `mask` (non-zero), each with equal chance: the `k`-th lowest for a `k`
/// drawn by [`below`].
#[inline]
pub fn pick_bit<R: RngCore + ?Sized>(rng: &mut R, mut mask: u32) -> u32 {
    debug_assert!(mask != 0);
    let k = below(rng, mask.count_ones());
    if let Some(nth) = NTH_BIT_9.get(mask as usize) {
        return u32::from(nth[k as usize & 15]);
    }
    for _ in 0..k {
        mask &= mask - 1;
    }
    mask & mask.wrapping_neg()
}

/// Small choices drawn several to one 64-bit output, for the 9×9 fill, which makes one per
/// cell or so: each draw multiplies the output's unused fraction by the number of options
/// and takes the integer part (Lemire's method, chained, without rejection), and a fresh
/// output comes every [`Self::PER_OUTPUT`] draws. With at most 56 options a draw, the product
/// of the option counts drawn from one output is at most 56⁴ < 2²⁴, so each choice is uniform
/// to within 2⁻⁴⁰, for a quarter of the generator steps of [`pick_bit`].
#[derive(Debug)]
pub struct Picks<'a, R: RngCore> {
    rng: &'a mut R,
    fraction: u64,
    left: u32,
}

impl<'a, R: RngCore> Picks<'a, R> {
    /// Draws per 64-bit output.
    pub const PER_OUTPUT: u32 = 4;

    /// Choices drawn from `rng`.
    pub fn new(rng: &'a mut R) -> Self {
        Picks {
            rng,
            fraction: 0,
            left: 0,
        }
    }

    /// One set bit of `mask` (non-zero, 9 bits at most), each with equal chance.
    #[inline]
    pub fn pick_bit(&mut self, mask: u32) -> u32 {
        debug_assert!(mask != 0 && mask < 1 << 9);
        let k = self.below(mask.count_ones()) as usize;
        u32::from(NTH_BIT_9[mask as usize & 511][k & 15])
    }

    /// A number in `0..n` (`1 ≤ n ≤ 56`), each with equal chance.
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        debug_assert!((1..=56).contains(&n));
        if self.left == 0 {
            self.fraction = self.rng.next_u64();
            self.left = Self::PER_OUTPUT;
        }
        self.left -= 1;
        let wide = u128::from(self.fraction) * u128::from(n);
        self.fraction = wide as u64;
        (wide >> 64) as u32
    }
}

/// For every 9-bit mask, its `k`-th lowest set bit, alone: [`pick_bit`] and
/// [`Picks::pick_bit`] on 4×4 and 9×9 without a loop. Sixteen places a mask, so that `k & 15`
/// needs no bounds check: clamping `k` to 8 took 2% of a complete grid's instructions. The
/// bit itself rather than its index saves a shift a draw.
static NTH_BIT_9: [[u16; 16]; 512] = {
    let mut table = [[0u16; 16]; 512];
    let mut mask = 0;
    while mask < 512 {
        let (mut k, mut bit) = (0, 0);
        while bit < 9 {
            if mask >> bit & 1 != 0 {
                table[mask][k] = 1 << bit;
                k += 1;
            }
            bit += 1;
        }
        mask += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_pinned() {
        // First outputs computed independently from the description in the module docs.
        // Changing them changes every bank ever written.
        assert_eq!(attempt_rng(0, 0).next_u64(), 0x7b9a_6f88_82a4_438a);
        assert_eq!(attempt_rng(42, 7).next_u64(), 0xc63f_f904_5ed5_e348);
    }

    #[test]
    fn the_nth_bit_table_matches_clearing_bits() {
        for mask in 1..512u32 {
            let mut rest = mask;
            let ones = mask.count_ones() as usize;
            for &bit in &NTH_BIT_9[mask as usize][..ones] {
                assert_eq!(u32::from(bit), rest & rest.wrapping_neg());
                rest &= rest - 1;
            }
        }
    }

    #[test]
    fn pick_bit_takes_the_kth_lowest_bit_for_k_drawn_by_below() {
        let mut masks = attempt_rng(9, 9);
        for _ in 0..5000 {
            // Up to 25 bits, as 25×25 digit masks have.
            let mask = (masks.next_u32() & ((1 << 25) - 1)).max(1);
            let (mut rng, mut same) = (
                attempt_rng(4, u64::from(mask)),
                attempt_rng(4, u64::from(mask)),
            );
            let mut rest = mask;
            for _ in 0..below(&mut same, mask.count_ones()) {
                rest &= rest - 1;
            }
            assert_eq!(
                pick_bit(&mut rng, mask),
                rest & rest.wrapping_neg(),
                "{mask:#b}"
            );
        }
    }

    #[test]
    fn picks_are_uniform_over_the_mask() {
        let mut rng = attempt_rng(3, 3);
        let mut picks = Picks::new(&mut rng);
        let mask = 0b1_0110_1001;
        let mut seen = [0u32; 9];
        for _ in 0..10_000 {
            let bit = picks.pick_bit(mask);
            assert!(bit.is_power_of_two() && bit & mask != 0);
            seen[bit.trailing_zeros() as usize] += 1;
        }
        for (i, &count) in seen.iter().enumerate() {
            if mask >> i & 1 == 1 {
                assert!((1800..2200).contains(&count), "{seen:?}");
            } else {
                assert_eq!(count, 0);
            }
        }
    }

    #[test]
    fn picks_below_56_are_uniform_and_take_four_to_an_output() {
        let mut rng = attempt_rng(3, 4);
        let mut seen = [0u32; 56];
        let mut picks = Picks::new(&mut rng);
        for _ in 0..56_000 {
            seen[picks.below(56) as usize] += 1;
        }
        assert!(seen.iter().all(|&n| (820..1180).contains(&n)), "{seen:?}");
        // 56,000 draws, four to an output: the stream moved on by 14,000 outputs.
        let mut same = attempt_rng(3, 4);
        for _ in 0..14_000 {
            same.next_u64();
        }
        assert_eq!(rng.next_u64(), same.next_u64());
    }

    #[test]
    fn streams_differ_by_seed_and_index() {
        let first = |s, i| attempt_rng(s, i).next_u64();
        assert_ne!(first(1, 0), first(1, 1));
        assert_ne!(first(1, 0), first(2, 0));
        // Not `seed ^ index`: swapping the two must give another stream.
        assert_ne!(first(1, 2), first(2, 1));
        assert_ne!(first(3, 0), first(0, 3));
    }

    #[test]
    fn below_and_pick_bit_stay_in_range() {
        let mut rng = attempt_rng(7, 7);
        let mut seen = [0u32; 5];
        for _ in 0..5000 {
            seen[below(&mut rng, 5) as usize] += 1;
            let bit = pick_bit(&mut rng, 0b1011_0000);
            assert!(bit.is_power_of_two() && bit & 0b1011_0000 != 0);
        }
        assert!(seen.iter().all(|&k| (800..1200).contains(&k)), "{seen:?}");
        let mut items: Vec<u32> = (0..50).collect();
        shuffle(&mut rng, &mut items);
        let mut sorted = items.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
        assert_ne!(items, sorted);
    }
}
