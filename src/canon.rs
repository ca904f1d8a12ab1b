//! Canonical forms: one representative for every puzzle equivalent under the Sudoku group.
//!
//! Two puzzles are the same puzzle to a solver when one becomes the other by relabelling
//! digits, transposing, permuting bands, stacks, rows within a band or columns within a
//! stack. The canonical form of a puzzle is the lexicographically smallest text (`.` before
//! `1` before `2` …) over that whole group: for 9×9, 9! × 2 × 6⁸ transformations.
//!
//! For a fixed arrangement of cells, the smallest relabelling numbers digits in order of
//! first appearance, so the search is over arrangements only. It builds the output one row
//! at a time, for both orientations: every source row the band structure allows is tried
//! under every arrangement kept so far, and only the arrangements that give the smallest
//! row go on to the next. Columns are not enumerated. They are an
//! ordered partition refined by each row placed: columns (and whole stacks) that every row
//! so far leaves empty are still interchangeable, and the smallest row sorts the rest, so
//! the only column choices ever branched on are the orders of digits that appear for the
//! first time in the same block, which give the same row and different labellings. Rows
//! whose columns are all in place are read straight, and given up at the first value larger
//! than the best row's.
//!
//! A complete grid would tie every column order in its first row, so its first two rows are
//! placed together (`Search::complete_top`): the second row is built column by column,
//! each choice placing the first-row column of its digit as early as it can go.
//!
//! Canonical forms are computed for 4×4 and 9×9. For 16×16 and 25×25 the search has no
//! bound this module can promise (the group of 16×16 alone has 16! × 2 × 24¹⁰ elements, and
//! a sparse puzzle ties many of them row after row), and two random puzzles of those sizes
//! are equivalent with vanishing probability, so [`supported`] refuses them.

use std::cmp::Ordering;
use std::ops::Range;

use crate::grid::Grid;
use crate::hash::puzzle_id_hex;
use crate::shape::{Shape, Size};

/// The largest side handled: 9.
const MAX_N: usize = 9;
/// A digit's rank while its row is sorted, before it is given a label: after every label.
const NEW: u8 = u8::MAX;

/// The rank of column `col` of source row `row` under `labels`: 0 for an empty cell, the
/// digit's label if it has one, else [`NEW`].
fn rank(row: &Row, labels: &[u8; MAX_N + 1], col: u8) -> u8 {
    match row[col as usize] {
        0 => 0,
        digit => match labels[digit as usize] {
            0 => NEW,
            label => label,
        },
    }
}

/// `Ok` when canonical forms are computed for grids of `size`; otherwise why not.
pub fn supported(size: Size) -> Result<(), String> {
    if size.n() <= MAX_N {
        Ok(())
    } else {
        Err(format!(
            "canonical forms are computed for 4×4 and 9×9 only: for {n}×{n} no pruned search \
             with a bounded cost is known here, and two random {n}×{n} puzzles are equivalent \
             with vanishing probability, so use --dedup exact",
            n = size.n()
        ))
    }
}

/// The canonical form of `grid`, as [`Canonicalizer::canonical`] gives it. For many
/// puzzles, keep a [`Canonicalizer`] instead: it reuses its buffers.
pub fn canonical<S: Shape>(grid: &Grid<S>) -> Option<Grid<S>> {
    Canonicalizer::new().canonical(grid)
}

/// The `canon_id` of `grid`: [`crate::hash::puzzle_id`] of its canonical text, 16 hex digits.
pub fn canon_id<S: Shape>(grid: &Grid<S>) -> Option<String> {
    canonical(grid).map(|canon| puzzle_id_hex(canon.to_string()))
}

type Row = [u8; MAX_N];

/// Computes canonical forms, keeping its buffers from one puzzle to the next: keep one per
/// thread. The search holds every arrangement whose rows so far are the smallest possible
/// (the ties), and extends them all by one row at a time.
#[derive(Debug, Default)]
pub struct Canonicalizer {
    ties: Vec<Node>,
    next: Vec<Node>,
}

