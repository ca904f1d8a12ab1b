//! Unique loops, and with them the unique rectangles SE rates above 4.5.
//!
//! A unique loop is a closed chain of six cells or more, each holding the same two
//! candidates (the *pair*), each sharing a unit with the next, where every row, column and
//! box the loop enters holds exactly two of its cells, one at an even place of the loop and
//! one at an odd: were the loop's cells left only the pair, its two digits could swap round
//! it, and the puzzle would not have one solution. So a cell of the loop that holds more
//! (an *extra* cell) takes one of its other digits, as in a unique rectangle (the loop of
//! four cells, [`super::uniqueness`]): type 1, one extra cell, which loses the pair; type 2,
//! the extra cells hold one more digit, the same, which every cell that sees them all loses;
//! type 3, two extra cells act as one cell holding their extras in a unit they share, with
//! a naked or hidden set there ([`Roof::type_3`]); type 4, one digit of the pair has no
//! place but the two extra cells in a unit they share, so both lose the other digit.
//!
//! SE finds loops from each cell of two candidates, row by row, following units (box, row,
//! column, never the unit of the last link twice in a row) through cells that hold the pair,
//! at most two of them holding more, or any number holding one more digit, the same. Its
//! rating is 4.6 for a loop of six or seven cells, 4.7 for eight or nine and 5.0 for ten or
//! more, type 3 adding what it adds to a rectangle; and it offers loops and rectangles
//! together, by rating and then by type, before any technique after it in its list. So
//! [`unique_loop`] offers the first of the rectangles of type 3 rated above 4.5 and the
//! loops, in that order, and says which technique it is.
//!
//! The search here finds SE's loops in SE's order, with less work: a pair at a time, only
//! through cells that hold the pair with another such cell in their row, their column and
//! their box (every cell of a loop has one), and never on to a cell that shares a unit with
//! a cell of the loop at a place of the same parity. It still looks at every cell SE looks
//! at, for SE gathers the other digits of the cells it looks at, taken or not, and they
//! decide which cells with more it takes. Loops of four cells are the rectangles, which
//! [`super::uniqueness`] finds. (SE's search also finds rectangles with three corners
//! holding one extra digit, the same, as type 2; but no cell outside them sees all three
//! but the fourth corner, which holds just the pair, so they remove nothing.)

use super::sees;
use super::uniqueness::{RECTANGLE_TENTHS, Roof, unique_rectangle_type_3};
use crate::rating::SeTechnique;
use crate::rating::logic::{Found, Logic};
use crate::shape::Shape;

/// The ratings in tenths of rectangles of type 3 above 4.5, as SE rates them.
const RECTANGLE_TYPE_3: [(u32, SeTechnique); 3] = [
    (46, SeTechnique::UniqueRectangle46),
    (47, SeTechnique::UniqueRectangle47),
    (48, SeTechnique::UniqueRectangle48),
];

/// The first step SE's list takes among the unique rectangles of type 3 rated above 4.5
/// and the unique loops: offers its eliminations to `found` and returns its technique, or
/// `None` when there is none.
pub(super) fn unique_loop<S: Shape>(
    logic: &Logic<S>,
    found: &mut Found<'_, S>,
) -> Option<SeTechnique> {
    let mut best: Option<Step<S>> = None;
    Loops::new(logic)
        .each(&mut |pair, first, cells| offer_loop(logic, pair, first, cells, &mut best));
    // A rectangle comes before a loop of the same rating and type (SE finds both in one
    // search, in an order the two searches here do not share).
    for (tenths, technique) in RECTANGLE_TYPE_3 {
        if best
            .as_ref()
            .is_some_and(|b| (b.tenths, b.kind) < (tenths, 3))
        {
            break;
        }
        let mut removal = None;
        unique_rectangle_type_3(logic, tenths, &mut |_, found, _| {
            removal = Some(*found);
            true
        });
        if let Some(removal) = removal {
            found(logic, &removal, 0);
            return Some(technique);
        }
    }
    let best = best?;
    found(logic, &best.removal, 0);
    Some(SeTechnique::UniqueLoop {
        tenths: best.tenths,
        kind: best.kind,
    })
}

/// A loop's step: its rating in tenths, its type, the cell SE's search found its loop from,
/// and its eliminations.
struct Step<S: Shape> {
    tenths: u32,
    kind: u8,
    first: usize,
    removal: S::Cells<u32>,
}

/// Where a step stands in SE's order: by rating, then type, then the cell its loop was
/// found from, then the first found.
type Key = (u32, u8, usize);

