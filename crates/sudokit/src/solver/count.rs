//! Exact solution counts spread over every core.
//!
//! Counting all solutions of a sparse puzzle (28,200,960 for the empty 6×6
//! grid) is one long search. [`count_solutions`] splits it breadth-first on the
//! most constrained cells into independent sub-puzzles whose solution sets
//! partition the original's, then counts those in parallel with rayon.

use rayon::prelude::*;

use super::general::{Expansion, GeneralSolver};
use super::solver_for;
use crate::grid::Shape;

/// Sub-puzzles per worker thread to aim for before counting in parallel, so
/// that uneven parts still balance.
const PARTS_PER_THREAD: usize = 32;

/// Counts the solutions of `givens` on `shape`, stopping at `limit` (the result
/// is then `limit`; pass `u64::MAX` to count them all).
pub fn count_solutions(shape: Shape, givens: &[u8], limit: u64) -> u64 {
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
            |solver, part| solver.solve(part, limit, None).solutions,
        )
        .reduce(|| 0, |a, b| a.saturating_add(b));
    solved.saturating_add(rest).min(limit)
}
