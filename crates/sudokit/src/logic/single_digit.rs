//! Single-digit patterns players use that Sudoku Explainer lacks:
//! Skyscraper, 2-String Kite and Empty Rectangle. Each joins two strong
//! links of one digit (a conjugate pair: the digit's only two places in a
//! unit) so that one of two cells must hold the digit; every cell that sees
//! both loses it.
//!
//! The difficulties of the player techniques (this file, `coloring.rs` and
//! `aic.rs`) are kept here, in one place.

use std::ops::ControlFlow;

use super::step::{cell_list, cell_name, unit_name};
use super::{Candidate, Candidates, Difficulty, Sink, Step, Technique};

// Difficulties of the techniques SE lacks, on SE's scale: the ratings
// players and HoDoKu's step order agree on, mapped onto SE's steps. The
// single-digit patterns sit between SE's Swordfish (3.8) and XY-Wing (4.2),
// Simple Coloring just above SE's XYZ-Wing (4.4), and chains at SE's own
// chain base (6.6, its forcing chains) plus SE's length increment.

/// Skyscraper (the simplest turbot fish): 4.0.
pub(super) const SKYSCRAPER: Difficulty = Difficulty(40);
/// 2-String Kite, a step above the Skyscraper: 4.1.
pub(super) const KITE: Difficulty = Difficulty(41);
/// Empty Rectangle, a step above the kite (the box is harder to see): 4.2.
pub(super) const EMPTY_RECTANGLE: Difficulty = Difficulty(42);
/// Simple Coloring, colour trap: 4.5.
pub(super) const COLOR_TRAP: Difficulty = Difficulty(45);
/// Simple Coloring, colour wrap (a whole colour goes): 4.6.
pub(super) const COLOR_WRAP: Difficulty = Difficulty(46);
/// X-Chain, XY-Chain, AIC and discontinuous nice loop of four links or
/// fewer: SE's forcing-chain base 6.6; longer chains add SE's length
/// increment ([`chain_difficulty`]).
pub(super) const CHAIN: Difficulty = Difficulty(66);

/// A chain's difficulty: [`CHAIN`] plus Sudoku Explainer's length increment
/// (`Chaining.getLengthDifficulty`): 0.1 for each ceiling of the series 4,
/// 6, 8, 12, 16, 24, 32, 48, 64, … (alternately ×3/2 and ×4/3) that the
/// number of links exceeds.
pub(crate) fn chain_difficulty(links: usize) -> Difficulty {
    let mut tenths = CHAIN.0;
    let mut ceiling = 4;
    let mut odd = false;
    while links > ceiling {
        tenths += 1;
        ceiling = if odd {
            ceiling * 4 / 3
        } else {
            ceiling * 3 / 2
        };
        odd = !odd;
    }
    Difficulty(tenths)
}

/// The two cells of `unit` where `digit` can go when there are exactly two
/// (a conjugate pair, a strong link), in unit order.
pub(super) fn conjugate_pair(grid: &Candidates, unit: usize, digit: u8) -> Option<(usize, usize)> {
    let positions = grid.positions(unit, digit);
    if positions.count_ones() != 2 {
        return None;
    }
    let cells = grid.geometry().unit(unit);
    let first = positions.trailing_zeros() as usize;
    let second = (63 - positions.leading_zeros()) as usize;
    Some((cells[first] as usize, cells[second] as usize))
}

/// The candidates of `digit` in cells that see both `a` and `b`, outside
/// `pattern`, in row-major order (empty, and unallocated, when there are
/// none).
pub(super) fn seeing_both(
    grid: &Candidates,
    digit: u8,
    a: usize,
    b: usize,
    pattern: &[usize],
) -> Vec<Candidate> {
    let mut removed: Vec<Candidate> = grid
        .geometry()
        .peers(a)
        .iter()
        .map(|&p| p as usize)
        .filter(|&p| grid.has(p, digit) && grid.sees(p, b) && !pattern.contains(&p))
        .map(|p| Candidate::new(p, digit))
        .collect();
    removed.sort_unstable();
    removed
}

/// A Step of a single-digit technique.
fn single_digit_step(
    technique: Technique,
    name: &str,
    difficulty: Difficulty,
    eliminations: Vec<Candidate>,
    cells: Vec<usize>,
    reason: String,
    side: usize,
) -> Step {
    Step {
        technique,
        name: name.to_string(),
        difficulty,
        placements: Vec::new(),
        eliminations,
        cells,
        reason,
        side,
    }
}

