//! Canonical forms against brute force over the whole group, and under random transformations.

use proptest::prelude::*;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use sudoku_bank::canon::{canon_id, canonical};
use sudoku_bank::stats::Work;
use sudoku_bank::{Four, Generator, Grid, Holes, Nine, Shape};

use crate::util::{puzzles, shared_data};

/// Every permutation of `0..n`.
fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![vec![]];
    }
    let mut all = Vec::new();
    for rest in permutations(n - 1) {
        for at in 0..=rest.len() {
            let mut p = rest.clone();
            p.insert(at, n - 1);
            all.push(p);
        }
    }
    all
}

/// Every row order the group allows: bands permuted, then rows within each band.
fn line_orders(b: usize) -> Vec<Vec<usize>> {
    let inner = permutations(b);
    let mut orders = Vec::new();
    for bands in permutations(b) {
        // One choice of row order per band: b nested choices from `inner`.
        let mut choice = vec![0; b];
        loop {
            orders.push(
                (0..b * b)
                    .map(|i| bands[i / b] * b + inner[choice[i / b]][i % b])
                    .collect(),
            );
            let Some(k) = (0..b).find(|&k| choice[k] + 1 < inner.len()) else {
                break;
            };
            choice[k] += 1;
            choice[..k].iter_mut().for_each(|c| *c = 0);
        }
    }
    orders
}

/// `digits` arranged by `rows` and `cols` (transposed first when `transpose`), relabelled.
fn arrange(
    digits: &[u8],
    n: usize,
    transpose: bool,
    rows: &[usize],
    cols: &[usize],
    labels: &[u8],
) -> Vec<u8> {
    let mut out = Vec::with_capacity(n * n);
    for &r in rows {
        for &c in cols {
            let (r, c) = if transpose { (c, r) } else { (r, c) };
            out.push(labels[digits[r * n + c] as usize]);
        }
    }
    out
}

/// The smallest text over the whole group of a 4×4 grid: every geometric transformation
/// with every one of the 4! relabellings, 3,072 grids.
fn brute_force_four(grid: &Grid<Four>) -> Vec<u8> {
    let orders = line_orders(2);
    let mut best: Option<Vec<u8>> = None;
    for relabel in permutations(4) {
        let mut labels = vec![0u8];
        labels.extend(relabel.iter().map(|&l| l as u8 + 1));
        for transpose in [false, true] {
            for rows in &orders {
                for cols in &orders {
                    let text = arrange(grid.digits(), 4, transpose, rows, cols, &labels);
                    if best.as_ref().is_none_or(|b| text < *b) {
                        best = Some(text);
                    }
                }
            }
        }
    }
    best.unwrap()
}

/// The smallest text over the group of a 9×9 grid: all 2 × 6⁸ arrangements, each numbered
/// in order of first appearance (the smallest of its 9! relabellings).
fn brute_force_nine(grid: &Grid<Nine>) -> Vec<u8> {
    let orders = line_orders(3);
    let mut best = vec![u8::MAX; 81];
    for transpose in [false, true] {
        for rows in &orders {
            for cols in &orders {
                let mut labels = [0u8; 10];
                let mut next = 1;
                let mut smaller = false;
                let mut text = [0u8; 81];
                let mut complete = true;
                for (i, value) in text.iter_mut().enumerate() {
                    let (r, c) = (rows[i / 9], cols[i % 9]);
                    let (r, c) = if transpose { (c, r) } else { (r, c) };
                    let digit = grid.digits()[r * 9 + c] as usize;
                    if digit != 0 && labels[digit] == 0 {
                        labels[digit] = next;
                        next += 1;
                    }
                    *value = labels[digit];
                    if !smaller && *value != best[i] {
                        if *value > best[i] {
                            complete = false;
                            break;
                        }
                        smaller = true;
                    }
                }
                if complete && smaller {
                    best = text.to_vec();
                }
            }
        }
    }
    best
}

/// `grid` under a random element of the group.
fn random_transform<S: Shape>(grid: &Grid<S>, rng: &mut Xoshiro256PlusPlus) -> Grid<S> {
    let b = S::BOX;
    let line_order = |rng: &mut Xoshiro256PlusPlus| -> Vec<usize> {
        let mut bands: Vec<usize> = (0..b).collect();
        bands.shuffle(rng);
        let mut order = Vec::new();
        for band in bands {
            let mut inner: Vec<usize> = (0..b).collect();
            inner.shuffle(rng);
            order.extend(inner.iter().map(|i| band * b + i));
        }
        order
    };
    let rows = line_order(rng);
    let cols = line_order(rng);
    let mut labels: Vec<u8> = (1..=S::N as u8).collect();
    labels.shuffle(rng);
    labels.insert(0, 0);
    let digits = arrange(grid.digits(), S::N, rng.random(), &rows, &cols, &labels);
    Grid::from_digits(&digits).unwrap()
}

fn generated<S: Shape>(holes: usize, seed: u64, count: u64) -> Vec<Grid<S>> {
    let mut generator = Generator::<S>::new(Holes::Exact(holes));
    (0..count)
        .filter_map(|index| generator.attempt(seed, index, &mut Work::default()))
        .map(|made| made.puzzle)
        .collect()
}

