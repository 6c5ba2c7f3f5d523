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
///
/// The grid also keeps, for every unit and digit, the positions of the
/// digit in the unit (the question most techniques ask), up to date with
/// every placement and elimination.
#[derive(Clone, Debug)]
pub struct Candidates {
    layout: Arc<Layout>,
    values: Vec<u8>,
    masks: Vec<u64>,
    /// `places[unit * N + digit - 1]`: the positions of `digit` in `unit`
    /// (bit `i` for the unit's `i`-th cell).
    places: Vec<u64>,
}

/// The geometry of a shape with the tables the logic engine adds to it.
#[derive(Debug)]
struct Layout {
    geometry: Geometry,
    /// For each cell, its index in its row, column and box.
    slots: Vec<[u8; 3]>,
    /// `crossings[a * 3N + b]`: the positions in unit `a` of the cells that
    /// are also in unit `b`.
    crossings: Vec<u64>,
    /// `crossers[u * 3 + kind]`: the units of kind `kind` (0 rows, 1
    /// columns, 2 boxes) other than `u` that share a cell with unit `u`, bit
    /// `j` for unit `kind * N + j`.
    crossers: Vec<u64>,
}

impl Layout {
    /// The tables of `shape`.
    fn new(shape: Shape) -> Layout {
        let geometry = Geometry::new(shape);
        let units = geometry.unit_count();
        let mut slots = vec![[0u8; 3]; shape.cell_count()];
        let mut crossings = vec![0u64; units * units];
        let mut crossers = vec![0u64; units * 3];
        let side = shape.side();
        for unit in 0..units {
            for (i, &cell) in geometry.unit(unit).iter().enumerate() {
                let owners = geometry.units_of(cell as usize);
                let kind = owners.iter().position(|&u| usize::from(u) == unit);
                slots[cell as usize][kind.expect("a unit's cell lies in it")] = i as u8;
                for other in owners {
                    let other = usize::from(other);
                    crossings[unit * units + other] |= 1 << i;
                    if other != unit {
                        crossers[unit * 3 + other / side] |= 1 << (other % side);
                    }
                }
            }
        }
        Layout {
            geometry,
            slots,
            crossings,
            crossers,
        }
    }
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
        let layout = shared_layout(shape);
        let full = full_mask(shape.side());
        let mut grid = Candidates {
            layout,
            values: vec![0; shape.cell_count()],
            masks: vec![full; shape.cell_count()],
            places: vec![full; 3 * shape.side() * shape.side()],
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
        self.layout.geometry.shape()
    }

    /// The side `N`: digits are `1..=N`.
    pub fn side(&self) -> usize {
        self.layout.geometry.shape().side()
    }

    /// Cells in the grid, `N²`.
    pub fn cell_count(&self) -> usize {
        self.values.len()
    }

    /// The unit and peer tables of the shape.
    pub fn geometry(&self) -> &Geometry {
        &self.layout.geometry
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
        self.places[unit * self.side() + usize::from(digit) - 1]
    }

    /// The positions of every digit in every unit: entry `unit × N + d −
    /// 1` is [`Candidates::positions`]`(unit, d)`.
    pub(in crate::logic) fn all_positions(&self) -> &[u64] {
        &self.places
    }

    /// The index of `cell` in its row, column and box (the units of
    /// [`Geometry::units_of`], in that order).
    pub(in crate::logic) fn slots(&self, cell: usize) -> [u8; 3] {
        self.layout.slots[cell]
    }

    /// The positions of every digit in unit `unit`: entry `d - 1` is
    /// [`Candidates::positions`]`(unit, d)`.
    pub fn unit_positions(&self, unit: usize) -> &[u64] {
        let side = self.side();
        &self.places[unit * side..(unit + 1) * side]
    }

