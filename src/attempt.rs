//! One attempt: fill a grid and dig it to the hole target, retrying within the attempt.
//!
//! Everything an attempt does — the grid, every dig order, every retry — draws from the
//! stream of `(seed, index)` alone, so `generate`, `reproduce` and `verify --provenance`
//! get the same puzzle for the same attempt wherever and whenever it runs.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::config::{Generation, Holes};
use crate::digger::{Digger, Step};
use crate::generator;
use crate::grid::Grid;
use crate::rating::{Band, Fit, fit, rate_in};
use crate::rng::{AttemptRng, attempt_choice, attempt_rng};
use crate::shape::Shape;
use crate::solver::{Engine, Solver};
use crate::stats::{Clock, Work};
use crate::symmetry::{Orbits, Symmetry};

/// Dig orders tried on one grid before the attempt fills a new one.
pub const ORDERS_PER_GRID: u32 = 3;
/// Grids an attempt fills before it gives up.
pub const GRIDS_PER_ATTEMPT: u32 = 2;
/// Swaps a puzzle dug to its hole target but outside the difficulty band may take to reach
/// the band (see [`Digger::walk`]).
pub const SWAPS_TO_BAND: usize = 100;

/// A walk to the band rates every this many puzzles it reaches: neighbours one swap apart
/// mostly share a level, and a rating costs more than a swap. Against one, two took 4.1%
/// fewer instructions for `generate --holes 50 --difficulty medium --count 3000 --threads 1
/// --seed 5` and 7.9% fewer for `--holes 55 --difficulty hard --count 300`; three, less.
/// A walk to the hard band rates every puzzle once one was rated below the band (see
/// `Generator::keep`).
pub const RATE_EVERY: u32 = 2;

/// An attempt abandoned because the batch was stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stopped;

/// A puzzle with exactly one solution, and that solution.
#[derive(Debug, PartialEq, Eq)]
pub struct Puzzle<S: Shape> {
    /// The clues, with holes.
    pub puzzle: Grid<S>,
    /// Its only solution.
    pub solution: Grid<S>,
    /// The symmetry its clue pattern was dug to (`None` when none was asked for).
    pub symmetry: Symmetry,
    /// Its SE rating in tenths, as `rate` reports it, when a difficulty band was asked for.
    pub rating: Option<u32>,
}

impl<S: Shape> Clone for Puzzle<S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S: Shape> Copy for Puzzle<S> {}

/// Runs attempts for one hole target; keep one per worker thread and reuse it.
#[derive(Debug)]
pub struct Generator<S: Shape> {
    solver: Solver<S>,
    digger: Digger<S>,
    holes: Holes,
    /// The symmetric patterns attempts draw from, with their orbits; empty for none.
    patterns: Vec<(Symmetry, Arc<Orbits>)>,
    /// The band of ratings kept, if any.
    difficulty: Option<Band>,
}

impl<S: Shape> Generator<S> {
    /// A generator of puzzles dug to `holes` (exactly 0: complete grids), any pattern.
    /// [`Generation::new`] checks a target first: past [`Shape::MAX_HOLES`] every attempt
    /// gives `None`, and a minimal dig of a 25×25 grid may not end.
    pub fn new(holes: Holes) -> Self {
        Generator {
            solver: Solver::<S>::new(),
            digger: Digger::new(),
            holes,
            patterns: Vec::new(),
            difficulty: None,
        }
    }

    /// A generator of the puzzles `generation` describes (its size must be `S`).
    pub fn for_generation(generation: Generation) -> Self {
        let patterns = match generation.symmetry {
            Symmetry::None => Vec::new(),
            _ => generation
                .patterns()
                .into_iter()
                .map(|symmetry| (symmetry, Arc::new(Orbits::new(symmetry, S::N))))
                .collect(),
        };
        Generator {
            patterns,
            difficulty: generation.difficulty,
            ..Self::new(generation.holes)
        }
    }

    /// Runs attempt `index` of the batch with master seed `seed`, adding its work to `work`.
    /// `None` when every retry fell short of the hole target.
    pub fn attempt(&mut self, seed: u64, index: u64, work: &mut Work) -> Option<Puzzle<S>> {
        // Nothing sets this flag, so the attempt always finishes.
        self.attempt_until(
            seed,
            index,
            work,
            &mut Clock::start(),
            &AtomicBool::new(false),
        )
        .ok()
        .flatten()
    }

