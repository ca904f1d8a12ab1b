//! Grid geometry, chosen once per run and monomorphised.
//!
//! A Sudoku of box side `b` has `N = b²` digits, `N²` cells and `3N` units (rows, columns,
//! boxes). Every table the hot loops read — the peers of a cell, the cells of a unit — is
//! computed at compile time for each supported size, so the solver indexes fixed arrays and
//! never asks the allocator for anything.

use std::fmt::Debug;
use std::ops::{Index, IndexMut};

use crate::solver::{Bands, Engine, Generic, Locked};

/// The geometry of one grid size. Implemented by [`Four`], [`Nine`], [`Sixteen`] and
/// [`TwentyFive`]; code generic over `S: Shape` is compiled once per size.
pub trait Shape: Copy + Debug + Default + Send + Sync + 'static {
    /// Box side `b`.
    const BOX: usize;
    /// Digits per unit, `N = b²`; also the grid's side.
    const N: usize = Self::BOX * Self::BOX;
    /// Cells in the grid, `N²`.
    const CELLS: usize = Self::N * Self::N;
    /// Units (rows, then columns, then boxes), `3N`.
    const UNITS: usize = 3 * Self::N;
    /// Peers of one cell: the other cells of its row, column and box.
    const PEERS: usize = 3 * Self::N - 2 * Self::BOX - 1;
    /// The candidate mask with every digit set (bit `d - 1` stands for digit `d`).
    const ALL: u32 = if Self::N == 32 {
        u32::MAX
    } else {
        (1u32 << Self::N) - 1
    };
    /// The most holes a puzzle with exactly one solution can have: `N² − (N − 1)` in general
    /// (a unique puzzle shows at least `N − 1` distinct digits), and the proven minimum clue
    /// counts where they are known (4 for 4×4, 17 for 9×9).
    const MAX_HOLES: usize;

    /// Branches a removal test may take while digging to an exact hole target; a clue whose
    /// test runs out of them stays, and the dig goes on with the other clues (top-down,
    /// then by swaps). Unbounded on 4×4 and 9×9, where tests are cheap. None at all on 16×16
    /// and 25×25: a removal stands there only when propagation alone rules out every other
    /// digit in the emptied cell. Deep tests on those sizes take thousands to millions of
    /// branches, while the search by swaps finds clues that go for none (see
    /// `docs/benchmark-log.md`, "Removal tests without branches"). Every puzzle still has
    /// exactly one solution. Digs to `--holes minimal` never give up a test: their puzzles
    /// are truly minimal.
    const REMOVAL_BUDGET: u64;

    /// The search engine for grids of this size: [`Generic`] for 4×4, [`Bands`] for 9×9 and
    /// 16×16, [`Locked`] for 25×25.
    type Solver: Engine<Self>;

    /// A fixed-size array holding one `T` per cell.
    type Cells<T: Copy + Debug + Send + Sync>: Copy
        + Debug
        + Send
        + Sync
        + AsRef<[T]>
        + AsMut<[T]>
        + Index<usize, Output = T>
        + IndexMut<usize>;

    /// A fixed-size array holding one `T` per unit.
    type Units<T: Copy + Debug + Send + Sync>: Copy
        + Debug
        + Send
        + Sync
        + AsRef<[T]>
        + AsMut<[T]>
        + Index<usize, Output = T>
        + IndexMut<usize>;

    /// An array of `CELLS` copies of `value`.
    fn cells<T: Copy + Debug + Send + Sync>(value: T) -> Self::Cells<T>;

    /// An array of `UNITS` copies of `value`.
    fn units<T: Copy + Debug + Send + Sync>(value: T) -> Self::Units<T>;

    /// `PEERS` entries per cell, cell-major.
    fn peer_table() -> &'static [u16];

    /// The peers of each cell as a mask of cells (bit `cell`), on sizes of at most 128 cells
    /// (4×4 and 9×9); empty on larger ones.
    fn peer_masks() -> &'static [u128];

    /// `N` cells per unit, unit-major: rows `0..N`, columns `N..2N`, boxes `2N..3N`.
    fn unit_table() -> &'static [u16];

    /// For every cell, its row, column and box units (see [`Shape::units_of`]).
    fn units_of_table() -> &'static [[u8; 3]];

    /// The peers of `cell`.
    #[inline(always)]
    fn peers(cell: usize) -> &'static [u16] {
        &Self::peer_table()[cell * Self::PEERS..(cell + 1) * Self::PEERS]
    }

    /// The row, column and box units of `cell`, numbered as in [`Shape::unit_table`].
    #[inline(always)]
    fn units_of(cell: usize) -> [usize; 3] {
        Self::units_of_table()[cell].map(usize::from)
    }

    /// The cells of unit `unit` (see [`Shape::unit_table`] for the numbering).
    #[inline(always)]
    fn unit(unit: usize) -> &'static [u16] {
        &Self::unit_table()[unit * Self::N..(unit + 1) * Self::N]
    }
}

