//! The logic engine on variants: solving a jigsaw, X, windoku, anti-knight
//! or killer puzzle as a person does, one explained step at a time, and
//! rating it on Sudoku Explainer's scale.
//!
//! The techniques here are the ones that generalise from rows, columns and
//! boxes to any all-different *houses* and "these cells differ" relations
//! (the [`Constraints`] of the layout):
//!
//! - singles: full house and hidden single in every complete house (a
//!   region, a diagonal, a window …), naked single;
//! - cages: the digit sets a killer cage's sum allows, and the law of
//!   leftovers (a house's cells outside the cages it holds make the rest of
//!   its total) — [`Technique::Cage`];
//! - locked candidates: pointing and claiming between any two houses that
//!   cross, and a digit's places in a house that all see one cell (the
//!   anti-knight form);
//! - the jigsaw law of leftovers: `k` consecutive rows (or columns) and
//!   the `k` regions that most overlap them hold the same digits, so the
//!   few cells of one outside the other hold the same digits too —
//!   [`Technique::Leftovers`];
//! - naked subsets in every house (eliminating from every cell that sees
//!   the subset's cells of a digit), hidden subsets in complete houses;
//! - fish on rows and columns (X-Wing, Swordfish, Jellyfish);
//! - XY-Wing and XYZ-Wing through peers;
//! - alternating inference chains over the strong and weak links of the
//!   layout (bivalue cells, digits with two places in a house, peers);
//! - Nishio: a candidate whose placement leads through singles to a
//!   contradiction is false (the last resort).
//!
//! Difficulties are Sudoku Explainer's where SE has the technique; a cage
//! combination rates 2.0 and the laws of leftovers 2.8 (SE has neither).
//! The plain-Sudoku engine ([`crate::logic`]) has more techniques — the
//! uniqueness ones, multiple and nested forcing chains — whose patterns
//! assume rows, columns and boxes; a variant puzzle they would be needed
//! for ends `stuck`.
//!
//! ```
//! use sudokit::variant::{VariantLogic, VariantPuzzle};
//!
//! // A 4×4 Sudoku X: the diagonals lead the way.
//! let p: VariantPuzzle = ".2.3.4.......... variant=x".parse()?;
//! let rating = VariantLogic::new(p.layout()).rate(p.givens())?;
//! assert!(rating.solved);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod cages;
mod chains;
mod fish;
mod forcing;
mod grid;
mod leftovers;
mod locked;
mod singles;
mod subsets;
mod wings;

pub use self::grid::VariantGrid;

use std::ops::ControlFlow;
use std::sync::Arc;

use super::{solver_for_layout, Constraints, HouseKind, Layout};
use crate::budget::Budget;
use crate::grid::Puzzle;
use crate::logic::{
    walk_grid, Difficulty, LogicError, Rating, RatingTally, Sink, Step, Technique, TechniqueSet,
};
use crate::solver::Status;

/// The techniques of the variant engine, easiest first: the order a
/// [`VariantLogic`] tries them in.
pub const VARIANT_TECHNIQUES: [Technique; 18] = [
    Technique::HiddenSingle,
    Technique::Cage,
    Technique::NakedSingle,
    Technique::Intersection,
    Technique::Leftovers,
    Technique::NakedPair,
    Technique::XWing,
    Technique::HiddenPair,
    Technique::NakedTriple,
    Technique::Swordfish,
    Technique::HiddenTriple,
    Technique::XyWing,
    Technique::XyzWing,
    Technique::NakedQuad,
    Technique::Jellyfish,
    Technique::HiddenQuad,
    Technique::Aic,
    Technique::Nishio,
];

/// The layout's [`Constraints`] with what the techniques ask of them
/// most: whether two cells see each other.
#[derive(Debug)]
pub(crate) struct LogicTables {
    constraints: Arc<Constraints>,
    /// Bit `b` of row `a` (`words` words a row): cells `a` and `b` are peers.
    sees: Vec<u64>,
    words: usize,
    /// Bands of lines and regions leaving a few cells over.
    leftovers: Vec<leftovers::Equivalence>,
}

impl LogicTables {
    fn new(constraints: Arc<Constraints>) -> LogicTables {
        let cells = constraints.cell_count();
        let words = cells.div_ceil(64);
        let mut sees = vec![0u64; cells * words];
        for a in 0..cells {
            for &b in constraints.peers(a) {
                let b = usize::from(b);
                sees[a * words + b / 64] |= 1 << (b % 64);
            }
        }
        LogicTables {
            leftovers: leftovers::equivalences(&constraints),
            constraints,
            sees,
            words,
        }
    }

    /// Whether cells `a` and `b` must differ (distinct peers).
    fn sees(&self, a: usize, b: usize) -> bool {
        self.sees[a * self.words + b / 64] >> (b % 64) & 1 != 0
    }
}

/// Solves variant puzzles with the techniques of [`VARIANT_TECHNIQUES`]
/// (or a subset), one step at a time, and rates them as
/// [`crate::logic::Solver`] rates plain Sudoku: at each step the
/// techniques are tried in order and the first step found is applied.
#[derive(Clone, Debug)]
pub struct VariantLogic {
    layout: Layout,
    tables: Arc<LogicTables>,
    techniques: Vec<Technique>,
}

impl VariantLogic {
    /// The engine for puzzles on `layout`, with every technique it has.
    pub fn new(layout: &Layout) -> VariantLogic {
        let constraints = Arc::new(Constraints::new(layout));
        VariantLogic {
            layout: layout.clone(),
            tables: Arc::new(LogicTables::new(constraints)),
            techniques: VARIANT_TECHNIQUES.to_vec(),
        }
    }

