//! Grading against graded data: `../shared/data/se_rated_qqwing.txt` holds 1,200 qqwing
//! puzzles, 300 of each qqwing level, with the level qqwing gave them.

use std::time::Instant;

use rayon::prelude::*;

use sudoku_bank::rating::qqwing::{QqwingLevel, qqwing_level};
use sudoku_bank::rating::{Level, placement_rating, rate, rate_stepwise};
use sudoku_bank::{Grid, Nine};

use crate::util::shared_data;

const LEVELS: [QqwingLevel; 4] = [
    QqwingLevel::Simple,
    QqwingLevel::Easy,
    QqwingLevel::Intermediate,
    QqwingLevel::Expert,
];

/// The confusion matrix of our qqwing level (columns) against qqwing's (rows).
fn qqwing_confusion() -> ([[u32; 4]; 4], f64) {
    let path = shared_data("se_rated_qqwing.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (is ../shared beside the repository?)",
            path.display()
        )
    });
    let mut matrix = [[0u32; 4]; 4];
    let started = Instant::now();
    let mut puzzles = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let puzzle = Grid::<Nine>::parse(fields[0]).unwrap();
        let theirs = LEVELS
            .iter()
            .position(|l| l.name() == fields[fields.len() - 1])
            .unwrap_or_else(|| panic!("unknown level in {line:?}"));
        let ours = qqwing_level(&puzzle).expect("every puzzle is consistent");
        let ours = LEVELS.iter().position(|&l| l == ours).unwrap();
        matrix[theirs][ours] += 1;
        puzzles += 1;
    }
    let rate = puzzles as f64 / started.elapsed().as_secs_f64();
    (matrix, rate)
}

#[test]
fn qqwing_levels_agree_with_qqwing() {
    let (matrix, rate) = qqwing_confusion();
    let total: u32 = matrix.iter().flatten().sum();
    assert_eq!(total, 1200);
    eprintln!("qqwing level (rows: qqwing's; columns: ours), {rate:.0} puzzles/s");
    for (level, row) in LEVELS.iter().zip(&matrix) {
        eprintln!("{:>13} {row:?}", level.name());
    }
    let agree: u32 = (0..4).map(|k| matrix[k][k]).sum();
    eprintln!("agreement {agree}/1200");
    assert!(agree >= 1200, "agreement fell to {agree}/1200");
}

/// The Sudoku Exchange buckets, easiest first.
const BUCKETS: [Level; 4] = [Level::Easy, Level::Medium, Level::Hard, Level::Diabolical];

/// Our level (columns) against the SE bucket of the recorded ER (rows), over the graded
/// puzzles of `name`; `er` finds the ER field of a line. Also the Pearson correlation of our
/// rating with ER over the puzzles we finish, and puzzles rated per second.
fn se_confusion(name: &str, er: fn(&[&str]) -> f64) -> ([[u32; 4]; 4], f64, f64, u32) {
    let path = shared_data(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let mut matrix = [[0u32; 4]; 4];
    let mut pairs = Vec::new();
    let mut exact = 0;
    let started = Instant::now();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let theirs = er(&fields);
        let puzzle = fields.iter().find(|f| f.len() == 81).unwrap();
        let rating = rate(&Grid::<Nine>::parse(puzzle).unwrap()).expect("consistent");
        let row = BUCKETS
            .iter()
            .position(|&b| b == Level::of_tenths((theirs * 10.0).round() as u32))
            .unwrap();
        let column = BUCKETS.iter().position(|&b| b == rating.level()).unwrap();
        matrix[row][column] += 1;
        if rating.finished {
            pairs.push((f64::from(rating.tenths()) / 10.0, theirs));
            exact += u32::from(rating.tenths() == (theirs * 10.0).round() as u32);
        }
    }
    let rate = matrix.iter().flatten().sum::<u32>() as f64 / started.elapsed().as_secs_f64();
    (matrix, correlation(&pairs), rate, exact)
}

fn correlation(pairs: &[(f64, f64)]) -> f64 {
    let n = pairs.len() as f64;
    let (mx, my) = pairs
        .iter()
        .fold((0.0, 0.0), |(x, y), p| (x + p.0 / n, y + p.1 / n));
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for &(x, y) in pairs {
        sxy += (x - mx) * (y - my);
        sxx += (x - mx) * (x - mx);
        syy += (y - my) * (y - my);
    }
    sxy / (sxx * syy).sqrt()
}

