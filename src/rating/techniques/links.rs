//! Strong links on one digit: turbot fish (skyscrapers, two-string kites, turbot cranes),
//! grouped turbot fish, empty rectangles and chains of three strong links. Each search looks
//! at the digits of its mask `digits` alone (see [`super::DigitFinder`]).

use super::sees;
use crate::rating::logic::{Found, Logic};
use crate::shape::Shape;

/// Turbot fish: a digit with exactly two places in each of two units, A–B and C–D, where B
/// sees C; one of A and D holds the digit, so it leaves every cell that sees both. Sukaku
/// Explainer rates them by the units: a skyscraper (two rows or two columns) 4.0, a
/// two-string kite (a row and a column) or a turbot crane (a box and any unit) 4.1, as its
/// strong links of two rate them (`StrongLinksHint.getDifficulty`: 4.0, and 4.1 unless the
/// links lie in lines of one kind).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Turbot {
    Skyscraper,
    Kite,
    Crane,
}

impl Turbot {
    /// The kind of a turbot fish whose strong links lie in units `u` and `v`.
    fn of<S: Shape>(u: usize, v: usize) -> Turbot {
        let boxed = |unit| unit >= 2 * S::N;
        if boxed(u) || boxed(v) {
            Turbot::Crane
        } else if (u < S::N) == (v < S::N) {
            Turbot::Skyscraper
        } else {
            Turbot::Kite
        }
    }
}

/// The turbot fish of one kind (see [`Turbot`]).
pub(super) fn turbot<S: Shape>(
    logic: &Logic<S>,
    kind: Turbot,
    digits: u32,
    found: &mut Found<'_, S>,
) {
    turbot_with(logic, kind, digits, S::peer_masks(), found);
}

/// [`turbot`], with the size's peer masks (`peers`) where it has them: each pair of ends is
/// then checked with a few mask operations; without, by walking the peers of one end.
fn turbot_with<S: Shape>(
    logic: &Logic<S>,
    kind: Turbot,
    digits: u32,
    peers: &[u128],
    found: &mut Found<'_, S>,
) {
    // Skyscrapers and kites lie in lines alone.
    let units = if kind == Turbot::Crane {
        S::UNITS
    } else {
        2 * S::N
    };
    let mut table = S::units([0u32; 32]);
    for (unit, places) in table.as_mut().iter_mut().enumerate().take(units) {
        *places = logic.unit_places(unit);
    }
    // With masks: each digit's places, as a mask of cells.
    let mut places = [0u128; 32];
    if !peers.is_empty() {
        for cell in 0..S::CELLS {
            let mut cand = logic.cand[cell];
            while cand != 0 {
                places[cand.trailing_zeros() as usize] |= 1 << cell;
                cand &= cand - 1;
            }
        }
    }
    let see = |a: usize, b: usize| match peers.get(a) {
        Some(mask) => mask >> b & 1 != 0,
        None => sees::<S>(a, b),
    };
    // Filled afresh for each digit, zeroed once.
    let mut links = [(0usize, 0usize, 0usize); 75];
    for d in (0..S::N).filter(|d| digits >> d & 1 != 0) {
        let bit = 1u32 << d;
        // Links come in unit order: rows' up to `rows`, columns' up to `lines`, then boxes'.
        let (len, rows, lines) = strong_links::<S>(&table, units, d, true, &mut links);
        let links = &links[..len];
        for (i, &one) in links.iter().enumerate() {
            // The links that make a fish of this kind with link i, after it.
            let after = match kind {
                Turbot::Skyscraper if i < rows => i + 1..rows,
                Turbot::Skyscraper => i + 1..lines.max(i + 1),
                Turbot::Kite if i < rows => rows..lines,
                Turbot::Kite => 0..0,
                Turbot::Crane => (i + 1).max(lines)..len,
            };
            for &two in &links[after] {
                debug_assert!(Turbot::of::<S>(one.2, two.2) == kind);
                if (one.0, one.1) == (two.0, two.1) {
                    continue;
                }
                for (a, b) in [(one.0, one.1), (one.1, one.0)] {
                    for (c, e) in [(two.0, two.1), (two.1, two.0)] {
                        let distinct = a != c && a != e && b != c && b != e;
                        if !distinct || !see(b, c) {
                            continue;
                        }
                        let removal = seeing_both(logic, peers, places[d], bit, a, e);
                        if removal.is_some_and(|removal| found(logic, &removal, 0)) {
                            return;
                        }
                    }
                }
            }
        }
    }
}

