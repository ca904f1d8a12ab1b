//! The singles of a 9×9 grid on bit boards: a first look, before the rater's own path, at
//! whether full houses, hidden singles and naked singles alone fill a puzzle, and at which
//! of their SE levels.
//!
//! The placements' closure (see `closure.rs`) rates a puzzle by the least technique whose
//! placements, with those of every easier one, fill the grid. Four of those closures are
//! singles alone: full houses (1.0); with hidden singles in boxes (1.2); with hidden singles
//! in rows and columns too (1.5); and with naked singles (the direct techniques, 1.7 and 2.0,
//! come between: these fill only when the closure up to 2.3 does). So a puzzle that the first
//! of them fills rates 1.0, one the second fills and not the first 1.2, one the third fills
//! and not the second 1.5, and one the fourth fills and not the third between 1.7 and 2.3.
//! Most puzzles a band walks past fall on one side of it by these alone: a hard band's dug
//! puzzles are mostly filled by singles, and most of a medium band's by the first three. Here
//! each digit's candidates are two words, and the lone places of every unit of a kind come
//! from a few word operations at once, where the closure's grid of candidates looks unit by
//! unit and cell by cell.
//!
//! The singles are placed in rounds, each digit in turn taking every cell its rules give it
//! at once, and looking again until it finds none (a digit with nothing new since then is
//! passed over in later rounds); a clash (a unit given a digit twice) is looked for once,
//! when the rounds end. A fill without one proves that the puzzle has a
//! solution, and only one, so what it concludes holds for any puzzle. A clash or a stall
//! concludes nothing: the rater's own path decides those.

use super::{Band, Fit};
use crate::grid::{Digit, Grid};
use crate::shape::Shape;

/// Cells of a 9×9 grid, box by box, two bands to a word: bit `32·(b % 2) + 9j + 3i + k` of
/// word `b / 2` for the cell in row `i` and column `k` of box `j` of band `b`. Every rule
/// then works on whole words, and the top half of the second word stays empty.
type Board = [u64; 2];

/// `bits` repeated `count` times, `stride` bits apart.
const fn lanes(bits: u64, stride: u32, count: u32) -> u64 {
    let (mut all, mut i) = (0, 0);
    while i < count {
        all |= bits << (stride * i);
        i += 1;
    }
    all
}

/// `band`'s bits in both bands of a word.
const fn both_bands(band: u64) -> u64 {
    band | band << 32
}

/// The cells of a band.
const BAND: u64 = (1 << 27) - 1;
/// The first cell of each box.
const BOX_FIRSTS: u64 = both_bands(lanes(1, 9, 3));
/// The first eight cells of each box.
const BOX_LOW_EIGHT: u64 = both_bands(lanes(0xFF, 9, 3));
/// The last cell of each box.
const BOX_LASTS: u64 = both_bands(lanes(0x100, 9, 3));
/// The first box of each band.
const FIRST_BOXES: u64 = both_bands(0x1FF);
/// The first cell of each row of the first box of each band.
const ROW_FIRSTS: u64 = both_bands(lanes(1, 3, 3));
/// The first row of each box.
const FIRST_ROWS: u64 = both_bands(lanes(7, 9, 3));

/// Where `cell` (row-major) is on a board: its word and bit.
const fn place_of(cell: usize) -> (usize, usize) {
    let (row, col) = (cell / 9, cell % 9);
    let band = row / 3;
    (
        band / 2,
        32 * (band % 2) + 9 * (col / 3) + 3 * (row % 3) + col % 3,
    )
}

/// A band's cells row by row (bit `9i + 3j + k`) to box by box (bit `9j + 3i + k`), in
/// both bands of a word: the band's three-cell runs trade places across its diagonal.
#[inline(always)]
fn rows_to_boxes(x: u64) -> u64 {
    let swap = |x: u64, mask: u64, shift: u32| {
        let t = (x >> shift ^ x) & mask;
        x ^ t ^ t << shift
    };
    swap(swap(x, both_bands(0o700_070), 6), both_bands(0o700), 12)
}

