//! The band engine's tables and the sizes that have them: what the row-to-box permutations
//! of a band allow for each occupancy, which boxes each band row reaches, and each cell's
//! peers band by band. All are built at compile time from `BOX` alone.

use std::fmt::Debug;
use std::ops::{Index, IndexMut};

use crate::shape::{Nine, Shape, Sixteen};
use crate::solver::low_bits;

/// A size whose bands fit one `u64`: 9×9 and 16×16. Provides the table lookups of the band
/// update; everything else is computed from `BOX` and `N`.
pub trait Banded: Shape {
    /// One `u64` per (band, digit) pair, band-major: `N · band + digit`.
    type Bands: Copy + Debug + Send + Sync + Index<usize, Output = u64> + IndexMut<usize>;

    /// Every (band, digit) entry set to `value`.
    fn bands(value: u64) -> Self::Bands;

    /// The band's row-by-box occupancy: bit `BOX·r + j` when row `r` of the band still has a
    /// candidate cell in box `j`.
    fn occupancy(band: u64) -> usize;

    /// The cells of `band` (a digit's candidates) the digit can still take: those of the
    /// row-to-box permutations its occupancy fits. 0 when none fits.
    fn allowed_in(band: u64) -> u64;

    /// The other cells of the row and box of cell `at` of a band, and its column in the band.
    fn peers_in_band(at: usize) -> u64;

    /// The peers of `cell` (of the grid) in every band: its row, box and column in its own
    /// band, its column in the others.
    fn band_peers(cell: usize) -> &'static [u64; 4];

    /// Whether the size's searches are long enough to spend more on a branch to take fewer.
    /// Then counts and removal tests alike branch on the busiest of the cells with the
    /// fewest candidates (`State::busiest_of`) rather than, for counts, on one where the
    /// most cells are open and, for removal tests, on the first; and removal tests, like
    /// counts, place the other digit of a two-candidate branch cell in the alternative they
    /// save. On 16×16 minimal digs the busiest cell took 5.9% fewer instructions over eight
    /// seeds (from 17% fewer to 15% more, seed by seed: a few long removal tests weigh
    /// most), and counting the solutions of minimal puzzles 31% fewer (7% more for 150-hole
    /// ones, which barely branch); placing the other digit took 3.2% fewer again, fewer at
    /// every seed. On 9×9 the busiest cell took the forum-hardest puzzles from 100 branches
    /// each to 84 and 4.6% fewer instructions, yet 3% more time; the 17-clue puzzles 4%
    /// more instructions and 6% more time; 55-hole digs 10% more instructions.
    const LONG_SEARCHES: bool;

    /// Whether removal tests steered toward a known solution branch first on a cell, among
    /// those with the fewest candidates, that can no longer take the known solution's digit
    /// (`State::astray`), the busiest of them: the search then works where the second
    /// solution, if any, must differ. On 16×16 minimal digs it halves the branches of a
    /// removal that stands; on 9×9 the searches are short and the second solutions it finds
    /// make poorer unavoidable sets for the swaps: 60 holes came 25% slower.
    const STEER_TESTS: bool;

    /// The fewest of the next cells a dig tests that its base for
    /// [`Engine::prepare_tests`](crate::solver::Engine::prepare_tests) lacks. Removal tests
    /// begin from the base's propagated state, and cells that propagation places stand
    /// without a test ([`Engine::base_places`](crate::solver::Engine::base_places)).
    ///
    /// Begun from the base alone, a 16×16 dig to 150 holes took 20–23% fewer instructions
    /// and came 40% faster (eight cells; four and sixteen did less); on 9×9 the base cost
    /// more than it saved (55-hole digs 1.7% more instructions with eight cells). With the
    /// cells it places settled too, 9×9 digs to 55 holes ran 12.6 searches a puzzle
    /// against 21.1, and took 5.7% fewer instructions with five cells (4.9% with four,
    /// 5.4% with six, 3.3% with eight); 16×16 digs to 150 holes ran 26.5 against 60.4.
    /// The wider bases of [`Banded::WIDER_BELOW`] place fewer of their cells but cost less
    /// in all: 13.6 and 29.3 searches.
    const PREPARED_CELLS: usize;

