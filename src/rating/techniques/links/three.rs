//! Chains of three strong links on one digit, grouped or not.

use super::{End, Link, link_unit, strong_links};
use crate::rating::logic::{Found, Logic};
use crate::rating::techniques::sees;
use crate::shape::Shape;

/// Three strong links on one digit, chained (an X-chain, Sukaku Explainer's "3 strong
/// links"): A–B, C–D and E–F, each the digit's only two places in a unit, where B sees C
/// and D sees E, all six cells apart. One of A and F holds the digit, so a cell that sees
/// both loses it. SE leaves out cells of the three units and of the units B–C and D–E
/// share, and a box's link whose places lie on one line. When A and F share a unit too,
/// the chain closes into a loop: then each of its weak links (F–A, B–C, D–E) holds the
/// digit once, and a cell that sees both its ends, outside the three units, loses it.
///
/// SE rates them by the units of the links: three parallel lines 5.4, a box with a row and
/// a column 5.6, any other mix 5.5; of the chains of a rating it takes the one with the
/// most eliminations. Its chains with a group of places, rated 5.7, are
/// [`grouped_three_links`].
#[derive(Clone, Copy, PartialEq, Eq)]
pub(in crate::rating::techniques) enum ThreeLinks {
    Parallel,
    Mixed,
    BoxRowColumn,
}

impl ThreeLinks {
    /// The kind of a chain whose strong links lie in `units`.
    fn of<S: Shape>(units: [usize; 3]) -> ThreeLinks {
        let has = |kind: usize| units.iter().any(|&u| u / S::N == kind);
        match (has(0), has(1), has(2)) {
            (true, true, true) => ThreeLinks::BoxRowColumn,
            (_, _, false) if !(has(0) && has(1)) => ThreeLinks::Parallel,
            _ => ThreeLinks::Mixed,
        }
    }
}

/// The chains of three strong links of one kind (see [`ThreeLinks`]): offers the one with
/// the most eliminations, the first found on a tie.
pub(in crate::rating::techniques) fn three_links<S: Shape>(
    logic: &Logic<S>,
    kind: ThreeLinks,
    digits: u32,
    found: &mut Found<'_, S>,
) {
    let shared = |a: usize, b: usize| link_unit(S::units_of(a), S::units_of(b));
    let mut table = S::units([0u32; 32]);
    for (unit, places) in table.as_mut().iter_mut().enumerate() {
        *places = logic.unit_places(unit);
    }
    let mut best: Option<(usize, S::Cells<u32>)> = None;
    // Per digit: its strong links (two places and the unit), then, for a middle link's end,
    // the links with an end that sees it (the link, that end, the other end).
    let mut links = [(0usize, 0usize, 0usize); 75];
    // Each link may reach an end both ways.
    let mut outer = [[(0usize, 0usize, 0usize); 150]; 2];
    for digit in (0..S::N).filter(|d| digits >> d & 1 != 0) {
        let bit = 1u32 << digit;
        let (len, _, _) = strong_links::<S>(&table, S::UNITS, digit, false, &mut links);
        let links = &links[..len];
        for (m, &(c, d, middle)) in links.iter().enumerate() {
            // Parallel chains lie in lines of one kind: the middle link's.
            let parallel = kind == ThreeLinks::Parallel;
            if parallel && middle >= 2 * S::N {
                continue;
            }
            // Links reaching each end of the middle one: [0] by c, [1] by d. (A chain read
            // from its other end is the same chain: the middle is taken one way only.)
            let lines = parallel.then_some(middle / S::N);
            let [by_c, by_d] = &mut outer;
            let counts = [
                reaching::<S>(links, m, c, lines, by_c),
                reaching::<S>(links, m, d, lines, by_d),
            ];
            for &(p, b, a) in &outer[0][..counts[0]] {
                for &(q, e, f) in &outer[1][..counts[1]] {
                    if p == q {
                        continue;
                    }
                    let units = [links[p].2, middle, links[q].2];
                    if ThreeLinks::of::<S>(units) != kind {
                        continue;
                    }
                    let cells = [a, b, c, d, e, f];
                    let apart = (0..6).all(|i| (i + 1..6).all(|j| cells[i] != cells[j]));
                    if !apart {
                        continue;
                    }
                    let (Some(bc), Some(de)) = (shared(b, c), shared(d, e)) else {
                        continue;
                    };
                    let weak = [bc, de];
                    let (count, removal) = cell_chain_removal(logic, bit, &cells, units, weak);
                    if count > best.as_ref().map_or(0, |b| b.0) {
                        best = Some((count, removal));
                    }
                }
            }
        }
    }
    if let Some((_, removal)) = best {
        found(logic, &removal, 0);
    }
}

