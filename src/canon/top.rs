//! The first two rows of a complete grid, placed together: its first row ties every column
//! order, so the second row is built column by column.

use std::cmp::Ordering;

use super::search::{Node, Search};
use super::{MAX_N, Row};

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

impl Search {
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
    pub(super) fn complete_top(&self, ties: &mut Vec<Node>) -> Row {
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
}
