//! Two strong links on one digit: turbot fish, grouped turbot fish and empty rectangles.

use super::{End, strong_links};
use crate::rating::logic::{Found, Logic};
use crate::rating::techniques::sees;
use crate::shape::Shape;

/// Turbot fish: a digit with exactly two places in each of two units, A–B and C–D, where B
/// sees C; one of A and D holds the digit, so it leaves every cell that sees both. Sukaku
/// Explainer rates them by the units: a skyscraper (two rows or two columns) 4.0, a
/// two-string kite (a row and a column) or a turbot crane (a box and any unit) 4.1, as its
/// strong links of two rate them (`StrongLinksHint.getDifficulty`: 4.0, and 4.1 unless the
/// links lie in lines of one kind).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(in crate::rating::techniques) enum Turbot {
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
pub(in crate::rating::techniques) fn turbot<S: Shape>(
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

/// Grouped turbot fish (Sukaku Explainer's grouped strong links of two, 4.3, its empty
/// rectangles aside): two strong links on a digit, chained as in [`turbot`], where at least
/// one lies in a line whose places fill two of its box segments, each end the places in one
/// segment. A group is true when one of its cells is; a weak link joins two ends whose cells
/// all lie in one unit. One of the chain's outer ends holds the digit, so a cell that sees
/// every cell of both loses it, outside the links' units and the unit of the weak link (as
/// SE leaves them out). When the outer ends share a unit too, the chain is a loop, and a cell
/// that sees both ends of either weak link loses it, outside the links' units.
pub(in crate::rating::techniques) fn grouped_turbot<S: Shape>(
    logic: &Logic<S>,
    digits: u32,
    found: &mut Found<'_, S>,
) {
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
pub(in crate::rating::techniques) fn empty_rectangle<S: Shape>(
    logic: &Logic<S>,
    digits: u32,
    found: &mut Found<'_, S>,
) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Holes;
    use crate::grid::Grid;
    use crate::rating::closure::place_closure;
    use crate::rating::techniques::tests::{first_offer, offers};
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
}
