//! [`ReferenceSolver`]: plain backtracking, kept simple on purpose.
//!
//! It tries digits `1..=N` in the first blank cell, checks each against the
//! cell's row, column and box by scanning them, and recurses. No propagation,
//! no bit tricks: slow, but easy to believe, so the tests use it as the
//! independent answer the fast engines must agree with.

use super::raw::RawSolver;
use super::{Outcome, Solver};
use crate::grid::{Geometry, Shape};

/// The slow, obviously-correct engine the fast ones are checked against.
#[derive(Clone, Debug)]
pub struct ReferenceSolver {
    geometry: Geometry,
}

impl ReferenceSolver {
    /// A reference solver for `shape`.
    pub fn new(shape: Shape) -> ReferenceSolver {
        ReferenceSolver {
            geometry: Geometry::new(shape),
        }
    }

    fn fits(&self, grid: &[u8], cell: usize, digit: u8) -> bool {
        self.geometry
            .peers(cell)
            .iter()
            .all(|&p| grid[p as usize] != digit)
    }

    fn search(
        &self,
        grid: &mut [u8],
        limit: u64,
        found: &mut Outcome,
        first: &mut Option<Vec<u8>>,
    ) {
        let Some(cell) = grid.iter().position(|&v| v == 0) else {
            found.solutions += 1;
            if first.is_none() {
                *first = Some(grid.to_vec());
            }
            return;
        };
        found.guesses += 1;
        for digit in 1..=self.geometry.shape().side() as u8 {
            if self.fits(grid, cell, digit) {
                grid[cell] = digit;
                self.search(grid, limit, found, first);
                grid[cell] = 0;
                if found.solutions >= limit {
                    return;
                }
            }
        }
    }
}

impl Solver for ReferenceSolver {
    fn shape(&self) -> Shape {
        self.geometry.shape()
    }
}

impl RawSolver for ReferenceSolver {
    fn solve_raw(&mut self, givens: &[u8], limit: u64, solution: Option<&mut [u8]>) -> Outcome {
        let mut found = Outcome::default();
        // Givens that clash with each other leave nothing to search.
        let consistent = givens
            .iter()
            .enumerate()
            .all(|(cell, &v)| v == 0 || self.fits(givens, cell, v));
        if !consistent {
            return found;
        }
        let mut grid = givens.to_vec();
        let mut first = None;
        self.search(&mut grid, limit.max(1), &mut found, &mut first);
        if let (Some(out), Some(first)) = (solution, first) {
            out.copy_from_slice(&first);
        }
        found
    }
}