    /// Below this many holes, a base lacks more cells: half the difference, where that is
    /// more than [`Banded::PREPARED_CELLS`]. The fewer the holes, the more of the base's
    /// cells its propagation places. With it, 9×9 digs to 55 holes took 3.2% fewer
    /// instructions again (56; 48 and 64 did less), and 16×16 digs to 150 holes 10–12% (150;
    /// 110 and 170 did less).
    const WIDER_BELOW: usize;

    /// The columns of a set of boxes of a band (bit `j` for box `j`), as an `N`-bit row.
    fn box_columns(boxes: usize) -> u64;

    /// [`Banded::allowed_in`] and [`Banded::lone_rows`] of what it allows, together.
    #[inline(always)]
    fn allowed_and_lone(band: u64) -> (u64, u64) {
        let cand = Self::allowed_in(band);
        (cand, Self::lone_rows(cand))
    }

    /// The rows of a band that hold exactly one cell, as cells. Every row of `band` holds a
    /// cell (as after [`Banded::allowed_in`], which leaves none empty or all empty). All rows at
    /// once, each an `N`-bit lane of one word.
    #[inline(always)]
    fn lone_rows(band: u64) -> u64 {
        let lanes = |bits: u64| (0..Self::BOX).fold(0, |all, r| all | bits << (Self::N * r));
        let (ones, low) = (lanes(1), lanes(low_bits(Self::N - 1)));
        // Each row less its first cell: no row borrows from the next, as none is empty.
        let rest = band & band.wrapping_sub(ones);
        // The top bit of each row whose rest holds a cell; the sums stay inside their rows.
        let more = (((rest & low) + low) | rest) & lanes(1 << (Self::N - 1));
        // Bit 0 of each row with one cell, spread over the row.
        let one = (more ^ lanes(1 << (Self::N - 1))) >> (Self::N - 1);
        band & one.wrapping_mul(low_bits(Self::N))
    }
}

/// For every `B`×`B` occupancy (bit `B·r + j`), the union of the row-to-box permutations
/// inside it: 0 when there is none.
const fn allowed_patterns<const B: usize, const LEN: usize>() -> [u16; LEN] {
    // The permutations of B rows onto B boxes, as patterns.
    let mut perms = [0u16; 24];
    let mut count = 0;
    let mut map = 0;
    let mut maps = 1;
    let mut k = 0;
    while k < B {
        maps *= B;
        k += 1;
    }
    while map < maps {
        let (mut rest, mut boxes, mut pattern, mut row) = (map, 0u32, 0u16, 0);
        while row < B {
            let j = rest % B;
            rest /= B;
            boxes |= 1 << j;
            pattern |= 1 << (B * row + j);
            row += 1;
        }
        if boxes == (1 << B) - 1 {
            perms[count] = pattern;
            count += 1;
        }
        map += 1;
    }
    let mut table = [0u16; LEN];
    let mut occupancy = 0;
    while occupancy < LEN {
        let mut p = 0;
        while p < count {
            if perms[p] as usize & !occupancy == 0 {
                table[occupancy] |= perms[p];
            }
            p += 1;
        }
        occupancy += 1;
    }
    table
}

/// For every `N`-bit band row (`N = B²`), which of its `B` boxes hold a cell.
const fn boxes_of_row<const B: usize, const LEN: usize>() -> [u8; LEN] {
    let mut table = [0u8; LEN];
    let mut row = 0;
    while row < LEN {
        let mut j = 0;
        while j < B {
            if row >> (B * j) & ((1 << B) - 1) != 0 {
                table[row] |= 1 << j;
            }
            j += 1;
        }
        row += 1;
    }
    table
}

