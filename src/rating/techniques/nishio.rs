//! Nishio forcing chains: SE's "Nishio Forcing Chains" (7.5 and up), found and rated the
//! way SE finds and rates them, tried when no forcing chain or cycle applies.
//!
//! From each candidate, taken on and then off, SE follows the implications of its digit
//! alone, *dynamically*: every off potential, once followed, leaves the grid the search
//! works on, so a box, row or column left with one place for the digit turns that place on.
//! An on potential turns off the digit's other places in its box, row and column (in that
//! order); an off potential turns on the digit's other place in each of its box, row and
//! column that has two places left, in that order. On potentials are followed first, one
//! at a time, each before the next off potential. When a potential comes out both on and
//! off, the candidate's assumed state is false: a candidate that cannot be on is removed,
//! and one that cannot be off is placed.
//!
//! An on potential that a unit's last place turned on has as parents the off potential
//! followed, and every off potential followed before it in that unit. The chain's
//! *complexity* counts the distinct potentials among the ancestors of the on and off
//! potentials that clash, each side with itself, and rates it: 7.5 and a tenth for each of
//! SE's length steps it passes. SE takes the lowest rated, then the least complex, then the
//! first found (cells in order, digits up, on before off), and so does [`nishio_step`].

use super::{Graded, Settling};
use crate::rating::ChainKind;
use crate::rating::logic::Logic;
use crate::shape::Shape;

/// A potential one search followed: its cell, its state, and its parents (the range
/// `parents.0..parents.1` of [`Search::parents`]).
#[derive(Clone, Copy)]
struct Potential {
    cell: u32,
    on: bool,
    parents: (u32, u32),
}

/// No potential.
const NONE: u32 = u32::MAX;

/// How a search ended in a clash: a potential came out both on and off. One of the two
/// was already kept; the other is given by its parents.
enum Clash {
    /// Potential `by` (on) turned off the cell of on potential `on`.
    Off { on: u32, by: u32 },
    /// The parents `parents.0..parents.1` turned on the cell of off potential `off`.
    On { off: u32, parents: (u32, u32) },
}

/// One digit's search from one potential, with the scratch space it keeps from one search
/// to the next.
struct Search {
    /// The digit's places when the search began, and those left.
    places: Vec<bool>,
    left: Vec<bool>,
    /// The potentials kept, in the order found, and their parents (indices into
    /// `potentials`).
    potentials: Vec<Potential>,
    parents: Vec<u32>,
    /// For each cell, the index of its on and of its off potential, if kept.
    on_at: Vec<u32>,
    off_at: Vec<u32>,
    /// The on and the off potentials still to follow, in order.
    to_follow: [Vec<u32>; 2],
    /// `seen[p] == mark` when the ancestor count being taken has met potential `p`.
    seen: Vec<u32>,
    mark: u32,
    stack: Vec<u32>,
}

impl Search {
    fn new(cells: usize) -> Self {
        Search {
            places: vec![false; cells],
            left: vec![false; cells],
            potentials: Vec::new(),
            parents: Vec::new(),
            on_at: vec![NONE; cells],
            off_at: vec![NONE; cells],
            to_follow: [Vec::new(), Vec::new()],
            seen: Vec::new(),
            mark: 0,
            stack: Vec::new(),
        }
    }

    /// Keeps a potential with the given parents, to be followed.
    fn keep(&mut self, cell: usize, on: bool, parents: (u32, u32)) {
        let i = self.potentials.len() as u32;
        self.potentials.push(Potential {
            cell: cell as u32,
            on,
            parents,
        });
        let at = if on {
            &mut self.on_at
        } else {
            &mut self.off_at
        };
        at[cell] = i;
        self.to_follow[usize::from(on)].push(i);
    }

