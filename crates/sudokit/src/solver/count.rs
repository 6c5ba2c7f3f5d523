//! Exact solution counts spread over every core.
//!
//! Counting all solutions of a sparse puzzle (28,200,960 for the empty 6×6
//! grid) is one long search. [`count_solutions`] splits it breadth-first on the
//! most constrained cells into independent sub-puzzles whose solution sets
//! partition the original's, then counts those in parallel with rayon
//! (without the `parallel` feature, one after another on the calling thread).
//! [`estimate_solutions`] says beforehand whether such a count can finish.

use std::sync::atomic::{AtomicU64, Ordering};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::general::{Expansion, GeneralSolver, RESTART_LIMIT};
use super::{check_input, solver_for, Solver};
use crate::budget::Budget;
use crate::grid::{InputError, Shape};
use crate::par::*;

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

/// [`count_solutions`] without the check, for givens that fit `shape`.
pub(crate) fn count_raw(shape: Shape, givens: &[u8], limit: u64) -> u64 {
    count_raw_until(shape, givens, limit, &Budget::unlimited(), None)
        .expect("an unlimited budget is never spent")
}

/// Progress of a count: the parts it was split into, those counted, and
/// the guesses the searches made.
#[derive(Debug, Default)]
pub struct CountProgress {
    /// Independent parts the search was split into (set once split; 1 for a
    /// count up to a small limit, which is one restarting search).
    pub parts: AtomicU64,
    /// Parts counted so far.
    pub done: AtomicU64,
    /// Branch points the searches took (a measure of work, not of time).
    pub guesses: AtomicU64,
}

/// As [`count_solutions`], but gives up (`Ok(None)`) once `budget` is spent,
/// and reports the parts counted to `progress`. With a budget that can be
/// spent, every part is counted by the general engine, which checks the
/// budget as it goes (the 9×9 engine never gives up, and one part of a sparse
/// 9×9 grid can hold more solutions than any run can count).
pub fn count_solutions_until(
    shape: Shape,
    givens: &[u8],
    limit: u64,
    budget: &Budget,
    progress: Option<&CountProgress>,
) -> Result<Option<u64>, InputError> {
    check_input(shape, givens, None)?;
    Ok(count_raw_until(shape, givens, limit, budget, progress))
}

/// [`count_solutions_until`] without the check.
///
/// Up to [`RESTART_LIMIT`] solutions the question is the analyzer's ("are
/// there N?"), and it is answered as the analyzer answers it: one search
/// that restarts with conflict weights, keeping the solutions met across
/// restarts so that none is counted twice. Splitting such a count into
/// parts would make every part that has no solution a full refutation,
/// which on a sparse large grid takes minutes where the restarting search
/// meets its few solutions in milliseconds. Beyond that limit the count is
/// exhaustive: the search is split breadth-first into independent parts
/// (parts solved by propagation alone are counted on the spot), and the
/// parts are counted on every core.
fn count_raw_until(
    shape: Shape,
    givens: &[u8],
    limit: u64,
    budget: &Budget,
    progress: Option<&CountProgress>,
) -> Option<u64> {
    let limit = limit.max(1);
    if limit <= RESTART_LIMIT {
        let mut solver = solver_for(shape);
        if let Some(progress) = progress {
            progress.parts.store(1, Ordering::Relaxed);
        }
        let outcome = solver.solve_raw_until(givens, limit, None, budget)?;
        if let Some(progress) = progress {
            progress.done.store(1, Ordering::Relaxed);
            progress.guesses.store(outcome.guesses, Ordering::Relaxed);
        }
        return Some(outcome.solutions);
    }
    let target = threads() * PARTS_PER_THREAD;
    let mut splitter = GeneralSolver::new(shape);
    let mut solved = 0u64;
    let mut frontier = vec![givens.to_vec()];
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
        return Some(limit);
    }
    if let Some(progress) = progress {
        progress
            .parts
            .store(frontier.len() as u64, Ordering::Relaxed);
    }
    let bounded = budget.deadline().is_some();
    let engine = || -> Box<dyn Solver> {
        if bounded {
            Box::new(GeneralSolver::new(shape))
        } else {
            solver_for(shape)
        }
    };
    let counts: Vec<Option<u64>> = frontier
        .par_iter()
        .map_init(engine, |solver, part| {
            let outcome = solver.solve_raw_until(part, limit, None, budget);
            if let Some(progress) = progress {
                progress.done.fetch_add(1, Ordering::Relaxed);
                let guesses = outcome.map_or(0, |o| o.guesses);
                progress.guesses.fetch_add(guesses, Ordering::Relaxed);
            }
            outcome.map(|outcome| outcome.solutions)
        })
        .collect();
    let rest = counts
        .into_iter()
        .try_fold(0u64, |sum, count| Some(sum.saturating_add(count?)))?;
    Some(solved.saturating_add(rest).min(limit))
}

