//! Locked candidates over any houses: when a digit's places in a complete
//! house all lie where it crosses another house (pointing, claiming), or
//! all see one cell (the form anti-knight and anti-king puzzles need), the
//! digit leaves the other house, or that cell.

use std::ops::ControlFlow;

use super::grid::VariantGrid;
use super::{step, HouseKind};
use crate::logic::{cell_list, Candidate, Difficulty, Sink, Technique};

/// Pointing: a box's or region's places of a digit in one line (2.6).
const POINTING: Difficulty = Difficulty(26);
/// Claiming and every other crossing, and places that all see one cell (2.8).
const CLAIMING: Difficulty = Difficulty(28);

/// Locked candidates between crossing houses, then (when there are none)
/// the places of a digit in a house that all see a cell outside it.
pub(super) fn find(grid: &VariantGrid, sink: &mut Sink<'_>) -> ControlFlow<()> {
    let tables = grid.tables();
    let mut found = false;
    let mut report = |s| {
        found = true;
        sink(s)
    };
    for a in 0..tables.complete_count() {
        for digit in 1..=grid.side() as u8 {
            for overlap in tables.overlaps_of(a) {
                let has = |c: &u16| grid.has(usize::from(*c), digit);
                if overlap.a_rest.iter().any(has) || !overlap.shared.iter().any(has) {
                    continue;
                }
                let eliminations: Vec<Candidate> = overlap
                    .b_rest
                    .iter()
                    .filter(|c| has(c))
                    .map(|&c| Candidate::new(usize::from(c), digit))
                    .collect();
                if eliminations.is_empty() {
                    continue;
                }
                let (ka, kb) = (tables.kind(a), tables.kind(overlap.b as usize));
                let pointing =
                    matches!(ka, HouseKind::Box(_) | HouseKind::Region(_)) && kb.is_line();
                let (name, difficulty) = match (pointing, ka.is_line()) {
                    (true, _) => ("Pointing", POINTING),
                    (false, true) => ("Claiming", CLAIMING),
                    (false, false) => ("Locked Candidates", CLAIMING),
                };
                let cells: Vec<usize> = overlap
                    .shared
                    .iter()
                    .filter(|c| has(c))
                    .map(|&c| usize::from(c))
                    .collect();
                let mut s = step(grid, Technique::Intersection, name, difficulty);
                s.reason = format!(
                    "in {}, {digit} can only go in {}, which are also in {}",
                    tables.house_name(a),
                    cell_list(grid.side(), &cells),
                    tables.house_name(overlap.b as usize)
                );
                s.cells = cells;
                s.eliminations = eliminations;
                report(s)?;
            }
        }
    }
    if found {
        return ControlFlow::Continue(());
    }
    seen_by_all(grid, sink)
}

/// A digit whose places in a complete house all see a cell outside the
/// house is not in that cell: one of them holds the digit.
fn seen_by_all(grid: &VariantGrid, sink: &mut Sink<'_>) -> ControlFlow<()> {
    let tables = grid.tables();
    for h in 0..tables.complete_count() {
        for digit in 1..=grid.side() as u8 {
            let places: Vec<usize> = grid.places(h, digit).collect();
            if places.len() < 2 {
                continue;
            }
            let eliminations: Vec<Candidate> = tables
                .peers(places[0])
                .iter()
                .map(|&c| usize::from(c))
                .filter(|&c| {
                    grid.has(c, digit)
                        && !places.contains(&c)
                        && places[1..].iter().all(|&p| grid.sees(p, c))
                })
                .map(|c| Candidate::new(c, digit))
                .collect();
            if eliminations.is_empty() {
                continue;
            }
            let mut s = step(grid, Technique::Intersection, "Locked Candidates", CLAIMING);
            s.reason = format!(
                "in {}, {digit} can only go in {}, which all see {}",
                tables.house_name(h),
                cell_list(grid.side(), &places),
                cell_list(
                    grid.side(),
                    &eliminations.iter().map(|e| e.cell).collect::<Vec<_>>()
                )
            );
            s.cells = places;
            s.eliminations = eliminations;
            sink(s)?;
        }
    }
    ControlFlow::Continue(())
}