fn print(title: &str, matrix: &[[u32; 4]; 4]) {
    eprintln!("{title} (rows: SE bucket of ER; columns: ours easy, medium, hard, diabolical)");
    for (bucket, row) in BUCKETS.iter().zip(matrix) {
        let total: u32 = row.iter().sum();
        eprintln!("{:>11} {row:?} of {total}", bucket.name());
    }
}

#[test]
fn se_levels_agree_with_sukaku_explainer() {
    let (matrix, r, rate, exact) = se_confusion("se_rated_qqwing.txt", |f| f[1].parse().unwrap());
    print("se_rated_qqwing.txt", &matrix);
    eprintln!(
        "correlation with ER over finished puzzles {r:.3}; same ER {exact} of 1200; {rate:.0} puzzles/s"
    );
    let (diabolical, _, _, diabolical_exact) =
        se_confusion("sudoku_exchange_diabolical.txt", |f| {
            f.iter()
                .find_map(|x| x.parse::<f64>().ok().filter(|_| x.contains('.')))
                .unwrap()
        });
    print("sudoku_exchange_diabolical.txt", &diabolical);
    eprintln!("same ER {diabolical_exact} of 480");
    let share =
        |m: &[[u32; 4]; 4], k: usize| f64::from(m[k][k]) / f64::from(m[k].iter().sum::<u32>());
    eprintln!(
        "same bucket: easy {:.3}, medium {:.3}, hard {:.3}, diabolical {:.3} and {:.3}",
        share(&matrix, 0),
        share(&matrix, 1),
        share(&matrix, 2),
        share(&matrix, 3),
        share(&diabolical, 3)
    );
    // What the rater reaches today: every puzzle in its bucket, the published ER itself for
    // 1,189 of the 1,200 and for 476 of the 480 Sudoku Exchange puzzles (all rated 5.4 or
    // more). Before the rater took SE's forcing chains and cycles: 1,093 and 157; before its
    // Nishio, cell, region and dynamic forcing chains, 1,168 and 435; before its unique
    // loops, 1,185 and 466, with 321 of the 322 hard puzzles in their bucket; before its
    // chains of three strong links through an empty rectangle, 1,186 and 468; before those
    // through a line's places in two box segments, 1,188 and 470.
    assert_eq!(matrix[0][0], 81, "easy");
    assert_eq!(matrix[1][1], 654, "medium");
    assert_eq!(matrix[2][2], 322, "hard: {:?}", matrix[2]);
    assert_eq!(matrix[3][3], 143, "diabolical");
    assert_eq!(diabolical[3][3], 480, "Sudoku Exchange diabolical");
    assert!(r >= 0.99, "correlation {r}");
    assert!(exact >= 1189, "same ER for {exact} of 1,200");
    assert!(
        diabolical_exact >= 476,
        "same ER for {diabolical_exact} of 480"
    );
}

