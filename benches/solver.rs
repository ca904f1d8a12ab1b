//! Solver, canonical forms, fill and dig (top-down and by orbits), ratings; single thread,
//! per size.
//!
//! Count-to-2 runs over the public sets in `../shared/data` (easy 17-clue and hard SE 11+
//! puzzles kept apart); answers are checked once outside the timed loop.

use std::hint::black_box;
use std::path::Path;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use sudoku_bank::canon::Canonicalizer;
use sudoku_bank::digger::Digger;
use sudoku_bank::rating::{Band, Level, fit, placement_rating, rate};
use sudoku_bank::rng::attempt_rng;
use sudoku_bank::stats::Work;
use sudoku_bank::symmetry::{Orbits, Symmetry};
use sudoku_bank::{
    Engine, Generator, Grid, Holes, Nine, Shape, Sixteen, Solver, TwentyFive, generator,
};

fn load(name: &str, limit: usize) -> Vec<Grid<Nine>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (is ../shared beside the repository?)",
            path.display()
        )
    });
    // The puzzle is the line's field of 81 characters (the first, or the second after a
    // Sudoku Exchange id).
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_whitespace().find(|field| field.len() == 81))
        .take(limit)
        .map(|field| Grid::parse(field).expect("puzzle"))
        .collect()
}

fn count_to_two(c: &mut Criterion) {
    let mut group = c.benchmark_group("count_to_2");
    for (name, file, limit) in [
        ("17_clue", "puzzles2_17_clue", 5000),
        ("hardest_11+", "puzzles5_forum_hardest_1905_11+", 500),
    ] {
        let puzzles = load(file, limit);
        let mut solver = Solver::<Nine>::new();
        assert!(puzzles.iter().all(|p| solver.count_solutions(p, 2) == 1));
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        group.bench_function(name, |b| {
            b.iter(|| {
                for puzzle in &puzzles {
                    black_box(solver.count_solutions(black_box(puzzle), 2));
                }
            })
        });
    }
    group.finish();
}

/// Canonical forms (`--dedup canonical`): 17-clue puzzles, and the densest hard ones.
fn canonical_forms(c: &mut Criterion) {
    let mut group = c.benchmark_group("canonical");
    for (name, file) in [
        ("17_clue", "puzzles2_17_clue"),
        ("hardest_11+", "puzzles5_forum_hardest_1905_11+"),
    ] {
        let puzzles = load(file, 2000);
        let mut canonicalizer = Canonicalizer::new();
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        group.bench_function(name, |b| {
            b.iter(|| {
                for puzzle in &puzzles {
                    black_box(canonicalizer.canonical(black_box(puzzle)));
                }
            })
        });
    }
    group.finish();
}

fn fill_one<S: Shape>(c: &mut Criterion, label: &str) {
    let mut group = c.benchmark_group("fill");
    group.throughput(Throughput::Elements(1));
    let mut solver = Solver::<S>::new();
    let mut index = 0;
    group.bench_function(label, |b| {
        b.iter(|| {
            index += 1;
            black_box(generator::fill(&mut solver, &mut attempt_rng(1, index)))
        })
    });
    group.finish();
}

/// Digs a cycle of 64 filled grids to `holes`, one grid per iteration.
fn dig_one<S: Shape>(c: &mut Criterion, label: &str, holes: Holes) {
    let mut group = c.benchmark_group("dig");
    group.throughput(Throughput::Elements(1));
    let mut solver = Solver::<S>::new();
    let mut digger = Digger::<S>::new();
    let grids: Vec<_> = (0..64)
        .map(|i| generator::fill(&mut solver, &mut attempt_rng(2, i)).0)
        .collect();
    let mut index = 0;
    group.bench_function(BenchmarkId::new(label, holes), |b| {
        b.iter(|| {
            index += 1;
            let grid = &grids[index as usize % grids.len()];
            let (mut rng, mut tests) = (attempt_rng(3, index), 0);
            black_box(match holes {
                Holes::Exact(holes) => digger.dig(&mut solver, grid, holes, &mut rng, &mut tests),
                Holes::Minimal => Some(digger.dig_minimal(&mut solver, grid, &mut rng, &mut tests)),
            })
        })
    });
    group.finish();
}

