//! Random 9×9 grids, built a band at a time from the sets of digits each part may hold.
//!
//! - **Row 1** is a random permutation of the digits.
//! - **Rows 2 and 3.** Call the digits of row 1's three boxes `a`, `b` and `c`. Row 2 holds
//!   every digit once, and none in the box where row 1 has it: so its first box takes some
//!   `k` digits of `b` and `3 − k` of `c`, its second box the other `k` of `c` and `3 − k`
//!   of `a`, its third box what is left of `a` and `b`. Row 3 takes what each box still
//!   lacks. That is C(3, k)³ ways for each `k`, 56 in all ([`split`]); drawing one, and then
//!   an order for each box's three digits in each row, draws the band uniformly among those
//!   with that row 1.
//! - **The columns of bands 2 and 3.** The three columns of a stack stand to their band-1
//!   digits as the boxes of band 1 stand to row 1, so the same 56 splits give the digit sets
//!   of the stack's columns in band 2, and band 3's columns take what each column still
//!   lacks. Any split keeps the lower boxes whole: a digit is in band 1 of a stack once, in
//!   one column, and the split gives it to one other column in band 2 and leaves it to the
//!   third in band 3. Each lower band then has every digit once in each of its boxes and
//!   every column still has each digit once; what remains is to order each column's three
//!   digits over the band's rows so that each row holds every digit.
//! - **The rows of a lower band** ([`rows_of_band`]). Each digit lies in the sets of three
//!   columns, one in each stack, so the first row is a choice of one digit per column, all
//!   different: one always exists (the sets form a 3-regular bipartite graph, which has a
//!   perfect matching), and a walk over the columns that backs up at a dead end finds one.
//!   Every column then has two digits left and every digit two columns, so they form cycles
//!   (a column's two digits lead on to the other column of each). Choosing which digit of
//!   one column goes on the second row fixes its whole cycle; the third row takes the rest.
//!
//! So the only search is the walk along the first row of each lower band, and no fill ever
//! restarts. The grids are not drawn uniformly from all 9×9 grids (each split is drawn with
//! the same chance, however many ways there are to finish it), but any grid can come, and
//! since row 1 is uniform and the rest does not depend on the digits' names, every digit is
//! equally likely in every cell.

use rand::RngCore;

use crate::grid::{Digit, Grid};
use crate::rng::Picks;
use crate::shape::Shape;

/// Every digit of a 9×9 grid.
const ALL: u32 = 0x1ff;

/// A random complete 9×9 grid (`S` must be 9×9), drawn from `rng`.
pub fn fill<S: Shape, R: RngCore>(rng: &mut R) -> Grid<S> {
    debug_assert_eq!(S::N, 9);
    let mut picks = Picks::new(rng);
    // One-bit masks, row-major. Row 1: a permutation.
    let mut cells = [0u32; 81];
    let mut left = ALL;
    for cell in &mut cells[..9] {
        let b = picks.pick_bit(left);
        *cell = b;
        left ^= b;
    }
    // Rows 2 and 3: a split of row 1's parts in the three boxes, each new part in a random
    // order.
    let minirows: [[u32; 3]; 3] = std::array::from_fn(|b| [0, 1, 2].map(|i| cells[3 * b + i]));
    let second = split(&mut picks, &minirows);
    for (b, (minirow, set)) in minirows.iter().zip(second).enumerate() {
        order(&mut picks, set, &mut cells[9 + 3 * b..12 + 3 * b]);
        order(
            &mut picks,
            lacks(minirow) ^ set,
            &mut cells[18 + 3 * b..21 + 3 * b],
        );
    }
    // The digit sets of each column in bands 2 and 3.
    let (mut middle, mut lower) = ([0u32; 9], [0u32; 9]);
    for stack in 0..3 {
        let minicolumns: [[u32; 3]; 3] =
            std::array::from_fn(|c| [0, 9, 18].map(|row| cells[row + 3 * stack + c]));
        let sets = split(&mut picks, &minicolumns);
        for (c, (minicolumn, set)) in minicolumns.iter().zip(sets).enumerate() {
            middle[3 * stack + c] = set;
            lower[3 * stack + c] = lacks(minicolumn) ^ set;
        }
    }
    let (band_2, band_3) = cells[27..].split_at_mut(27);
    rows_of_band(&mut picks, &middle, band_2);
    rows_of_band(&mut picks, &lower, band_3);
    let mut grid = Grid::empty();
    for (cell, &b) in cells.iter().enumerate() {
        grid.set(cell, digit_of_bit(b));
    }
    grid
}

