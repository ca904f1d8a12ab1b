//! Forcing chains and bidirectional cycles: SE's "Forcing Chains & Cycles" (6.5 and up), found
//! and rated the way SE finds and rates them.
//!
//! A *potential* is a candidate taken as true (on) or false (off). An on potential turns off
//! the other candidates of its cell (a Y-link) and its digit in the other cells of its box,
//! row and column; an off potential turns on the other candidate of a cell that has two (a
//! Y-link) and the other place of its digit in a box, row or column that has two (an
//! X-link). From every candidate, SE follows these implications breadth first, three times:
//! with X-links alone (the digit's own cells: *X*), with Y-links alone (from cells of two
//! candidates, cycles only: *Y*), and with both (*XY*). It looks for
//!
//! - *forcing chains*: from a candidate on to the same candidate off, which is then false,
//!   or from off to on, which is then true;
//! - *bidirectional cycles*: from a candidate on back to itself on, through four links or
//!   more, the first way the search reaches each on potential. A candidate outside the
//!   cycle's cells that sees one of its on potentials and one of its off ones, of its own
//!   digit, is false.
//!
//! Each is rated by its kind (X- and Y-cycles 6.5, forcing X-chains 6.6, cycles and chains
//! with both kinds of link 7.0) plus a tenth for each of 4, 6, 8, 12, 16, 24, … links that
//! its length passes ([`difficulty`]); SE takes the lowest rated, then the shortest, then X
//! before Y before XY, then the first found, and so does [`chain_step`].

mod graph;
mod search;

use super::Graded;
use crate::rating::ChainKind;
use crate::rating::logic::Logic;
use crate::shape::Shape;
pub(super) use graph::Graph;
use search::Scratch;

/// No index.
const NONE: u32 = u32::MAX;

/// How many of SE's length steps, 4, 6, 8, 12, 16, 24, … links (each half again or a third
/// again the one before, in turn), a chain of `complexity` potentials passes.
const fn length_steps(complexity: usize) -> u32 {
    let (mut steps, mut ceil, mut odd) = (0, 4, false);
    while complexity - 2 > ceil {
        steps += 1;
        ceil = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 };
        odd = !odd;
    }
    steps
}

/// SE's rating of a chain of kind `base` (in tenths) whose potentials number `complexity`,
/// as SE computes it, in floating point (a tenth added for each step): the hints are
/// ordered by this value.
pub(super) fn difficulty(base: u32, complexity: usize) -> f64 {
    let added = (0..length_steps(complexity)).fold(0.0, |added, _| added + 0.1);
    f64::from(base) / 10.0 + added
}

/// The tenths of a chain's rating: its kind's, and one for each step its length passes.
pub(in crate::rating) const fn chain_tenths(kind: ChainKind, complexity: usize) -> u32 {
    kind.base_tenths() + length_steps(complexity)
}

/// Which links a search follows.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Links {
    X,
    Y,
    Xy,
}

impl Links {
    fn y(self) -> bool {
        self != Links::X
    }

    fn x(self) -> bool {
        self != Links::Y
    }

    /// SE's order among hints of equal rating and length.
    fn key(self) -> u8 {
        match self {
            Links::X => 2,
            Links::Y => 3,
            Links::Xy => 4,
        }
    }

    fn cycle(self) -> ChainKind {
        match self {
            Links::X => ChainKind::XCycle,
            Links::Y => ChainKind::YCycle,
            Links::Xy => ChainKind::Cycle,
        }
    }

    fn forcing(self) -> ChainKind {
        match self {
            Links::X | Links::Y => ChainKind::ForcingXChain,
            Links::Xy => ChainKind::ForcingChain,
        }
    }
}

/// The best hint so far: what orders it, its kind and its eliminations.
struct Best<S: Shape> {
    difficulty: f64,
    complexity: usize,
    key: u8,
    kind: ChainKind,
    removal: S::Cells<u32>,
}

/// The most potentials a hint of kind `base` (tenths) and `key` may have and still come
/// before `best` in SE's order: by rating, then potentials, then key. Less than 4 when none
/// can.
fn longest_before<S: Shape>(base: u32, key: u8, best: &Option<Best<S>>) -> usize {
    let Some(best) = best else {
        return usize::MAX;
    };
    // The rating is the same for every length in (ceil before, ceil], as `difficulty`
    // computes it, and a tenth more for the next such range.
    let (mut most, mut lowest) = (0, 4);
    let (mut added, mut ceil, mut odd) = (0.0, 4, false);
    while lowest <= 2 * S::CELLS * S::N {
        let highest = ceil + 2;
        let rating = f64::from(base) / 10.0 + added;
        if rating > best.difficulty {
            break;
        }
        if rating == best.difficulty {
            let shortest = if key < best.key {
                best.complexity
            } else {
                best.complexity - 1
            };
            if shortest >= lowest {
                most = shortest.min(highest);
            }
            break;
        }
        most = highest;
        lowest = highest + 1;
        added += 0.1;
        ceil = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 };
        odd = !odd;
    }
    most
}