/// Puzzles of the shared sets whose hardest step SE finds is a Nishio forcing chain, a cell
/// or region forcing chain or a dynamic forcing chain, with the ER it gives them: the rater
/// takes the same chains.
#[test]
fn chains_past_forcing_chains_rate_as_sukaku_explainer() {
    use sudoku_bank::rating::ChainKind::{
        CellForcingChains, DynamicForcingChains, NishioForcingChain, RegionForcingChains,
    };
    use sudoku_bank::rating::SeTechnique;
    // From se_rated_qqwing.txt, but the fourth and the last three.
    for (puzzle, er, kind) in [
        (
            "......3.6.....5...8.....1...8...9..75.36.291.1.....6.23.6...7.59..3.62...1.......",
            80,
            NishioForcingChain,
        ),
        (
            "3.....567..6...3..7.......4.....265..5.73...99826.........7.4..5...6..3...32.4...",
            78,
            NishioForcingChain,
        ),
        (
            "21....3........527..8.........1....636....85...5...71..8.61.9.2.9...267.....5....",
            78,
            NishioForcingChain,
        ),
        (
            ".9...6.8.6..5....3..2.7.5..9......4...5.2.8...4......7..3.6.7..8....1..4.6.9...5.",
            79,
            NishioForcingChain,
        ),
        (
            "..12......87.9..5....6...37..5...78.73...5.....8.2.....2.1..5..5...36..2.......6.",
            84,
            RegionForcingChains,
        ),
        (
            "9...8...6...3..4......12.....4...917..78......3......82.....6.1...9...3..4...1.9.",
            83,
            RegionForcingChains,
        ),
        (
            "...9...........37.8.......1..1...2...9...1.6..6.895.....2.3....1.5..7....36.2.5..",
            85,
            CellForcingChains,
        ),
        (
            "..7....51.3....8...5....79.3.9.475...............864.9..4....78...1......68..3...",
            84,
            CellForcingChains,
        ),
        (
            "7...4...6...759...9..8.1..3...524....3.....2.4.......75.1...2.8.8.....1.2.9...3.4",
            89,
            DynamicForcingChains,
        ),
        (
            "..64.15..3..5.9..1....3....2.5...7.3.3..4..2.67.....58.6.9.7.8.....5......23.49..",
            91,
            DynamicForcingChains,
        ),
        (
            "7.....6...18..3..7..2.8......94....6.4..9..2.1....87......4.9..8..5..13...4.....8",
            89,
            DynamicForcingChains,
        ),
    ] {
        let rating = rate(&Grid::<Nine>::parse(puzzle).unwrap()).unwrap();
        assert!(rating.finished, "{puzzle}");
        let chain = SeTechnique::Chain { tenths: er, kind };
        assert_eq!(rating.hardest, Some(chain), "{puzzle}");
    }
}

/// The puzzle of se_rated_qqwing.txt that Sukaku Explainer rates 4.6 for a unique loop of
/// six cells takes one: a loop of type 3 on its path, 4.6, named so in `rate`'s output.
#[test]
fn a_unique_loop_rates_as_sukaku_explainer() {
    use sudoku_bank::rating::SeTechnique;
    let puzzle =
        "...6.1937......54.............9..4.2..2417.6....3.....3.1.5....2.9.7...6.6719...3";
    let rating = rate(&Grid::<Nine>::parse(puzzle).unwrap()).unwrap();
    assert!(rating.finished);
    let hardest = rating.hardest.unwrap();
    assert_eq!(
        hardest,
        SeTechnique::UniqueLoop {
            tenths: 46,
            kind: 3
        }
    );
    assert_eq!(
        (rating.tenths(), hardest.name()),
        (46, "unique loop type 3")
    );
    assert_eq!(rating.level(), Level::Hard);
}

/// The three puzzles of se_rated_qqwing.txt that Sukaku Explainer rates 5.7 for a chain of
/// three strong links with a group of places take one: two through an empty rectangle, one
/// through a line's places in two box segments. Named so in `rate`'s output.
#[test]
fn grouped_three_links_rate_as_sukaku_explainer() {
    use sudoku_bank::rating::SeTechnique;
    for puzzle in [
        "..9....167.1...23.......9.7...8.24..84.......6.2..9..11.64....9...1....8...67..4.",
        "....35....5.....12....26......3..1.4.1..6...526....7..3..75......4.1..9........7.",
        "1...6...3923..5....56..7....15..2..77...9.1...9.......5.....8......26......7...26",
    ] {
        let rating = rate(&Grid::<Nine>::parse(puzzle).unwrap()).unwrap();
        assert!(rating.finished, "{puzzle}");
        let hardest = rating.hardest.unwrap();
        assert_eq!(hardest, SeTechnique::ThreeStrongLinksGrouped, "{puzzle}");
        assert_eq!(
            (rating.tenths(), hardest.name()),
            (57, "3 strong links (grouped)")
        );
        assert_eq!(rating.level(), Level::Diabolical);
    }
}

/// Puzzles of `S` dug to `holes`, from attempts of seed 1.
fn dug<S: sudoku_bank::Shape>(holes: usize, count: u64) -> Vec<Grid<S>> {
    let mut generator = sudoku_bank::Generator::<S>::new(sudoku_bank::Holes::Exact(holes));
    (0..count)
        .filter_map(|i| generator.attempt(1, i, &mut sudoku_bank::stats::Work::default()))
        .map(|made| made.puzzle)
        .collect()
}

