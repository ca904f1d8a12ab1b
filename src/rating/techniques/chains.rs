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

use std::ops::Range;

use super::Graded;
use crate::rating::ChainKind;
use crate::rating::logic::Logic;
use crate::shape::Shape;

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

/// The grid the implications follow. Potentials are numbered `N · cell + d` for digit
/// `d + 1`.
pub(super) struct Graph<'a, S: Shape> {
    logic: &'a Logic<S>,
    /// For each unit and digit (`N · unit + d`), the cells that allow the digit, in the
    /// unit's order: `N` slots each, of which `counts` are used.
    places: Vec<u16>,
    counts: Vec<u8>,
    /// On grids of at most 128 cells, the same links as cell masks.
    masks: Option<Masks>,
}

/// The links of a grid of at most 128 cells (4×4, 9×9) as masks of cells (bit `cell`), so
/// that a forcing chain's search takes a layer of potentials a digit at a time.
struct Masks {
    /// For each digit, the cells that allow it.
    allow: [u128; 9],
    /// For each digit and cell (`CELLS · d + cell`), the other place of the digit in each
    /// unit of the cell that has two.
    pairs: Vec<u128>,
    /// The cells of two candidates.
    bivalue: u128,
}

impl<'a, S: Shape> Graph<'a, S> {
    pub(super) fn new(logic: &'a Logic<S>) -> Self {
        let mut places = vec![0; S::UNITS * S::N * S::N];
        let mut counts = vec![0; S::UNITS * S::N];
        for unit in 0..S::UNITS {
            for &cell in S::unit(unit) {
                let mut digits = logic.cand[cell as usize];
                while digits != 0 {
                    let i = S::N * unit + digits.trailing_zeros() as usize;
                    digits &= digits - 1;
                    places[S::N * i + usize::from(counts[i])] = cell;
                    counts[i] += 1;
                }
            }
        }
        let masks = (!S::peer_masks().is_empty()).then(|| {
            let mut masks = Masks {
                allow: [0; 9],
                pairs: vec![0; S::N * S::CELLS],
                bivalue: 0,
            };
            for (cell, &cand) in logic.cand.as_ref().iter().enumerate() {
                for (d, allow) in masks.allow.iter_mut().enumerate().take(S::N) {
                    *allow |= u128::from(cand >> d & 1) << cell;
                }
                masks.bivalue |= u128::from(cand.count_ones() == 2) << cell;
            }
            for unit in 0..S::UNITS {
                for d in 0..S::N {
                    let i = S::N * unit + d;
                    if counts[i] == 2 {
                        let (a, b) = (
                            usize::from(places[S::N * i]),
                            usize::from(places[S::N * i + 1]),
                        );
                        masks.pairs[S::CELLS * d + a] |= 1 << b;
                        masks.pairs[S::CELLS * d + b] |= 1 << a;
                    }
                }
            }
            masks
        });
        Graph {
            logic,
            places,
            counts,
            masks,
        }
    }

    /// The cells of `unit` that allow digit `d + 1`, in the unit's order.
    #[inline]
    pub(super) fn places(&self, unit: usize, d: usize) -> &[u16] {
        let i = S::N * unit + d;
        &self.places[S::N * i..][..usize::from(self.counts[i])]
    }

    /// Calls `off` with each potential that on potential `p` turns off, in SE's order: the
    /// cell's other digits (with Y-links), then the digit in the box, the rest of the row and
    /// the rest of the column.
    #[inline]
    pub(super) fn on_to_off(&self, p: u32, links: Links, mut off: impl FnMut(u32)) {
        let (cell, d) = (p as usize / S::N, p as usize % S::N);
        if links.y() {
            let mut others = self.logic.cand[cell] & !(1 << d);
            while others != 0 {
                off((S::N * cell) as u32 + others.trailing_zeros());
                others &= others - 1;
            }
        }
        let [row, col, boxed] = S::units_of(cell);
        for &other in self.places(boxed, d) {
            if usize::from(other) != cell {
                off((S::N * usize::from(other) + d) as u32);
            }
        }
        for unit in [row, col] {
            for &other in self.places(unit, d) {
                if S::units_of(usize::from(other))[2] != boxed {
                    off((S::N * usize::from(other) + d) as u32);
                }
            }
        }
    }

