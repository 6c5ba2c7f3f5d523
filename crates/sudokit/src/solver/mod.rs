//! Solving engines behind one interface.
//!
//! Every engine answers the same question — "how many solutions does this
//! puzzle have, up to `limit`, and what is the first one?" — through the
//! [`Solver`] trait, so the analyzer, the CLI, the server and the benchmarks can
//! run any of them on the same data. [`solver_for`] picks the fastest engine for
//! a shape.
//!
//! - [`general::GeneralSolver`]: any box shape up to 64×64; candidate bitmasks,
//!   naked and hidden singles to a fixpoint, most-constrained-cell branching.
//! - [`fast9::Fast9Solver`]: the 9×9 engine (band bitboards).
//! - [`small::SmallSolver`]: grids of at most 64 cells (4×4, 6×6, 8×8, 1×N
//!   boxes …); one 64-bit board per digit, a few words copied per branch.
//! - [`reference::ReferenceSolver`]: deliberately plain backtracking, the slow
//!   and obviously-correct twin the tests compare the fast engines with.

pub mod choice;
pub mod count;
pub mod fast9;
pub mod general;
pub mod reference;
pub mod small;

use crate::budget::Budget;
use crate::grid::Shape;

/// What a solver found: solutions counted up to the requested limit, and how
/// many guesses (branch points) the search took.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Solutions found, never more than the limit asked for.
    pub solutions: u64,
    /// Branch points taken (a measure of difficulty, not of correctness).
    pub guesses: u64,
}

/// How many solutions a puzzle has, as the analyzer reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// No solution (including givens that contradict each other).
    None,
    /// Exactly one solution.
    Unique,
    /// Two or more solutions.
    Multiple,
}

impl Status {
    /// The status of a puzzle whose solutions were counted with limit ≥ 2.
    pub fn from_count(solutions: u64) -> Status {
        match solutions {
            0 => Status::None,
            1 => Status::Unique,
            _ => Status::Multiple,
        }
    }
}

/// A solving engine for one shape.
///
/// `givens` holds `N²` cell values (0 = blank, `1..=N` = digit; callers
/// guarantee the range). The engine counts solutions, stopping once `limit`
/// are found (`limit` ≥ 1; `u64::MAX` counts them all), and writes the first
/// solution found into `solution` when one is given and a solution exists.
/// Engines keep scratch buffers between calls, so a solver is reused for many
/// puzzles and allocates nothing per puzzle.
pub trait Solver: Send {
    /// The shape this solver handles.
    fn shape(&self) -> Shape;

    /// Counts solutions of `givens` up to `limit`; see the trait docs.
    fn solve(&mut self, givens: &[u8], limit: u64, solution: Option<&mut [u8]>) -> Outcome;

    /// As [`Solver::solve`], but gives up (`None`) once `budget` is spent
    /// (its deadline passed or its cancel flag raised), so that a service can
    /// bound the time one request takes and drop the work of a client that
    /// has gone. Engines whose worst case is a fraction of a second (the 9×9
    /// engine) keep this default, which never gives up; the general engine,
    /// whose search on large sparse grids can run for minutes, checks the
    /// budget, and so does the small engine once it hands a search to it.
    fn solve_until(
        &mut self,
        givens: &[u8],
        limit: u64,
        solution: Option<&mut [u8]>,
        _budget: &Budget,
    ) -> Option<Outcome> {
        Some(self.solve(givens, limit, solution))
    }

    /// Unique, none or multiple: the solution count with limit 2.
    fn status(&mut self, givens: &[u8], solution: Option<&mut [u8]>) -> Status {
        Status::from_count(self.solve(givens, 2, solution).solutions)
    }
}

/// The fastest engine available for `shape`: the band-bitboard engine for 9×9,
/// the small-grid bitboard engine up to 64 cells, the general engine for every
/// other shape.
pub fn solver_for(shape: Shape) -> Box<dyn Solver> {
    // Grids of at most 64 cells (`small::MAX_CELLS`).
    if let Some(solver) = small::SmallSolver::new(shape) {
        return Box::new(solver);
    }
    if (shape.box_rows(), shape.box_cols()) == (3, 3) {
        return Box::new(fast9::Fast9Solver::new());
    }
    Box::new(general::GeneralSolver::new(shape))
}