impl Canonicalizer {
    /// A canonicalizer with empty buffers.
    pub fn new() -> Self {
        Self::default()
    }

    /// The canonical form of `grid`: the smallest text of any grid equivalent to it. `None`
    /// for sizes past 9×9 (see [`supported`]). `grid` must hold no digit twice in a row,
    /// column or box ([`Grid::conflict`]); for one that does, the result is unspecified (but
    /// the call returns).
    pub fn canonical<S: Shape>(&mut self, grid: &Grid<S>) -> Option<Grid<S>> {
        if S::N > MAX_N {
            return None;
        }
        let mut rows = [[0u8; MAX_N]; MAX_N];
        for (cell, &digit) in grid.digits().iter().enumerate() {
            rows[cell / S::N][cell % S::N] = digit;
        }
        let search = Search::new(S::BOX, rows);
        let mut digits = [0u8; MAX_N * MAX_N];
        let mut placed = 0;
        self.ties.clear();
        if grid.is_solution() {
            // A complete grid: its first row ties every column order, so the first two
            // rows are placed together.
            let second = search.complete_top(&mut self.ties);
            for (p, value) in digits.iter_mut().take(S::N).enumerate() {
                *value = p as u8 + 1;
            }
            digits[S::N..2 * S::N].copy_from_slice(&second[..S::N]);
            placed = 2;
        } else {
            self.ties.extend([search.root(0), search.root(1)]);
        }
        for depth in placed..S::N {
            let row = search.extend(depth, &self.ties, &mut self.next);
            digits[depth * S::N..(depth + 1) * S::N].copy_from_slice(&row[..S::N]);
            std::mem::swap(&mut self.ties, &mut self.next);
        }
        Grid::from_digits(&digits[..S::CELLS])
    }
}

/// The grid in both orientations.
struct Search {
    b: usize,
    n: usize,
    /// The puzzle in each orientation: as given, then transposed.
    grids: [[Row; MAX_N]; 2],
}

/// One arrangement of the rows placed so far, and what is still open.
#[derive(Clone, Copy, Debug)]
struct Node {
    /// The orientation: 0 as given, 1 transposed.
    grid: u8,
    /// Output position → source column.
    cols: [u8; MAX_N],
    /// Bit `p`: position `p` is still interchangeable with position `p − 1`.
    tied_cols: u16,
    /// Bit `s`: stack slot `s` is still interchangeable with slot `s − 1` (both stacks empty
    /// in every row placed, their columns tied).
    tied_stacks: u16,
    /// Source digit → label, 0 for none yet.
    labels: [u8; MAX_N + 1],
    /// The next label to give.
    next_label: u8,
    /// Source rows placed.
    used_rows: u16,
    /// The source band of the output band being filled.
    band: u8,
}

/// The first two rows of a complete grid being placed ([`Search::complete_top`]).
#[derive(Clone, Copy)]
struct Top {
    grid: u8,
    /// The source rows of the first and second output rows.
    first: u8,
    second: u8,
    /// Digit → its column in the first row.
    column_of: [u8; MAX_N + 1],
    /// Position → column, `u8::MAX` while open.
    cols: [u8; MAX_N],
    /// Column → position, `u8::MAX` while unplaced.
    position: [u8; MAX_N],
    /// Stack → slot and slot → stack, `u8::MAX` while unassigned.
    slot_of_stack: [u8; 3],
    stack_in_slot: [u8; 3],
    /// The second row's values so far.
    values: Row,
}

impl Top {
    /// Puts column `col` at position `at`, its stack in `at`'s slot.
    fn place(&mut self, b: usize, col: u8, at: usize) {
        self.cols[at] = col;
        self.position[col as usize] = at as u8;
        let (stack, slot) = (col as usize / b, at / b);
        self.slot_of_stack[stack] = slot as u8;
        self.stack_in_slot[slot] = stack as u8;
    }

