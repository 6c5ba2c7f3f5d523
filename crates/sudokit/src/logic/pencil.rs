//! Pencil marks as text: the grid a step applies to, each empty cell
//! showing the digits still possible, as players write them.

use std::fmt;

use super::Candidates;
use crate::grid::Shape;
use crate::parse::DEFAULT_SYMBOLS;

impl Candidates {
    /// The pencil-mark grid: each cell its value or its candidates,
    /// columns padded to their widest cell, boxes set apart by `|` and a
    /// `-+-` rule; `symbol` names digit `d` (1-based).
    ///
    /// ```
    /// use sudokit::logic::Candidates;
    /// let p: sudokit::Puzzle = "1...............".parse()?;
    /// let marks = Candidates::new(&p)?.pencil_marks(|d| char::from(b'0' + d));
    /// assert_eq!(marks.lines().next(), Some("1   234  | 234  234"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn pencil_marks(&self, symbol: impl Fn(u8) -> char) -> String {
        let text: Vec<String> = (0..self.cell_count())
            .map(|cell| cell_marks(self.value(cell), self.mask(cell), &symbol))
            .collect();
        pencil_grid(self.shape(), true, &text)
    }
}

/// A cell's pencil marks: its value, or its candidates' symbols.
pub(crate) fn cell_marks(value: u8, mask: u64, symbol: impl Fn(u8) -> char) -> String {
    match value {
        0 => super::subsets::digits_of(mask).map(symbol).collect(),
        v => symbol(v).to_string(),
    }
}

/// Lays out one text per cell (row-major) as a grid, columns padded to
/// their widest cell; with `boxes`, the boxes of `shape` set apart by `|`
/// and a `-+-` rule (a jigsaw's regions are not boxes, so it has none).
pub(crate) fn pencil_grid(shape: Shape, boxes: bool, text: &[String]) -> String {
    let side = shape.side();
    let (box_rows, box_cols) = match boxes {
        true => (shape.box_rows(), shape.box_cols()),
        false => (side, side),
    };
    let widths: Vec<usize> = (0..side)
        .map(|col| {
            (0..side)
                .map(|row| text[row * side + col].chars().count())
                .max()
                .unwrap_or(1)
        })
        .collect();
    let rule: String = (0..side)
        .map(|col| {
            let boundary = col > 0 && col % box_cols == 0;
            format!(
                "{}{}",
                if boundary { "+-" } else { "" },
                "-".repeat(widths[col] + 1)
            )
        })
        .collect();
    let mut out = String::new();
    for row in 0..side {
        if row > 0 && row % box_rows == 0 {
            out.push_str(rule.trim_end());
            out.push('\n');
        }
        let mut line = String::new();
        for col in 0..side {
            if col > 0 && col % box_cols == 0 {
                line.push_str("| ");
            }
            let cell = &text[row * side + col];
            line.push_str(cell);
            line.push_str(&" ".repeat(widths[col] - cell.chars().count() + 1));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The pencil-mark grid with the default symbols (1–9, then A–Z, a–z).
impl fmt::Display for Candidates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let symbols = DEFAULT_SYMBOLS.as_bytes();
        f.write_str(&self.pencil_marks(|d| char::from(symbols[usize::from(d) - 1])))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Puzzle;

    #[test]
    fn a_4x4_grid_shows_values_and_candidates_in_boxes() {
        let p: Puzzle = "1..............4".parse().unwrap();
        let text = Candidates::new(&p).unwrap().to_string();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 5);
        assert_eq!(
            lines,
            [
                "1   234  | 234  23",
                "234 234  | 1234 123",
                "---------+----------",
                "234 1234 | 123  123",
                "23  123  | 123  4",
            ]
        );
    }
}
