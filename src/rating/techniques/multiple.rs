//! Cell and region forcing chains: SE's "Multiple Forcing Chains" (8.0 and up), found and
//! rated the way SE finds and rates them, tried when no Nishio chain applies.
//!
//! From a candidate taken on, SE follows every implication of the forcing chains (both kinds
//! of link, on the grid as it stands), on potentials first, one at a time before the next
//! off potential, and stops at the first potential that comes out both on and off. In a cell
//! of three candidates or more, what every candidate leads to holds: a *cell forcing chain*.
//! So does what every place of one of its digits leads to, in a box, row or column whose
//! first place of that digit is the cell: a *region forcing chain*. A consequence on
//! removes the other candidates of its cell; one off removes the candidate.
//!
//! Each potential has one parent, so a chain's potentials are its length to the source;
//! the hint's complexity adds those of its chains, and rates it: 8.0 and a tenth for each of
//! SE's length steps it passes. SE takes the lowest rated, then the least complex, then cell
//! before region chains, then the first found: cells in order; in each, digits up, each
//! with its region chains (box, row, column; consequences on before off, in the order the
//! cell's chain found them), then the cell's (in the order its first candidate's chain
//! found them).

use super::chains::{Graph, Links};
use super::{Graded, Settling};
use crate::rating::ChainKind;
use crate::rating::logic::Logic;
use crate::shape::Shape;

/// What a candidate taken on leads to, until the first clash.
struct Outcome {
    /// For each potential off (`[0]`) and on (`[1]`), numbered `N · cell + d`, how many
    /// potentials its chain from the source holds, itself and the source included; 0 when
    /// it does not follow.
    length: [Vec<u32>; 2],
    /// The potentials that follow off (`[0]`) and on (`[1]`), in the order found.
    found: [Vec<u32>; 2],
}

impl Outcome {
    /// Follows potential `source` on, on `graph`.
    fn follow<S: Shape>(graph: &Graph<'_, S>, source: u32) -> Self {
        let potentials = S::CELLS * S::N;
        let mut outcome = Outcome {
            length: [vec![0; potentials], vec![0; potentials]],
            found: [Vec::new(), Vec::new()],
        };
        outcome.reach(source, true, 1);
        let mut next = [0, 0];
        loop {
            // Every on potential before the next off one.
            let Some(on) = [true, false]
                .into_iter()
                .find(|&on| next[usize::from(on)] < outcome.found[usize::from(on)].len())
            else {
                return outcome;
            };
            let p = outcome.found[usize::from(on)][next[usize::from(on)]];
            next[usize::from(on)] += 1;
            let length = outcome.length[usize::from(on)][p as usize] + 1;
            let mut clash = false;
            let reach = |q| clash = clash || outcome.reach(q, !on, length);
            if on {
                graph.on_to_off(p, Links::Xy, reach);
            } else {
                graph.off_to_on(p, Links::Xy, reach);
            }
            if clash {
                return outcome;
            }
        }
    }

    /// Takes potential `p`, `on` or off, as the chain of `length` potentials reaches it,
    /// unless it was already reached; true when its opposite was (a clash).
    fn reach(&mut self, p: u32, on: bool, length: u32) -> bool {
        if self.length[usize::from(!on)][p as usize] != 0 {
            return true;
        }
        let known = &mut self.length[usize::from(on)][p as usize];
        if *known == 0 {
            *known = length;
            self.found[usize::from(on)].push(p);
        }
        false
    }
}

/// The hints every outcome of `sources` leads to, in the order `sources[0]`'s found them:
/// keeps in `best` each that comes before it.
fn common<S: Shape>(
    logic: &Logic<S>,
    sources: &[&Outcome],
    kind: ChainKind,
    key: u8,
    best: &mut Option<Settling>,
) {
    for on in [true, false] {
        let state = usize::from(on);
        for &target in &sources[0].found[state] {
            let lengths = sources.iter().map(|o| o.length[state][target as usize]);
            if lengths.clone().all(|length| length != 0) {
                let complexity = lengths.sum::<u32>() as usize;
                Settling::offer(best, logic, kind, target, on, complexity, key);
            }
        }
    }
}