/// The cell (row-major) at each word and bit of a board.
static CELLS: [[u8; 64]; 2] = {
    let mut cells = [[0; 64]; 2];
    let mut cell = 0;
    while cell < 81 {
        let (word, bit) = place_of(cell);
        cells[word][bit] = cell as u8;
        cell += 1;
    }
    cells
};

/// Each cell's row, column and box, the cell among them, by its word and bit.
static PEERS: [[Board; 64]; 2] = {
    let mut peers = [[[0; 2]; 64]; 2];
    let mut cell = 0;
    while cell < 81 {
        let (word, bit) = place_of(cell);
        let mut other = 0;
        while other < 81 {
            let (row, col) = (cell / 9, cell % 9);
            let (r, c) = (other / 9, other % 9);
            if r == row || c == col || (r / 3 == row / 3 && c / 3 == col / 3) {
                let (w, b) = place_of(other);
                peers[word][bit][w] |= 1 << b;
            }
            other += 1;
        }
        cell += 1;
    }
    peers
};

/// The boxes holding a cell of `x`, as the last cell of each.
#[inline(always)]
fn boxes_holding(x: u64) -> u64 {
    // The first eight cells of a box add to at most 510: nothing carries out of the box.
    (((x & BOX_LOW_EIGHT) + BOX_LOW_EIGHT) | x) & BOX_LASTS
}

/// The cells of `x` alone in their box.
#[inline(always)]
fn lone_in_boxes(x: u64) -> u64 {
    let some = boxes_holding(x);
    // An empty box is given its first cell, so that taking one from each box borrows
    // nothing from the next; what is left of a box with one cell is then empty.
    let full = x | (BOX_LASTS & !some) >> 8;
    let more = boxes_holding(full & full.wrapping_sub(BOX_FIRSTS));
    let one = (some & !more) >> 8;
    x & ((one << 9) - one)
}

/// Three runs of `x`, `step` bits apart, laid onto the first and kept to `keep`: the bits
/// that one of them holds, and those that two or more hold.
#[inline(always)]
fn fold_three(x: u64, step: u32, keep: u64) -> (u64, u64) {
    let (second, third) = (x >> step, x >> (2 * step));
    let once = (x | second | third) & keep;
    let twice = (x & second | x & third | second & third) & keep;
    (once, twice)
}

/// The cells of `x` alone in their row.
#[inline(always)]
fn lone_in_rows(x: u64) -> u64 {
    // Each band's boxes folded onto its first: the cells that one box holds, and two;
    // then each row's three cells onto its first.
    let (once, twice) = fold_three(x, 9, FIRST_BOXES);
    let (some, two) = fold_three(once, 1, ROW_FIRSTS);
    let one = some & !two & !fold_three(twice, 1, ROW_FIRSTS).0;
    let rows = (one << 3) - one;
    x & (rows | rows << 9 | rows << 18)
}

/// The cells of `x` alone in their column.
#[inline(always)]
fn lone_in_columns(x: Board) -> Board {
    // Each box's rows folded onto its first: the cells one row holds, and two; then the
    // bands onto each other.
    let fold = |x: u64| fold_three(x, 3, FIRST_ROWS);
    let [(once01, twice01), (once2, twice2)] = x.map(fold);
    let (o0, o1, o2) = (once01 & BAND, once01 >> 32, once2);
    let twice = twice01 | twice01 >> 32 | twice2 | o0 & o1 | o0 & o2 | o1 & o2;
    let one = (o0 | o1 | o2) & !twice & BAND;
    let columns = both_bands(one | one << 3 | one << 6);
    [x[0] & columns, x[1] & columns]
}

/// Each band's rows that hold a cell of `x`, as the first cell of the row in its band's
/// first box (bit `3i` of each band).
#[inline(always)]
fn rows_holding(x: u64) -> u64 {
    let boxes = (x | x >> 9 | x >> 18) & FIRST_BOXES;
    (boxes | boxes >> 1 | boxes >> 2) & ROW_FIRSTS
}

