//! The depth-first search every engine runs: propagate; stop at a solution or a dead end;
//! otherwise narrow one cell to one digit and save the state without that digit to come back
//! to. Engines differ only in their [`Rules`]; the [`Trail`] is shared.

use super::{Branching, Outcome};
use crate::error::Unsolvable;
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

    /// What a search keeps of its first solution: the grid itself, or a state to read it
    /// from when it is asked for (a count rarely needs it).
    type Solved: Copy;

    /// What to keep of a solved state.
    fn solved(&self, state: &Self::State) -> Self::Solved;

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
pub(super) struct Trail<T, F> {
    stack: Vec<T>,
    /// The first solution of the last search that found one, as the rules keep it.
    pub first: Option<F>,
    /// Branches taken since the trail was created.
    pub branches: u64,
}

impl<T, F> Trail<T, F> {
    /// A trail with room for the deepest search of size `S`.
    pub fn new<S: Shape>() -> Self {
        Trail {
            stack: Vec::with_capacity(S::CELLS),
            first: None,
            branches: 0,
        }
    }

    /// Searches from `state` (its clues placed) for up to `limit` solutions, taking at most
    /// `budget` branches.
    pub fn run<S: Shape, R: Rules<S, Saved = T, Solved = F>>(
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
                        self.first = Some(rules.solved(&state));
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
