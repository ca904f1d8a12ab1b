//! The techniques past singles, each as a search that offers the eliminations it finds:
//! locked candidates (in [`crate::logic`]), naked and hidden subsets, fish, turbot fish and
//! chains of three strong links, empty and unique rectangles, wings and bivalue universal
//! graves; and the *direct* form of a technique, which keeps no elimination but places the
//! hidden single its eliminations leave.

use std::cmp::Reverse;

use super::SeTechnique;
use crate::grid::Digit;
use crate::logic::{BoxLine, Found, Logic, locked};
use crate::shape::Shape;

/// A search for eliminations: calls `found` with each set of eliminations (per cell, the
/// candidates to remove; never empty) until it returns true.
pub(super) type Finder<S> = fn(&Logic<S>, &mut Found<'_, S>);

/// The techniques that eliminate candidates, in SE's order, with their searches: by rating,
/// but for empty rectangles and grouped turbot fish (4.3), which SE's list tries with the
/// other turbot fish, before XY-Wings (4.2).
pub(super) fn eliminating<S: Shape>() -> [(SeTechnique, Finder<S>); 30] {
    use SeTechnique::*;
    [
        (Pointing, |l, f| locked(l, false, f)),
        (Claiming, |l, f| locked(l, true, f)),
        (NakedPair, |l, f| naked_subset(l, 2, f)),
        (XWing, |l, f| fish(l, 2, f)),
        (HiddenPair, |l, f| hidden_subset(l, 2, f)),
        (NakedTriple, |l, f| naked_subset(l, 3, f)),
        (Swordfish, |l, f| fish(l, 3, f)),
        (HiddenTriple, |l, f| hidden_subset(l, 3, f)),
        (Skyscraper, |l, f| turbot(l, Turbot::Skyscraper, f)),
        (TwoStringKite, |l, f| turbot(l, Turbot::Kite, f)),
        (TurbotCrane, |l, f| turbot(l, Turbot::Crane, f)),
        (EmptyRectangle, empty_rectangle),
        (GroupedTurbot, grouped_turbot),
        (XyWing, |l, f| wing(l, false, f)),
        (XyzWing, |l, f| wing(l, true, f)),
        (UniqueRectangle, unique_rectangle),
        (NakedQuad, |l, f| naked_subset(l, 4, f)),
        (Jellyfish, |l, f| fish(l, 4, f)),
        (HiddenQuad, |l, f| hidden_subset(l, 4, f)),
        (ThreeSkyscrapers, |l, f| {
            three_links(l, ThreeLinks::Parallel, f)
        }),
        (WxyzWing, |l, f| als_wing(l, 3, 55, f)),
        (ThreeStrongLinks, |l, f| {
            three_links(l, ThreeLinks::Mixed, f)
        }),
        (WxyzWingOfThree, |l, f| als_wing(l, 3, 56, f)),
        (ThreeStrongLinksBoxRowColumn, |l, f| {
            three_links(l, ThreeLinks::BoxRowColumn, f)
        }),
        (BugType1, |l, f| bug(l, Bug::One, f)),
        (BugType2, |l, f| bug(l, Bug::Two, f)),
        (BugType4, |l, f| bug(l, Bug::Four, f)),
        (VwxyzWingOfFive, |l, f| als_wing(l, 4, 62, f)),
        (VwxyzWing, |l, f| als_wing(l, 4, 63, f)),
        (VwxyzWingOfThree, |l, f| als_wing(l, 4, 64, f)),
    ]
}

/// The placement a direct technique gives: the first eliminations `find` offers that leave
/// a removed digit one place in the unit they lie in (SE's `HiddenSet` looks there alone).
/// The eliminations themselves are not kept.
pub(super) fn direct_step<S: Shape>(logic: &Logic<S>, find: Finder<S>) -> Option<(usize, Digit)> {
    let mut placed = None;
    find(logic, &mut |logic, removal, unit| {
        placed = single_after(logic, unit, removal);
        placed.is_some()
    });
    placed
}

/// The placements [`direct_step`] takes from each set of eliminations `find` offers, in the
/// order found, up to `out.len()` of them: how many were written to `out`, and whether
/// `find` offered any set at all (direct or not).
pub(super) fn direct_steps<S: Shape>(
    logic: &Logic<S>,
    find: Finder<S>,
    out: &mut [(usize, Digit)],
) -> (usize, bool) {
    let (mut len, mut offered) = (0, false);
    find(logic, &mut |logic, removal, unit| {
        offered = true;
        if let Some(placed) = single_after(logic, unit, removal) {
            out[len] = placed;
            len += 1;
        }
        len == out.len()
    });
    (len, offered)
}

/// The placement [`direct_step`] finds from pointing, found without elimination arrays: a
/// digit with two places or more in a box, all on one line, leaves the line's cells in the
/// other boxes it crosses, and goes where that leaves it one place in one of those boxes.
/// (The line itself keeps the box's places, two or more, so no single is left there.)
pub(super) fn direct_pointing<S: Shape>(logic: &Logic<S>) -> Option<(usize, Digit)> {
    let (n, side) = (S::N, S::BOX);
    let at = |row: usize, col: usize| row * n + col;
    let mut found = None;
    logic.pointings(&mut |b, bit, line| {
        let (top, left) = (b / side * side, b % side * side);
        // `cell(k, i, j)`: the cell of line `i`, place `j` of the `k`-th box along the line.
        found = match line {
            BoxLine::Row(i) => single_across::<S>(
                logic,
                bit,
                b % side,
                |stack, i, j| at(top + i, stack * side + j),
                i,
            ),
            BoxLine::Column(j) => single_across::<S>(
                logic,
                bit,
                b / side,
                |band, i, j| at(band * side + j, left + i),
                j,
            ),
        };
        found.is_some()
    });
    found
}

/// For a line at offset `line` (0..side) within its boxes, crossing boxes `0..side` (`cell(k,
/// line, j)` the `j`-th cell of the line in box `k`, `cell(k, i, j)` for the box's other
/// lines `i`), skipping box `from`: the cell where the digit `bit` is left with one place in
/// a box once the line loses it, in a box where the line held it.
fn single_across<S: Shape>(
    logic: &Logic<S>,
    bit: u32,
    from: usize,
    cell: impl Fn(usize, usize, usize) -> usize,
    line: usize,
) -> Option<(usize, Digit)> {
    let side = S::BOX;
    for k in (0..side).filter(|&k| k != from) {
        let on_line = (0..side).any(|j| logic.cand[cell(k, line, j)] & bit != 0);
        if !on_line {
            continue;
        }
        let mut left = (0..side)
            .filter(|&i| i != line)
            .flat_map(|i| (0..side).map(move |j| (i, j)))
            .map(|(i, j)| cell(k, i, j))
            .filter(|&c| logic.cand[c] & bit != 0);
        if let (Some(c), None) = (left.next(), left.next()) {
            return Some((c, bit.trailing_zeros() as Digit + 1));
        }
    }
    None
}

/// A hidden single that `removal` leaves in `unit`: a missing digit removed there with one
/// place left.
fn single_after<S: Shape>(
    logic: &Logic<S>,
    unit: usize,
    removal: &S::Cells<u32>,
) -> Option<(usize, Digit)> {
    let cells = S::unit(unit);
    let mut removed =
        cells.iter().fold(0, |any, &c| any | removal[c as usize]) & logic.missing(unit);
    while removed != 0 {
        let bit = removed & removed.wrapping_neg();
        removed &= removed - 1;
        let mut left = cells
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| logic.cand[c] & bit != 0 && removal[c] & bit == 0);
        if let (Some(cell), None) = (left.next(), left.next()) {
            return Some((cell, bit.trailing_zeros() as Digit + 1));
        }
    }
    None
}