/// For each cell of a band of box side `B`, the other cells of its row and box in the band,
/// and its column in the band.
const fn peers_in_band<const B: usize, const LEN: usize>() -> [u64; LEN] {
    let n = B * B;
    let mut table = [0u64; LEN];
    let mut cell = 0;
    while cell < LEN {
        let (row, col) = (cell / n, cell % n);
        let mut other = 0;
        while other < LEN {
            let (r, c) = (other / n, other % n);
            if other != cell && (r == row || c == col || c / B == col / B) {
                table[cell] |= 1 << other;
            }
            other += 1;
        }
        cell += 1;
    }
    table
}

/// A `B`×`B` row-by-box pattern expanded to the cells of a band.
const fn expand<const B: usize>(pattern: u16) -> u64 {
    let mut cells = 0u64;
    let mut at = 0;
    while at < B * B {
        if pattern >> at & 1 != 0 {
            let (row, j) = (at / B, at % B);
            cells |= ((1 << B) - 1) << (B * B * row + B * j);
        }
        at += 1;
    }
    cells
}

/// For each cell of a grid of box side `B`, its peers band by band (see
/// [`Banded::band_peers`]): its peers in its own band, its column in the others.
const fn band_peers<const B: usize, const WIDTH: usize, const CELLS: usize>() -> [[u64; 4]; CELLS] {
    let n = B * B;
    let in_band = peers_in_band::<B, WIDTH>();
    let mut table = [[0u64; 4]; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let (band, at) = (cell / WIDTH, cell % WIDTH);
        let mut other = 0;
        while other < B {
            table[cell][other] = if other == band {
                in_band[at]
            } else {
                // The cell's column, in every row of the other band.
                let mut column = 0;
                let mut r = 0;
                while r < B {
                    column |= 1 << (n * r + at % n);
                    r += 1;
                }
                column
            };
            other += 1;
        }
        cell += 1;
    }
    table
}

static PEERS_IN_BAND_3: [u64; 27] = peers_in_band::<3, 27>();
static PEERS_IN_BAND_4: [u64; 64] = peers_in_band::<4, 64>();
static BAND_PEERS_3: [[u64; 4]; 81] = band_peers::<3, 27, 81>();
static BAND_PEERS_4: [[u64; 4]; 256] = band_peers::<4, 64, 256>();
static BOXES_OF_ROW_3: [u8; 1 << 9] = boxes_of_row::<3, { 1 << 9 }>();
static BOXES_OF_ROW_4: [u8; 1 << 16] = boxes_of_row::<4, { 1 << 16 }>();
/// 9×9 keeps its allowed cells expanded: 512 entries, indexed by the occupancy with its
/// rows and boxes swapped (bit `3j + r` for row `r`, box `j`), which a few shifts gather
/// from a band (see `Nine::allowed_in`). Above them, from bit 32, each entry holds the
/// cells of the rows whose allowed cells lie in one box segment: such a row holds one cell
/// of the digit exactly when that segment of the band does (see `Nine::allowed_and_lone`).
static ALLOWED_CELLS_3: [u64; 1 << 9] = {
    let patterns = allowed_patterns::<3, { 1 << 9 }>();
    let mut table = [0u64; 1 << 9];
    let mut index = 0;
    while index < 1 << 9 {
        let mut occupancy = 0;
        let mut k = 0;
        while k < 9 {
            // Bit 3j + r of the index is bit 3r + j of the occupancy.
            occupancy |= (index >> k & 1) << (3 * (k % 3) + k / 3);
            k += 1;
        }
        let allowed = expand::<3>(patterns[occupancy]);
        let mut lone = 0;
        let mut r = 0;
        while r < 3 {
            let row = allowed >> (9 * r) & 0o777;
            let segments = (row & 0o7 != 0) as u32 + (row & 0o70 != 0) as u32;
            if segments + (row & 0o700 != 0) as u32 == 1 {
                lone |= row << (9 * r);
            }
            r += 1;
        }
        table[index] = allowed | lone << 32;
        index += 1;
    }
    table
};
/// 16×16 keeps its allowed cells expanded too: 65,536 entries, 512 KiB, one lookup where
/// a table of patterns took five (7.9% fewer instructions in a 16×16 dig). Building it at
/// compile time takes long enough to trip the lint.
#[allow(long_running_const_eval)]
static ALLOWED_CELLS_4: [u64; 1 << 16] = {
    let patterns = allowed_patterns::<4, { 1 << 16 }>();
    let rows = expand_row::<4, 16>();
    let mut table = [0u64; 1 << 16];
    let mut occupancy = 0;
    while occupancy < 1 << 16 {
        let p = patterns[occupancy] as usize;
        table[occupancy] = rows[p & 0xF]
            | rows[p >> 4 & 0xF] << 16
            | rows[p >> 8 & 0xF] << 32
            | rows[p >> 12 & 0xF] << 48;
        occupancy += 1;
    }
    table
};
/// A row's boxes (`B` bits) expanded to the row's cells.
const fn expand_row<const B: usize, const LEN: usize>() -> [u64; LEN] {
    let mut table = [0u64; LEN];
    let mut bits = 0;
    while bits < LEN {
        table[bits] = expand::<B>(bits as u16);
        bits += 1;
    }
    table
}
static EXPAND_ROW_3: [u64; 8] = expand_row::<3, 8>();
static EXPAND_ROW_4: [u64; 16] = expand_row::<4, 16>();

