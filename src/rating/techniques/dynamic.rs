//! Dynamic forcing chains: SE's "Dynamic Forcing Chains" (8.5 and up), found and rated the
//! way SE finds and rates them, tried when no cell or region forcing chain applies.
//!
//! From a candidate taken on, or off, SE follows every implication with both kinds of link,
//! *dynamically*: each off potential, once followed, leaves the grid the search works on,
//! so a cell left with one candidate, or a unit left with one place for a digit, turns it
//! on. On potentials go first, one at a time before the next off potential, until a
//! potential comes out both on and off. From every candidate of a cell of two or more:
//!
//! - a clash from the candidate on removes it, and one from it off places it
//!   (*contradiction* chains);
//! - in a cell of three or more, what the candidate on and the candidate off both lead to
//!   holds (*double* chains);
//! - what every place of the candidate's digit in a unit leads to holds, when the cell is
//!   the unit's first place of it (*region* chains), and what every candidate of the cell
//!   leads to (*cell* chains).
//!
//! A potential that a cell's last candidate or a unit's last place turned on has as parents
//! the off potential followed and every candidate or place gone before it there. A hint's
//! complexity adds, over its chains, the distinct ancestors of each chain's end, and rates
//! it: 8.5 and a tenth for each of SE's length steps it passes. SE takes the lowest rated,
//! then the least complex, then double chains, cell, region and contradiction chains, then
//! the first found.

use super::{Graded, Settling};
use crate::rating::ChainKind;
use crate::rating::logic::Logic;
use crate::shape::Shape;

/// No potential.
const NONE: u32 = u32::MAX;

/// A potential a chaining kept: its number (`N · cell + d`), its state, and its parents
/// (the range `parents.0..parents.1` of [`Outcome::parents`]).
#[derive(Clone, Copy)]
struct Potential {
    p: u32,
    on: bool,
    parents: (u32, u32),
}

/// What a candidate taken on or off leads to, until the first clash.
struct Outcome {
    potentials: Vec<Potential>,
    parents: Vec<u32>,
    /// For each potential number, the index of its off (`[0]`) and on (`[1]`) potential, if
    /// kept.
    at: [Vec<u32>; 2],
    /// The complexity of the clash the chaining ended on, if any.
    clash: Option<usize>,
}

impl Outcome {
    /// Follows potential `source`, `on` or off, from the grid of `logic`.
    fn follow<S: Shape>(logic: &Logic<S>, source: u32, on: bool) -> Self {
        let potentials = S::CELLS * S::N;
        let mut outcome = Outcome {
            potentials: Vec::new(),
            parents: Vec::new(),
            at: [vec![NONE; potentials], vec![NONE; potentials]],
            clash: None,
        };
        let mut now: Vec<u32> = logic.cand.as_ref().to_vec();
        outcome.keep(source, on, (0, 0));
        let mut next = [0usize, 0usize];
        // The potentials still to follow, off and on, as indices in `potentials`.
        let mut queue: [Vec<u32>; 2] = [Vec::new(), Vec::new()];
        queue[usize::from(on)].push(0);
        loop {
            let Some(state) = [1, 0].into_iter().find(|&s| next[s] < queue[s].len()) else {
                return outcome;
            };
            let i = queue[state][next[state]];
            next[state] += 1;
            // The queues of off and on potentials (not the source's state, `on`).
            let [offs, ons] = &mut queue;
            let clashed = if state == 1 {
                outcome.on_leads_to::<S>(i, &now, offs)
            } else {
                outcome.off_leads_to(logic, i, &mut now, ons)
            };
            if clashed {
                return outcome;
            }
        }
    }

