//! Uniqueness techniques: patterns that would give the puzzle two solutions
//! (a deadly pattern), so a unique puzzle must avoid them. Bivalue universal
//! grave (BUG) and unique loops, as Sudoku Explainer finds them.

use std::ops::ControlFlow;

use super::step::{cell_list, cell_name};
use super::{Candidate, Candidates, Difficulty, Sink, Step, Technique};

/// Units in Sudoku Explainer's region order: boxes, then rows, then columns.
fn units_box_row_col(side: usize) -> impl Iterator<Item = usize> {
    (2 * side..3 * side).chain(0..2 * side)
}

/// The cells sharing a unit with `cell` (box, then row, then column, each in
/// its own order, without repeats and without `cell` itself): SE's house
/// cells, whose order decides the order of reported eliminations.
fn house_cells(grid: &Candidates, cell: usize) -> Vec<usize> {
    let geometry = grid.geometry();
    let [row, col, boxu] = geometry.units_of(cell);
    let mut cells = Vec::with_capacity(3 * grid.side());
    for unit in [boxu, row, col] {
        for &other in geometry.unit(unit as usize) {
            let other = other as usize;
            if other != cell && !cells.contains(&other) {
                cells.push(other);
            }
        }
    }
    cells
}

/// What a BUG search found: the cells holding a third candidate, the extra
/// (BUG) digits of each, and the cells every one of them sees.
struct BugPattern {
    /// The cells with more than two candidates, in the order found.
    cells: Vec<usize>,
    /// Each such cell's extra digits (bit d-1 = digit d), parallel to `cells`.
    extras: Vec<u64>,
    /// The union of all extra digits.
    all_extras: u64,
    /// The cells that see every BUG cell (none of them a BUG cell).
    common: Vec<usize>,
}

/// Finds the BUG pattern as SE does: every unit and digit whose place count
/// is neither 0 nor 2 must have exactly one place in a cell of three or more
/// candidates (that digit is the cell's extra); once the extras are gone,
/// every empty cell must be bivalue and every digit have 0 or 2 places in
/// every unit.
fn find_bug_pattern(grid: &Candidates) -> Option<BugPattern> {
    let side = grid.side();
    let geometry = grid.geometry();
    let mut pattern = BugPattern {
        cells: Vec::new(),
        extras: Vec::new(),
        all_extras: 0,
        common: Vec::new(),
    };
    let mut common: Option<Vec<usize>> = None;
    for unit in units_box_row_col(side) {
        let cells = geometry.unit(unit);
        for digit in 1..=side as u8 {
            let positions = grid.positions(unit, digit);
            if positions.count_ones() == 0 || positions.count_ones() == 2 {
                continue;
            }
            let mut wide = bits(positions)
                .map(|i| cells[i] as usize)
                .filter(|&c| grid.count(c) >= 3);
            let first = wide.next()?;
            if wide.next().is_some() {
                continue;
            }
            let bit = 1u64 << (digit - 1);
            match pattern.cells.iter().position(|&c| c == first) {
                Some(index) => pattern.extras[index] |= bit,
                None => {
                    pattern.cells.push(first);
                    pattern.extras.push(bit);
                }
            }
            pattern.all_extras |= bit;
            let house = house_cells(grid, first);
            let shared = common.get_or_insert_with(|| house.clone());
            shared.retain(|c| house.contains(c) && !pattern.cells.contains(c));
            if pattern.cells.len() > 1 && pattern.all_extras.count_ones() > 1 && shared.is_empty() {
                return None;
            }
        }
    }
    let reduced = |cell: usize| match pattern.cells.iter().position(|&c| c == cell) {
        Some(index) => grid.mask(cell) & !pattern.extras[index],
        None => grid.mask(cell),
    };
    if grid.empty_cells().any(|c| reduced(c).count_ones() != 2) {
        return None;
    }
    for unit in 0..3 * side {
        let cells = geometry.unit(unit);
        for digit in 0..side {
            let places = cells
                .iter()
                .filter(|&&c| reduced(c as usize) >> digit & 1 == 1)
                .count();
            if places != 0 && places != 2 {
                return None;
            }
        }
    }
    pattern.common = common.unwrap_or_default();
    Some(pattern)
}

/// The indices of the set bits of `mask`, lowest first.
fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let index = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            index
        })
    })
}