/// The outcomes of `potentials` taken on, each followed the first time it is asked for.
fn outcomes_of<'o, S: Shape>(
    graph: &Graph<'_, S>,
    outcomes: &'o mut [Option<Outcome>],
    potentials: impl Iterator<Item = usize> + Clone,
) -> Vec<&'o Outcome> {
    for p in potentials.clone() {
        if outcomes[p].is_none() {
            outcomes[p] = Some(Outcome::follow(graph, p as u32));
        }
    }
    let outcomes = &*outcomes;
    potentials.map(|p| outcomes[p].as_ref().unwrap()).collect()
}

/// Takes SE's next cell or region forcing chain, if its rating is at most `cap` tenths:
/// removes what it proves and returns its technique. Nothing is removed when the one SE
/// would take is rated above `cap`.
pub(in crate::rating) fn multiple_step<S: Shape>(logic: &mut Logic<S>, cap: u32) -> Graded {
    let best = {
        let graph = Graph::new(logic);
        let mut outcomes: Vec<Option<Outcome>> = (0..S::CELLS * S::N).map(|_| None).collect();
        let mut best = None;
        for cell in 0..S::CELLS {
            let cand = logic.cand[cell];
            if cand.count_ones() < 3 {
                continue;
            }
            let digits = (0..S::N).filter(|&d| cand >> d & 1 != 0);
            let [row, col, boxed] = S::units_of(cell);
            for d in digits.clone() {
                for unit in [boxed, row, col] {
                    let places = graph.places(unit, d);
                    if places.len() < 2 || usize::from(places[0]) != cell {
                        continue;
                    }
                    let potentials = places.iter().map(|&place| S::N * usize::from(place) + d);
                    let sources = outcomes_of(&graph, &mut outcomes, potentials);
                    common(
                        logic,
                        &sources,
                        ChainKind::RegionForcingChains,
                        6,
                        &mut best,
                    );
                }
            }
            let sources = outcomes_of(&graph, &mut outcomes, digits.map(|d| S::N * cell + d));
            common(logic, &sources, ChainKind::CellForcingChains, 5, &mut best);
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

    /// On thinned starts, what every candidate of a cell of three or more leads to, and
    /// what every place of a digit in a unit leads to, holds in the solution; nor does a run
    /// of steps remove a digit of the solution. Returns how many consequences were checked.
    fn consequences_hold<S: Shape>(puzzles: &[Puzzle<S>]) -> usize {
        let mut rng = crate::rng::attempt_rng(17, S::N as u64);
        let mut checked = 0;
        for made in puzzles {
            let (mut logic, solution) = thinned(made, &mut rng);
            {
                let graph = Graph::new(&logic);
                let outcome = |p: usize| Outcome::follow(&graph, p as u32);
                let mut groups: Vec<Vec<Outcome>> = Vec::new();
                for cell in (0..S::CELLS).filter(|&c| logic.cand[c].count_ones() >= 3) {
                    let digits = (0..S::N).filter(|&d| logic.cand[cell] >> d & 1 != 0);
                    groups.push(digits.map(|d| outcome(S::N * cell + d)).collect());
                }
                for unit in 0..S::UNITS {
                    for d in 0..S::N {
                        let places = graph.places(unit, d);
                        if places.len() >= 2 {
                            let ps = places.iter().map(|&c| outcome(S::N * usize::from(c) + d));
                            groups.push(ps.collect());
                        }
                    }
                }
                for group in &groups {
                    for state in [0, 1] {
                        for &p in &group[0].found[state] {
                            if group.iter().all(|o| o.length[state][p as usize] != 0) {
                                let (cell, d) = (p as usize / S::N, p as usize % S::N);
                                let holds = solution[cell] == 1 << d;
                                assert_eq!(holds, state == 1, "{p}");
                                checked += 1;
                            }
                        }
                    }
                }
            }
            steps_keep(&mut logic, &solution, 3, multiple_step);
        }
        checked
    }

    #[test]
    fn forcing_chain_consequences_hold() {
        let nine = consequences_hold(&dug::<Nine>(56, 10));
        assert!(nine > 100, "{nine}");
        let sixteen = consequences_hold(&dug::<Sixteen>(150, 1));
        assert!(sixteen > 10, "{sixteen}");
    }
}