    /// [`Generator::attempt`], abandoned once `stop` is set: `Err(Stopped)` says the stop
    /// came before the attempt ended, so it has no result (neither a puzzle nor a miss), and
    /// the work it did is not added to `work`. Its fills and digs are timed by laps of
    /// `clock`, the first from the clock's last lap, but for the fill of an unrated
    /// complete grid: that stays on the clock for the caller's next lap, so that the caller
    /// times a run of them with one reading (as [`crate::pipeline`] does before formatting
    /// their lines).
    pub fn attempt_until(
        &mut self,
        seed: u64,
        index: u64,
        work: &mut Work,
        clock: &mut Clock,
        stop: &AtomicBool,
    ) -> Result<Option<Puzzle<S>>, Stopped> {
        let mut own = Work::default();
        let made = self.run(seed, index, &mut own, clock, stop);
        // A dig cut short by the stop may have sent the attempt on to another dig order or
        // grid, to a result the uninterrupted attempt would not give: whatever came of an
        // attempt that saw the stop is dropped, and a resumption runs it again.
        if stop.load(Ordering::Relaxed) {
            return Err(Stopped);
        }
        *work += own;
        Ok(made)
    }

    fn run(
        &mut self,
        seed: u64,
        index: u64,
        work: &mut Work,
        clock: &mut Clock,
        stop: &AtomicBool,
    ) -> Option<Puzzle<S>> {
        if !self.patterns.is_empty() {
            return self.run_symmetric(seed, index, work, clock, stop);
        }
        let mut rng = attempt_rng(seed, index);
        work.attempts += 1;
        for _ in 0..GRIDS_PER_ATTEMPT {
            let solution = Self::fill(&mut self.solver, &mut rng, work);
            if self.holes == Holes::Exact(0) {
                // A complete grid: nothing to dig, and one candidate per grid. Only a rated
                // one is timed here, its rating as digging: for unrated grids, a reading for
                // each rating cost 3% of grids/s and one for each fill 2%.
                if self.difficulty.is_some() {
                    work.fill_nanos += clock.lap();
                }
                let made = Self::accept(self.difficulty, solution, solution, Symmetry::None);
                if self.difficulty.is_some() {
                    work.dig_nanos += clock.lap();
                }
                match made {
                    Some(made) => return Some(made),
                    None => continue,
                }
            }
            work.fill_nanos += clock.lap();
            for _ in 0..ORDERS_PER_GRID {
                let dug = match self.holes {
                    Holes::Minimal => Some(self.digger.dig_minimal(
                        &mut self.solver,
                        &solution,
                        &mut rng,
                        &mut work.uniqueness_tests,
                    )),
                    Holes::Exact(holes) => self.digger.dig_until(
                        &mut self.solver,
                        &solution,
                        holes,
                        &mut rng,
                        &mut work.uniqueness_tests,
                        stop,
                    ),
                };
                let made = dug.and_then(|puzzle| {
                    self.keep(puzzle, solution, (Symmetry::None, None), &mut rng, work)
                });
                work.dig_nanos += clock.lap();
                match made {
                    Some(made) => {
                        work.digs_reached += 1;
                        return Some(made);
                    }
                    None => work.digs_missed += 1,
                }
            }
        }
        None
    }

    /// A complete grid from the attempt's stream, counted in `work` (the caller times it).
    fn fill(solver: &mut Solver<S>, rng: &mut AttemptRng, work: &mut Work) -> Grid<S> {
        let (solution, restarts) = generator::fill(solver, rng);
        work.grids += 1;
        work.fill_restarts += restarts;
        solution
    }

