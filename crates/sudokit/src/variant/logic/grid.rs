//! [`VariantGrid`]: the pencil-mark grid of a variant puzzle, over the
//! houses and peers of its [`Constraints`].

use std::fmt;
use std::sync::Arc;

use super::LogicTables;
use crate::grid::{Puzzle, Shape};
use crate::logic::pencil::{cell_marks, pencil_grid};
use crate::logic::{Contradiction, Step};
use crate::parse::DEFAULT_SYMBOLS;
use crate::variant::Constraints;

/// A variant grid in the middle of a logical solution: placed values, and
/// for each empty cell the digits still possible there (bit `d − 1` for
/// digit `d`). Placing a digit removes it from every peer (every cell that
/// shares a house or a relation with the cell); techniques only remove
/// candidates or place digits.
#[derive(Clone, Debug)]
pub struct VariantGrid {
    tables: Arc<LogicTables>,
    shape: Shape,
    /// Whether the regions are the shape's boxes (pencil marks draw them).
    boxes: bool,
    values: Vec<u8>,
    masks: Vec<u64>,
}

impl VariantGrid {
    /// The pencil marks of `givens` on the layout of `tables`: every digit
    /// no given's peer holds. `boxes` says whether the regions are the
    /// shape's boxes (a jigsaw's are not).
    pub(crate) fn new(
        tables: Arc<LogicTables>,
        boxes: bool,
        givens: &Puzzle,
    ) -> Result<VariantGrid, Contradiction> {
        let side = tables.constraints.side();
        let cells = tables.constraints.cell_count();
        let full = if side == 64 {
            u64::MAX
        } else {
            (1u64 << side) - 1
        };
        let mut grid = VariantGrid {
            shape: givens.shape(),
            boxes,
            values: vec![0; cells],
            masks: vec![full; cells],
            tables,
        };
        for (cell, &v) in givens.cells().iter().enumerate() {
            if v != 0 {
                if !grid.has(cell, v) {
                    return Err(Contradiction { cell });
                }
                grid.place(cell, v);
            }
        }
        let dead = grid.empty_cells().find(|&c| grid.masks[c] == 0);
        match dead {
            Some(cell) => Err(Contradiction { cell }),
            None => Ok(grid),
        }
    }

    /// The layout's tables.
    pub fn tables(&self) -> &Constraints {
        &self.tables.constraints
    }

    /// The line-and-region equivalences of the layout.
    pub(super) fn equivalences(&self) -> &[super::leftovers::Equivalence] {
        &self.tables.leftovers
    }

    /// Whether cells `a` and `b` must differ (distinct cells sharing a
    /// house or a relation).
    pub fn sees(&self, a: usize, b: usize) -> bool {
        self.tables.sees(a, b)
    }

    /// The side `N`: digits are `1..=N`.
    pub fn side(&self) -> usize {
        self.tables().side()
    }

    /// The digit placed in `cell`, 0 when it is empty.
    pub fn value(&self, cell: usize) -> u8 {
        self.values[cell]
    }

    /// The candidates of `cell` (bit `d − 1` for digit `d`); 0 when filled.
    pub fn mask(&self, cell: usize) -> u64 {
        self.masks[cell]
    }

    /// Whether `digit` is a candidate of `cell`.
    pub fn has(&self, cell: usize, digit: u8) -> bool {
        self.masks[cell] >> (digit - 1) & 1 != 0
    }

    /// Empty cells, row-major.
    pub fn empty_cells(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.values.len()).filter(|&c| self.values[c] == 0)
    }

    /// Whether every cell has a value.
    pub fn is_solved(&self) -> bool {
        self.values.iter().all(|&v| v != 0)
    }

    /// The cells of house `h` where `digit` can still go.
    pub fn places(&self, h: usize, digit: u8) -> impl Iterator<Item = usize> + '_ {
        self.tables()
            .house(h)
            .iter()
            .map(|&c| usize::from(c))
            .filter(move |&c| self.has(c, digit))
    }

    /// Whether `digit` is placed in house `h`.
    pub fn placed_in(&self, h: usize, digit: u8) -> bool {
        self.tables()
            .house(h)
            .iter()
            .any(|&c| self.values[usize::from(c)] == digit)
    }

    /// Places `digit` in `cell` and removes it from every peer.
    pub fn place(&mut self, cell: usize, digit: u8) {
        self.values[cell] = digit;
        self.masks[cell] = 0;
        let bit = !(1u64 << (digit - 1));
        let tables = Arc::clone(&self.tables);
        for &p in tables.constraints.peers(cell) {
            self.masks[usize::from(p)] &= bit;
        }
    }

    /// Keeps only the candidates of `cell` in `allowed`.
    pub(super) fn keep_only(&mut self, cell: usize, allowed: u64) {
        self.masks[cell] &= allowed;
    }

    /// Applies `step`: its placements, then its eliminations.
    pub fn apply(&mut self, step: &Step) {
        for p in &step.placements {
            if self.values[p.cell] == 0 {
                self.place(p.cell, p.digit);
            }
        }
        for e in &step.eliminations {
            self.masks[e.cell] &= !(1u64 << (e.digit - 1));
        }
    }

    /// The values placed so far as a puzzle (0 for empty cells).
    pub fn to_puzzle(&self) -> Puzzle {
        Puzzle::new(self.shape, self.values.clone()).expect("values are in range")
    }

    /// The pencil marks as text; `symbol` names digit `d`. Boxes are set
    /// apart unless the regions are a jigsaw's.
    pub fn pencil_marks(&self, symbol: impl Fn(u8) -> char) -> String {
        let text: Vec<String> = (0..self.values.len())
            .map(|c| cell_marks(self.values[c], self.masks[c], &symbol))
            .collect();
        pencil_grid(self.shape, self.boxes, &text)
    }
}

impl crate::logic::StepGrid for VariantGrid {
    fn is_solved(&self) -> bool {
        VariantGrid::is_solved(self)
    }

    fn apply(&mut self, step: &Step) {
        VariantGrid::apply(self, step);
    }
}

/// The pencil marks with the default symbols (1–9, then A–Z, a–z).
impl fmt::Display for VariantGrid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let symbols = DEFAULT_SYMBOLS.as_bytes();
        let symbol = |d: u8| {
            symbols
                .get(usize::from(d) - 1)
                .map_or('?', |&s| char::from(s))
        };
        f.write_str(&self.pencil_marks(symbol))
    }
}

/// The set bits of `mask` as 0-based indices, lowest first.
pub(super) fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            i
        })
    })
}

/// The digits of `mask` (bit `d − 1` for digit `d`), lowest first.
pub(super) fn digits(mask: u64) -> impl Iterator<Item = u8> {
    bits(mask).map(|i| i as u8 + 1)
}

/// The digits of `mask` as text: `{1,5,9}`.
pub(super) fn digit_set(mask: u64) -> String {
    let list: Vec<String> = digits(mask).map(|d| d.to_string()).collect();
    format!("{{{}}}", list.join(","))
}
