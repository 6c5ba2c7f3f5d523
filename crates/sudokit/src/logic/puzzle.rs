//! The logic engine's one-call surface on [`Puzzle`]: its rating and its
//! next step, without building a [`Solver`] by hand.

use super::{LogicError, Rating, Solver, Step, TechniqueSet};
use crate::grid::Puzzle;

impl Puzzle {
    /// The puzzle's rating on Sudoku Explainer's scale (ER/EP/ED), with
    /// SE's techniques in SE's order.
    ///
    /// ```
    /// let p: sudokit::Puzzle = "*314*******1**356**621**3*******561*".parse()?;
    /// let rating = p.rate()?;
    /// assert!(rating.solved);
    /// assert_eq!(rating.ed.to_string(), "1.2"); // a hidden single in a box
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn rate(&self) -> Result<Rating, LogicError> {
        Solver::new(TechniqueSet::Explainer).rate(self)
    }

    /// The step a person would take next (every technique, easiest first),
    /// or `None` when none applies.
    ///
    /// ```
    /// let p: sudokit::Puzzle = "*314*******1**356**621**3*******561*".parse()?;
    /// let step = p.hint()?.expect("a hidden single");
    /// assert_eq!(
    ///     step.to_string(),
    ///     "Hidden Single: 6 in box 2 can only go in r1c6 => r1c6=6"
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn hint(&self) -> Result<Option<Step>, LogicError> {
        Solver::new(TechniqueSet::Human).hint(self)
    }
}