    /// The same engine with the techniques of `set` that it has: all of
    /// them, in its own order, for [`TechniqueSet::Explainer`] and
    /// [`TechniqueSet::Human`]; the listed ones in the listed order for
    /// [`TechniqueSet::Only`].
    pub fn with_techniques(mut self, set: &TechniqueSet) -> VariantLogic {
        if let TechniqueSet::Only(list) = set {
            self.techniques = list
                .iter()
                .copied()
                .filter(|t| VARIANT_TECHNIQUES.contains(t))
                .collect();
        }
        self
    }

    /// The techniques tried, in order.
    pub fn techniques(&self) -> &[Technique] {
        &self.techniques
    }

    /// The pencil marks of `givens` on this layout, once it is checked to
    /// have exactly one solution.
    pub fn grid(&self, givens: &Puzzle) -> Result<VariantGrid, LogicError> {
        let grid = VariantGrid::new(Arc::clone(&self.tables), !self.layout.is_jigsaw(), givens)?;
        let found = solver_for_layout(&self.layout)
            .solve_raw(givens.cells(), 2, None)
            .solutions;
        match Status::from_count(found) {
            Status::Unique => Ok(grid),
            other => Err(LogicError::NotUnique(other)),
        }
    }

    /// The next step from `grid`, or `None` when no technique finds one
    /// (or `budget` ran out: the caller checks it).
    pub fn next_step(&self, grid: &VariantGrid, budget: &Budget) -> Option<Step> {
        let mut found = None;
        for &technique in &self.techniques {
            let _ = find(technique, grid, budget, &mut |step| {
                found = Some(step);
                ControlFlow::Break(())
            });
            if found.is_some() {
                break;
            }
        }
        found
    }

    /// The first step a person would take on `givens` (its hint).
    pub fn hint(&self, givens: &Puzzle) -> Result<Option<Step>, LogicError> {
        let grid = self.grid(givens)?;
        Ok(self.next_step(&grid, &Budget::unlimited()))
    }

    /// Every step from `givens` until it is solved or no technique applies,
    /// handing each to `visit` with the grid it applies to; the grid
    /// reached. Stops with [`LogicError::Timeout`] when `budget` runs out.
    pub fn walk(
        &self,
        givens: &Puzzle,
        budget: &Budget,
        visit: impl FnMut(&VariantGrid, &Step),
    ) -> Result<VariantGrid, LogicError> {
        let grid = self.grid(givens)?;
        walk_grid(grid, budget, |g| self.next_step(g, budget), visit)
    }

    /// The steps of a whole logical solution of `givens`, and the grid they
    /// leave (solved unless the techniques ran out).
    pub fn steps(&self, givens: &Puzzle) -> Result<(Vec<Step>, VariantGrid), LogicError> {
        let mut steps = Vec::new();
        let grid = self.walk(givens, &Budget::unlimited(), |_, s| steps.push(s.clone()))?;
        Ok((steps, grid))
    }

    /// The rating of `givens` (ER, EP, ED as [`Rating`] defines them).
    pub fn rate(&self, givens: &Puzzle) -> Result<Rating, LogicError> {
        self.rate_within(givens, &Budget::unlimited())
    }

    /// The rating of `givens`, or [`LogicError::Timeout`] when `budget`
    /// runs out first.
    pub fn rate_within(&self, givens: &Puzzle, budget: &Budget) -> Result<Rating, LogicError> {
        let mut tally = RatingTally::default();
        let grid = self.walk(givens, budget, |_, step| tally.record(step))?;
        Ok(tally.finish(grid.is_solved()))
    }
}

/// Looks for steps of `technique` in `grid`, reporting each to `sink`
/// until it breaks; techniques the variant engine lacks find nothing.
fn find(
    technique: Technique,
    grid: &VariantGrid,
    budget: &Budget,
    sink: &mut Sink<'_>,
) -> ControlFlow<()> {
    match technique {
        Technique::HiddenSingle => singles::hidden(grid, sink),
        Technique::NakedSingle => singles::naked(grid, sink),
        Technique::Cage => cages::find(grid, sink),
        Technique::Leftovers => leftovers::find(grid, sink),
        Technique::Intersection => locked::find(grid, sink),
        Technique::NakedPair => subsets::naked(grid, 2, sink),
        Technique::NakedTriple => subsets::naked(grid, 3, sink),
        Technique::NakedQuad => subsets::naked(grid, 4, sink),
        Technique::HiddenPair => subsets::hidden(grid, 2, sink),
        Technique::HiddenTriple => subsets::hidden(grid, 3, sink),
        Technique::HiddenQuad => subsets::hidden(grid, 4, sink),
        Technique::XWing => fish::basic(grid, 2, sink),
        Technique::Swordfish => fish::basic(grid, 3, sink),
        Technique::Jellyfish => fish::basic(grid, 4, sink),
        Technique::XyWing => wings::xy(grid, sink),
        Technique::XyzWing => wings::xyz(grid, sink),
        Technique::Aic => chains::find(grid, budget, sink),
        Technique::Nishio => forcing::nishio(grid, budget, sink),
        _ => ControlFlow::Continue(()),
    }
}

/// A step of `technique` named `name` at `difficulty`, with nothing placed
/// or eliminated yet: the technique fills in what it found and why.
fn step(
    grid: &VariantGrid,
    technique: Technique,
    name: impl Into<String>,
    difficulty: Difficulty,
) -> Step {
    Step {
        technique,
        name: name.into(),
        difficulty,
        placements: Vec::new(),
        eliminations: Vec::new(),
        cells: Vec::new(),
        reason: String::new(),
        side: grid.side(),
    }
}
