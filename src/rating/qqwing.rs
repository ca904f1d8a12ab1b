//! qqwing's four levels: the techniques qqwing's solver knows (naked and hidden singles,
//! naked pairs, pointing, box/line reduction and hidden pairs), taken one at a time, the
//! easiest that applies, and the level the hardest one used gives.

use std::fmt;

use super::logic::{Logic, locked};
use crate::error::Unsolvable;
use crate::grid::Grid;
use crate::shape::Shape;

/// The techniques, easiest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Technique {
    /// The only candidate left in a cell.
    NakedSingle,
    /// The only place left for a digit in a row, column or box.
    HiddenSingle,
    /// Two cells of a unit with the same two candidates: those digits leave the unit's other
    /// cells.
    NakedPair,
    /// A digit confined to one row or column within a box leaves the rest of that line.
    Pointing,
    /// A digit confined to one box within a row or column leaves the rest of that box.
    BoxLine,
    /// Two digits confined to the same two cells of a unit: other candidates leave them.
    HiddenPair,
}

impl Technique {
    /// Every technique, easiest first.
    pub const ALL: [Technique; 6] = [
        Technique::NakedSingle,
        Technique::HiddenSingle,
        Technique::NakedPair,
        Technique::Pointing,
        Technique::BoxLine,
        Technique::HiddenPair,
    ];
}

/// qqwing's difficulty levels, decided as qqwing decides them from what its solver used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum QqwingLevel {
    /// Naked singles alone solve it.
    Simple,
    /// It needs hidden singles.
    Easy,
    /// It needs pairs, pointing or box/line reduction.
    Intermediate,
    /// None of those solves it: it needs guessing.
    Expert,
}

impl QqwingLevel {
    /// The name qqwing prints, in lower case.
    pub fn name(self) -> &'static str {
        match self {
            QqwingLevel::Simple => "simple",
            QqwingLevel::Easy => "easy",
            QqwingLevel::Intermediate => "intermediate",
            QqwingLevel::Expert => "expert",
        }
    }
}

impl fmt::Display for QqwingLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// What a solve by techniques did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solve {
    /// Steps taken with each technique, in [`Technique::ALL`] order.
    pub steps: [u32; Technique::ALL.len()],
    /// True when the techniques filled every cell.
    pub solved: bool,
}

impl Solve {
    /// The hardest technique used, if any.
    pub fn hardest(&self) -> Option<Technique> {
        Technique::ALL
            .into_iter()
            .zip(self.steps)
            .filter(|&(_, n)| n > 0)
            .map(|(t, _)| t)
            .max()
    }

    /// qqwing's level for this solve.
    pub fn qqwing_level(&self) -> QqwingLevel {
        match self.hardest() {
            _ if !self.solved => QqwingLevel::Expert,
            None | Some(Technique::NakedSingle) => QqwingLevel::Simple,
            Some(Technique::HiddenSingle) => QqwingLevel::Easy,
            Some(_) => QqwingLevel::Intermediate,
        }
    }
}