/// Takes SE's next forcing-chain or cycle step, if its rating is at most `cap` tenths:
/// removes its eliminations and returns its technique. Nothing is removed when the one SE
/// would take is rated above `cap`.
pub(in crate::rating) fn chain_step<S: Shape>(logic: &mut Logic<S>, cap: u32) -> Graded {
    let best = {
        let graph = Graph::new(logic);
        let mut scratch = Scratch::new(S::CELLS * S::N);
        let mut best: Option<Best<S>> = None;
        for links in [Links::X, Links::Y, Links::Xy] {
            // A pass whose shortest hint comes after the best so far adds nothing.
            if longest_before(links.cycle().base_tenths(), links.key(), &best) < 4 {
                continue;
            }
            for cell in 0..S::CELLS {
                let cand = logic.cand[cell];
                let count = cand.count_ones();
                // Y-cycles begin in cells of two candidates.
                if count < 2 || links == Links::Y && count > 2 {
                    continue;
                }
                let mut digits = cand;
                while digits != 0 {
                    let d = digits.trailing_zeros() as usize;
                    digits &= digits - 1;
                    let source = (S::N * cell + d) as u32;
                    search_from(&graph, &mut scratch, source, links, &mut best);
                }
            }
        }
        best
    };
    let Some(best) = best else {
        return Graded::Nothing;
    };
    Graded::chain(best.difficulty, best.kind, cap, || {
        logic.eliminate_all(&best.removal)
    })
}

