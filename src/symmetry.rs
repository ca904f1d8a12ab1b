//! Symmetric clue patterns: `--symmetry`.
//!
//! A symmetry is a group of geometric maps of the grid onto itself; a clue pattern has it when
//! every map sends clues to clues. Digging by whole orbits (the sets of cells the maps send a
//! cell to) keeps the pattern symmetric, so a target is reachable only as a sum of orbit
//! sizes: with `rot90` on 9×9, for example, every orbit has four cells but the centre's one.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A clue-pattern symmetry, or `Random` for one drawn per attempt.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum Symmetry {
    /// Any pattern.
    #[default]
    None,
    /// Unchanged by a half turn.
    Rot180,
    /// Unchanged by a quarter turn.
    Rot90,
    /// Unchanged by a left–right reflection.
    Mirror,
    /// Unchanged by a top–bottom reflection.
    Flip,
    /// Unchanged by reflection in the main diagonal.
    Diagonal,
    /// Unchanged by reflection in the anti-diagonal.
    Antidiagonal,
    /// Unchanged by all eight turns and reflections.
    Dihedral,
    /// One of the others but `None`, drawn per attempt among those that reach the target.
    Random,
}

/// A map of the grid onto itself: `(n, row, column)` to `(row, column)`.
type Map = fn(usize, usize, usize) -> (usize, usize);

const IDENTITY: Map = |_, r, c| (r, c);
const ROT90: Map = |n, r, c| (c, n - 1 - r);
const ROT180: Map = |n, r, c| (n - 1 - r, n - 1 - c);
const ROT270: Map = |n, r, c| (n - 1 - c, r);
const MIRROR: Map = |n, r, c| (r, n - 1 - c);
const FLIP: Map = |n, r, c| (n - 1 - r, c);
const DIAGONAL: Map = |_, r, c| (c, r);
const ANTIDIAGONAL: Map = |n, r, c| (n - 1 - c, n - 1 - r);

impl Symmetry {
    /// Every value, as written on the command line.
    pub const ALL: [Symmetry; 9] = [
        Symmetry::None,
        Symmetry::Rot180,
        Symmetry::Rot90,
        Symmetry::Mirror,
        Symmetry::Flip,
        Symmetry::Diagonal,
        Symmetry::Antidiagonal,
        Symmetry::Dihedral,
        Symmetry::Random,
    ];

    /// The patterns `Random` draws from.
    pub const PATTERNS: [Symmetry; 7] = [
        Symmetry::Rot180,
        Symmetry::Rot90,
        Symmetry::Mirror,
        Symmetry::Flip,
        Symmetry::Diagonal,
        Symmetry::Antidiagonal,
        Symmetry::Dihedral,
    ];

    /// The name on the command line and in the bank.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Rot180 => "rot180",
            Symmetry::Rot90 => "rot90",
            Symmetry::Mirror => "mirror",
            Symmetry::Flip => "flip",
            Symmetry::Diagonal => "diagonal",
            Symmetry::Antidiagonal => "antidiagonal",
            Symmetry::Dihedral => "dihedral",
            Symmetry::Random => "random",
        }
    }

    /// The group's maps, the identity first (`Random` has none of its own).
    fn maps(self) -> &'static [Map] {
        match self {
            Symmetry::None | Symmetry::Random => &[IDENTITY],
            Symmetry::Rot180 => &[IDENTITY, ROT180],
            Symmetry::Rot90 => &[IDENTITY, ROT90, ROT180, ROT270],
            Symmetry::Mirror => &[IDENTITY, MIRROR],
            Symmetry::Flip => &[IDENTITY, FLIP],
            Symmetry::Diagonal => &[IDENTITY, DIAGONAL],
            Symmetry::Antidiagonal => &[IDENTITY, ANTIDIAGONAL],
            Symmetry::Dihedral => &[
                IDENTITY,
                ROT90,
                ROT180,
                ROT270,
                MIRROR,
                FLIP,
                DIAGONAL,
                ANTIDIAGONAL,
            ],
        }
    }

    /// True when the cells of an `n`×`n` grid for which `filled` holds form a pattern with
    /// this symmetry.
    pub fn holds(self, n: usize, filled: impl Fn(usize) -> bool) -> bool {
        (0..n * n).all(|cell| {
            self.maps().iter().all(|map| {
                let (r, c) = map(n, cell / n, cell % n);
                filled(r * n + c) == filled(cell)
            })
        })
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

impl FromStr for Symmetry {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        Symmetry::ALL
            .into_iter()
            .find(|s| s.name() == text)
            .ok_or_else(|| {
                let names: Vec<&str> = Symmetry::ALL.iter().map(|s| s.name()).collect();
                format!("{text:?} is not a symmetry (expected {})", names.join(", "))
            })
    }
}

impl From<Symmetry> for String {
    fn from(symmetry: Symmetry) -> String {
        symmetry.name().to_owned()
    }
}

impl TryFrom<String> for Symmetry {
    type Error = String;

    fn try_from(text: String) -> Result<Self, String> {
        text.parse()
    }
}