    /// Follows digit `d + 1` from `cell`, on or off: the complexity of the clash the search
    /// ends on, or `None` when nothing more follows first.
    fn run<S: Shape>(
        &mut self,
        logic: &Logic<S>,
        cell: usize,
        d: usize,
        on: bool,
    ) -> Option<usize> {
        for (c, place) in self.places.iter_mut().enumerate() {
            *place = logic.cand[c] >> d & 1 != 0;
        }
        self.left.copy_from_slice(&self.places);
        for p in self.potentials.drain(..) {
            let at = if p.on {
                &mut self.on_at
            } else {
                &mut self.off_at
            };
            at[p.cell as usize] = NONE;
        }
        self.parents.clear();
        self.to_follow.iter_mut().for_each(Vec::clear);
        self.keep(cell, on, (0, 0));
        let clash = self.follow::<S>()?;
        Some(self.complexity(clash))
    }

    /// Follows the potentials kept, every on potential before the next off one, until a
    /// clash (returned) or the end.
    fn follow<S: Shape>(&mut self) -> Option<Clash> {
        let (mut next_on, mut next_off) = (0, 0);
        loop {
            if let Some(&i) = self.to_follow[1].get(next_on) {
                next_on += 1;
                if let Some(clash) = self.turn_off::<S>(i) {
                    return Some(clash);
                }
            } else if let Some(&i) = self.to_follow[0].get(next_off) {
                next_off += 1;
                if let Some(clash) = self.turn_on::<S>(i) {
                    return Some(clash);
                }
            } else {
                return None;
            }
        }
    }

    /// Follows on potential `i`: turns off the digit's other places left in its box, then
    /// in the rest of its row, then of its column.
    fn turn_off<S: Shape>(&mut self, i: u32) -> Option<Clash> {
        let cell = self.potentials[i as usize].cell as usize;
        let [row, col, boxed] = S::units_of(cell);
        for (unit, past_box) in [(boxed, false), (row, true), (col, true)] {
            for &other in S::unit(unit) {
                let other = usize::from(other);
                if other == cell || !self.left[other] || past_box && S::units_of(other)[2] == boxed
                {
                    continue;
                }
                if self.on_at[other] != NONE {
                    return Some(Clash::Off {
                        on: self.on_at[other],
                        by: i,
                    });
                }
                if self.off_at[other] == NONE {
                    let from = self.parents.len() as u32;
                    self.parents.push(i);
                    self.keep(other, false, (from, from + 1));
                }
            }
        }
        None
    }

    /// Follows off potential `i`: in its box, then its row, then its column, where it is
    /// one of two places left, turns on the other (once), with as parents this potential
    /// and the unit's places gone before it; then takes its place out of the grid.
    fn turn_on<S: Shape>(&mut self, i: u32) -> Option<Clash> {
        let cell = self.potentials[i as usize].cell as usize;
        let [row, col, boxed] = S::units_of(cell);
        let mut turned = [(0usize, (0u32, 0u32)); 3];
        let mut count = 0;
        for unit in [boxed, row, col] {
            let cells = S::unit(unit);
            let mut others = cells
                .iter()
                .map(|&c| usize::from(c))
                .filter(|&c| c != cell && self.left[c]);
            let (Some(other), None) = (others.next(), others.next()) else {
                continue;
            };
            if turned[..count].iter().any(|&(c, _)| c == other) {
                continue;
            }
            let from = self.parents.len() as u32;
            self.parents.push(i);
            for &c in cells {
                let c = usize::from(c);
                if self.places[c] && !self.left[c] {
                    self.parents.push(self.off_at[c]);
                }
            }
            turned[count] = (other, (from, self.parents.len() as u32));
            count += 1;
        }
        self.left[cell] = false;
        for &(other, parents) in &turned[..count] {
            if self.off_at[other] != NONE {
                return Some(Clash::On {
                    off: self.off_at[other],
                    parents,
                });
            }
            if self.on_at[other] == NONE {
                self.keep(other, true, parents);
            }
        }
        None
    }

    /// The complexity of a clash: the potentials among the ancestors of its on potential,
    /// itself included, and among those of its off potential, added.
    fn complexity(&mut self, clash: Clash) -> usize {
        const NO_PARENTS: (u32, u32) = (0, 0);
        let (on, off) = match clash {
            Clash::Off { on, by } => (
                self.ancestors(Some(on), NO_PARENTS),
                1 + self.ancestors(Some(by), NO_PARENTS),
            ),
            Clash::On { off, parents } => (
                1 + self.ancestors(None, parents),
                self.ancestors(Some(off), NO_PARENTS),
            ),
        };
        on + off
    }

