//! Intersections: a digit confined to where a box and a line cross.
//! Pointing (the box's places lie on one line: the rest of the line loses
//! the digit) and claiming (the line's places lie in one box: the rest of the
//! box loses it).

use std::ops::ControlFlow;

use super::candidates::bits;
use super::step::{cell_list, cell_name, unit_name};
use super::subsets::digits_of;
use super::{Candidate, Candidates, Difficulty, Sink, Step, Technique};

/// Unit kinds, as in [`Geometry::units_of`](crate::grid::Geometry::units_of).
const ROW: usize = 0;
/// The column kind.
const COLUMN: usize = 1;
/// The box kind.
const BOX: usize = 2;

/// The (source, target) unit kinds in Sudoku Explainer's order: box to
/// column, box to row (pointing), column to box, row to box (claiming).
const KIND_PAIRS: [(usize, usize); 4] = [(BOX, COLUMN), (BOX, ROW), (COLUMN, BOX), (ROW, BOX)];

/// Locked candidates, in SE's order: kind pairs as [`KIND_PAIRS`], then
/// source unit, target unit and digit ascending. With `direct`, only the
/// ones whose eliminations leave a hidden single in another unit of the
/// source's kind, reported as that placement (SE's "direct pointing" 1.7
/// and "direct claiming" 1.9); otherwise every one that eliminates
/// (pointing 2.6, claiming 2.8).
pub(super) fn locked(grid: &Candidates, direct: bool, sink: &mut Sink<'_>) -> ControlFlow<()> {
    let side = grid.side();
    for (source_kind, target_kind) in KIND_PAIRS {
        for source in source_kind * side..(source_kind + 1) * side {
            // The digits with two places or more in the source.
            let several = grid
                .unit_positions(source)
                .iter()
                .enumerate()
                .filter(|(_, p)| p.count_ones() >= 2)
                .fold(0u64, |m, (d, _)| m | 1 << d);
            if several == 0 {
                continue;
            }
            for t in bits(grid.crossers(source, target_kind)) {
                let target = target_kind * side + t;
                let shared = grid.crossing(source, target);
                for digit in digits_of(several) {
                    if grid.positions(source, digit) & !shared != 0 {
                        continue;
                    }
                    let lock = Lock {
                        source,
                        target,
                        digit,
                    };
                    if direct {
                        lock.direct(grid, source_kind, sink)?;
                    } else {
                        let eliminations = lock.eliminations(grid);
                        if !eliminations.is_empty() {
                            sink(lock.step(grid, eliminations))?;
                        }
                    }
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// A digit of `source` confined to where it crosses `target`.
struct Lock {
    /// The unit whose places of the digit are all in `target`.
    source: usize,
    /// The unit that loses the digit outside `source`.
    target: usize,
    /// The digit.
    digit: u8,
}

impl Lock {
    /// Whether the source is a box (pointing) rather than a line (claiming).
    fn pointing(&self, grid: &Candidates) -> bool {
        self.source >= 2 * grid.side()
    }

    /// The digit's places in the target outside the source.
    fn eliminations(&self, grid: &Candidates) -> Vec<Candidate> {
        let outside =
            grid.positions(self.target, self.digit) & !grid.crossing(self.target, self.source);
        let cells = grid.geometry().unit(self.target);
        bits(outside)
            .map(|i| Candidate::new(usize::from(cells[i]), self.digit))
            .collect()
    }

    /// Why: the source's places of the digit are all in the target.
    fn reason(&self, grid: &Candidates) -> String {
        let side = grid.side();
        let cells: Vec<usize> = grid.cells_for(self.source, self.digit).collect();
        format!(
            "in {}, {} can only go in {}, all in {}",
            unit_name(side, self.source),
            self.digit,
            cell_list(side, &cells),
            unit_name(side, self.target)
        )
    }

    /// The indirect step (pointing 2.6, claiming 2.8).
    fn step(&self, grid: &Candidates, eliminations: Vec<Candidate>) -> Step {
        let pointing = self.pointing(grid);
        Step {
            technique: Technique::Intersection,
            name: if pointing { "Pointing" } else { "Claiming" }.to_string(),
            difficulty: Difficulty(if pointing { 26 } else { 28 }),
            placements: Vec::new(),
            eliminations,
            cells: grid.cells_for(self.source, self.digit).collect(),
            reason: self.reason(grid),
            side: grid.side(),
        }
    }

    /// SE's direct mode: each other unit of the source's kind crossing the
    /// target, in order, where the digit has several places but one left
    /// outside the target, gives a step placing it there.
    fn direct(
        &self,
        grid: &Candidates,
        source_kind: usize,
        sink: &mut Sink<'_>,
    ) -> ControlFlow<()> {
        let side = grid.side();
        for j in bits(grid.crossers(self.target, source_kind)) {
            let other = source_kind * side + j;
            if other == self.source {
                continue;
            }
            let shared = grid.crossing(other, self.target);
            let places = grid.positions(other, self.digit);
            let left = places & !shared;
            if places.count_ones() >= 2 && left.count_ones() == 1 {
                let cell = grid.geometry().unit(other)[left.trailing_zeros() as usize];
                sink(self.direct_step(grid, usize::from(cell), other))?;
            }
        }
        ControlFlow::Continue(())
    }

    /// The direct step (1.7 or 1.9) placing the digit in `cell` of `unit`;
    /// like SE it applies the placement alone (the lock's eliminations are
    /// left for a later step).
    fn direct_step(&self, grid: &Candidates, cell: usize, unit: usize) -> Step {
        let side = grid.side();
        let pointing = self.pointing(grid);
        let name = if pointing { "Pointing" } else { "Claiming" };
        Step {
            technique: Technique::DirectPointing,
            name: format!("Direct {name}"),
            difficulty: Difficulty(if pointing { 17 } else { 19 }),
            placements: vec![Candidate::new(cell, self.digit)],
            eliminations: Vec::new(),
            cells: grid.cells_for(self.source, self.digit).collect(),
            reason: format!(
                "{}; without it elsewhere in {}, {} can only go in {} of {}",
                self.reason(grid),
                unit_name(side, self.target),
                self.digit,
                cell_name(side, cell),
                unit_name(side, unit)
            ),
            side,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Puzzle;

    /// An empty 9×9 grid with, for each `(digit, cells)`, the digit removed
    /// from those cells.
    fn grid_without(gone: &[(u8, &[usize])]) -> Candidates {
        let p: Puzzle = ".".repeat(81).parse().unwrap();
        let mut grid = Candidates::new(&p).unwrap();
        for &(digit, cells) in gone {
            for &cell in cells {
                grid.eliminate(cell, digit);
            }
        }
        grid
    }

    /// The first step [`locked`] reports on `grid`.
    fn first(grid: &Candidates, direct: bool) -> Option<Step> {
        let mut found = None;
        let _ = locked(grid, direct, &mut |s| {
            found = Some(s);
            ControlFlow::Break(())
        });
        found
    }

    #[test]
    fn box_to_column_comes_before_box_to_row() {
        // Box 1: 5 only in r1c1, r2c1 (column 1); 6 only in r1c1, r1c2 (row 1).
        let grid = grid_without(&[
            (5, &[1, 2, 10, 11, 18, 19, 20]),
            (6, &[2, 9, 10, 11, 18, 19, 20]),
        ]);
        let step = first(&grid, false).expect("a pointing");
        assert_eq!(step.difficulty, Difficulty(26));
        let expected: Vec<Candidate> = (3..9).map(|r| Candidate::new(r * 9, 5)).collect();
        assert_eq!(step.eliminations, expected);
        assert!(first(&grid, true).is_none());
    }

    #[test]
    fn direct_pointing_places_the_single_it_leaves() {
        // Box 1: 5 only in row 1; box 2: 5 only in r1c4 and r2c4.
        let grid = grid_without(&[(5, &[9, 10, 11, 18, 19, 20, 4, 5, 13, 14, 21, 22, 23])]);
        let step = first(&grid, true).expect("a direct pointing");
        assert_eq!(step.difficulty, Difficulty(17));
        assert_eq!(step.placements, [Candidate::new(12, 5)]);
        assert!(step.eliminations.is_empty());
    }

    #[test]
    fn nothing_locks_on_an_empty_grid() {
        let grid = grid_without(&[]);
        assert!(first(&grid, false).is_none() && first(&grid, true).is_none());
    }
}
