//! [`RatingGate`]: how the generator holds a puzzle to a [`RatingRange`]
//! while it carves.
//!
//! With an upper bound `B`, every removal that keeps the solution unique is
//! rated at once by a solver [capped](crate::logic::Solver::capped) at `B`,
//! and refused when the puzzle would rate above `B` or the techniques get
//! stuck. The capped solver leaves out every technique that could only
//! step above `B` and stops at the first step above it, so a puzzle that
//! fails costs little; one that passes gets its exact rating, the same as
//! an uncapped solver's. The pass so ends at a puzzle still within `B`
//! (ratings tend to rise as clues go), which is kept if it reaches the
//! lower bound. With no upper bound, carving goes on as far as it can (the
//! best chance of a high rating) and only the result is rated.

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
}