/// The digits of `mask`, as text ("3" or "3, 7").
fn digit_list(mask: u64) -> String {
    bits(mask)
        .map(|i| (i + 1).to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Bivalue universal grave, SE's types 1 (one cell with extra candidates:
/// it keeps only them, 5.6) and 2 (several cells sharing one extra digit:
/// the cells seeing them all lose it, 5.7). Without the extras every cell
/// would be bivalue with each digit twice per unit, a pattern with either
/// none or two solutions.
pub(super) fn bug(grid: &Candidates, sink: &mut Sink<'_>) -> ControlFlow<()> {
    let side = grid.side();
    let Some(pattern) = find_bug_pattern(grid) else {
        return ControlFlow::Continue(());
    };
    if let [cell] = pattern.cells[..] {
        let removable = grid.mask(cell) & !pattern.all_extras;
        if removable != 0 {
            sink(Step {
                technique: Technique::Bug,
                name: "BUG type 1".to_string(),
                difficulty: Difficulty(56),
                placements: Vec::new(),
                eliminations: bits(removable)
                    .map(|i| Candidate::new(cell, i as u8 + 1))
                    .collect(),
                cells: vec![cell],
                reason: format!(
                    "every other cell is bivalue with each digit twice per unit; \
                     to avoid two solutions {} must be {}",
                    cell_name(side, cell),
                    digit_list(pattern.all_extras)
                ),
                side,
            })?;
        }
    } else if pattern.all_extras.count_ones() == 1 {
        let digit = pattern.all_extras.trailing_zeros() as u8 + 1;
        let eliminations: Vec<Candidate> = pattern
            .common
            .iter()
            .filter(|&&c| grid.has(c, digit))
            .map(|&c| Candidate::new(c, digit))
            .collect();
        if !eliminations.is_empty() {
            sink(Step {
                technique: Technique::Bug,
                name: "BUG type 2".to_string(),
                difficulty: Difficulty(57),
                placements: Vec::new(),
                eliminations,
                cells: pattern.cells.clone(),
                reason: format!(
                    "every other cell is bivalue with each digit twice per unit; \
                     to avoid two solutions one of {} is {digit}",
                    cell_list(side, &pattern.cells)
                ),
                side,
            })?;
        }
    }
    ControlFlow::Continue(())
}

/// Not yet written.
pub(super) fn loops(_grid: &Candidates, _sink: &mut Sink<'_>) -> ControlFlow<()> {
    ControlFlow::Continue(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The candidate grid of `puzzle` with `eliminated` (cell, digit) removed.
    fn grid_of(puzzle: &str, eliminated: &[(usize, u8)]) -> Candidates {
        let mut grid = Candidates::new(&puzzle.parse().expect("a puzzle")).expect("consistent");
        for &(cell, digit) in eliminated {
            grid.eliminate(cell, digit);
        }
        grid
    }

    /// Every step `find` reports on `grid`.
    fn steps_of(
        grid: &Candidates,
        find: fn(&Candidates, &mut Sink<'_>) -> ControlFlow<()>,
    ) -> Vec<Step> {
        let mut steps = Vec::new();
        let _ = find(grid, &mut |step| {
            steps.push(step);
            ControlFlow::Continue(())
        });
        steps
    }

    /// The (cell, digit) pairs a step eliminates.
    fn removed(step: &Step) -> Vec<(usize, u8)> {
        step.eliminations
            .iter()
            .map(|e| (e.cell, e.digit))
            .collect()
    }

    /// SE's step 50 of `....12..3..4...` (BUG type 1 at r6c5: 7 and 9 go).
    const BUG_ONE: &str =
        "561..2943.4.635812283914576.725634.13542.16.761.4..23543..56129126349758.9512.364";

    #[test]
    fn bug_type_one_keeps_the_extra_digit() {
        let steps = steps_of(&grid_of(BUG_ONE, &[]), bug);
        assert_eq!(steps.len(), 1);
        assert_eq!(steps[0].difficulty, Difficulty(56));
        assert_eq!(removed(&steps[0]), vec![(49, 7), (49, 9)]);
    }

    #[test]
    fn no_bug_when_a_cell_has_three_places_to_resolve() {
        // r6c5 loses its extra 8: the grid is no longer a BUG+1.
        let grid = grid_of(BUG_ONE, &[(49, 8)]);
        assert!(steps_of(&grid, bug).is_empty());
    }
}