    /// Follows the on potential kept at index `i`, the grid's candidates being `now`: turns
    /// off the cell's other candidates, then the digit in the box, the rest of the row and
    /// the rest of the column, queueing each new off potential in `queue`. True when one of
    /// them was on: the clash is then recorded.
    fn on_leads_to<S: Shape>(&mut self, i: u32, now: &[u32], queue: &mut Vec<u32>) -> bool {
        let p = self.potentials[i as usize].p as usize;
        let (cell, d) = (p / S::N, p % S::N);
        let mut offs = Vec::new();
        let mut others = now[cell] & !(1 << d);
        while others != 0 {
            offs.push(S::N * cell + others.trailing_zeros() as usize);
            others &= others - 1;
        }
        let [row, col, boxed] = S::units_of(cell);
        for (unit, past_box) in [(boxed, false), (row, true), (col, true)] {
            for &other in S::unit(unit) {
                let other = usize::from(other);
                let in_box = S::units_of(other)[2] == boxed;
                if other != cell && now[other] >> d & 1 != 0 && !(past_box && in_box) {
                    offs.push(S::N * other + d);
                }
            }
        }
        for q in offs {
            if self.at[1][q] != NONE {
                // The new off potential counts itself and what turned it off.
                let on_side = self.ancestors(Some(self.at[1][q]), (0, 0));
                let off_side = 1 + self.ancestors(Some(i), (0, 0));
                self.clash = Some(on_side + off_side);
                return true;
            }
            if self.at[0][q] == NONE {
                let from = self.parents.len() as u32;
                self.parents.push(i);
                let k = self.keep(q as u32, false, (from, from + 1));
                queue.push(k);
            }
        }
        false
    }

    /// Follows the off potential kept at index `i`: what it turns on before it leaves the
    /// grid `now` (the cell's other candidate if it has two left, then the digit's other
    /// place in its box, row and column where it has two left, once each), each new on
    /// potential queued in `queue`, with the off potentials of `logic`'s candidates gone
    /// from `now` that it needs as parents. True when one of them was off: the clash is then
    /// recorded.
    fn off_leads_to<S: Shape>(
        &mut self,
        logic: &Logic<S>,
        i: u32,
        now: &mut [u32],
        queue: &mut Vec<u32>,
    ) -> bool {
        let p = self.potentials[i as usize].p as usize;
        let (cell, d) = (p / S::N, p % S::N);
        let mut ons: Vec<(usize, (u32, u32))> = Vec::new();
        if now[cell].count_ones() == 2 {
            let other = (now[cell] & !(1 << d)).trailing_zeros() as usize;
            let from = self.parents.len() as u32;
            self.parents.push(i);
            let mut gone = logic.cand[cell] & !now[cell];
            while gone != 0 {
                let e = gone.trailing_zeros() as usize;
                gone &= gone - 1;
                self.parents.push(self.at[0][S::N * cell + e]);
            }
            ons.push((S::N * cell + other, (from, self.parents.len() as u32)));
        }
        let [row, col, boxed] = S::units_of(cell);
        for unit in [boxed, row, col] {
            let cells = S::unit(unit);
            let mut others = cells
                .iter()
                .map(|&c| usize::from(c))
                .filter(|&c| c != cell && now[c] >> d & 1 != 0);
            let (Some(other), None) = (others.next(), others.next()) else {
                continue;
            };
            let q = S::N * other + d;
            if ons.iter().any(|&(o, _)| o == q) {
                continue;
            }
            let from = self.parents.len() as u32;
            self.parents.push(i);
            for &c in cells {
                let c = usize::from(c);
                if logic.cand[c] >> d & 1 != 0 && now[c] >> d & 1 == 0 {
                    self.parents.push(self.at[0][S::N * c + d]);
                }
            }
            ons.push((q, (from, self.parents.len() as u32)));
        }
        now[cell] &= !(1 << d);
        for (q, parents) in ons {
            if self.at[0][q] != NONE {
                let on_side = 1 + self.ancestors(None, parents);
                let off_side = self.ancestors(Some(self.at[0][q]), (0, 0));
                self.clash = Some(on_side + off_side);
                return true;
            }
            if self.at[1][q] == NONE {
                let k = self.keep(q as u32, true, parents);
                queue.push(k);
            }
        }
        false
    }