impl Nine {
    /// The index of a band's occupancy in [`ALLOWED_CELLS_3`], gathered by shifts, in place
    /// of three lookups of each row's boxes: 17-clue counts took 2.9% fewer instructions,
    /// 55-hole digs 1.9%. Its segments are moved into place by one multiply rather than two
    /// shifts and two ors: 3.3% fewer instructions again for 17-clue counts, 2.4% for
    /// 55-hole digs.
    #[inline(always)]
    fn allowed_index(band: u64) -> usize {
        // Bit 3k for each box segment k holding a cell (row r, box j: k = 3r + j).
        let any = (band | band >> 1 | band >> 2) & 0x124_9249;
        // Row r's segments moved to bits 3j + r: bit 9r + 3j shifted up by 16 − 8r, then
        // down by 16. The multiply's three copies of `any` put its nine bits at 27
        // distinct places, so no sum carries.
        (any.wrapping_mul(0x1_0101) >> 16 & 0x1FF) as usize
    }
}

impl Banded for Nine {
    type Bands = [u64; 27];
    const LONG_SEARCHES: bool = false;
    const STEER_TESTS: bool = false;
    const PREPARED_CELLS: usize = 5;
    const WIDER_BELOW: usize = 56;

    fn bands(value: u64) -> Self::Bands {
        [value; 27]
    }

    #[inline(always)]
    fn occupancy(band: u64) -> usize {
        let row = |r: usize| BOXES_OF_ROW_3[(band >> (9 * r) & 0x1FF) as usize] as usize;
        row(0) | row(1) << 3 | row(2) << 6
    }

    /// A band holds 27 bits, so the lone rows above them in the table's entry drop out.
    #[inline(always)]
    fn allowed_in(band: u64) -> u64 {
        band & ALLOWED_CELLS_3[Nine::allowed_index(band)]
    }

    /// Both from one lookup: a lone row is one whose allowed cells lie in one box segment
    /// (`ALLOWED_CELLS_3` has them) where the band holds a single cell, and the segments
    /// holding two or more come from the band itself, beside the lookup rather than after
    /// it. Against the lone rows of the allowed cells, after the lookup, 17-clue counts
    /// took 0.91× the time (2.4% more instructions), forum-hardest ones 0.93×, and 9×9
    /// digs came 1.07× as fast at 55 holes and 60, 1.08× minimal (docs/benchmark-log.md).
    #[inline(always)]
    fn allowed_and_lone(band: u64) -> (u64, u64) {
        let entry = ALLOWED_CELLS_3[Nine::allowed_index(band)];
        let (right, far) = (band >> 1, band >> 2);
        // Bit 3k for each box segment k holding two cells or more.
        let several = (band & right | band & far | right & far) & 0x124_9249;
        let lone = band & entry >> 32 & !several.wrapping_mul(7);
        (band & entry, lone)
    }

    #[inline(always)]
    fn peers_in_band(at: usize) -> u64 {
        PEERS_IN_BAND_3[at]
    }