    /// The node after both rows: every column in place, each digit labelled by its column's
    /// position in the first row.
    fn node(&self, search: &Search) -> Node {
        let first = &search.grids[self.grid as usize][self.first as usize];
        let mut labels = [0u8; MAX_N + 1];
        for (c, &digit) in first[..search.n].iter().enumerate() {
            labels[digit as usize] = self.position[c] + 1;
        }
        Node {
            grid: self.grid,
            cols: self.cols,
            tied_cols: 0,
            tied_stacks: 0,
            labels,
            next_label: search.n as u8 + 1,
            used_rows: 1 << self.first | 1 << self.second,
            band: self.first / search.b as u8,
        }
    }
}

/// A run of interchangeable items whose order is still to be chosen: positions, or stack
/// slots, `start..start + len`.
#[derive(Clone, Copy, Default)]
struct Tie {
    stacks: bool,
    start: u8,
    len: u8,
}

/// The ties one row leaves to branch on: at most one per column block or stack group.
#[derive(Default)]
struct Ties {
    list: [Tie; MAX_N],
    len: usize,
}

impl Ties {
    fn push(&mut self, tie: Tie) {
        if tie.len > 1 {
            self.list[self.len] = tie;
            self.len += 1;
        }
    }
}

impl Search {
    fn new(b: usize, rows: [Row; MAX_N]) -> Self {
        let n = b * b;
        let mut transposed = [[0u8; MAX_N]; MAX_N];
        for (r, row) in rows.iter().enumerate().take(n) {
            for (c, &digit) in row.iter().enumerate().take(n) {
                transposed[c][r] = digit;
            }
        }
        Search {
            b,
            n,
            grids: [rows, transposed],
        }
    }

    /// Orientation `grid` with nothing placed: every stack slot interchangeable with the one
    /// before, every column with the one before it in its stack.
    fn root(&self, grid: u8) -> Node {
        let mut cols = [0u8; MAX_N];
        for (p, col) in cols.iter_mut().enumerate().take(self.n) {
            *col = p as u8;
        }
        let stack_starts: u16 = (0..self.n).step_by(self.b).map(|p| 1u16 << p).sum();
        Node {
            grid,
            cols,
            tied_cols: ((1u16 << self.n) - 1) & !stack_starts,
            tied_stacks: ((1u16 << self.b) - 1) & !1,
            labels: [0; MAX_N + 1],
            next_label: 1,
            used_rows: 0,
            band: 0,
        }
    }

    /// Places output row `depth` under every node of `ties`: tries every source row each
    /// allows, keeps the smallest row any gives, and fills `next` with every arrangement
    /// that gives it, one per order of its tied new digits. Returns that row.
    fn extend(&self, depth: usize, ties: &[Node], next: &mut Vec<Node>) -> Row {
        let (b, n) = (self.b, self.n);
        next.clear();
        let mut best = [u8::MAX; MAX_N];
        for node in ties {
            let candidates: u16 = if depth.is_multiple_of(b) {
                // A new band: any row of a band not used yet.
                (0..b)
                    .filter(|band| node.used_rows >> (band * b) & 1 == 0)
                    .map(|band| ((1u16 << b) - 1) << (band * b))
                    .sum()
            } else {
                (((1u16 << b) - 1) << (node.band as usize * b)) & !node.used_rows
            };
            for r in (0..n).filter(|r| candidates >> r & 1 != 0) {
                let source = &self.grids[node.grid as usize][r];
                let mut child = *node;
                child.used_rows |= 1 << r;
                child.band = (r / b) as u8;
                let mut open = Ties::default();
                let row = if child.tied_cols | child.tied_stacks == 0 {
                    // Every column in place (the usual case past the first rows): read the row
                    // straight, and give up as soon as it is larger than the best.
                    let Some(row) = self.read(source, &child, &best) else {
                        continue;
                    };
                    row
                } else {
                    self.refine(source, &mut child, &mut open)
                };
                match row[..n].cmp(&best[..n]) {
                    Ordering::Greater => continue,
                    Ordering::Less => {
                        best = row;
                        next.clear();
                    }
                    Ordering::Equal => {}
                }
                self.branch(source, &mut child, &open.list[..open.len], next);
            }
        }
        best
    }