/// The hints from `source` in SE's order: cycles first, then forcing chains from it on and
/// from it off (with X-links, alone or with Y-links); keeps in `best` each that comes
/// before it.
fn search_from<S: Shape>(
    graph: &Graph<'_, S>,
    scratch: &mut Scratch,
    source: u32,
    links: Links,
    best: &mut Option<Best<S>>,
) {
    let (cell, d) = (source as usize / S::N, source as usize % S::N);
    let (kind, key) = (links.cycle(), links.key());
    let most = longest_before(kind.base_tenths(), key, best);
    if most >= 4 {
        scratch.cycles(graph, source, links, most);
        for k in 0..scratch.cycles.len() {
            let cycle = scratch.cycles[k];
            let mut complexity = 0;
            scratch.cycle(source, cycle, |_, _| complexity += 1);
            if complexity > longest_before(kind.base_tenths(), key, best) {
                continue;
            }
            let removal = scratch.cycle_removal(graph, source, cycle);
            if removal.as_ref().iter().any(|&bits| bits != 0) {
                *best = Some(Best {
                    difficulty: difficulty(kind.base_tenths(), complexity),
                    complexity,
                    key,
                    kind,
                    removal,
                });
            }
        }
    }
    if !links.x() {
        return;
    }
    let kind = links.forcing();
    for on in [true, false] {
        let most = longest_before(kind.base_tenths(), key, best);
        if most < 4 {
            return;
        }
        if let Some(complexity) = scratch.forcing(graph, source, on, links, most) {
            let mut removal = S::cells(0u32);
            // From on to off, the candidate is false; from off to on, it is true.
            removal[cell] = if on {
                1 << d
            } else {
                graph.logic.cand[cell] & !(1 << d)
            };
            *best = Some(Best {
                difficulty: difficulty(kind.base_tenths(), complexity),
                complexity,
                key,
                kind,
                removal,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{dug, steps_keep, thinned};
    use super::*;
    use crate::attempt::Puzzle;
    use crate::shape::{Nine, Sixteen};

    /// The table of length steps SE's `getLengthDifficulty` once used (its loop replaced
    /// it): a tenth for each step a chain's length (potentials less two) passes.
    #[test]
    fn lengths_rate_as_se_steps() {
        const STEPS: [usize; 23] = [
            4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048,
            3072, 4096, 6144, 8192,
        ];
        for complexity in 4..8000 {
            let passed = STEPS.iter().filter(|&&s| complexity - 2 > s).count() as u32;
            for kind in [
                ChainKind::XCycle,
                ChainKind::ForcingXChain,
                ChainKind::Cycle,
            ] {
                let tenths = kind.base_tenths() + passed;
                assert_eq!(chain_tenths(kind, complexity), tenths, "{complexity}");
                let rating = difficulty(kind.base_tenths(), complexity);
                assert_eq!((rating * 10.0).round() as u32, tenths, "{complexity}");
            }
        }
    }

    /// On thinned starts, the best hint from every source, with each kind of link, removes no
    /// digit of the solution; nor do five chain steps in a row. Returns the hints by kind.
    fn keep_the_solution<S: Shape>(puzzles: &[Puzzle<S>]) -> [usize; 5] {
        let mut rng = crate::rng::attempt_rng(7, S::N as u64);
        let mut found = [0; 5];
        for made in puzzles {
            let (mut logic, solution) = thinned(made, &mut rng);
            {
                let graph = Graph::new(&logic);
                let mut scratch = Scratch::new(S::CELLS * S::N);
                for links in [Links::X, Links::Y, Links::Xy] {
                    for source in 0..S::CELLS * S::N {
                        let (cell, d) = (source / S::N, source % S::N);
                        if logic.cand[cell] >> d & 1 == 0 || logic.cand[cell].count_ones() < 2 {
                            continue;
                        }
                        let mut best = None;
                        search_from(&graph, &mut scratch, source as u32, links, &mut best);
                        if let Some(best) = best {
                            found[best.kind as usize] += 1;
                            let removal = best.removal.as_ref().iter().zip(solution.as_ref());
                            for (cell, (removed, digit)) in removal.enumerate() {
                                assert_eq!(removed & digit, 0, "{:?}, cell {cell}", best.kind);
                            }
                        }
                    }
                }
            }
            steps_keep(&mut logic, &solution, 5, chain_step);
        }
        found
    }

    #[test]
    fn chain_steps_keep_the_solution() {
        let nine = keep_the_solution(&dug::<Nine>(56, 20));
        eprintln!("9×9 hints by kind: {nine:?}");
        assert!(nine.iter().all(|&n| n > 0), "{nine:?}");
        let sixteen = keep_the_solution(&dug::<Sixteen>(150, 2));
        eprintln!("16×16 hints by kind: {sixteen:?}");
        assert!(sixteen.iter().sum::<usize>() > 0, "{sixteen:?}");
    }

    /// On 9×9, forcing chains searched by masks are as long as those the search potential
    /// by potential finds, from every candidate, on and off, with and without Y-links, and
    /// within every bound.
    #[test]
    fn forcing_chains_by_masks_are_the_search_by_potentials() {
        let mut rng = crate::rng::attempt_rng(11, 0);
        let (mut found, mut compared) = (0, 0);
        for made in dug::<Nine>(56, 10) {
            let (logic, _) = thinned(&made, &mut rng);
            let by_masks = Graph::new(&logic);
            let mut by_potentials = Graph::new(&logic);
            by_potentials.masks = None;
            let mut scratch = Scratch::new(81 * 9);
            for source in (0..81 * 9).filter(|&p| logic.cand[p / 9] >> (p % 9) & 1 != 0) {
                for (on, links, most) in [
                    (true, Links::X, usize::MAX),
                    (false, Links::X, 8),
                    (true, Links::Xy, 6),
                    (false, Links::Xy, usize::MAX),
                    (true, Links::Xy, usize::MAX),
                ] {
                    let masks = scratch.forcing(&by_masks, source as u32, on, links, most);
                    let one_by_one =
                        scratch.forcing(&by_potentials, source as u32, on, links, most);
                    assert_eq!(masks, one_by_one, "{source} {on} {most}");
                    found += usize::from(masks.is_some());
                    compared += 1;
                }
            }
        }
        assert!(found > compared / 10, "{found} of {compared}");
    }

    /// A cycle's length counts its potentials once each, the source once.
    #[test]
    fn cycles_count_their_potentials() {
        let made = &dug::<Nine>(56, 1)[0];
        let logic = Logic::new(&made.puzzle).unwrap();
        let graph = Graph::new(&logic);
        let mut scratch = Scratch::new(81 * 9);
        let mut closed = 0;
        for source in (0..81 * 9).filter(|&p| logic.cand[p / 9] >> (p % 9) & 1 != 0) {
            scratch.cycles(&graph, source as u32, Links::Xy, 12);
            for &cycle in &scratch.cycles {
                let mut potentials = Vec::new();
                scratch.cycle(source as u32, cycle, |p, on| potentials.push((p, on)));
                let mut distinct = potentials.clone();
                distinct.sort_unstable();
                distinct.dedup();
                assert_eq!(distinct.len(), potentials.len());
                // On and off in turn, round and back to the source: an even count.
                assert!(potentials.len() % 2 == 0 && potentials.len() <= 12);
                assert!(potentials.windows(2).all(|w| w[0].1 != w[1].1));
                closed += 1;
            }
        }
        assert!(closed > 0);
    }
}