    #[inline(always)]
    fn band_peers(cell: usize) -> &'static [u64; 4] {
        &BAND_PEERS_3[cell]
    }

    #[inline(always)]
    fn box_columns(boxes: usize) -> u64 {
        EXPAND_ROW_3[boxes]
    }
}

impl Banded for Sixteen {
    type Bands = [u64; 64];
    const LONG_SEARCHES: bool = true;
    const STEER_TESTS: bool = true;
    const PREPARED_CELLS: usize = 8;
    const WIDER_BELOW: usize = 150;

    fn bands(value: u64) -> Self::Bands {
        [value; 64]
    }

    #[inline(always)]
    fn occupancy(band: u64) -> usize {
        let row = |r: usize| BOXES_OF_ROW_4[(band >> (16 * r) & 0xFFFF) as usize] as usize;
        row(0) | row(1) << 4 | row(2) << 8 | row(3) << 12
    }

    #[inline(always)]
    fn allowed_in(band: u64) -> u64 {
        band & ALLOWED_CELLS_4[Self::occupancy(band)]
    }

    #[inline(always)]
    fn peers_in_band(at: usize) -> u64 {
        PEERS_IN_BAND_4[at]
    }

    #[inline(always)]
    fn band_peers(cell: usize) -> &'static [u64; 4] {
        &BAND_PEERS_4[cell]
    }

    #[inline(always)]
    fn box_columns(boxes: usize) -> u64 {
        EXPAND_ROW_4[boxes]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rows holding one cell, one row at a time: what `lone_rows` gives.
    fn lone_rows_one_by_one<S: Banded>(band: u64) -> u64 {
        (0..S::BOX).fold(0, |lone, r| {
            let row = band >> (S::N * r) & low_bits(S::N);
            lone | if row.count_ones() == 1 {
                row << (S::N * r)
            } else {
                0
            }
        })
    }

    #[test]
    fn lone_rows_take_rows_of_one_cell() {
        let mut rng = crate::rng::attempt_rng(3, 0);
        for _ in 0..20_000 {
            // Sparse bands, so that rows of one cell are common; every row keeps a cell.
            let band = (0..3).fold(u64::MAX, |b, _| b & rand::RngCore::next_u64(&mut rng));
            for (n, rows) in [(9, 3), (16, 4)] {
                let mut band = band & low_bits(n * rows);
                for r in 0..rows {
                    if band >> (n * r) & low_bits(n) == 0 {
                        band |= 1 << (n * r + r);
                    }
                }
                if n == 9 {
                    assert_eq!(Nine::lone_rows(band), lone_rows_one_by_one::<Nine>(band));
                } else {
                    assert_eq!(
                        Sixteen::lone_rows(band),
                        lone_rows_one_by_one::<Sixteen>(band),
                        "{band:#x}"
                    );
                }
            }
        }
    }

    /// What `allowed_in` gives, from the permutations of rows onto boxes one by one: the
    /// cells of `band` on every permutation whose every row has a cell of `band` in its box.
    fn allowed_by_permutations<S: Banded>(band: u64) -> u64 {
        let segment = |r: usize, j: usize| low_bits(S::BOX) << (S::N * r + S::BOX * j);
        let mut allowed = 0;
        // Every map of rows to boxes, keeping the permutations.
        for map in 0..S::BOX.pow(S::BOX as u32) {
            let boxes: Vec<usize> = (0..S::BOX)
                .map(|r| map / S::BOX.pow(r as u32) % S::BOX)
                .collect();
            let cells = (0..S::BOX).fold(0, |cells, r| cells | segment(r, boxes[r]));
            let mut sorted = boxes.clone();
            sorted.sort_unstable();
            sorted.dedup();
            if sorted.len() == S::BOX && (0..S::BOX).all(|r| band & segment(r, boxes[r]) != 0) {
                allowed |= cells;
            }
        }
        band & allowed
    }

    #[test]
    fn allowed_cells_are_those_of_fitting_permutations() {
        let mut rng = crate::rng::attempt_rng(4, 0);
        for k in 0..20_000 {
            // Bands from dense to sparse, so that every kind of occupancy comes up.
            let band = (0..k % 5).fold(rand::RngCore::next_u64(&mut rng), |b, _| {
                b & rand::RngCore::next_u64(&mut rng)
            });
            let nine = band & low_bits(27);
            assert_eq!(
                Nine::allowed_in(nine),
                allowed_by_permutations::<Nine>(nine),
                "{nine:#o}"
            );
            assert_eq!(
                Sixteen::allowed_in(band),
                allowed_by_permutations::<Sixteen>(band),
                "{band:#x}"
            );
        }
    }

    /// The 9×9 lookup of allowed and lone cells together, against the two steps it
    /// replaces, on every band of sparse rows (where lone rows come up) and random others.
    #[test]
    fn allowed_and_lone_cells_come_from_one_lookup() {
        let check = |band: u64| {
            let allowed = Nine::allowed_in(band);
            let lone = if allowed == 0 {
                0
            } else {
                Nine::lone_rows(allowed)
            };
            assert_eq!(Nine::allowed_and_lone(band), (allowed, lone), "{band:#o}");
        };
        // Every band whose rows each hold at most two cells, of the first four columns of
        // each box: the segments of one cell and of two, in every occupancy.
        let row_choices: Vec<u64> = (0..1u64 << 9)
            .filter(|row| row.count_ones() <= 2 && row & 0o444 == 0)
            .collect();
        for &a in &row_choices {
            for &b in &row_choices {
                for &c in &row_choices {
                    check(a | b << 9 | c << 18);
                }
            }
        }
        let mut rng = crate::rng::attempt_rng(5, 0);
        for k in 0..200_000 {
            let band = (0..k % 4).fold(rand::RngCore::next_u64(&mut rng), |b, _| {
                b & rand::RngCore::next_u64(&mut rng)
            });
            check(band & low_bits(27));
        }
    }

    #[test]
    fn tables() {
        // A full band allows every cell; one row empty allows nothing.
        assert_eq!(Nine::allowed_in(low_bits(27)), low_bits(27));
        assert_eq!(Nine::allowed_in(low_bits(18)), 0);
        // Row 0 only in box 0 forces boxes 1 and 2 onto rows 1 and 2.
        assert_eq!(
            Nine::allowed_in(0o7 | low_bits(18) << 9),
            0o7 | 0o770 << 9 | 0o770 << 18
        );
        assert_eq!(Nine::occupancy(0b100_000_001), 0b101);
        assert_eq!(Sixteen::allowed_in(u64::MAX), u64::MAX);
        assert_eq!(Sixteen::allowed_in(low_bits(48)), 0);
        // Rows 0 and 1 both only in box 0: no permutation fits.
        assert_eq!(Sixteen::allowed_in(0xF | 0xF << 16 | low_bits(32) << 32), 0);
        assert_eq!(Sixteen::occupancy(0x8001 << 16), 0b1001 << 4);
        assert_eq!(
            Nine::lone_rows(0b1000 | 0b11 << 9 | 0b1 << 26),
            0b1000 | 0b1 << 26
        );
        assert_eq!(
            Sixteen::lone_rows(0b11 | 0b1 << 20 | 0x8001 << 32 | 0x8000 << 48),
            0b1 << 20 | 0x8000 << 48
        );
        assert_eq!(Nine::peers_in_band(0).count_ones(), 8 + 2 + 4);
        assert_eq!(Sixteen::peers_in_band(63).count_ones(), 15 + 3 + 9);
        // Every cell's peers, band by band, are those the shape lists.
        fn band_peers_listed<S: Banded>() {
            let width = S::BOX * S::N;
            for cell in 0..S::CELLS {
                let mut listed = [0u64; 4];
                for &p in S::peers(cell) {
                    listed[p as usize / width] |= 1 << (p as usize % width);
                }
                assert_eq!(S::band_peers(cell), &listed, "cell {cell}");
            }
        }
        band_peers_listed::<Nine>();
        band_peers_listed::<Sixteen>();
    }
}
