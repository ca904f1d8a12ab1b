//! The search for the smallest text: every arrangement of the rows placed so far that ties
//! for the smallest, extended one row at a time (see the parent module).

use std::cmp::Ordering;
use std::ops::Range;

use super::{MAX_N, Row};

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

/// The grid in both orientations.
pub(super) struct Search {
    pub(super) b: usize,
    pub(super) n: usize,
    /// The puzzle in each orientation: as given, then transposed.
    pub(super) grids: [[Row; MAX_N]; 2],
}

/// One arrangement of the rows placed so far, and what is still open.
#[derive(Clone, Copy, Debug)]
pub(super) struct Node {
    /// The orientation: 0 as given, 1 transposed.
    pub(super) grid: u8,
    /// Output position → source column.
    pub(super) cols: [u8; MAX_N],
    /// Bit `p`: position `p` is still interchangeable with position `p − 1`.
    pub(super) tied_cols: u16,
    /// Bit `s`: stack slot `s` is still interchangeable with slot `s − 1` (both stacks empty
    /// in every row placed, their columns tied).
    pub(super) tied_stacks: u16,
    /// Source digit → label, 0 for none yet.
    pub(super) labels: [u8; MAX_N + 1],
    /// The next label to give.
    pub(super) next_label: u8,
    /// Source rows placed.
    pub(super) used_rows: u16,
    /// The source band of the output band being filled.
    pub(super) band: u8,
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
    pub(super) fn new(b: usize, rows: [Row; MAX_N]) -> Self {
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
    pub(super) fn root(&self, grid: u8) -> Node {
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
    pub(super) fn extend(&self, depth: usize, ties: &[Node], next: &mut Vec<Node>) -> Row {
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