    /// Calls `on` with each potential that off potential `p` turns on, once each, in SE's
    /// order: the cell's other digit if it has two (with Y-links), then the digit's other
    /// place in the box, the row and the column, where it has two (with X-links).
    #[inline]
    pub(super) fn off_to_on(&self, p: u32, links: Links, mut on: impl FnMut(u32)) {
        let (cell, d) = (p as usize / S::N, p as usize % S::N);
        let cand = self.logic.cand[cell];
        if links.y() && cand.count_ones() == 2 {
            let other = (cand & !(1 << d)).trailing_zeros();
            on((S::N * cell) as u32 + other);
        }
        if links.x() {
            let [row, col, boxed] = S::units_of(cell);
            let mut turned = [NONE; 3];
            for (k, unit) in [boxed, row, col].into_iter().enumerate() {
                if let &[a, b] = self.places(unit, d) {
                    let other = u32::from(if usize::from(a) == cell { b } else { a });
                    // A cell that the box and a line both pair it with counts once.
                    if !turned.contains(&other) {
                        on((S::N as u32) * other + d as u32);
                        turned[k] = other;
                    }
                }
            }
        }
    }
}

/// A search's scratch space, kept from one search to the next.
struct Scratch {
    /// `seen_on[p] == mark` when potential `p` is on in the current search; so for off.
    seen_on: Vec<u32>,
    seen_off: Vec<u32>,
    mark: u32,
    layer: Vec<u32>,
    next: Vec<u32>,
    /// A cycle search's on potentials: the potential, the index of the on potential that
    /// turned off the potential that turned it on (or [`NONE`] for the source), and that
    /// off potential.
    ons: Vec<(u32, u32, u32)>,
    /// The cycles found, in order: the index of the on potential that turns off the
    /// potential that turns the source back on, and that off potential.
    cycles: Vec<(u32, u32)>,
}

impl Scratch {
    fn new(potentials: usize) -> Self {
        Scratch {
            seen_on: vec![0; potentials],
            seen_off: vec![0; potentials],
            mark: 0,
            layer: Vec::new(),
            next: Vec::new(),
            ons: Vec::new(),
            cycles: Vec::new(),
        }
    }

    /// The complexity (potentials counted) of the shortest forcing chain from `source`, on
    /// when `on`, to its opposite, if at most `most`.
    fn forcing<S: Shape>(
        &mut self,
        graph: &Graph<'_, S>,
        source: u32,
        on: bool,
        links: Links,
        most: usize,
    ) -> Option<usize> {
        if let Some(masks) = &graph.masks {
            return forcing_by_masks::<S>(masks, source, on, links.y(), most);
        }
        self.mark += 1;
        let mark = self.mark;
        let Scratch {
            seen_on,
            seen_off,
            layer,
            next,
            ..
        } = self;
        if on {
            seen_on[source as usize] = mark;
        } else {
            seen_off[source as usize] = mark;
        }
        layer.clear();
        layer.push(source);
        let (mut depth, mut state) = (0, on);
        // The opposite, found in the next layer, comes after `depth + 1` potentials.
        while !layer.is_empty() && depth + 2 <= most {
            next.clear();
            let mut hit = false;
            for &p in layer.iter() {
                if state {
                    graph.on_to_off(p, links, |q| {
                        hit |= on && q == source;
                        if seen_off[q as usize] != mark {
                            seen_off[q as usize] = mark;
                            next.push(q);
                        }
                    });
                } else {
                    // From off to on, forcing chains follow X-links always.
                    let links = if links.y() { Links::Xy } else { Links::X };
                    graph.off_to_on(p, links, |q| {
                        hit |= !on && q == source;
                        if seen_on[q as usize] != mark {
                            seen_on[q as usize] = mark;
                            next.push(q);
                        }
                    });
                }
                if hit {
                    return Some(depth + 2);
                }
            }
            std::mem::swap(layer, next);
            depth += 1;
            state = !state;
        }
        None
    }

