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
            let empty = cells
                .iter()
                .filter(|&&c| grid.value(c as usize) == 0)
                .count();
            if alone != (empty == 1) {
                continue;
            }
            for digit in 1..=side as u8 {
                let positions = grid.positions(unit, digit);
                if positions.count_ones() != 1 {
                    continue;
                }
                let cell = cells[positions.trailing_zeros() as usize] as usize;
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
                sink(Step {
                    technique: Technique::HiddenSingle,
                    name: name.to_string(),
                    difficulty: Difficulty(tenths),
                    placements: vec![Candidate::new(cell, digit)],
                    eliminations: Vec::new(),
                    cells: vec![cell],
                    reason,
                    side,
                })?;
            }
        }
    }
    ControlFlow::Continue(())
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