macro_rules! shape {
    ($(#[$doc:meta])* $name:ident, box = $b:literal, max_holes = $max:expr, removal_budget = $budget:expr, solver = $solver:ty, peers = $peers:ident, peer_masks = $peer_masks:expr, units = $units:ident, units_of = $units_of:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;

        static $peers: [u16; $b * $b * $b * $b * (3 * $b * $b - 2 * $b - 1)] = peer_table::<$b, { $b * $b * $b * $b * (3 * $b * $b - 2 * $b - 1) }>();
        static $units: [u16; 3 * $b * $b * $b * $b] = unit_table::<$b, { 3 * $b * $b * $b * $b }>();
        static $units_of: [[u8; 3]; $b * $b * $b * $b] = units_of_table::<$b, { $b * $b * $b * $b }>();

        impl Shape for $name {
            const BOX: usize = $b;
            const MAX_HOLES: usize = $max;
            const REMOVAL_BUDGET: u64 = $budget;
            type Solver = $solver;
            type Cells<T: Copy + Debug + Send + Sync> = [T; $b * $b * $b * $b];
            type Units<T: Copy + Debug + Send + Sync> = [T; 3 * $b * $b];

            #[inline(always)]
            fn cells<T: Copy + Debug + Send + Sync>(value: T) -> Self::Cells<T> {
                [value; $b * $b * $b * $b]
            }

            #[inline(always)]
            fn units<T: Copy + Debug + Send + Sync>(value: T) -> Self::Units<T> {
                [value; 3 * $b * $b]
            }

            #[inline(always)]
            fn peer_table() -> &'static [u16] {
                &$peers
            }

            #[inline(always)]
            fn peer_masks() -> &'static [u128] {
                $peer_masks
            }

            #[inline(always)]
            fn unit_table() -> &'static [u16] {
                &$units
            }

            #[inline(always)]
            fn units_of_table() -> &'static [[u8; 3]] {
                &$units_of
            }
        }
    };
}

shape!(
    /// 4×4 grids of 2×2 boxes.
    Four, box = 2, max_holes = 12, removal_budget = u64::MAX, solver = Generic<Four>, peers = PEERS_4, peer_masks = &PEER_MASKS_4,
    units = UNITS_4,
    units_of = UNITS_OF_4
);
shape!(
    /// 9×9 grids of 3×3 boxes.
    Nine, box = 3, max_holes = 64, removal_budget = u64::MAX, solver = Bands<Nine>, peers = PEERS_9, peer_masks = &PEER_MASKS_9,
    units = UNITS_9,
    units_of = UNITS_OF_9
);
shape!(
    /// 16×16 grids of 4×4 boxes.
    Sixteen, box = 4, max_holes = 256 - 15, removal_budget = 0, solver = Bands<Sixteen>, peers = PEERS_16, peer_masks = &[],
    units = UNITS_16,
    units_of = UNITS_OF_16
);
shape!(
    /// 25×25 grids of 5×5 boxes.
    TwentyFive, box = 5, max_holes = 625 - 24, removal_budget = 0, solver = Locked<TwentyFive>, peers = PEERS_25, peer_masks = &[],
    units = UNITS_25,
    units_of = UNITS_OF_25
);

