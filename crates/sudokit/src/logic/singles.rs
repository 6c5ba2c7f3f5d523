//! Singles: the last place of a digit in a unit (full house, hidden single)
//! and the last digit of a cell (naked single).

use std::ops::ControlFlow;

use super::step::{cell_name, unit_name};
use super::{Candidate, Candidates, Difficulty, Sink, Step, Technique};

/// Units in the order Sudoku Explainer scans them: boxes, then columns,
/// then rows.
pub(super) fn units_box_col_row(side: usize) -> impl Iterator<Item = usize> {
    (2 * side..3 * side).chain(side..2 * side).chain(0..side)
}

/// Full houses (difficulty 1.0) first, then hidden singles in boxes (1.2)
/// and in rows and columns (1.5).
pub(super) fn hidden(grid: &Candidates, sink: &mut Sink<'_>) -> ControlFlow<()> {
    let side = grid.side();
    for alone in [true, false] {
        for unit in units_box_col_row(side) {
            let cells = grid.geometry().unit(unit);
            let (empty, single) = single_place_digits(grid, cells);
            if alone != (empty == 1) {
                continue;
            }
            let mut digits = single;
            while digits != 0 {
                let digit = digits.trailing_zeros() as u8 + 1;
                digits &= digits - 1;
                let cell = cells
                    .iter()
                    .map(|&c| c as usize)
                    .find(|&c| grid.has(c, digit))
                    .expect("a digit with one place has that place");
                sink(single_step(side, unit, cell, digit, alone))?;
            }
        }
    }
    ControlFlow::Continue(())
}

/// The number of empty cells of a unit and the mask of the digits that have
/// exactly one place in it: one pass over its cells, counting each digit's
/// places up to two with two masks (seen once, seen twice or more).
fn single_place_digits(grid: &Candidates, cells: &[u16]) -> (usize, u64) {
    let (mut empty, mut once, mut twice) = (0, 0u64, 0u64);
    for &c in cells {
        let mask = grid.mask(c as usize);
        empty += usize::from(grid.value(c as usize) == 0);
        twice |= once & mask;
        once |= mask;
    }
    (empty, once & !twice)
}

/// The step placing `digit` in `cell`, the only place for it in `unit`: a
/// full house when `alone` (the unit's last empty cell), else a hidden
/// single.
fn single_step(side: usize, unit: usize, cell: usize, digit: u8, alone: bool) -> Step {
    let (name, tenths, reason) = if alone {
        (
            "Full House",
            10,
            format!(
                "{} is the last empty cell of {}",
                cell_name(side, cell),
                unit_name(side, unit)
            ),
        )
    } else {
        (
            "Hidden Single",
            if unit >= 2 * side { 12 } else { 15 },
            format!(
                "{digit} in {} can only go in {}",
                unit_name(side, unit),
                cell_name(side, cell)
            ),
        )
    };
    Step {
        technique: Technique::HiddenSingle,
        name: name.to_string(),
        difficulty: Difficulty(tenths),
        placements: vec![Candidate::new(cell, digit)],
        eliminations: Vec::new(),
        cells: vec![cell],
        reason,
        side,
    }
}

/// Naked singles (2.3): a cell with one candidate left.
pub(super) fn naked(grid: &Candidates, sink: &mut Sink<'_>) -> ControlFlow<()> {
    let side = grid.side();
    for cell in grid.empty_cells() {
        let mask = grid.mask(cell);
        if mask.count_ones() == 1 {
            let digit = mask.trailing_zeros() as u8 + 1;
            sink(Step {
                technique: Technique::NakedSingle,
                name: "Naked Single".to_string(),
                difficulty: Difficulty(23),
                placements: vec![Candidate::new(cell, digit)],
                eliminations: Vec::new(),
                cells: vec![cell],
                reason: format!(
                    "{digit} is the only candidate left in {}",
                    cell_name(side, cell)
                ),
                side,
            })?;
        }
    }
    ControlFlow::Continue(())
}
