//! [`SatSolver`]: any grid as a CNF formula for CaDiCaL, a CDCL SAT solver
//! (built from its C++ source by the `cadical` crate; the `sat` feature).
//!
//! Clause learning is what the propagate-and-branch engines lack: on large
//! grids about half full (36×36 with 650–700 clues), refuting a puzzle whose
//! clues clash only deep down takes the general engine minutes, and CaDiCaL
//! seconds. The general engine is far faster everywhere else, so
//! [`solver_for`](super::solver_for) runs both as a portfolio for the large
//! shapes ([`super::portfolio`]); `--engine sat` runs this one alone.
//!
//! The encoding keeps only what the givens leave open: variable
//! `N·cell + d + 1` means "digit `d + 1` in `cell`", and only the candidates
//! the givens allow (a given's own digit; no digit a peer gives) get
//! clauses: each cell takes at least one and at most one of its candidates,
//! each unit holds each digit at least once and at most once among the cells
//! that can hold it. Solutions are counted by adding, after each, a clause
//! that rules it out; when the question is "one or several?" (limit 2), the
//! first solution is first checked for a two-digit exchange that gives a
//! second one at once (`SatSolver::swapped`).

use cadical::Callbacks;

use super::raw::RawSolver;
use super::{Outcome, Solver};
use crate::budget::Budget;
use crate::grid::{Geometry, Shape};

/// CaDiCaL's option set for formulas expected to be satisfiable (longer
/// stable phases, target phases), instead of its default balance between
/// satisfiable and unsatisfiable ones. The puzzles the portfolio sends here
/// are mostly satisfiable (a large grid about half full, with several
/// solutions). Measured with the `large` bench (2026-12-07, runs before and
/// after): 150 random 25×25 puzzles with 280 clues 7.7–8.2 s → 5.8 s, with
/// 260 clues 4.4–6.3 s → 3.9–4.0 s, with 300 clues level (about 4.5 s);
/// 20 random 36×36 with 700 clues 2.9–3.1 s → 1.9–2.0 s; the slowest puzzle
/// of each set about halved; with 650 clues 14 of 20 answered within 20 s
/// each instead of 11. A name CaDiCaL did not know would fall back to its
/// defaults (a test checks that it knows this one).
const CONFIG: &str = "sat";

/// CaDiCaL's periodic "should I stop?" question, answered by a [`Budget`].
struct Stop(Budget);

impl Callbacks for Stop {
    fn terminate(&mut self) -> bool {
        self.0.is_spent()
    }
}

/// The SAT engine for any shape.
#[derive(Clone, Debug)]
pub struct SatSolver {
    geometry: Geometry,
}

impl SatSolver {
    /// A solver for `shape`.
    pub fn new(shape: Shape) -> SatSolver {
        SatSolver {
            geometry: Geometry::new(shape),
        }
    }