static PEER_MASKS_4: [u128; 16] = peer_masks::<16>(&PEERS_4);
static PEER_MASKS_9: [u128; 81] = peer_masks::<81>(&PEERS_9);

/// For every cell of a grid of at most 128 cells, its peers (from the peer table) as a mask.
const fn peer_masks<const CELLS: usize>(table: &[u16]) -> [u128; CELLS] {
    let peers = table.len() / CELLS;
    let mut masks = [0u128; CELLS];
    let mut i = 0;
    while i < table.len() {
        masks[i / peers] |= 1 << table[i];
        i += 1;
    }
    masks
}

/// Row, column and box of every cell, rows then columns then boxes, `N` cells each.
const fn unit_table<const B: usize, const LEN: usize>() -> [u16; LEN] {
    let n = B * B;
    let mut table = [0u16; LEN];
    let mut i = 0;
    while i < n {
        let mut j = 0;
        while j < n {
            table[i * n + j] = (i * n + j) as u16; // row i
            table[(n + i) * n + j] = (j * n + i) as u16; // column i
            let (band, stack) = (i / B, i % B);
            let (r, c) = (band * B + j / B, stack * B + j % B);
            table[(2 * n + i) * n + j] = (r * n + c) as u16; // box i
            j += 1;
        }
        i += 1;
    }
    table
}

/// For every cell, its row `r`, column `N + c` and box `2N + box` units.
const fn units_of_table<const B: usize, const LEN: usize>() -> [[u8; 3]; LEN] {
    let n = B * B;
    let mut table = [[0u8; 3]; LEN];
    let mut cell = 0;
    while cell < LEN {
        let (row, col) = (cell / n, cell % n);
        table[cell] = [
            row as u8,
            (n + col) as u8,
            (2 * n + row / B * B + col / B) as u8,
        ];
        cell += 1;
    }
    table
}

/// For every cell, the cells sharing a row, column or box with it (itself excluded).
const fn peer_table<const B: usize, const LEN: usize>() -> [u16; LEN] {
    let n = B * B;
    let peers = 3 * n - 2 * B - 1;
    let mut table = [0u16; LEN];
    let mut cell = 0;
    while cell < n * n {
        let (r, c) = (cell / n, cell % n);
        let mut k = 0;
        let mut other = 0;
        while other < n * n {
            let (r2, c2) = (other / n, other % n);
            let same_box = r / B == r2 / B && c / B == c2 / B;
            if other != cell && (r == r2 || c == c2 || same_box) {
                table[cell * peers + k] = other as u16;
                k += 1;
            }
            other += 1;
        }
        assert!(k == peers);
        cell += 1;
    }
    table
}

/// A grid size chosen at run time; [`crate::with_shape!`] turns it into a [`Shape`] type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(into = "usize", try_from = "usize")]
pub enum Size {
    /// 4×4
    Four,
    /// 9×9
    Nine,
    /// 16×16
    Sixteen,
    /// 25×25
    TwentyFive,
}

impl Size {
    /// Every supported size, smallest first.
    pub const ALL: [Size; 4] = [Size::Four, Size::Nine, Size::Sixteen, Size::TwentyFive];

    /// The grid side `N`.
    pub fn n(self) -> usize {
        match self {
            Size::Four => 4,
            Size::Nine => 9,
            Size::Sixteen => 16,
            Size::TwentyFive => 25,
        }
    }

    /// Cells in a grid of this size, `N²`.
    pub fn cells(self) -> usize {
        self.n() * self.n()
    }

    /// The size whose side is `n`, if supported.
    pub fn from_n(n: usize) -> Option<Size> {
        Size::ALL.into_iter().find(|s| s.n() == n)
    }

    /// The size whose text form has `len` characters, if supported.
    pub fn from_cells(len: usize) -> Option<Size> {
        Size::ALL.into_iter().find(|s| s.cells() == len)
    }

