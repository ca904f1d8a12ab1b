//! Random complete grids.
//!
//! The diagonal boxes are filled with random permutations of the digits (they share no row
//! or column, so any choice is consistent), and the solver completes the rest, trying candidates in an order
//! drawn from the attempt's stream. Searches on large grids occasionally wander into a
//! subtree with no solution and take orders of magnitude longer than usual; a branch budget
//! cuts such a search short and the fill starts again, which keeps the tail of the fill time
//! short on 16×16 and 25×25.

use rand::RngCore;

use crate::grid::{Digit, Grid};
use crate::rng::shuffle;
use crate::shape::Shape;
use crate::solver::{Engine, Outcome, Random};

/// Branches a fill may take before it restarts.
pub fn fill_budget<S: Shape>() -> u64 {
    S::CELLS as u64
}

/// A random complete grid, drawn from `rng`. Returns the grid and how many restarts it took.
pub fn fill<S: Shape, R: RngCore>(solver: &mut impl Engine<S>, rng: &mut R) -> (Grid<S>, u64) {
    let mut restarts = 0;
    loop {
        let start = diagonal_boxes::<S, R>(rng);
        match solver.complete(&start, fill_budget::<S>(), &mut Random(rng)) {
            Outcome::Solutions(1) => return (*solver.solution(), restarts),
            _ => restarts += 1,
        }
    }
}

/// A grid whose diagonal boxes hold random permutations of the digits and whose other cells
/// are empty. The diagonal boxes share no row or column, so any such grid is consistent.
fn diagonal_boxes<S: Shape, R: RngCore>(rng: &mut R) -> Grid<S> {
    let mut grid = Grid::<S>::empty();
    let mut digits: S::Cells<Digit> = S::cells(0);
    let digits = &mut digits.as_mut()[..S::N];
    for b in 0..S::BOX {
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
    fn fills_every_size() {
        fills::<Four>(20);
        fills::<Nine>(50);
        fills::<Sixteen>(5);
        fills::<TwentyFive>(1);
    }
}
