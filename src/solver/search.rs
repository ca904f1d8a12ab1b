//! The depth-first search every engine runs: propagate; stop at a solution or a dead end;
//! otherwise narrow one cell to one digit and save the state without that digit to come back
//! to. Engines differ only in their [`Rules`]; the [`Trail`] is shared.

use super::{Branching, Outcome};
use crate::error::Unsolvable;
use crate::grid::Grid;
use crate::shape::Shape;

/// One engine's way of propagating and branching, as the search drives it.
pub(super) trait Rules<S: Shape> {
    /// A search state: fixed arrays, copied at each branch.
    type State: Copy;
    /// A saved alternative, to resume from on backtrack.
    type Saved;

    /// Applies the engine's rules until none applies; fails on a contradiction.
    fn propagate(&mut self, state: &mut Self::State) -> Result<(), Unsolvable>;

    /// True when every cell of a propagated state is placed.
    fn is_solved(&self, state: &Self::State) -> bool;

    /// The grid of a solved state.
    fn grid(&self, state: &Self::State) -> Grid<S>;

    /// Narrows `state` to one digit, chosen by `branching`, of an open cell, and pushes the
    /// alternative on `stack`: the same state with that digit removed from the cell.
    fn branch(
        &mut self,
        state: &mut Self::State,
        branching: &mut impl Branching,
        stack: &mut Vec<Self::Saved>,
    );

    /// The state to continue from after backtracking to `saved`.
    fn resume(&mut self, saved: Self::Saved) -> Self::State;
}

/// The search's own memory: the backtrack stack, reused from search to search so that a
/// search allocates nothing once warmed up, and what the searches found.
#[derive(Debug)]
pub(super) struct Trail<S: Shape, T> {
    stack: Vec<T>,
    /// The first solution of the last search that found one.
    pub first: Grid<S>,
    /// Branches taken since the trail was created.
    pub branches: u64,
}

impl<S: Shape, T> Trail<S, T> {
    /// A trail with room for the deepest search of this size.
    pub fn new() -> Self {
        Trail {
            stack: Vec::with_capacity(S::CELLS),
            first: Grid::empty(),
            branches: 0,
        }
    }

    /// Searches from `state` (its clues placed) for up to `limit` solutions, taking at most
    /// `budget` branches.
    pub fn run<R: Rules<S, Saved = T>>(
        &mut self,
        rules: &mut R,
        mut state: R::State,
        limit: usize,
        budget: u64,
        branching: &mut impl Branching,
    ) -> Outcome {
        self.stack.clear();
        let mut found = 0;
        let mut taken = 0;
        loop {
            let dead_end = match rules.propagate(&mut state) {
                Err(Unsolvable) => true,
                Ok(()) if rules.is_solved(&state) => {
                    found += 1;
                    if found == 1 {
                        self.first = rules.grid(&state);
                    }
                    if found >= limit {
                        return Outcome::Solutions(found);
                    }
                    true
                }
                Ok(()) => {
                    if taken == budget {
                        return Outcome::OutOfBudget;
                    }
                    taken += 1;
                    self.branches += 1;
                    rules.branch(&mut state, branching, &mut self.stack);
                    false
                }
            };
            if dead_end {
                let Some(rest) = self.stack.pop() else {
                    return Outcome::Solutions(found);
                };
                state = rules.resume(rest);
            }
        }
    }
}
