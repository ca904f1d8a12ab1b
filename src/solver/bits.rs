//! Candidate masks: bit `d - 1` of a `u32` stands for digit `d`, which covers all sizes up
//! to 25×25 in one machine word.

use crate::grid::Digit;

/// The mask holding only `digit` (`1..=N`).
#[inline(always)]
pub const fn bit(digit: Digit) -> u32 {
    1 << (digit - 1)
}

/// The digit of a one-bit mask.
#[inline(always)]
pub const fn digit(single: u32) -> Digit {
    single.trailing_zeros() as Digit + 1
}

/// True when `mask` has at most one bit set (callers rule out zero where it matters).
#[inline(always)]
pub const fn at_most_one(mask: u32) -> bool {
    mask & mask.wrapping_sub(1) == 0
}

/// The lowest set bit of `mask` (0 for 0).
#[inline(always)]
pub const fn lowest(mask: u32) -> u32 {
    mask & mask.wrapping_neg()
}

/// A mask of the `bits` lowest bits (`bits ≤ 64`).
#[inline(always)]
pub const fn low_bits(bits: usize) -> u64 {
    if bits == 64 {
        u64::MAX
    } else {
        (1 << bits) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks() {
        assert_eq!(bit(1), 1);
        assert_eq!(bit(25), 1 << 24);
        assert_eq!(digit(bit(17)), 17);
        assert!(at_most_one(0) && at_most_one(8) && !at_most_one(12));
        assert_eq!(lowest(12), 4);
    }
}
