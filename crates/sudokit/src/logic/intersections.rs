//! Intersections: a digit confined to where a box and a line cross.
//! Pointing (the box's places lie on one line: the rest of the line loses
//! the digit) and claiming (the line's places lie in one box: the rest of the
//! box loses it).

use std::ops::ControlFlow;

use super::step::{cell_list, cell_name, unit_name};
use super::{Candidate, Candidates, Difficulty, Sink, Step, Technique};

/// Locked candidates. With `direct`, only the ones whose eliminations leave
/// a hidden single, reported as that placement (SE's "direct pointing" 1.7
/// and "direct claiming" 1.9); otherwise every one that eliminates
/// (pointing 2.6, claiming 2.8).
pub(super) fn locked(grid: &Candidates, direct: bool, sink: &mut Sink<'_>) -> ControlFlow<()> {
    let side = grid.side();
    let geometry = grid.geometry();
    // Pointing: from boxes to rows and columns; claiming: from rows and
    // columns to boxes.
    for pointing in [true, false] {
        let sources = if pointing {
            2 * side..3 * side
        } else {
            0..2 * side
        };
        for source in sources {
            for digit in 1..=side as u8 {
                let cells: Vec<usize> = grid.cells_for(source, digit).collect();
                if cells.len() < 2 {
                    continue;
                }
                let kinds: &[usize] = if pointing { &[0, 1] } else { &[2] };
                for &kind in kinds {
                    let target = geometry.units_of(cells[0])[kind] as usize;
                    if !cells
                        .iter()
                        .all(|&c| geometry.units_of(c)[kind] as usize == target)
                    {
                        continue;
                    }
                    let removed: Vec<Candidate> = grid
                        .cells_for(target, digit)
                        .filter(|c| !cells.contains(c))
                        .map(|c| Candidate::new(c, digit))
                        .collect();
                    if removed.is_empty() {
                        continue;
                    }
                    let name = if pointing { "Pointing" } else { "Claiming" };
                    let reason = format!(
                        "in {}, {digit} can only go in {}, all in {}",
                        unit_name(side, source),
                        cell_list(side, &cells),
                        unit_name(side, target)
                    );
                    if !direct {
                        sink(Step {
                            technique: Technique::Intersection,
                            name: name.to_string(),
                            difficulty: Difficulty(if pointing { 26 } else { 28 }),
                            placements: Vec::new(),
                            eliminations: removed,
                            cells: cells.clone(),
                            reason,
                            side,
                        })?;
                    } else if let Some((cell, unit)) = single_left(grid, digit, &removed) {
                        sink(Step {
                            technique: Technique::DirectPointing,
                            name: format!("Direct {name}"),
                            difficulty: Difficulty(if pointing { 17 } else { 19 }),
                            placements: vec![Candidate::new(cell, digit)],
                            eliminations: Vec::new(),
                            cells: cells.clone(),
                            reason: format!(
                                "{reason}; without it elsewhere in {}, {digit} can only go in {} of {}",
                                unit_name(side, target),
                                cell_name(side, cell),
                                unit_name(side, unit)
                            ),
                            side,
                        })?;
                    }
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// A unit where, once `removed` are gone, `digit` has one place left though
/// it had more before: that cell and unit.
pub(super) fn single_left(
    grid: &Candidates,
    digit: u8,
    removed: &[Candidate],
) -> Option<(usize, usize)> {
    let side = grid.side();
    let gone = |c: usize| removed.iter().any(|r| r.cell == c && r.digit == digit);
    for unit in super::singles::units_box_col_row(side) {
        let touched = removed
            .iter()
            .any(|r| grid.geometry().units_of(r.cell).contains(&(unit as u16)));
        if !touched {
            continue;
        }
        let mut left = grid.cells_for(unit, digit).filter(|&c| !gone(c));
        if let (Some(cell), None) = (left.next(), left.next()) {
            return Some((cell, unit));
        }
    }
    None
}