/// The open cell of the first unit that has only one, and the digit it lacks.
pub(super) fn full_house<S: Shape>(logic: &Logic<S>) -> Option<(usize, Digit)> {
    (0..S::UNITS).find_map(|unit| {
        let missing = logic.missing(unit);
        if missing.count_ones() != 1 {
            return None;
        }
        let mut open = S::unit(unit)
            .iter()
            .filter(|&&c| logic.value[c as usize] == 0);
        let cell = *open.next()? as usize;
        open.next()
            .is_none()
            .then(|| (cell, missing.trailing_zeros() as Digit + 1))
    })
}

/// Calls `visit` with every `k`-subset of the set bits of `items` (as a mask) whose `masks`
/// (one per bit) cover exactly `k` bits between them, and with that cover, in increasing
/// order of their lowest bits, until it returns true. A subset is dropped as soon as its
/// first members cover more than `k`, so supersets of such a start are never built.
fn covering_subsets(
    items: u32,
    k: u32,
    masks: &[u32; 32],
    visit: &mut impl FnMut(u32, u32) -> bool,
) -> bool {
    fn go(
        items: u32,
        left: u32,
        (chosen, cover): (u32, u32),
        k: u32,
        masks: &[u32; 32],
        visit: &mut impl FnMut(u32, u32) -> bool,
    ) -> bool {
        if left == 0 {
            return cover.count_ones() == k && visit(chosen, cover);
        }
        let mut rest = items;
        while rest.count_ones() >= left {
            let bit = rest & rest.wrapping_neg();
            rest &= rest - 1;
            let wider = cover | masks[bit.trailing_zeros() as usize];
            if wider.count_ones() <= k && go(rest, left - 1, (chosen | bit, wider), k, masks, visit)
            {
                return true;
            }
        }
        false
    }
    go(items, k, (0, 0), k, masks, visit)
}

/// Naked subsets of `k` cells: `k` open cells of a unit holding `k` digits between them.
fn naked_subset<S: Shape>(logic: &Logic<S>, k: u32, found: &mut Found<'_, S>) {
    for unit in 0..S::UNITS {
        let cells = S::unit(unit);
        let open = (0..S::N)
            .filter(|&p| logic.value[cells[p] as usize] == 0)
            .fold(0u32, |m, p| m | 1 << p);
        if open.count_ones() <= k {
            continue;
        }
        // Only cells with at most k candidates can be among the k: the subsets of those
        // come in the same order as among all open cells, so the first found is the same.
        let small = (0..S::N)
            .filter(|&p| open >> p & 1 != 0 && logic.cand[cells[p] as usize].count_ones() <= k)
            .fold(0u32, |m, p| m | 1 << p);
        let mut cands = [0u32; 32];
        for (p, &cell) in cells.iter().enumerate() {
            cands[p] = logic.cand[cell as usize];
        }
        let done = covering_subsets(small, k, &cands, &mut |chosen, digits| {
            let mut removal = S::cells(0u32);
            let mut any = false;
            for p in (0..S::N).filter(|&p| open & !chosen >> p & 1 != 0) {
                let cell = cells[p] as usize;
                if logic.cand[cell] & digits != 0 {
                    removal[cell] = logic.cand[cell] & digits;
                    any = true;
                }
            }
            any && found(logic, &removal, unit)
        });
        if done {
            return;
        }
    }
}