/// The placement closure gives the rater's rating, steps included, exactly when that is at
/// most `cap` (and at most 2.5), and nothing otherwise; returns how many it rated.
fn check_placements<S: sudoku_bank::Shape>(puzzles: &[Grid<S>], cap: u32) -> usize {
    let mut rated = 0;
    for puzzle in puzzles {
        let expected = rate_stepwise(puzzle)
            .ok()
            .filter(|r| r.finished && r.tenths() <= cap.min(25));
        assert_eq!(
            placement_rating(puzzle, cap),
            expected,
            "{puzzle} up to {cap}"
        );
        rated += expected.is_some() as usize;
    }
    rated
}

#[test]
fn placement_ratings_are_the_raters() {
    let path = shared_data("se_rated_qqwing.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut puzzles: Vec<Grid<Nine>> = text
        .lines()
        .filter(|l| l.len() >= 81 && !l.starts_with('#'))
        .map(|l| Grid::parse(&l[..81]).unwrap())
        .collect();
    for holes in [0, 40, 45, 50, 55, 58] {
        puzzles.extend(dug::<Nine>(holes, 300));
    }
    // Every cap at a placement technique's rating, one between two, and one past them all.
    let mut counts = Vec::new();
    for cap in [10, 12, 15, 17, 19, 20, 22, 23, 25, 49] {
        counts.push(check_placements(&puzzles, cap));
    }
    eprintln!("rated up to each cap: {counts:?} of {}", puzzles.len());
    // Each cap rates more than the one before, and the last leaves many out.
    assert!(counts.windows(2).all(|w| w[0] <= w[1]), "{counts:?}");
    assert!(counts[0] > 0 && counts[8] > counts[6], "{counts:?}");
    assert!(
        puzzles.len() - counts[9] > 300,
        "{counts:?} of {}",
        puzzles.len()
    );
    let four = dug::<sudoku_bank::Four>(10, 200);
    let mut sixteen = dug::<sudoku_bank::Sixteen>(90, 10);
    sixteen.extend(dug::<sudoku_bank::Sixteen>(140, 10));
    for cap in [12, 15, 25] {
        assert!(check_placements(&four, cap) > 0, "4×4 up to {cap}");
        assert!(check_placements(&sixteen, cap) > 0, "16×16 up to {cap}");
    }
}

/// Puzzles of a data file in `../shared/data`, one per line: the first field (of `field`
/// separated by white space) of each line that is not a comment.
fn data_puzzles(name: &str, field: usize) -> Vec<Grid<Nine>> {
    let text = std::fs::read_to_string(shared_data(name)).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_whitespace().nth(field))
        .filter(|p| p.len() >= 81)
        .map(|p| Grid::parse(&p[..81]).unwrap())
        .collect()
}

/// The qqwing and Sudoku Exchange sets, and the first 200 of the forum's hardest: rated
/// from 1.2 to past 10, some of them unfinished.
fn rated_sets() -> Vec<Grid<Nine>> {
    let mut puzzles = data_puzzles("se_rated_qqwing.txt", 0);
    puzzles.extend(data_puzzles("sudoku_exchange_diabolical.txt", 1));
    puzzles.extend(
        data_puzzles("puzzles6_forum_hardest_1106", 0)
            .into_iter()
            .take(200),
    );
    puzzles
}

/// `rate` takes runs of placements in bulk; the path one step at a time gives the same
/// rating, hardest step and step count, finished or not.
#[test]
fn ratings_are_the_stepwise_paths() {
    fn check<S: sudoku_bank::Shape>(puzzles: &[Grid<S>]) -> [usize; 2] {
        let mut seen = [0; 2];
        for puzzle in puzzles {
            let rating = rate(puzzle).unwrap();
            assert_eq!(rating, rate_stepwise(puzzle).unwrap(), "{puzzle}");
            seen[rating.finished as usize] += 1;
        }
        seen
    }
    let mut puzzles = rated_sets();
    for holes in [50, 55, 58] {
        puzzles.extend(dug::<Nine>(holes, 200));
    }
    let [unfinished, finished] = check(&puzzles);
    eprintln!("9×9: {finished} finished, {unfinished} not");
    assert!(
        finished > 2000 && unfinished > 150,
        "{finished}, {unfinished}"
    );
    assert!(check(&dug::<sudoku_bank::Four>(10, 100))[1] > 0);
    let mut sixteen = dug::<sudoku_bank::Sixteen>(140, 10);
    sixteen.extend(dug::<sudoku_bank::Sixteen>(160, 10));
    let [unfinished, finished] = check(&sixteen);
    assert!(finished > 0, "16×16: {finished}, {unfinished}");
}

