//! [`Puzzle`]: givens on a shape, and checks of solutions against them.

use super::Shape;
use crate::bytes;

/// Why cell values (or a buffer for them) do not fit a shape: the error of
/// every public entry point that takes raw cells instead of a [`Puzzle`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InputError {
    /// Another number of cells than the shape's `N²`.
    #[error("{found} cells, expected {expected}")]
    WrongLength {
        /// Cells given.
        found: usize,
        /// Cells of the shape.
        expected: usize,
    },
    /// A cell value above the side `N` (values are 0 = blank or `1..=N`).
    #[error("value {value} at cell {cell} is out of range 0 to {side}")]
    OutOfRange {
        /// The value found.
        value: u8,
        /// 1-based cell position.
        cell: usize,
        /// The side `N`, the largest value allowed.
        side: usize,
    },
    /// A cell index beyond the grid.
    #[error("cell {cell} is outside a grid of {count} cells")]
    NoSuchCell {
        /// 1-based cell position asked for.
        cell: usize,
        /// Cells of the grid.
        count: usize,
    },
    /// A canonical-form transform whose fields do not describe a member of
    /// the symmetry group.
    #[error("the transform does not keep bands, stacks and digits apart")]
    InvalidTransform,
    /// A buffer for a solution of another length than `N²`.
    #[error("solution buffer of {found} cells, expected {expected}")]
    SolutionLength {
        /// Slots in the buffer.
        found: usize,
        /// Cells of the shape.
        expected: usize,
    },
    /// A grid of one shape given where another shape is needed (a 9×9 only
    /// entry point, or two grids that must match).
    #[error("a grid of box shape {found}, expected {expected}")]
    WrongShape {
        /// The shape given.
        found: Shape,
        /// The shape needed.
        expected: Shape,
    },
}

/// Checks that `cells` are `N²` values in `0..=N` for `shape`: the invariant
/// of [`Puzzle`] and the precondition of every engine.
pub(crate) fn check_cells(shape: Shape, cells: &[u8]) -> Result<(), InputError> {
    let expected = shape.cell_count();
    if cells.len() != expected {
        return Err(InputError::WrongLength {
            found: cells.len(),
            expected,
        });
    }
    let side = shape.side();
    // One branch-free pass; the rare bad value is located afterwards.
    let max = cells.iter().fold(0, |m, &v| m.max(v));
    if (max as usize) <= side {
        return Ok(());
    }
    let cell = cells.iter().position(|&v| v as usize > side).unwrap_or(0);
    Err(InputError::OutOfRange {
        value: cells[cell],
        cell: cell + 1,
        side,
    })
}

/// A grid of cells on a [`Shape`]: `0` is a blank, `1..=N` a digit.
///
/// A solved grid is a `Puzzle` with no blanks; [`Puzzle::is_solved_by`] checks a
/// candidate solution against every rule and every given.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Puzzle {
    shape: Shape,
    cells: Vec<u8>,
}

impl Puzzle {
    /// A puzzle from cell values; `None` if the length is not `N²` or a value
    /// exceeds `N` ([`Puzzle::from_cells`] says which).
    pub fn new(shape: Shape, cells: Vec<u8>) -> Option<Puzzle> {
        Puzzle::from_cells(shape, cells).ok()
    }

    /// A puzzle from cell values (row-major, 0 = blank, `1..=N` = digit), or
    /// why they do not fit `shape`.
    pub fn from_cells(shape: Shape, cells: Vec<u8>) -> Result<Puzzle, InputError> {
        check_cells(shape, &cells)?;
        Ok(Puzzle { shape, cells })
    }

    /// An empty grid of `shape`.
    pub fn empty(shape: Shape) -> Puzzle {
        Puzzle {
            shape,
            cells: vec![0; shape.cell_count()],
        }
    }

    /// A grid of this puzzle's shape with other cells, which the caller
    /// (an engine's solution) keeps in range.
    pub(crate) fn with_cells(&self, cells: Vec<u8>) -> Puzzle {
        debug_assert!(check_cells(self.shape, &cells).is_ok());
        Puzzle {
            shape: self.shape,
            cells,
        }
    }

    /// The shape of the grid.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Cell values in row-major order (0 = blank).
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// Mutable cell values, for the crate's own code, which keeps every value
    /// within `0..=N` (outside it, [`Puzzle::set`] checks).
    pub(crate) fn cells_mut(&mut self) -> &mut [u8] {
        &mut self.cells
    }

    /// Sets cell `cell` (row-major index) to `value` (0 = blank); an error,
    /// and no change, when the cell or the value is out of range.
    pub fn set(&mut self, cell: usize, value: u8) -> Result<(), InputError> {
        let (count, side) = (self.shape.cell_count(), self.shape.side());
        if value as usize > side {
            return Err(InputError::OutOfRange {
                value,
                cell: cell + 1,
                side,
            });
        }
        match self.cells.get_mut(cell) {
            Some(slot) => {
                *slot = value;
                Ok(())
            }
            None => Err(InputError::NoSuchCell {
                cell: cell + 1,
                count,
            }),
        }
    }

    /// Number of givens (non-blank cells).
    pub fn clue_count(&self) -> usize {
        count_givens(&self.cells)
    }

    /// Whether this grid is complete and every row, column and box holds each
    /// digit exactly once.
    pub fn is_valid_solution(&self) -> bool {
        let n = self.shape.side();
        let mut seen = vec![0u64; 3 * n];
        for (cell, &v) in self.cells.iter().enumerate() {
            if v == 0 {
                return false;
            }
            let bit = 1u64 << (v - 1);
            let units = [
                self.shape.row_of(cell),
                n + self.shape.col_of(cell),
                2 * n + self.shape.box_of(cell),
            ];
            for u in units {
                if seen[u] & bit != 0 {
                    return false;
                }
                seen[u] |= bit;
            }
        }
        true
    }

    /// Whether `solution` is a valid complete grid that keeps every given of
    /// this puzzle.
    pub fn is_solved_by(&self, solution: &Puzzle) -> bool {
        solution.shape == self.shape
            && solution.is_valid_solution()
            && self
                .cells
                .iter()
                .zip(&solution.cells)
                .all(|(&given, &v)| given == 0 || given == v)
    }
}

/// Number of non-zero cell values: a grid's clue count, taken for every
/// puzzle the analyzer reads (64 cells a step where the CPU allows, see
/// [`crate::bytes`]).
pub(crate) fn count_givens(cells: &[u8]) -> usize {
    bytes::count_nonzero(bytes::Path::best(), cells)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_solutions_against_givens() {
        let shape = Shape::new(2, 2).unwrap();
        let grid =
            Puzzle::new(shape, vec![1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]).unwrap();
        assert!(grid.is_valid_solution());
        let mut puzzle = Puzzle::empty(shape);
        puzzle.set(0, 1).unwrap();
        assert!(puzzle.is_solved_by(&grid));
        puzzle.set(0, 2).unwrap();
        assert!(!puzzle.is_solved_by(&grid));
        let mut broken = grid.clone();
        broken.cells_mut().swap(0, 1);
        assert!(!broken.is_valid_solution());
        assert!(Puzzle::new(shape, vec![5; 16]).is_none());
        assert_eq!(
            puzzle.set(3, 5),
            Err(InputError::OutOfRange {
                value: 5,
                cell: 4,
                side: 4
            })
        );
        assert!(puzzle.set(16, 1).is_err());
    }
}
