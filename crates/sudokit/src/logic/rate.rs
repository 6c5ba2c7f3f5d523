//! [`Solver`]: applies techniques one step at a time, as Sudoku Explainer
//! does, and rates the puzzle ([`Rating`]).

use std::ops::ControlFlow;

use super::{Candidates, Contradiction, Difficulty, Step, Technique};
use crate::budget::Budget;
use crate::grid::Puzzle;
use crate::solver::Status;

/// Which techniques a [`Solver`] may use, in the order it tries them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TechniqueSet {
    /// Sudoku Explainer's hint producers in SE's order: ratings on SE's
    /// scale, equal to SE's own where the engine matches it.
    Explainer,
    /// Every technique, easiest first: the steps a person would take.
    Human,
    /// These techniques only, in this order ("singles only" is
    /// `[HiddenSingle, NakedSingle]`).
    Only(Vec<Technique>),
}

impl TechniqueSet {
    /// The techniques of the set, in the order they are tried.
    pub fn techniques(&self) -> Vec<Technique> {
        match self {
            TechniqueSet::Explainer => Technique::EXPLAINER.to_vec(),
            TechniqueSet::Human => Technique::HUMAN.to_vec(),
            TechniqueSet::Only(list) => list.clone(),
        }
    }
}

/// Why a puzzle cannot be rated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LogicError {
    /// The givens break a rule.
    #[error(transparent)]
    Contradiction(#[from] Contradiction),
    /// No solution or several: logic (and uniqueness techniques above all)
    /// needs exactly one.
    #[error("the puzzle has {} solution", if *.0 == Status::None { "no" } else { "more than one" })]
    NotUnique(Status),
    /// The time budget ran out before the rating was complete.
    #[error("timed out")]
    Timeout,
}

/// A puzzle's rating on Sudoku Explainer's scale.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rating {
    /// ER: the hardest step's difficulty.
    pub er: Difficulty,
    /// EP: the hardest step up to and including the first step that places
    /// a digit.
    pub ep: Difficulty,
    /// ED: the first step's difficulty.
    pub ed: Difficulty,
    /// Whether the techniques solved the puzzle; `false` means they ran out
    /// of steps (ER is then the hardest step taken before that).
    pub solved: bool,
    /// Steps taken.
    pub steps: usize,
    /// The hardest step's pattern name (`None` for a full grid).
    pub hardest: Option<String>,
}

/// Solves with a set of techniques, one step at a time: at each step the
/// techniques are tried in order and the first step found is applied.
#[derive(Clone, Debug)]
pub struct Solver {
    techniques: Vec<Technique>,
    /// Steps harder than this are not taken ([`Solver::capped`]).
    cap: Option<Difficulty>,
}

impl Solver {
    /// A solver with the techniques of `set`.
    pub fn new(set: TechniqueSet) -> Solver {
        Solver {
            techniques: set.techniques(),
            cap: None,
        }
    }

    /// The same solver, stopping as if stuck when the next step would be
    /// harder than `max`: a rating then reports `solved: false`. So a
    /// capped rating is solved exactly when the uncapped one is solved with
    /// ER ≤ `max`, and it is cheap for puzzles above `max` (the generator's
    /// rating target rejects those early).
    ///
    /// The techniques from the first one whose
    /// [least difficulty](Technique::least_difficulty) is above `max` on are
    /// dropped: any step they find would be above it.
    pub fn capped(mut self, max: Difficulty) -> Solver {
        if let Some(end) = self
            .techniques
            .iter()
            .position(|t| t.least_difficulty() > max)
        {
            self.techniques.truncate(end);
        }
        self.cap = Some(self.cap.map_or(max, |cap| cap.min(max)));
        self
    }

    /// The techniques tried, in order.
    pub fn techniques(&self) -> &[Technique] {
        &self.techniques
    }

    /// The next step from `grid`, or `None` when no technique finds one (or,
    /// for a [capped](Solver::capped) solver, when the step is above the cap).
    pub fn next_step(&self, grid: &Candidates) -> Option<Step> {
        self.next_step_within(grid, &Budget::unlimited())
    }

    /// The next step from `grid`, the techniques giving up once `budget`
    /// is spent (a step found then may come from a partial search: the
    /// caller checks the budget before trusting it).
    fn next_step_within(&self, grid: &Candidates, budget: &Budget) -> Option<Step> {
        let mut found = None;
        for &t in &self.techniques {
            let _ = t.find_within(grid, budget, &mut |step| {
                found = Some(step);
                ControlFlow::Break(())
            });
            if found.is_some() {
                break;
            }
        }
        found.filter(|step| self.cap.is_none_or(|cap| step.difficulty <= cap))
    }