/// An estimate of the number of solutions of `givens`, from `probes` random
/// descents of the search tree (Knuth's estimator: each descent follows one
/// random branch at every branch point and multiplies the branching factors
/// met; a descent that ends in a solution estimates the tree's solutions as
/// that product, one that ends in a contradiction as 0, and the mean of the
/// descents is an unbiased estimate). Cheap — a few hundred propagations —
/// and good to an order of magnitude on the sparse grids whose exact count
/// cannot finish, which is what it is for: warning before a hopeless count.
/// `seed` makes the estimate reproducible.
pub fn estimate_solutions(
    shape: Shape,
    givens: &[u8],
    probes: u32,
    seed: u64,
) -> Result<f64, InputError> {
    check_input(shape, givens, None)?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut splitter = GeneralSolver::new(shape);
    let mut total = 0.0;
    for _ in 0..probes {
        let mut weight = 1.0f64;
        let mut node = givens.to_vec();
        loop {
            match splitter.expand(&node) {
                Expansion::Contradiction => {
                    weight = 0.0;
                    break;
                }
                Expansion::Solved(_) => break,
                Expansion::Branches(mut branches) => {
                    weight *= branches.len() as f64;
                    node = branches.swap_remove(rng.gen_range(0..branches.len()));
                }
            }
        }
        total += weight;
    }
    Ok(total / f64::from(probes.max(1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spent_budget_gives_up_and_progress_counts_parts() {
        let shape = Shape::new(3, 3).unwrap();
        let empty = vec![0u8; 81];
        let spent = Budget::until(std::time::Instant::now());
        assert_eq!(
            count_solutions_until(shape, &empty, u64::MAX, &spent, None),
            Ok(None)
        );
        let six = Shape::new(2, 3).unwrap();
        let progress = CountProgress::default();
        let count = count_solutions_until(
            six,
            &[0; 36],
            u64::MAX,
            &Budget::unlimited(),
            Some(&progress),
        );
        assert_eq!(count, Ok(Some(28_200_960)));
        let parts = progress.parts.load(Ordering::Relaxed);
        assert!(parts > 0);
        assert_eq!(progress.done.load(Ordering::Relaxed), parts);
    }

    #[test]
    fn the_estimate_is_of_the_right_order() {
        // 288 4x4 grids, 28,200,960 6x6 grids, about 6.67e21 9x9 grids.
        let cases = [((2, 2), 288.0), ((2, 3), 28_200_960.0), ((3, 3), 6.67e21)];
        for ((rows, cols), exact) in cases {
            let shape = Shape::new(rows, cols).unwrap();
            let estimate = estimate_solutions(shape, &vec![0; shape.cell_count()], 200, 5).unwrap();
            let ratio = estimate / exact;
            assert!(
                (0.1..10.0).contains(&ratio),
                "{rows}x{cols}: {estimate:e} vs {exact:e}"
            );
        }
        // A puzzle without a solution estimates none.
        let mut contradiction = vec![0u8; 16];
        contradiction[0] = 1;
        contradiction[1] = 1;
        let shape = Shape::new(2, 2).unwrap();
        assert_eq!(estimate_solutions(shape, &contradiction, 20, 5), Ok(0.0));
    }
}
