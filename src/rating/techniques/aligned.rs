//! Aligned exclusion: SE's aligned pair exclusion (6.2), the last technique of fixed rating
//! in its list, and aligned triple exclusion (7.5), which it tries after forcing chains and
//! cycles, before Nishio chains.
//!
//! Two or three *base* cells and their common *excluders*: cells that see every base cell
//! and hold two candidates (for a pair) or two or three (for a triple), at least two such
//! cells. A combination of digits for the base cells cannot stand when two base cells that
//! see each other take the same digit, or when it takes every candidate of an excluder,
//! which would be left empty. A candidate of a base cell that no combination left standing
//! takes is removed.
//!
//! SE's order, which [`aligned_pair`] and [`aligned_triple_step`] follow: the base cells are
//! the cells of two candidates or more that have an excluder of their own, in cell order;
//! pairs come by their second cell, then their first; a triple adds to a pair a third base
//! cell among the excluders of the first cell and then of the second, each in SE's house
//! order (box, row, column). The first set that removes something is the step.

use super::{Graded, sees};
use crate::rating::ChainKind;
use crate::rating::logic::{Found, Logic};
use crate::shape::Shape;

/// The most excluders a set of base cells can share: at least the peers of a cell on the
/// largest grid (64).
const MOST_SHARED: usize = 64;

/// The base cells of one search and what makes a cell an excluder.
struct Bases<'a, S: Shape> {
    logic: &'a Logic<S>,
    /// The most candidates an excluder holds: the number of base cells.
    most: u32,
    /// The base cells, in cell order: the first `len`.
    cells: S::Cells<u16>,
    len: usize,
    /// Which cells are base cells.
    is_base: S::Cells<bool>,
    /// On grids of at most 128 cells, the excluders as a mask of cells.
    excluder_mask: u128,
}

impl<'a, S: Shape> Bases<'a, S> {
    fn new(logic: &'a Logic<S>, most: u32) -> Self {
        let mut bases = Bases {
            logic,
            most,
            cells: S::cells(0),
            len: 0,
            is_base: S::cells(false),
            excluder_mask: 0,
        };
        if !S::peer_masks().is_empty() {
            bases.excluder_mask = (0..S::CELLS)
                .filter(|&c| bases.is_excluder(c))
                .fold(0, |m, c| m | 1 << c);
        }
        for cell in 0..S::CELLS {
            if logic.cand[cell].count_ones() >= 2 && bases.has_excluder(cell) {
                bases.cells[bases.len] = cell as u16;
                bases.len += 1;
                bases.is_base[cell] = true;
            }
        }
        bases
    }

    /// True when `cell` holds from two candidates to as many as there are base cells.
    fn is_excluder(&self, cell: usize) -> bool {
        (2..=self.most).contains(&self.logic.cand[cell].count_ones())
    }

    /// True when some peer of `cell` is an excluder.
    fn has_excluder(&self, cell: usize) -> bool {
        match S::peer_masks().get(cell) {
            Some(&peers) => peers & self.excluder_mask != 0,
            None => S::peers(cell).iter().any(|&e| self.is_excluder(e.into())),
        }
    }

    /// The excluders among `among` that see `cell`, in `shared`; returns how many.
    fn seeing(&self, among: &[u16], cell: usize, shared: &mut [u16; MOST_SHARED]) -> usize {
        let mut len = 0;
        for &e in among {
            if sees::<S>(e.into(), cell) {
                shared[len] = e;
                len += 1;
            }
        }
        len
    }

    /// The pairs of base cells in SE's order, each with the excluders both see when there
    /// are two or more, until `visit` returns true.
    fn pairs(&self, mut visit: impl FnMut(usize, usize, &[u16]) -> bool) {
        let mut shared = [0u16; MOST_SHARED];
        let cells = &self.cells.as_ref()[..self.len];
        for (i, &second) in cells.iter().enumerate() {
            let second = usize::from(second);
            // The excluders that see the second cell, as a mask when the grid has one.
            let (mut around, mut around_mask) = ([0u16; MOST_SHARED], 0u128);
            let mut around_len = 0;
            match S::peer_masks().get(second) {
                Some(&peers) => around_mask = peers & self.excluder_mask,
                None => {
                    for &e in S::peers(second) {
                        if self.is_excluder(e.into()) {
                            around[around_len] = e;
                            around_len += 1;
                        }
                    }
                }
            }
            for &first in &cells[..i] {
                let first = usize::from(first);
                let len = match S::peer_masks().get(first) {
                    Some(&peers) => {
                        let mut common = peers & around_mask;
                        let mut len = 0;
                        while common != 0 {
                            shared[len] = common.trailing_zeros() as u16;
                            common &= common - 1;
                            len += 1;
                        }
                        len
                    }
                    None => self.seeing(&around[..around_len], first, &mut shared),
                };
                if len >= 2 && visit(first, second, &shared[..len]) {
                    return;
                }
            }
        }
    }

