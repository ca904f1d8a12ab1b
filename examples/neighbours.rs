//! Where a difficulty walk's swaps lead: for 9×9 puzzles dug to a hole count, the levels of
//! their neighbours (puzzles one kept swap away, as `generate --difficulty` walks them), by
//! the rating of the puzzle they swap from.
//!
//! ```text
//! cargo run --release --example neighbours -- [HOLES] [PUZZLES] [SEED]
//! ```
//!
//! Defaults: 55 holes, 3,000 dug puzzles, seed 5; 20 neighbours of each.

use std::collections::BTreeMap;

use sudoku_bank::digger::{Digger, Step};
use sudoku_bank::rating::{Band, Level, rate};
use sudoku_bank::rng::attempt_rng;
use sudoku_bank::{Engine, Grid, Nine, Solver, generator};

/// Neighbours looked at per dug puzzle.
const NEIGHBOURS: usize = 20;

/// What was seen from the dug puzzles of one rating (below hard) or level (from hard on).
#[derive(Default)]
struct Seen {
    puzzles: u64,
    /// Their neighbours by level, easiest first.
    neighbours: [u64; 4],
}

/// A puzzle's rating in tenths, as `rate` reports it (every puzzle here has one solution).
fn rating(puzzle: &Grid<Nine>) -> u32 {
    rate(puzzle).map_or(u32::MAX, |rating| rating.reported_tenths())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let parsed: Result<Vec<u64>, _> = args.iter().map(|a| a.parse::<u64>()).collect();
    let (holes, puzzles, seed) = match parsed.as_deref() {
        Ok(&[]) => (55, 3000, 5),
        Ok(&[holes]) => (holes, 3000, 5),
        Ok(&[holes, puzzles]) => (holes, puzzles, 5),
        Ok(&[holes, puzzles, seed]) => (holes, puzzles, seed),
        _ => {
            eprintln!("usage: neighbours [HOLES] [PUZZLES] [SEED] (whole numbers)");
            std::process::exit(2);
        }
    };
    let holes = holes as usize;
    if !(1..=64).contains(&holes) {
        eprintln!("neighbours: HOLES must be 1 to 64 for 9×9 puzzles");
        std::process::exit(2);
    }

    let mut digger = Digger::<Nine>::new();
    let mut solver = Solver::<Nine>::new();
    let mut tests = 0;
    // By the rating in tenths below hard, by the level's lowest rating from hard on.
    let mut seen: BTreeMap<u32, Seen> = BTreeMap::new();
    for index in 0..puzzles {
        let mut rng = attempt_rng(seed, index);
        let (solution, _) = generator::fill(&mut solver, &mut rng);
        let Some(puzzle) = digger.dig(&mut solver, &solution, holes, &mut rng, &mut tests) else {
            continue;
        };
        let tenths = rating(&puzzle);
        let level = Level::of_tenths(tenths);
        let key = if level >= Level::Hard {
            Band::of_level(level).min_tenths
        } else {
            tenths
        };
        let here = seen.entry(key).or_default();
        here.puzzles += 1;

        let mut count = 0;
        let mut wanted = |neighbour: &Grid<Nine>| {
            let level = Level::of_tenths(rating(neighbour));
            here.neighbours[level as usize] += 1;
            count += 1;
            if count == NEIGHBOURS {
                Step::Take(())
            } else {
                Step::Back
            }
        };
        let swaps = 10 * NEIGHBOURS;
        digger.walk(
            &mut solver,
            &solution,
            &puzzle,
            swaps,
            &mut rng,
            &mut tests,
            &mut wanted,
        );
    }

    println!("9x9 puzzles dug to {holes} holes from {puzzles} attempts of seed {seed}");
    println!("| dug puzzles rated | puzzles | neighbours | easy | medium | hard | diabolical |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for (key, here) in &seen {
        let label = match Level::of_tenths(*key) {
            level @ (Level::Hard | Level::Diabolical) => level.name().to_string(),
            _ => format!("{}.{}", key / 10, key % 10),
        };
        let total: u64 = here.neighbours.iter().sum();
        let share = |n: u64, of: u64| match of {
            0 => "–".to_string(),
            _ => format!("{:.1}%", 100.0 * n as f64 / of as f64),
        };
        println!(
            "| {label} | {} | {total} | {} | {} | {} | {} |",
            here.puzzles,
            share(here.neighbours[0], total),
            share(here.neighbours[1], total),
            share(here.neighbours[2], total),
            share(here.neighbours[3], total),
        );
    }
}