    /// Runs through every order of the items of each tie and adds to `out` the node of
    /// each, its new digits labelled in the order it gives them.
    fn branch(&self, source: &Row, node: &mut Node, ties: &[Tie], out: &mut Vec<Node>) {
        let Some((tie, rest)) = ties.split_first() else {
            let mut child = *node;
            for &col in &child.cols[..self.n] {
                let digit = source[col as usize] as usize;
                if digit != 0 && child.labels[digit] == 0 {
                    child.labels[digit] = child.next_label;
                    child.next_label += 1;
                }
            }
            out.push(child);
            return;
        };
        self.permute(source, node, *tie, 0, rest, out);
    }

    /// Every order of `tie`'s items from its `k`-th on, each followed by the other ties.
    fn permute(
        &self,
        source: &Row,
        node: &mut Node,
        tie: Tie,
        k: usize,
        rest: &[Tie],
        out: &mut Vec<Node>,
    ) {
        if k + 1 >= tie.len as usize {
            self.branch(source, node, rest, out);
            return;
        }
        let start = tie.start as usize;
        for j in k..tie.len as usize {
            self.swap(node, tie.stacks, start + k, start + j);
            self.permute(source, node, tie, k + 1, rest, out);
            self.swap(node, tie.stacks, start + k, start + j);
        }
    }

    /// Swaps two positions, or two stack slots with all their columns.
    fn swap(&self, node: &mut Node, stacks: bool, i: usize, j: usize) {
        if i == j {
            return;
        }
        if stacks {
            for k in 0..self.b {
                node.cols.swap(i * self.b + k, j * self.b + k);
            }
        } else {
            node.cols.swap(i, j);
        }
    }

    /// The first two rows of a complete grid, for which `ties` receives every arrangement
    /// that gives them; returns the second row (the first is always `1 2 … N`).
    ///
    /// Any first row reads `1 2 … N` under any column order, and numbers each digit by the
    /// position its column takes. So the second row (another row of the first row's band)
    /// is built position by position: a column is chosen for each position in turn, and the
    /// column that holds its digit in the first row is placed as early as it can go (its
    /// stack in the first free slot if it has none yet, then the first free place there),
    /// which gives the smallest value at that position; only columns that give the same
    /// smallest value are branched on.
    fn complete_top(&self, ties: &mut Vec<Node>) -> Row {
        let (b, n) = (self.b, self.n);
        let mut best = [u8::MAX; MAX_N];
        for grid in 0..2u8 {
            for (r, first) in self.grids[grid as usize][..n].iter().enumerate() {
                let band = r / b;
                // The column of each digit in the first row.
                let mut column_of = [0u8; MAX_N + 1];
                for (c, &digit) in first[..n].iter().enumerate() {
                    column_of[digit as usize] = c as u8;
                }
                for r1 in (band * b..band * b + b).filter(|&r1| r1 != r) {
                    let top = Top {
                        grid,
                        first: r as u8,
                        second: r1 as u8,
                        column_of,
                        cols: [u8::MAX; MAX_N],
                        position: [u8::MAX; MAX_N],
                        slot_of_stack: [u8::MAX; 3],
                        stack_in_slot: [u8::MAX; 3],
                        values: [0; MAX_N],
                    };
                    self.top_position(&top, 0, &mut best, ties);
                }
            }
        }
        best
    }