    /// Keeps a potential with the given parents; returns its index.
    fn keep(&mut self, p: u32, on: bool, parents: (u32, u32)) -> u32 {
        let i = self.potentials.len() as u32;
        self.potentials.push(Potential { p, on, parents });
        self.at[usize::from(on)][p as usize] = i;
        i
    }

    /// How many potentials `potential` (if any), the parents `parents.0..parents.1` and
    /// their ancestors make, each once.
    fn ancestors(&self, potential: Option<u32>, parents: (u32, u32)) -> usize {
        let mut seen = vec![false; self.potentials.len()];
        let mut stack: Vec<u32> = potential.into_iter().collect();
        stack.extend_from_slice(&self.parents[parents.0 as usize..parents.1 as usize]);
        let mut count = 0;
        while let Some(k) = stack.pop() {
            if std::mem::replace(&mut seen[k as usize], true) {
                continue;
            }
            count += 1;
            let (a, b) = self.potentials[k as usize].parents;
            stack.extend_from_slice(&self.parents[a as usize..b as usize]);
        }
        count
    }

    /// The ancestors of this outcome's potential `p` in state `state`, if it was kept.
    fn length(&self, state: usize, p: u32) -> Option<usize> {
        let k = self.at[state][p as usize];
        (k != NONE).then(|| self.ancestors(Some(k), (0, 0)))
    }
}

/// Keeps in `best` a dynamic chain that settles `target`, if it comes first.
fn offer<S: Shape>(
    logic: &Logic<S>,
    best: &mut Option<Settling>,
    target: u32,
    holds: bool,
    complexity: usize,
    key: u8,
) {
    let kind = ChainKind::DynamicForcingChains;
    Settling::offer(best, logic, kind, target, holds, complexity, key);
}

/// Offers the hints every outcome of `sources` leads to, in the order `sources[0]` found
/// them.
fn common<S: Shape>(logic: &Logic<S>, sources: &[&Outcome], key: u8, best: &mut Option<Settling>) {
    let first = sources[0];
    for state in [1, 0] {
        for k in (0..first.potentials.len()).filter(|&k| first.potentials[k].on == (state == 1)) {
            let p = first.potentials[k].p;
            if sources.iter().any(|o| o.at[state][p as usize] == NONE) {
                continue;
            }
            let complexity = sources.iter().filter_map(|o| o.length(state, p)).sum();
            offer(logic, best, p, state == 1, complexity, key);
        }
    }
}

/// The outcome of potential `p` taken on, followed the first time it is asked for.
fn on_outcome<'o, S: Shape>(
    logic: &Logic<S>,
    outcomes: &'o mut [Option<Outcome>],
    p: usize,
) -> &'o Outcome {
    outcomes[p].get_or_insert_with(|| Outcome::follow(logic, p as u32, true))
}

/// Takes SE's next dynamic forcing chain, if its rating is at most `cap` tenths: removes
/// what it proves and returns its technique. Nothing is removed when the one SE would take
/// is rated above `cap`.
pub(in crate::rating) fn dynamic_step<S: Shape>(logic: &mut Logic<S>, cap: u32) -> Graded {
    let best = {
        let logic = &*logic;
        let mut outcomes: Vec<Option<Outcome>> = (0..S::CELLS * S::N).map(|_| None).collect();
        let mut best = None;
        for cell in 0..S::CELLS {
            let cand = logic.cand[cell];
            let count = cand.count_ones();
            if count < 2 {
                continue;
            }
            let [row, col, boxed] = S::units_of(cell);
            for d in (0..S::N).filter(|&d| cand >> d & 1 != 0) {
                let source = S::N * cell + d;
                on_outcome(logic, &mut outcomes, source);
                let off = Outcome::follow(logic, source as u32, false);
                let on = outcomes[source].as_ref().unwrap();
                if let Some(complexity) = on.clash {
                    offer(logic, &mut best, source as u32, false, complexity, 7);
                }
                if let Some(complexity) = off.clash {
                    offer(logic, &mut best, source as u32, true, complexity, 7);
                }
                if count >= 3 {
                    for state in [1, 0] {
                        let kept = on.potentials.iter().filter(|k| usize::from(k.on) == state);
                        for &Potential { p, .. } in kept {
                            if let Some(from_off) = off.length(state, p) {
                                let from_on = on.length(state, p).unwrap();
                                offer(logic, &mut best, p, state == 1, from_on + from_off, 1);
                            }
                        }
                    }
                }
                for unit in [boxed, row, col] {
                    let places: Vec<usize> = S::unit(unit)
                        .iter()
                        .map(|&c| usize::from(c))
                        .filter(|&c| logic.cand[c] >> d & 1 != 0)
                        .collect();
                    if places.len() < 2 || places[0] != cell {
                        continue;
                    }
                    for &place in &places {
                        on_outcome(logic, &mut outcomes, S::N * place + d);
                    }
                    let sources: Vec<&Outcome> = places
                        .iter()
                        .map(|&place| outcomes[S::N * place + d].as_ref().unwrap())
                        .collect();
                    common(logic, &sources, 6, &mut best);
                }
            }
            let digits: Vec<usize> = (0..S::N).filter(|&d| cand >> d & 1 != 0).collect();
            let sources: Vec<&Outcome> = digits
                .iter()
                .map(|&d| outcomes[S::N * cell + d].as_ref().unwrap())
                .collect();
            common(logic, &sources, 5, &mut best);
        }
        best
    };
    Settling::take(best, logic, cap)
}