    /// Searches for the cycles through on potential `source` of at most `most` potentials,
    /// leaving them in `cycles` in the order SE finds them.
    ///
    /// SE turns on each potential once, from the first off potential that reaches it, but
    /// keeps an off potential once for each on potential that turns it off (and is not turned
    /// off itself on the way there). Only the first of those turns anything on, as the others
    /// come later, when all it turns on is on; so each is followed once here, and the others
    /// matter only where they would turn the source back on, closing a cycle.
    fn cycles<S: Shape>(&mut self, graph: &Graph<'_, S>, source: u32, links: Links, most: usize) {
        self.mark += 1;
        let mark = self.mark;
        let Scratch {
            seen_on,
            seen_off,
            ons,
            cycles,
            ..
        } = self;
        ons.clear();
        cycles.clear();
        // The off potentials that turn the source back on: the links are symmetric, so they
        // are those the source turns on when it is off (the other digit of its cell, if it
        // has two, and the other place of its digit in a unit that has two).
        let mut closing = [NONE; 4];
        let mut closers = 0;
        graph.off_to_on(source, links, |q| {
            closing[closers] = q;
            closers += 1;
        });
        let closing = &closing[..closers];
        if closing.is_empty() {
            // Nothing turns the source back on: no cycle runs through it.
            return;
        }
        seen_on[source as usize] = mark;
        ons.push((source, NONE, NONE));
        let mut on_layer = 0..1;
        let mut length = 2;
        // The cycles a round closes have `length` potentials.
        while !on_layer.is_empty() && length <= most {
            let first_on = ons.len();
            for i in on_layer {
                graph.on_to_off(ons[i].0, links, |q| {
                    if length >= 4 && closing.contains(&q) && !descends_from(ons, i, q) {
                        cycles.push((i as u32, q));
                    }
                    if seen_off[q as usize] == mark {
                        return;
                    }
                    seen_off[q as usize] = mark;
                    graph.off_to_on(q, links, |r| {
                        if seen_on[r as usize] != mark {
                            seen_on[r as usize] = mark;
                            ons.push((r, i as u32, q));
                        }
                    });
                });
            }
            on_layer = first_on..ons.len();
            length += 2;
        }
    }

    /// Calls `visit` with each potential of `cycle` (and whether it is on), from the source
    /// turned back on down the search, the source once.
    fn cycle(&self, source: u32, cycle: (u32, u32), mut visit: impl FnMut(u32, bool)) {
        let (mut i, closing) = cycle;
        visit(source, true);
        visit(closing, false);
        loop {
            let (p, back, via) = self.ons[i as usize];
            if back == NONE {
                break;
            }
            visit(p, true);
            visit(via, false);
            i = back;
        }
    }

    /// The eliminations of `cycle`: the candidates outside its cells that see an on
    /// potential and an off one of their digit.
    fn cycle_removal<S: Shape>(
        &self,
        graph: &Graph<'_, S>,
        source: u32,
        cycle: (u32, u32),
    ) -> S::Cells<u32> {
        let mut in_cycle = S::cells(false);
        self.cycle(source, cycle, |p, _| in_cycle[p as usize / S::N] = true);
        let (mut forward, mut backward) = (S::cells(0u32), S::cells(0u32));
        self.cycle(source, cycle, |p, on| {
            let (cell, bit) = (p as usize / S::N, 1u32 << (p as usize % S::N));
            let seen = if on { &mut forward } else { &mut backward };
            for &peer in S::peers(cell) {
                let peer = peer as usize;
                if !in_cycle[peer] && graph.logic.cand[peer] & bit != 0 {
                    seen[peer] |= bit;
                }
            }
        });
        for (f, b) in forward.as_mut().iter_mut().zip(backward.as_ref()) {
            *f &= b;
        }
        forward
    }
}

