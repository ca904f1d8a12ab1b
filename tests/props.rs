//! Properties of generated puzzles, and the solver against the public data sets.

use proptest::prelude::*;
use sudoku_bank::stats::Work;
use sudoku_bank::{Four, Generator, Grid, Nine, Shape, Sixteen, Solver, TwentyFive};

use crate::util::{puzzles, shared_data};

/// Attempt `index` of `seed`, if it yields: exactly `holes` holes, exactly one solution, and
/// that solution is the one reported.
fn check_attempt<S: Shape>(holes: usize, seed: u64, index: u64) {
    let mut generator = Generator::<S>::new(holes);
    let Some(made) = generator.attempt(seed, index, &mut Work::default()) else {
        return;
    };
    assert_eq!(made.puzzle.holes(), holes);
    assert!(made.solution.is_solution());
    assert!(made.puzzle.agrees_with(&made.solution));
    let mut solver = Solver::<S>::new();
    assert_eq!(
        solver.count_solutions(&made.puzzle, 2),
        1,
        "{}",
        made.puzzle
    );
    assert_eq!(solver.solution(), &made.solution);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn four_by_four_puzzles_are_unique(seed: u64, index: u64, holes in 0usize..=11) {
        check_attempt::<Four>(holes, seed, index);
    }

    #[test]
    fn nine_by_nine_puzzles_are_unique(seed: u64, index: u64, holes in 0usize..=58) {
        check_attempt::<Nine>(holes, seed, index);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]

    #[test]
    fn sixteen_by_sixteen_puzzles_are_unique(seed: u64, index: u64, holes in 100usize..=150) {
        check_attempt::<Sixteen>(holes, seed, index);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2))]

    #[test]
    fn twenty_five_by_twenty_five_puzzles_are_unique(seed: u64, index: u64, holes in 250usize..=300) {
        check_attempt::<TwentyFive>(holes, seed, index);
    }
}

/// Every puzzle of a set with exactly one solution: the solver finds one, consistent with
/// the clues.
fn solves_uniquely(name: &str) {
    let mut solver = Solver::<Nine>::new();
    let set = puzzles(&shared_data(name));
    assert!(!set.is_empty());
    for text in &set {
        let puzzle = Grid::<Nine>::parse(text).unwrap();
        assert_eq!(solver.count_solutions(&puzzle, 2), 1, "{text}");
        let solution = solver.solution();
        assert!(
            solution.is_solution() && puzzle.agrees_with(solution),
            "{text}"
        );
    }
}

#[test]
fn all_17_clue_puzzles_have_one_solution() {
    solves_uniquely("puzzles2_17_clue");
}

#[test]
fn magictour_top1465_puzzles_have_one_solution() {
    solves_uniquely("puzzles3_magictour_top1465");
}
