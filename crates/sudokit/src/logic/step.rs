//! [`Step`]: one move of a logical solution (what it places or eliminates,
//! and why), with its [`Difficulty`].

use std::fmt;

use super::Technique;

/// A difficulty on Sudoku Explainer's scale, in tenths (1.0 = a full house,
/// 1.2 = a hidden single in a box, … 11+ = nested forcing chains).
///
/// Kept as an integer count of tenths so that ratings compare and sum
/// exactly; prints as `8.3`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Difficulty(pub u16);

impl Difficulty {
    /// The difficulty `tenths / 10`.
    pub const fn tenths(tenths: u16) -> Difficulty {
        Difficulty(tenths)
    }

    /// The rating as a floating-point number (8.3), for JSON.
    pub fn as_f64(self) -> f64 {
        f64::from(self.0) / 10.0
    }
}

impl fmt::Display for Difficulty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.0 / 10, self.0 % 10)
    }
}

/// Error of parsing a [`Difficulty`] from text such as `7.2`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a rating such as 7.2 (one decimal, 0.0 to 6553.5)")]
pub struct DifficultyError(pub String);

impl std::str::FromStr for Difficulty {
    type Err = DifficultyError;

    fn from_str(s: &str) -> Result<Difficulty, DifficultyError> {
        let err = || DifficultyError(s.to_string());
        let (whole, tenth) = s.trim().split_once('.').unwrap_or((s.trim(), "0"));
        if whole.is_empty() || tenth.len() != 1 {
            return Err(err());
        }
        let whole: u16 = whole.parse().map_err(|_| err())?;
        let tenth: u16 = tenth.parse().map_err(|_| err())?;
        whole
            .checked_mul(10)
            .and_then(|w| w.checked_add(tenth))
            .map(Difficulty)
            .ok_or_else(err)
    }
}

/// One candidate: a digit in a cell (row-major index, digit `1..=N`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Candidate {
    /// Row-major cell index.
    pub cell: usize,
    /// The digit, `1..=N`.
    pub digit: u8,
}

impl Candidate {
    /// Digit `digit` in cell `cell`.
    pub fn new(cell: usize, digit: u8) -> Candidate {
        Candidate { cell, digit }
    }
}

/// One step of a logical solution: the technique, its difficulty, what it
/// places and eliminates, the cells and digits that make the pattern, and a
/// sentence that says why.
///
/// Displays as `Hidden Single: 7 in row 3 can only go in r3c5 => r3c5=7`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The technique that found the step.
    pub technique: Technique,
    /// The pattern's name as players know it ("Hidden Pair", "Finned
    /// X-Wing", "Unique Rectangle type 2" …).
    pub name: String,
    /// The step's difficulty on Sudoku Explainer's scale.
    pub difficulty: Difficulty,
    /// Digits placed.
    pub placements: Vec<Candidate>,
    /// Candidates removed.
    pub eliminations: Vec<Candidate>,
    /// The cells that make the pattern (for highlighting).
    pub cells: Vec<usize>,
    /// Why, in words, with cells named `r3c5`.
    pub reason: String,
    /// The side of the grid, to name cells.
    pub side: usize,
}

impl Step {
    /// Whether the step places at least one digit.
    pub fn places(&self) -> bool {
        !self.placements.is_empty()
    }

    /// The outcome alone: `r3c5=7` or `r1c2<>4, r1c3<>4`.
    pub fn outcome(&self) -> String {
        let mut parts: Vec<String> = self
            .placements
            .iter()
            .map(|c| format!("{}={}", cell_name(self.side, c.cell), c.digit))
            .collect();
        parts.extend(
            self.eliminations
                .iter()
                .map(|c| format!("{}<>{}", cell_name(self.side, c.cell), c.digit)),
        );
        parts.join(", ")
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} => {}", self.name, self.reason, self.outcome())
    }
}

/// A cell's name, `r3c5` (1-based row and column).
pub fn cell_name(side: usize, cell: usize) -> String {
    let mut name = String::with_capacity(8);
    push_cell_name(&mut name, side, cell);
    name
}

/// A unit's name from its index in [`Geometry`](crate::grid::Geometry)
/// order (rows, columns, boxes): `row 3`, `column 5`, `box 2`.
pub fn unit_name(side: usize, unit: usize) -> String {
    let mut name = String::with_capacity(10);
    push_unit_name(&mut name, side, unit);
    name
}

/// Appends [`cell_name`] to `out` (without the formatting machinery: steps
/// are built by the thousand while rating, most of them never shown).
pub(crate) fn push_cell_name(out: &mut String, side: usize, cell: usize) {
    out.push('r');
    push_number(out, cell / side + 1);
    out.push('c');
    push_number(out, cell % side + 1);
}

/// Appends [`unit_name`] to `out`.
pub(crate) fn push_unit_name(out: &mut String, side: usize, unit: usize) {
    out.push_str(["row ", "column ", "box "][unit / side]);
    push_number(out, unit % side + 1);
}

/// Appends `n` in decimal to `out`.
pub(crate) fn push_number(out: &mut String, n: usize) {
    if n >= 10 {
        push_number(out, n / 10);
    }
    out.push(char::from(b'0' + (n % 10) as u8));
}

/// Names of several cells: `r1c2, r1c5`.
pub fn cell_list(side: usize, cells: &[usize]) -> String {
    cells
        .iter()
        .map(|&c| cell_name(side, c))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn difficulty_prints_and_parses() {
        assert_eq!(Difficulty(83).to_string(), "8.3");
        assert_eq!(Difficulty(110).to_string(), "11.0");
        assert_eq!("8.3".parse::<Difficulty>().unwrap(), Difficulty(83));
        assert_eq!("11".parse::<Difficulty>().unwrap(), Difficulty(110));
        assert!("8.35".parse::<Difficulty>().is_err());
        assert!("x".parse::<Difficulty>().is_err());
    }

    #[test]
    fn names_are_one_based() {
        assert_eq!(cell_name(9, 0), "r1c1");
        assert_eq!(cell_name(16, 255), "r16c16");
        assert_eq!(unit_name(64, 64 * 3 - 1), "box 64");
        assert_eq!(unit_name(9, 8), "row 9");
        assert_eq!(cell_name(9, 80), "r9c9");
        assert_eq!(unit_name(9, 9 + 4), "column 5");
        assert_eq!(unit_name(6, 14), "box 3");
    }
}
