//! [`Symmetry`]: which clue patterns a generated puzzle may have.
//!
//! A symmetry here is a map of cell positions (the pattern of clues, not the
//! digits), so every one applies to every box shape: the generator removes
//! clues an orbit at a time, and an orbit is a cell with all its images.

use std::fmt;
use std::str::FromStr;

use crate::grid::Shape;

/// A symmetry of the clue pattern.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Symmetry {
    /// Any pattern.
    #[default]
    None,
    /// Unchanged by a half turn about the centre.
    Rot180,
    /// Unchanged by a quarter turn (so also by a half turn).
    Rot90,
    /// Unchanged by reflection in the main diagonal (transposition).
    Diagonal,
    /// Unchanged by reflection in the other diagonal.
    Antidiagonal,
    /// Unchanged by reflection left to right.
    Mirror,
}

/// Every symmetry, for help texts and tests.
pub const ALL_SYMMETRIES: [Symmetry; 6] = [
    Symmetry::None,
    Symmetry::Rot180,
    Symmetry::Rot90,
    Symmetry::Diagonal,
    Symmetry::Antidiagonal,
    Symmetry::Mirror,
];

impl Symmetry {
    /// The image of cell `(r, c)` of a grid of side `n` under the generating
    /// map of this symmetry.
    pub fn image(self, n: usize, r: usize, c: usize) -> (usize, usize) {
        match self {
            Symmetry::None => (r, c),
            Symmetry::Rot180 => (n - 1 - r, n - 1 - c),
            Symmetry::Rot90 => (c, n - 1 - r),
            Symmetry::Diagonal => (c, r),
            Symmetry::Antidiagonal => (n - 1 - c, n - 1 - r),
            Symmetry::Mirror => (r, n - 1 - c),
        }
    }

    /// The cells of `shape` grouped into orbits (each cell in exactly one),
    /// in order of their smallest cell.
    pub fn orbits(self, shape: Shape) -> Vec<Vec<usize>> {
        let n = shape.side();
        let mut seen = vec![false; n * n];
        let mut orbits = Vec::new();
        for start in 0..n * n {
            if seen[start] {
                continue;
            }
            let mut orbit = Vec::with_capacity(4);
            let mut cell = start;
            while !seen[cell] {
                seen[cell] = true;
                orbit.push(cell);
                let (r, c) = self.image(n, cell / n, cell % n);
                cell = r * n + c;
            }
            orbits.push(orbit);
        }
        orbits
    }

    /// Whether the non-blank cells of `cells` (a grid of side `n`) form a
    /// pattern with this symmetry.
    pub fn holds(self, n: usize, cells: &[u8]) -> bool {
        (0..n * n).all(|k| {
            let (r, c) = self.image(n, k / n, k % n);
            (cells[k] != 0) == (cells[r * n + c] != 0)
        })
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Symmetry::None => "none",
            Symmetry::Rot180 => "rot180",
            Symmetry::Rot90 => "rot90",
            Symmetry::Diagonal => "diagonal",
            Symmetry::Antidiagonal => "antidiagonal",
            Symmetry::Mirror => "mirror",
        })
    }
}

impl FromStr for Symmetry {
    type Err = String;

    /// Parses a symmetry name; `transpose` is another name for `diagonal`.
    fn from_str(name: &str) -> Result<Symmetry, String> {
        match name {
            "none" => Ok(Symmetry::None),
            "rot180" => Ok(Symmetry::Rot180),
            "rot90" => Ok(Symmetry::Rot90),
            "diagonal" | "transpose" => Ok(Symmetry::Diagonal),
            "antidiagonal" => Ok(Symmetry::Antidiagonal),
            "mirror" => Ok(Symmetry::Mirror),
            other => Err(format!(
                "unknown symmetry '{other}' (none, rot180, rot90, diagonal, antidiagonal, mirror)"
            )),
        }
    }
}
