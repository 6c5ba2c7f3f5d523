//! Sudoku variants as data: jigsaw regions, diagonals (X), windoku,
//! disjoint groups, anti-knight and anti-king, extra groups and killer cages.
//!
//! A [`Layout`] says which cells must differ and which cages must make which
//! sums; [`Constraints`] turns it into the flat tables every variant engine
//! reads, so a new variant is new data, not a new solver. Two engines read
//! them: [`VariantSolver`] (propagation and search, every layout) and
//! [`DlxSolver`] (dancing links, Knuth's Algorithm X).
//!
//! A [`VariantPuzzle`] is givens on a layout; it parses from one line, the
//! cells followed by layout fields ([`text`]):
//!
//! ```
//! use sudokit::variant::VariantPuzzle;
//! use sudokit::Status;
//!
//! // A 4×4 Sudoku X: both diagonals hold 1 to 4 too.
//! let p: VariantPuzzle = ".2.3.4.......... variant=x".parse()?;
//! assert_eq!(p.status(), Status::Unique);
//! let s = p.solve().unwrap();
//! assert!(p.is_solved_by(&s));
//! // The same givens without the diagonals have several solutions.
//! let plain: VariantPuzzle = ".2.3.4..........".parse()?;
//! assert_eq!(plain.status(), Status::Multiple);
//! # Ok::<(), sudokit::ParseError>(())
//! ```

mod dlx;
mod engine;
pub mod fpuzzles;
pub mod generate;
mod layout;
pub mod logic;
mod tables;
pub mod text;

pub use self::dlx::DlxSolver;
pub use self::engine::VariantSolver;
pub use self::layout::{
    Cage, Layout, LayoutError, Rule, Rules, UnknownRule, MAX_CAGE_COMBINATIONS,
};
pub use self::logic::{VariantGrid, VariantLogic, VARIANT_TECHNIQUES};
pub use self::tables::{CageTable, Constraints, HouseKind, Overlap, SumOrigin};

use std::fmt;
use std::str::FromStr;

use crate::grid::{Puzzle, Shape};
use crate::parse::{classify, Format, Line, ParseError};
use crate::solver::{solver_for, Solver, Status};

/// Givens on a [`Layout`]: a puzzle of any variant.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct VariantPuzzle {
    layout: Layout,
    givens: Puzzle,
}

/// The fastest engine for `layout`: the classic engines ([`solver_for`])
/// for plain Sudoku, the variant engine otherwise.
pub fn solver_for_layout(layout: &Layout) -> Box<dyn Solver> {
    if layout.is_classic() {
        solver_for(layout.shape())
    } else {
        Box::new(VariantSolver::new(layout))
    }
}

impl VariantPuzzle {
    /// Givens on `layout`; `None` if their shape is not the layout's.
    pub fn new(layout: Layout, givens: Puzzle) -> Option<VariantPuzzle> {
        (givens.shape() == layout.shape()).then_some(VariantPuzzle { layout, givens })
    }

    /// The layout.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The givens.
    pub fn givens(&self) -> &Puzzle {
        &self.givens
    }

    /// Reads a puzzle line's cells with `format` and its layout fields
    /// (everything after the cells) onto `base` (`Layout::classic` of the
    /// format's shape, or one with rules every line shares).
    pub fn parse_line(
        format: &Format,
        base: &Layout,
        cells: &[u8],
        fields: &str,
    ) -> Result<VariantPuzzle, ParseError> {
        let givens = format.parse(cells)?;
        let layout = text::apply_fields(base.clone(), fields)?;
        Ok(VariantPuzzle::new(layout, givens).expect("the format and the layout share a shape"))
    }

    /// A solution (the first found when there are several), `None` when
    /// there is none.
    pub fn solve(&self) -> Option<Puzzle> {
        let mut out = vec![0; self.givens.cells().len()];
        let found = solver_for_layout(&self.layout)
            .solve_raw(self.givens.cells(), 1, Some(&mut out))
            .solutions;
        (found > 0).then(|| Puzzle::new(self.givens.shape(), out).expect("solutions are in range"))
    }

    /// Unique, none or multiple.
    pub fn status(&self) -> Status {
        Status::from_count(self.count(2))
    }

    /// The number of solutions, up to `limit` (a result equal to `limit`
    /// means "at least").
    pub fn count(&self, limit: u64) -> u64 {
        solver_for_layout(&self.layout)
            .solve_raw(self.givens.cells(), limit, None)
            .solutions
    }

    /// Up to `limit` distinct solutions, in a fixed order (the same on every
    /// run); fewer when the puzzle has fewer.
    pub fn solutions(&self, limit: usize) -> Vec<Puzzle> {
        VariantSolver::new(&self.layout)
            .solutions(self.givens.cells(), limit)
            .expect("the givens fit the layout's shape")
            .into_iter()
            .map(|grid| Puzzle::new(self.givens.shape(), grid).expect("solutions are in range"))
            .collect()
    }

    /// Whether `solution` is complete, keeps every given and every
    /// constraint of the layout.
    pub fn is_solved_by(&self, solution: &Puzzle) -> bool {
        solution.shape() == self.givens.shape()
            && self
                .givens
                .cells()
                .iter()
                .zip(solution.cells())
                .all(|(&g, &v)| g == 0 || g == v)
            && Constraints::new(&self.layout).is_solution(solution.cells())
    }
}

impl FromStr for VariantPuzzle {
    type Err = ParseError;

    /// One line: an optional `id:`, the cells (their count gives the size,
    /// default symbols and boxes, as [`Puzzle`] reads them), then the layout
    /// fields of [`text`]. Fields of other kinds are ignored.
    fn from_str(line: &str) -> Result<VariantPuzzle, ParseError> {
        let trimmed = line.trim();
        let (cells, rest) = match classify(trimmed.as_bytes()) {
            Line::Puzzle { cells, .. } => {
                let start = cells.as_ptr() as usize - trimmed.as_ptr() as usize;
                (cells, &trimmed[start + cells.len()..])
            }
            Line::Skip | Line::End => (trimmed.as_bytes(), ""),
        };
        let count = String::from_utf8_lossy(cells).chars().count();
        let shape = Shape::for_cell_count(count)?;
        let format = Format::new(shape, None).map_err(ParseError::Alphabet)?;
        VariantPuzzle::parse_line(&format, &Layout::classic(shape), cells, rest)
    }
}

impl fmt::Display for VariantPuzzle {
    /// The cells as [`Puzzle`] prints them, then the layout fields: the text
    /// [`VariantPuzzle::from_str`] reads back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.givens, text::layout_fields(&self.layout))
    }
}
