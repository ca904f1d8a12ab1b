//! Fish: X-Wing, Swordfish and Jellyfish.

use super::subsets::covering_subsets;
use crate::rating::logic::{Found, Logic};
use crate::shape::Shape;

/// Fish of size `k` (X-Wing, Swordfish, Jellyfish): a digit whose places in `k` rows lie in
/// `k` columns between them leaves those columns' other cells; and the same with rows and
/// columns swapped. Looks at the digits of the mask `digits` alone.
pub(super) fn fish<S: Shape>(logic: &Logic<S>, k: u32, digits: u32, found: &mut Found<'_, S>) {
    // Every line's places for every digit, read once: lines are units `0..2N`.
    let mut lines_places = S::units([0u32; 32]);
    for (line, places) in lines_places.as_mut()[..2 * S::N].iter_mut().enumerate() {
        *places = logic.unit_places(line);
    }
    for d in (0..S::N).filter(|d| digits >> d & 1 != 0) {
        let bit = 1u32 << d;
        for (base, cover) in [(0, S::N), (S::N, 0)] {
            let mut places = [0u32; 32];
            for (l, places) in places.iter_mut().enumerate().take(S::N) {
                *places = lines_places.as_ref()[base + l][d];
            }
            // Base lines where the digit is missing, with 2..=k places.
            let lines = (0..S::N)
                .filter(|&l| (2..=k).contains(&places[l].count_ones()))
                .fold(0u32, |m, l| m | 1 << l);
            if lines.count_ones() < k {
                continue;
            }
            let done = covering_subsets(lines, k, &places, &mut |chosen, covers| {
                let mut removal = S::cells(0u32);
                let mut any = false;
                for c in (0..S::N).filter(|&c| covers >> c & 1 != 0) {
                    for (l, &cell) in S::unit(cover + c).iter().enumerate() {
                        let cell = cell as usize;
                        if chosen >> l & 1 == 0 && logic.cand[cell] & bit != 0 {
                            removal[cell] = bit;
                            any = true;
                        }
                    }
                }
                any && found(logic, &removal, 0)
            });
            if done {
                return;
            }
        }
    }
}