/// The columns of the grid that hold a cell of `x`, as the cells of the first band's first
/// row (bit `9j + k`).
#[inline(always)]
fn columns_holding(x: Board) -> u64 {
    let [top, bottom] = x.map(|x| (x | x >> 3 | x >> 6) & FIRST_ROWS);
    (top | top >> 32 | bottom) & BAND
}

/// The cells that share a unit with a cell of `x` (the cells of `x` among them).
#[inline(always)]
fn seen(x: Board) -> Board {
    // A column's cells from its first: copies three rows of a box apart.
    let columns = both_bands(columns_holding(x).wrapping_mul(lanes(1, 3, 3)));
    let mut seen = x.map(|x| {
        let boxes = boxes_holding(x) >> 8;
        // A row's cells in the first box from its first cell, then in all three boxes.
        let rows = (rows_holding(x) * 7).wrapping_mul(lanes(1, 9, 3));
        ((boxes << 9) - boxes) | rows | columns
    });
    seen[1] &= BAND;
    seen
}

/// How many rows, columns and boxes hold a cell of `x`.
#[inline(always)]
fn covered(x: Board) -> [u32; 3] {
    let rows = x.map(|x| rows_holding(x).count_ones());
    let boxes = x.map(|x| boxes_holding(x).count_ones());
    [
        rows[0] + rows[1],
        columns_holding(x).count_ones(),
        boxes[0] + boxes[1],
    ]
}

/// The levels of singles, each with the techniques of those before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Level {
    /// Full houses (1.0).
    FullHouse,
    /// Hidden singles in boxes (1.2).
    Boxes,
    /// Hidden singles in rows and columns (1.5).
    Lines,
    /// Naked singles (2.3).
    Naked,
}

impl Level {
    /// The ratings, in tenths, of a puzzle this level fills and the one before it does not.
    fn ratings(self) -> (u32, u32) {
        match self {
            Level::FullHouse => (10, 10),
            Level::Boxes => (12, 12),
            Level::Lines => (15, 15),
            Level::Naked => (17, 23),
        }
    }
}

/// A grid in the middle of a fill by singles.
struct Singles {
    /// Where each digit may still go; cells filled since may linger until the next look.
    cand: [Board; 9],
    /// Open cells.
    open: Board,
    /// The cells each digit fills, clues and placements.
    placed: [Board; 9],
    /// The puzzle's empty cells.
    empty: Board,
    /// Each digit's open candidates when a look of this level last found nothing for it
    /// (no cell, before the first such look): see [`Singles::round`].
    idle: [Board; 9],
}

/// The candidates [`Singles::idle`] holds before a digit's first look: cells off the board,
/// which no digit's open candidates equal.
const NEVER_IDLE: [Board; 9] = [[u64::MAX; 2]; 9];

/// The cells of both boards.
#[inline(always)]
fn and(a: Board, b: Board) -> Board {
    [a[0] & b[0], a[1] & b[1]]
}

/// Whether a board has no cell.
#[inline(always)]
fn is_empty(a: Board) -> bool {
    a[0] | a[1] == 0
}

