//! [`Shape`]: the box dimensions of a grid, and the rules for choosing them.

use std::fmt;
use std::str::FromStr;

/// The largest supported side length `N` (a candidate set fits one `u64`).
pub const MAX_SIDE: usize = 64;

/// The box shape of a grid: boxes of `box_rows` × `box_cols` cells, side
/// `N = box_rows · box_cols`, `N²` cells in all.
///
/// A 6×6 grid is `Shape::new(2, 3)` (two rows by three columns per box), the
/// classic grid `Shape::new(3, 3)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    box_rows: u8,
    box_cols: u8,
}

/// Why a shape cannot be built or chosen.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShapeError {
    /// `R·C` is zero or larger than [`MAX_SIDE`].
    #[error("box {rows}x{cols} gives side {side}, supported sides are 1 to {max}", max = MAX_SIDE)]
    SideOutOfRange {
        /// Rows per box.
        rows: usize,
        /// Columns per box.
        cols: usize,
        /// Their product.
        side: usize,
    },
    /// A cell count that is not the square of a supported side.
    #[error("{0} cells is not a square grid of side 1 to {max}", max = MAX_SIDE)]
    NotSquare(usize),
    /// `--box` text that is not `RxC`.
    #[error("box shape '{0}' is not of the form RxC (e.g. 2x3)")]
    Syntax(String),
}

impl Shape {
    /// A shape with boxes of `box_rows` × `box_cols` cells.
    pub fn new(box_rows: usize, box_cols: usize) -> Result<Shape, ShapeError> {
        let side = box_rows * box_cols;
        if side == 0 || side > MAX_SIDE {
            return Err(ShapeError::SideOutOfRange {
                rows: box_rows,
                cols: box_cols,
                side,
            });
        }
        Ok(Shape {
            box_rows: box_rows as u8,
            box_cols: box_cols as u8,
        })
    }

    /// The default boxes for side `n`: `R × C` with `R·C = N`, `R ≤ C` and `R`
    /// as large as possible (6 → 2×3, 8 → 2×4, 9 → 3×3, 12 → 3×4; a prime
    /// side gets 1×N boxes).
    pub fn for_side(n: usize) -> Result<Shape, ShapeError> {
        if n == 0 || n > MAX_SIDE {
            return Err(ShapeError::SideOutOfRange {
                rows: 0,
                cols: 0,
                side: n,
            });
        }
        let rows = (1..=n)
            .filter(|&r| n.is_multiple_of(r) && r * r <= n)
            .max()
            .unwrap_or(1);
        Shape::new(rows, n / rows)
    }

    /// The default shape of a puzzle with `cells` cells (16 → 4×4, 36 → 6×6 …).
    pub fn for_cell_count(cells: usize) -> Result<Shape, ShapeError> {
        let n = (cells as f64).sqrt().round() as usize;
        if n * n != cells || n == 0 || n > MAX_SIDE {
            return Err(ShapeError::NotSquare(cells));
        }
        Shape::for_side(n)
    }

    /// Rows per box (`R`).
    pub fn box_rows(self) -> usize {
        self.box_rows as usize
    }

    /// Columns per box (`C`).
    pub fn box_cols(self) -> usize {
        self.box_cols as usize
    }

    /// Side length `N`: digits, rows, columns and boxes each number `N`.
    pub fn side(self) -> usize {
        self.box_rows() * self.box_cols()
    }

    /// Number of cells, `N²`.
    pub fn cell_count(self) -> usize {
        self.side() * self.side()
    }

    /// Row of a cell index (row-major numbering).
    pub fn row_of(self, cell: usize) -> usize {
        cell / self.side()
    }

    /// Column of a cell index.
    pub fn col_of(self, cell: usize) -> usize {
        cell % self.side()
    }

    /// Box of a cell index, boxes numbered row-major.
    pub fn box_of(self, cell: usize) -> usize {
        let (r, c) = (self.row_of(cell), self.col_of(cell));
        (r / self.box_rows()) * self.box_rows() + c / self.box_cols()
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.box_rows, self.box_cols)
    }
}

impl FromStr for Shape {
    type Err = ShapeError;

    /// Parses `RxC` (also `R×C` or `R*C`), e.g. `2x3`.
    fn from_str(text: &str) -> Result<Shape, ShapeError> {
        let syntax = || ShapeError::Syntax(text.to_string());
        let (rows, cols) = text.split_once(['x', 'X', '×', '*']).ok_or_else(syntax)?;
        let rows: usize = rows.trim().parse().map_err(|_| syntax())?;
        let cols: usize = cols.trim().parse().map_err(|_| syntax())?;
        Shape::new(rows, cols)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_boxes_follow_the_largest_r_rule() {
        let expect = [
            (4, 2, 2),
            (6, 2, 3),
            (8, 2, 4),
            (9, 3, 3),
            (10, 2, 5),
            (12, 3, 4),
            (16, 4, 4),
            (25, 5, 5),
            (7, 1, 7),
        ];
        for (n, r, c) in expect {
            let s = Shape::for_side(n).unwrap();
            assert_eq!((s.box_rows(), s.box_cols()), (r, c), "side {n}");
        }
        assert_eq!(
            Shape::for_cell_count(36).unwrap(),
            Shape::new(2, 3).unwrap()
        );
        assert_eq!(Shape::for_cell_count(35), Err(ShapeError::NotSquare(35)));
        assert!(Shape::for_cell_count(65 * 65).is_err());
    }

    #[test]
    fn parses_box_syntax() {
        assert_eq!("3x2".parse::<Shape>().unwrap(), Shape::new(3, 2).unwrap());
        assert_eq!("4X4".parse::<Shape>().unwrap().side(), 16);
        assert!("3".parse::<Shape>().is_err());
        assert!("0x3".parse::<Shape>().is_err());
        assert!("9x9".parse::<Shape>().is_err());
    }

    #[test]
    fn boxes_are_numbered_row_major() {
        let s = Shape::new(2, 3).unwrap();
        assert_eq!(s.box_of(0), 0);
        assert_eq!(s.box_of(3), 1);
        assert_eq!(s.box_of(6 * 2), 2);
        assert_eq!(s.box_of(35), 5);
    }
}