impl<S: Shape> Step<S> {
    /// Whether a step of key `key` would come after `best` in SE's order.
    fn after(best: &Option<Step<S>>, key: Key) -> bool {
        best.as_ref()
            .is_some_and(|b| (b.tenths, b.kind, b.first) <= key)
    }

    /// Keeps the step in `best` if it comes before the one there.
    fn keep(best: &mut Option<Step<S>>, (tenths, kind, first): Key, removal: &S::Cells<u32>) {
        if !Self::after(best, (tenths, kind, first)) {
            *best = Some(Step {
                tenths,
                kind,
                first,
                removal: *removal,
            });
        }
    }
}

/// SE's rating of a unique loop of `len` cells, in tenths.
fn loop_tenths(len: usize) -> u32 {
    match len {
        ..6 => RECTANGLE_TENTHS,
        6..8 => 46,
        8..10 => 47,
        _ => 50,
    }
}

/// Keeps in `best` the first step, in SE's order, of the loop `cells` on `pair`, found from
/// cell `first`, if it comes before the one there.
fn offer_loop<S: Shape>(
    logic: &Logic<S>,
    pair: u32,
    first: usize,
    cells: &[usize],
    best: &mut Option<Step<S>>,
) {
    let base = loop_tenths(cells.len());
    let mut extra = cells.iter().copied().filter(|&c| logic.cand[c] != pair);
    let (Some(g1), second) = (extra.next(), extra.next()) else {
        // No cell holds more: the puzzle would not have one solution.
        return;
    };
    let Some(g2) = second else {
        let mut removal = S::cells(0u32);
        removal[g1] = pair;
        Step::keep(best, (base, 1, first), &removal);
        return;
    };
    let many = extra.next().is_some();
    let extras = (logic.cand[g1] | logic.cand[g2]) & !pair;
    if many || extras.count_ones() == 1 {
        if let Some(removal) = loop_type_2(logic, pair, g1, cells) {
            Step::keep(best, (base, 2, first), &removal);
        }
        if many {
            return;
        }
    } else {
        let roof = Roof { pair, g1, g2 };
        for tenths in base..=base + 6 {
            if Step::after(best, (tenths, 3, first)) {
                break;
            }
            let mut offered = None;
            roof.type_3(logic, base, tenths, &mut |_, removal, _| {
                offered = Some(*removal);
                true
            });
            if let Some(removal) = offered {
                Step::keep(best, (tenths, 3, first), &removal);
                break;
            }
        }
    }
    if let Some(removal) = loop_type_4(logic, pair, g1, g2) {
        Step::keep(best, (base, 4, first), &removal);
    }
}

/// Type 2 of a loop of `cells` on `pair` whose first extra cell is `g1`: that cell's lowest
/// other digit, as SE takes it, leaves every cell that sees all the extra cells.
fn loop_type_2<S: Shape>(
    logic: &Logic<S>,
    pair: u32,
    g1: usize,
    cells: &[usize],
) -> Option<S::Cells<u32>> {
    let digit = logic.cand[g1] & !pair;
    let digit = digit & digit.wrapping_neg();
    let is_extra = |c: usize| logic.cand[c] != pair && cells.contains(&c);
    let mut removal = S::cells(0u32);
    let mut any = false;
    for &cell in S::peers(g1) {
        let cell = cell as usize;
        if logic.cand[cell] & digit == 0 || is_extra(cell) {
            continue;
        }
        if cells.iter().all(|&c| !is_extra(c) || sees::<S>(cell, c)) {
            removal[cell] = digit;
            any = true;
        }
    }
    any.then_some(removal)
}

/// Type 4 of a loop on `pair` with two extra cells, `g1` and `g2`, as SE takes it: the first
/// digit of the pair with no place but the two in a unit they share, else the second; they
/// lose the other.
fn loop_type_4<S: Shape>(
    logic: &Logic<S>,
    pair: u32,
    g1: usize,
    g2: usize,
) -> Option<S::Cells<u32>> {
    let (u1, u2) = (S::units_of(g1), S::units_of(g2));
    let mut locked = 0;
    for unit in (0..3).filter(|&k| u1[k] == u2[k]).map(|k| u1[k]) {
        let elsewhere = S::unit(unit)
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| c != g1 && c != g2)
            .fold(0, |m, c| m | logic.cand[c]);
        locked |= pair & !elsewhere;
    }
    if locked == 0 {
        return None;
    }
    let lock = locked & locked.wrapping_neg();
    let mut removal = S::cells(0u32);
    removal[g1] = pair & !lock;
    removal[g2] = pair & !lock;
    Some(removal)
}