    /// The dug puzzle, rated, when it falls in the difficulty band asked for (any puzzle
    /// when none was). One outside the band walks by swaps ([`Digger::walk`], up to
    /// [`SWAPS_TO_BAND`]) to the first puzzle with as many holes that falls in it, rating
    /// every [`RATE_EVERY`]th: neighbours fall in the band less often than fresh digs do,
    /// but a swap costs one search where a dig costs some twenty. From a puzzle rated above
    /// a band past the placements, the walk goes back to the last one it rated below (or
    /// the dug one): telling such a puzzle apart takes a search of every technique up to
    /// the band's top, and its neighbours are often above the band too.
    ///
    /// Past a puzzle rated below a band that the placements tell apart from below (hard; see
    /// [`Band::placements_tell_below`]), the walk rates every puzzle it reaches, until it
    /// goes back: such a rating costs less than a swap, and the first of the puzzle's
    /// neighbours to climb into the band ends the walk a swap sooner. `generate --holes 55
    /// --difficulty hard --count 1000 --threads 1` took 3.7%, 5.5% and 2.8% fewer
    /// instructions at seeds 5, 6 and 7. Medium banks (`--holes 50 --count 3000`) took 2.6%
    /// to 3.1% more at the same seeds, as the walk meets easy puzzles whose neighbours stay
    /// easy, and diabolical ones 7.0% more and 2.2% fewer at seeds 5 and 6, as telling a
    /// puzzle below 5.0 apart takes its whole path: those walks rate every [`RATE_EVERY`]th.
    ///
    /// A puzzle dug by the orbits of a symmetry walks by swaps of those orbits
    /// ([`Digger::walk_orbits`]), keeping its pattern: the third argument is the symmetry
    /// and its orbits (`Symmetry::None` and no orbits for other puzzles).
    fn keep(
        &mut self,
        puzzle: Grid<S>,
        solution: Grid<S>,
        (symmetry, orbits): (Symmetry, Option<&Orbits>),
        rng: &mut AttemptRng,
        work: &mut Work,
    ) -> Option<Puzzle<S>> {
        let made = Self::accept(self.difficulty, puzzle, solution, symmetry);
        let Some(band) = self.difficulty else {
            return made;
        };
        // (A swap can leave a minimal puzzle a clue it does not need.)
        if made.is_some() || self.holes == Holes::Minimal {
            return made;
        }
        let eager = band.placements_tell_below();
        // Puzzles reached since the last rating, and how many make the next one due.
        let (mut reached, mut every) = (0, RATE_EVERY);
        let mut wanted = |puzzle: &Grid<S>| {
            reached += 1;
            if reached < every {
                return Step::Pass;
            }
            reached = 0;
            match fit(puzzle, band) {
                Fit::In(tenths) => Step::Take(Puzzle {
                    puzzle: *puzzle,
                    solution,
                    symmetry,
                    rating: Some(tenths),
                }),
                Fit::Above if !band.placements_only() => {
                    every = RATE_EVERY;
                    Step::Back
                }
                Fit::Below if eager => {
                    every = 1;
                    Step::Base
                }
                Fit::Below | Fit::Above | Fit::Unsolvable => Step::Base,
            }
        };
        let tests = &mut work.uniqueness_tests;
        match orbits {
            None => self.digger.walk(
                &mut self.solver,
                &solution,
                &puzzle,
                SWAPS_TO_BAND,
                rng,
                tests,
                &mut wanted,
            ),
            Some(orbits) => self.digger.walk_orbits(
                &mut self.solver,
                &solution,
                &puzzle,
                orbits,
                SWAPS_TO_BAND,
                rng,
                tests,
                &mut wanted,
            ),
        }
    }

    /// The puzzle, rated, when it falls in the difficulty band asked for (any puzzle when
    /// none was).
    fn accept(
        difficulty: Option<Band>,
        puzzle: Grid<S>,
        solution: Grid<S>,
        symmetry: Symmetry,
    ) -> Option<Puzzle<S>> {
        let rating = match difficulty {
            None => None,
            Some(band) => Some(rate_in(&puzzle, band)?),
        };
        Some(Puzzle {
            puzzle,
            solution,
            symmetry,
            rating,
        })
    }

