//! [`Candidates`]: the pencil-mark grid every technique reads and every
//! [`Step`](super::Step) changes.

use std::sync::Arc;

use crate::grid::{Geometry, Puzzle, Shape};

/// A grid in the middle of a logical solution: placed values, and for each
/// empty cell the digits still possible there (its candidates).
///
/// Candidates are bit masks (bit `d - 1` for digit `d`), so sides up to 64
/// fit. Placing a digit removes it from the candidates of every peer, as a
/// person crossing out pencil marks does; techniques only ever remove
/// candidates or place digits, never add them back.
#[derive(Clone, Debug)]
pub struct Candidates {
    geometry: Arc<Geometry>,
    values: Vec<u8>,
    masks: Vec<u64>,
}

/// Givens that break a rule: two equal digits in one unit, or an empty cell
/// left with no candidate. A puzzle with a unique solution never has one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the givens contradict each other at cell {cell}")]
pub struct Contradiction {
    /// Row-major index of a cell involved.
    pub cell: usize,
}

impl Candidates {
    /// The pencil marks of `puzzle`: every digit not seen by a given.
    pub fn new(puzzle: &Puzzle) -> Result<Candidates, Contradiction> {
        let shape = puzzle.shape();
        let geometry = shared_geometry(shape);
        let full = full_mask(shape.side());
        let mut grid = Candidates {
            geometry,
            values: vec![0; shape.cell_count()],
            masks: vec![full; shape.cell_count()],
        };
        for (cell, &v) in puzzle.cells().iter().enumerate() {
            if v != 0 {
                if !grid.has(cell, v) {
                    return Err(Contradiction { cell });
                }
                grid.place(cell, v);
            }
        }
        match (0..grid.cell_count()).find(|&c| grid.values[c] == 0 && grid.masks[c] == 0) {
            Some(cell) => Err(Contradiction { cell }),
            None => Ok(grid),
        }
    }

    /// The shape of the grid.
    pub fn shape(&self) -> Shape {
        self.geometry.shape()
    }

    /// The side `N`: digits are `1..=N`.
    pub fn side(&self) -> usize {
        self.geometry.shape().side()
    }

    /// Cells in the grid, `N²`.
    pub fn cell_count(&self) -> usize {
        self.values.len()
    }

    /// The unit and peer tables of the shape.
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// The digit placed in `cell`, 0 when it is empty.
    pub fn value(&self, cell: usize) -> u8 {
        self.values[cell]
    }

    /// The candidates of `cell` as a bit mask (bit `d - 1` for digit `d`);
    /// 0 for a filled cell.
    pub fn mask(&self, cell: usize) -> u64 {
        self.masks[cell]
    }

    /// Whether `digit` is a candidate of `cell`.
    pub fn has(&self, cell: usize, digit: u8) -> bool {
        self.masks[cell] >> (digit - 1) & 1 != 0
    }

    /// Number of candidates of `cell`.
    pub fn count(&self, cell: usize) -> u32 {
        self.masks[cell].count_ones()
    }

    /// The positions (indexes into [`Geometry::unit`]) where `digit` can go
    /// in unit `unit`, as a bit mask.
    pub fn positions(&self, unit: usize, digit: u8) -> u64 {
        let bit = 1u64 << (digit - 1);
        self.geometry
            .unit(unit)
            .iter()
            .enumerate()
            .filter(|&(_, &c)| self.masks[c as usize] & bit != 0)
            .fold(0, |m, (i, _)| m | 1 << i)
    }