/// SE's search for loops of six cells or more: from each cell of two candidates, row by row,
/// depth first through the units of each cell (box, row, column, never the unit of the link
/// that reached it), through cells that hold both candidates of the first.
struct Loops<'a, S: Shape> {
    logic: &'a Logic<S>,
    /// The pair of the loops sought.
    pair: u32,
    /// The cells that may lie on such a loop: those holding the pair with another such cell
    /// in their row, their column and their box, and so on until none is left without.
    core: S::Cells<bool>,
    /// Per unit, the positions of its cells that hold the pair.
    holders: S::Units<u32>,
    /// The loop so far, and which cells lie on it. A path holds at most one cell of each
    /// row at places of each parity: `2N` cells, 50 at most.
    path: [usize; 50],
    len: usize,
    on_path: S::Cells<bool>,
    /// The units of the loop's cells at even places, and at odd.
    seen: [u128; 2],
}

impl<'a, S: Shape> Loops<'a, S> {
    fn new(logic: &'a Logic<S>) -> Self {
        Loops {
            logic,
            pair: 0,
            core: S::cells(false),
            holders: S::units(0),
            path: [0; 50],
            len: 0,
            on_path: S::cells(false),
            seen: [0; 2],
        }
    }

    /// Calls `visit` with the pair, the first cell and the cells of every unique loop of six
    /// cells or more SE's search finds, a pair at a time: SE's order is that of the first
    /// cells, and for each first cell, that of the calls.
    fn each(&mut self, visit: &mut impl FnMut(u32, usize, &[usize])) {
        for first in 0..S::CELLS {
            let pair = self.logic.cand[first];
            // The first cell of its pair, row by row: the pair's loops are sought from it on.
            let new_pair =
                pair.count_ones() == 2 && !(0..first).any(|c| self.logic.cand[c] == pair);
            if !new_pair || !self.find_core(pair) {
                continue;
            }
            for start in first..S::CELLS {
                if self.logic.cand[start] == pair && self.core[start] {
                    self.extend(start, 3, 2, 0, &mut |pair, cells| visit(pair, start, cells));
                }
            }
        }
    }

    /// Sets `pair`, and `holders` and `core` for it; false when the core is empty.
    fn find_core(&mut self, pair: u32) -> bool {
        self.pair = pair;
        let (n, side) = (S::N, S::BOX);
        let mut cells = 0;
        self.holders = S::units(0);
        for cell in 0..S::CELLS {
            let holds = self.logic.cand[cell] & pair == pair;
            self.core[cell] = holds;
            if holds {
                // The cell's place in its row, column and box.
                let (r, c) = (cell / n, cell % n);
                let places = [c, r, r % side * side + c % side];
                for (&unit, place) in S::units_of(cell).iter().zip(places) {
                    self.holders[unit] |= 1 << place;
                }
                cells += 1;
            }
        }
        let mut changed = true;
        while changed && cells > 0 {
            changed = false;
            for cell in 0..S::CELLS {
                let units = S::units_of(cell);
                if self.core[cell] && units.iter().any(|&u| self.core_count(u) < 2) {
                    self.core[cell] = false;
                    cells -= 1;
                    changed = true;
                }
            }
        }
        cells > 0
    }

    /// How many cells of `unit` lie in the core.
    fn core_count(&self, unit: usize) -> u32 {
        let mut holders = self.holders[unit];
        let mut count = 0;
        while holders != 0 {
            let cell = S::unit(unit)[holders.trailing_zeros() as usize] as usize;
            holders &= holders - 1;
            count += u32::from(self.core[cell]);
        }
        count
    }

