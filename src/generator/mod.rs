//! Random complete grids, by one of two strategies chosen by size.
//!
//! 9×9 grids are built a band at a time (`bands.rs`): the digits each box and column of a
//! band may hold are drawn as sets, and only the first row of each lower band is searched
//! for. No 9×9 fill ever starts again.
//!
//! On other sizes the diagonal boxes are filled with random permutations of the digits (they
//! share no row or column, so any choice is consistent) and the size's search engine
//! completes the rest, trying candidates in an order drawn from the stream (on 4×4, from the
//! first box alone). Such a search has a budget of branches: it can wander into a subtree
//! with no solution, and a fill that runs out of budget starts again (a *restart*, counted by
//! the `fill_restarts` statistic), which keeps the tail of the fill time short.

mod bands;

use rand::RngCore;

use crate::grid::{Digit, Grid};
use crate::rng::shuffle;
use crate::shape::Shape;
use crate::solver::{Engine, Outcome, Random};

/// Branches a fill by the search engine may take before it starts again.
fn fill_budget<S: Shape>() -> u64 {
    S::CELLS as u64
}

/// A random complete grid, drawn from `rng`. Returns the grid and how many restarts it took.
pub fn fill<S: Shape, R: RngCore>(solver: &mut impl Engine<S>, rng: &mut R) -> (Grid<S>, u64) {
    if S::N == 9 {
        return (bands::fill(rng), 0);
    }
    let mut restarts = 0;
    loop {
        let start = diagonal_boxes::<S, R>(rng);
        if let Outcome::Solutions(1) = solver.complete(&start, fill_budget::<S>(), &mut Random(rng))
        {
            return (solver.solution(), restarts);
        }
        restarts += 1;
    }
}

/// A grid whose diagonal boxes hold random permutations of the digits and whose other cells
/// are empty. The diagonal boxes share no row or column, so any such grid is consistent. On
/// 4×4 only the first box is filled: half of all pairs of diagonal boxes have no completion.
fn diagonal_boxes<S: Shape, R: RngCore>(rng: &mut R) -> Grid<S> {
    let mut grid = Grid::<S>::empty();
    let mut digits: S::Cells<Digit> = S::cells(0);
    let digits = &mut digits.as_mut()[..S::N];
    let boxes = if S::BOX == 2 { 1 } else { S::BOX };
    for b in 0..boxes {
        for (i, d) in digits.iter_mut().enumerate() {
            *d = i as Digit + 1;
        }
        shuffle(rng, digits);
        let box_unit = 2 * S::N + b * S::BOX + b;
        for (&cell, &d) in S::unit(box_unit).iter().zip(digits.iter()) {
            grid.set(cell as usize, d);
        }
    }
    grid
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::attempt_rng;
    use crate::shape::{Four, Nine, Sixteen, TwentyFive};
    use crate::solver::Solver;

    fn fills<S: Shape>(attempts: u64) {
        let mut solver = Solver::<S>::new();
        let mut previous = Grid::<S>::empty();
        for index in 0..attempts {
            let (grid, _) = fill(&mut solver, &mut attempt_rng(5, index));
            assert!(grid.is_solution(), "{grid}");
            assert_ne!(grid, previous);
            previous = grid;
            // Same stream, same grid.
            assert_eq!(fill(&mut solver, &mut attempt_rng(5, index)).0, grid);
        }
    }

    #[test]
    fn nine_by_nine_fills_spread_every_digit_over_the_grid() {
        let mut solver = Solver::<Nine>::new();
        let mut seen = [[0u32; 9]; 3];
        for index in 0..1800 {
            let (grid, _) = fill(&mut solver, &mut attempt_rng(11, index));
            assert!(grid.is_solution(), "{grid}");
            for (counts, cell) in seen.iter_mut().zip([0, 40, 80]) {
                counts[usize::from(grid.get(cell)) - 1] += 1;
            }
        }
        // 200 of each digit expected in each cell; 60 is four and a half deviations.
        for counts in seen {
            assert!(
                counts.iter().all(|&n| (140..=260).contains(&n)),
                "{counts:?}"
            );
        }
    }

    #[test]
    fn fills_every_size() {
        fills::<Four>(20);
        fills::<Nine>(50);
        fills::<Sixteen>(5);
        fills::<TwentyFive>(1);
    }
}
