//! Wings: a pivot cell and two bivalue pincers it sees, which between them
//! force a digit `z` into one of the pincers (or the pivot), so every cell
//! seeing all of them loses `z`.

use std::ops::ControlFlow;

use super::step::cell_name;
use super::{Candidate, Candidates, Difficulty, Sink, Step, Technique};

/// XY-Wings (4.2): a bivalue pivot `xy` and pincers `xz`, `yz` it sees;
/// the cells seeing both pincers lose `z`.
pub(super) fn xy(grid: &Candidates, sink: &mut Sink<'_>) -> ControlFlow<()> {
    wings(grid, false, sink)
}

/// XYZ-Wings (4.4): a trivalue pivot `xyz` and pincers `xz`, `yz` it sees;
/// the cells seeing the pivot and both pincers lose `z`.
pub(super) fn xyz(grid: &Candidates, sink: &mut Sink<'_>) -> ControlFlow<()> {
    wings(grid, true, sink)
}

/// W-Wings (4.4): two cells holding the same two digits `x`, `y` that do
/// not see each other, joined by a unit where `x` has only two places, one
/// seeing each cell. One of the cells is `y`, so the cells seeing both lose
/// `y`.
pub(super) fn w(grid: &Candidates, sink: &mut Sink<'_>) -> ControlFlow<()> {
    let cells: Vec<usize> = grid.empty_cells().filter(|&c| grid.count(c) == 2).collect();
    for (i, &a) in cells.iter().enumerate() {
        for &b in &cells[i + 1..] {
            let mask = grid.mask(a);
            if grid.mask(b) != mask || grid.sees(a, b) {
                continue;
            }
            for x in super::subsets::digits_of(mask) {
                let y = (mask & !(1 << (x - 1))).trailing_zeros() as u8 + 1;
                let Some(link) = conjugate_link(grid, a, b, x) else {
                    continue;
                };
                let eliminations: Vec<Candidate> = grid
                    .empty_cells()
                    .filter(|&c| c != a && c != b && grid.has(c, y))
                    .filter(|&c| grid.sees(c, a) && grid.sees(c, b))
                    .map(|c| Candidate::new(c, y))
                    .collect();
                if !eliminations.is_empty() {
                    sink(w_step(grid, [a, b], link, x, y, eliminations))?;
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// A unit where `x` has exactly two places, neither `a` nor `b`, one seeing
/// `a` and the other `b`: those two places.
fn conjugate_link(grid: &Candidates, a: usize, b: usize, x: u8) -> Option<[usize; 2]> {
    (0..grid.geometry().unit_count()).find_map(|unit| {
        let mut places = grid.cells_for(unit, x);
        let (Some(p), Some(q), None) = (places.next(), places.next(), places.next()) else {
            return None;
        };
        if [p, q].iter().any(|&c| c == a || c == b) {
            return None;
        }
        if grid.sees(p, a) && grid.sees(q, b) {
            Some([p, q])
        } else if grid.sees(q, a) && grid.sees(p, b) {
            Some([q, p])
        } else {
            None
        }
    })
}

/// The step of a W-Wing on cells `[a, b]` linked on `x` by `link`.
fn w_step(
    grid: &Candidates,
    [a, b]: [usize; 2],
    [p, q]: [usize; 2],
    x: u8,
    y: u8,
    eliminations: Vec<Candidate>,
) -> Step {
    let side = grid.side();
    Step {
        technique: Technique::WWing,
        name: "W-Wing".to_string(),
        difficulty: Difficulty(44),
        placements: Vec::new(),
        eliminations,
        cells: vec![a, b, p, q],
        reason: format!(
            "{} and {} hold only {x}, {y}; {x} is in {} or {}, so one of them is {y}",
            cell_name(side, a),
            cell_name(side, b),
            cell_name(side, p),
            cell_name(side, q)
        ),
        side,
    }
}

/// The cells sharing a unit with `cell`, in Sudoku Explainer's order: its
/// box (row-major), then the rest of its row, then the rest of its column.
fn house_cells(grid: &Candidates, cell: usize) -> impl Iterator<Item = usize> + '_ {
    let geometry = grid.geometry();
    let [row, column, block] = geometry.units_of(cell);
    let in_block = move |c: &usize| geometry.units_of(*c)[2] == block;
    let block_cells = geometry.unit(block as usize).iter().map(|&c| c as usize);
    let line_cells = |unit: u16| geometry.unit(unit as usize).iter().map(|&c| c as usize);
    block_cells
        .chain(line_cells(row).filter(move |c| !in_block(c)))
        .chain(line_cells(column).filter(move |c| !in_block(c)))
        .filter(move |&c| c != cell)
}

/// The shared search: pivots row-major with two (XYZ: three) candidates,
/// then the `xz` pincer and the `yz` pincer each in the pivot's
/// [`house_cells`] order, as SE scans them.
fn wings(grid: &Candidates, with_z_in_pivot: bool, sink: &mut Sink<'_>) -> ControlFlow<()> {
    let pivot_count = if with_z_in_pivot { 3 } else { 2 };
    let common_count = u32::from(with_z_in_pivot);
    for pivot in grid.empty_cells() {
        let xy = grid.mask(pivot);
        if xy.count_ones() != pivot_count {
            continue;
        }
        for xz_cell in house_cells(grid, pivot) {
            let xz = grid.mask(xz_cell);
            if xz.count_ones() != 2 || (xy & !xz).count_ones() != 1 {
                continue;
            }
            for yz_cell in house_cells(grid, pivot) {
                let yz = grid.mask(yz_cell);
                if yz.count_ones() != 2
                    || (xy | xz | yz).count_ones() != 3
                    || (xy & xz & yz).count_ones() != common_count
                {
                    continue;
                }
                let wing = [pivot, xz_cell, yz_cell];
                let z = (xz & yz).trailing_zeros() as u8 + 1;
                let eliminations: Vec<Candidate> = house_cells(grid, xz_cell)
                    .filter(|&c| !wing.contains(&c) && grid.has(c, z))
                    .filter(|&c| grid.sees(c, yz_cell) && (!with_z_in_pivot || grid.sees(c, pivot)))
                    .map(|c| Candidate::new(c, z))
                    .collect();
                if !eliminations.is_empty() {
                    sink(wing_step(grid, wing, z, with_z_in_pivot, eliminations))?;
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// The step of an XY- or XYZ-Wing `[pivot, xz, yz]` eliminating `z`.
fn wing_step(
    grid: &Candidates,
    wing: [usize; 3],
    z: u8,
    with_z_in_pivot: bool,
    eliminations: Vec<Candidate>,
) -> Step {
    let side = grid.side();
    let (technique, name, tenths) = if with_z_in_pivot {
        (Technique::XyzWing, "XYZ-Wing", 44)
    } else {
        (Technique::XyWing, "XY-Wing", 42)
    };
    let [pivot, xz, yz] = wing;
    let pivot_or = if with_z_in_pivot { ", the pivot" } else { "" };
    Step {
        technique,
        name: name.to_string(),
        difficulty: Difficulty(tenths),
        placements: Vec::new(),
        eliminations,
        cells: wing.to_vec(),
        reason: format!(
            "whatever the pivot {} holds, {z} is in {}{pivot_or} or {}",
            cell_name(side, pivot),
            cell_name(side, xz),
            cell_name(side, yz)
        ),
        side,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Puzzle;

    /// An empty 9×9 grid where each listed cell keeps only the given digits.
    fn grid_with(cells: &[(usize, &[u8])]) -> Candidates {
        let p: Puzzle = ".".repeat(81).parse().unwrap();
        let mut grid = Candidates::new(&p).unwrap();
        for &(cell, keep) in cells {
            for digit in (1..=9).filter(|d| !keep.contains(d)) {
                grid.eliminate(cell, digit);
            }
        }
        grid
    }

    /// The first step `find` reports on `grid`.
    fn first(
        grid: &Candidates,
        find: fn(&Candidates, &mut Sink<'_>) -> ControlFlow<()>,
    ) -> Option<Step> {
        let mut found = None;
        let _ = find(grid, &mut |s| {
            found = Some(s);
            ControlFlow::Break(())
        });
        found
    }

    #[test]
    fn house_cells_are_box_then_row_then_column() {
        let grid = grid_with(&[]);
        let house: Vec<usize> = house_cells(&grid, 10).collect();
        assert_eq!(house.len(), 20);
        assert_eq!(&house[..8], &[0, 1, 2, 9, 11, 18, 19, 20]);
        assert_eq!(&house[8..14], &[12, 13, 14, 15, 16, 17]);
        assert_eq!(&house[14..], &[28, 37, 46, 55, 64, 73]);
    }

    #[test]
    fn xy_wing_removes_z_where_the_pincers_meet() {
        // Pivot r1c1 {1,2}, pincers r1c5 {1,3} and r5c1 {2,3}: r5c5 loses 3.
        let grid = grid_with(&[(0, &[1, 2]), (4, &[1, 3]), (36, &[2, 3])]);
        let step = first(&grid, xy).expect("an XY-Wing");
        assert_eq!(step.difficulty, Difficulty(42));
        assert_eq!(step.eliminations, [Candidate::new(40, 3)]);
        assert_eq!(step.cells, [0, 4, 36]);
        assert!(first(&grid, xyz).is_none());
    }

    #[test]
    fn xyz_wing_removes_z_where_all_three_meet() {
        // Pivot r1c1 {1,2,3}, pincers r2c2 {2,3} and r1c5 {1,3}: r1c2 and
        // r1c3 lose 3.
        let grid = grid_with(&[(0, &[1, 2, 3]), (10, &[2, 3]), (4, &[1, 3])]);
        let step = first(&grid, xyz).expect("an XYZ-Wing");
        assert_eq!(step.difficulty, Difficulty(44));
        assert_eq!(step.cells, [0, 10, 4]);
        assert_eq!(
            step.eliminations,
            [Candidate::new(1, 3), Candidate::new(2, 3)]
        );
        assert!(first(&grid, xy).is_none());
    }

    #[test]
    fn w_wing_removes_y_where_both_cells_meet() {
        // r1c1 and r5c5 hold {1,2}; in row 9, 1 is only in r9c1 and r9c5.
        let mut keep: Vec<(usize, &[u8])> = vec![(0, &[1, 2]), (40, &[1, 2])];
        let no_one: &[u8] = &[2, 3, 4, 5, 6, 7, 8, 9];
        keep.extend((73..81).filter(|&c| c != 76).map(|c| (c, no_one)));
        let grid = grid_with(&keep);
        let step = first(&grid, w).expect("a W-Wing");
        assert_eq!(step.difficulty, Difficulty(44));
        assert_eq!(step.cells, [0, 40, 72, 76]);
        assert_eq!(
            step.eliminations,
            [Candidate::new(4, 2), Candidate::new(36, 2)]
        );
    }
}