impl Singles {
    /// The grid of a 9×9 puzzle; `None` when two clues clash.
    fn new(digits: &[Digit]) -> Option<Self> {
        // The empty cells first, eight at a time: the high bit of each byte that is 0,
        // gathered by one multiplication into a byte.
        let mut empty: u128 = 0;
        for (k, chunk) in digits.chunks(8).enumerate() {
            let mut bytes = [0xFFu8; 8];
            bytes[..chunk.len()].copy_from_slice(chunk);
            let word = u64::from_le_bytes(bytes);
            const LOW: u64 = 0x7F7F_7F7F_7F7F_7F7F;
            let zero = !(((word & LOW) + LOW) | word) & !LOW;
            let gathered = (zero >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56;
            empty |= u128::from(gathered) << (8 * k);
        }
        let band = |b: u32| (empty >> (27 * b)) as u64 & BAND;
        let open = [
            rows_to_boxes(band(0) | band(1) << 32),
            rows_to_boxes(band(2)),
        ];
        // Then each clue, without a branch per cell.
        let (mut seen, mut clues, mut clash) = ([[0; 2]; 9], [[0; 2]; 9], 0);
        for (word, grid) in [both_bands(BAND), BAND].into_iter().enumerate() {
            let mut rest = grid & !open[word];
            while rest != 0 {
                let bit = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let d = digits[CELLS[word][bit] as usize] as usize - 1;
                let peers = &PEERS[word][bit];
                clash |= clues[d][0] & peers[0] | clues[d][1] & peers[1];
                clues[d][word] |= 1 << bit;
                seen[d][0] |= peers[0];
                seen[d][1] |= peers[1];
            }
        }
        (clash == 0).then(|| Singles {
            cand: seen.map(|seen| [open[0] & !seen[0], open[1] & !seen[1]]),
            open,
            placed: clues,
            empty: open,
            idle: NEVER_IDLE,
        })
    }

    /// `puzzle`, the grid this one was made from, with the digits placed since.
    fn grid<S: Shape>(&self, puzzle: &Grid<S>) -> Grid<S> {
        let mut grid = *puzzle;
        for (d, placed) in self.placed.iter().enumerate() {
            for (word, mut cells) in placed.iter().copied().enumerate() {
                cells &= self.empty[word];
                while cells != 0 {
                    let bit = cells.trailing_zeros() as usize;
                    cells &= cells - 1;
                    grid.set(CELLS[word][bit] as usize, d as Digit + 1);
                }
            }
        }
        grid
    }

    /// One round of the singles of `level`, digit after digit: each digit takes every cell
    /// the level's rules give it on the grid as the digits before it left it (see
    /// [`Singles::take`]). Returns whether it placed any. A round does not look for clashes:
    /// two places for a digit in one unit show in [`Singles::consistent`] once the rounds
    /// end. (Over the 20,000 puzzles of `generate --holes 50 --seed 1`, a round that cleared
    /// each placed cell's peers in turn rated them for the medium band in 1.19× the time.)
    ///
    /// A digit whose open candidates are those it had when its last look of this level found
    /// nothing, and which has no cell of `sure` among them, is passed over: its rules would
    /// find nothing again. A quarter of the looks were such; passing them over took 2.4%
    /// fewer instructions for `generate --holes 50 --difficulty medium --count 3000
    /// --threads 1 --seed 5`. (Before a digit looked again in its turn, a round that passed
    /// over a digit whose places had not changed rated the puzzles above in 1.07× the time.)
    fn round(&mut self, level: Level) -> bool {
        let before = self.open;
        // The cells whose one digit a round places, whatever it is: full houses (those of
        // boxes are hidden singles in boxes from that level on) and naked singles.
        let mut sure: Board = [0; 2];
        if level <= Level::Boxes {
            sure = lone_in_columns(before);
            for (sure, open) in sure.iter_mut().zip(before) {
                *sure |= lone_in_rows(open);
                if level == Level::FullHouse {
                    *sure |= lone_in_boxes(open);
                }
            }
        }
        if level == Level::Naked {
            let (mut once, mut twice) = ([0; 2], [0; 2]);
            for cand in &self.cand {
                for word in 0..2 {
                    let cand = cand[word] & before[word];
                    twice[word] |= once[word] & cand;
                    once[word] |= cand;
                }
            }
            sure = [0, 1].map(|word| before[word] & once[word] & !twice[word]);
        }
        let mut open = before;
        for ((cand, placed), idle) in self
            .cand
            .iter_mut()
            .zip(&mut self.placed)
            .zip(&mut self.idle)
        {
            let x = and(*cand, open);
            if x == *idle && is_empty(and(x, sure)) {
                continue;
            }
            Self::take(level, sure, cand, placed, &mut open);
            *idle = *cand;
        }
        self.open = open;
        open != before
    }

    /// One digit's turn in a round: it takes every cell of `sure` it may go in and every
    /// cell the level's rules give it, at once, and its candidates lose those cells'
    /// units; then it looks again, as its own places may have left it lone places in other
    /// units, until it finds none. A look takes all it finds at once, with no branch per
    /// cell; only whether it found any decides whether the digit looks again.
    /// (Against one look a round, looking again took 10.9% fewer instructions for
    /// `generate --holes 50 --difficulty medium --count 3000 --threads 1 --seed 5`, in 0.55×
    /// the rounds, and rated the puzzles of `generate --holes 50 --seed 1` for the medium
    /// band in 0.936× the time.)
    #[inline(always)]
    fn take(level: Level, mut sure: Board, cand: &mut Board, placed: &mut Board, open: &mut Board) {
        loop {
            let x = and(*cand, *open);
            let mut cells = and(x, sure);
            if level >= Level::Boxes {
                let columns = if level >= Level::Lines {
                    lone_in_columns(x)
                } else {
                    [0; 2]
                };
                for word in 0..2 {
                    cells[word] |= lone_in_boxes(x[word]);
                    if level >= Level::Lines {
                        cells[word] |= lone_in_rows(x[word]) | columns[word];
                    }
                }
            }
            if is_empty(cells) {
                *cand = x;
                return;
            }
            let seen = seen(cells);
            for word in 0..2 {
                cand[word] = x[word] & !seen[word];
                placed[word] |= cells[word];
                open[word] &= !cells[word];
            }
            // Every cell of `sure` this digit may go in is taken now.
            sure = [0; 2];
        }
    }

    /// Whether no digit stands twice in a unit, clues and placements alike: each digit
    /// covers as many rows, columns and boxes as it has cells. (A round places a digit only
    /// in open cells, so no cell takes two.)
    fn consistent(&self) -> bool {
        self.placed.iter().all(|&placed| {
            let count = placed[0].count_ones() + placed[1].count_ones();
            covered(placed) == [count; 3]
        })
    }

    /// Fills the grid by the levels of singles the band needs told apart: `Some(Some(fit))`
    /// when one of them fills it, `Some(None)` when they stall, `None` on a clash.
    fn fill(&mut self, band: Band) -> Option<Option<Fit>> {
        let levels = [Level::FullHouse, Level::Boxes, Level::Lines, Level::Naked];
        // Levels that fill only puzzles below the band are not told apart: the grid starts
        // at the last of them. Naked singles tell a puzzle apart only from a band they
        // cannot reach.
        let first = levels
            .iter()
            .rposition(|level| level.ratings().1 < band.min_tenths)
            .unwrap_or(0);
        let naked = Level::Naked.ratings();
        let last = if naked.1 < band.min_tenths || naked.0 > band.max_tenths {
            Level::Naked
        } else {
            Level::Lines
        };
        for level in levels[first..].iter().copied() {
            if level > last {
                break;
            }
            self.idle = NEVER_IDLE;
            while !is_empty(self.open) && self.round(level) {}
            if is_empty(self.open) {
                if !self.consistent() {
                    return None;
                }
                let (low, high) = level.ratings();
                return Some(Some(if high < band.min_tenths {
                    Fit::Below
                } else if low > band.max_tenths {
                    Fit::Above
                } else {
                    debug_assert_eq!(low, high);
                    Fit::In(low)
                }));
            }
        }
        self.consistent().then_some(None)
    }
}

/// Where `puzzle` falls against `band`, when singles alone tell (see the module docs).
/// When they do not, the grid the rater's path is to place it from: the puzzle with what the
/// singles placed (the path's closure places those too, so it reaches the grid it would
/// reach from the puzzle), or the puzzle itself after a clash, on sizes other than 9×9 and
/// for a complete grid.
pub(super) fn fit<S: Shape>(puzzle: &Grid<S>, band: Band) -> Result<Fit, Grid<S>> {
    if S::N != 9 || puzzle.holes() == 0 {
        return Err(*puzzle);
    }
    let Some(mut grid) = Singles::new(puzzle.digits()) else {
        return Err(*puzzle);
    };
    match grid.fill(band) {
        Some(Some(fit)) => Ok(fit),
        Some(None) => Err(grid.grid(puzzle)),
        None => Err(*puzzle),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rating::Level as BandLevel;
    use crate::rating::band::fit_by_path;
    use crate::shape::{Four, Nine};
    use rand::Rng;

    /// The bands a test holds the singles to: the four levels, and bands whose ends fall on
    /// and between the singles' ratings.
    fn bands() -> Vec<Band> {
        let levels = [
            BandLevel::Easy,
            BandLevel::Medium,
            BandLevel::Hard,
            BandLevel::Diabolical,
        ];
        let mut bands = levels.map(Band::of_level).to_vec();
        for min_tenths in [0, 10, 11, 12, 13, 15, 16, 17, 20, 23, 24, 25] {
            for max_tenths in [10, 11, 12, 14, 15, 16, 17, 22, 23, 30] {
                if min_tenths <= max_tenths {
                    bands.push(Band {
                        min_tenths,
                        max_tenths,
                    });
                }
            }
        }
        bands
    }

    /// Holds the singles to the rater's path on `puzzles`, for every band of [`bands`];
    /// returns how many of the four levels' verdicts the singles gave, of how many. With
    /// `solvable` unset, only the rating a band keeps is compared: on a puzzle without a
    /// solution, the path from what the singles placed may find the contradiction where the
    /// path from the puzzle stops above the band, and a band keeps neither.
    fn agree(puzzles: &[Grid<Nine>], solvable: bool) -> (usize, usize) {
        let kept = |fit: Fit| match fit {
            Fit::In(tenths) => Some(tenths),
            Fit::Below | Fit::Above | Fit::Unsolvable => None,
        };
        let (mut decided, mut asked) = (0, 0);
        for (k, band) in bands().into_iter().enumerate() {
            for puzzle in puzzles {
                let by_path = fit_by_path(puzzle, band);
                let quick = fit(puzzle, band);
                // The path from what the singles placed places the puzzle alike.
                let by_singles = quick.unwrap_or_else(|placed| fit_by_path(&placed, band));
                if quick.is_ok() || solvable {
                    assert_eq!(by_singles, by_path, "{puzzle} in {band:?}");
                } else {
                    assert_eq!(kept(by_singles), kept(by_path), "{puzzle} in {band:?}");
                }
                if k < 4 {
                    decided += quick.is_ok() as usize;
                    asked += 1;
                }
            }
        }
        (decided, asked)
    }

    fn shared(name: &str, column: usize) -> Vec<Grid<Nine>> {
        let path = format!("{}/../shared/data/{name}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(path).expect("../shared/data beside the repository");
        text.lines()
            .map(|line| Grid::parse(line.split_whitespace().nth(column).unwrap()).unwrap())
            .collect()
    }

    /// Where singles tell a puzzle's place against a band, it is the place the rater's path
    /// gives it, on the graded puzzles of the shared data and on dug puzzles from 5 to 60
    /// holes; and they tell it for most dug puzzles.
    #[test]
    fn singles_place_puzzles_as_the_path_does() {
        agree(&shared("se_rated_qqwing.txt", 0), true);
        agree(&shared("sudoku_exchange_diabolical.txt", 1), true);
        let mut dug = Vec::new();
        for holes in (5..=60).step_by(5) {
            let mut generator = crate::Generator::<Nine>::new(crate::Holes::Exact(holes));
            for index in 0..40 {
                let work = &mut crate::stats::Work::default();
                dug.extend(generator.attempt(31, index, work).map(|made| made.puzzle));
            }
        }
        let (decided, asked) = agree(&dug, true);
        assert!(
            decided * 10 > asked * 7,
            "singles placed {decided} of {asked} dug puzzles"
        );
        // The same puzzles with one clue changed to a digit none of its peers holds: most
        // have no solution, and the singles clash on some.
        let mut rng = crate::rng::attempt_rng(43, 0);
        let altered: Vec<Grid<Nine>> = dug
            .iter()
            .filter_map(|puzzle| {
                let clues: Vec<usize> = (0..81).filter(|&c| puzzle.get(c) != 0).collect();
                let cell = clues[rng.random_range(0..clues.len())];
                let taken = Nine::peers(cell)
                    .iter()
                    .fold(1 << puzzle.get(cell), |taken, &p| {
                        taken | 1 << puzzle.get(p as usize)
                    });
                let digit = (1..=9).find(|&d| taken >> d & 1 == 0)?;
                let mut altered = *puzzle;
                altered.set(cell, digit);
                Some(altered)
            })
            .collect();
        agree(&altered, false);
        let band = Band::of_level(BandLevel::Hard);
        let clashes = altered
            .iter()
            .filter(|p| Singles::new(p.digits()).is_some_and(|mut s| s.fill(band).is_none()))
            .count();
        assert!(clashes > 0, "no clash among {} puzzles", altered.len());
    }

    /// The lone places of rows, columns and boxes on random boards, against a count of
    /// each unit's cells.
    #[test]
    fn lone_places_are_those_a_count_finds() {
        let mut rng = crate::rng::attempt_rng(41, 0);
        for _ in 0..2000 {
            // Sparse boards, so that units with one cell, none and several all come up.
            let mut cells = [false; 81];
            let mut board: Board = [0; 2];
            for (cell, set) in cells.iter_mut().enumerate() {
                *set = rng.random_range(0..4) == 0;
                let (word, bit) = place_of(cell);
                board[word] |= (*set as u64) << bit;
            }
            let units: [Box<dyn Fn(usize) -> usize>; 3] = [
                Box::new(|cell| cell / 9),
                Box::new(|cell| cell % 9),
                Box::new(|cell| cell / 27 * 3 + cell % 9 / 3),
            ];
            let found = [
                board.map(lone_in_rows),
                lone_in_columns(board),
                board.map(lone_in_boxes),
            ];
            // The cells that share a unit with a cell of the board, and how many units of
            // each kind hold one.
            let seen = seen(board);
            let mut held = [[false; 9]; 3];
            for (cell, &set) in cells.iter().enumerate() {
                let (word, bit) = place_of(cell);
                let shares = (0..81)
                    .any(|c| cells[c] && units.iter().any(|unit_of| unit_of(c) == unit_of(cell)));
                assert_eq!(seen[word] >> bit & 1 == 1, shares, "cell {cell}");
                for (kind, unit_of) in units.iter().enumerate() {
                    held[kind][unit_of(cell)] |= set;
                }
            }
            assert_eq!(seen[1] >> 27, 0);
            assert_eq!(
                covered(board),
                held.map(|h| h.iter().filter(|&&h| h).count() as u32)
            );
            for (unit_of, found) in units.iter().zip(found) {
                for cell in 0..81 {
                    let alone = cells[cell]
                        && (0..81)
                            .filter(|&c| cells[c] && unit_of(c) == unit_of(cell))
                            .count()
                            == 1;
                    let (word, bit) = place_of(cell);
                    assert_eq!(found[word] >> bit & 1 == 1, alone, "cell {cell}");
                }
            }
            // Nothing off the grid.
            assert_eq!(found[0][1] >> 27 | found[1][1] >> 27 | found[2][1] >> 27, 0);
        }
    }

    /// Clues that clash, complete grids and other sizes are left to the path.
    #[test]
    fn what_singles_leave_to_the_path() {
        let band = Band::of_level(BandLevel::Easy);
        let mut clash = String::from("11");
        clash.push_str(&".".repeat(79));
        let clash = Grid::<Nine>::parse(&clash).unwrap();
        assert_eq!(fit(&clash, band), Err(clash));
        let grid =
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
        let grid = Grid::<Nine>::parse(grid).unwrap();
        assert_eq!(fit(&grid, band), Err(grid));
        let four = Grid::<Four>::parse("1.3.34.121.343.2").unwrap();
        assert_eq!(fit(&four, band), Err(four));
    }
}