    /// The first step a person would take on `puzzle` (its hint).
    pub fn hint(&self, puzzle: &Puzzle) -> Result<Option<Step>, LogicError> {
        let grid = checked_grid(puzzle)?;
        Ok(self.next_step(&grid))
    }

    /// Every step from `puzzle` until it is solved or no technique applies,
    /// handing each to `visit` with the grid it applies to. Stops with
    /// [`LogicError::Timeout`] when `budget` runs out.
    pub fn walk(
        &self,
        puzzle: &Puzzle,
        budget: &Budget,
        visit: impl FnMut(&Candidates, &Step),
    ) -> Result<Candidates, LogicError> {
        let grid = checked_grid(puzzle)?;
        walk_grid(grid, budget, |g| self.next_step_within(g, budget), visit)
    }

    /// The steps of a whole logical solution of `puzzle`, and the grid they
    /// leave (solved unless the techniques ran out).
    pub fn steps(&self, puzzle: &Puzzle) -> Result<(Vec<Step>, Candidates), LogicError> {
        let mut steps = Vec::new();
        let grid = self.walk(puzzle, &Budget::unlimited(), |_, s| steps.push(s.clone()))?;
        Ok((steps, grid))
    }

    /// The rating of `puzzle` ([`Rating`]).
    pub fn rate(&self, puzzle: &Puzzle) -> Result<Rating, LogicError> {
        self.rate_within(puzzle, &Budget::unlimited())
    }

    /// The rating of `puzzle`, or [`LogicError::Timeout`] when `budget` runs
    /// out first.
    pub fn rate_within(&self, puzzle: &Puzzle, budget: &Budget) -> Result<Rating, LogicError> {
        let mut tally = RatingTally::default();
        let grid = self.walk(puzzle, budget, |_, step| tally.record(step))?;
        Ok(tally.finish(grid.is_solved()))
    }
}

/// A grid the logic engines take step by step: the plain [`Candidates`]
/// and the variants' grid.
pub(crate) trait StepGrid {
    /// Whether every cell has a value.
    fn is_solved(&self) -> bool;
    /// Applies a step: its placements, then its eliminations.
    fn apply(&mut self, step: &Step);
}

impl StepGrid for Candidates {
    fn is_solved(&self) -> bool {
        Candidates::is_solved(self)
    }

    fn apply(&mut self, step: &Step) {
        Candidates::apply(self, step);
    }
}

/// Takes `grid` one step at a time (`next`) until it is solved or no step
/// is found, handing each step to `visit` with the grid it applies to;
/// [`LogicError::Timeout`] when `budget` runs out.
pub(crate) fn walk_grid<G: StepGrid>(
    mut grid: G,
    budget: &Budget,
    next: impl Fn(&G) -> Option<Step>,
    mut visit: impl FnMut(&G, &Step),
) -> Result<G, LogicError> {
    while !grid.is_solved() {
        let step = next(&grid);
        // A search cut short may have missed the step SE would take
        // (one clock read per step: the searches that can run long
        // check the budget themselves).
        if budget.is_spent() {
            return Err(LogicError::Timeout);
        }
        let Some(step) = step else {
            break;
        };
        visit(&grid, &step);
        grid.apply(&step);
    }
    Ok(grid)
}

/// A [`Rating`] in the making, step by step (the variant logic engine
/// rates the same way).
#[derive(Default)]
pub(crate) struct RatingTally {
    rating: Rating,
    placed_yet: bool,
}

impl RatingTally {
    /// Counts `step`, the next step taken.
    pub(crate) fn record(&mut self, step: &Step) {
        let rating = &mut self.rating;
        if rating.steps == 0 {
            rating.ed = step.difficulty;
        }
        rating.steps += 1;
        if step.difficulty > rating.er || rating.hardest.is_none() {
            rating.er = rating.er.max(step.difficulty);
            rating.hardest = Some(step.name.clone());
        }
        if !self.placed_yet {
            rating.ep = rating.er;
            self.placed_yet = step.places();
        }
    }

    /// The rating, once the steps end (`solved` when the grid is full).
    pub(crate) fn finish(mut self, solved: bool) -> Rating {
        self.rating.solved = solved;
        self.rating
    }
}

/// The pencil marks of a puzzle that has exactly one solution.
fn checked_grid(puzzle: &Puzzle) -> Result<Candidates, LogicError> {
    let grid = Candidates::new(puzzle)?;
    match puzzle.status() {
        Status::Unique => Ok(grid),
        other => Err(LogicError::NotUnique(other)),
    }
}