/// "r1c5, r3c5 cannot be 4": the end of every reason.
fn cannot_be(side: usize, removed: &[Candidate], digit: u8) -> String {
    let cells: Vec<usize> = removed.iter().map(|c| c.cell).collect();
    format!("{} cannot be {digit}", cell_list(side, &cells))
}

/// Skyscraper: two parallel lines (rows or columns) where a digit has two
/// places each, one place of each on the same cross line. At most one of
/// those two bases holds the digit, so one of the two other ends (the tops)
/// does, and every cell seeing both tops loses it.
pub(super) fn skyscraper(grid: &Candidates, sink: &mut Sink<'_>) -> ControlFlow<()> {
    let side = grid.side();
    for digit in 1..=side as u8 {
        for kind in 0..2 {
            let lines = kind * side..(kind + 1) * side;
            for first in lines.clone() {
                for second in first + 1..lines.end {
                    skyscraper_on(grid, digit, first, second, sink)?;
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// The Skyscraper of `digit` on the parallel lines `first` and `second`,
/// if they make one.
fn skyscraper_on(
    grid: &Candidates,
    digit: u8,
    first: usize,
    second: usize,
    sink: &mut Sink<'_>,
) -> ControlFlow<()> {
    let (p1, p2) = (grid.positions(first, digit), grid.positions(second, digit));
    let shared = p1 & p2;
    if p1.count_ones() != 2 || p2.count_ones() != 2 || shared.count_ones() != 1 {
        return ControlFlow::Continue(());
    }
    let side = grid.side();
    let geometry = grid.geometry();
    let at = |line: usize, positions: u64| geometry.unit(line)[positions.trailing_zeros() as usize];
    let (base1, base2) = (at(first, shared) as usize, at(second, shared) as usize);
    let (top1, top2) = (
        at(first, p1 & !shared) as usize,
        at(second, p2 & !shared) as usize,
    );
    let pattern = [base1, top1, base2, top2];
    let removed = seeing_both(grid, digit, top1, top2, &pattern);
    if removed.is_empty() {
        return ControlFlow::Continue(());
    }
    let cross = geometry.units_of(base1)[if first < side { 1 } else { 0 }] as usize;
    let reason = format!(
        "{} and {} are the only {digit}s of {}, {} and {} the only ones of {}; \
         {} and {} share {}, so one of {} and {} is {digit} and {}",
        cell_name(side, base1),
        cell_name(side, top1),
        unit_name(side, first),
        cell_name(side, base2),
        cell_name(side, top2),
        unit_name(side, second),
        cell_name(side, base1),
        cell_name(side, base2),
        unit_name(side, cross),
        cell_name(side, top1),
        cell_name(side, top2),
        cannot_be(side, &removed, digit)
    );
    sink(single_digit_step(
        Technique::Skyscraper,
        "Skyscraper",
        SKYSCRAPER,
        removed,
        pattern.to_vec(),
        reason,
        side,
    ))
}

/// 2-String Kite: a row and a column where a digit has two places each,
/// one end of each in the same box (different cells). At most one of those
/// two ends holds the digit, so one of the two far ends does, and every
/// cell seeing both far ends loses it.
pub(super) fn kite(grid: &Candidates, sink: &mut Sink<'_>) -> ControlFlow<()> {
    let side = grid.side();
    for digit in 1..=side as u8 {
        for row in 0..side {
            let Some(row_pair) = conjugate_pair(grid, row, digit) else {
                continue;
            };
            for column in side..2 * side {
                let Some(column_pair) = conjugate_pair(grid, column, digit) else {
                    continue;
                };
                for (row_near, row_far) in [row_pair, (row_pair.1, row_pair.0)] {
                    for (column_near, column_far) in [column_pair, (column_pair.1, column_pair.0)] {
                        let strings = Kite {
                            digit,
                            row,
                            column,
                            row_near,
                            row_far,
                            column_near,
                            column_far,
                        };
                        strings.report(grid, sink)?;
                    }
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// A candidate 2-String Kite: the row's two places and the column's, each
/// split into the end near the joining box and the far end.
struct Kite {
    /// The digit.
    digit: u8,
    /// The row unit.
    row: usize,
    /// The column unit.
    column: usize,
    /// The row's place in the joining box.
    row_near: usize,
    /// The row's other place.
    row_far: usize,
    /// The column's place in the joining box.
    column_near: usize,
    /// The column's other place.
    column_far: usize,
}

impl Kite {
    /// Reports the kite's step when it is one: the near ends share a box
    /// the far ends are outside, and some cell sees both far ends.
    fn report(&self, grid: &Candidates, sink: &mut Sink<'_>) -> ControlFlow<()> {
        let side = grid.side();
        let box_of = |cell: usize| grid.geometry().units_of(cell)[2];
        let joining = box_of(self.row_near);
        if self.row_near == self.column_near
            || box_of(self.column_near) != joining
            || box_of(self.row_far) == joining
            || box_of(self.column_far) == joining
            || self.row_far == self.column_far
        {
            return ControlFlow::Continue(());
        }
        let pattern = [
            self.row_far,
            self.row_near,
            self.column_near,
            self.column_far,
        ];
        let removed = seeing_both(grid, self.digit, self.row_far, self.column_far, &pattern);
        if removed.is_empty() {
            return ControlFlow::Continue(());
        }
        let digit = self.digit;
        let reason = format!(
            "{} and {} are the only {digit}s of {}, {} and {} the only \
             ones of {}; {} and {} share {}, so one of {} and {} is {digit} and {}",
            cell_name(side, self.row_near),
            cell_name(side, self.row_far),
            unit_name(side, self.row),
            cell_name(side, self.column_near),
            cell_name(side, self.column_far),
            unit_name(side, self.column),
            cell_name(side, self.row_near),
            cell_name(side, self.column_near),
            unit_name(side, joining as usize),
            cell_name(side, self.row_far),
            cell_name(side, self.column_far),
            cannot_be(side, &removed, digit)
        );
        sink(single_digit_step(
            Technique::TwoStringKite,
            "2-String Kite",
            KITE,
            removed,
            pattern.to_vec(),
            reason,
            side,
        ))
    }
}

/// Empty Rectangle: a box whose places of a digit all lie on one of its
/// rows plus one of its columns (some on each off their crossing), so the
/// digit is in that row or that column. With a conjugate pair on a line
/// across the box's row (or column) outside the box: if the target cell
/// (where the pair's far end's line meets the box's column, or row) held
/// the digit, the pair's far end would not, its near end would, the box's
/// row (column) would lose the digit and the box's column (row) would need
/// it twice.
pub(super) fn empty_rectangle(grid: &Candidates, sink: &mut Sink<'_>) -> ControlFlow<()> {
    let side = grid.side();
    let shape = grid.shape();
    for digit in 1..=side as u8 {
        for box_index in 0..side {
            let box_unit = 2 * side + box_index;
            let places = grid.positions(box_unit, digit);
            if places.count_ones() < 2 {
                continue;
            }
            let first = grid.geometry().unit(box_unit)[0] as usize;
            let (top, left) = (shape.row_of(first), shape.col_of(first));
            for row in top..top + shape.box_rows() {
                for column in left..left + shape.box_cols() {
                    let rectangle = EmptyRectangle {
                        digit,
                        box_unit,
                        places,
                        row,
                        column,
                    };
                    if rectangle.holds(grid) {
                        rectangle.report(grid, sink)?;
                    }
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// A box whose places of a digit lie on one row and one column of it.
struct EmptyRectangle {
    /// The digit.
    digit: u8,
    /// The box unit.
    box_unit: usize,
    /// The digit's places in the box (bit `i` for the box's `i`-th cell,
    /// row-major in the box).
    places: u64,
    /// The row (0-based) the box's places lie on, with `column`.
    row: usize,
    /// The column (0-based) the box's places lie on, with `row`.
    column: usize,
}

impl EmptyRectangle {
    /// Whether the box's places lie on the row and column, some on the row
    /// off the column and some on the column off the row.
    fn holds(&self, grid: &Candidates) -> bool {
        let shape = grid.shape();
        let (box_rows, box_cols) = (shape.box_rows(), shape.box_cols());
        let row_in_box = self.row % box_rows;
        let column_in_box = self.column % box_cols;
        let on_row = ((1u64 << box_cols) - 1) << (row_in_box * box_cols);
        let on_column = (0..box_rows).fold(0u64, |m, r| m | 1 << (r * box_cols + column_in_box));
        self.places & !(on_row | on_column) == 0
            && self.places & on_row & !on_column != 0
            && self.places & on_column & !on_row != 0
    }

    /// The box's cells holding the digit.
    fn cells(&self, grid: &Candidates) -> Vec<usize> {
        let unit = grid.geometry().unit(self.box_unit);
        (0..unit.len())
            .filter(|&i| self.places >> i & 1 != 0)
            .map(|i| unit[i] as usize)
            .collect()
    }

    /// Reports the steps of the rectangle with each conjugate pair on a
    /// column (meeting the box's row) and on a row (meeting its column).
    fn report(&self, grid: &Candidates, sink: &mut Sink<'_>) -> ControlFlow<()> {
        let side = grid.side();
        let shape = grid.shape();
        let box_index = self.box_unit - 2 * side;
        for across_columns in [true, false] {
            for line in 0..side {
                let unit = if across_columns { side + line } else { line };
                let Some(pair) = conjugate_pair(grid, unit, self.digit) else {
                    continue;
                };
                for (near, far) in [pair, (pair.1, pair.0)] {
                    // `near` meets the box's row (or column) outside the box;
                    // `far`'s row (column) misses the box.
                    let (near_line, far_line, box_line) = if across_columns {
                        (shape.row_of(near), shape.row_of(far), self.row)
                    } else {
                        (shape.col_of(near), shape.col_of(far), self.column)
                    };
                    let target = if across_columns {
                        far_line * side + self.column
                    } else {
                        self.row * side + far_line
                    };
                    if near_line != box_line
                        || shape.box_of(near) == box_index
                        || shape.box_of(target) == box_index
                        || !grid.has(target, self.digit)
                    {
                        continue;
                    }
                    self.report_one(grid, unit, (near, far), target, sink)?;
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// Reports the rectangle with the conjugate pair `near`–`far` of
    /// `pair_unit`, eliminating the digit from `target`.
    fn report_one(
        &self,
        grid: &Candidates,
        pair_unit: usize,
        (near, far): (usize, usize),
        target: usize,
        sink: &mut Sink<'_>,
    ) -> ControlFlow<()> {
        let side = grid.side();
        let digit = self.digit;
        let removed = vec![Candidate::new(target, digit)];
        let cells = self.cells(grid);
        let row_unit = self.row;
        let column_unit = side + self.column;
        let reason = format!(
            "in {} the {digit}s ({}) all lie on {} or {}; \
             {} and {} are the only {digit}s of {}; if {} were {digit}, {} would not be, \
             {} would be, and {} would need {digit} twice, so {}",
            unit_name(side, self.box_unit),
            cell_list(side, &cells),
            unit_name(side, row_unit),
            unit_name(side, column_unit),
            cell_name(side, near),
            cell_name(side, far),
            unit_name(side, pair_unit),
            cell_name(side, target),
            cell_name(side, far),
            cell_name(side, near),
            if pair_unit >= side {
                unit_name(side, column_unit)
            } else {
                unit_name(side, row_unit)
            },
            cannot_be(side, &removed, digit)
        );
        let mut pattern = cells;
        pattern.extend([near, far]);
        sink(single_digit_step(
            Technique::EmptyRectangle,
            "Empty Rectangle",
            EMPTY_RECTANGLE,
            removed,
            pattern,
            reason,
            side,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::test_support::{only, rc, steps};
    use crate::Puzzle;

    #[test]
    fn chain_lengths_add_se_increments() {
        assert_eq!(chain_difficulty(3), Difficulty(66));
        assert_eq!(chain_difficulty(4), Difficulty(66));
        assert_eq!(chain_difficulty(5), Difficulty(67));
        assert_eq!(chain_difficulty(7), Difficulty(68));
        assert_eq!(chain_difficulty(9), Difficulty(69));
        assert_eq!(chain_difficulty(13), Difficulty(70));
    }

    #[test]
    fn skyscraper_on_two_rows() {
        // Row 1: 4 in c1, c5; row 5: 4 in c1, c6. Tops r1c5 and r5c6 both
        // see r2c6, r3c6 (box 2) and r4c5, r6c5 (box 5).
        let mut keep = vec![rc(1, 1), rc(1, 5), rc(5, 1), rc(5, 6)];
        keep.extend([rc(2, 6), rc(3, 6), rc(4, 5), rc(6, 5), rc(9, 9)]);
        let grid = only(4, &keep);
        let found = steps(&grid, skyscraper);
        let step = found
            .iter()
            .find(|s| s.cells == [rc(1, 1), rc(1, 5), rc(5, 1), rc(5, 6)])
            .expect("a skyscraper on rows 1 and 5");
        assert_eq!(step.difficulty, Difficulty(40));
        let removed: Vec<usize> = step.eliminations.iter().map(|c| c.cell).collect();
        assert_eq!(removed, [rc(2, 6), rc(3, 6), rc(4, 5), rc(6, 5)]);
        assert!(step.eliminations.iter().all(|c| c.digit == 4));
    }

    #[test]
    fn x_wing_is_no_skyscraper() {
        let keep = [rc(1, 1), rc(1, 5), rc(5, 1), rc(5, 5), rc(3, 3)];
        let grid = only(4, &keep);
        assert!(steps(&grid, skyscraper)
            .iter()
            .all(|s| !s.cells.contains(&rc(1, 5)) || !s.cells.contains(&rc(5, 5))));
    }

    #[test]
    fn kite_joined_in_a_box() {
        // Row 2: 7 in c2, c8; column 3: 7 in r1, r6. r2c2 and r1c3 share
        // box 1, so r2c8 or r6c3 is 7: r6c8 loses it.
        let keep = [rc(2, 2), rc(2, 8), rc(1, 3), rc(6, 3), rc(6, 8)];
        let grid = only(7, &keep);
        let found = steps(&grid, kite);
        let step = found
            .iter()
            .find(|s| s.eliminations == [Candidate::new(rc(6, 8), 7)])
            .expect("a kite");
        assert_eq!(step.difficulty, Difficulty(41));
        assert_eq!(step.cells, [rc(2, 8), rc(2, 2), rc(1, 3), rc(6, 3)]);
    }

    #[test]
    fn no_kite_without_a_shared_box() {
        let keep = [rc(2, 2), rc(2, 8), rc(4, 3), rc(6, 3), rc(6, 8)];
        let grid = only(7, &keep);
        assert!(steps(&grid, kite).is_empty());
    }

    #[test]
    fn empty_rectangle_with_a_column_pair() {
        // Box 1's 5s: r2c1, r2c3, r1c2, r3c2 (row 2 and column 2). Column 7:
        // 5 only in r2c7 and r8c7. r8c2 loses 5.
        let mut keep = vec![rc(2, 1), rc(2, 3), rc(1, 2), rc(3, 2), rc(2, 7), rc(8, 7)];
        keep.extend([rc(8, 2), rc(5, 5), rc(9, 9)]);
        let grid = only(5, &keep);
        let found = steps(&grid, empty_rectangle);
        let step = found
            .iter()
            .find(|s| s.eliminations == [Candidate::new(rc(8, 2), 5)])
            .expect("an empty rectangle");
        assert_eq!(step.difficulty, Difficulty(42));
        assert!(step.cells.contains(&rc(2, 7)) && step.cells.contains(&rc(8, 7)));
    }

    #[test]
    fn no_empty_rectangle_when_the_box_spreads() {
        let keep = [rc(2, 1), rc(1, 2), rc(3, 3), rc(2, 7), rc(8, 7), rc(8, 2)];
        let grid = only(5, &keep);
        assert!(steps(&grid, empty_rectangle)
            .iter()
            .all(|s| s.eliminations != [Candidate::new(rc(8, 2), 5)]));
    }

    #[test]
    fn kite_on_rectangular_boxes() {
        // 6×6 with 2×3 boxes: row 1: 3 in c2, c5; column 1: 3 in r2, r5.
        // r1c2 and r2c1 share box 1: r5c5 loses 3.
        let p: Puzzle = ".".repeat(36).parse().unwrap();
        let mut grid = Candidates::new(&p).unwrap();
        let keep = [1, 4, 6, 24, 28, 35];
        for cell in 0..36 {
            if !keep.contains(&cell) {
                grid.eliminate(cell, 3);
            }
        }
        let found = steps(&grid, kite);
        assert!(found
            .iter()
            .any(|s| s.eliminations == [Candidate::new(28, 3)]));
    }

    #[test]
    fn empty_rectangle_in_a_two_by_three_box() {
        // 6×6: box 1's 5s r1c1, r1c3 (row 1) and r2c2 (column 2); column 5
        // holds 5 only in r1c5 and r4c5, so r4c2 loses 5.
        let p: Puzzle = ".".repeat(36).parse().unwrap();
        let mut grid = Candidates::new(&p).unwrap();
        let keep = [0, 2, 7, 4, 22, 19, 35];
        for cell in 0..36 {
            if !keep.contains(&cell) {
                grid.eliminate(cell, 5);
            }
        }
        let found = steps(&grid, empty_rectangle);
        let step = found
            .iter()
            .find(|s| s.eliminations == [Candidate::new(19, 5)])
            .expect("an empty rectangle");
        assert_eq!(step.cells, [0, 2, 7, 4, 22]);
    }
}