/// Digs a cycle of 64 filled grids by the orbits of `symmetry` toward `holes`, one grid per
/// iteration, as `--symmetry` does: top-down, then by swaps of orbits where that stops
/// short; a dig that gives up counts too (`generate` then digs again, in another order or
/// from another grid).
fn dig_orbits_one<S: Shape>(c: &mut Criterion, label: &str, symmetry: Symmetry, holes: usize) {
    let mut group = c.benchmark_group("dig_orbits");
    group.throughput(Throughput::Elements(1));
    let mut solver = Solver::<S>::new();
    let mut digger = Digger::<S>::new();
    let orbits = Orbits::new(symmetry, S::N);
    let grids: Vec<_> = (0..64)
        .map(|i| generator::fill(&mut solver, &mut attempt_rng(2, i)).0)
        .collect();
    let mut index = 0;
    group.bench_function(
        BenchmarkId::new(format!("{label}_{symmetry}"), holes),
        |b| {
            b.iter(|| {
                index += 1;
                let grid = &grids[index as usize % grids.len()];
                let (mut rng, mut tests) = (attempt_rng(3, index), 0);
                black_box(digger.dig_orbits(
                    &mut solver,
                    grid,
                    &orbits,
                    holes,
                    &mut rng,
                    &mut tests,
                ))
            })
        },
    );
    group.finish();
}

fn fill_and_dig(c: &mut Criterion) {
    fill_one::<Nine>(c, "9x9");
    fill_one::<Sixteen>(c, "16x16");
    fill_one::<TwentyFive>(c, "25x25");
    dig_one::<Nine>(c, "9x9", Holes::Exact(55));
    dig_one::<Nine>(c, "9x9", Holes::Exact(60));
    dig_one::<Nine>(c, "9x9", Holes::Exact(62));
    dig_one::<Nine>(c, "9x9", Holes::Minimal);
    dig_one::<Sixteen>(c, "16x16", Holes::Exact(150));
    dig_one::<Sixteen>(c, "16x16", Holes::Minimal);
    dig_one::<TwentyFive>(c, "25x25", Holes::Exact(300));
    dig_one::<TwentyFive>(c, "25x25", Holes::Exact(350));
    dig_orbits_one::<Nine>(c, "9x9", Symmetry::Rot180, 50);
    dig_orbits_one::<Nine>(c, "9x9", Symmetry::Mirror, 50);
    dig_orbits_one::<Nine>(c, "9x9", Symmetry::Rot180, 56);
    dig_orbits_one::<Sixteen>(c, "16x16", Symmetry::Rot180, 140);
    dig_orbits_one::<Sixteen>(c, "16x16", Symmetry::Rot180, 150);
}

/// Ratings: the full rater over the SE-rated qqwing set and over the Sudoku Exchange
/// diabolical puzzles (most of which take SE's forcing chains); the placement closure a
/// medium band (`--difficulty medium`) asks of 50-hole puzzles as generated; and where such
/// puzzles fall against the medium band, and 55-hole ones against the hard band, as a
/// band's walks rate them (singles first, then the path).
fn ratings(c: &mut Criterion) {
    let mut group = c.benchmark_group("rate");
    for (name, file) in [
        ("se_rated_qqwing", "se_rated_qqwing.txt"),
        (
            "sudoku_exchange_diabolical",
            "sudoku_exchange_diabolical.txt",
        ),
    ] {
        let puzzles = load(file, usize::MAX);
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        group.bench_function(name, |b| {
            b.iter(|| {
                for puzzle in &puzzles {
                    black_box(rate(black_box(puzzle)).expect("one solution"));
                }
            })
        });
    }
    let mut generator = Generator::<Nine>::new(Holes::Exact(50));
    let dug: Vec<_> = (0..1000)
        .filter_map(|i| generator.attempt(1, i, &mut Work::default()))
        .map(|made| made.puzzle)
        .collect();
    group.throughput(Throughput::Elements(dug.len() as u64));
    group.bench_function("placement_up_to_2.4/50_holes", |b| {
        b.iter(|| {
            for puzzle in &dug {
                black_box(placement_rating(black_box(puzzle), 24));
            }
        })
    });
    for (level, holes) in [(Level::Medium, 50), (Level::Hard, 55)] {
        let mut generator = Generator::<Nine>::new(Holes::Exact(holes));
        let dug: Vec<_> = (0..1000)
            .filter_map(|i| generator.attempt(1, i, &mut Work::default()))
            .map(|made| made.puzzle)
            .collect();
        let band = Band::of_level(level);
        group.throughput(Throughput::Elements(dug.len() as u64));
        group.bench_function(
            BenchmarkId::new(format!("band_{level}"), format!("{holes}_holes")),
            |b| {
                b.iter(|| {
                    for puzzle in &dug {
                        black_box(fit(black_box(puzzle), band));
                    }
                })
            },
        );
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = count_to_two, canonical_forms, fill_and_dig, ratings
}
criterion_main!(benches);