/// The digit of a one-bit mask of a 9×9 grid, from the exponent of the mask as a float:
/// the compiler turns a loop of these into vector instructions, several cells at once (a
/// trailing-zero count is one cell at a time).
#[inline(always)]
fn digit_of_bit(b: u32) -> Digit {
    debug_assert!(b.is_power_of_two() && b <= ALL);
    // 2^k is exact as a float, with exponent field k + 127.
    (((b as i32 as f32).to_bits() >> 23) - 126) as Digit
}

/// The three digits of `triple`, as one mask.
#[inline(always)]
fn union(triple: &[u32; 3]) -> u32 {
    triple[0] | triple[1] | triple[2]
}

/// The six digits a box (or a column) lacks once it holds `triple`.
#[inline(always)]
fn lacks(triple: &[u32; 3]) -> u32 {
    ALL ^ union(triple)
}

/// The 56 splits (see the module docs) as position masks `(x, y, z)` over triples `b`, `c`
/// and `a`: `x` of some `k` positions, `y` and `z` of `3 − k`.
static SPLITS: [(u8, u8, u8); 56] = {
    let mut table = [(0, 0, 0); 56];
    let mut n = 0;
    let mut x = 0u8;
    while x < 8 {
        let mut y = 0u8;
        while y < 8 {
            let mut z = 0u8;
            while z < 8 {
                let k = x.count_ones();
                if y.count_ones() == 3 - k && z.count_ones() == 3 - k {
                    table[n] = (x, y, z);
                    n += 1;
                }
                z += 1;
            }
            y += 1;
        }
        x += 1;
    }
    assert!(n == 56);
    table
};

/// The digits of `triple` at the positions set in `positions`.
#[inline(always)]
fn take(triple: &[u32; 3], positions: u8) -> u32 {
    let at = |i: u8| triple[usize::from(i)] & 0u32.wrapping_sub(u32::from(positions >> i & 1));
    at(0) | at(1) | at(2)
}

/// Given the three disjoint triples `[a, b, c]` of a line (a band's first row, by box; or a
/// stack's first band, by column), the digit sets of the three parts of the next line, drawn
/// uniformly from the 56 ways: part 1 takes `k` digits of `b` and `3 − k` of `c`, part 2 the
/// rest of `c` and `3 − k` of `a`, part 3 the rest of `a` and `b`. Inlined, so that the
/// triples stay where the fill has them: called, a fill took 9% more instructions and 1.09×
/// the time.
#[inline(always)]
fn split<R: RngCore>(picks: &mut Picks<R>, [a, b, c]: &[[u32; 3]; 3]) -> [u32; 3] {
    let (x, y, z) = SPLITS[picks.below(56) as usize];
    let (of_b, of_c, of_a) = (take(b, x), take(c, y), take(a, z));
    [
        of_b | of_c,
        (union(c) ^ of_c) | of_a,
        (union(b) ^ of_b) | (union(a) ^ of_a),
    ]
}

/// Writes the three digits of `set` to `cells` in a random order.
#[inline(always)]
fn order<R: RngCore>(picks: &mut Picks<R>, set: u32, cells: &mut [u32]) {
    let first = picks.pick_bit(set);
    let second = picks.pick_bit(set ^ first);
    cells[0] = first;
    cells[1] = second;
    cells[2] = set ^ first ^ second;
}

/// The order in which the walk of [`rows_of_band`] visits the columns: one from each stack in
/// turn. A later column of the same stack has lost a digit to each earlier one, so going
/// left to right meets more dead ends: the fill took 6% more instructions that way.
const WALK: [usize; 9] = [0, 3, 6, 1, 4, 7, 2, 5, 8];

