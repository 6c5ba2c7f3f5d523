//! Fish: a digit whose places in `k` base lines all lie on `k` cover lines
//! (X-Wing, Swordfish, Jellyfish); the cover lines lose it elsewhere.

use std::ops::ControlFlow;

use super::step::{cell_list, unit_name};
use super::subsets::{subsets_of, two_to};
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
        let cells: Vec<usize> = (0..side)
            .filter(|&i| self.lines >> i & 1 != 0)
            .flat_map(|i| grid.cells_for(self.base_first + i, self.digit))
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
}

/// Finned and sashimi fish: not written yet, so it finds nothing.
pub(super) fn finned(_grid: &Candidates, _sink: &mut Sink<'_>) -> ControlFlow<()> {
    ControlFlow::Continue(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Puzzle;

    /// An empty 9×9 grid with `digit` removed from every listed cell.
    fn empty_grid_without(digit: u8, cells: impl IntoIterator<Item = usize>) -> Candidates {
        let p: Puzzle = ".".repeat(81).parse().unwrap();
        let mut grid = Candidates::new(&p).unwrap();
        for cell in cells {
            grid.eliminate(cell, digit);
        }
        grid
    }

    /// The first fish of `size` on `grid`.
    fn first(grid: &Candidates, size: usize) -> Option<Step> {
        let mut found = None;
        let _ = basic(grid, size, &mut |s| {
            found = Some(s);
            ControlFlow::Break(())
        });
        found
    }

    #[test]
    fn row_x_wing_clears_its_columns() {
        // Rows 1 and 5: digit 4 only in columns 2 and 7.
        let gone = [0usize, 4]
            .into_iter()
            .flat_map(|r| (0..9).filter(|&c| c != 1 && c != 6).map(move |c| r * 9 + c));
        let grid = empty_grid_without(4, gone);
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
    }

    #[test]
    fn column_swordfish_comes_before_rows() {
        // Columns 1, 3, 8: digit 9 only in rows 2, 5, 6.
        let gone = [0usize, 2, 7].into_iter().flat_map(|c| {
            (0..9)
                .filter(|r| ![1, 4, 5].contains(r))
                .map(move |r| r * 9 + c)
        });
        let grid = empty_grid_without(9, gone);
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
        let grid = empty_grid_without(1, []);
        assert!((2..=4).all(|size| first(&grid, size).is_none()));
    }
}
