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
#[cfg(feature = "sat")]
pub mod portfolio;
pub mod reference;
#[cfg(feature = "sat")]
pub mod sat;
pub mod small;

use crate::budget::Budget;
use crate::grid::{check_cells, InputError, Shape};

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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
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

/// The hot path every engine implements: no checks, for the crate's own
/// loops (analysis, generation, the hunt), whose puzzles are valid by
/// construction and which call an engine millions of times.
///
/// It lives in a private module, so code outside the crate can neither name
/// it nor call its methods: every outside call goes through the checked
/// methods of [`Solver`]. (That also seals [`Solver`]: only this crate's
/// engines implement it.)
pub(crate) mod raw {
    use std::time::{Duration, Instant};

    use super::Outcome;
    use crate::budget::Budget;

    /// Unchecked solving: `givens` holds exactly `N²` values in `0..=N`, and
    /// `solution`, when given, has `N²` slots. Breaking that contract gives
    /// wrong answers or panics, which is why it is not public.
    pub trait RawSolver: Send {
        /// Counts solutions of `givens` up to `limit`; see [`super::Solver`].
        fn solve_raw(&mut self, givens: &[u8], limit: u64, solution: Option<&mut [u8]>) -> Outcome;

        /// As [`RawSolver::solve_raw`], giving up (`None`) once `budget` is
        /// spent; engines whose worst case is short keep this default.
        fn solve_raw_until(
            &mut self,
            givens: &[u8],
            limit: u64,
            solution: Option<&mut [u8]>,
            _budget: &Budget,
        ) -> Option<Outcome> {
            Some(self.solve_raw(givens, limit, solution))
        }

        /// Solves the `outcomes.len()` puzzles of `givens` (`N²` values
        /// each) as [`RawSolver::solve_raw_until`] does one at a time, each
        /// given `timeout` from the start of its own search (`None`: no
        /// limit) and its first solution written into its `N²` bytes of
        /// `solutions`. Engines that gain from batches override it and say
        /// so in [`RawSolver::batches`].
        fn solve_batch_raw(
            &mut self,
            givens: &[u8],
            limit: u64,
            mut solutions: Option<&mut [u8]>,
            timeout: Option<Duration>,
            outcomes: &mut [Option<Outcome>],
        ) {
            let cells = givens.len() / outcomes.len().max(1);
            for (i, outcome) in outcomes.iter_mut().enumerate() {
                let puzzle = &givens[i * cells..(i + 1) * cells];
                let out = solutions
                    .as_deref_mut()
                    .map(|all| &mut all[i * cells..(i + 1) * cells]);
                *outcome = match timeout {
                    None => Some(self.solve_raw(puzzle, limit, out)),
                    Some(time) => {
                        let budget = Budget::until(Instant::now() + time);
                        self.solve_raw_until(puzzle, limit, out, &budget)
                    }
                };
            }
        }

        /// Whether [`RawSolver::solve_batch_raw`] is faster than solving
        /// the same puzzles one at a time, so that a caller with many
        /// puzzles should gather them.
        fn batches(&self) -> bool {
            false
        }
    }
}

/// A solving engine for one shape.
///
/// `givens` holds `N²` cell values (0 = blank, `1..=N` = digit). The engine
/// counts solutions, stopping once `limit` are found (`limit` 0 counts as 1;
/// `u64::MAX` counts them all), and writes the first solution found into
/// `solution` when one is given and a solution exists. Engines keep scratch
/// buffers between calls, so a solver is reused for many puzzles and
/// allocates nothing per puzzle: this is the interface for hot loops. For one
/// puzzle at a time, [`Puzzle::solve`](crate::grid::Puzzle::solve) and its
/// siblings are simpler.
///
/// Every method checks its input first (a few nanoseconds for a 9×9 grid):
/// givens of another length than `N²`, a value above `N` or a `solution`
/// buffer of the wrong length give an [`InputError`], never a wrong answer or
/// a panic.
///
/// The trait is sealed: only this crate's engines implement it.
pub trait Solver: raw::RawSolver {
    /// The shape this solver handles.
    fn shape(&self) -> Shape;

    /// Counts solutions of `givens` up to `limit`; see the trait docs.
    fn solve(
        &mut self,
        givens: &[u8],
        limit: u64,
        solution: Option<&mut [u8]>,
    ) -> Result<Outcome, InputError> {
        check_input(self.shape(), givens, solution.as_deref())?;
        Ok(self.solve_raw(givens, limit, solution))
    }

    /// As [`Solver::solve`], but gives up (`Ok(None)`) once `budget` is spent
    /// (its deadline passed or its cancel flag raised), so that a service can
    /// bound the time one request takes and drop the work of a client that
    /// has gone. The 9×9 engine, whose worst case is a fraction of a second,
    /// never gives up; the general engine, whose search on large sparse grids
    /// can run for minutes, checks the budget, and so does the small engine
    /// once it hands a search to it.
    fn solve_until(
        &mut self,
        givens: &[u8],
        limit: u64,
        solution: Option<&mut [u8]>,
        budget: &Budget,
    ) -> Result<Option<Outcome>, InputError> {
        check_input(self.shape(), givens, solution.as_deref())?;
        Ok(self.solve_raw_until(givens, limit, solution, budget))
    }

    /// Unique, none or multiple: the solution count with limit 2.
    fn status(&mut self, givens: &[u8], solution: Option<&mut [u8]>) -> Result<Status, InputError> {
        Ok(Status::from_count(
            self.solve(givens, 2, solution)?.solutions,
        ))
    }
}

/// Checks givens (and a solution buffer) against `shape`: `N²` values in
/// `0..=N`, and `N²` slots.
pub(crate) fn check_input(
    shape: Shape,
    givens: &[u8],
    solution: Option<&[u8]>,
) -> Result<(), InputError> {
    check_cells(shape, givens)?;
    match solution {
        Some(out) if out.len() != shape.cell_count() => Err(InputError::SolutionLength {
            found: out.len(),
            expected: shape.cell_count(),
        }),
        _ => Ok(()),
    }
}

/// The fastest engine available for `shape`: the band-bitboard engine for 9×9,
/// the small-grid bitboard engine up to 64 cells, the general engine up to
/// 16×16, and for larger grids the general engine with the SAT engine behind
/// it (the `sat` feature's `solver::portfolio`; without the feature, the
/// general engine alone).
pub fn solver_for(shape: Shape) -> Box<dyn Solver> {
    // Grids of at most 64 cells (`small::MAX_CELLS`).
    if let Some(solver) = small::SmallSolver::new(shape) {
        return Box::new(solver);
    }
    if (shape.box_rows(), shape.box_cols()) == (3, 3) {
        return Box::new(fast9::Fast9Solver::new());
    }
    #[cfg(feature = "sat")]
    if shape.side() > 16 {
        return Box::new(portfolio::PortfolioSolver::new(shape));
    }
    Box::new(general::GeneralSolver::new(shape))
}