    /// The cells of unit `unit` where `digit` can go.
    pub fn cells_for(&self, unit: usize, digit: u8) -> impl Iterator<Item = usize> + '_ {
        let cells = self.geometry().unit(unit);
        bits(self.positions(unit, digit)).map(move |i| usize::from(cells[i]))
    }

    /// The positions in unit `unit` (bit `i` for its `i`-th cell) of the
    /// cells it shares with unit `other`: all of them when `other == unit`,
    /// none when the two units do not cross.
    pub(crate) fn crossing(&self, unit: usize, other: usize) -> u64 {
        self.layout.crossings[unit * self.geometry().unit_count() + other]
    }

    /// The units of kind `kind` (0 rows, 1 columns, 2 boxes) other than
    /// `unit` that share a cell with it: bit `j` for unit `kind * N + j`.
    pub(crate) fn crossers(&self, unit: usize, kind: usize) -> u64 {
        self.layout.crossers[unit * 3 + kind]
    }

    /// Whether `digit` is already placed in unit `unit`.
    pub fn placed_in(&self, unit: usize, digit: u8) -> bool {
        self.geometry()
            .unit(unit)
            .iter()
            .any(|&c| self.values[c as usize] == digit)
    }

    /// Whether two distinct cells share a unit.
    pub fn sees(&self, a: usize, b: usize) -> bool {
        if a == b {
            return false;
        }
        let (ua, ub) = (self.geometry().units_of(a), self.geometry().units_of(b));
        ua.iter().zip(ub.iter()).any(|(x, y)| x == y)
    }

    /// The cells sharing a unit with `cell`, each once and `cell` excluded,
    /// in Sudoku Explainer's house order: the box row by row, then the rest
    /// of the row, then the rest of the column. SE's scans follow this
    /// order, so techniques matching SE's choices use it.
    pub fn house_cells(&self, cell: usize) -> impl Iterator<Item = usize> + '_ {
        let geometry = self.geometry();
        let [row, col, boxu] = geometry.units_of(cell);
        let in_box = move |c: usize| geometry.units_of(c)[2] == boxu;
        let box_cells = geometry.unit(boxu as usize).iter().map(|&c| c as usize);
        let line_cells = [row, col]
            .into_iter()
            .flat_map(move |u| geometry.unit(u as usize).iter().map(|&c| c as usize))
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
        for d in bits(self.masks[cell]) {
            self.forget(cell, d);
        }
        self.values[cell] = digit;
        self.masks[cell] = 0;
        let layout = Arc::clone(&self.layout);
        let d = usize::from(digit) - 1;
        for &p in layout.geometry.peers(cell) {
            let p = usize::from(p);
            if self.masks[p] >> d & 1 != 0 {
                self.masks[p] &= !(1 << d);
                self.forget(p, d);
            }
        }
    }

    /// Removes `digit` from the candidates of `cell`; whether it was there.
    pub fn eliminate(&mut self, cell: usize, digit: u8) -> bool {
        let d = usize::from(digit) - 1;
        let had = self.masks[cell] >> d & 1 != 0;
        if had {
            self.masks[cell] &= !(1 << d);
            self.forget(cell, d);
        }
        had
    }

    /// Clears `cell` from the positions of digit index `d` (digit `d + 1`)
    /// in the cell's three units.
    fn forget(&mut self, cell: usize, d: usize) {
        let side = self.side();
        let units = self.layout.geometry.units_of(cell);
        let slots = self.layout.slots[cell];
        for (unit, slot) in units.into_iter().zip(slots) {
            self.places[usize::from(unit) * side + d] &= !(1 << slot);
        }
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
        let side = self.side();
        let mut places = vec![0u64; self.places.len()];
        for (cell, &mask) in masks.iter().enumerate() {
            let units = self.layout.geometry.units_of(cell);
            let slots = self.layout.slots[cell];
            for d in bits(mask) {
                for (unit, slot) in units.into_iter().zip(slots) {
                    places[usize::from(unit) * side + d] |= 1 << slot;
                }
            }
        }
        Candidates {
            layout: Arc::clone(&self.layout),
            values: self.values.clone(),
            masks: masks.to_vec(),
            places,
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

/// The layout of `shape`, built once per shape and thread and shared by
/// every grid after that: building it costs more than rating an easy
/// puzzle.
fn shared_layout(shape: Shape) -> Arc<Layout> {
    thread_local! {
        static BUILT: std::cell::RefCell<Vec<Arc<Layout>>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    BUILT.with(|built| {
        let mut built = built.borrow_mut();
        if let Some(layout) = built.iter().find(|l| l.geometry.shape() == shape) {
            return Arc::clone(layout);
        }
        let layout = Arc::new(Layout::new(shape));
        built.push(Arc::clone(&layout));
        layout
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

    /// The positions of `digit` in `unit`, found from the cells.
    fn positions_from_cells(g: &Candidates, unit: usize, digit: u8) -> u64 {
        let cells = g.geometry().unit(unit);
        (0..cells.len())
            .filter(|&i| g.has(usize::from(cells[i]), digit))
            .fold(0, |m, i| m | 1 << i)
    }

    #[test]
    fn kept_positions_follow_every_placement_and_elimination() {
        for (text, moves) in [
            ("1...............", [(5, 2), (6, 3), (15, 4)]),
            (&".".repeat(36)[..], [(0, 6), (20, 1), (35, 5)]),
            (&".".repeat(81)[..], [(40, 5), (0, 9), (80, 1)]),
        ] {
            let mut g = Candidates::new(&text.parse::<Puzzle>().unwrap()).unwrap();
            let check = |g: &Candidates| {
                for unit in 0..g.geometry().unit_count() {
                    for digit in 1..=g.side() as u8 {
                        assert_eq!(
                            g.positions(unit, digit),
                            positions_from_cells(g, unit, digit)
                        );
                    }
                }
            };
            check(&g);
            for (cell, digit) in moves {
                g.eliminate((cell + 1) % g.cell_count(), digit);
                check(&g);
                g.place(cell, digit);
                check(&g);
            }
            // A chain's view: every cell without its lowest candidate.
            let masks: Vec<u64> = (0..g.cell_count())
                .map(|c| g.mask(c) & (g.mask(c).wrapping_sub(1)))
                .collect();
            check(&g.with_masks(&masks));
        }
    }

    #[test]
    fn crossings_are_the_shared_cells() {
        let g = Candidates::new(&".".repeat(81).parse::<Puzzle>().unwrap()).unwrap();
        // Row 1 and box 2 share the row's cells 4 to 6 (positions 3 to 5)
        // and the box's first row (positions 0 to 2).
        assert_eq!(g.crossing(0, 19), 0b111_000);
        assert_eq!(g.crossing(19, 0), 0b111);
        assert_eq!(g.crossing(0, 9 + 4), 1 << 4);
        assert_eq!(g.crossing(0, 1), 0);
        assert_eq!(g.crossing(5, 5), 0x1ff);
        // Box 5 crosses rows 4 to 6 and columns 4 to 6.
        assert_eq!(g.crossers(22, 0), 0b111_000);
        assert_eq!(g.crossers(22, 1), 0b111_000);
        assert_eq!(g.crossers(22, 2), 0);
        assert_eq!(g.crossers(0, 0), 0);
    }

    #[test]
    fn contradicting_givens_are_refused() {
        let p: Puzzle = "11..............".parse().unwrap();
        assert!(Candidates::new(&p).is_err());
    }
}