    /// The most holes a unique puzzle of this size can have ([`Shape::MAX_HOLES`]).
    pub fn max_holes(self) -> usize {
        crate::with_shape!(self, S => S::MAX_HOLES)
    }

    /// The hole target `generate` uses when none is given.
    pub fn default_holes(self) -> usize {
        match self {
            Size::Four => 10,
            Size::Nine => 50,
            Size::Sixteen => 150,
            Size::TwentyFive => 300,
        }
    }
}

impl From<Size> for usize {
    fn from(size: Size) -> usize {
        size.n()
    }
}

impl TryFrom<usize> for Size {
    type Error = String;
    fn try_from(n: usize) -> Result<Size, String> {
        Size::from_n(n).ok_or_else(|| format!("unsupported size {n} (expected 4, 9, 16 or 25)"))
    }
}

impl std::fmt::Display for Size {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.n())
    }
}

/// Runs `$body` with `$S` bound to the [`Shape`] type of the run-time [`Size`] `$size`: the one
/// place where a size becomes a type, so each size gets its own monomorphised code.
#[macro_export]
macro_rules! with_shape {
    ($size:expr, $S:ident => $body:expr) => {
        match $size {
            $crate::shape::Size::Four => {
                type $S = $crate::shape::Four;
                $body
            }
            $crate::shape::Size::Nine => {
                type $S = $crate::shape::Nine;
                $body
            }
            $crate::shape::Size::Sixteen => {
                type $S = $crate::shape::Sixteen;
                $body
            }
            $crate::shape::Size::TwentyFive => {
                type $S = $crate::shape::TwentyFive;
                $body
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_tables<S: Shape>() {
        for cell in 0..S::CELLS {
            let peers = S::peers(cell);
            assert_eq!(peers.len(), S::PEERS);
            assert!(
                peers
                    .iter()
                    .all(|&p| p as usize != cell && (p as usize) < S::CELLS)
            );
            let mut sorted = peers.to_vec();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), S::PEERS, "peers of {cell} repeat");
        }
        for unit in 0..S::UNITS {
            let mut cells = S::unit(unit).to_vec();
            cells.sort_unstable();
            cells.dedup();
            assert_eq!(cells.len(), S::N);
        }
        // Each cell lies in exactly three units, and its peers are the union of those units.
        for cell in 0..S::CELLS {
            let units: Vec<usize> = (0..S::UNITS)
                .filter(|&u| S::unit(u).contains(&(cell as u16)))
                .collect();
            assert_eq!(units, S::units_of(cell));
            let mut union: Vec<u16> = units.iter().flat_map(|&u| S::unit(u).to_vec()).collect();
            union.sort_unstable();
            union.dedup();
            union.retain(|&c| c as usize != cell);
            let mut peers = S::peers(cell).to_vec();
            peers.sort_unstable();
            assert_eq!(union, peers);
            // The masks, where the size has them, hold the same peers.
            if let Some(&mask) = S::peer_masks().get(cell) {
                let from_mask: Vec<u16> = (0..S::CELLS as u16)
                    .filter(|&c| mask >> c & 1 != 0)
                    .collect();
                assert_eq!(from_mask, peers);
            }
        }
        assert_eq!(
            S::peer_masks().len(),
            if S::CELLS <= 128 { S::CELLS } else { 0 }
        );
    }

    #[test]
    fn tables_are_consistent_for_every_size() {
        check_tables::<Four>();
        check_tables::<Nine>();
        check_tables::<Sixteen>();
        check_tables::<TwentyFive>();
    }

    #[test]
    fn sizes_round_trip() {
        for size in Size::ALL {
            assert_eq!(Size::from_n(size.n()), Some(size));
            assert_eq!(Size::from_cells(size.cells()), Some(size));
        }
        assert_eq!(Size::from_n(8), None);
        assert_eq!(Nine::PEERS, 20);
        assert_eq!(TwentyFive::ALL, (1 << 25) - 1);
    }
}