/// A strong link on a digit: its two places, and the unit.
type Link = (usize, usize, usize);

/// The strong links on digit `d` of the first `units` units, whose places by digit `table`
/// holds, in unit order into `links`: how many, and how many of them lie in rows and in
/// lines (rows, then columns, then boxes). With `flat_boxes` false, a box's link whose two
/// places lie on one line is left out, as Sukaku Explainer leaves it out of its chains.
fn strong_links<S: Shape>(
    table: &S::Units<[u32; 32]>,
    units: usize,
    d: usize,
    flat_boxes: bool,
    links: &mut [Link],
) -> (usize, usize, usize) {
    let (mut len, mut rows, mut lines) = (0, 0, 0);
    for unit in 0..units {
        let places = table.as_ref()[unit][d];
        if places.count_ones() == 2 {
            let cells = S::unit(unit);
            let a = cells[places.trailing_zeros() as usize] as usize;
            let b = cells[(31 - places.leading_zeros()) as usize] as usize;
            let flat = unit >= 2 * S::N
                && link_unit(S::units_of(a), S::units_of(b)).is_some_and(|u| u < 2 * S::N);
            if flat_boxes || !flat {
                links[len] = (a, b, unit);
                len += 1;
            }
        }
        if unit + 1 == S::N {
            rows = len;
        }
        if unit + 1 == 2 * S::N {
            lines = len;
        }
    }
    (len, rows, lines)
}

/// The cells other than `a` and `e` that see both and hold the digit `bit` (whose places
/// `places` holds, where `peers` holds the size's peer masks), as a removal of it; `None`
/// when there is none.
fn seeing_both<S: Shape>(
    logic: &Logic<S>,
    peers: &[u128],
    places: u128,
    bit: u32,
    a: usize,
    e: usize,
) -> Option<S::Cells<u32>> {
    let mut removal = S::cells(0u32);
    let mut any = false;
    if peers.is_empty() {
        for &cell in S::peers(a) {
            let cell = cell as usize;
            if cell != e && logic.cand[cell] & bit != 0 && sees::<S>(cell, e) {
                removal[cell] = bit;
                any = true;
            }
        }
    } else {
        let mut doomed = places & peers[a] & peers[e];
        any = doomed != 0;
        while doomed != 0 {
            removal[doomed.trailing_zeros() as usize] = bit;
            doomed &= doomed - 1;
        }
    }
    any.then_some(removal)
}

/// A link end: one cell or a group of them, all in one box segment of a line.
#[derive(Clone, Copy, Debug)]
struct End {
    cells: [usize; 5],
    len: usize,
    /// The row, column and box every cell lies in (`usize::MAX` where they differ).
    units: [usize; 3],
}

impl End {
    fn new<S: Shape>(cells: &[usize]) -> End {
        let mut end = End {
            cells: [0; 5],
            len: cells.len(),
            units: S::units_of(cells[0]),
        };
        end.cells[..cells.len()].copy_from_slice(cells);
        for &cell in &cells[1..] {
            for (mine, unit) in end.units.iter_mut().zip(S::units_of(cell)) {
                if *mine != unit {
                    *mine = usize::MAX;
                }
            }
        }
        end
    }

    fn cells(&self) -> &[usize] {
        &self.cells[..self.len]
    }

    /// The unit the cells of both ends lie in ([`link_unit`]).
    fn common(&self, other: &End) -> Option<usize> {
        link_unit(self.units, other.units)
    }
}

/// The unit shared by two cells or groups, given the row, column and box each lies in
/// (`usize::MAX` where a group's cells differ), as SE names the unit of a link: a column,
/// else a row, else a box.
fn link_unit(one: [usize; 3], other: [usize; 3]) -> Option<usize> {
    [1, 0, 2]
        .into_iter()
        .map(|k| one[k])
        .find(|&u| u != usize::MAX && other.contains(&u))
}

