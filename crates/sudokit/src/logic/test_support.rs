//! Fixtures shared by the techniques' unit tests.

use super::Candidates;
use crate::Puzzle;

/// An empty 9×9 grid with `digit` removed from every cell but `keep`.
pub(super) fn only(digit: u8, keep: &[usize]) -> Candidates {
    let p: Puzzle = ".".repeat(81).parse().unwrap();
    let mut grid = Candidates::new(&p).unwrap();
    for cell in 0..81 {
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
