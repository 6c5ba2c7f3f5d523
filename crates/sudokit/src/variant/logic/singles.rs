//! Singles over every house: full house and hidden single (the last place
//! of a digit in a complete house), naked single (the last digit of a cell).

use std::ops::ControlFlow;

use super::grid::VariantGrid;
use super::{step, HouseKind};
use crate::logic::{cell_name, Candidate, Difficulty, Sink, Technique};

/// A full house: the last empty cell of a house (1.0).
const FULL_HOUSE: Difficulty = Difficulty(10);
/// A hidden single in a box or region (1.2), as Sudoku Explainer rates it.
const HIDDEN_IN_REGION: Difficulty = Difficulty(12);
/// A hidden single in a row, a column or another house (1.5).
const HIDDEN_ELSEWHERE: Difficulty = Difficulty(15);
/// A naked single (2.3).
const NAKED: Difficulty = Difficulty(23);

/// Full houses first, then hidden singles in boxes and regions, then in
/// the other complete houses: the easiest first.
pub(super) fn hidden(grid: &VariantGrid, sink: &mut Sink<'_>) -> ControlFlow<()> {
    let tables = grid.tables();
    let complete = tables.complete_count();
    let is_region = |h: usize| matches!(tables.kind(h), HouseKind::Box(_) | HouseKind::Region(_));
    for h in 0..complete {
        let cells = tables.house(h).iter().map(|&c| usize::from(c));
        let mut empty = cells.clone().filter(|&c| grid.value(c) == 0);
        if let (Some(cell), None) = (empty.next(), empty.next()) {
            let placed = cells.fold(0u64, |m, c| match grid.value(c) {
                0 => m,
                v => m | 1 << (v - 1),
            });
            let missing = grid.mask(cell) & !placed;
            if missing.count_ones() == 1 {
                let digit = missing.trailing_zeros() as u8 + 1;
                report(grid, h, cell, digit, FULL_HOUSE, "Full House", sink)?;
            }
        }
    }
    for pass_regions in [true, false] {
        for h in (0..complete).filter(|&h| is_region(h) == pass_regions) {
            for digit in 1..=grid.side() as u8 {
                let mut places = grid.places(h, digit);
                if let (Some(cell), None) = (places.next(), places.next()) {
                    let difficulty = match pass_regions {
                        true => HIDDEN_IN_REGION,
                        false => HIDDEN_ELSEWHERE,
                    };
                    report(grid, h, cell, digit, difficulty, "Hidden Single", sink)?;
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// Reports `digit` placed in `cell`, its last place in house `h`.
fn report(
    grid: &VariantGrid,
    h: usize,
    cell: usize,
    digit: u8,
    difficulty: Difficulty,
    name: &str,
    sink: &mut Sink<'_>,
) -> ControlFlow<()> {
    let mut s = step(grid, Technique::HiddenSingle, name, difficulty);
    s.placements.push(Candidate::new(cell, digit));
    s.cells.push(cell);
    let (house, at) = (grid.tables().house_name(h), cell_name(grid.side(), cell));
    s.reason = match difficulty {
        FULL_HOUSE => format!("{at} is the last empty cell of {house}, which lacks {digit}"),
        _ => format!("{digit} in {house} can only go in {at}"),
    };
    sink(s)
}

/// Naked singles: a cell with one candidate left.
pub(super) fn naked(grid: &VariantGrid, sink: &mut Sink<'_>) -> ControlFlow<()> {
    for cell in grid.empty_cells() {
        let mask = grid.mask(cell);
        if mask.count_ones() == 1 {
            let digit = mask.trailing_zeros() as u8 + 1;
            let mut s = step(grid, Technique::NakedSingle, "Naked Single", NAKED);
            s.placements.push(Candidate::new(cell, digit));
            s.cells.push(cell);
            s.reason = format!("{} can only hold {digit}", cell_name(grid.side(), cell));
            sink(s)?;
        }
    }
    ControlFlow::Continue(())
}
