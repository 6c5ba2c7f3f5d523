//! [`RatingGate`]: how the generator holds a puzzle to a [`RatingRange`]
//! while it carves.
//!
//! With an upper bound `B`, puzzles are rated by a solver
//! [capped](crate::logic::Solver::capped) at `B`: it leaves out every
//! technique that could only step above `B` and stops at the first step
//! above it, so a puzzle that fails costs little, and one that passes gets
//! its exact rating, the same as an uncapped solver's.
//!
//! Rating every removal of a pass would cost some fifty ratings, most of
//! them of easy puzzles far from the bound. Ratings tend to rise as clues
//! go, so the generator first carves freely and rates only the end; if it
//! is above `B`, [`RatingGate::back_off`] bisects the removals for the last
//! puzzle still within `B` (a handful of ratings), and the pass goes on from
//! there over the orbits it had not visited yet, now rating each removal
//! and refusing those that would rate above `B` or get the techniques
//! stuck. The pass so ends at a puzzle still within `B`, which is kept if it
//! reaches the lower bound. With no upper bound, carving goes as far as it
//! can (the best chance of a high rating) and only the result is rated.

use super::RatingRange;
use crate::grid::Puzzle;
use crate::logic::{Rating, Solver, TechniqueSet};

/// The rating side of one generator: the range and the solvers that rate.
pub(super) struct RatingGate {
    /// The target.
    range: RatingRange,
    /// Sudoku Explainer's techniques, capped at the upper bound if any.
    solver: Solver,
}

impl RatingGate {
    /// A gate for `range`.
    pub(super) fn new(range: RatingRange) -> RatingGate {
        let solver = Solver::new(TechniqueSet::Explainer);
        RatingGate {
            range,
            solver: match range.max {
                Some(max) => solver.capped(max),
                None => solver,
            },
        }
    }

    /// The target.
    pub(super) fn range(&self) -> RatingRange {
        self.range
    }

    /// Whether carving is steered: only with an upper bound.
    pub(super) fn steers(&self) -> bool {
        self.range.max.is_some()
    }

    /// The rating of `puzzle` (one solution) if it could still end in range
    /// by removing clues: solved with no step above the upper bound. Only
    /// for a gate that [steers](Self::steers).
    pub(super) fn admit(&self, puzzle: &Puzzle) -> Option<Rating> {
        self.rate(puzzle).filter(|r| r.solved)
    }

    /// The rating of `puzzle` (one solution); with an upper bound, one
    /// above it is not `solved`. `None` only if the engine refuses the
    /// puzzle, which a generated one never gives cause to.
    pub(super) fn rate(&self, puzzle: &Puzzle) -> Option<Rating> {
        self.solver.rate(puzzle).ok()
    }

    /// After a free pass that blanked the orbits at `removed` (positions in
    /// `order`) of `solution`: the end's rating if it is within the upper
    /// bound, else the last puzzle along the pass found within it by
    /// bisection, and where in `order` to go on from.
    pub(super) fn back_off(
        &self,
        solution: &Puzzle,
        orbits: &[Vec<usize>],
        order: &[usize],
        removed: &[usize],
    ) -> BackOff {
        // The puzzle after the first `j` removals of the pass.
        let after = |j: usize| -> Puzzle {
            let mut puzzle = solution.clone();
            for &position in &removed[..j] {
                for &cell in &orbits[order[position]] {
                    puzzle.cells_mut()[cell] = 0;
                }
            }
            puzzle
        };
        if let Some(rating) = self.admit(&after(removed.len())) {
            return BackOff::Within(rating);
        }
        // The full grid (no removal) is within any bound; the end is not.
        let (mut within, mut above, mut rating) = (0, removed.len(), None);
        while above - within > 1 {
            let middle = (within + above) / 2;
            match self.admit(&after(middle)) {
                Some(r) => (within, rating) = (middle, Some(r)),
                None => above = middle,
            }
        }
        BackOff::To {
            cells: after(within).cells().to_vec(),
            from: removed[within] + 1,
            rating,
        }
    }
}

/// Where [`RatingGate::back_off`] leaves a pass.
pub(super) enum BackOff {
    /// The end of the pass is within the upper bound; its rating.
    Within(Rating),
    /// It is not: go on from these clues over the orbits from position
    /// `from` of the order, with the clues' rating if one was made (none
    /// for the full grid).
    To {
        /// The clues of the last puzzle found within the bound.
        cells: Vec<u8>,
        /// The position in the order after the removal that went above.
        from: usize,
        /// The rating of `cells`, when made.
        rating: Option<Rating>,
    },
}