    /// The candidates of each base cell that no combination left standing takes.
    ///
    /// The digits of every base cell but the last are enumerated; the last cell's digits
    /// that stand with them are found at once, as those no clash and no excluder rules out.
    fn excluded(&self, base: &[usize], shared: &[u16]) -> [u32; 3] {
        let mut cand = [0u32; 3];
        for (c, &cell) in cand.iter_mut().zip(base) {
            *c = self.logic.cand[cell];
        }
        let last = base.len() - 1;
        // Whether each cell before the last sees it, and whether the first two see each other.
        let clashes = [
            sees::<S>(base[0], base[last]),
            sees::<S>(base[1], base[last]),
        ];
        let first_two = last == 2 && sees::<S>(base[0], base[1]);
        // Only excluders whose candidates all lie among the base cells' rule anything out.
        let within = cand[0] | cand[1] | cand[2];
        let (mut ruling, mut len) = ([0u32; MOST_SHARED], 0);
        for &e in shared {
            let held = self.logic.cand[usize::from(e)];
            if held & !within == 0 {
                ruling[len] = held;
                len += 1;
            }
        }
        let ruling = &ruling[..len];
        if ruling.is_empty() && !clashes.contains(&true) && !first_two {
            return [0; 3];
        }
        // The last cell's digits that stand with `chosen`, the digits of the cells before it.
        let standing = |chosen: &[u32]| {
            let union = chosen.iter().fold(0, |u, &d| u | d);
            let mut ruled_out = 0;
            for (&d, &clash) in chosen.iter().zip(&clashes) {
                if clash {
                    ruled_out |= d;
                }
            }
            // An excluder left one candidate rules it out; left none, every digit.
            for &held in ruling {
                let rest = held & !union;
                if rest & rest.wrapping_sub(1) == 0 {
                    ruled_out |= if rest == 0 { u32::MAX } else { rest };
                }
            }
            cand[last] & !ruled_out
        };
        let mut taken = [0u32; 3];
        for a in ones(cand[0]) {
            if last == 1 {
                let b = standing(&[a]);
                if b != 0 {
                    taken[0] |= a;
                    taken[1] |= b;
                }
                continue;
            }
            for b in ones(cand[1]) {
                if a == b && first_two {
                    continue;
                }
                let c = standing(&[a, b]);
                if c != 0 {
                    taken[0] |= a;
                    taken[1] |= b;
                    taken[2] |= c;
                }
            }
        }
        [
            cand[0] & !taken[0],
            cand[1] & !taken[1],
            cand[2] & !taken[2],
        ]
    }

    /// The eliminations of `base` as a removal, if it has any.
    fn removal(&self, base: &[usize], shared: &[u16]) -> Option<S::Cells<u32>> {
        let excluded = self.excluded(base, shared);
        if excluded.iter().all(|&bits| bits == 0) {
            return None;
        }
        let mut removal = S::cells(0u32);
        for (&cell, &bits) in base.iter().zip(&excluded) {
            removal[cell] |= bits;
        }
        Some(removal)
    }
}

/// Each candidate of `mask` as a mask of its own.
fn ones(mut mask: u32) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        let one = mask & mask.wrapping_neg();
        mask &= mask.wrapping_sub(1);
        (one != 0).then_some(one)
    })
}

/// Aligned pair exclusions (6.2), in SE's order.
pub(super) fn aligned_pair<S: Shape>(logic: &Logic<S>, found: &mut Found<'_, S>) {
    let bases = Bases::new(logic, 2);
    bases.pairs(|first, second, shared| {
        bases
            .removal(&[first, second], shared)
            .is_some_and(|removal| found(logic, &removal, 0))
    });
}

/// Takes SE's first aligned triple exclusion (7.5) when the cap allows it.
pub(in crate::rating) fn aligned_triple_step<S: Shape>(logic: &mut Logic<S>, cap: u32) -> Graded {
    let Some(removal) = first_triple(logic) else {
        return Graded::Nothing;
    };
    Graded::chain(7.5, ChainKind::AlignedTripleExclusion, cap, || {
        logic.eliminate_all(&removal)
    })
}