#[test]
fn four_by_four_forms_are_the_brute_force_minimum() {
    let mut grids = vec![Grid::<Four>::empty()];
    for holes in [0, 4, 8, 10, 12] {
        grids.extend(generated::<Four>(holes, 7, 40));
    }
    // Grids the generator would not make: a lone clue, and clues with no unique solution.
    grids.push(Grid::parse("...1............").unwrap());
    grids.push(Grid::parse("1..2....3.......").unwrap());
    for grid in &grids {
        let canon = canonical(grid).unwrap();
        assert_eq!(canon.digits(), brute_force_four(grid), "{grid}");
    }
}

#[test]
fn nine_by_nine_forms_are_the_brute_force_minimum() {
    let seventeen = puzzles(&shared_data("puzzles2_17_clue"));
    let mut grids: Vec<Grid<Nine>> = seventeen[..6]
        .iter()
        .map(|p| Grid::parse(p).unwrap())
        .collect();
    grids.extend(generated::<Nine>(50, 3, 4));
    grids.extend(generated::<Nine>(60, 3, 40));
    // Complete grids: every row full, so every column order ties in the first row (they
    // take their own path through the first two rows).
    grids.extend(generated::<Nine>(0, 1, 4));
    for grid in &grids {
        let canon = canonical(grid).unwrap();
        assert_eq!(canon.digits(), brute_force_nine(grid), "{grid}");
    }
}

#[test]
fn forms_and_ids_are_pinned() {
    // canon_id joins banks made by different runs and versions: these values must never
    // change. The forms are the brute force's; the ids hash them as the id column does.
    let puzzle = Grid::<Nine>::parse(
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
    )
    .unwrap();
    let form = "........1.....2.34156...27......8.......51..232974......16..9....34..7..28.91.45.";
    assert_eq!(
        brute_force_nine(&puzzle),
        Grid::<Nine>::parse(form).unwrap().digits()
    );
    assert_eq!(canonical(&puzzle).unwrap().to_string(), form);
    assert_eq!(canon_id(&puzzle).as_deref(), Some("9652ce035e7374b8"));
    let small = Grid::<Four>::parse("1..2....3.......").unwrap();
    assert_eq!(
        brute_force_four(&small),
        Grid::<Four>::parse(".......1.....2.3").unwrap().digits()
    );
    assert_eq!(canon_id(&small).as_deref(), Some("4be6db1893b546e8"));
}

#[test]
fn equivalent_puzzles_collide_and_others_do_not() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let puzzles = generated::<Nine>(55, 9, 300);
    let mut forms = std::collections::HashSet::new();
    for puzzle in &puzzles {
        let canon = canonical(puzzle).unwrap();
        assert!(
            forms.insert(canon.to_string()),
            "{puzzle} met an equivalent"
        );
        let moved = random_transform(puzzle, &mut rng);
        assert_eq!(canonical(&moved), Some(canon));
        // The form is in the puzzle's class: it is its own form.
        assert_eq!(canonical(&canon), Some(canon));
        assert!(canon.to_string() <= puzzle.to_string());
    }
    // Complete grids too, and 4×4 ones.
    for grid in generated::<Nine>(0, 4, 100) {
        assert_eq!(
            canonical(&random_transform(&grid, &mut rng)),
            canonical(&grid)
        );
    }
    for grid in generated::<Four>(0, 4, 100) {
        assert_eq!(
            canonical(&random_transform(&grid, &mut rng)),
            canonical(&grid)
        );
    }
    // Puzzles one clue apart are never equivalent.
    let mut fewer = puzzles[0];
    let cell = (0..81).find(|&c| fewer.get(c) != 0).unwrap();
    fewer.set(cell, 0);
    assert_ne!(canonical(&fewer), canonical(&puzzles[0]));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn four_by_four_forms_are_invariant(seed: u64, index in 0u64..1000, holes in 0usize..=12, moves: u64) {
        let Some(made) = Generator::<Four>::new(Holes::Exact(holes)).attempt(seed, index, &mut Work::default()) else {
            return Ok(());
        };
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(moves);
        let moved = random_transform(&made.puzzle, &mut rng);
        prop_assert_eq!(canonical(&moved), canonical(&made.puzzle));
    }

    #[test]
    fn nine_by_nine_forms_are_invariant(seed: u64, index in 0u64..1000, holes in 0usize..=60, moves: u64) {
        let Some(made) = Generator::<Nine>::new(Holes::Exact(holes)).attempt(seed, index, &mut Work::default()) else {
            return Ok(());
        };
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(moves);
        let moved = random_transform(&made.puzzle, &mut rng);
        prop_assert_eq!(canonical(&moved), canonical(&made.puzzle));
    }
}

#[test]
fn seventeen_clue_forms_are_invariant() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(17);
    for text in puzzles(&shared_data("puzzles2_17_clue")).iter().step_by(97) {
        let puzzle = Grid::<Nine>::parse(text).unwrap();
        let canon = canonical(&puzzle).unwrap();
        for _ in 0..3 {
            assert_eq!(canonical(&random_transform(&puzzle, &mut rng)), Some(canon));
        }
    }
}