/// Grouped turbot fish (Sukaku Explainer's grouped strong links of two, 4.3, its empty
/// rectangles aside): two strong links on a digit, chained as in [`turbot`], where at least
/// one lies in a line whose places fill two of its box segments, each end the places in one
/// segment. A group is true when one of its cells is; a weak link joins two ends whose cells
/// all lie in one unit. One of the chain's outer ends holds the digit, so a cell that sees
/// every cell of both loses it, outside the links' units and the unit of the weak link (as
/// SE leaves them out). When the outer ends share a unit too, the chain is a loop, and a cell
/// that sees both ends of either weak link loses it, outside the links' units.
pub(super) fn grouped_turbot<S: Shape>(logic: &Logic<S>, digits: u32, found: &mut Found<'_, S>) {
    let mut table = S::units([0u32; 32]);
    for (unit, places) in table.as_mut().iter_mut().enumerate().take(2 * S::N) {
        *places = logic.unit_places(unit);
    }
    let sees_all = |cell: usize, end: &End| end.cells().iter().all(|&x| sees::<S>(cell, x));
    let none = End::new::<S>(&[0]);
    // Per digit, its strong links: two ends, the unit, and whether an end is a group.
    let mut links = S::units((none, none, 0usize, false));
    for digit in (0..S::N).filter(|d| digits >> d & 1 != 0) {
        let bit = 1u32 << digit;
        let (len, grouped) = turbot_links(logic, &table, digit, links.as_mut());
        if !grouped {
            continue;
        }
        let links = &links.as_ref()[..len];
        for (i, one) in links.iter().enumerate() {
            for two in &links[i + 1..] {
                if !one.3 && !two.3 {
                    continue;
                }
                for (a, b) in [(&one.0, &one.1), (&one.1, &one.0)] {
                    for (c, d) in [(&two.0, &two.1), (&two.1, &two.0)] {
                        let Some(weak) = b.common(c) else {
                            continue;
                        };
                        let apart = [a, b].iter().all(|x| {
                            x.cells()
                                .iter()
                                .all(|cell| !c.cells().contains(cell) && !d.cells().contains(cell))
                        });
                        if !apart {
                            continue;
                        }
                        let base = [one.2, two.2];
                        let mut removal = S::cells(0u32);
                        let mut any = false;
                        let mut doom = |x: &End, y: &End, outside: &[usize]| {
                            for &cell in S::peers(x.cells()[0]) {
                                let cell = cell as usize;
                                let of = S::units_of(cell);
                                let hit = logic.cand[cell] & bit != 0
                                    && !x.cells().contains(&cell)
                                    && !y.cells().contains(&cell)
                                    && sees_all(cell, x)
                                    && sees_all(cell, y)
                                    && !outside.iter().any(|u| of.contains(u));
                                if hit {
                                    removal[cell] = bit;
                                    any = true;
                                }
                            }
                        };
                        if a.common(d).is_some() {
                            doom(a, d, &base);
                            doom(b, c, &base);
                        } else {
                            doom(a, d, &[one.2, two.2, weak]);
                        }
                        if any && found(logic, &removal, 0) {
                            return;
                        }
                    }
                }
            }
        }
    }
}

/// A strong link of [`grouped_turbot`]: its two ends, its unit, and whether an end is a
/// group.
type TurbotLink = (End, End, usize, bool);