/// Bands take SE's path in bulk past the placements: all the eliminations the easiest
/// technique finds at once, up to XYZ-Wing. The rating is SE's on every set, finished or
/// not, with and without a cap, and a puzzle outside a band falls on the side its rating
/// says.
#[test]
fn bulk_ratings_are_the_raters() {
    use sudoku_bank::rating::{Band, Fit, fit, rate_in};
    /// How many were rated up to 2.5, from 2.6 to 4.4 (where bulk steps are taken), and
    /// above (or unfinished).
    fn check<S: sudoku_bank::Shape>(puzzles: &[Grid<S>]) -> [usize; 3] {
        let all = Band {
            min_tenths: 0,
            max_tenths: u32::MAX,
        };
        let capped = Band {
            min_tenths: 0,
            max_tenths: 44,
        };
        // Some of the puzzles take their rater milliseconds (the forum's hardest), so they
        // are checked on every core: on two, the test took 41.7 s, against 73.6 s on one.
        let kinds: Vec<usize> = puzzles
            .par_iter()
            .map(|puzzle| {
                let rating = rate(puzzle).unwrap();
                let tenths = rating.reported_tenths();
                assert_eq!(rate_in(puzzle, all), Some(tenths), "{puzzle}");
                let expected = capped.admits(&rating).then_some(tenths);
                assert_eq!(rate_in(puzzle, capped), expected, "{puzzle} up to 4.4");
                for (min_tenths, max_tenths) in [(15, 24), (25, 49), (30, 44)] {
                    let band = Band {
                        min_tenths,
                        max_tenths,
                    };
                    let side = match tenths {
                        t if t < min_tenths => Fit::Below,
                        t if t > max_tenths => Fit::Above,
                        t => Fit::In(t),
                    };
                    assert_eq!(fit(puzzle, band), side, "{puzzle} in {band}");
                }
                (tenths > 25) as usize + (tenths > 44) as usize
            })
            .collect();
        let mut seen = [0; 3];
        for kind in kinds {
            seen[kind] += 1;
        }
        seen
    }
    let mut puzzles = rated_sets();
    puzzles.extend(data_puzzles("puzzles3_magictour_top1465", 0));
    for holes in [50, 55, 58] {
        puzzles.extend(dug::<Nine>(holes, 300));
    }
    // SE's path takes a grouped turbot fish (4.3) after the first of this puzzle's
    // XY-Wings (4.2): taken all at once, the XY-Wings rated it 4.2.
    let turbot_after_wing =
        "..........2.7.3...784.5.2..8..6.......9....75.5...2...6.754...9....3..8..9.26.7..";
    puzzles.push(Grid::parse(turbot_after_wing).unwrap());
    let seen = check(&puzzles);
    eprintln!("9×9 up to 2.5, 2.6 to 4.4, above: {seen:?}");
    assert!(seen.iter().all(|&n| n > 300), "{seen:?}");
    assert!(check(&dug::<sudoku_bank::Four>(10, 100))[0] > 0);
    let mut sixteen = dug::<sudoku_bank::Sixteen>(140, 10);
    sixteen.extend(dug::<sudoku_bank::Sixteen>(160, 10));
    let seen = check(&sixteen);
    assert!(seen[0] + seen[1] > 0, "16×16: {seen:?}");
}