/// The eliminations of SE's first aligned triple exclusion.
///
/// A pair's third cells are looked at in cell order; among those that remove something,
/// the first in SE's order ([`house_rank`]) is the step.
fn first_triple<S: Shape>(logic: &Logic<S>) -> Option<S::Cells<u32>> {
    let bases = Bases::new(logic, 3);
    let mut step: Option<(usize, S::Cells<u32>)> = None;
    let mut shared = [0u16; MOST_SHARED];
    bases.pairs(|first, second, pair_shared| {
        // Third cells: base cells that are excluders of the first or the second cell.
        let peers_of_second = S::peers(second)
            .iter()
            .filter(|&&cell| !sees::<S>(cell.into(), first));
        for &third in S::peers(first).iter().chain(peers_of_second) {
            let third = usize::from(third);
            if third == first
                || third == second
                || !bases.is_base[third]
                || !bases.is_excluder(third)
            {
                continue;
            }
            let len = bases.seeing(pair_shared, third, &mut shared);
            if len < 2 {
                continue;
            }
            let rank = house_rank::<S>(first, second, third);
            if step.as_ref().is_some_and(|&(best, _)| best < rank) {
                continue;
            }
            if let Some(removal) = bases.removal(&[first, second, third], &shared[..len]) {
                step = Some((rank, removal));
            }
        }
        step.is_some()
    });
    step.map(|(_, removal)| removal)
}

/// Where `third` comes among the cells SE adds to the pair `first`, `second`: the first
/// cell's peers in its box, row and column, then the second's that the first does not see,
/// each unit in cell order.
fn house_rank<S: Shape>(first: usize, second: usize, third: usize) -> usize {
    let by = |owner: usize| {
        let (o, t) = (S::units_of(owner), S::units_of(third));
        if o[2] == t[2] {
            0
        } else if o[0] == t[0] {
            1
        } else {
            2
        }
    };
    let group = if sees::<S>(first, third) {
        by(first)
    } else {
        3 + by(second)
    };
    group * S::CELLS + third
}

#[cfg(test)]
mod tests {
    use super::super::testing::{dug, steps_keep, thinned};
    use super::*;
    use crate::rng::attempt_rng;
    use crate::shape::{Nine, Sixteen};

    /// A cell's candidates, one mask each.
    fn digits(mask: u32) -> Vec<u32> {
        (0..32).map(|d| 1 << d).filter(|&b| mask & b != 0).collect()
    }

    /// SE's exclusion as its code reads: every combination of the base cells' digits, tried
    /// against every two base cells that see each other and every excluder; the candidates
    /// of each base cell that no combination left standing takes.
    fn excluded_by_se<S: Shape>(logic: &Logic<S>, base: &[usize], shared: &[usize]) -> Vec<u32> {
        let choices: Vec<Vec<u32>> = base.iter().map(|&c| digits(logic.cand[c])).collect();
        let mut combos: Vec<Vec<u32>> = vec![vec![]];
        for options in &choices {
            combos = combos
                .iter()
                .flat_map(|combo| {
                    options.iter().map(move |&d| {
                        let mut longer = combo.clone();
                        longer.push(d);
                        longer
                    })
                })
                .collect();
        }
        let mut taken = vec![0u32; base.len()];
        for combo in combos {
            let clash = (0..base.len()).any(|i| {
                (i + 1..base.len()).any(|j| combo[i] == combo[j] && sees::<S>(base[i], base[j]))
            });
            let union = combo.iter().fold(0, |u, &d| u | d);
            let emptied = shared.iter().any(|&e| logic.cand[e] & !union == 0);
            if !clash && !emptied {
                for (t, &d) in taken.iter_mut().zip(&combo) {
                    *t |= d;
                }
            }
        }
        base.iter()
            .zip(&taken)
            .map(|(&c, &t)| logic.cand[c] & !t)
            .collect()
    }

    /// SE's base cells for excluders of at most `most` candidates, and each one's
    /// excluders in its house order (box, row, column).
    fn bases_by_se<S: Shape>(logic: &Logic<S>, most: u32) -> Vec<(usize, Vec<usize>)> {
        let n = S::N;
        let house = |cell: usize| {
            let (r, c, b) = (cell / n, cell % n, S::BOX);
            let (top, left) = (r / b * b, c / b * b);
            let boxed = (0..n).map(move |i| (top + i / b) * n + left + i % b);
            let row = (0..n).map(move |i| r * n + i);
            let column = (0..n).map(move |i| i * n + c);
            let mut seen = Vec::new();
            for other in boxed.chain(row).chain(column) {
                if other != cell && !seen.contains(&other) {
                    seen.push(other);
                }
            }
            seen
        };
        (0..S::CELLS)
            .filter(|&cell| logic.cand[cell].count_ones() >= 2)
            .map(|cell| {
                let excluders = house(cell)
                    .into_iter()
                    .filter(|&e| (2..=most).contains(&logic.cand[e].count_ones()))
                    .collect();
                (cell, excluders)
            })
            .filter(|(_, excluders): &(usize, Vec<usize>)| !excluders.is_empty())
            .collect()
    }

