//! Exact solution counts spread over every core.
//!
//! Counting all solutions of a sparse puzzle (28,200,960 for the empty 6×6
//! grid) is one long search. [`count_solutions`] splits it breadth-first on the
//! most constrained cells into independent sub-puzzles whose solution sets
//! partition the original's, then counts those in parallel with rayon. Without
//! the `parallel` feature it is one search on the calling thread.

#[cfg(feature = "parallel")]
use rayon::prelude::*;

#[cfg(feature = "parallel")]
use super::general::{Expansion, GeneralSolver};
use super::{check_input, solver_for};
use crate::grid::{InputError, Shape};

#[cfg(feature = "parallel")]
/// Sub-puzzles per worker thread to aim for before counting in parallel, so
/// that uneven parts still balance.
const PARTS_PER_THREAD: usize = 32;

/// Counts the solutions of `givens` on `shape`, stopping at `limit` (the result
/// is then `limit`; pass `u64::MAX` to count them all; a limit of 0 counts as
/// 1). An error when `givens` are not `N²` values in `0..=N`.
pub fn count_solutions(shape: Shape, givens: &[u8], limit: u64) -> Result<u64, InputError> {
    check_input(shape, givens, None)?;
    Ok(count_raw(shape, givens, limit))
}

/// [`count_solutions`] on one thread: the `parallel` feature is off.
#[cfg(not(feature = "parallel"))]
pub(crate) fn count_raw(shape: Shape, givens: &[u8], limit: u64) -> u64 {
    solver_for(shape)
        .solve_raw(givens, limit.max(1), None)
        .solutions
}

/// [`count_solutions`] without the check, for givens that fit `shape`.
#[cfg(feature = "parallel")]
pub(crate) fn count_raw(shape: Shape, givens: &[u8], limit: u64) -> u64 {
    let limit = limit.max(1);
    let target = rayon::current_num_threads() * PARTS_PER_THREAD;
    let mut splitter = GeneralSolver::new(shape);
    let mut solved = 0u64;
    let mut frontier = vec![givens.to_vec()];
    // Each round replaces every open part by its branches; parts solved by
    // propagation alone are counted on the spot.
    while frontier.len() < target && !frontier.is_empty() && solved < limit {
        let mut next = Vec::with_capacity(frontier.len() * 2);
        for part in &frontier {
            match splitter.expand(part) {
                Expansion::Contradiction => {}
                Expansion::Solved(_) => solved += 1,
                Expansion::Branches(branches) => next.extend(branches),
            }
        }
        frontier = next;
    }
    if solved >= limit {
        return limit;
    }
    let rest = frontier
        .par_iter()
        .map_init(
            || solver_for(shape),
            |solver, part| solver.solve_raw(part, limit, None).solutions,
        )
        .reduce(|| 0, |a, b| a.saturating_add(b));
    solved.saturating_add(rest).min(limit)
}
