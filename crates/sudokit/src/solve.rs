//! One puzzle at a time: [`Puzzle::solve`], [`Puzzle::status`],
//! [`Puzzle::count`] and [`Puzzle::solutions`].
//!
//! These take a [`Puzzle`], whose cells were checked when it was made, so
//! they cannot be handed bad input and return plain answers. Each call picks
//! the fastest engine for the shape ([`solver_for`]) and sets it up afresh,
//! which costs microseconds (more for large grids); a loop over many puzzles
//! keeps one [`Solver`](crate::solver::Solver) instead.

use crate::grid::Puzzle;
use crate::solver::count::count_raw;
use crate::solver::general::{Expansion, GeneralSolver};
use crate::solver::{solver_for, Status};

impl Puzzle {
    /// A solution: the only one when the puzzle is unique, the first the
    /// engine finds when there are several, `None` when there is none
    /// (including givens that contradict each other).
    pub fn solve(&self) -> Option<Puzzle> {
        let mut out = vec![0; self.cells().len()];
        let found = solver_for(self.shape())
            .solve_raw(self.cells(), 1, Some(&mut out))
            .solutions;
        (found > 0).then(|| self.with_cells(out))
    }

    /// Whether the puzzle has no solution, exactly one, or several.
    pub fn status(&self) -> Status {
        let found = solver_for(self.shape())
            .solve_raw(self.cells(), 2, None)
            .solutions;
        Status::from_count(found)
    }

    /// The number of solutions, counting no further than `limit`: a result
    /// equal to `limit` means "at least `limit`" (print it as `>=limit`).
    /// `u64::MAX` counts them all (the empty 6×6 grid has 28,200,960); a
    /// limit of 0 counts as 1. With the `parallel` feature the count is spread
    /// over every core.
    pub fn count(&self, limit: u64) -> u64 {
        count_raw(self.shape(), self.cells(), limit)
    }

    /// Up to `limit` distinct solutions, in a fixed order (the same on every
    /// run); fewer when the puzzle has fewer.
    ///
    /// A depth-first search that propagates singles at every node and splits
    /// on the most constrained cell, so that each solution costs a few
    /// propagations: thousands of solutions of a 9×9 take milliseconds.
    pub fn solutions(&self, limit: usize) -> Vec<Puzzle> {
        let mut found = Vec::new();
        if limit == 0 {
            return found;
        }
        let mut splitter = GeneralSolver::new(self.shape());
        // Branches are pushed in reverse so that the smallest digit is
        // explored first; their solution sets are disjoint, so every
        // solution is found once.
        let mut open = vec![self.cells().to_vec()];
        while let Some(part) = open.pop() {
            match splitter.expand(&part) {
                Expansion::Contradiction => {}
                Expansion::Solved(grid) => {
                    found.push(self.with_cells(grid));
                    if found.len() >= limit {
                        break;
                    }
                }
                Expansion::Branches(branches) => open.extend(branches.into_iter().rev()),
            }
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use crate::grid::{Puzzle, Shape};
    use crate::solver::reference::ReferenceSolver;
    use crate::solver::{Solver, Status};
    use std::collections::HashSet;

    #[test]
    fn the_empty_4x4_grid_has_288_distinct_solutions() {
        let empty = Puzzle::empty(Shape::new(2, 2).unwrap());
        assert_eq!(empty.count(u64::MAX), 288);
        assert_eq!(empty.count(10), 10);
        assert_eq!(empty.status(), Status::Multiple);
        let all = empty.solutions(1000);
        assert_eq!(all.len(), 288);
        assert!(all.iter().all(|s| empty.is_solved_by(s)));
        assert_eq!(all.iter().collect::<HashSet<_>>().len(), 288);
        assert_eq!(empty.solutions(5), all[..5]);
        assert!(empty.solutions(0).is_empty());
        assert!(empty.is_solved_by(&empty.solve().unwrap()));
    }

    #[test]
    fn agrees_with_the_reference_on_every_small_shape() {
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(14);
        // Clue counts low enough for many solutions, high enough for the
        // reference to count them all quickly.
        let cases = [
            (1, 3, [0, 2, 4]),
            (2, 2, [0, 4, 8]),
            (1, 4, [0, 5, 9]),
            (2, 3, [16, 20, 26]),
            (3, 2, [16, 20, 26]),
        ];
        for (rows, cols, clue_counts) in cases {
            let shape = Shape::new(rows, cols).unwrap();
            let mut reference = ReferenceSolver::new(shape);
            for clues in clue_counts {
                let p = crate::generate::random_puzzle(shape, clues, 0.3, &mut rng);
                let want = reference.solve(p.cells(), u64::MAX, None).unwrap();
                assert_eq!(p.count(u64::MAX), want.solutions, "{p}");
                assert_eq!(p.status(), Status::from_count(want.solutions), "{p}");
                let all = p.solutions(usize::MAX);
                assert_eq!(all.len() as u64, want.solutions, "{p}");
                assert!(all.iter().all(|s| p.is_solved_by(s)), "{p}");
                assert_eq!(all.iter().collect::<HashSet<_>>().len(), all.len());
                match p.solve() {
                    Some(s) => assert!(p.is_solved_by(&s)),
                    None => assert_eq!(want.solutions, 0),
                }
            }
        }
    }
}
