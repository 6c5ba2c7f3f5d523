//! Fish: a digit whose places in `k` base lines all lie on `k` cover lines
//! (X-Wing, Swordfish, Jellyfish); the cover lines lose it elsewhere.

use std::ops::ControlFlow;

use super::candidates::{bits, full_mask};
use super::step::{cell_list, unit_name};
use super::subsets::{combinations, subsets_of, two_to};
use super::{Candidate, Candidates, Difficulty, Sink, Step, Technique};

/// Basic fish of `size` lines (X-Wing 3.2, Swordfish 3.8, Jellyfish 5.2),
/// in Sudoku Explainer's order: columns as base lines first, then rows;
/// line tuples in colex order; digits ascending. A digit is skipped when
/// fewer than `2 × size` of its places are still open in the grid.
pub(super) fn basic(grid: &Candidates, size: usize, sink: &mut Sink<'_>) -> ControlFlow<()> {
    let side = grid.side();
    let placed = placed_counts(grid);
    // Unit kinds: 0 rows, 1 columns.
    for (base_kind, cover_kind) in [(1, 0), (0, 1)] {
        // For each digit (index `d - 1`), the base lines with two to `size`
        // places for it: a fish's lines all are.
        let mut eligible = [0u64; 64];
        for (d, lines) in eligible.iter_mut().enumerate().take(side) {
            if placed[d] + 2 * size > side {
                continue;
            }
            *lines = (0..side)
                .filter(|&i| two_to(grid.positions(base_kind * side + i, d as u8 + 1), size))
                .fold(0, |m, i| m | 1 << i);
        }
        let any = eligible.iter().fold(0, |m, l| m | l);
        for lines in subsets_of(any, size) {
            for digit in 1..=side as u8 {
                if lines & !eligible[usize::from(digit) - 1] != 0 {
                    continue;
                }
                let Some(covers) = cover_positions(grid, base_kind * side, lines, digit, size)
                else {
                    continue;
                };
                let fish = Fish {
                    digit,
                    base_first: base_kind * side,
                    lines,
                    cover_first: cover_kind * side,
                    covers,
                    size,
                };
                let eliminations = fish.eliminations(grid);
                if !eliminations.is_empty() {
                    sink(fish.step(grid, eliminations))?;
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// How many times each digit (index `d - 1`) is placed in the grid.
fn placed_counts(grid: &Candidates) -> Vec<usize> {
    let mut counts = vec![0; grid.side()];
    for &v in grid.values() {
        if v != 0 {
            counts[usize::from(v) - 1] += 1;
        }
    }
    counts
}

/// The union of the places of `digit` in the base lines `lines` (unit
/// `base_first + i` for each bit `i`), if each line has at least two and
/// the union is exactly `size` positions.
fn cover_positions(
    grid: &Candidates,
    base_first: usize,
    lines: u64,
    digit: u8,
    size: usize,
) -> Option<u64> {
    let mut union = 0;
    for i in (0..grid.side()).filter(|&i| lines >> i & 1 != 0) {
        let p = grid.positions(base_first + i, digit);
        if p.count_ones() < 2 {
            return None;
        }
        union |= p;
    }
    (union.count_ones() as usize == size).then_some(union)
}

/// A fish found: the digit, its base lines and its cover lines.
struct Fish {
    /// The digit.
    digit: u8,
    /// Unit index of the first line of the base kind (0 rows, `N` columns).
    base_first: usize,
    /// The base lines, bit `i` for line `i` of their kind.
    lines: u64,
    /// Unit index of the first line of the cover kind.
    cover_first: usize,
    /// The cover lines, bit `i` for line `i` of their kind.
    covers: u64,
    /// Number of lines on each side.
    size: usize,
}

impl Fish {
    /// The digit's places on the cover lines outside the base lines: a
    /// cover line's `i`-th cell lies on base line `i`.
    fn eliminations(&self, grid: &Candidates) -> Vec<Candidate> {
        let side = grid.side();
        let mut removed = Vec::new();
        for j in (0..side).filter(|&j| self.covers >> j & 1 != 0) {
            let unit = self.cover_first + j;
            let outside = grid.positions(unit, self.digit) & !self.lines;
            let cells = grid.geometry().unit(unit);
            removed.extend(
                (0..side)
                    .filter(|&i| outside >> i & 1 != 0)
                    .map(|i| Candidate::new(cells[i] as usize, self.digit)),
            );
        }
        removed
    }

    /// The step, named and rated by its size.
    fn step(&self, grid: &Candidates, eliminations: Vec<Candidate>) -> Step {
        let side = grid.side();
        let (technique, name, tenths) = match self.size {
            2 => (Technique::XWing, "X-Wing", 32),
            3 => (Technique::Swordfish, "Swordfish", 38),
            _ => (Technique::Jellyfish, "Jellyfish", 52),
        };
        let names = |first: usize, mask: u64| -> Vec<String> {
            (0..side)
                .filter(|&i| mask >> i & 1 != 0)
                .map(|i| unit_name(side, first + i))
                .collect()
        };
        // The places on the cover lines (all of them for a plain fish; the
        // fins are left out of a finned one).
        let cells: Vec<usize> = (0..side)
            .filter(|&i| self.lines >> i & 1 != 0)
            .flat_map(|i| grid.cells_for(self.base_first + i, self.digit))
            .filter(|&c| self.covers >> line_of(grid, self.cover_first, c) & 1 != 0)
            .collect();
        Step {
            technique,
            name: name.to_string(),
            difficulty: Difficulty(tenths),
            placements: Vec::new(),
            eliminations,
            reason: format!(
                "in {}, {} can only go in {} ({})",
                names(self.base_first, self.lines).join(", "),
                self.digit,
                names(self.cover_first, self.covers).join(", "),
                cell_list(side, &cells)
            ),
            cells,
            side,
        }
    }

    /// The finned fish step when the fins (base-line places at the
    /// positions `fin_positions`, `of_line(i)` being base line `i`'s places)
    /// lie in one box, every base line keeps a place on the covers, and a
    /// cover line's cell in the fins' box outside the base lines still has
    /// the digit.
    fn finned_step(
        &self,
        grid: &Candidates,
        of_line: &dyn Fn(usize) -> u64,
        fin_positions: u64,
    ) -> Option<Step> {
        let side = grid.side();
        let geometry = grid.geometry();
        let cell_at = |line: usize, position: usize| {
            usize::from(geometry.unit(self.base_first + line)[position])
        };
        let mut fins = Vec::new();
        let mut sashimi = false;
        for i in bits(self.lines) {
            let on_covers = (of_line(i) & self.covers).count_ones();
            if on_covers == 0 {
                return None;
            }
            sashimi |= on_covers == 1;
            fins.extend(bits(of_line(i) & fin_positions).map(|p| cell_at(i, p)));
        }
        let fin_box = usize::from(geometry.units_of(fins[0])[2]);
        if fins
            .iter()
            .any(|&f| usize::from(geometry.units_of(f)[2]) != fin_box)
        {
            return None;
        }
        let mut eliminations: Vec<Candidate> = geometry
            .unit(fin_box)
            .iter()
            .map(|&c| usize::from(c))
            .filter(|&c| {
                grid.has(c, self.digit)
                    && self.covers >> line_of(grid, self.cover_first, c) & 1 != 0
                    && self.lines >> line_of(grid, self.base_first, c) & 1 == 0
            })
            .map(|c| Candidate::new(c, self.digit))
            .collect();
        if eliminations.is_empty() {
            return None;
        }
        eliminations.sort();
        let mut step = self.step(grid, eliminations);
        let (kind, extra) = if sashimi {
            ("Sashimi", SASHIMI_TENTHS)
        } else {
            ("Finned", FIN_TENTHS)
        };
        step.technique = Technique::FinnedFish;
        step.name = format!("{kind} {}", step.name);
        step.difficulty = Difficulty(step.difficulty.0 + extra);
        step.reason = format!(
            "{}, apart from the fin{} {} in {}",
            step.reason,
            if fins.len() == 1 { "" } else { "s" },
            cell_list(side, &fins),
            unit_name(side, fin_box)
        );
        step.cells.extend(&fins);
        Some(step)
    }
}

// Difficulties of finned and sashimi fish (techniques Sudoku Explainer
// lacks), on SE's scale: HoDoKu's order puts a finned fish just after the
// plain fish of its size, and the sashimi form (harder to see: a base line
// is down to one cell once the fins go) just after the finned one. So a
// fin adds 0.1 to the plain fish's rating and sashimi 0.2: finned X-Wing
// 3.3, sashimi X-Wing 3.4, finned Swordfish 3.9, sashimi Swordfish 4.0,
// finned Jellyfish 5.3, sashimi Jellyfish 5.4.

/// What a fin adds to the plain fish's difficulty, in tenths.
const FIN_TENTHS: u16 = 1;
/// What a sashimi fish adds to the plain fish's difficulty, in tenths.
const SASHIMI_TENTHS: u16 = 2;

/// Finned and sashimi fish of 2, 3 and 4 lines (up to half the side),
/// smallest first; base lines columns then rows, digits ascending, line
/// tuples in colex order, fin sets box band by box band.
///
/// In `k` base lines, each with at least two places of the digit, the
/// places lie on `k` cover lines apart from some fins, all in one box, and
/// each base line keeps a place on the covers. Either a fin holds the
/// digit, and the fins' box loses it elsewhere, or the fish is a plain one
/// and the cover lines lose it outside the base lines: the cells of the
/// cover lines in the fins' box, outside the base lines, lose it in both
/// cases. Sashimi: a base line keeps a single place on the covers, so
/// without its fins the fish would be degenerate.
pub(super) fn finned(grid: &Candidates, sink: &mut Sink<'_>) -> ControlFlow<()> {
    let side = grid.side();
    let shape = grid.shape();
    let positions = line_positions(grid);
    for size in (2..=4).filter(|&size| 2 * size <= side) {
        // Unit kinds: 0 rows, 1 columns. The fins lie in one box: with row
        // base lines, in one stack of box-width columns (their positions)
        // and one band of box-height rows (their base lines); with column
        // base lines the other way round.
        for (base_kind, cover_kind, fin_span, line_span) in [
            (1, 0, shape.box_rows(), shape.box_cols()),
            (0, 1, shape.box_cols(), shape.box_rows()),
        ] {
            for digit in 1..=side as u8 {
                let of_line =
                    |i: usize| positions[(base_kind * side + i) * side + usize::from(digit) - 1];
                // A base line has two places at least, and no more than the
                // covers and the fins can hold.
                let eligible: Vec<usize> = (0..side)
                    .filter(|&i| {
                        (2..=size + fin_span).contains(&(of_line(i).count_ones() as usize))
                    })
                    .collect();
                for picked in combinations(size, eligible.len()) {
                    let lines = bits(picked).fold(0, |m, i| m | 1 << eligible[i]);
                    let union = bits(lines).fold(0, |m, i| m | of_line(i));
                    let fin_count = (union.count_ones() as usize).saturating_sub(size);
                    if fin_count == 0 || fin_count > fin_span {
                        continue;
                    }
                    for fin_positions in fin_sets(union, fin_count, fin_span, side) {
                        // The base lines with fins lie in one band too.
                        let finned_lines = bits(lines)
                            .filter(|&i| of_line(i) & fin_positions != 0)
                            .fold(0u64, |m, i| m | 1 << i);
                        let first = finned_lines.trailing_zeros() as usize;
                        if finned_lines & !band_mask(line_span, first - first % line_span) != 0 {
                            continue;
                        }
                        let fish = Fish {
                            digit,
                            base_first: base_kind * side,
                            lines,
                            cover_first: cover_kind * side,
                            covers: union & !fin_positions,
                            size,
                        };
                        if let Some(step) = fish.finned_step(grid, &of_line, fin_positions) {
                            sink(step)?;
                        }
                    }
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// The sets of `count` positions of `union` that lie in one box's stretch
/// of a line (`width` positions from a multiple of `width`, of `side`):
/// stretch by stretch, each stretch's in colex (ascending mask) order.
fn fin_sets(union: u64, count: usize, width: usize, side: usize) -> impl Iterator<Item = u64> {
    (0..side).step_by(width).flat_map(move |first| {
        let spare = union & band_mask(width, first);
        // The non-empty subsets of `spare`, ascending.
        std::iter::successors(Some(0u64), move |&m| {
            let next = m.wrapping_sub(spare) & spare;
            (next != 0).then_some(next)
        })
        .filter(move |m| m.count_ones() as usize == count)
    })
}

/// The mask of `width` positions from `first` on (a box's stretch of a
/// line).
fn band_mask(width: usize, first: usize) -> u64 {
    full_mask(width) << first
}

/// The number (`0..N`) of the line of the kind starting at unit `first`
/// (0 rows, `N` columns) through `cell`.
fn line_of(grid: &Candidates, first: usize, cell: usize) -> usize {
    let side = grid.side();
    usize::from(grid.geometry().units_of(cell)[first / side]) - first
}

/// The positions of every digit in every row and column, as
/// [`Candidates::positions`] gives them: entry `(unit × N) + d - 1` for
/// unit `unit` (rows `0..N`, columns `N..2N`) and digit `d`. Built in one
/// pass over the cells.
fn line_positions(grid: &Candidates) -> Vec<u64> {
    let side = grid.side();
    let mut table = vec![0u64; 2 * side * side];
    for cell in grid.empty_cells() {
        let (row, column) = (cell / side, cell % side);
        for d in bits(grid.mask(cell)) {
            table[row * side + d] |= 1 << column;
            table[(side + column) * side + d] |= 1 << row;
        }
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::test_support::{only_in, steps};
    use crate::Shape;

    /// A grid of `box_rows × box_cols` boxes where `digit` may go anywhere
    /// but in the listed lines (rows if `rows`, else columns; 1-based),
    /// which keep it only at the listed positions (1-based).
    fn fish_grid(
        (box_rows, box_cols): (usize, usize),
        digit: u8,
        rows: bool,
        lines: &[(usize, &[usize])],
    ) -> Candidates {
        let shape = Shape::new(box_rows, box_cols).unwrap();
        let side = shape.side();
        let cell = |line: usize, position: usize| {
            if rows {
                (line - 1) * side + position - 1
            } else {
                (position - 1) * side + line - 1
            }
        };
        let keep: Vec<usize> = (1..=side)
            .flat_map(|line| {
                let listed = lines.iter().find(|(l, _)| *l == line);
                (1..=side)
                    .filter(move |p| listed.is_none_or(|(_, keep)| keep.contains(p)))
                    .map(move |p| cell(line, p))
            })
            .collect();
        only_in(shape, digit, &keep)
    }

    /// Row-major index of `r{row}c{column}` (1-based) on a grid of side
    /// `side`.
    fn at(side: usize, row: usize, column: usize) -> usize {
        (row - 1) * side + column - 1
    }

    /// The first plain fish of `size` on `grid`.
    fn first(grid: &Candidates, size: usize) -> Option<Step> {
        steps(grid, |g, sink| basic(g, size, sink))
            .into_iter()
            .next()
    }

    /// Every finned fish on `grid`: name, difficulty and eliminated cells.
    fn finned_steps(grid: &Candidates) -> Vec<(String, Difficulty, Vec<usize>)> {
        steps(grid, finned)
            .into_iter()
            .map(|s| {
                assert_eq!(s.technique, Technique::FinnedFish);
                let cells = s.eliminations.iter().map(|e| e.cell).collect();
                (s.name, s.difficulty, cells)
            })
            .collect()
    }

    #[test]
    fn row_x_wing_clears_its_columns() {
        // Rows 1 and 5: digit 4 only in columns 2 and 7.
        let grid = fish_grid((3, 3), 4, true, &[(1, &[2, 7]), (5, &[2, 7])]);
        let step = first(&grid, 2).expect("an X-Wing");
        assert_eq!(step.difficulty, Difficulty(32));
        assert_eq!(step.cells, [1, 6, 37, 42]);
        let expected: Vec<Candidate> = [1usize, 6]
            .iter()
            .flat_map(|&c| {
                (0..9)
                    .filter(|&r| r != 0 && r != 4)
                    .map(move |r| Candidate::new(r * 9 + c, 4))
            })
            .collect();
        assert_eq!(step.eliminations, expected);
        assert!(first(&grid, 3).is_none());
        // A plain fish is no finned one.
        assert_eq!(finned_steps(&grid), []);
    }

    #[test]
    fn column_swordfish_comes_before_rows() {
        // Columns 1, 3, 8: digit 9 only in rows 2, 5, 6.
        let rows: &[usize] = &[2, 5, 6];
        let grid = fish_grid((3, 3), 9, false, &[(1, rows), (3, rows), (8, rows)]);
        let step = first(&grid, 3).expect("a swordfish");
        assert_eq!(step.difficulty, Difficulty(38));
        assert_eq!(step.eliminations.len(), 18);
        assert!(step
            .eliminations
            .iter()
            .all(|e| [1, 4, 5].contains(&(e.cell / 9))));
        assert!(step.reason.starts_with("in column 1, column 3, column 8"));
    }

    #[test]
    fn nothing_fires_on_an_empty_grid() {
        let grid = fish_grid((3, 3), 1, true, &[]);
        assert!((2..=4).all(|size| first(&grid, size).is_none()));
        assert_eq!(finned_steps(&grid), []);
    }

    #[test]
    fn finned_x_wing_clears_the_fins_box() {
        // Rows 1 and 5 on columns 2 and 7, with fins r5c8 and r5c9 in box 6:
        // r4c7 and r6c7 see both the fins and column 7.
        let grid = fish_grid((3, 3), 4, true, &[(1, &[2, 7]), (5, &[2, 7, 8, 9])]);
        let r = |row, column| at(9, row, column);
        assert_eq!(
            finned_steps(&grid),
            [(
                "Finned X-Wing".to_string(),
                Difficulty(33),
                vec![r(4, 7), r(6, 7)]
            )]
        );
        let step = &steps(&grid, finned)[0];
        assert_eq!(
            step.to_string(),
            "Finned X-Wing: in row 1, row 5, 4 can only go in column 2, column 7 \
             (r1c2, r1c7, r5c2, r5c7), apart from the fins r5c8, r5c9 in box 6 \
             => r4c7<>4, r6c7<>4"
        );
        assert_eq!(
            step.cells,
            [r(1, 2), r(1, 7), r(5, 2), r(5, 7), r(5, 8), r(5, 9)]
        );
    }

    #[test]
    fn sashimi_x_wing_has_a_base_line_of_one_cell_and_fins() {
        // Row 5 keeps only c2 on the covers; its fins r5c8, r5c9 are in box 6.
        let grid = fish_grid((3, 3), 4, true, &[(1, &[2, 7]), (5, &[2, 8, 9])]);
        let r = |row, column| at(9, row, column);
        assert_eq!(
            finned_steps(&grid),
            [(
                "Sashimi X-Wing".to_string(),
                Difficulty(34),
                vec![r(4, 7), r(6, 7)]
            )]
        );
    }

    #[test]
    fn finned_swordfish_on_columns() {
        // Columns 1, 4, 8 on rows 2, 5, 6, fin r4c8 in box 6: box 6 loses 9
        // on rows 5 and 6 outside the base columns.
        let rows: &[usize] = &[2, 5, 6];
        let grid = fish_grid(
            (3, 3),
            9,
            false,
            &[(1, rows), (4, rows), (8, &[2, 4, 5, 6])],
        );
        let r = |row, column| at(9, row, column);
        assert_eq!(
            finned_steps(&grid),
            [(
                "Finned Swordfish".to_string(),
                Difficulty(39),
                vec![r(5, 7), r(5, 9), r(6, 7), r(6, 9)]
            )]
        );
    }

    #[test]
    fn fins_in_two_boxes_prove_nothing() {
        // Fins r5c4 (box 5) and r5c8 (box 6).
        let grid = fish_grid((3, 3), 4, true, &[(1, &[2, 7]), (5, &[2, 4, 7, 8])]);
        assert_eq!(finned_steps(&grid), []);
    }

    #[test]
    fn cover_cells_that_miss_the_fin_keep_the_digit() {
        // The finned X-Wing of rows 1 and 5 (fin r5c8), but box 6 has no 4
        // left on column 7 outside the base rows: the 4s of columns 2 and 7
        // elsewhere do not see the fin.
        let mut grid = fish_grid((3, 3), 4, true, &[(1, &[2, 7]), (5, &[2, 7, 8])]);
        for cell in [at(9, 4, 7), at(9, 6, 7)] {
            grid.eliminate(cell, 4);
        }
        assert_eq!(finned_steps(&grid), []);
    }

    #[test]
    fn finned_fish_on_rectangular_boxes() {
        // 2×3 boxes: columns 1 and 3 on rows 1 and 4, fin r3c3 in box 3
        // (rows 3-4, columns 1-3) removes r4c2; then the same columns make a
        // sashimi X-Wing on rows 1 and 3 with fins r4c1, r4c3, removing r3c2.
        let grid = fish_grid((2, 3), 5, false, &[(1, &[1, 4]), (3, &[1, 3, 4])]);
        assert_eq!(
            finned_steps(&grid),
            [
                (
                    "Finned X-Wing".to_string(),
                    Difficulty(33),
                    vec![at(6, 4, 2)]
                ),
                (
                    "Sashimi X-Wing".to_string(),
                    Difficulty(34),
                    vec![at(6, 3, 2)]
                ),
            ]
        );
        // 3×4 boxes: rows 1, 4, 7, 10 on columns 1, 5, 9, 12, fin r10c10 in
        // the box of rows 10-12 and columns 9-12.
        let covers: &[usize] = &[1, 5, 9, 12];
        let grid = fish_grid(
            (3, 4),
            7,
            true,
            &[
                (1, covers),
                (4, covers),
                (7, covers),
                (10, &[1, 5, 9, 10, 12]),
            ],
        );
        let r = |row, column| at(12, row, column);
        assert_eq!(
            finned_steps(&grid),
            [(
                "Finned Jellyfish".to_string(),
                Difficulty(53),
                vec![r(11, 9), r(11, 12), r(12, 9), r(12, 12)]
            )]
        );
    }

    /// What a finned fish proves, found the plain way: every digit, base
    /// line set and cover set of every size; the base lines' places off the
    /// covers are the fins. Every base line keeps a place on the covers and
    /// every cover line holds one (else the fish is degenerate). Sorted
    /// (digit, sashimi, eliminations, cells).
    fn finned_by_brute_force(grid: &Candidates) -> Vec<(u8, bool, Vec<usize>, Vec<usize>)> {
        let shape = grid.shape();
        let side = shape.side();
        let mut found = Vec::new();
        for size in (2..=4).filter(|&size| 2 * size <= side) {
            // The line of a cell: (its base line, its cover line).
            let row_col = |c: usize| (shape.row_of(c), shape.col_of(c));
            let col_row = |c: usize| (shape.col_of(c), shape.row_of(c));
            for line_of in [&col_row as &dyn Fn(usize) -> (usize, usize), &row_col] {
                for digit in 1..=side as u8 {
                    let places: Vec<usize> = (0..shape.cell_count())
                        .filter(|&c| grid.has(c, digit))
                        .collect();
                    for lines in combinations(size, side) {
                        let on = |mask: u64, line: usize| mask >> line & 1 != 0;
                        let base: Vec<usize> = places
                            .iter()
                            .copied()
                            .filter(|&c| on(lines, line_of(c).0))
                            .collect();
                        let per_line = |i: usize| base.iter().filter(move |&&c| line_of(c).0 == i);
                        if bits(lines).any(|i| per_line(i).count() < 2) {
                            continue;
                        }
                        let used = base.iter().fold(0u64, |m, &c| m | 1 << line_of(c).1);
                        for covers in combinations(size, side) {
                            if covers & !used != 0 {
                                continue;
                            }
                            let fins: Vec<usize> = base
                                .iter()
                                .copied()
                                .filter(|&c| !on(covers, line_of(c).1))
                                .collect();
                            let kept = |i: usize| {
                                per_line(i).filter(|&&c| on(covers, line_of(c).1)).count()
                            };
                            if fins.is_empty()
                                || bits(lines).any(|i| kept(i) == 0)
                                || fins
                                    .iter()
                                    .any(|&f| shape.box_of(f) != shape.box_of(fins[0]))
                            {
                                continue;
                            }
                            let eliminations: Vec<usize> = places
                                .iter()
                                .copied()
                                .filter(|&c| {
                                    shape.box_of(c) == shape.box_of(fins[0])
                                        && on(covers, line_of(c).1)
                                        && !on(lines, line_of(c).0)
                                })
                                .collect();
                            if eliminations.is_empty() {
                                continue;
                            }
                            let sashimi = bits(lines).any(|i| kept(i) == 1);
                            let mut cells = base.clone();
                            cells.sort_unstable();
                            found.push((digit, sashimi, eliminations, cells));
                        }
                    }
                }
            }
        }
        found.sort();
        found
    }

    #[test]
    fn finned_fish_agree_with_brute_force_along_solutions() {
        // Puzzles whose human solutions take finned fish: 9×9, 8×8 (2×4
        // boxes) and 6×6 (2×3 boxes), every grid of their solution paths.
        let puzzles = [
            ".3......4....9....78...431..4.7....696.....7.3..........6..7.2...5.82.3..1.5.9.8.",
            ".1....592...9.6....4....7.....5......7...........936....3.4.8...2.185..71..2....5",
            "6...1......1.48...6...2..3..5...21........8....1...6..57.8.731..",
            "..6.4..........12..3.....2...15.4...",
        ];
        let solver = crate::logic::Solver::new(crate::logic::TechniqueSet::Human);
        let mut compared = 0;
        for text in puzzles {
            let puzzle: crate::Puzzle = text.parse().unwrap();
            let budget = crate::budget::Budget::unlimited();
            solver
                .walk(&puzzle, &budget, |grid, _| {
                    let mut fast: Vec<_> = steps(grid, finned)
                        .into_iter()
                        .map(|s| {
                            let mut eliminations: Vec<usize> =
                                s.eliminations.iter().map(|e| e.cell).collect();
                            eliminations.sort_unstable();
                            let mut cells = s.cells.clone();
                            cells.sort_unstable();
                            let digit = s.eliminations[0].digit;
                            (digit, s.name.starts_with("Sashimi"), eliminations, cells)
                        })
                        .collect();
                    fast.sort();
                    compared += fast.len();
                    assert_eq!(fast, finned_by_brute_force(grid), "{text}");
                })
                .unwrap();
        }
        assert!(compared > 0);
    }
}