    /// Every aligned pair exclusion in SE's order, as SE's code finds them.
    fn pairs_by_se<S: Shape>(logic: &Logic<S>) -> Vec<Vec<u32>> {
        let bases = bases_by_se(logic, 2);
        let mut found = Vec::new();
        for j in 1..bases.len() {
            for i in 0..j {
                let ((a, ea), (b, eb)) = (&bases[i], &bases[j]);
                let shared: Vec<usize> = ea.iter().copied().filter(|e| eb.contains(e)).collect();
                if shared.len() < 2 {
                    continue;
                }
                let excluded = excluded_by_se(logic, &[*a, *b], &shared);
                if excluded.iter().any(|&x| x != 0) {
                    let mut removal = vec![0u32; S::CELLS];
                    removal[*a] = excluded[0];
                    removal[*b] = excluded[1];
                    found.push(removal);
                }
            }
        }
        found
    }

    /// SE's first aligned triple exclusion, as its code finds it.
    fn first_triple_by_se<S: Shape>(logic: &Logic<S>) -> Option<Vec<u32>> {
        let bases = bases_by_se(logic, 3);
        let is_base = |cell: usize| bases.iter().any(|(c, _)| *c == cell);
        for j in 1..bases.len() {
            for i in 0..j {
                let ((a, ea), (b, eb)) = (&bases[i], &bases[j]);
                let mut thirds: Vec<usize> = Vec::new();
                for &cell in ea.iter().chain(eb) {
                    if is_base(cell) && cell != *a && cell != *b && !thirds.contains(&cell) {
                        thirds.push(cell);
                    }
                }
                for c in thirds {
                    let ec = &bases.iter().find(|(x, _)| *x == c).unwrap().1;
                    let shared: Vec<usize> = ea
                        .iter()
                        .copied()
                        .filter(|e| eb.contains(e) && ec.contains(e))
                        .collect();
                    if shared.len() < 2 {
                        continue;
                    }
                    let excluded = excluded_by_se(logic, &[*a, *b, c], &shared);
                    if excluded.iter().any(|&x| x != 0) {
                        let mut removal = vec![0u32; S::CELLS];
                        for (&cell, &x) in [*a, *b, c].iter().zip(&excluded) {
                            removal[cell] = x;
                        }
                        return Some(removal);
                    }
                }
            }
        }
        None
    }

    /// On thinned grids of `S`, the pair and triple exclusions are SE's, in SE's order,
    /// and keep the solution; returns how many pair and triple exclusions were compared.
    fn compare<S: Shape>(holes: usize, count: u64) -> (usize, usize) {
        let mut rng = attempt_rng(5, 0);
        let (mut pairs, mut triples) = (0, 0);
        for made in dug::<S>(holes, count) {
            let (logic, solution) = thinned(&made, &mut rng);
            let mut offered = Vec::new();
            aligned_pair(&logic, &mut |_, removal, _| {
                offered.push(removal.as_ref().to_vec());
                false
            });
            assert_eq!(offered, pairs_by_se(&logic));
            for removal in &offered {
                assert!(
                    removal
                        .iter()
                        .zip(solution.as_ref())
                        .all(|(r, s)| r & s == 0)
                );
            }
            pairs += offered.len();
            let triple = first_triple(&logic).map(|r| r.as_ref().to_vec());
            assert_eq!(triple, first_triple_by_se(&logic));
            triples += usize::from(triple.is_some());
            let mut stepped = logic.clone();
            steps_keep(&mut stepped, &solution, 20, aligned_triple_step);
        }
        (pairs, triples)
    }

    #[test]
    fn aligned_exclusions_are_ses_and_keep_the_solution() {
        let nine = compare::<Nine>(56, 300);
        eprintln!("9×9 pair and triple exclusions: {nine:?}");
        assert!(nine.0 > 1000 && nine.1 > 100, "{nine:?}");
        let sixteen = compare::<Sixteen>(150, 2);
        eprintln!("16×16 pair and triple exclusions: {sixteen:?}");
        assert!(sixteen.0 + sixteen.1 > 0, "{sixteen:?}");
    }
}