    /// Chooses the column at position `p` of the second row under `top`.
    fn top_position(&self, top: &Top, p: usize, best: &mut Row, ties: &mut Vec<Node>) {
        let (b, n) = (self.b, self.n);
        if p == n {
            match top.values[..n].cmp(&best[..n]) {
                Ordering::Greater => return,
                Ordering::Less => {
                    *best = top.values;
                    ties.clear();
                }
                Ordering::Equal => {}
            }
            ties.push(top.node(self));
            return;
        }
        // The columns that may go at p: the one already put there, or an unplaced column of
        // the slot's stack, or of any stack without a slot when the slot has none.
        let slot = p / b;
        let open = |c: u8| match (top.cols[p], top.stack_in_slot[slot]) {
            (col, _) if col != u8::MAX => c == col,
            (_, stack) if stack != u8::MAX => {
                c as usize / b == stack as usize && top.position[c as usize] == u8::MAX
            }
            _ => top.slot_of_stack[c as usize / b] == u8::MAX,
        };
        let mut children = [*top; MAX_N];
        let mut count = 0;
        let mut smallest = u8::MAX;
        for col in (0..n as u8).filter(|&c| open(c)) {
            let mut child = *top;
            child.place(b, col, p);
            let digit = self.grids[top.grid as usize][top.second as usize][col as usize];
            let home = top.column_of[digit as usize];
            if child.position[home as usize] == u8::MAX {
                let stack = home as usize / b;
                if child.slot_of_stack[stack] == u8::MAX {
                    let free = child.stack_in_slot.iter().position(|&s| s == u8::MAX);
                    let free = free.expect("a stack without a slot leaves a slot free");
                    child.slot_of_stack[stack] = free as u8;
                    child.stack_in_slot[free] = stack as u8;
                }
                let start = child.slot_of_stack[stack] as usize * b;
                let at = (start..start + b)
                    .find(|&q| child.cols[q] == u8::MAX)
                    .expect("the stack's slot has room for its column");
                child.place(b, home, at);
            }
            let value = child.position[home as usize] + 1;
            child.values[p] = value;
            // No use going on with a prefix larger than the best second row.
            if child.values[..=p] > best[..=p] {
                continue;
            }
            if value < smallest {
                smallest = value;
                count = 0;
            }
            if value == smallest {
                children[count] = child;
                count += 1;
            }
        }
        for child in &children[..count] {
            self.top_position(child, p + 1, best, ties);
        }
    }

    /// Source row `row` read through the column order of `node`, in which every column is in
    /// place, its new digits labelled in order; `None` as soon as it is larger than `best`.
    fn read(&self, row: &Row, node: &Node, best: &Row) -> Option<Row> {
        let mut out = [0u8; MAX_N];
        let mut next = node.next_label;
        let mut smaller = false;
        for p in 0..self.n {
            let value = match row[node.cols[p] as usize] {
                0 => 0,
                digit => match node.labels[digit as usize] {
                    0 => {
                        next += 1;
                        next - 1
                    }
                    label => label,
                },
            };
            if !smaller && value != best[p] {
                if value > best[p] {
                    return None;
                }
                smaller = true;
            }
            out[p] = value;
        }
        Some(out)
    }

    /// Places source row `row` under `node`: sorts every block of interchangeable columns
    /// and every group of interchangeable stacks to give the smallest row, updates the ties
    /// in `node` and records in `ties` the orders still to branch on. Returns the row, with
    /// its new digits labelled in order.
    fn refine(&self, row: &Row, node: &mut Node, ties: &mut Ties) -> Row {
        let b = self.b;
        let mut s = 0;
        while s < b {
            // The group of stack slots s..e, interchangeable so far.
            let mut e = s + 1;
            while e < b && node.tied_stacks >> e & 1 != 0 {
                e += 1;
            }
            if e - s > 1 {
                self.sort_stacks(row, node, ties, s..e);
            } else {
                self.sort_columns(row, node, ties, s);
            }
            s = e;
        }
        let mut out = [0u8; MAX_N];
        let mut next = node.next_label;
        for (p, value) in out.iter_mut().enumerate().take(self.n) {
            *value = match rank(row, &node.labels, node.cols[p]) {
                NEW => {
                    next += 1;
                    next - 1
                }
                r => r,
            };
        }
        out
    }