/// [`Scratch::forcing`] on a grid of at most 128 cells: the same breadth-first search, a
/// layer at a time, each digit's potentials as a mask of cells. An on layer turns off, for
/// each digit, the cells that allow it and see one of its cells in the layer (and, with
/// Y-links, the other digits of the layer's cells); an off layer turns on each cell's other
/// place of the digit in a unit that has two (and, with Y-links, the other digit of a cell
/// of two).
fn forcing_by_masks<S: Shape>(
    masks: &Masks,
    source: u32,
    on: bool,
    y: bool,
    most: usize,
) -> Option<usize> {
    let (cell, d) = (source as usize / S::N, source as usize % S::N);
    let (mut seen_on, mut seen_off, mut layer) = ([0u128; 9], [0u128; 9], [0u128; 9]);
    layer[d] = 1 << cell;
    if on {
        seen_on[d] = layer[d];
    } else {
        seen_off[d] = layer[d];
    }
    // Without Y-links, the search never leaves the source's digit.
    let lanes = if y { 0..S::N } else { d..d + 1 };
    // Keeps in a layer only what was not seen before, and marks it seen; false when nothing
    // is left.
    let fresh = |next: &mut [u128; 9], seen: &mut [u128; 9]| {
        let mut any = 0;
        for e in lanes.clone() {
            next[e] &= !seen[e];
            seen[e] |= next[e];
            any |= next[e];
        }
        any != 0
    };
    let (mut depth, mut state) = (0, on);
    while depth + 2 <= most {
        let mut next = [0u128; 9];
        let any = if state {
            turn_off::<S>(masks, &layer, lanes.clone(), y, &mut next);
            fresh(&mut next, &mut seen_off)
        } else {
            turn_on::<S>(masks, &layer, lanes.clone(), y, &mut next);
            fresh(&mut next, &mut seen_on)
        };
        // The source reached in the state it started in, from the other: a contradiction.
        if state == on && next[d] >> cell & 1 != 0 {
            return Some(depth + 2);
        }
        if !any {
            return None;
        }
        layer = next;
        depth += 1;
        state = !state;
    }
    None
}

/// Puts in `next` what an on `layer` of [`forcing_by_masks`] turns off, digit by digit over
/// `lanes`: the cells that allow the digit and see one of its cells in the layer, and, with
/// `y`, the other digits of the layer's cells (every digit of a cell on for two). Inlined,
/// and writing into the caller's layer: returning it instead, `rate` took 1.3% to 2.4% more
/// instructions over 100 of the Sudoku Exchange puzzles than with the search in one
/// function, against 0.2% so.
#[inline(always)]
fn turn_off<S: Shape>(
    masks: &Masks,
    layer: &[u128; 9],
    lanes: Range<usize>,
    y: bool,
    next: &mut [u128; 9],
) {
    let peers = S::peer_masks();
    for e in lanes {
        let mut seeing = 0;
        let mut rest = layer[e];
        while rest != 0 {
            seeing |= peers[rest.trailing_zeros() as usize];
            rest &= rest - 1;
        }
        next[e] = seeing & masks.allow[e];
    }
    if y {
        let (once, twice) = once_twice(&layer[..S::N]);
        for e in 0..S::N {
            next[e] |= (once & !layer[e] | twice) & masks.allow[e];
        }
    }
}

/// Puts in `next` what an off `layer` of [`forcing_by_masks`] turns on, digit by digit over
/// `lanes`: each cell's other place of the digit in a unit that has two, and, with `y`, the
/// other digit of each cell of two in the layer (both when the layer holds both). Inlined,
/// as [`turn_off`].
#[inline(always)]
fn turn_on<S: Shape>(
    masks: &Masks,
    layer: &[u128; 9],
    lanes: Range<usize>,
    y: bool,
    next: &mut [u128; 9],
) {
    for e in lanes {
        let mut rest = layer[e];
        while rest != 0 {
            let c = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            next[e] |= masks.pairs[S::CELLS * e + c];
        }
    }
    if y {
        let (once, twice) = once_twice(&layer[..S::N]);
        for e in 0..S::N {
            next[e] |= (once & !layer[e] | twice) & masks.bivalue & masks.allow[e];
        }
    }
}

/// The cells of at least one of `lanes`, and of at least two.
fn once_twice(lanes: &[u128]) -> (u128, u128) {
    let (mut once, mut twice) = (0, 0);
    for &cells in lanes {
        twice |= once & cells;
        once |= cells;
    }
    (once, twice)
}

/// True when on potential `i` (an index into `ons`) descends from off potential `q`.
fn descends_from(ons: &[(u32, u32, u32)], i: usize, q: u32) -> bool {
    let (_, mut back, mut via) = ons[i];
    while back != NONE {
        if via == q {
            return true;
        }
        (_, back, via) = ons[back as usize];
    }
    false
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
