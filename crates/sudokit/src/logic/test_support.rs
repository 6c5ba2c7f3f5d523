//! Fixtures shared by the techniques' unit tests.

use super::Candidates;
use crate::{Puzzle, Shape};

/// An empty 9×9 grid with `digit` removed from every cell but `keep`.
pub(super) fn only(digit: u8, keep: &[usize]) -> Candidates {
    only_in(Shape::new(3, 3).unwrap(), digit, keep)
}

/// An empty grid of `shape` with `digit` removed from every cell but
/// `keep`.
pub(super) fn only_in(shape: Shape, digit: u8, keep: &[usize]) -> Candidates {
    let mut grid = Candidates::new(&Puzzle::empty(shape)).unwrap();
    for cell in 0..shape.cell_count() {
        if !keep.contains(&cell) {
            grid.eliminate(cell, digit);
        }
    }
    grid
}

/// Row-major index of `r{row}c{column}` (1-based) on a 9×9 grid.
pub(super) fn rc(row: usize, column: usize) -> usize {
    (row - 1) * 9 + column - 1
}