/// qqwing's techniques on the candidate grid.
impl<S: Shape> Logic<S> {
    /// Applies the first naked pair that eliminates something.
    pub fn naked_pair(&mut self) -> bool {
        for unit in 0..S::UNITS {
            let cells = S::unit(unit);
            for (i, &a) in cells.iter().enumerate() {
                let pair = self.cand[a as usize];
                if pair.count_ones() != 2 {
                    continue;
                }
                for &b in &cells[i + 1..] {
                    if self.cand[b as usize] != pair {
                        continue;
                    }
                    let mut changed = false;
                    for &other in cells {
                        if other != a && other != b {
                            changed |= self.eliminate(other as usize, pair);
                        }
                    }
                    if changed {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Applies the first pointing or, with `claiming`, box/line reduction that eliminates
    /// something.
    fn locked(&mut self, claiming: bool) -> bool {
        let mut chosen = None;
        locked(self, claiming, S::ALL, &mut |_, removal, _| {
            chosen = Some(*removal);
            true
        });
        let Some(removal) = chosen else { return false };
        self.eliminate_all(&removal);
        true
    }

    /// Applies the first pointing that eliminates something.
    pub fn pointing(&mut self) -> bool {
        self.locked(false)
    }

    /// Applies the first box/line reduction that eliminates something.
    pub fn box_line(&mut self) -> bool {
        self.locked(true)
    }

    /// Applies the first hidden pair that eliminates something.
    pub fn hidden_pair(&mut self) -> bool {
        for unit in 0..S::UNITS {
            // Digits with exactly two places in the unit, and those places.
            let mut pairs = [(0u32, 0u32); 32];
            let mut len = 0;
            let mut missing = self.missing(unit);
            while missing != 0 {
                let bit = missing & missing.wrapping_neg();
                missing &= missing - 1;
                let places = self.places(unit, bit);
                if places.count_ones() == 2 {
                    pairs[len] = (bit, places);
                    len += 1;
                }
            }
            for (i, &(a, places)) in pairs[..len].iter().enumerate() {
                for &(b, other) in &pairs[i + 1..len] {
                    if other != places {
                        continue;
                    }
                    let mut changed = false;
                    let mut at = places;
                    while at != 0 {
                        let k = at.trailing_zeros() as usize;
                        at &= at - 1;
                        let cell = S::unit(unit)[k] as usize;
                        changed |= self.eliminate(cell, !(a | b));
                    }
                    if changed {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Takes one step with the easiest technique that applies; `None` when none does.
    pub fn step(&mut self) -> Result<Option<Technique>, Unsolvable> {
        if self.naked_single()? {
            return Ok(Some(Technique::NakedSingle));
        }
        if self.hidden_single()? {
            return Ok(Some(Technique::HiddenSingle));
        }
        let found = if self.naked_pair() {
            Technique::NakedPair
        } else if self.pointing() {
            Technique::Pointing
        } else if self.box_line() {
            Technique::BoxLine
        } else if self.hidden_pair() {
            Technique::HiddenPair
        } else {
            return Ok(None);
        };
        Ok(Some(found))
    }
}

/// Solves `puzzle` by techniques as far as they go; fails when its clues contradict
/// themselves (or the techniques reach a contradiction).
pub fn solve<S: Shape>(puzzle: &Grid<S>) -> Result<(Solve, Grid<S>), Unsolvable> {
    let mut logic = Logic::new(puzzle)?;
    let mut steps = [0u32; Technique::ALL.len()];
    while !logic.is_solved() {
        match logic.step()? {
            Some(technique) => steps[technique as usize] += 1,
            None => break,
        }
    }
    let solve = Solve {
        steps,
        solved: logic.is_solved(),
    };
    Ok((solve, logic.grid()))
}

/// qqwing's level of `puzzle`.
pub fn qqwing_level<S: Shape>(puzzle: &Grid<S>) -> Result<QqwingLevel, Unsolvable> {
    solve(puzzle).map(|(solve, _)| solve.qqwing_level())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{Nine, Sixteen};
    use crate::solver::{Engine, Solver};

    #[test]
    fn techniques_solve_to_the_solution() {
        // A puzzle singles solve, and the same with more holes that needs more.
        let puzzle = Grid::<Nine>::parse(
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        )
        .unwrap();
        let (solve, grid) = solve(&puzzle).unwrap();
        assert!(solve.solved);
        let mut solver = Solver::<Nine>::new();
        assert_eq!(solver.count_solutions(&puzzle, 2), 1);
        assert_eq!(grid, solver.solution());
        assert!(solve.qqwing_level() <= QqwingLevel::Easy);
    }

    #[test]
    fn every_size_runs() {
        let empty = Grid::<Sixteen>::empty();
        let (solve, _) = solve(&empty).unwrap();
        assert!(!solve.solved);
        assert_eq!(solve.qqwing_level(), QqwingLevel::Expert);
    }
}
