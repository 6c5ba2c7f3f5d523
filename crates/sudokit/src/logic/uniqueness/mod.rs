//! Uniqueness techniques: patterns that would give the puzzle two solutions
//! (deadly patterns), so a puzzle with exactly one solution must avoid them.
//! Unique rectangles and loops, and the bivalue universal grave (BUG), found
//! and chosen as Sudoku Explainer finds and chooses them.

mod bug;
mod loops;

pub(super) use bug::bug;
pub(super) use loops::loops;

use super::candidates::bits;

/// The units of a cell in Sudoku Explainer's region order: the box, the
/// row, the column (indices into [`Geometry::units_of`](crate::grid::Geometry::units_of)).
const BOX_ROW_COLUMN: [usize; 3] = [2, 0, 1];

/// The `k`-element subsets of `0..n` as bit masks, in colex order (by
/// increasing mask value), the order of SE's `Permutations`: `{0,1}, {0,2},
/// {1,2}, {0,3}` … One empty subset when `k` is 0.
fn colex_subsets(k: usize, n: usize) -> impl Iterator<Item = u64> {
    let limit = 1u128 << n;
    let mut next = (k <= n).then(|| (1u128 << k) - 1);
    std::iter::from_fn(move || {
        let current = next?;
        next = (current != 0)
            .then(|| {
                let lowest = current & current.wrapping_neg();
                let ripple = current + lowest;
                ripple | (((current ^ ripple) >> 2) / lowest)
            })
            .filter(|&following| following < limit);
        Some(current as u64)
    })
}

/// The digits of `mask`, as text ("3" or "3, 7").
fn digit_list(mask: u64) -> String {
    bits(mask)
        .map(|i| (i + 1).to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A Sudoku Explainer difficulty (a Java double such as 4.6 + 0.1) in
/// tenths, rounded as SE prints ratings.
fn se_tenths(difficulty: f64) -> u16 {
    ((difficulty + 0.05) * 10.0) as u16
}

/// A test position: the grid of `values` (81 characters, `.` for empty)
/// with the candidates `gone` ("r1c2<>5 r3c4<>7") eliminated, as Sudoku
/// Explainer's trace describes the grid before one of its steps.
#[cfg(test)]
pub(in crate::logic) fn position(values: &str, gone: &str) -> crate::logic::Candidates {
    let puzzle: crate::Puzzle = values.parse().expect("a puzzle");
    let mut grid = crate::logic::Candidates::new(&puzzle).expect("consistent values");
    let side = grid.side();
    for token in gone.split_whitespace() {
        let (cell, digit) = token.split_once("<>").expect("rXcY<>D");
        let (row, col) = cell[1..].split_once('c').expect("rXcY");
        let row: usize = row.parse().expect("a row");
        let col: usize = col.parse().expect("a column");
        let digit: u8 = digit.parse().expect("a digit");
        assert!(
            grid.eliminate((row - 1) * side + col - 1, digit),
            "{token} is a candidate"
        );
    }
    grid
}

/// The first step `technique` finds in `grid`, if any.
#[cfg(test)]
pub(in crate::logic) fn first_step(
    technique: crate::logic::Technique,
    grid: &crate::logic::Candidates,
) -> Option<crate::logic::Step> {
    let mut found = None;
    let _ = technique.find(grid, &mut |step| {
        found = Some(step);
        std::ops::ControlFlow::Break(())
    });
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsets_come_in_colex_order() {
        let pairs: Vec<u64> = colex_subsets(2, 4).collect();
        assert_eq!(pairs, [0b0011, 0b0101, 0b0110, 0b1001, 0b1010, 0b1100]);
        assert_eq!(colex_subsets(0, 3).collect::<Vec<_>>(), [0]);
        assert_eq!(colex_subsets(0, 0).collect::<Vec<_>>(), [0]);
        assert_eq!(colex_subsets(3, 2).count(), 0);
        assert_eq!(colex_subsets(2, 64).count(), 64 * 63 / 2);
    }

    #[test]
    fn difficulties_round_as_se_prints_them() {
        assert_eq!(se_tenths(4.6 + 3.0 * 0.1), 49);
        assert_eq!(se_tenths(4.5 + 0.3 + 0.2), 50);
    }
}
