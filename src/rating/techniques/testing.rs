//! Grids for the tests of the techniques whose ratings grow with their length.

use rand::Rng;

use super::{ChainStep, Graded};
use crate::attempt::{Generator, Puzzle};
use crate::config::Holes;
use crate::rating::logic::Logic;
use crate::shape::Shape;
use crate::stats::Work;

/// Dug puzzles of `S` with `holes` holes, and their solutions.
pub(super) fn dug<S: Shape>(holes: usize, count: u64) -> Vec<Puzzle<S>> {
    let mut generator = Generator::<S>::new(Holes::Exact(holes));
    (0..count)
        .filter_map(|i| generator.attempt(3, i, &mut Work::default()))
        .collect()
}

/// Each puzzle's start, with a fifth of the candidates its solution does not use taken
/// away at random (states rich in links), and the solution's digit of each cell as a mask.
pub(super) fn thinned<S: Shape>(made: &Puzzle<S>, rng: &mut impl Rng) -> (Logic<S>, S::Cells<u32>) {
    let mut logic = Logic::new(&made.puzzle).unwrap();
    let mut solution = S::cells(0u32);
    for (cell, bit) in solution.as_mut().iter_mut().enumerate() {
        *bit = 1 << (made.solution.get(cell) - 1);
        for d in 0..S::N {
            if 1 << d != *bit && rng.random_bool(0.2) {
                logic.eliminate(cell, 1 << d);
            }
        }
    }
    (logic, solution)
}

/// Every open cell still allows its digit of the solution.
fn keeps<S: Shape>(logic: &Logic<S>, solution: &S::Cells<u32>) -> bool {
    (0..S::CELLS).all(|cell| logic.value[cell] != 0 || logic.cand[cell] & solution[cell] != 0)
}

/// Takes up to `steps` steps of `step` in a row (uncapped), checking after each that every
/// open cell still allows its digit of the solution.
pub(super) fn steps_keep<S: Shape>(
    logic: &mut Logic<S>,
    solution: &S::Cells<u32>,
    steps: usize,
    step: ChainStep<S>,
) {
    for _ in 0..steps {
        if !matches!(step(logic, u32::MAX), Graded::Taken(_)) {
            break;
        }
        assert!(keeps(logic, solution));
    }
}