    /// The cells of unit `u`.
    fn unit(&self, u: usize) -> impl Iterator<Item = usize> + '_ {
        self.geometry.unit(u).iter().map(|&c| usize::from(c))
    }

    /// The row, column and box units of `cell`.
    fn units_of(&self, cell: usize) -> impl Iterator<Item = usize> {
        self.geometry.units_of(cell).into_iter().map(usize::from)
    }

    /// Each cell's candidates (bit `d` = digit `d + 1`) as the givens leave
    /// them; `None` when a blank cell has none left.
    fn candidates(&self, givens: &[u8]) -> Option<Vec<u64>> {
        let n = self.geometry.shape().side();
        let every = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        // The digits given in each unit.
        let used: Vec<u64> = (0..self.geometry.unit_count())
            .map(|u| {
                self.unit(u)
                    .filter(|&c| givens[c] != 0)
                    .fold(0, |m, c| m | 1 << (givens[c] - 1))
            })
            .collect();
        givens
            .iter()
            .enumerate()
            .map(|(cell, &v)| {
                if v != 0 {
                    return Some(1 << (v - 1));
                }
                let taken = self.units_of(cell).fold(0, |m, u| m | used[u]);
                let open = every & !taken;
                (open != 0).then_some(open)
            })
            .collect()
    }

    /// Counts up to `limit` solutions; `None` once `budget` is spent.
    fn count(
        &self,
        givens: &[u8],
        limit: u64,
        mut solution: Option<&mut [u8]>,
        budget: &Budget,
    ) -> Option<Outcome> {
        let mut outcome = Outcome::default();
        let Some(cands) = self.candidates(givens) else {
            return Some(outcome);
        };
        let n = self.geometry.shape().side();
        let var = |cell: usize, d: usize| (n * cell + d + 1) as i32;
        let digits = |set: u64| (0..n).filter(move |&d| set >> d & 1 == 1);
        let mut sat: cadical::Solver<Stop> =
            cadical::Solver::with_config(CONFIG).unwrap_or_else(|_| cadical::Solver::new());
        sat.set_callbacks(Some(Stop(budget.clone())));
        for (cell, &set) in cands.iter().enumerate() {
            sat.add_clause(digits(set).map(|d| var(cell, d)));
            for d in digits(set) {
                for e in digits(set >> (d + 1) << (d + 1)) {
                    sat.add_clause([-var(cell, d), -var(cell, e)]);
                }
            }
        }
        let mut holders = Vec::with_capacity(n);
        for u in 0..self.geometry.unit_count() {
            for d in 0..n {
                holders.clear();
                holders.extend(self.unit(u).filter(|&c| cands[c] >> d & 1 == 1));
                sat.add_clause(holders.iter().map(|&c| var(c, d)));
                for (i, &a) in holders.iter().enumerate() {
                    for &b in &holders[i + 1..] {
                        sat.add_clause([-var(a, d), -var(b, d)]);
                    }
                }
            }
        }
        let mut grid = vec![0u8; n * n];
        while outcome.solutions < limit {
            match sat.solve() {
                None => return None,
                Some(false) => break,
                Some(true) => {
                    for (cell, &set) in cands.iter().enumerate() {
                        let d = digits(set)
                            .find(|&d| sat.value(var(cell, d)) == Some(true))
                            .expect("a model gives every cell a candidate");
                        grid[cell] = d as u8 + 1;
                    }
                    if let Some(out) = solution.take() {
                        out.copy_from_slice(&grid);
                    }
                    outcome.solutions += 1;
                    if outcome.solutions == 1 && limit == 2 && self.swapped(givens, &grid) {
                        // A second solution by exchanging two digits.
                        outcome.solutions = 2;
                        break;
                    }
                    // The next solution differs somewhere.
                    sat.add_clause(
                        grid.iter()
                            .enumerate()
                            .map(|(cell, &v)| -var(cell, usize::from(v) - 1)),
                    );
                }
            }
        }
        Some(outcome)
    }

    /// Whether exchanging two digits on some open cells of `grid` (a
    /// solution of `givens`) gives another solution.
    ///
    /// On large grids about half full, the second solution CDCL is asked for
    /// after a blocking clause can take minutes to find (or to refute) even
    /// when it differs from the first in a few cells. The commonest such
    /// difference is a two-digit exchange: open cells holding `a` or `b`
    /// where every unit holds either both or neither. Those cells are found
    /// per pair of digits by repeatedly dropping any cell whose row, column
    /// or box lacks its partner among the open cells; whatever survives is
    /// such a set, and its exchange is a solution.
    fn swapped(&self, givens: &[u8], grid: &[u8]) -> bool {
        let n = self.geometry.shape().side() as u8;
        let mut cells = Vec::new();
        let mut alive = vec![false; grid.len()];
        for a in 1..=n {
            for b in a + 1..=n {
                cells.clear();
                cells.extend(
                    (0..grid.len()).filter(|&c| givens[c] == 0 && (grid[c] == a || grid[c] == b)),
                );
                for &c in &cells {
                    alive[c] = true;
                }
                loop {
                    let before = cells.len();
                    cells.retain(|&c| {
                        let partnered = self
                            .units_of(c)
                            .all(|u| self.unit(u).any(|o| alive[o] && grid[o] != grid[c]));
                        alive[c] = partnered;
                        partnered
                    });
                    if cells.len() == before {
                        break;
                    }
                }
                for &c in &cells {
                    alive[c] = false;
                }
                if !cells.is_empty() {
                    return true;
                }
            }
        }
        false
    }
}

impl Solver for SatSolver {
    fn shape(&self) -> Shape {
        self.geometry.shape()
    }
}

impl RawSolver for SatSolver {
    fn solve_raw(&mut self, givens: &[u8], limit: u64, solution: Option<&mut [u8]>) -> Outcome {
        self.count(givens, limit.max(1), solution, &Budget::unlimited())
            .expect("an unlimited budget is never spent")
    }

    fn solve_raw_until(
        &mut self,
        givens: &[u8],
        limit: u64,
        solution: Option<&mut [u8]>,
        budget: &Budget,
    ) -> Option<Outcome> {
        self.count(givens, limit.max(1), solution, budget)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A CaDiCaL that no longer knew [`CONFIG`] would run with its defaults
    /// without a word: this makes that a failure instead.
    #[test]
    fn cadical_knows_the_configuration() {
        assert!(cadical::Solver::<Stop>::with_config(CONFIG).is_ok());
        assert!(cadical::Solver::<Stop>::with_config("no-such-configuration").is_err());
    }
}