/// The links among `links` other than link `m` with an end that sees `end`, into `out`:
/// each link's index, that end, and its other end (a link may reach `end` both ways); with
/// `lines`, only the links in lines of that kind (0 rows, 1 columns). Returns how many.
fn reaching<S: Shape>(
    links: &[Link],
    m: usize,
    end: usize,
    lines: Option<usize>,
    out: &mut [(usize, usize, usize)],
) -> usize {
    let mut count = 0;
    for (i, &(x, y, unit)) in links.iter().enumerate() {
        let other_kind = lines.is_some_and(|kind| unit / S::N != kind);
        if i == m || x == end || y == end || other_kind {
            continue;
        }
        for (inner, outer_end) in [(x, y), (y, x)] {
            if sees::<S>(inner, end) {
                out[count] = (i, inner, outer_end);
                count += 1;
            }
        }
    }
    count
}

/// What [`three_links`]'s chain of cells `a`–`b`, `c`–`d`, `e`–`f` (`cells`, links in
/// `units`, weak links `b`–`c` and `d`–`e` in `weak`) removes, and how many: the cells that
/// see both ends, outside the five units; for a loop (`a` and `f` share a unit), the cells
/// that see both ends of any weak link, outside the links' units.
fn cell_chain_removal<S: Shape>(
    logic: &Logic<S>,
    bit: u32,
    cells: &[usize; 6],
    units: [usize; 3],
    weak: [usize; 2],
) -> (usize, S::Cells<u32>) {
    let [a, b, c, d, e, f] = *cells;
    let within = |cell: usize, units: &[usize]| {
        let of = S::units_of(cell);
        units.iter().any(|u| of.contains(u))
    };
    let mut removal = S::cells(0u32);
    let mut count = 0;
    let mut doom = |x: usize, y: usize, outside: &[usize]| {
        for &cell in S::peers(x) {
            let cell = cell as usize;
            let doomed = logic.cand[cell] & bit != 0
                && cell != y
                && removal[cell] == 0
                && sees::<S>(cell, y)
                && !within(cell, outside);
            if doomed {
                removal[cell] = bit;
                count += 1;
            }
        }
    };
    if link_unit(S::units_of(a), S::units_of(f)).is_some() {
        doom(a, f, &units);
        doom(b, c, &units);
        doom(d, e, &units);
    } else {
        doom(a, f, &[units[0], units[1], units[2], weak[0], weak[1]]);
    }
    (count, removal)
}