#[cfg(test)]
mod tests {
    use super::super::testing::{dug, steps_keep, thinned};
    use super::*;
    use crate::attempt::Puzzle;
    use crate::shape::{Nine, Sixteen};

    /// On thinned starts: a candidate whose chain on clashes is not its cell's digit in the
    /// solution, and one whose chain off clashes is; what a candidate on and off both lead
    /// to, and what every candidate of a cell leads to, holds in the solution; nor does a run
    /// of steps remove a digit of the solution. Returns the clashes and the consequences
    /// checked.
    fn consequences_hold<S: Shape>(puzzles: &[Puzzle<S>]) -> [usize; 2] {
        let mut rng = crate::rng::attempt_rng(19, S::N as u64);
        let mut checked = [0; 2];
        for made in puzzles {
            let (mut logic, solution) = thinned(made, &mut rng);
            let holds =
                |p: u32, on: bool| (solution[p as usize / S::N] == 1 << (p as usize % S::N)) == on;
            for cell in (0..S::CELLS).filter(|&c| logic.cand[c].count_ones() >= 2) {
                let mut ons = Vec::new();
                for d in (0..S::N).filter(|&d| logic.cand[cell] >> d & 1 != 0) {
                    let source = (S::N * cell + d) as u32;
                    let on = Outcome::follow(&logic, source, true);
                    let off = Outcome::follow(&logic, source, false);
                    for (outcome, state) in [(&on, true), (&off, false)] {
                        if outcome.clash.is_some() {
                            // The state taken is false.
                            assert!(holds(source, !state), "{source} {state}");
                            checked[0] += 1;
                        }
                    }
                    for k in &on.potentials {
                        if off.at[usize::from(k.on)][k.p as usize] != NONE {
                            assert!(holds(k.p, k.on), "double {}", k.p);
                            checked[1] += 1;
                        }
                    }
                    ons.push(on);
                }
                for k in &ons[0].potentials {
                    if ons
                        .iter()
                        .all(|o| o.at[usize::from(k.on)][k.p as usize] != NONE)
                    {
                        assert!(holds(k.p, k.on), "cell {}", k.p);
                        checked[1] += 1;
                    }
                }
            }
            steps_keep(&mut logic, &solution, 3, dynamic_step);
        }
        checked
    }

    #[test]
    fn dynamic_chain_consequences_hold() {
        let nine = consequences_hold(&dug::<Nine>(56, 6));
        assert!(nine.iter().all(|&n| n > 50), "{nine:?}");
        let sixteen = consequences_hold(&dug::<Sixteen>(150, 1));
        assert!(sixteen.iter().all(|&n| n > 5), "{sixteen:?}");
    }
}