/// The strong links on `digit` that [`grouped_turbot`] chains, in unit order into `links`:
/// its two places in a unit with two, but for a box's two on one line, and the places of a
/// line that fill two of its box segments, each segment's an end. `table` holds the
/// places of each line by digit. Returns how many, and whether one has a group.
fn turbot_links<S: Shape>(
    logic: &Logic<S>,
    table: &S::Units<[u32; 32]>,
    digit: usize,
    links: &mut [TurbotLink],
) -> (usize, bool) {
    let none = End::new::<S>(&[0]);
    let bit = 1u32 << digit;
    let mut len = 0;
    let mut grouped = false;
    for unit in 0..S::UNITS {
        let places = match unit < 2 * S::N {
            true => table.as_ref()[unit][digit],
            false => logic.places(unit, bit),
        };
        let count = places.count_ones() as usize;
        let cells = S::unit(unit);
        let at = |k: u32| cells[k as usize] as usize;
        if count == 2 {
            let (a, b) = (at(places.trailing_zeros()), at(31 - places.leading_zeros()));
            let (a, b) = (End::new::<S>(&[a]), End::new::<S>(&[b]));
            // SE leaves out a box's link on one line.
            if unit >= 2 * S::N && a.common(&b).is_some_and(|u| u < 2 * S::N) {
                continue;
            }
            links[len] = (a, b, unit, false);
            len += 1;
        } else if unit < 2 * S::N && (3..=2 * S::BOX).contains(&count) {
            // A line's places in exactly two of its box segments.
            let segment = (1u32 << S::BOX) - 1;
            let mut ends = [none; 2];
            let mut segments = 0;
            for s in 0..S::BOX {
                let mut here = places >> (s * S::BOX) & segment;
                if here == 0 {
                    continue;
                }
                if segments == 2 {
                    segments = 3;
                    break;
                }
                let mut group = [0; 5];
                let mut size = 0;
                while here != 0 {
                    group[size] = at((s * S::BOX) as u32 + here.trailing_zeros());
                    size += 1;
                    here &= here - 1;
                }
                ends[segments] = End::new::<S>(&group[..size]);
                segments += 1;
            }
            if segments == 2 {
                links[len] = (ends[0], ends[1], unit, true);
                len += 1;
                grouped = true;
            }
        }
    }
    (len, grouped)
}

