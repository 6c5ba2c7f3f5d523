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

/// Row-major index of a cell named `r3c5` on a 9×9 grid.
pub(super) fn named(name: &str) -> usize {
    let (r, c) = name[1..].split_once('c').unwrap();
    rc(r.parse().unwrap(), c.parse().unwrap())
}

/// The grid of `puzzle` after Sudoku Explainer's effects (`r1c2=5` places,
/// `r1c2<>5` eliminates; a placement in a filled cell is skipped).
pub(super) fn replay(puzzle: &str, effects: &str) -> Candidates {
    let mut grid = Candidates::new(&puzzle.parse::<Puzzle>().unwrap()).unwrap();
    for effect in effects.split_whitespace() {
        if let Some((name, digit)) = effect.split_once("<>") {
            grid.eliminate(named(name), digit.parse().unwrap());
        } else if let Some((name, digit)) = effect.split_once('=') {
            if grid.value(named(name)) == 0 {
                grid.place(named(name), digit.parse().unwrap());
            }
        }
    }
    grid
}
