//! Fixtures shared by the techniques' unit tests.

use std::ops::ControlFlow;

use super::{Candidates, Sink, Step};
use crate::{Puzzle, Shape};

/// An empty 9×9 grid: every digit possible everywhere.
pub(super) fn empty() -> Candidates {
    Candidates::new(&Puzzle::empty(Shape::new(3, 3).unwrap())).unwrap()
}

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

/// Every step `find` reports on `grid`, in its order.
pub(super) fn steps(
    grid: &Candidates,
    find: impl Fn(&Candidates, &mut Sink<'_>) -> ControlFlow<()>,
) -> Vec<Step> {
    let mut found = Vec::new();
    let _ = find(grid, &mut |s| {
        found.push(s);
        ControlFlow::Continue(())
    });
    found
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