/// Chains of three strong links on one digit where one link or more has a group of places,
/// rated 5.7 by Sukaku Explainer: the chains of its `ThreeStrongLinks` through an empty
/// rectangle ("3 Strong links (with Empty Rectangle)") and its grouped strong links of three
/// (`StrongLinksHint.getDifficulty`: three links 5.4, and 0.3 more with a group).
/// - An empty rectangle: a box whose places of the digit, three or more, lie on the cross of
///   one row and one column of the box, the first such cross in the box's order (SE's
///   `Rectangle` and `Heart`). The digit is in the cross's row or in its column, and the
///   chain takes the cell where they cross, its heart, for both ends of that link.
/// - A line whose places lie in two of its box segments: the places in each segment are
///   one end, a group, true when one of its cells is.
///
/// Other links are a line's two places or a box's two places off one line. A weak link joins
/// two ends whose cells all share a unit (a column before a row before a box), none of the
/// links'. The search follows SE's `ThreeStrongLinks.getHints`: the links' units by kind in
/// its order, each chain read from either end of its first link and with its links in three
/// orders; the ends apart, an empty rectangle's box holding no cell of the other links. A
/// cell that sees every cell of both ends of the chain, outside the links' and the weak
/// links' units, loses the digit. Of the chains with eliminations, SE takes the one with the
/// most, then the least name suffix ([`suffix`]), then the first found.
pub(in crate::rating::techniques) fn grouped_three_links<S: Shape>(
    logic: &Logic<S>,
    digits: u32,
    found: &mut Found<'_, S>,
) {
    // SE's kinds of unit: 0 a box, 1 a row, 2 a column, in its order.
    const KINDS: [[usize; 3]; 10] = [
        [1, 1, 1],
        [2, 2, 2],
        [0, 0, 0],
        [0, 0, 1],
        [0, 0, 2],
        [0, 1, 1],
        [0, 2, 2],
        [0, 1, 2],
        [1, 1, 2],
        [1, 2, 2],
    ];
    let mut table = S::units([0u32; 32]);
    for (unit, places) in table.as_mut().iter_mut().enumerate() {
        *places = logic.unit_places(unit);
    }
    // The chain SE takes: the most eliminations, then the least suffix, then the first in
    // its order (kinds of unit, then digit, then the order found).
    let mut best: Option<Choice<S::Cells<u32>>> = None;
    for digit in (0..S::N).filter(|d| digits >> d & 1 != 0) {
        let digit_links = DigitLinks::<S>::new(&table, digit);
        for (k, kinds) in KINDS.into_iter().enumerate() {
            let order = (k, digit);
            digit_links.each_grouped_triple(kinds, |links, units| {
                let mut offer = |count, label, removal| {
                    let better = best.as_ref().is_none_or(|(most, least, first, _)| {
                        count > *most
                            || count == *most
                                && (label < *least || label == *least && order < *first)
                    });
                    if better {
                        best = Some((count, label, order, removal));
                    }
                };
                grouped_chains(logic, 1 << digit, links, units, kinds, &mut offer);
            });
        }
    }
    if let Some((_, _, _, removal)) = best {
        found(logic, &removal, 0);
    }
}

/// The unit of a kind (0 a box, 1 a row, 2 a column) and index.
fn unit_of<S: Shape>(kind: usize, index: usize) -> usize {
    [2 * S::N, 0, S::N][kind] + index
}

/// A digit's links in every unit, as [`grouped_three_links`] takes them.
struct DigitLinks<S: Shape> {
    /// The link in each unit, if any ([`grouped_link`]).
    links: S::Units<Option<GroupedLink>>,
    /// By kind of unit, the units with a link, and those whose link has a group (or is an
    /// empty rectangle).
    linked: [u32; 3],
    grouped: [u32; 3],
}

impl<S: Shape> DigitLinks<S> {
    /// The links of `digit`, whose places in each unit `table` holds.
    fn new(table: &S::Units<[u32; 32]>, digit: usize) -> Self {
        let mut links = S::units(None);
        for (unit, link) in links.as_mut().iter_mut().enumerate() {
            *link = grouped_link::<S>(unit, table.as_ref()[unit][digit]);
        }
        let mut digit_links = DigitLinks {
            links,
            linked: [0; 3],
            grouped: [0; 3],
        };
        for kind in 0..3 {
            for index in 0..S::N {
                if let Some(link) = digit_links.link(kind, index) {
                    let grouped = u32::from(link.rectangle || link.groups);
                    digit_links.linked[kind] |= 1 << index;
                    digit_links.grouped[kind] |= grouped << index;
                }
            }
        }
        digit_links
    }

    /// The link in the unit of `kind` and `index`, if any.
    fn link(&self, kind: usize, index: usize) -> Option<&GroupedLink> {
        self.links.as_ref()[unit_of::<S>(kind, index)].as_ref()
    }

