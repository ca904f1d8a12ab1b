//! Digging: removing clues from a complete grid while the puzzle keeps exactly one solution.
//!
//! Cells are visited in an order drawn from the attempt's stream. A removal stands when no
//! solution puts another digit in the emptied cell — one search with the old digit excluded
//! (see [`Solver::has_solution_without`]) — and is skipped without a search when the cell's
//! clue peers already rule out every other digit.

use rand::RngCore;

use crate::grid::Grid;
use crate::rng::shuffle;
use crate::shape::Shape;
use crate::solver::{Engine, bit};

/// One digging pass over `solution` towards exactly `holes` empty cells. Returns the puzzle
/// if it got there; `tests` counts the uniqueness searches run.
pub fn dig<S: Shape, R: RngCore>(
    solver: &mut impl Engine<S>,
    solution: &Grid<S>,
    holes: usize,
    rng: &mut R,
    tests: &mut u64,
) -> Option<Grid<S>> {
    let mut order: S::Cells<u16> = S::cells(0);
    for (cell, slot) in order.as_mut().iter_mut().enumerate() {
        *slot = cell as u16;
    }
    shuffle(rng, order.as_mut());

    let mut puzzle = *solution;
    let mut removed = 0;
    for (visited, &cell) in order.as_ref().iter().enumerate() {
        if removed == holes {
            break;
        }
        if removed + (S::CELLS - visited) < holes {
            return None;
        }
        let cell = cell as usize;
        let digit = puzzle.get(cell);
        puzzle.set(cell, 0);
        let mut seen = 0;
        for &peer in S::peers(cell) {
            let d = puzzle.get(peer as usize);
            if d != 0 {
                seen |= bit(d);
            }
        }
        let forced = seen | bit(digit) == S::ALL;
        if forced {
            removed += 1;
            continue;
        }
        *tests += 1;
        if solver.has_solution_without(&puzzle, cell, digit) {
            puzzle.set(cell, digit);
        } else {
            removed += 1;
        }
    }
    (removed == holes).then_some(puzzle)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generator::fill;
    use crate::rng::attempt_rng;
    use crate::shape::{Four, Nine, Sixteen};
    use crate::solver::Solver;

    fn digs<S: Shape>(holes: usize, attempts: u64) {
        let mut solver = Solver::<S>::new();
        let mut reached = 0;
        for index in 0..attempts {
            let mut rng = attempt_rng(9, index);
            let (solution, _) = fill(&mut solver, &mut rng);
            let mut tests = 0;
            if let Some(puzzle) = dig(&mut solver, &solution, holes, &mut rng, &mut tests) {
                reached += 1;
                assert_eq!(puzzle.holes(), holes);
                assert!(puzzle.agrees_with(&solution));
                assert_eq!(solver.count_solutions(&puzzle, 2), 1);
                assert_eq!(solver.solution(), &solution);
            }
        }
        assert!(reached > 0, "no dig reached {holes} holes");
    }

    #[test]
    fn dug_puzzles_are_unique() {
        digs::<Four>(10, 30);
        digs::<Nine>(50, 30);
        digs::<Nine>(55, 30);
        digs::<Sixteen>(120, 3);
    }
}
