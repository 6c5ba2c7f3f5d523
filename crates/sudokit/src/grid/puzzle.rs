//! [`Puzzle`]: givens on a shape, and checks of solutions against them.

use super::Shape;

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
    /// exceeds `N`.
    pub fn new(shape: Shape, cells: Vec<u8>) -> Option<Puzzle> {
        let ok = cells.len() == shape.cell_count()
            && cells.iter().all(|&v| (v as usize) <= shape.side());
        ok.then_some(Puzzle { shape, cells })
    }

    /// An empty grid of `shape`.
    pub fn empty(shape: Shape) -> Puzzle {
        Puzzle {
            shape,
            cells: vec![0; shape.cell_count()],
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

    /// Mutable cell values; callers keep every value within `0..=N`.
    pub fn cells_mut(&mut self) -> &mut [u8] {
        &mut self.cells
    }

    /// Number of givens (non-blank cells).
    pub fn clue_count(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
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
        puzzle.cells_mut()[0] = 1;
        assert!(puzzle.is_solved_by(&grid));
        puzzle.cells_mut()[0] = 2;
        assert!(!puzzle.is_solved_by(&grid));
        let mut broken = grid.clone();
        broken.cells_mut().swap(0, 1);
        assert!(!broken.is_valid_solution());
        assert!(Puzzle::new(shape, vec![5; 16]).is_none());
    }
}