    /// [`Search::refine`] for the interchangeable stack slots `slots`: sorts each stack's
    /// columns, then the stacks by their sorted ranks in `row`.
    fn sort_stacks(&self, row: &Row, node: &mut Node, ties: &mut Ties, slots: Range<usize>) {
        let b = self.b;
        let (s, e) = (slots.start, slots.end);
        let mut keys = [[0u8; 3]; 3];
        let mut stacks = [[0u8; 3]; 3];
        for (k, slot) in slots.enumerate() {
            let mut cols = [0u8; 3];
            cols[..b].copy_from_slice(&node.cols[slot * b..slot * b + b]);
            cols[..b].sort_unstable_by_key(|&c| rank(row, &node.labels, c));
            stacks[k] = cols;
            for i in 0..b {
                keys[k][i] = rank(row, &node.labels, cols[i]);
            }
        }
        let mut order = [0usize, 1, 2];
        order[..e - s].sort_by_key(|&k| keys[k]);
        let mut k = 0;
        while k < e - s {
            let key = keys[order[k]];
            let mut same = k + 1;
            while same < e - s && keys[order[same]] == key {
                same += 1;
            }
            for (slot, &stack) in (s + k..s + same).zip(&order[k..same]) {
                node.cols[slot * b..slot * b + b].copy_from_slice(&stacks[stack][..b]);
                if key[b - 1] != 0 {
                    // Not empty in this row: the stack stands apart from the others.
                    node.tied_stacks &= !(1 << slot);
                    Self::tie_stack(node, slot * b, &key[..b], ties);
                }
            }
            if key[b - 1] != 0 {
                ties.push(Tie {
                    stacks: true,
                    start: (s + k) as u8,
                    len: (same - k) as u8,
                });
            }
            k = same;
        }
    }

    /// [`Search::refine`] for a stack in place, at slot `s`: sorts each block of its
    /// interchangeable columns by their ranks in `row`.
    fn sort_columns(&self, row: &Row, node: &mut Node, ties: &mut Ties, s: usize) {
        let b = self.b;
        let mut p = s * b;
        while p < s * b + b {
            let mut q = p + 1;
            while q < s * b + b && node.tied_cols >> q & 1 != 0 {
                q += 1;
            }
            if q - p > 1 {
                node.cols[p..q].sort_unstable_by_key(|&c| rank(row, &node.labels, c));
                let mut block = [0u8; MAX_N];
                for (i, &c) in node.cols[p..q].iter().enumerate() {
                    block[i] = rank(row, &node.labels, c);
                }
                Self::tie_block(node, p, &block[..q - p], ties);
            }
            p = q;
        }
    }

    /// The ties left in the stack at `start` whose sorted ranks are `ranks`, all its columns
    /// having been interchangeable before.
    fn tie_stack(node: &mut Node, start: usize, ranks: &[u8], ties: &mut Ties) {
        let all = ((1u16 << ranks.len()) - 1) << start;
        node.tied_cols |= all & !(1 << start);
        Self::tie_block(node, start, ranks, ties);
    }

    /// The ties left in the block of columns at `start` after sorting it by `ranks`: its
    /// empty columns stay interchangeable, each labelled one stands alone, and its new ones
    /// stand alone once an order is chosen for them.
    fn tie_block(node: &mut Node, start: usize, ranks: &[u8], ties: &mut Ties) {
        let mut new = 0;
        for (i, &rank) in ranks.iter().enumerate() {
            if rank != 0 {
                node.tied_cols &= !(1 << (start + i));
            }
            if rank == NEW {
                new += 1;
            }
        }
        ties.push(Tie {
            stacks: false,
            start: (start + ranks.len() - new) as u8,
            len: new as u8,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{Four, Nine};

    #[test]
    fn sizes_past_nine_are_refused() {
        assert!(supported(Size::Four).is_ok() && supported(Size::Nine).is_ok());
        let err = supported(Size::Sixteen).unwrap_err();
        assert!(
            err.contains("16×16") && err.contains("--dedup exact"),
            "{err}"
        );
        assert!(canonical(&Grid::<crate::shape::Sixteen>::empty()).is_none());
    }

    #[test]
    fn the_empty_grid_is_its_own_form() {
        assert_eq!(canonical(&Grid::<Nine>::empty()), Some(Grid::empty()));
        assert_eq!(canonical(&Grid::<Four>::empty()), Some(Grid::empty()));
    }
}