    /// How many potentials `potential` (if any), the parents `parents.0..parents.1` and
    /// their ancestors make, each once.
    fn ancestors(&mut self, potential: Option<u32>, parents: (u32, u32)) -> usize {
        if self.seen.len() < self.potentials.len() {
            self.seen.resize(self.potentials.len(), 0);
        }
        self.mark += 1;
        let mark = self.mark;
        let mut count = 0;
        self.stack.clear();
        self.stack.extend(potential);
        self.stack
            .extend_from_slice(&self.parents[parents.0 as usize..parents.1 as usize]);
        while let Some(p) = self.stack.pop() {
            if self.seen[p as usize] == mark {
                continue;
            }
            self.seen[p as usize] = mark;
            count += 1;
            let (a, b) = self.potentials[p as usize].parents;
            self.stack
                .extend_from_slice(&self.parents[a as usize..b as usize]);
        }
        count
    }
}

/// Takes SE's next Nishio forcing chain, if its rating is at most `cap` tenths: removes
/// the candidate it proves false, or the other candidates of the cell it proves true, and
/// returns its technique. Nothing is removed when the one SE would take is rated above
/// `cap`.
pub(in crate::rating) fn nishio_step<S: Shape>(logic: &mut Logic<S>, cap: u32) -> Graded {
    let kind = ChainKind::NishioForcingChain;
    let mut search = Search::new(S::CELLS);
    let mut best = None;
    for cell in 0..S::CELLS {
        let cand = logic.cand[cell];
        if cand.count_ones() < 2 {
            continue;
        }
        let mut digits = cand;
        while digits != 0 {
            let d = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            for on in [true, false] {
                if let Some(complexity) = search.run(logic, cell, d, on) {
                    let target = (S::N * cell + d) as u32;
                    Settling::offer(&mut best, logic, kind, target, !on, complexity, 7);
                }
            }
        }
    }
    Settling::take(best, logic, cap)
}

#[cfg(test)]
mod tests {
    use super::super::testing::{dug, steps_keep, thinned};
    use super::*;
    use crate::attempt::Puzzle;
    use crate::shape::{Nine, Sixteen};

    /// On thinned starts, every clash from every candidate is sound: a candidate whose on
    /// state clashes is not its cell's digit in the solution, and one whose off state clashes
    /// is; nor does a run of Nishio steps remove a digit of the solution. Returns how many
    /// clashes each way.
    fn clashes_are_sound<S: Shape>(puzzles: &[Puzzle<S>]) -> [usize; 2] {
        let mut rng = crate::rng::attempt_rng(13, S::N as u64);
        let mut search = Search::new(S::CELLS);
        let mut found = [0; 2];
        for made in puzzles {
            let (mut logic, solution) = thinned(made, &mut rng);
            for cell in (0..S::CELLS).filter(|&c| logic.cand[c].count_ones() >= 2) {
                for d in (0..S::N).filter(|&d| logic.cand[cell] >> d & 1 != 0) {
                    let holds = solution[cell] == 1 << d;
                    for on in [true, false] {
                        if let Some(complexity) = search.run(&logic, cell, d, on) {
                            assert_eq!(holds, !on, "cell {cell}, digit {}", d + 1);
                            // Each side counts at least itself and the source.
                            assert!(complexity >= 4, "{complexity}");
                            found[usize::from(on)] += 1;
                        }
                    }
                }
            }
            steps_keep(&mut logic, &solution, 5, nishio_step);
        }
        found
    }

    #[test]
    fn nishio_clashes_are_sound() {
        let nine = clashes_are_sound(&dug::<Nine>(56, 20));
        eprintln!("9×9 clashes from off and from on: {nine:?}");
        assert!(nine.iter().all(|&n| n > 0), "{nine:?}");
        let sixteen = clashes_are_sound(&dug::<Sixteen>(150, 2));
        eprintln!("16×16: {sixteen:?}");
        assert!(sixteen.iter().all(|&n| n > 0), "{sixteen:?}");
    }
}
