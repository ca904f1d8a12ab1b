//! Templates: the ways one digit can fill the grid, one cell in every row, column and box,
//! among its candidates and the cells it is placed in.
//!
//! Every technique that reasons about one digit alone (locked candidates, fish, turbot fish,
//! empty rectangles, chains of strong links: the searches by digit of the technique table)
//! removes only candidates that no template holds, as it shows that the digit cannot go
//! there whatever the other digits do. So a digit whose every candidate lies in some
//! template offers those techniques nothing, and a rating path need not run them on it.
//! Finding a template through each candidate takes a few short searches, where the
//! techniques each look at every unit, line pair or link of the digit.

use crate::rating::logic::Logic;
use crate::shape::Shape;

/// The largest grid side the templates work on (25×25).
const SIDE: usize = 25;

/// Rows a template search may fill, in all, before it gives up; it then says "no template",
/// which only means that the techniques run. A search that finds none fills at most 51 rows
/// on the Sudoku Exchange set and 491 on 230 dug 16×16 puzzles.
const BUDGET: u32 = 20_000;

/// Of `digits`, those whose every candidate lies in a template.
pub(super) fn covered_digits<S: Shape>(logic: &Logic<S>, digits: u32) -> u32 {
    let n = S::N;
    let mut covered = 0;
    let mut rest = digits;
    while rest != 0 {
        let d = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        // Per row: the columns of the digit's candidates, and of its placed cell.
        let (mut candidates, mut placed) = ([0u32; SIDE], [0u32; SIDE]);
        for r in 0..n {
            let row = &logic.cand.as_ref()[r * n..][..n];
            candidates[r] = row
                .iter()
                .enumerate()
                .fold(0, |columns, (c, &cand)| columns | (cand >> d & 1) << c);
            let values = &logic.value.as_ref()[r * n..][..n];
            placed[r] = values.iter().enumerate().fold(0, |columns, (c, &value)| {
                columns | u32::from(usize::from(value) == d + 1) << c
            });
        }
        if all_in_templates::<S>(&candidates, &placed) {
            covered |= 1 << d;
        }
    }
    covered
}

/// Whether every candidate (`candidates`: per row, the columns) lies in a template, given
/// the cells the digit is placed in (`placed`, likewise).
fn all_in_templates<S: Shape>(candidates: &[u32; SIDE], placed: &[u32; SIDE]) -> bool {
    let mut options = [0u32; SIDE];
    for (r, options) in options.iter_mut().enumerate().take(S::N) {
        *options = candidates[r] | placed[r];
    }
    let mut uncovered = *candidates;
    while let Some(r) = (0..S::N).find(|&r| uncovered[r] != 0) {
        let mut through = options;
        through[r] = uncovered[r] & uncovered[r].wrapping_neg();
        let Some(template) = template::<S>(&through) else {
            return false;
        };
        for (uncovered, &column) in uncovered.iter_mut().zip(&template) {
            *uncovered &= !column;
        }
    }
    true
}