    /// An attempt with a symmetric clue pattern: the pattern is chosen from `(seed, index)`
    /// apart from the stream, so the stream, and the puzzle, are the same whether the
    /// pattern was asked for or drawn (`reproduce` and `verify --provenance` rely on it).
    /// Digs remove whole orbits, top-down, then by swaps of orbits
    /// ([`Digger::dig_orbits_until`]); a puzzle outside the difficulty band walks by swaps
    /// of orbits ([`Generator::keep`]).
    fn run_symmetric(
        &mut self,
        seed: u64,
        index: u64,
        work: &mut Work,
        clock: &mut Clock,
        stop: &AtomicBool,
    ) -> Option<Puzzle<S>> {
        let choice = (attempt_choice(seed, index) % self.patterns.len() as u64) as usize;
        let (symmetry, orbits) = self.patterns[choice].clone();
        let mut rng = attempt_rng(seed, index);
        work.attempts += 1;
        let target = match self.holes {
            Holes::Exact(holes) => holes,
            Holes::Minimal => S::CELLS,
        };
        for _ in 0..GRIDS_PER_ATTEMPT {
            let solution = Self::fill(&mut self.solver, &mut rng, work);
            work.fill_nanos += clock.lap();
            for _ in 0..ORDERS_PER_GRID {
                let puzzle = self.digger.dig_orbits_until(
                    &mut self.solver,
                    &solution,
                    &orbits,
                    target,
                    &mut rng,
                    &mut work.uniqueness_tests,
                    stop,
                );
                let reached = self.holes == Holes::Minimal || puzzle.holes() == target;
                let made = reached
                    .then(|| {
                        let pattern = (symmetry, Some(&*orbits));
                        self.keep(puzzle, solution, pattern, &mut rng, work)
                    })
                    .flatten();
                work.dig_nanos += clock.lap();
                if let Some(made) = made {
                    work.digs_reached += 1;
                    return Some(made);
                }
                work.digs_missed += 1;
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{Four, Nine, Sixteen, Size, TwentyFive};

    #[test]
    fn attempts_are_reproducible() {
        let mut a = Generator::<Nine>::new(Holes::Exact(50));
        let mut b = Generator::<Nine>::new(Holes::Exact(50));
        let mut work = Work::default();
        // Run b on other indices first: an attempt must not depend on what ran before it.
        for index in 10..20 {
            b.attempt(3, index, &mut work);
        }
        for index in 0..10 {
            assert_eq!(
                a.attempt(3, index, &mut work),
                b.attempt(3, index, &mut work)
            );
        }
        assert_eq!(work.attempts, 30);
    }

    #[test]
    fn an_attempt_that_sees_the_stop_has_no_result() {
        // 62 holes needs the search by swaps, which a stop cuts short.
        let mut generator = Generator::<Nine>::new(Holes::Exact(62));
        for index in 0..3 {
            let mut work = Work::default();
            let mut clock = Clock::start();
            let stopped =
                generator.attempt_until(5, index, &mut work, &mut clock, &AtomicBool::new(true));
            assert_eq!(stopped, Err(Stopped));
            assert_eq!(work, Work::default(), "a stopped attempt adds no work");
            let mut work = Work::default();
            let made =
                generator.attempt_until(5, index, &mut work, &mut clock, &AtomicBool::new(false));
            assert_eq!(made, Ok(generator.attempt(5, index, &mut Work::default())));
            assert_eq!(work.attempts, 1);
        }
    }

    /// Symmetric attempts of every pattern and size: the target's holes, a pattern with the
    /// symmetry, exactly one solution (by the generic reference engine).
    fn symmetric<S: Shape>(holes: Holes, attempts: u64) {
        use crate::solver::Generic;
        for symmetry in Symmetry::PATTERNS {
            let Ok(generation) = Generation::new(Size::from_n(S::N).unwrap(), Some(holes))
                .unwrap()
                .with_symmetry(symmetry)
            else {
                continue;
            };
            let mut generator = Generator::<S>::for_generation(generation);
            let mut made = 0;
            for index in 0..attempts {
                let Some(puzzle) = generator.attempt(9, index, &mut Work::default()) else {
                    continue;
                };
                made += 1;
                assert_eq!(puzzle.symmetry, symmetry);
                if let Holes::Exact(holes) = holes {
                    assert_eq!(puzzle.puzzle.holes(), holes);
                }
                let clue = |cell| puzzle.puzzle.get(cell) != 0;
                assert!(symmetry.holds(S::N, clue), "{symmetry}: {}", puzzle.puzzle);
                assert!(puzzle.puzzle.agrees_with(&puzzle.solution));
                assert_eq!(Generic::<S>::new().count_solutions(&puzzle.puzzle, 2), 1);
            }
            assert!(made > 0, "{symmetry} made nothing on {}×{}", S::N, S::N);
        }
    }

    #[test]
    fn symmetric_puzzles_of_every_kind_and_size() {
        symmetric::<Four>(Holes::Exact(8), 20);
        symmetric::<Nine>(Holes::Exact(45), 10);
        symmetric::<Nine>(Holes::Minimal, 5);
        symmetric::<Sixteen>(Holes::Exact(120), 3);
        symmetric::<TwentyFive>(Holes::Exact(200), 1);
    }

    #[test]
    fn a_random_pattern_digs_as_the_pattern_it_draws() {
        let generation = Generation::new(Size::Nine, Some(Holes::Exact(45))).unwrap();
        let mut random =
            Generator::<Nine>::for_generation(generation.with_symmetry(Symmetry::Random).unwrap());
        let mut drawn = std::collections::HashSet::new();
        for index in 0..30 {
            let Some(made) = random.attempt(4, index, &mut Work::default()) else {
                continue;
            };
            drawn.insert(made.symmetry);
            let mut alone =
                Generator::<Nine>::for_generation(generation.with_symmetry(made.symmetry).unwrap());
            assert_eq!(alone.attempt(4, index, &mut Work::default()), Some(made));
        }
        // 45 holes is odd: rot90 (0 or 1 mod 4) and dihedral reach it, as do the rest.
        assert!(drawn.len() >= 5, "{drawn:?}");
    }

    #[test]
    fn zero_holes_gives_full_grids() {
        let mut work = Work::default();
        let p = Generator::<Nine>::new(Holes::Exact(0))
            .attempt(1, 1, &mut work)
            .unwrap();
        assert_eq!(p.puzzle, p.solution);
        assert!(p.solution.is_solution());
        assert_eq!(work.digs_reached + work.digs_missed, 0);
    }
}
