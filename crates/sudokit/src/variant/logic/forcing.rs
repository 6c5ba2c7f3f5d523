//! Nishio: a candidate whose placement leads, through singles alone, to a
//! contradiction (a cell left without a digit, a digit left without a
//! place in a complete house, a cage or leftover whose sum can no longer
//! be made) is false. A sum with one empty cell left gives that cell's
//! digit: that is a single too, and on killers the cage combinations join
//! the singles when these run out. The propagation works on the layout's houses and peers, so it
//! holds on every variant; it is the engine's last resort, after the
//! chains.

use std::ops::ControlFlow;

use super::grid::{digits, VariantGrid};
use super::step;
use crate::budget::Budget;
use crate::logic::{cell_name, chain_difficulty, Candidate, Difficulty, Sink, Technique};

/// Sudoku Explainer's Nishio base (7.5), before the length increment.
const NISHIO: u16 = 75;

/// Every candidate whose placement contradicts the grid through singles,
/// the shortest contradiction first; gives up once `budget` is spent.
pub(super) fn nishio(grid: &VariantGrid, budget: &Budget, sink: &mut Sink<'_>) -> ControlFlow<()> {
    let mut found: Vec<(usize, Candidate, String)> = Vec::new();
    // Cells with fewest candidates first: their contradictions tend to be
    // short, and a propagation longer than the shortest found so far is
    // abandoned (it cannot come first).
    let mut cells: Vec<usize> = grid
        .empty_cells()
        .filter(|&c| grid.mask(c).count_ones() >= 2)
        .collect();
    cells.sort_by_key(|&c| (grid.mask(c).count_ones(), c));
    let mut shortest = usize::MAX;
    for cell in cells {
        if budget.is_spent() {
            return ControlFlow::Continue(());
        }
        for digit in digits(grid.mask(cell)) {
            let mut trial = grid.clone();
            trial.place(cell, digit);
            if let Some((placed, why)) = propagate(&mut trial, shortest) {
                shortest = shortest.min(placed);
                found.push((placed, Candidate::new(cell, digit), why));
            }
        }
    }
    found.sort_by_key(|(placed, c, _)| (*placed, *c));
    for (placed, c, why) in found {
        let increment = chain_difficulty(placed + 1).0 - chain_difficulty(0).0;
        let mut s = step(
            grid,
            Technique::Nishio,
            "Nishio",
            Difficulty(NISHIO + increment),
        );
        s.reason = format!(
            "if {}={} were true, {placed} singles later {why}",
            cell_name(grid.side(), c.cell),
            c.digit
        );
        s.cells = vec![c.cell];
        s.eliminations = vec![c];
        sink(s)?;
    }
    ControlFlow::Continue(())
}

/// Places singles in `grid` until none is left or a contradiction shows;
/// on a contradiction, the number of singles placed and what broke. Gives
/// up (`None`) once more than `limit` singles are placed.
fn propagate(grid: &mut VariantGrid, limit: usize) -> Option<(usize, String)> {
    let side = grid.side();
    let mut placed = 0;
    loop {
        if let Some(why) = contradiction(grid) {
            return Some((placed, why));
        }
        let single = grid
            .empty_cells()
            .find(|&c| grid.mask(c).count_ones() == 1)
            .map(|c| (c, grid.mask(c).trailing_zeros() as u8 + 1))
            .or_else(|| {
                let tables = grid.tables();
                (0..tables.complete_count()).find_map(|h| {
                    (1..=side as u8).find_map(|d| {
                        let mut places = grid.places(h, d);
                        match (places.next(), places.next()) {
                            (Some(c), None) => Some((c, d)),
                            _ => None,
                        }
                    })
                })
            })
            .or_else(|| sum_single(grid));
        match single {
            Some((cell, digit)) => {
                if placed == limit {
                    return None;
                }
                grid.place(cell, digit);
                placed += 1;
            }
            None if !grid.tables().sums().is_empty() && super::cages::restrict_all(grid) => {}
            None => return None,
        }
    }
}

/// What is broken in `grid`, if anything: an empty cell without a
/// candidate, a complete house missing a digit with no place left, or a
/// full cage off its sum.
fn contradiction(grid: &VariantGrid) -> Option<String> {
    let side = grid.side();
    if let Some(c) = grid.empty_cells().find(|&c| grid.mask(c) == 0) {
        return Some(format!("{} has no digit left", cell_name(side, c)));
    }
    let tables = grid.tables();
    for h in 0..tables.complete_count() {
        for d in 1..=side as u8 {
            if !grid.placed_in(h, d) && grid.places(h, d).next().is_none() {
                return Some(format!("{d} has no place left in {}", tables.house_name(h)));
            }
        }
    }
    for sum in tables.sums() {
        // The least and the most the cells can make, each cell alone.
        let (mut least, mut most) = (0u32, 0u32);
        for &c in &sum.cells {
            let (c, v) = (usize::from(c), u32::from(grid.value(usize::from(c))));
            let mask = grid.mask(c);
            if v != 0 {
                least += v;
                most += v;
            } else if mask != 0 {
                least += mask.trailing_zeros() + 1;
                most += 64 - mask.leading_zeros();
            }
        }
        if !(least..=most).contains(&sum.sum) {
            let first = cell_name(side, usize::from(sum.cells[0]));
            return Some(format!(
                "the sum {} at {first} can no longer be made",
                sum.sum
            ));
        }
    }
    None
}

/// A sum with one empty cell left, whose digit it then gives.
fn sum_single(grid: &VariantGrid) -> Option<(usize, u8)> {
    grid.tables().sums().iter().find_map(|sum| {
        let mut empty = sum
            .cells
            .iter()
            .map(|&c| usize::from(c))
            .filter(|&c| grid.value(c) == 0);
        let (Some(cell), None) = (empty.next(), empty.next()) else {
            return None;
        };
        let placed: u32 = sum
            .cells
            .iter()
            .map(|&c| u32::from(grid.value(usize::from(c))))
            .sum();
        let digit = u8::try_from(sum.sum.checked_sub(placed)?).ok()?;
        (digit >= 1 && grid.has(cell, digit)).then_some((cell, digit))
    })
}
