//! Random complete grids, by one of two strategies chosen by size.
//!
//! Up to 9×9, cells are filled in row-major order with digits drawn from the attempt's
//! stream among those the cell's row, column and box still lack, backing up one cell at a
//! time at a dead end. With no propagation a step costs a few mask operations, and on these
//! sizes dead ends are shallow, so a walk takes not many more steps than the grid has cells
//! (the `fill_restarts` statistic shows how often one ran out of budget).
//!
//! On 16×16 and 25×25 that walk can run for millions of steps, so the diagonal boxes are filled
//! with random permutations of the digits (they share no row or column, so any choice is
//! consistent) and the size's search engine completes the rest, trying candidates in an
//! order drawn from the stream. Such searches still occasionally wander into a subtree with
//! no solution and take orders of magnitude longer than usual.
//!
//! Both strategies have a step budget: a fill that runs out starts again (a *restart*),
//! which keeps the tail of the fill time short.

use rand::RngCore;

use crate::grid::{Digit, Grid};
use crate::rng::{pick_bit, shuffle};
use crate::shape::Shape;
use crate::solver::{Engine, Outcome, Random, bit, digit};

/// Steps (cells placed, or engine branches) a fill may take before it restarts.
pub fn fill_budget<S: Shape>() -> u64 {
    if walks::<S>() {
        100 * S::CELLS as u64
    } else {
        S::CELLS as u64
    }
}

/// Whether grids of size `S` are filled by the row-major walk (see the module docs).
const fn walks<S: Shape>() -> bool {
    S::BOX <= 3
}

/// A random complete grid, drawn from `rng`. Returns the grid and how many restarts it took.
pub fn fill<S: Shape, R: RngCore>(solver: &mut impl Engine<S>, rng: &mut R) -> (Grid<S>, u64) {
    let mut restarts = 0;
    loop {
        if walks::<S>() {
            if let Some(grid) = walk::<S, R>(rng, fill_budget::<S>()) {
                return (grid, restarts);
            }
        } else {
            let start = diagonal_boxes::<S, R>(rng);
            if let Outcome::Solutions(1) =
                solver.complete(&start, fill_budget::<S>(), &mut Random(rng))
            {
                return (solver.solution(), restarts);
            }
        }
        restarts += 1;
    }
}

/// The row-major walk: `None` when it takes more than `budget` steps.
fn walk<S: Shape, R: RngCore>(rng: &mut R, budget: u64) -> Option<Grid<S>> {
    // Walked sizes (see `walks`) have at most 81 cells and 27 units; indices masked to the
    // lengths of these fixed arrays need no bounds checks in the loop.
    debug_assert!(S::CELLS <= 81 && S::UNITS <= 32);
    let units = S::units_of_table();
    let mut grid = Grid::<S>::empty();
    // The digits each unit holds, and the digits not yet tried in each cell up to the
    // current one.
    let mut used = [0u32; 32];
    let mut untried = [0u32; 128];
    // Puts digit bit `b` in `cell`'s units, or takes it out.
    let toggle = |used: &mut [u32; 32], cell: usize, b: u32| {
        for unit in units[cell] {
            used[usize::from(unit) & 31] ^= b;
        }
    };
    untried[0] = S::ALL;
    let mut cell = 0;
    for _ in 0..budget {
        if untried[cell & 127] == 0 {
            // Dead end: take back the previous cell's digit and try its next one.
            cell -= 1;
            toggle(&mut used, cell, bit(grid.get(cell)));
            continue;
        }
        let b = pick_bit(rng, untried[cell & 127]);
        untried[cell & 127] ^= b;
        grid.set(cell, digit(b));
        toggle(&mut used, cell, b);
        cell += 1;
        if cell == S::CELLS {
            return Some(grid);
        }
        let [row, col, boxed] = units[cell].map(|unit| used[usize::from(unit) & 31]);
        untried[cell & 127] = S::ALL & !(row | col | boxed);
    }
    None
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