/// Hidden subsets of `k` digits: `k` missing digits of a unit confined to `k` cells.
pub(super) fn hidden_subset<S: Shape>(logic: &Logic<S>, k: u32, found: &mut Found<'_, S>) {
    for unit in 0..S::UNITS {
        let missing = logic.missing(unit);
        if missing.count_ones() <= k {
            continue;
        }
        let cells = S::unit(unit);
        let table = logic.unit_places(unit);
        // Only digits with at most k places can be among the k (the same order argument
        // as for naked subsets).
        let few = (0..S::N as u32)
            .filter(|&d| missing >> d & 1 != 0 && table[d as usize].count_ones() <= k)
            .fold(0u32, |m, d| m | 1 << d);
        let done = covering_subsets(few, k, &table, &mut |digits, places| {
            let mut removal = S::cells(0u32);
            let mut any = false;
            for p in (0..S::N).filter(|&p| places >> p & 1 != 0) {
                let cell = cells[p] as usize;
                if logic.cand[cell] & !digits != 0 {
                    removal[cell] = logic.cand[cell] & !digits;
                    any = true;
                }
            }
            any && found(logic, &removal, unit)
        });
        if done {
            return;
        }
    }
}

/// Fish of size `k` (X-Wing, Swordfish, Jellyfish): a digit whose places in `k` rows lie in
/// `k` columns between them leaves those columns' other cells; and the same with rows and
/// columns swapped.
fn fish<S: Shape>(logic: &Logic<S>, k: u32, found: &mut Found<'_, S>) {
    // Every line's places for every digit, read once: lines are units `0..2N`.
    let mut lines_places = S::units([0u32; 32]);
    for (line, places) in lines_places.as_mut()[..2 * S::N].iter_mut().enumerate() {
        *places = logic.unit_places(line);
    }
    for d in 0..S::N {
        let bit = 1u32 << d;
        for (base, cover) in [(0, S::N), (S::N, 0)] {
            let mut places = [0u32; 32];
            for (l, places) in places.iter_mut().enumerate().take(S::N) {
                *places = lines_places.as_ref()[base + l][d];
            }
            // Base lines where the digit is missing, with 2..=k places.
            let lines = (0..S::N)
                .filter(|&l| (2..=k).contains(&places[l].count_ones()))
                .fold(0u32, |m, l| m | 1 << l);
            if lines.count_ones() < k {
                continue;
            }
            let done = covering_subsets(lines, k, &places, &mut |chosen, covers| {
                let mut removal = S::cells(0u32);
                let mut any = false;
                for c in (0..S::N).filter(|&c| covers >> c & 1 != 0) {
                    for (l, &cell) in S::unit(cover + c).iter().enumerate() {
                        let cell = cell as usize;
                        if chosen >> l & 1 == 0 && logic.cand[cell] & bit != 0 {
                            removal[cell] = bit;
                            any = true;
                        }
                    }
                }
                any && found(logic, &removal, 0)
            });
            if done {
                return;
            }
        }
    }
}

/// Turbot fish: a digit with exactly two places in each of two units, A–B and C–D, where B
/// sees C; one of A and D holds the digit, so it leaves every cell that sees both. Sukaku
/// Explainer rates them by the units: a skyscraper (two rows or two columns) 4.0, a
/// two-string kite (a row and a column) or a turbot crane (a box and any unit) 4.1, as its
/// strong links of two rate them (`StrongLinksHint.getDifficulty`: 4.0, and 4.1 unless the
/// links lie in lines of one kind).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Turbot {
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
fn turbot<S: Shape>(logic: &Logic<S>, kind: Turbot, found: &mut Found<'_, S>) {
    turbot_with(logic, kind, S::peer_masks(), found);
}

