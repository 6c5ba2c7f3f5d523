//! [`PortfolioSolver`]: the general engine first, CaDiCaL when it runs long.
//!
//! On large grids about half full most puzzles take the general engine
//! microseconds to milliseconds, far less than building a SAT encoding, but
//! a few (a 36×36 grid with 700 clues and two solutions far apart, a clash
//! among clues that only shows deep down) take it minutes, where clause
//! learning takes seconds. So the general engine gets a short time slice
//! ([`SLICE`]), and a puzzle it has not answered by then goes to the SAT
//! engine, with whatever is left of the caller's budget. Both are exact: the
//! answer is the same whichever gives it.
//!
//! Measured on random 36×36 puzzles with 700 clues (20, fixed seed, one
//! thread): the general engine alone did not answer 2 within 5 s each;
//! CaDiCaL alone answered all, the slowest in 1.7 s. The `large` benchmark
//! runs this solver beside both.

use std::time::{Duration, Instant};

use super::general::{GeneralSolver, RESTART_LIMIT};
use super::raw::RawSolver;
use super::sat::SatSolver;
use super::{Outcome, Solver};
use crate::budget::Budget;
use crate::grid::Shape;

/// How long the general engine may search before the SAT engine takes over.
///
/// Chosen by the `large` bench on the random 25×25 (260, 280 and 300
/// clues) and 36×36 (700 clues) sets, two runs of each slice, with the SAT
/// engine on CaDiCaL's `sat` option set (2026-12-07, Intel Xeon): the four
/// sets took 14.2 s in all with 20 ms, 14.2–14.5 s with 10 ms, 14.1–14.9 s
/// with 5 ms, 15.9 s with 50 ms and 18.4 s with 120 ms. Below 20 ms the
/// 260-clue set loses what the others gain: more of its puzzles, which the
/// general engine answers within tens of milliseconds, pay for a SAT
/// encoding instead.
pub const SLICE: Duration = Duration::from_millis(20);

/// The general engine with the SAT engine behind it, for large grids.
#[derive(Clone, Debug)]
pub struct PortfolioSolver {
    general: GeneralSolver,
    sat: SatSolver,
    slice: Duration,
}

impl PortfolioSolver {
    /// A portfolio for `shape` with the default [`SLICE`].
    pub fn new(shape: Shape) -> PortfolioSolver {
        PortfolioSolver::with_slice(shape, SLICE)
    }

    /// A portfolio whose general engine gets `slice` per puzzle (tests use
    /// zero to send every puzzle to the SAT engine; benchmarks tune it).
    pub fn with_slice(shape: Shape, slice: Duration) -> PortfolioSolver {
        PortfolioSolver {
            general: GeneralSolver::new(shape),
            sat: SatSolver::new(shape),
            slice,
        }
    }
}

impl Solver for PortfolioSolver {
    fn shape(&self) -> Shape {
        self.general.shape()
    }
}

impl RawSolver for PortfolioSolver {
    fn solve_raw(&mut self, givens: &[u8], limit: u64, solution: Option<&mut [u8]>) -> Outcome {
        self.solve_raw_until(givens, limit, solution, &Budget::unlimited())
            .expect("an unlimited budget is never spent")
    }

    /// Counting many solutions is exhaustive whatever the engine, and the
    /// general engine enumerates them far faster than blocking clauses do:
    /// above [`RESTART_LIMIT`] it runs alone.
    fn solve_raw_until(
        &mut self,
        givens: &[u8],
        limit: u64,
        mut solution: Option<&mut [u8]>,
        budget: &Budget,
    ) -> Option<Outcome> {
        if limit > RESTART_LIMIT {
            return self
                .general
                .solve_raw_until(givens, limit, solution, budget);
        }
        let slice = budget.sooner(Instant::now() + self.slice);
        let first = self
            .general
            .solve_raw_until(givens, limit, solution.as_deref_mut(), &slice);
        if first.is_some() || budget.is_spent() {
            return first;
        }
        self.sat.solve_raw_until(givens, limit, solution, budget)
    }
}
