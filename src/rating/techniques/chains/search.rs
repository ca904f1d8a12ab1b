//! The searches from one potential, breadth first: the cycles back to it, and the shortest
//! forcing chain to its opposite (by potentials, or by masks of cells a layer at a time).

use std::ops::Range;

use super::graph::Masks;
use super::{Graph, Links, NONE};
use crate::shape::Shape;

/// A search's scratch space, kept from one search to the next. Its searches, and
/// [`forcing_by_masks`], are marked `#[inline]`: once in a file of their own they were no
/// longer inlined into `chain_step`, and `rate` took 0.8% more instructions over 100 of the
/// Sudoku Exchange puzzles.
pub(super) struct Scratch {
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
    pub(super) cycles: Vec<(u32, u32)>,
}

impl Scratch {
    pub(super) fn new(potentials: usize) -> Self {
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
    #[inline]
    pub(super) fn forcing<S: Shape>(
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
    #[inline]
    pub(super) fn cycles<S: Shape>(
        &mut self,
        graph: &Graph<'_, S>,
        source: u32,
        links: Links,
        most: usize,
    ) {
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
    #[inline]
    pub(super) fn cycle(&self, source: u32, cycle: (u32, u32), mut visit: impl FnMut(u32, bool)) {
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
    #[inline]
    pub(super) fn cycle_removal<S: Shape>(
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
#[inline]
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