#[test]
fn banded_ratings_are_the_raters() {
    use sudoku_bank::rating::{Band, rate_in};
    let mut puzzles = dug::<Nine>(50, 400);
    puzzles.extend(dug::<Nine>(55, 300));
    // Puzzles the techniques do not finish, some after steps rated above 5.0.
    let path = shared_data("sudoku_exchange_diabolical.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    puzzles.extend(
        text.lines()
            .filter_map(|l| l.split_whitespace().nth(1))
            .map(|p| Grid::<Nine>::parse(p).unwrap()),
    );
    let bands = [
        Band::of_level(Level::Easy),
        Band::of_level(Level::Medium),
        Band::of_level(Level::Hard),
        Band::of_level(Level::Diabolical),
        Band {
            min_tenths: 12,
            max_tenths: 20,
        },
        Band {
            min_tenths: 26,
            max_tenths: 42,
        },
        // Bands that reach an unfinished puzzle's 5.0, or end inside the 5s.
        Band {
            min_tenths: 40,
            max_tenths: 50,
        },
        Band {
            min_tenths: 50,
            max_tenths: 54,
        },
    ];
    let mut kept = [0; 8];
    for puzzle in &puzzles {
        let rated = rate(puzzle).ok();
        for (band, kept) in bands.iter().zip(&mut kept) {
            let expected = rated
                .filter(|r| band.admits(r))
                .map(|r| r.reported_tenths());
            assert_eq!(rate_in(puzzle, *band), expected, "{puzzle} in {band}");
            *kept += expected.is_some() as usize;
        }
    }
    // Every band keeps some and turns some away.
    assert!(kept.iter().all(|&k| k > 0 && k < puzzles.len()), "{kept:?}");
}

/// Every 4×4 puzzle with holes and one solution rates 1.0 or 1.2
/// (`rating::FOUR_BY_FOUR_TENTHS`), so `generate` refuses 4×4 bands that hold neither. The
/// 288 complete 4×4 grids fall into two classes under relabelling, transposing and
/// permuting bands, stacks, rows in a band and columns in a stack (the canonical form's
/// moves, which map rows, columns and boxes to rows, columns and boxes, and so keep every
/// puzzle's rating): every clue pattern of one grid of each class covers them all.
#[test]
fn four_by_four_puzzles_rate_a_full_house_or_a_hidden_single_in_a_box() {
    use std::collections::{BTreeMap, BTreeSet};
    use sudoku_bank::rating::FOUR_BY_FOUR_TENTHS;
    use sudoku_bank::{Engine, Four, Solver};

    // Every complete grid, cell by cell.
    fn fill(grid: &mut Grid<Four>, cell: usize, grids: &mut Vec<Grid<Four>>) {
        if cell == 16 {
            grids.push(*grid);
            return;
        }
        let (row, col) = (cell / 4, cell % 4);
        for digit in 1..=4 {
            let clash = (0..cell).any(|other| {
                let (r, c) = (other / 4, other % 4);
                grid.get(other) == digit
                    && (r == row || c == col || (r / 2 == row / 2 && c / 2 == col / 2))
            });
            if !clash {
                grid.set(cell, digit);
                fill(grid, cell + 1, grids);
            }
        }
        grid.set(cell, 0);
    }
    let mut grids = Vec::new();
    fill(&mut Grid::empty(), 0, &mut grids);
    assert_eq!(grids.len(), 288);
    let classes: BTreeMap<String, Grid<Four>> = grids
        .iter()
        .map(|grid| {
            let canon = sudoku_bank::canon::canonical(grid).expect("4×4 has canonical forms");
            (canon.to_string(), *grid)
        })
        .collect();
    assert_eq!(classes.len(), 2, "{:?}", classes.keys());

    let mut solver = Solver::<Four>::new();
    let (mut unique, mut ratings) = (0, BTreeSet::new());
    for grid in classes.values() {
        // Bit k of `clues` keeps cell k; the complete grid (all 16) rates 0.0.
        for clues in 0u32..(1 << 16) - 1 {
            let mut puzzle = *grid;
            for cell in (0..16).filter(|cell| clues >> cell & 1 == 0) {
                puzzle.set(cell, 0);
            }
            if solver.count_solutions(&puzzle, 2) != 1 {
                continue;
            }
            unique += 1;
            let rating = rate(&puzzle).expect("one solution");
            assert!(rating.finished, "{puzzle}");
            ratings.insert(rating.reported_tenths());
        }
    }
    eprintln!("4×4: {unique} puzzles with one solution, rated {ratings:?} (tenths)");
    assert_eq!(ratings, BTreeSet::from(FOUR_BY_FOUR_TENTHS));
    assert!(unique > 10_000, "{unique}");
}