    /// Goes on from `cell`, reached through a unit of kind `last` (0 row, 1 column, 2 box,
    /// 3 none), with `allowed` more cells that hold more than the pair, and `extras` the
    /// other digits of the cells looked at so far (SE gathers them from every cell it looks
    /// at, taken or not).
    fn extend(
        &mut self,
        cell: usize,
        last: usize,
        allowed: i32,
        extras: u32,
        visit: &mut impl FnMut(u32, &[usize]),
    ) {
        // A unit holds one cell of a unique loop at an even place and one at an odd: a path
        // with two at places of one parity leads to no loop that counts.
        let units = S::units_of(cell);
        let bits = units.iter().fold(0u128, |m, &u| m | 1 << u);
        let parity = self.len % 2;
        if self.seen[parity] & bits != 0 {
            return;
        }
        self.seen[parity] |= bits;
        self.path[self.len] = cell;
        self.len += 1;
        self.on_path[cell] = true;
        let mut extras = extras;
        for kind in [2, 0, 1] {
            if kind == last {
                continue;
            }
            let unit = units[kind];
            let mut holders = self.holders[unit];
            while holders != 0 {
                let next = S::unit(unit)[holders.trailing_zeros() as usize] as usize;
                holders &= holders - 1;
                if next == self.path[0] && self.len >= 4 {
                    if self.len >= 6 && self.seen[0] == self.seen[1] {
                        visit(self.pair, &self.path[..self.len]);
                    }
                    continue;
                }
                if self.on_path[next] {
                    continue;
                }
                let cand = self.logic.cand[next];
                extras |= cand & !self.pair;
                let more = cand != self.pair;
                let open = !more || extras.count_ones() == 1 || allowed > 0;
                if open && self.core[next] {
                    self.extend(next, kind, allowed - i32::from(more), extras, visit);
                }
            }
        }
        self.len -= 1;
        self.on_path[cell] = false;
        self.seen[parity] &= !bits;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::shape::Nine;

    /// SE's search as SE writes it, without the core or the parity check: from each cell of
    /// two candidates, row by row, every loop of six cells or more that passes SE's check
    /// of its units, with the cell it was found from.
    fn se_loops(logic: &Logic<Nine>) -> Vec<(usize, Vec<usize>)> {
        fn check(
            logic: &Logic<Nine>,
            pair: u32,
            cell: usize,
            path: &mut Vec<usize>,
            (allowed, extras): (i32, u32),
            last: usize,
            out: &mut Vec<Vec<usize>>,
        ) {
            path.push(cell);
            let mut extras = extras;
            for kind in [2, 0, 1] {
                if kind == last {
                    continue;
                }
                for &next in Nine::unit(Nine::units_of(cell)[kind]) {
                    let next = next as usize;
                    if next == path[0] && path.len() >= 4 {
                        out.push(path.clone());
                    } else if !path.contains(&next) && logic.cand[next] & pair == pair {
                        extras |= logic.cand[next] & !pair;
                        let more = logic.cand[next] != pair;
                        if !more || extras.count_ones() == 1 || allowed > 0 {
                            let allowed = allowed - i32::from(more);
                            check(logic, pair, next, path, (allowed, extras), kind, out);
                        }
                    }
                }
            }
            path.pop();
        }
        // SE's check: no unit twice among the cells at even places, nor at odd, and the
        // same units at both.
        let valid = |cells: &[usize]| {
            let mut units = [Vec::new(), Vec::new()];
            for (k, &cell) in cells.iter().enumerate() {
                for unit in Nine::units_of(cell) {
                    if units[k % 2].contains(&unit) {
                        return false;
                    }
                    units[k % 2].push(unit);
                }
            }
            units.iter_mut().for_each(|u| u.sort());
            units[0] == units[1]
        };
        let mut found = Vec::new();
        for start in 0..Nine::CELLS {
            let pair = logic.cand[start];
            if pair.count_ones() == 2 {
                let mut loops = Vec::new();
                check(logic, pair, start, &mut Vec::new(), (2, 0), 3, &mut loops);
                for cells in loops.into_iter().filter(|c| c.len() >= 6 && valid(c)) {
                    found.push((start, cells));
                }
            }
        }
        found
    }

    /// The search here finds the loops SE's finds, from the same cells, in the same order
    /// for each cell, on every grid of the rater's path through the Sudoku Exchange puzzles
    /// of the shared data where it looks for loops.
    #[test]
    fn loops_are_ses() {
        use crate::rating::{Fruitless, Path, closure, eliminating_step};
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../shared/data/sudoku_exchange_diabolical.txt"
        );
        let text = std::fs::read_to_string(path).expect("../shared/data beside the repository");
        let (mut grids, mut loops) = (0, 0);
        for line in text.lines() {
            let digits = line.split_whitespace().nth(1).unwrap();
            let mut logic = Logic::new(&Grid::<Nine>::parse(digits).unwrap()).unwrap();
            loop {
                closure::place_closure(&mut logic, u32::MAX, 0, None).unwrap();
                if logic.is_solved() {
                    break;
                }
                let mut ours = Vec::new();
                Loops::new(&logic).each(&mut |_, first, cells| ours.push((first, cells.to_vec())));
                // Ours go a pair at a time: in the order of the cells found from.
                ours.sort_by_key(|(first, _)| *first);
                let theirs = se_loops(&logic);
                assert_eq!(ours, theirs, "{digits}");
                grids += 1;
                loops += theirs.len();
                let fresh = &mut Fruitless::new();
                if eliminating_step(&mut logic, 75, Path::Stepwise, fresh).is_none() {
                    break;
                }
            }
        }
        assert!(grids > 1_000 && loops > 100, "{grids} grids, {loops} loops");
    }

