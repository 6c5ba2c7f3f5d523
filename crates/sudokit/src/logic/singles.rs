//! Singles: the last place of a digit in a unit (full house, hidden single)
//! and the last digit of a cell (naked single).

use std::ops::ControlFlow;

use super::step::{push_cell_name, push_number, push_unit_name};
use super::subsets::{digits_of, empty_count};
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
    // The units with a hidden single that is not a full house, for the
    // second pass (bit `u % 64` of word `u / 64` for unit `u`).
    let mut deferred = [0u64; 3];
    for unit in units_box_col_row(side) {
        let single = single_place_digits(grid.unit_positions(unit));
        if single == 0 {
            continue;
        }
        if empty_count(grid, unit) == 1 {
            report(grid, unit, single, true, sink)?;
        } else {
            deferred[unit / 64] |= 1 << (unit % 64);
        }
    }
    for unit in units_box_col_row(side) {
        if deferred[unit / 64] >> (unit % 64) & 1 != 0 {
            let single = single_place_digits(grid.unit_positions(unit));
            report(grid, unit, single, false, sink)?;
        }
    }
    ControlFlow::Continue(())
}

/// The digits (bit `d - 1` for digit `d`) with exactly one place, from a
/// unit's positions of each digit ([`Candidates::unit_positions`]).
fn single_place_digits(positions: &[u64]) -> u64 {
    positions
        .iter()
        .enumerate()
        .filter(|(_, p)| p.count_ones() == 1)
        .fold(0, |m, (d, _)| m | 1 << d)
}

/// Reports the singles of `unit` at the digits of `single` (full houses
/// when `alone`).
fn report(
    grid: &Candidates,
    unit: usize,
    single: u64,
    alone: bool,
    sink: &mut Sink<'_>,
) -> ControlFlow<()> {
    let cells = grid.geometry().unit(unit);
    for digit in digits_of(single) {
        let position = grid.positions(unit, digit).trailing_zeros() as usize;
        let cell = usize::from(cells[position]);
        sink(single_step(grid.side(), unit, cell, digit, alone))?;
    }
    ControlFlow::Continue(())
}

/// The step placing `digit` in `cell`, the only place for it in `unit`: a
/// full house when `alone` (the unit's last empty cell), else a hidden
/// single.
fn single_step(side: usize, unit: usize, cell: usize, digit: u8, alone: bool) -> Step {
    let mut reason = String::with_capacity(48);
    let (name, tenths) = if alone {
        push_cell_name(&mut reason, side, cell);
        reason.push_str(" is the last empty cell of ");
        push_unit_name(&mut reason, side, unit);
        ("Full House", 10)
    } else {
        push_number(&mut reason, usize::from(digit));
        reason.push_str(" in ");
        push_unit_name(&mut reason, side, unit);
        reason.push_str(" can only go in ");
        push_cell_name(&mut reason, side, cell);
        ("Hidden Single", if unit >= 2 * side { 12 } else { 15 })
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
                reason: {
                    let mut reason = String::with_capacity(40);
                    push_number(&mut reason, usize::from(digit));
                    reason.push_str(" is the only candidate left in ");
                    push_cell_name(&mut reason, side, cell);
                    reason
                },
                side,
            })?;
        }
    }
    ControlFlow::Continue(())
}
