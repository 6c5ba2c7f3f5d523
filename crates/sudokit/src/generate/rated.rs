//! [`RatingGate`]: how the generator holds a carved puzzle to a
//! [`RatingRange`], cheaply.
//!
//! Puzzles are rated by a solver [capped](crate::logic::Solver::capped) at
//! the range's top `B`: it leaves out every technique that could only step
//! above `B` and stops at the first step above it, so a puzzle that is too
//! hard costs little, and one within `B` gets its exact rating, the same as
//! an uncapped solver's.
//!
//! Only the end of each carving pass is rated. Steering the pass by
//! ratings was measured and lost (see the README): refusing every removal
//! that rates above `B`, or bisecting the removals of a pass that ended
//! above `B` for the last puzzle within it, needs fewer grids per puzzle
//! found (hard: 6.5 against 11.4) but makes several ratings per grid, and a
//! rating costs more than a whole carving pass; carving on to the end (the
//! hardest puzzle along the pass, as ratings tend to rise as clues go) and
//! rating once used 10–30% less CPU in every range measured, and its puzzles are
//! minimal.

use super::RatingRange;
use crate::grid::Puzzle;
use crate::logic::{Rating, Solver, TechniqueSet};

/// The rating side of one generator: the range and the solver that rates.
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

    /// The rating of `puzzle` (one solution); with an upper bound, one
    /// above it is not `solved` (so not in range). `None` only if the engine
    /// refuses the puzzle, which a generated one never gives cause to.
    pub(super) fn rate(&self, puzzle: &Puzzle) -> Option<Rating> {
        self.solver.rate(puzzle).ok()
    }
}