/// Empty rectangle: a digit's places in a box lie on one row and one column of the box (a
/// *cross*; the box's other cells, which lack it, are the empty rectangle), in two rows and
/// two columns at least (in one, pointing takes it). Whatever the box's place, the digit is in
/// the cross's row or in its column. Given a strong link on the digit in a column outside the
/// box's stack with one end on the cross's row, the cell where the cross's column meets the
/// link's other row loses the digit: were it there, the link's other end could not be, so the
/// end on the cross's row would, and the box's place would have to lie in that row and that
/// column at once, outside the cell. The same holds with rows and columns swapped.
pub(super) fn empty_rectangle<S: Shape>(logic: &Logic<S>, digits: u32, found: &mut Found<'_, S>) {
    let (n, side) = (S::N, S::BOX);
    let at = |r: usize, c: usize| r * n + c;
    for b in 0..n {
        let (top, left) = (b / side * side, b % side * side);
        let in_box = |r: usize, c: usize| r / side == b / side && c / side == b % side;
        let mut missing = logic.missing(2 * n + b) & digits;
        while missing != 0 {
            let bit = missing & missing.wrapping_neg();
            missing &= missing - 1;
            // The digit's places in the box, by row and column of the box.
            let mut places = [0u32; 8];
            for (i, row) in places.iter_mut().enumerate().take(side) {
                *row = (0..side)
                    .filter(|&j| logic.cand[at(top + i, left + j)] & bit != 0)
                    .fold(0, |m, j| m | 1 << j);
            }
            let rows = (0..side).filter(|&i| places[i] != 0).count();
            let cols = places[..side].iter().fold(0u32, |m, &p| m | p);
            if rows < 2 || cols.count_ones() < 2 {
                continue;
            }
            for i in 0..side {
                for j in 0..side {
                    // The cross of row i and column j holds every place.
                    let on_cross = (0..side).all(|k| k == i || places[k] & !(1 << j) == 0);
                    if !on_cross {
                        continue;
                    }
                    let (r, c) = (top + i, left + j);
                    // A strong link in a column outside the stack, one end on row r: the
                    // cross's column loses the digit on the other end's row; then the same
                    // for rows.
                    for across in [false, true] {
                        for line in 0..n {
                            let cell = |k: usize| if across { at(line, k) } else { at(k, line) };
                            // Where the link must have an end, and whether the line
                            // crosses the box's band (a row) or stack (a column).
                            let (end, own) = if across {
                                (c, line / side == b / side)
                            } else {
                                (r, line / side == b % side)
                            };
                            if own {
                                continue;
                            }
                            let link = (0..n)
                                .filter(|&k| logic.cand[cell(k)] & bit != 0)
                                .fold(0u32, |m, k| m | 1 << k);
                            if link.count_ones() != 2 || link >> end & 1 == 0 {
                                continue;
                            }
                            let other = (link & !(1 << end)).trailing_zeros() as usize;
                            let (tr, tc) = if across { (r, other) } else { (other, c) };
                            let target = at(tr, tc);
                            if in_box(tr, tc) || logic.cand[target] & bit == 0 {
                                continue;
                            }
                            let mut removal = S::cells(0u32);
                            removal[target] = bit;
                            if found(logic, &removal, 0) {
                                return;
                            }
                        }
                    }
                }
            }
        }
    }
}

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
pub(super) enum ThreeLinks {
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
pub(super) fn three_links<S: Shape>(
    logic: &Logic<S>,
    kind: ThreeLinks,
    digits: u32,
    found: &mut Found<'_, S>,
) {
    let shared = |a: usize, b: usize| link_unit(S::units_of(a), S::units_of(b));
    let within = |cell: usize, units: &[usize]| {
        let of = S::units_of(cell);
        units.iter().any(|u| of.contains(u))
    };
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
            let mut counts = [0; 2];
            for (k, &end) in [c, d].iter().enumerate() {
                for (i, &(x, y, unit)) in links.iter().enumerate() {
                    let other_kind = parallel && unit / S::N != middle / S::N;
                    if i == m || x == end || y == end || other_kind {
                        continue;
                    }
                    for (inner, outer_end) in [(x, y), (y, x)] {
                        if sees::<S>(inner, end) {
                            outer[k][counts[k]] = (i, inner, outer_end);
                            counts[k] += 1;
                        }
                    }
                }
            }
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
                    if shared(a, f).is_some() {
                        doom(a, f, &units);
                        doom(b, c, &units);
                        doom(d, e, &units);
                    } else {
                        doom(a, f, &[units[0], units[1], units[2], bc, de]);
                    }
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
pub(super) fn grouped_three_links<S: Shape>(
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
    let n = S::N;
    let unit_of = |kind: usize, index: usize| [2 * n, 0, n][kind] + index;
    let mut table = S::units([0u32; 32]);
    for (unit, places) in table.as_mut().iter_mut().enumerate() {
        *places = logic.unit_places(unit);
    }
    // The chain SE takes: the most eliminations, then the least suffix, then the first in
    // its order (kinds of unit, then digit, then the order found).
    let mut best: Option<Choice<S::Cells<u32>>> = None;
    for digit in (0..n).filter(|d| digits >> d & 1 != 0) {
        // The digit's link in each unit, if any.
        let mut links = S::units(None);
        for (unit, link) in links.as_mut().iter_mut().enumerate() {
            *link = grouped_link::<S>(unit, table.as_ref()[unit][digit]);
        }
        let link = |kind: usize, index: usize| links.as_ref()[unit_of(kind, index)].as_ref();
        // By kind of unit, the units with a link, and those whose link has a group.
        let (mut linked, mut grouped) = ([0u32; 3], [0u32; 3]);
        for kind in 0..3 {
            for index in 0..n {
                if let Some(link) = link(kind, index) {
                    linked[kind] |= 1 << index;
                    grouped[kind] |= u32::from(link.rectangle || link.groups) << index;
                }
            }
        }
        // The units of a kind with a link, from `from` on.
        let from = |kind: usize, from: usize| {
            let mut rest = linked[kind] & !((1u32 << from) - 1);
            std::iter::from_fn(move || {
                let index = rest.trailing_zeros() as usize;
                rest &= rest.wrapping_sub(1);
                (index < 32).then_some(index)
            })
        };
        for (k, kinds) in KINDS.into_iter().enumerate() {
            let order = (k, digit);
            let has_group = |kind: usize, index: usize| grouped[kind] >> index & 1 != 0;
            for i1 in from(kinds[0], 0) {
                let l1 = link(kinds[0], i1).expect("a linked unit");
                let from2 = if kinds[0] == kinds[1] { i1 + 1 } else { 0 };
                for i2 in from(kinds[1], from2) {
                    let l2 = link(kinds[1], i2).expect("a linked unit");
                    let from3 = match kinds {
                        [_, b, c] if b == c => i2 + 1,
                        [a, _, c] if a == c => i1 + 1,
                        _ => 0,
                    };
                    for i3 in from(kinds[2], from3) {
                        let groups = has_group(kinds[0], i1)
                            || has_group(kinds[1], i2)
                            || has_group(kinds[2], i3);
                        if !groups {
                            continue;
                        }
                        let l3 = link(kinds[2], i3).expect("a linked unit");
                        let units = [
                            unit_of(kinds[0], i1),
                            unit_of(kinds[1], i2),
                            unit_of(kinds[2], i3),
                        ];
                        let links = [l1, l2, l3];
                        grouped_chains(
                            logic,
                            1 << digit,
                            links,
                            units,
                            kinds,
                            &mut |count, label, removal| {
                                let better = best.as_ref().is_none_or(|(most, least, first, _)| {
                                    count > *most
                                        || count == *most
                                            && (label < *least || label == *least && order < *first)
                                });
                                if better {
                                    best = Some((count, label, order, removal));
                                }
                            },
                        );
                    }
                }
            }
        }
    }
    if let Some((_, _, _, removal)) = best {
        found(logic, &removal, 0);
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
    use super::super::tests::{first_offer, offers};
    use super::*;
    use crate::config::Holes;
    use crate::grid::Grid;
    use crate::rating::closure::place_closure;
    use crate::shape::Nine;
    use crate::stats::Work;

    #[test]
    fn empty_rectangles() {
        // On an empty 9×9 grid, 1 keeps three places in the first box, r1c1, r1c2 and r2c1
        // (the cross of row 1 and column 1), and two in column 6, r1c6 and r5c6: r5c1 loses 1.
        let mut logic = Logic::new(&Grid::<Nine>::empty()).unwrap();
        for cell in [2, 10, 11, 18, 19, 20] {
            logic.cand[cell] &= !1;
        }
        for row in (1..9).filter(|&r| r != 4) {
            logic.cand[row * 9 + 5] &= !1;
        }
        assert_eq!(
            first_offer(&logic, |l, f| empty_rectangle(l, Nine::ALL, f)),
            vec![(36, 1)]
        );
        // With a fourth place off the cross (r2c2), there is none.
        logic.cand[10] |= 1;
        assert_eq!(
            first_offer(&logic, |l, f| empty_rectangle(l, Nine::ALL, f)),
            vec![]
        );
    }

    /// Turbot fish found with peer masks are those found by walking the peers, in the same
    /// order, on the grids where 9×9 puzzles dug to 55 holes stall after the placements.
    #[test]
    fn turbot_by_masks_is_turbot_by_peers() {
        let mut generator = crate::Generator::<Nine>::new(Holes::Exact(55));
        let (mut grids, mut offered) = (0, 0);
        for index in 0..300 {
            let Some(made) = generator.attempt(11, index, &mut Work::default()) else {
                continue;
            };
            let mut logic = Logic::new(&made.puzzle).unwrap();
            place_closure(&mut logic, u32::MAX, 0, None).unwrap();
            if logic.is_solved() {
                continue;
            }
            grids += 1;
            for kind in [Turbot::Skyscraper, Turbot::Kite, Turbot::Crane] {
                let by_masks = offers(&logic, |l, f| {
                    turbot_with(l, kind, Nine::ALL, Nine::peer_masks(), f)
                });
                let by_peers = offers(&logic, |l, f| turbot_with(l, kind, Nine::ALL, &[], f));
                assert_eq!(by_masks, by_peers, "{}", made.puzzle);
                offered += by_masks.len();
            }
        }
        assert!(
            grids >= 50 && offered >= 200,
            "{grids} grids, {offered} offers"
        );
    }

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