    /// The indices of the units of `kind` with a link, from `from` on.
    fn linked_from(&self, kind: usize, from: usize) -> impl Iterator<Item = usize> + use<S> {
        let mut rest = self.linked[kind] & !((1u32 << from) - 1);
        std::iter::from_fn(move || {
            let index = rest.trailing_zeros() as usize;
            rest &= rest.wrapping_sub(1);
            (index < 32).then_some(index)
        })
    }

    /// Calls `each` with every three links in units of `kinds`, in SE's order, one of them
    /// with a group or more, and their units; units of one kind come in increasing order.
    fn each_grouped_triple(
        &self,
        kinds: [usize; 3],
        mut each: impl FnMut([&GroupedLink; 3], [usize; 3]),
    ) {
        let has_group = |kind: usize, index: usize| self.grouped[kind] >> index & 1 != 0;
        let link = |kind: usize, index: usize| self.link(kind, index).expect("a linked unit");
        for i1 in self.linked_from(kinds[0], 0) {
            let from2 = if kinds[0] == kinds[1] { i1 + 1 } else { 0 };
            for i2 in self.linked_from(kinds[1], from2) {
                let from3 = match kinds {
                    [_, b, c] if b == c => i2 + 1,
                    [a, _, c] if a == c => i1 + 1,
                    _ => 0,
                };
                for i3 in self.linked_from(kinds[2], from3) {
                    let groups = has_group(kinds[0], i1)
                        || has_group(kinds[1], i2)
                        || has_group(kinds[2], i3);
                    if !groups {
                        continue;
                    }
                    let units = [
                        unit_of::<S>(kinds[0], i1),
                        unit_of::<S>(kinds[1], i2),
                        unit_of::<S>(kinds[2], i3),
                    ];
                    let links = [link(kinds[0], i1), link(kinds[1], i2), link(kinds[2], i3)];
                    each(links, units);
                }
            }
        }
    }
}

/// A chain [`grouped_three_links`] may take: its eliminations, its [`suffix`], its place in
/// SE's order (kinds of unit, digit) and its removal.
type Choice<C> = (usize, [u8; 3], (usize, usize), C);

/// A strong link of [`grouped_three_links`] (see [`grouped_link`]).
#[derive(Clone, Copy, Debug)]
struct GroupedLink {
    /// Its two ends; an empty rectangle's heart twice.
    ends: [End; 2],
    /// Whether it is an empty rectangle.
    rectangle: bool,
    /// Whether its ends are groups of a line's places.
    groups: bool,
}

/// A strong link on a digit whose places in `unit` are `places`, as [`grouped_three_links`]
/// takes it: its two ends (the heart twice for an empty rectangle), whether it is an empty
/// rectangle and whether its ends are groups of a line. A line's two places, or its places
/// in two of its box segments; a box's two places off one line; a box's three places or more
/// (up to a cross's `2·BOX − 1`) on the cross of one row and one column of the box, the
/// first cell of the box whose row and column hold them all being the heart.
fn grouped_link<S: Shape>(unit: usize, places: u32) -> Option<GroupedLink> {
    let (n, side) = (S::N, S::BOX);
    let cells = S::unit(unit);
    let cell = |k: u32| cells[k as usize] as usize;
    let count = places.count_ones() as usize;
    if count == 2 {
        let (a, b) = (
            cell(places.trailing_zeros()),
            cell(31 - places.leading_zeros()),
        );
        let on_line = link_unit(S::units_of(a), S::units_of(b)).is_some_and(|u| u < 2 * n);
        return (unit < 2 * n || !on_line).then(|| GroupedLink {
            ends: [End::new::<S>(&[a]), End::new::<S>(&[b])],
            rectangle: false,
            groups: false,
        });
    }
    if count < 3 {
        return None;
    }
    if unit < 2 * n {
        // A line whose places lie in two of its box segments: a group in each.
        let segment = |j: usize| places >> (side * j) & ((1 << side) - 1);
        let held = (0..side).fold(0u32, |m, j| m | u32::from(segment(j) != 0) << j);
        if held.count_ones() != 2 {
            return None;
        }
        let group = |j: u32| {
            let (mut members, mut len) = ([0usize; 5], 0);
            let mut rest = segment(j as usize);
            while rest != 0 {
                members[len] = cell(side as u32 * j + rest.trailing_zeros());
                rest &= rest - 1;
                len += 1;
            }
            End::new::<S>(&members[..len])
        };
        let (first, last) = (held.trailing_zeros(), 31 - held.leading_zeros());
        return Some(GroupedLink {
            ends: [group(first), group(last)],
            rectangle: false,
            groups: true,
        });
    }
    if count > 2 * side - 1 {
        return None;
    }
    (0..n)
        .find(|&e| {
            let cross = (0..n).filter(|&k| k / side == e / side || k % side == e % side);
            places & !cross.fold(0u32, |m, k| m | 1 << k) == 0
        })
        .map(|e| {
            let heart = End::new::<S>(&[cell(e as u32)]);
            GroupedLink {
                ends: [heart, heart],
                rectangle: true,
                groups: false,
            }
        })
}