/// The orbits of a symmetry on an `n`×`n` grid: the cells, grouped, and where each group ends.
/// Built once per worker, before any attempt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Orbits {
    cells: Vec<u16>,
    ends: Vec<u16>,
    /// The orbit of each cell.
    of: Vec<u16>,
}

impl Orbits {
    /// The orbits of `symmetry` (not `Random`) on an `n`×`n` grid, each in ascending cell
    /// order, ordered by their first cell.
    pub fn new(symmetry: Symmetry, n: usize) -> Self {
        let mut placed = vec![false; n * n];
        let (mut cells, mut ends) = (Vec::with_capacity(n * n), Vec::new());
        let mut of = vec![0; n * n];
        for cell in 0..n * n {
            if placed[cell] {
                continue;
            }
            let start = cells.len();
            for map in symmetry.maps() {
                let (r, c) = map(n, cell / n, cell % n);
                let image = r * n + c;
                if !placed[image] {
                    placed[image] = true;
                    of[image] = ends.len() as u16;
                    cells.push(image as u16);
                }
            }
            cells[start..].sort_unstable();
            ends.push(cells.len() as u16);
        }
        Orbits { cells, ends, of }
    }

    /// How many orbits there are.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// True when there are none (a grid has at least one cell, so never).
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The cells of orbit `k`.
    pub fn orbit(&self, k: usize) -> &[u16] {
        let start = if k == 0 { 0 } else { self.ends[k - 1] as usize };
        &self.cells[start..self.ends[k] as usize]
    }

    /// The size of the largest orbit.
    pub fn largest(&self) -> usize {
        (0..self.len())
            .map(|k| self.orbit(k).len())
            .max()
            .unwrap_or(1)
    }

    /// The orbit that holds `cell`.
    pub fn orbit_of(&self, cell: usize) -> usize {
        usize::from(self.of[cell])
    }

    /// Whether `holes` empty cells can form a pattern of whole orbits.
    pub fn reaches(&self, holes: usize) -> bool {
        self.reachable().get(holes).copied().unwrap_or(false)
    }

    /// For every hole count from 0 to the number of cells, whether whole orbits make it.
    pub fn reachable(&self) -> Vec<bool> {
        let mut sums = vec![false; self.cells.len() + 1];
        sums[0] = true;
        for k in 0..self.len() {
            let size = self.orbit(k).len();
            for total in (size..sums.len()).rev() {
                sums[total] |= sums[total - size];
            }
        }
        sums
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orbits_partition_the_grid() {
        for n in [4, 9, 16, 25] {
            for symmetry in Symmetry::PATTERNS.into_iter().chain([Symmetry::None]) {
                let orbits = Orbits::new(symmetry, n);
                let mut seen = vec![0; n * n];
                for k in 0..orbits.len() {
                    let orbit = orbits.orbit(k);
                    assert!(orbit.len() <= symmetry.maps().len());
                    for &cell in orbit {
                        seen[cell as usize] += 1;
                        assert_eq!(orbits.orbit_of(cell as usize), k);
                    }
                    // An orbit's complement pattern has the symmetry.
                    assert!(symmetry.holds(n, |cell| !orbit.contains(&(cell as u16))));
                }
                assert!(seen.iter().all(|&s| s == 1), "{symmetry} on {n}");
            }
        }
    }

    #[test]
    fn reachable_counts_follow_orbit_sizes() {
        let rot90 = Orbits::new(Symmetry::Rot90, 9);
        // Twenty orbits of four and the centre.
        assert_eq!(rot90.len(), 21);
        let reachable: Vec<usize> = (0..=81).filter(|&h| rot90.reaches(h)).collect();
        assert!(reachable.iter().all(|h| h % 4 <= 1));
        assert_eq!(reachable.len(), 42);
        // On even sizes a half turn pairs every cell.
        let rot180 = Orbits::new(Symmetry::Rot180, 16);
        assert!(rot180.reaches(150) && !rot180.reaches(151));
        assert!((0..=81).all(|h| Orbits::new(Symmetry::Mirror, 9).reaches(h)));
        assert!(!Orbits::new(Symmetry::Dihedral, 9).reaches(2));
    }

    #[test]
    fn patterns_are_recognised() {
        // A clue in the top-left corner alone has none of the symmetries; with its images
        // under a half turn, it has rot180 and nothing that needs a quarter turn.
        let corner = |cell: usize| cell == 0;
        assert!(Symmetry::None.holds(9, corner));
        assert!(!Symmetry::Rot180.holds(9, corner));
        let pair = |cell: usize| cell == 0 || cell == 80;
        assert!(Symmetry::Rot180.holds(9, pair));
        assert!(Symmetry::Diagonal.holds(9, pair));
        assert!(!Symmetry::Rot90.holds(9, pair));
        assert!(!Symmetry::Mirror.holds(9, pair));
    }

    #[test]
    fn names_read_and_write() {
        for symmetry in Symmetry::ALL {
            assert_eq!(symmetry.to_string().parse(), Ok(symmetry));
            let json = serde_json::to_string(&symmetry).unwrap();
            assert_eq!(serde_json::from_str::<Symmetry>(&json).unwrap(), symmetry);
        }
        assert!("spiral".parse::<Symmetry>().unwrap_err().contains("rot90"));
    }
}