/// [`turbot`], with the size's peer masks (`peers`) where it has them: each pair of ends is
/// then checked with a few mask operations; without, by walking the peers of one end.
fn turbot_with<S: Shape>(logic: &Logic<S>, kind: Turbot, peers: &[u128], found: &mut Found<'_, S>) {
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
    for d in 0..S::N {
        let bit = 1u32 << d;
        // Every strong link: the two places of the digit in a unit with exactly two, and
        // the unit.
        let mut len = 0;
        // Links come in unit order: rows' up to `rows`, columns' up to `lines`, then boxes'.
        let (mut rows, mut lines) = (0, 0);
        for unit in 0..units {
            let places = table.as_ref()[unit][d];
            if places.count_ones() == 2 {
                let cells = S::unit(unit);
                let first = cells[places.trailing_zeros() as usize] as usize;
                let second = cells[(31 - places.leading_zeros()) as usize] as usize;
                links[len] = (first, second, unit);
                len += 1;
            }
            if unit + 1 == S::N {
                rows = len;
            }
            if unit + 1 == 2 * S::N {
                lines = len;
            }
        }
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
                        let mut removal = S::cells(0u32);
                        let mut any = false;
                        if peers.is_empty() {
                            for &cell in S::peers(a) {
                                let cell = cell as usize;
                                let doomed =
                                    cell != e && logic.cand[cell] & bit != 0 && sees::<S>(cell, e);
                                if doomed {
                                    removal[cell] = bit;
                                    any = true;
                                }
                            }
                        } else {
                            let mut doomed = places[d] & peers[a] & peers[e];
                            if doomed == 0 {
                                continue;
                            }
                            while doomed != 0 {
                                removal[doomed.trailing_zeros() as usize] = bit;
                                doomed &= doomed - 1;
                            }
                            any = true;
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
/// most eliminations. (Its chains through a box's group of places, rated 5.7, are not
/// looked for.)
#[derive(Clone, Copy, PartialEq, Eq)]
enum ThreeLinks {
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
fn three_links<S: Shape>(logic: &Logic<S>, kind: ThreeLinks, found: &mut Found<'_, S>) {
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
    for digit in 0..S::N {
        let bit = 1u32 << digit;
        let mut len = 0;
        for unit in 0..S::UNITS {
            let places = table.as_ref()[unit][digit];
            if places.count_ones() != 2 {
                continue;
            }
            let cells = S::unit(unit);
            let a = cells[places.trailing_zeros() as usize] as usize;
            let b = cells[(31 - places.leading_zeros()) as usize] as usize;
            if unit >= 2 * S::N && shared(a, b).is_some_and(|u| u < 2 * S::N) {
                continue;
            }
            links[len] = (a, b, unit);
            len += 1;
        }
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

/// WXYZ- and VWXYZ-Wings (Sukaku Explainer's, an ALS-XZ whose smaller set is one cell): `size`
/// cells that see one another (three or four, so all in one unit) holding `size + 1` digits
/// between them (an almost locked set: one of the digits is placed outside the cells), each
/// holding two or more, and a fourth cell holding exactly two of those digits, x and z.
/// When every cell of the set that holds x sees the fourth cell, x cannot be in both, so the
/// set holds z or the fourth cell does: z leaves every cell that sees the fourth and all of
/// the set's cells that hold it. When z too is restricted that way, the cells are locked:
/// each of their digits leaves every cell that sees all of them that hold it (the fourth
/// counting for x and z).
///
/// SE rates a wing by its size and the most candidates a cell of the set holds
/// ([`als_wing_tenths`]); this offers the wing rated `tenths` with the most eliminations.
fn als_wing<S: Shape>(logic: &Logic<S>, size: usize, tenths: u32, found: &mut Found<'_, S>) {
    type Key = (u32, Reverse<([usize; 4], usize)>);
    let mut best: Option<(Key, S::Cells<u32>)> = None;
    // Cells of two candidates or more (few enough for the set), and of two.
    let mut open = S::cells(false);
    let mut pairs = S::cells(0u16);
    let mut len = 0;
    for cell in 0..S::CELLS {
        let count = logic.cand[cell].count_ones() as usize;
        open[cell] = (2..=size + 1).contains(&count);
        if count == 2 {
            pairs[len] = cell as u16;
            len += 1;
        }
    }
    let pairs = &pairs.as_ref()[..len];
    let cand = |cells: &[usize]| cells.iter().fold(0, |all, &x| all | logic.cand[x]);
    let mut weigh = |set: &[usize]| {
        let digits = cand(set);
        let largest = set.iter().map(|&x| logic.cand[x].count_ones()).max();
        if digits.count_ones() as usize != size + 1
            || als_wing_tenths(size, largest.unwrap_or(0)) != tenths
        {
            return;
        }
        // The cells that see every one of the set that holds digit `bit`, and `also` if
        // given; outside the set and `also`.
        let seeing_all = |bit: u32, also: Option<usize>, cell: usize| {
            !set.contains(&cell)
                && also != Some(cell)
                && set
                    .iter()
                    .all(|&x| logic.cand[x] & bit == 0 || sees::<S>(cell, x))
                && also.is_none_or(|y| sees::<S>(cell, y))
        };
        for &y in pairs {
            let (y, pair) = (y as usize, logic.cand[y as usize]);
            if pair & !digits != 0 || set.contains(&y) {
                continue;
            }
            let restricted = |bit: u32| {
                set.iter()
                    .all(|&x| logic.cand[x] & bit == 0 || sees::<S>(y, x))
            };
            let (x_bit, z_bit) = (pair & pair.wrapping_neg(), pair & (pair - 1));
            // The digits eliminated, each with whether the fourth cell must be seen too.
            let mut doomed = [(0u32, false); 5];
            match (restricted(x_bit), restricted(z_bit)) {
                (false, false) => continue,
                (true, false) => doomed[0] = (z_bit, true),
                (false, true) => doomed[0] = (x_bit, true),
                (true, true) => {
                    doomed[0] = (x_bit, true);
                    doomed[1] = (z_bit, true);
                    let mut rest = digits & !pair;
                    for slot in &mut doomed[2..] {
                        *slot = (rest & rest.wrapping_neg(), false);
                        rest &= rest.wrapping_sub(1);
                    }
                }
            }
            let mut removal = S::cells(0u32);
            let mut count = 0;
            for &(bit, with_y) in doomed.iter().filter(|d| d.0 != 0) {
                // A cell that loses the digit sees the fourth cell, or the first of the set
                // that holds it.
                let anchor = match with_y {
                    true => Some(y),
                    false => set.iter().copied().find(|&x| logic.cand[x] & bit != 0),
                };
                let Some(anchor) = anchor else { continue };
                for &cell in S::peers(anchor) {
                    let cell = cell as usize;
                    let hit = logic.cand[cell] & bit != 0
                        && cell != y
                        && seeing_all(bit, with_y.then_some(y), cell);
                    if hit {
                        removal[cell] |= bit;
                        count += 1;
                    }
                }
            }
            // SE takes the most eliminations, then the first wing in its order: by the
            // set's cells, then the fourth cell.
            let mut cells = [0; 4];
            cells[..set.len()].copy_from_slice(set);
            let key = (count, Reverse((cells, y)));
            if count > 0 && best.as_ref().is_none_or(|b| key > b.0) {
                best = Some((key, removal));
            }
        }
    };
    let fits = |cells: &[usize]| cand(cells).count_ones() as usize <= size + 1;
    // The sets: cells that see one another lie in one unit. A box's three cells on one line
    // are taken in the line alone.
    let mut open_cells = [0usize; 32];
    for unit in 0..S::UNITS {
        let mut len = 0;
        for &cell in S::unit(unit) {
            if open[cell as usize] {
                open_cells[len] = cell as usize;
                len += 1;
            }
        }
        let cells = &open_cells[..len];
        let in_line = |set: &[usize; 3]| {
            let units = set.map(S::units_of);
            (0..2).any(|k| units.iter().all(|u| u[k] == units[0][k]))
        };
        for i in 0..len {
            for j in i + 1..len {
                if !fits(&[cells[i], cells[j]]) {
                    continue;
                }
                for k in j + 1..len {
                    let three = [cells[i], cells[j], cells[k]];
                    if !fits(&three) {
                        continue;
                    }
                    if size == 3 {
                        if unit < 2 * S::N || !in_line(&three) {
                            weigh(&three);
                        }
                        continue;
                    }
                    for &l in &cells[k + 1..] {
                        let four = [cells[i], cells[j], cells[k], l];
                        if fits(&four) {
                            weigh(&four);
                        }
                    }
                }
            }
        }
    }
    if let Some((_, removal)) = best {
        found(logic, &removal, 0);
    }
}

/// Sukaku Explainer's rating of a wing of [`als_wing`] whose set has `size` cells, the
/// largest holding `largest` candidates, in tenths: a WXYZ-Wing (three cells) 5.5, or 5.6
/// when a cell of three is the largest; a VWXYZ-Wing (four) 6.2 for a cell of five, 6.3 for
/// two or four, 6.4 for three (its `getDifficulty`: cells of middling size rate highest).
fn als_wing_tenths(size: usize, largest: u32) -> u32 {
    let (base, middle) = if size == 3 { (55, 3) } else { (62, 3) };
    let spread = size as u32 - 2;
    base + spread - largest.abs_diff(middle)
}

/// The kinds of bivalue universal grave SE rates (its type 3, with a naked set beside the
/// grave's cells, 5.8 and up, is not looked for).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Bug {
    /// One cell holds more than two candidates: it keeps only its extra ones (5.6).
    One,
    /// Several cells, with one extra digit between them: it leaves every cell that sees all
    /// of them (5.7).
    Two,
    /// Two cells in one unit, sharing one candidate besides their extra ones: each keeps its
    /// extra ones and that candidate (5.7).
    Four,
}

/// Bivalue universal grave: were every open cell left two candidates, each in two places of
/// each unit, the grid would have two solutions (or none). Cells with more candidates are
/// the grave's: in a unit where a digit has neither zero nor two places, the one such cell
/// among them holds it as an extra; when taking the extras away leaves that grave, one of
/// the extras is true, and that gives the eliminations of each kind (see [`Bug`]).
fn bug<S: Shape>(logic: &Logic<S>, kind: Bug, found: &mut Found<'_, S>) {
    let mut extra = S::cells(0u32);
    for unit in 0..S::UNITS {
        let places = logic.unit_places(unit);
        let cells = S::unit(unit);
        for (d, &at) in places.iter().enumerate().take(S::N) {
            if at == 0 || at.count_ones() == 2 {
                continue;
            }
            let mut heavy = (0..S::N)
                .filter(|&k| at >> k & 1 != 0 && logic.cand[cells[k] as usize].count_ones() > 2);
            match (heavy.next(), heavy.next()) {
                // A digit out of pattern with no cell to blame: no grave.
                (None, _) => return,
                (Some(k), None) => extra[cells[k] as usize] |= 1 << d,
                // Another unit names the cell, if any.
                (Some(_), Some(_)) => {}
            }
        }
    }
    // Without the extras, the grave: two candidates in every open cell, two places (or
    // none) for every digit in every unit.
    let rest = |cell: usize| logic.cand[cell] & !extra[cell];
    let bivalue = (0..S::CELLS).all(|cell| logic.cand[cell] == 0 || rest(cell).count_ones() == 2);
    let paired = (0..S::UNITS).all(|unit| {
        (0..S::N).all(|d| {
            let places = S::unit(unit)
                .iter()
                .filter(|&&cell| rest(cell as usize) >> d & 1 != 0)
                .count();
            places == 0 || places == 2
        })
    });
    if !bivalue || !paired {
        return;
    }
    // The grave's cells: the first two, and how many.
    let mut graves = (0..S::CELLS).filter(|&cell| extra[cell] != 0);
    let (first, second) = (graves.next(), graves.next());
    let count = usize::from(first.is_some()) + usize::from(second.is_some()) + graves.count();
    let extras = extra.as_ref().iter().fold(0, |all, &bits| all | bits);
    let mut removal = S::cells(0u32);
    match (kind, first, second) {
        (Bug::One, Some(cell), None) => removal[cell] = rest(cell),
        (Bug::Two, Some(_), Some(_)) if extras.count_ones() == 1 => {
            for cell in 0..S::CELLS {
                let sees_all = (0..S::CELLS)
                    .filter(|&g| extra[g] != 0)
                    .all(|g| sees::<S>(cell, g));
                if logic.cand[cell] & extras != 0 && sees_all {
                    removal[cell] = extras;
                }
            }
        }
        (Bug::Four, Some(one), Some(two)) if count == 2 && sees::<S>(one, two) => {
            let shared = logic.cand[one] & logic.cand[two] & !extras;
            if shared.count_ones() == 1 {
                removal[one] = rest(one) & !shared;
                removal[two] = rest(two) & !shared;
            }
        }
        _ => {}
    }
    if removal.as_ref().iter().any(|&bits| bits != 0) {
        found(logic, &removal, 0);
    }
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
fn grouped_turbot<S: Shape>(logic: &Logic<S>, found: &mut Found<'_, S>) {
    let mut table = S::units([0u32; 32]);
    for (unit, places) in table.as_mut().iter_mut().enumerate().take(2 * S::N) {
        *places = logic.unit_places(unit);
    }
    let sees_all = |cell: usize, end: &End| end.cells().iter().all(|&x| sees::<S>(cell, x));
    let none = End::new::<S>(&[0]);
    // Per digit, its strong links: two ends, the unit, and whether an end is a group.
    let mut links = S::units((none, none, 0usize, false));
    for digit in 0..S::N {
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

/// Empty rectangle: a digit's places in a box lie on one row and one column of the box (a
/// *cross*; the box's other cells, which lack it, are the empty rectangle), in two rows and
/// two columns at least (in one, pointing takes it). Whatever the box's place, the digit is in
/// the cross's row or in its column. Given a strong link on the digit in a column outside the
/// box's stack with one end on the cross's row, the cell where the cross's column meets the
/// link's other row loses the digit: were it there, the link's other end could not be, so the
/// end on the cross's row would, and the box's place would have to lie in that row and that
/// column at once, outside the cell. The same holds with rows and columns swapped.
fn empty_rectangle<S: Shape>(logic: &Logic<S>, found: &mut Found<'_, S>) {
    let (n, side) = (S::N, S::BOX);
    let at = |r: usize, c: usize| r * n + c;
    for b in 0..n {
        let (top, left) = (b / side * side, b % side * side);
        let in_box = |r: usize, c: usize| r / side == b / side && c / side == b % side;
        let mut missing = logic.missing(2 * n + b);
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

/// Unique rectangles (SE rates types 1, 2 and 4 of a rectangle alike, 4.5): four cells on
/// two rows, two columns and two boxes that all hold the same two candidates, where a puzzle
/// with one solution cannot leave them only those two (they could swap round the rectangle).
/// Type 1: three corners hold just the two, so the fourth loses both. Then, with two corners
/// on one side holding just the two (the *floor*), the two others (the *roof*) keep the
/// rectangle alive: type 2, the roof holds one more digit, the same in both corners, so one of
/// them takes it and every cell that sees both loses it; type 4, one of the two digits has no
/// place but the roof in a unit the roof lies in, so the roof corners lose the other.
fn unique_rectangle<S: Shape>(logic: &Logic<S>, found: &mut Found<'_, S>) {
    if !unique_rectangle_type_1(logic, found) {
        unique_rectangle_with_roof(logic, found);
    }
}

/// Unique rectangles of type 1 (see [`unique_rectangle`]); true when `found` stopped the
/// search.
fn unique_rectangle_type_1<S: Shape>(logic: &Logic<S>, found: &mut Found<'_, S>) -> bool {
    let n = S::N;
    // Per row, its cells with two candidates (a mask of columns). Three corners hold two
    // candidates: both in one column, one at least in the other. Rectangles without are
    // skipped, in the same order.
    let mut two = [0u32; 32];
    for (r, two) in two.iter_mut().enumerate().take(n) {
        *two = (0..n)
            .filter(|&c| logic.cand[r * n + c].count_ones() == 2)
            .fold(0, |m, c| m | 1 << c);
    }
    for r1 in 0..n {
        for r2 in r1 + 1..n {
            let (both, either) = (two[r1] & two[r2], two[r1] | two[r2]);
            if both == 0 {
                continue;
            }
            for c1 in (0..n).filter(|&c| either >> c & 1 != 0) {
                for c2 in (c1 + 1..n).filter(|&c| either >> c & 1 != 0) {
                    if (both >> c1 | both >> c2) & 1 == 0 {
                        continue;
                    }
                    let corners = [r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2];
                    let boxes = corners.map(|c| S::units_of(c)[2]);
                    let two_boxes = boxes.iter().filter(|&&b| b == boxes[0]).count() == 2;
                    if !two_boxes {
                        continue;
                    }
                    for odd in 0..4 {
                        let pair = logic.cand[corners[(odd + 1) % 4]];
                        let others_pair = pair.count_ones() == 2
                            && (0..4)
                                .filter(|&k| k != odd)
                                .all(|k| logic.cand[corners[k]] == pair);
                        let fourth = corners[odd];
                        if others_pair
                            && logic.cand[fourth] & pair == pair
                            && logic.cand[fourth] != pair
                        {
                            let mut removal = S::cells(0u32);
                            removal[fourth] = pair;
                            if found(logic, &removal, 0) {
                                return true;
                            }
                        }
                    }
                }
            }
        }
    }
    false
}

/// Unique rectangles of types 2 and 4 (see [`unique_rectangle`]), floor by floor: two cells
/// with the same two candidates in a row (then a column), the first cell before the second.
fn unique_rectangle_with_roof<S: Shape>(logic: &Logic<S>, found: &mut Found<'_, S>) {
    let n = S::N;
    let at = |r: usize, c: usize| r * n + c;
    for across in [true, false] {
        // Along a row the floor's cells differ in column and the roof lies in another row;
        // along a column, the other way round. `line` is the floor's row or column.
        let cell = |line: usize, k: usize| if across { at(line, k) } else { at(k, line) };
        for line in 0..n {
            for k1 in 0..n {
                let f1 = cell(line, k1);
                let pair = logic.cand[f1];
                if pair.count_ones() != 2 {
                    continue;
                }
                for k2 in k1 + 1..n {
                    let f2 = cell(line, k2);
                    if logic.cand[f2] != pair {
                        continue;
                    }
                    for roof_line in (0..n).filter(|&l| l != line) {
                        let (g1, g2) = (cell(roof_line, k1), cell(roof_line, k2));
                        let boxes = [f1, f2, g1, g2].map(|c| S::units_of(c)[2]);
                        let two_boxes = boxes.iter().filter(|&&b| b == boxes[0]).count() == 2;
                        let (c1, c2) = (logic.cand[g1], logic.cand[g2]);
                        if !two_boxes || c1 & pair != pair || c2 & pair != pair {
                            continue;
                        }
                        if roof_type_2(logic, pair, (g1, g2), found)
                            || roof_type_4(logic, pair, (g1, g2), found)
                        {
                            return;
                        }
                    }
                }
            }
        }
    }
}

/// Type 2 on the roof `(g1, g2)` of a rectangle on `pair`: both hold one digit more, the same;
/// true when `found` stopped the search.
fn roof_type_2<S: Shape>(
    logic: &Logic<S>,
    pair: u32,
    (g1, g2): (usize, usize),
    found: &mut Found<'_, S>,
) -> bool {
    let extra = logic.cand[g1] & !pair;
    if extra.count_ones() != 1 || logic.cand[g2] & !pair != extra {
        return false;
    }
    let mut removal = S::cells(0u32);
    let mut any = false;
    for &cell in S::peers(g1) {
        let cell = cell as usize;
        if cell != g2 && logic.cand[cell] & extra != 0 && sees::<S>(cell, g2) {
            removal[cell] = extra;
            any = true;
        }
    }
    any && found(logic, &removal, 0)
}

/// Type 4 on the roof `(g1, g2)` of a rectangle on `pair`: in a unit both lie in, one digit
/// of the pair has no other place, so both lose the other digit; true when `found` stopped
/// the search.
fn roof_type_4<S: Shape>(
    logic: &Logic<S>,
    pair: u32,
    (g1, g2): (usize, usize),
    found: &mut Found<'_, S>,
) -> bool {
    let (u1, u2) = (S::units_of(g1), S::units_of(g2));
    for unit in (0..3).filter(|&k| u1[k] == u2[k]).map(|k| u1[k]) {
        let mut locked = pair;
        for &cell in S::unit(unit) {
            let cell = cell as usize;
            if cell != g1 && cell != g2 {
                locked &= !logic.cand[cell];
            }
        }
        // One digit locked in the roof: the other goes from both corners (with both
        // locked, the roof would hold just the pair, and the puzzle no single solution).
        if locked.count_ones() == 1 {
            let mut removal = S::cells(0u32);
            removal[g1] = pair & !locked;
            removal[g2] = pair & !locked;
            if found(logic, &removal, unit) {
                return true;
            }
        }
    }
    false
}

/// True when two cells share a unit.
fn sees<S: Shape>(a: usize, b: usize) -> bool {
    a != b && {
        let (ua, ub) = (S::units_of(a), S::units_of(b));
        ua.iter().zip(&ub).any(|(x, y)| x == y)
    }
}

/// XY-Wing (pivot {x,y}, pincers {x,z} and {y,z} it sees) or, with `xyz`, XYZ-Wing (pivot
/// {x,y,z}, pincers {x,z} and {y,z}): z leaves every cell that sees both pincers (and, for
/// XYZ, the pivot).
fn wing<S: Shape>(logic: &Logic<S>, xyz: bool, found: &mut Found<'_, S>) {
    let size = if xyz { 3 } else { 2 };
    for pivot in 0..S::CELLS {
        let p = logic.cand[pivot];
        if p.count_ones() != size {
            continue;
        }
        let peers = S::peers(pivot);
        for (i, &a) in peers.iter().enumerate() {
            let a = a as usize;
            let ca = logic.cand[a];
            if ca.count_ones() != 2 || (ca & p).count_ones() != if xyz { 2 } else { 1 } {
                continue;
            }
            for &b in &peers[i + 1..] {
                let b = b as usize;
                let cb = logic.cand[b];
                if cb.count_ones() != 2 || cb == ca {
                    continue;
                }
                let z = ca & cb;
                let fits = if xyz {
                    z.count_ones() == 1 && ca | cb == p
                } else {
                    z.count_ones() == 1 && z & p == 0 && (ca | cb) & !z == p
                };
                if !fits {
                    continue;
                }
                let mut removal = S::cells(0u32);
                let mut any = false;
                for &cell in S::peers(a) {
                    let cell = cell as usize;
                    let sees_all = sees::<S>(cell, b) && (!xyz || sees::<S>(cell, pivot));
                    if sees_all && cell != pivot && logic.cand[cell] & z != 0 {
                        removal[cell] = z;
                        any = true;
                    }
                }
                if any && found(logic, &removal, 0) {
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Holes;
    use crate::grid::Grid;
    use crate::rating::closure::place_closure;
    use crate::shape::Nine;
    use crate::stats::Work;

    /// Every set of eliminations `find` offers on `logic`, in order.
    fn offers<S: Shape>(
        logic: &Logic<S>,
        find: impl Fn(&Logic<S>, &mut Found<'_, S>),
    ) -> Vec<Vec<u32>> {
        let mut offered = Vec::new();
        find(logic, &mut |_, removal, _| {
            offered.push(removal.as_ref().to_vec());
            false
        });
        offered
    }

    /// The first set of eliminations `find` offers on `logic`, as (cell, candidates); empty
    /// when it offers none.
    fn first_offer<S: Shape>(
        logic: &Logic<S>,
        find: impl Fn(&Logic<S>, &mut Found<'_, S>),
    ) -> Vec<(usize, u32)> {
        let mut first = Vec::new();
        find(logic, &mut |_, removal, _| {
            first = (0..S::CELLS)
                .filter(|&c| removal[c] != 0)
                .map(|c| (c, removal[c]))
                .collect();
            true
        });
        first
    }

    /// What the unique rectangle search offers first on an empty 9×9 grid whose cells 0 and 3
    /// (row 1, columns 1 and 4) hold just 1 and 2, and whose cells 9 and 12, below them, hold
    /// `roof`; `also` changes the other candidates first.
    fn first_rectangle(roof: u32, also: impl Fn(&mut Logic<Nine>)) -> Vec<(usize, u32)> {
        let mut logic = Logic::new(&Grid::<Nine>::empty()).unwrap();
        also(&mut logic);
        (logic.cand[0], logic.cand[3]) = (0b11, 0b11);
        (logic.cand[9], logic.cand[12]) = (roof, roof);
        first_offer(&logic, unique_rectangle)
    }

    #[test]
    fn unique_rectangles_with_a_roof() {
        // Type 2: the roof holds 1, 2 and 5, so one of its cells is 5, and the rest of its
        // row (the only cells that see both) loses 5.
        let row: Vec<(usize, u32)> = (9..18)
            .filter(|&c| c != 9 && c != 12)
            .map(|c| (c, 0b1_0000))
            .collect();
        assert_eq!(first_rectangle(0b1_0011, |_| {}), row);
        // Type 4: the roof holds 1, 2, 5 and 6, and 1 has no other place in its row: one
        // roof cell is 1, so neither can be 2.
        let no_other_1 = |logic: &mut Logic<Nine>| {
            for c in 9..18 {
                logic.cand[c] &= !1;
            }
        };
        assert_eq!(
            first_rectangle(0b11_0011, no_other_1),
            vec![(9, 0b10), (12, 0b10)]
        );
        // Neither: two more digits in the roof, and 1 and 2 with other places in its row.
        assert_eq!(first_rectangle(0b11_0011, |_| {}), vec![]);
    }

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
        assert_eq!(first_offer(&logic, empty_rectangle), vec![(36, 1)]);
        // With a fourth place off the cross (r2c2), there is none.
        logic.cand[10] |= 1;
        assert_eq!(first_offer(&logic, empty_rectangle), vec![]);
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
            place_closure(&mut logic, u32::MAX, 0).unwrap();
            if logic.is_solved() {
                continue;
            }
            grids += 1;
            for kind in [Turbot::Skyscraper, Turbot::Kite, Turbot::Crane] {
                let by_masks = offers(&logic, |l, f| turbot_with(l, kind, Nine::peer_masks(), f));
                let by_peers = offers(&logic, |l, f| turbot_with(l, kind, &[], f));
                assert_eq!(by_masks, by_peers, "{}", made.puzzle);
                offered += by_masks.len();
            }
        }
        assert!(
            grids >= 50 && offered >= 200,
            "{grids} grids, {offered} offers"
        );
    }

    #[test]
    fn covering_subsets_are_enumerated_once_in_order() {
        // Item i covers bit i: every 2-subset covers two bits.
        let masks: [u32; 32] = std::array::from_fn(|i| 1 << i);
        let mut seen = Vec::new();
        covering_subsets(0b10110, 2, &masks, &mut |s, cover| {
            seen.push((s, cover));
            false
        });
        assert_eq!(
            seen,
            vec![(0b00110, 0b00110), (0b10010, 0b10010), (0b10100, 0b10100)]
        );
        // Items 1 and 2 cover three bits together, items 1 and 4 one: only {1, 4} is kept
        // among pairs, and a visit returning true stops the walk.
        let mut masks = [0u32; 32];
        (masks[1], masks[2], masks[4]) = (0b011, 0b100, 0b001);
        let mut seen = Vec::new();
        covering_subsets(0b10110, 2, &masks, &mut |s, cover| {
            seen.push((s, cover));
            true
        });
        assert_eq!(seen, vec![(0b10010, 0b011)]);
    }
}
