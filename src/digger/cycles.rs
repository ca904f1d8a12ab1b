//! The short cycles of permutations of a line's places: what a grid's small unavoidable sets
//! are made of (see `sets`). A permutation of up to 16 places is composed with another, and
//! raised to its second, third and fourth powers, by byte shuffles on x86-64 (SSSE3, which
//! every x86-64-v2 processor has); longer ones, and other processors, take a loop.

use std::ops::RangeInclusive;

/// Places a permutation may move: the 25 of a 25×25 line, rounded up.
const PLACES: usize = 32;

/// A permutation of the places `0..n` of a line (`n ≤ 25`): place `k` goes to `self.0[k]`.
/// Places from `n` up stay where they are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Perm(pub(super) [u8; PLACES]);

/// A composed permutation and the places its short cycles hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Cycles {
    /// The permutation and its second and third powers: where each place is after one, two
    /// and three steps.
    pub(super) powers: [Perm; 3],
    /// The places back where they began after 2, 3 and 4 steps, one bit each: on cycles of
    /// 1 or 2 places, of 1 or 3, and of 1, 2 or 4.
    pub(super) back: [u32; 3],
}

impl Perm {
    /// Every place where it is.
    pub(super) const IDENTITY: Perm = {
        let mut places = [0u8; PLACES];
        let mut k = 0;
        while k < PLACES {
            places[k] = k as u8;
            k += 1;
        }
        Perm(places)
    };
}

impl Default for Perm {
    fn default() -> Self {
        Perm::IDENTITY
    }
}

impl Cycles {
    /// `outer` after `inner` (place `k` goes to `outer[inner[k]]`), for permutations of the
    /// places `0..n`, and its short cycles.
    #[inline(always)]
    pub(super) fn of(outer: &Perm, inner: &Perm, n: usize) -> Cycles {
        #[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
        if n <= 16 {
            // SAFETY: the build enables SSSE3 (checked by the `cfg` above), the only target
            // feature `shuffled` needs.
            let mut cycles = unsafe { shuffled(outer, inner) };
            // Places from `n` on stay put, so they are back after any number of steps.
            for back in &mut cycles.back {
                *back &= (1 << n) - 1;
            }
            return cycles;
        }
        looped(outer, inner, n)
    }

    /// The places on cycles of the given lengths (from 2 to 4), one bit each.
    #[inline(always)]
    pub(super) fn on_cycles_of(&self, lengths: RangeInclusive<usize>) -> u32 {
        let [two, three, four] = self.back;
        lengths.fold(0, |places, length| {
            places
                | match length {
                    2 => two,
                    3 => three,
                    4 => four & !two,
                    _ => panic!("cycles of {length} places are not found"),
                }
        })
    }

    /// The places of the cycle that holds place `start`, one bit each (at most four steps
    /// are taken: `start` is on a cycle of four places or fewer).
    #[inline(always)]
    pub(super) fn cycle_of(&self, start: usize) -> u32 {
        self.powers
            .iter()
            .fold(1 << start, |places, power| places | 1 << power.0[start])
    }
}

/// [`Cycles::of`] one place at a time.
fn looped(outer: &Perm, inner: &Perm, n: usize) -> Cycles {
    // Lane k of the result: outer[inner[k]].
    let compose = |outer: &Perm, inner: &Perm| {
        let mut perm = Perm::IDENTITY;
        for k in 0..n {
            perm.0[k] = outer.0[inner.0[k] as usize];
        }
        perm
    };
    let p1 = compose(outer, inner);
    let p2 = compose(&p1, &p1);
    let p3 = compose(&p1, &p2);
    let p4 = compose(&p2, &p2);
    let back = |p: Perm| (0..n).fold(0, |back, k| back | ((p.0[k] as usize == k) as u32) << k);
    Cycles {
        powers: [p1, p2, p3],
        back: [back(p2), back(p3), back(p4)],
    }
}

/// [`Cycles::of`] for up to 16 places by byte shuffles: one composes two permutations.
#[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
#[target_feature(enable = "ssse3")]
fn shuffled(outer: &Perm, inner: &Perm) -> Cycles {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_cvtsi128_si64, _mm_movemask_epi8, _mm_set_epi64x,
        _mm_shuffle_epi8, _mm_srli_si128,
    };
    let load = |perm: &Perm| {
        let half = |h: usize| {
            let bytes: [u8; 8] = perm.0[8 * h..8 * h + 8].try_into().expect("eight bytes");
            i64::from_le_bytes(bytes)
        };
        _mm_set_epi64x(half(1), half(0))
    };
    // Lane k of the result: outer[inner[k]].
    let compose = |outer: __m128i, inner: __m128i| _mm_shuffle_epi8(outer, inner);
    let identity = load(&Perm::IDENTITY);
    let p1 = compose(load(outer), load(inner));
    let p2 = compose(p1, p1);
    let p3 = compose(p1, p2);
    let p4 = compose(p2, p2);
    let back = |p: __m128i| _mm_movemask_epi8(_mm_cmpeq_epi8(p, identity)) as u32;
    let store = |p: __m128i| {
        let mut perm = Perm::IDENTITY;
        perm.0[..8].copy_from_slice(&_mm_cvtsi128_si64(p).to_le_bytes());
        perm.0[8..16].copy_from_slice(&_mm_cvtsi128_si64(_mm_srli_si128::<8>(p)).to_le_bytes());
        perm
    };
    Cycles {
        powers: [store(p1), store(p2), store(p3)],
        back: [back(p2), back(p3), back(p4)],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{attempt_rng, shuffle};

    /// A random permutation of `0..n`.
    fn random(rng: &mut impl rand::RngCore, n: usize) -> Perm {
        let mut perm = Perm::default();
        shuffle(rng, &mut perm.0[..n]);
        perm
    }

    #[test]
    fn cycles_come_from_powers() {
        let mut rng = attempt_rng(8, 0);
        for n in [4, 9, 16, 25] {
            for _ in 0..2_000 {
                let (outer, inner) = (random(&mut rng, n), random(&mut rng, n));
                let cycles = Cycles::of(&outer, &inner, n);
                assert_eq!(cycles, looped(&outer, &inner, n));
                let perm = cycles.powers[0];
                for k in 0..n {
                    assert_eq!(perm.0[k], outer.0[inner.0[k] as usize]);
                    // The length of k's cycle, by walking it.
                    let (mut len, mut at) = (1, perm.0[k] as usize);
                    while at != k {
                        len += 1;
                        at = perm.0[at] as usize;
                    }
                    for (steps, back) in [2, 3, 4].into_iter().zip(cycles.back) {
                        assert_eq!(back >> k & 1 != 0, steps % len == 0, "n {n}, place {k}");
                    }
                    if len <= 4 {
                        assert_eq!(cycles.cycle_of(k).count_ones(), len);
                    }
                }
            }
        }
    }
}