/// Offers the chains SE reads from three links of a digit (`bit`), one with a group or more,
/// in `units` of SE's `kinds` (see [`grouped_three_links`]), with eliminations, in
/// SE's order: how many, the chain's [`suffix`] and the removal.
fn grouped_chains<S: Shape>(
    logic: &Logic<S>,
    bit: u32,
    links: [&GroupedLink; 3],
    units: [usize; 3],
    kinds: [usize; 3],
    offer: &mut impl FnMut(usize, [u8; 3], S::Cells<u32>),
) {
    let er = links.map(|link| link.rectangle);
    let nodes = [
        &links[0].ends[0],
        &links[0].ends[1],
        &links[1].ends[0],
        &links[1].ends[1],
        &links[2].ends[0],
        &links[2].ends[1],
    ];
    // Whether the links may chain at all: every cell apart, each heart once, and an empty
    // rectangle's box holding no cell of the other links. Worked out at the first chain
    // whose weak links hold, as most have none.
    let fits = || {
        let counted = |i: usize| i.is_multiple_of(2) || !er[i / 2];
        let meet = |a: &End, b: &End| a.cells().iter().any(|c| b.cells().contains(c));
        let clash = (0..6)
            .filter(|&i| counted(i))
            .any(|i| (i + 1..6).any(|j| counted(j) && meet(nodes[i], nodes[j])));
        let box_of = |cell: usize| S::units_of(cell)[2];
        let crowded = (0..3).any(|l| {
            let heart = box_of(nodes[2 * l].cells()[0]);
            er[l]
                && (0..6)
                    .filter(|&i| i / 2 != l)
                    .any(|i| nodes[i].cells().iter().any(|&c| box_of(c) == heart))
        });
        !clash && !crowded
    };
    let mut fit = None;
    // Each chain read from either end of each link (a rectangle's from its heart alone),
    // with its links in SE's three orders: the chain's nodes from its start, and its links.
    let ends = |l: usize| (2 * l..2 * l + 2).filter(move |&i| !(i == 2 * l && er[l]));
    for i in ends(0) {
        for j in ends(1) {
            for k in ends(2) {
                for (at, order) in [
                    ([i, 1 - i, j, 5 - j, k, 9 - k], [0, 1, 2]),
                    ([i, 1 - i, k, 9 - k, j, 5 - j], [0, 2, 1]),
                    ([j, 5 - j, i, 1 - i, k, 9 - k], [1, 0, 2]),
                ] {
                    let chain = at.map(|x| nodes[x]);
                    let Some(weak) = weak_links(chain, units) else {
                        continue;
                    };
                    if !*fit.get_or_insert_with(fits) {
                        return;
                    }
                    if let Some((count, removal)) = chain_removal(logic, bit, chain, units, weak) {
                        let label = suffix(order.map(|l| kinds[l]), order.map(|l| er[l]));
                        offer(count, label, removal);
                    }
                }
            }
        }
    }
}