    /// The step `unique_loop` takes on an empty 9×9 grid where only cells 0, 3, 12, 15, 24
    /// and 18 hold 1 and 2, a loop of six cells through rows 1 to 3 (each row, column and box
    /// it enters holds two of them), every other cell holding 3 to 9; `also` changes the
    /// candidates then. The technique and the eliminations, as (cell, candidates).
    fn step(also: impl Fn(&mut Logic<Nine>)) -> Option<(SeTechnique, Vec<(usize, u32)>)> {
        let mut logic = Logic::new(&Grid::<Nine>::empty()).unwrap();
        for cell in 0..Nine::CELLS {
            logic.cand[cell] = Nine::ALL & !0b11;
        }
        for cell in LOOP {
            logic.cand[cell] = 0b11;
        }
        also(&mut logic);
        let mut removal = Vec::new();
        let technique = unique_loop(&logic, &mut |_, found, _| {
            removal = (0..Nine::CELLS)
                .filter(|&c| found[c] != 0)
                .map(|c| (c, found[c]))
                .collect();
            true
        });
        technique.map(|t| (t, removal))
    }

    /// The loop, in order: along row 1, down column 4, along row 2, down column 7, along row
    /// 3, and up column 1.
    const LOOP: [usize; 6] = [0, 3, 12, 15, 24, 18];

    const fn looped(tenths: u32, kind: u8) -> SeTechnique {
        SeTechnique::UniqueLoop { tenths, kind }
    }

    #[test]
    fn unique_loops_of_each_type() {
        // Only the pair everywhere: two solutions, no step.
        assert_eq!(step(|_| {}), None);
        // Type 1: cell 24 alone holds more, so it loses 1 and 2.
        let one_extra = |l: &mut Logic<Nine>| l.cand[24] = 0b1_0011;
        assert_eq!(step(one_extra), Some((looped(46, 1), vec![(24, 0b11)])));
        // Type 2: cells 18 and 24 hold 5 as well; one is 5, so row 3's other cells lose it.
        let fives = |l: &mut Logic<Nine>| (l.cand[18], l.cand[24]) = (0b1_0011, 0b1_0011);
        let row: Vec<(usize, u32)> = [19, 20, 21, 22, 23, 25, 26]
            .into_iter()
            .map(|c| (c, 0b1_0000))
            .collect();
        assert_eq!(step(fives), Some((looped(46, 2), row)));
        // Type 4: cells 18 and 24 hold 5 and 6 besides, and 1 has no other place in row 3
        // (2 has two, so there is no hidden pair): one of them is 1, neither can be 2.
        let type_4 = |l: &mut Logic<Nine>| {
            (l.cand[18], l.cand[24]) = (0b1_0011, 0b10_0011);
            (l.cand[19], l.cand[20]) = (Nine::ALL & !1, Nine::ALL & !1);
        };
        assert_eq!(
            step(type_4),
            Some((looped(46, 4), vec![(18, 0b10), (24, 0b10)]))
        );
        // With cell 22 holding just 5 and 6 as well, the extras make a naked pair with it
        // (type 3, 4.6 + 0.1): SE's order is by rating first, so type 4 (4.6) comes first.
        let naked = |l: &mut Logic<Nine>| {
            type_4(l);
            l.cand[22] = 0b11_0000;
        };
        assert_eq!(
            step(naked),
            Some((looped(46, 4), vec![(18, 0b10), (24, 0b10)]))
        );
        // Without the type 4 (2 has no other place in row 3 either, and 1 has one more), the
        // naked pair is the step.
        let naked_alone = |l: &mut Logic<Nine>| {
            (l.cand[18], l.cand[24]) = (0b1_0011, 0b10_0011);
            (l.cand[19], l.cand[20]) = (Nine::ALL & !0b10, Nine::ALL & !0b10);
            l.cand[21] = Nine::ALL & !0b1;
            l.cand[22] = 0b11_0000;
        };
        let row: Vec<(usize, u32)> = [19, 20, 21, 23, 25, 26]
            .into_iter()
            .map(|c| (c, 0b11_0000))
            .collect();
        assert_eq!(step(naked_alone), Some((looped(47, 3), row)));
        // A cell of the loop without the pair breaks it.
        let broken = |l: &mut Logic<Nine>| {
            one_extra(l);
            l.cand[12] = 0b1100;
        };
        assert_eq!(step(broken), None);
    }
}