/// A template within `options` (per row, the columns the digit may take there), as the
/// column bit each row takes; `None` when there is none or the search ran past [`BUDGET`].
/// Rows are filled fewest options first, and a choice that leaves a later row without an
/// option is taken back at once.
fn template<S: Shape>(options: &[u32; SIDE]) -> Option<[u32; SIDE]> {
    let (n, side) = (S::N, S::BOX);
    let stack = (1u32 << side) - 1;
    // The columns of each set of stacks (bit `j` for stack `j`).
    let mut stack_columns = [0u32; 1 << 5];
    for (stacks, columns) in stack_columns.iter_mut().enumerate().take(1 << side) {
        *columns = (0..side)
            .filter(|j| stacks >> j & 1 != 0)
            .fold(0, |columns, j| columns | stack << (j * side));
    }
    // The columns each band's rows can no longer take, given the columns and boxes taken.
    let blocked = |columns: u32, boxes: u32| {
        let mut blocked = [0u32; 5];
        for (band, blocked) in blocked.iter_mut().enumerate().take(side) {
            *blocked = columns | stack_columns[(boxes >> (band * side) & stack) as usize];
        }
        blocked
    };
    // The rows by their number of options, ties by row: each row's place in that order is
    // counted without a branch (a sort's comparisons follow the grid, and mispredict).
    let mut counts = [0u32; SIDE];
    for (count, &options) in counts.iter_mut().zip(options).take(n) {
        *count = options.count_ones();
    }
    let mut order = [0usize; SIDE];
    for row in 0..n {
        let key = counts[row];
        let place = (0..n).fold(0, |place, other| {
            let count = counts[other];
            place + usize::from(count < key || count == key && other < row)
        });
        order[place] = row;
    }
    // Per depth: the options left to try, and the columns and boxes taken before it.
    let (mut left, mut columns, mut boxes) = ([0u32; SIDE], [0u32; SIDE + 1], [0u32; SIDE + 1]);
    let mut chosen = [0u32; SIDE];
    let mut depth = 0;
    left[0] = options[order[0]];
    let mut budget = BUDGET;
    loop {
        if left[depth] == 0 {
            if depth == 0 {
                return None;
            }
            depth -= 1;
            continue;
        }
        budget = budget.checked_sub(1)?;
        let bit = left[depth] & left[depth].wrapping_neg();
        left[depth] ^= bit;
        let row = order[depth];
        chosen[row] = bit;
        let b = row / side * side + bit.trailing_zeros() as usize / side;
        let (taken, boxed) = (columns[depth] | bit, boxes[depth] | 1 << b);
        if depth + 1 == n {
            return Some(chosen);
        }
        let blocked = blocked(taken, boxed);
        if order[depth + 1..n]
            .iter()
            .all(|&later| options[later] & !blocked[later / side] != 0)
        {
            depth += 1;
            (columns[depth], boxes[depth]) = (taken, boxed);
            left[depth] = options[order[depth]] & !blocked[order[depth] / side];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{Four, Nine};
    use rand::RngCore;

    /// Every template within `options`, by trying every column in every row.
    fn all_templates<S: Shape>(options: &[u32; SIDE]) -> Vec<[u32; SIDE]> {
        fn go<S: Shape>(
            row: usize,
            options: &[u32; SIDE],
            chosen: &mut [u32; SIDE],
            found: &mut Vec<[u32; SIDE]>,
        ) {
            if row == S::N {
                found.push(*chosen);
                return;
            }
            for c in 0..S::N {
                let clash = (0..row).any(|r| {
                    let other = chosen[r].trailing_zeros() as usize;
                    other == c || (r / S::BOX == row / S::BOX && other / S::BOX == c / S::BOX)
                });
                if options[row] >> c & 1 != 0 && !clash {
                    chosen[row] = 1 << c;
                    go::<S>(row + 1, options, chosen, found);
                }
            }
        }
        let mut found = Vec::new();
        go::<S>(0, options, &mut [0; SIDE], &mut found);
        found
    }

    /// On candidate patterns made of a few random templates, at times with a cell or two
    /// more, and some with a placed cell (a row of one option), a template is found exactly
    /// when one exists and is one, and the candidates are all covered exactly when every
    /// one lies in a template.
    fn against_enumeration<S: Shape>(patterns: usize) -> [usize; 2] {
        let mut rng = crate::rng::attempt_rng(17, S::N as u64);
        let every_template = all_templates::<S>(&[(1 << S::N) - 1; SIDE]);
        let mut seen = [0; 2];
        for _ in 0..patterns {
            let (mut candidates, mut placed) = ([0u32; SIDE], [0u32; SIDE]);
            for _ in 0..1 + rng.next_u32() % 4 {
                let template = every_template[rng.next_u32() as usize % every_template.len()];
                for (row, &column) in candidates.iter_mut().zip(&template) {
                    *row |= column;
                }
            }
            for _ in 0..rng.next_u32() % 3 {
                candidates[rng.next_u32() as usize % S::N] |= 1 << (rng.next_u32() as usize % S::N);
            }
            if rng.next_u32().is_multiple_of(3) {
                let r = rng.next_u32() as usize % S::N;
                placed[r] = candidates[r] & candidates[r].wrapping_neg();
                candidates[r] = 0;
            }
            let mut options = [0u32; SIDE];
            for r in 0..S::N {
                options[r] = candidates[r] | placed[r];
            }
            let templates = all_templates::<S>(&options);
            match template::<S>(&options) {
                Some(found) => assert!(templates.contains(&found), "{options:?}"),
                None => assert!(templates.is_empty(), "{options:?}"),
            }
            let union = templates.iter().fold([0u32; SIDE], |mut union, t| {
                for (u, &c) in union.iter_mut().zip(t) {
                    *u |= c;
                }
                union
            });
            let every = (0..S::N).all(|r| candidates[r] & !union[r] == 0);
            assert_eq!(
                all_in_templates::<S>(&candidates, &placed),
                every,
                "{options:?}"
            );
            seen[every as usize] += 1;
        }
        seen
    }

    #[test]
    fn templates_are_those_an_enumeration_finds() {
        let [uncovered, covered] = against_enumeration::<Four>(2000);
        assert!(uncovered > 100 && covered > 100, "{uncovered} {covered}");
        let [uncovered, covered] = against_enumeration::<Nine>(3000);
        assert!(uncovered > 100 && covered > 100, "{uncovered} {covered}");
    }
}