    /// The cells of unit `unit` where `digit` can go.
    pub fn cells_for(&self, unit: usize, digit: u8) -> impl Iterator<Item = usize> + '_ {
        let bit = 1u64 << (digit - 1);
        self.geometry
            .unit(unit)
            .iter()
            .map(|&c| c as usize)
            .filter(move |&c| self.masks[c] & bit != 0)
    }

    /// Whether `digit` is already placed in unit `unit`.
    pub fn placed_in(&self, unit: usize, digit: u8) -> bool {
        self.geometry
            .unit(unit)
            .iter()
            .any(|&c| self.values[c as usize] == digit)
    }

    /// Whether two distinct cells share a unit.
    pub fn sees(&self, a: usize, b: usize) -> bool {
        if a == b {
            return false;
        }
        let (ua, ub) = (self.geometry.units_of(a), self.geometry.units_of(b));
        ua.iter().zip(ub.iter()).any(|(x, y)| x == y)
    }

    /// The cells sharing a unit with `cell`, each once and `cell` excluded,
    /// in Sudoku Explainer's house order: the box row by row, then the rest
    /// of the row, then the rest of the column. SE's scans follow this
    /// order, so techniques matching SE's choices use it.
    pub fn house_cells(&self, cell: usize) -> impl Iterator<Item = usize> + '_ {
        let [row, col, boxu] = self.geometry.units_of(cell);
        let in_box = move |c: usize| self.geometry.units_of(c)[2] == boxu;
        let box_cells = self
            .geometry
            .unit(boxu as usize)
            .iter()
            .map(|&c| c as usize);
        let line_cells = [row, col]
            .into_iter()
            .flat_map(move |u| self.geometry.unit(u as usize).iter().map(|&c| c as usize))
            .filter(move |&c| !in_box(c));
        box_cells.chain(line_cells).filter(move |&c| c != cell)
    }

    /// Whether every cell has a value.
    pub fn is_solved(&self) -> bool {
        self.values.iter().all(|&v| v != 0)
    }

    /// Empty cells, in row-major order.
    pub fn empty_cells(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.values.len()).filter(|&c| self.values[c] == 0)
    }

    /// Places `digit` in `cell` and removes it from the candidates of every
    /// peer.
    pub fn place(&mut self, cell: usize, digit: u8) {
        self.values[cell] = digit;
        self.masks[cell] = 0;
        let bit = !(1u64 << (digit - 1));
        let geometry = Arc::clone(&self.geometry);
        for &p in geometry.peers(cell) {
            self.masks[p as usize] &= bit;
        }
    }

    /// Removes `digit` from the candidates of `cell`; whether it was there.
    pub fn eliminate(&mut self, cell: usize, digit: u8) -> bool {
        let bit = 1u64 << (digit - 1);
        let had = self.masks[cell] & bit != 0;
        self.masks[cell] &= !bit;
        had
    }

    /// Applies `step`: its placements, then its eliminations.
    pub fn apply(&mut self, step: &super::Step) {
        for p in &step.placements {
            if self.values[p.cell] == 0 {
                self.place(p.cell, p.digit);
            }
        }
        for e in &step.eliminations {
            self.eliminate(e.cell, e.digit);
        }
    }

    /// The same grid with the candidates `masks` (one bit mask per cell,
    /// bit `d - 1` for digit `d`): a chain's view of the grid it reduced.
    pub(crate) fn with_masks(&self, masks: &[u64]) -> Candidates {
        Candidates {
            geometry: Arc::clone(&self.geometry),
            values: self.values.clone(),
            masks: masks.to_vec(),
        }
    }

    /// The grid's values as a puzzle (empty cells blank).
    pub fn to_puzzle(&self) -> Puzzle {
        Puzzle::empty(self.shape()).with_cells(self.values.clone())
    }

    /// The values, row-major, 0 for empty cells.
    pub fn values(&self) -> &[u8] {
        &self.values
    }
}

/// The geometry of `shape`, built once per shape and thread and shared by
/// every grid after that: building it costs more than rating an easy
/// puzzle.
fn shared_geometry(shape: Shape) -> Arc<Geometry> {
    thread_local! {
        static BUILT: std::cell::RefCell<Vec<Arc<Geometry>>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    BUILT.with(|built| {
        let mut built = built.borrow_mut();
        if let Some(geometry) = built.iter().find(|g| g.shape() == shape) {
            return Arc::clone(geometry);
        }
        let geometry = Arc::new(Geometry::new(shape));
        built.push(Arc::clone(&geometry));
        geometry
    })
}

/// The indices of the set bits of `mask`, lowest first (digit `d` of a
/// candidate mask is index `d - 1`).
pub(crate) fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let index = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            index
        })
    })
}

/// The mask of every digit of side `side`.
pub(crate) fn full_mask(side: usize) -> u64 {
    if side >= 64 {
        u64::MAX
    } else {
        (1u64 << side) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn givens_remove_their_digit_from_peers() {
        let p: Puzzle = "1...............".parse().unwrap();
        let g = Candidates::new(&p).unwrap();
        assert_eq!(g.mask(0), 0);
        assert_eq!(g.value(0), 1);
        assert!(!g.has(1, 1) && !g.has(4, 1) && !g.has(5, 1));
        assert!(g.has(10, 1));
        assert_eq!(g.positions(1, 1), 0b1110 - 0b0010); // column 2: rows 3, 4
    }

    #[test]
    fn contradicting_givens_are_refused() {
        let p: Puzzle = "11..............".parse().unwrap();
        assert!(Candidates::new(&p).is_err());
    }
}
