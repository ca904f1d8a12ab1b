//! Canonical forms: for any consistent 4×4 or 9×9 grid the bytes describe (or a complete
//! grid they seed), and any element of the group they pick, the grid and its image have the
//! same canonical form, and that form is its own.

#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_bank::canon::Canonicalizer;
use sudoku_bank::grid::Grid;
use sudoku_bank::shape::{Four, Nine, Shape};
use sudoku_bank::stats::Work;
use sudoku_bank::{Generator, Holes};

/// A consistent grid from `bytes`: cell by cell, each byte's digit where it conflicts with
/// nothing placed so far, a hole otherwise.
fn grid<S: Shape>(bytes: &[u8]) -> Grid<S> {
    let mut grid = Grid::<S>::empty();
    for (cell, &byte) in bytes.iter().take(S::CELLS).enumerate() {
        let digit = byte % (S::N as u8 + 1);
        grid.set(cell, digit);
        if !grid.is_consistent() {
            grid.set(cell, 0);
        }
    }
    grid
}

/// A permutation of `0..n` drawn from `bytes`, keeping the group's structure when `b` > 1:
/// blocks of `b` are permuted, and the items within each block.
fn lines(bytes: &mut impl Iterator<Item = u8>, b: usize) -> Vec<usize> {
    let order = |n: usize, bytes: &mut dyn Iterator<Item = u8>| {
        let mut items: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            let j = bytes.next().unwrap_or(0) as usize % (i + 1);
            items.swap(i, j);
        }
        items
    };
    let bands = order(b, bytes);
    bands
        .iter()
        .flat_map(|&band| order(b, bytes).into_iter().map(move |i| band * b + i))
        .collect()
}

fn check<S: Shape>(canonicalizer: &mut Canonicalizer, cells: &[u8], moves: &[u8]) {
    // A first byte of 0 asks for a complete grid, seeded by the next eight.
    let grid = match cells.split_first() {
        Some((0, seed)) => {
            let seed = seed
                .iter()
                .take(8)
                .fold(0u64, |s, &b| s << 8 | u64::from(b));
            Generator::<S>::new(Holes::Exact(0))
                .attempt(seed, 0, &mut Work::default())
                .map_or_else(|| grid::<S>(cells), |made| made.solution)
        }
        _ => grid::<S>(cells),
    };
    let mut moves = moves.iter().copied();
    let rows = lines(&mut moves, S::BOX);
    let cols = lines(&mut moves, S::BOX);
    let mut labels: Vec<u8> = (0..=S::N as u8).collect();
    for i in (2..=S::N).rev() {
        let j = 1 + moves.next().unwrap_or(0) as usize % i;
        labels.swap(i, j);
    }
    let transpose = moves.next().unwrap_or(0) & 1 == 1;
    let mut moved = Grid::<S>::empty();
    for r in 0..S::N {
        for c in 0..S::N {
            let (sr, sc) = if transpose {
                (cols[c], rows[r])
            } else {
                (rows[r], cols[c])
            };
            moved.set(r * S::N + c, labels[grid.get(sr * S::N + sc) as usize]);
        }
    }
    let canon = canonicalizer.canonical(&grid).expect("a supported size");
    assert_eq!(
        canonicalizer.canonical(&moved),
        Some(canon),
        "{grid} and {moved}"
    );
    assert_eq!(canonicalizer.canonical(&canon), Some(canon));
    assert_eq!(canon.holes(), grid.holes());
    assert!(canon.to_string() <= grid.to_string());
}

fuzz_target!(|bytes: &[u8]| {
    let mut canonicalizer = Canonicalizer::new();
    let (cells, moves) = bytes.split_at(bytes.len().min(81));
    check::<Nine>(&mut canonicalizer, cells, moves);
    let (cells, moves) = bytes.split_at(bytes.len().min(16));
    check::<Four>(&mut canonicalizer, cells, moves);
});
