//! Geometry of Sudoku-family grids and the values that live on them.
//!
//! A grid of side `N = R·C` is split into `N` boxes of `R` rows × `C` columns.
//! [`Shape`] names such a geometry, [`Geometry`] holds the tables derived from
//! it once (units, the units of each cell, peers) so that solvers never
//! recompute row/column/box arithmetic in their inner loops, and [`Puzzle`] is a
//! grid of givens (0 = blank, `1..=N` = digit) on a shape.

mod geometry;
mod puzzle;
mod shape;

pub use geometry::Geometry;
pub(crate) use puzzle::check_cells;
pub(crate) use puzzle::count_givens;
pub use puzzle::{InputError, Puzzle};
pub use shape::{Shape, ShapeError, MAX_SIDE};