/// Writes to `rows` (27 cells, row-major) the rows of a band whose columns hold the digit
/// sets `sets`: three digits each, each digit in three columns, one in each stack.
fn rows_of_band<R: RngCore>(picks: &mut Picks<R>, sets: &[u32; 9], rows: &mut [u32]) {
    let (first, rest) = rows.split_at_mut(9);
    let (second, third) = rest.split_at_mut(9);
    // The first row: a walk over the columns in `WALK` order. `after[i]` holds the digits
    // of the columns the walk visits after its `i`-th.
    let mut after = [0u32; 9];
    for i in (0..8).rev() {
        after[i] = after[i + 1] | sets[WALK[i + 1]];
    }
    // What the `i`-th column of the walk may take: a digit the row lacks, and if the row
    // lacks a digit that no later column can take, that one; if two, none.
    let options = |used: u32, i: usize| {
        let needed = ALL & !used;
        let only_here = needed & !after[i];
        let allowed = if only_here == 0 { ALL } else { only_here };
        let allowed = if only_here & only_here.wrapping_sub(1) != 0 {
            0
        } else {
            allowed
        };
        sets[WALK[i]] & needed & allowed
    };
    let mut untried = [0u32; 9];
    let (mut used, mut i) = (0, 0);
    untried[0] = options(0, 0);
    loop {
        if untried[i] == 0 {
            // A dead end. The first column never runs out: a first row exists.
            i -= 1;
            used ^= first[WALK[i]];
            continue;
        }
        let b = picks.pick_bit(untried[i]);
        untried[i] ^= b;
        first[WALK[i]] = b;
        used |= b;
        i += 1;
        if i == 9 {
            break;
        }
        untried[i] = options(used, i);
    }
    // The digits left in each column, and the two columns each digit is left in.
    let mut pairs = [0u32; 9];
    let mut columns = [0u32; 9];
    for (j, (pair, (&set, &taken))) in pairs
        .iter_mut()
        .zip(sets.iter().zip(first.iter()))
        .enumerate()
    {
        *pair = set ^ taken;
        columns[pair.trailing_zeros() as usize] |= 1 << j;
        columns[(31 - pair.leading_zeros()) as usize] |= 1 << j;
    }
    // The second and third rows, a cycle at a time: a column that puts digit `here` on the
    // second row puts its other digit on the third, so that digit's other column puts it on
    // the second.
    let mut done = 0u32;
    for start in 0..9 {
        if done >> start & 1 != 0 {
            continue;
        }
        let (mut column, mut here) = (start, picks.pick_bit(pairs[start]));
        loop {
            let other = pairs[column] ^ here;
            second[column] = here;
            third[column] = other;
            done |= 1 << column;
            column = (columns[other.trailing_zeros() as usize] & !(1 << column)).trailing_zeros()
                as usize;
            if done >> column & 1 != 0 {
                break;
            }
            here = other;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::attempt_rng;
    use crate::shape::Nine;

    #[test]
    fn splits_are_the_56_ways_and_keep_each_part_whole() {
        let mut seen = std::collections::HashSet::new();
        for &(x, y, z) in &SPLITS {
            assert!(seen.insert((x, y, z)));
            assert_eq!(y.count_ones(), 3 - x.count_ones());
            assert_eq!(z.count_ones(), y.count_ones());
        }
        // Row 1 = 1 2 3 | 4 5 6 | 7 8 9: every split gives each box of row 2 three digits
        // it lacks, and the row every digit once.
        let triples = [[1, 2, 4], [8, 16, 32], [64, 128, 256]];
        let mut rng = attempt_rng(3, 0);
        let mut picks = Picks::new(&mut rng);
        for _ in 0..200 {
            let parts = split(&mut picks, &triples);
            assert_eq!(parts[0] | parts[1] | parts[2], ALL);
            for (part, triple) in parts.iter().zip(&triples) {
                assert_eq!(part.count_ones(), 3);
                assert_eq!(part & !lacks(triple), 0);
            }
        }
    }

    #[test]
    fn band_one_takes_each_kind_of_split_as_often_as_its_ways() {
        // How many digits of row 2's first box come from row 1's second box: k = 0 or 3 in
        // 1 of the 56 splits each, 1 or 2 in 27 each.
        let mut seen = [0u32; 4];
        for index in 0..5600 {
            let grid = fill::<Nine, _>(&mut attempt_rng(9, index));
            let box_2: Vec<u8> = (3..6).map(|cell| grid.get(cell)).collect();
            let k = (9..12)
                .filter(|&cell| box_2.contains(&grid.get(cell)))
                .count();
            seen[k] += 1;
        }
        // 100 and 2,700 expected; the bounds are five deviations out.
        assert!(
            (50..=150).contains(&seen[0]) && (50..=150).contains(&seen[3]),
            "{seen:?}"
        );
        assert!(
            (2515..=2885).contains(&seen[1]) && (2515..=2885).contains(&seen[2]),
            "{seen:?}"
        );
    }

    #[test]
    fn digits_come_from_the_exponent_of_each_bit() {
        for d in 1..=9 {
            assert_eq!(digit_of_bit(1 << (d - 1)), d);
        }
    }

    #[test]
    fn fills_are_solutions_and_repeat_from_the_same_stream() {
        for index in 0..2000 {
            let grid = fill::<Nine, _>(&mut attempt_rng(8, index));
            assert!(grid.is_solution(), "{grid}");
            assert_eq!(fill::<Nine, _>(&mut attempt_rng(8, index)), grid);
        }
    }
}