/// The units of a chain's two weak links, between its nodes 1 and 2 and its nodes 3 and 4:
/// the unit all their cells share (a column before a row before a box), none of the links'
/// `units`. `None` when either has none.
fn weak_links(chain: [&End; 6], units: [usize; 3]) -> Option<[usize; 2]> {
    let (s1, s2) = (chain[1].common(chain[2])?, chain[3].common(chain[4])?);
    (!units.contains(&s1) && !units.contains(&s2)).then_some([s1, s2])
}

/// What a chain of three strong links removes: `chain` its six nodes from its start, the
/// links in `units`, the weak links in `weak`. A cell that sees every cell of both end
/// nodes, outside all five units, loses the digit. `None` when it removes nothing.
fn chain_removal<S: Shape>(
    logic: &Logic<S>,
    bit: u32,
    chain: [&End; 6],
    units: [usize; 3],
    weak: [usize; 2],
) -> Option<(usize, S::Cells<u32>)> {
    let outside = [units[0], units[1], units[2], weak[0], weak[1]];
    let (start, end) = (chain[0], chain[5]);
    let mut removal = S::cells(0u32);
    let mut count = 0;
    for &cell in S::peers(start.cells()[0]) {
        let cell = cell as usize;
        let doomed = logic.cand[cell] & bit != 0
            && !start.cells().contains(&cell)
            && !end.cells().contains(&cell)
            && start.cells().iter().all(|&c| sees::<S>(cell, c))
            && end.cells().iter().all(|&c| sees::<S>(cell, c))
            && !S::units_of(cell).iter().any(|u| outside.contains(u));
        if doomed {
            removal[cell] = bit;
            count += 1;
        }
    }
    (count > 0).then_some((count, removal))
}

/// The name suffix SE gives a chain of three strong links (`ThreeStrongLinksHint.getSuffix`),
/// which orders chains with as many eliminations: one character a link, from its kind (0
/// a box, 1 a row, 2 a column, in the chain's order) and whether it is an empty rectangle,
/// as digits.
fn suffix(kinds: [usize; 3], er: [bool; 3]) -> [u8; 3] {
    let box_link = |l: usize| if er[l] { b'4' } else { b'0' };
    let mut s = [0u8; 3];
    s[0] = if kinds[0] > 0 { b'1' } else { box_link(0) };
    s[1] = if kinds[1] > 0 && (kinds[0] == kinds[1] || s[0] != b'1') {
        b'1'
    } else if kinds[1] > 0 {
        b'2'
    } else {
        box_link(1)
    };
    let boxes = |x: u8| x == b'0' || x == b'4';
    let second_is = |x: u8| s[1] == x && s[0] != x;
    s[2] = if kinds[2] > 0
        && (boxes(s[0]) && boxes(s[1])
            || kinds[0] == kinds[2]
            || kinds[1] != kinds[2] && second_is(b'2')
            || kinds[1] == kinds[2] && second_is(b'1'))
    {
        b'1'
    } else if kinds[2] > 0 {
        b'2'
    } else {
        box_link(2)
    };
    if s == *b"122" {
        return *b"112";
    }
    if s == *b"120" {
        return *b"012";
    }
    if s[0] == b'4' {
        s = [s[2], s[1], s[0]];
    }
    if s[..2] == *b"21" {
        return [b'1', b'2', s[2]];
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SE's name suffixes, worked through `ThreeStrongLinksHint.getSuffix` by hand: parallel
    /// rows; a rectangle first (read backwards, then "21" turned round); two rectangles; a
    /// row and two columns ("122" becomes "112"); a box and two rows.
    #[test]
    fn suffixes_are_ses() {
        assert_eq!(&suffix([1, 1, 1], [false; 3]), b"111");
        assert_eq!(&suffix([0, 1, 2], [true, false, false]), b"124");
        assert_eq!(&suffix([0, 0, 0], [true, false, true]), b"404");
        assert_eq!(&suffix([1, 2, 2], [false; 3]), b"112");
        assert_eq!(&suffix([0, 1, 1], [false; 3]), b"011");
    }
}
