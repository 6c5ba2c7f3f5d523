//! [`DlxSolver`]: dancing links (Knuth's Algorithm X) over a layout's exact cover.

use super::Layout;
use crate::grid::Shape;
use crate::solver::raw::RawSolver;
use crate::solver::{Outcome, Solver};

/// Dancing links for a [`Layout`] (being written).
#[derive(Clone, Debug)]
pub struct DlxSolver {
    shape: Shape,
}

impl DlxSolver {
    /// An engine for `layout`.
    pub fn new(layout: &Layout) -> DlxSolver {
        DlxSolver {
            shape: layout.shape(),
        }
    }
}

impl RawSolver for DlxSolver {
    fn solve_raw(&mut self, _givens: &[u8], _limit: u64, _solution: Option<&mut [u8]>) -> Outcome {
        unimplemented!()
    }
}

impl Solver for DlxSolver {
    fn shape(&self) -> Shape {
        self.shape
    }
}
