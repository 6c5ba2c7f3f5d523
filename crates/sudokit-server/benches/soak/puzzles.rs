//! The puzzles the soak sends: the hard 9×9 set the repository ships, large
//! grids made here from a pattern grid, and a 15-puzzle position 80 moves
//! from the goal; plus the check that a 9×9 answer is right.

use std::path::Path;

use rand::seq::SliceRandom;
use rand::Rng;
use sudokit::parse::DEFAULT_SYMBOLS;

/// A 15-puzzle position whose optimal solution is 80 moves, the puzzle's
/// diameter (Brüngger et al. 1999), for the goal with the blank last (the
/// server's): the "extra credit" position of Rosetta Code's 15-puzzle solver
/// task. `sudokit slide --stats` confirms the length, 80, after about 40 s of
/// search with the 6-6-3 databases on this machine: one such request holds a
/// worker that long.
pub const SLIDE_80: &str = "0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1";

/// Its optimal length, for the report.
pub const SLIDE_80_MOVES: usize = 80;

/// Every puzzle the scenarios draw from.
pub struct Puzzles {
    /// Hard 9×9 puzzles (81 characters, `.` or `0` blank).
    pub hard9: Vec<String>,
    /// Random 36×36 puzzles (6×6 boxes); every fourth has one corrupted clue.
    pub grid36: Vec<String>,
    /// Random 25×25 puzzles (5×5 boxes); every fourth has one corrupted clue.
    pub grid25: Vec<String>,
}

impl Puzzles {
    /// Reads the hard 9×9 set at `hard9` and makes the large grids from
    /// `rng`.
    pub fn new(hard9: &Path, rng: &mut impl Rng) -> Result<Puzzles, String> {
        let text = std::fs::read_to_string(hard9)
            .map_err(|error| format!("cannot read {}: {error}", hard9.display()))?;
        let set: Vec<String> = text
            .lines()
            .map(str::trim)
            .filter(|line| line.len() == 81 && !line.starts_with('#'))
            .map(str::to_string)
            .collect();
        if set.is_empty() {
            return Err(format!("{}: no 9×9 puzzles", hard9.display()));
        }
        Ok(Puzzles {
            hard9: set,
            grid36: (0..32)
                .map(|i| random_puzzle(6, rng.gen_range(0.50..0.62), i % 4 == 3, rng))
                .collect(),
            // The large bench finds 25×25 hardest at 42–48% clues.
            grid25: (0..32)
                .map(|i| random_puzzle(5, rng.gen_range(0.42..0.48), i % 4 == 3, rng))
                .collect(),
        })
    }
}

/// A random full grid with boxes of `n`×`n` (side `n²`), as cell values
/// `0..n²`: the pattern grid `(n·(r mod n) + r div n + c) mod n²`, with its
/// bands, the rows within each band, its stacks, the columns within each
/// stack and its digits shuffled (each keeps every unit a permutation).
fn full_grid(n: usize, rng: &mut impl Rng) -> Vec<usize> {
    let side = n * n;
    let rows = shuffled_lines(n, rng);
    let cols = shuffled_lines(n, rng);
    let mut digits: Vec<usize> = (0..side).collect();
    digits.shuffle(rng);
    let mut grid = Vec::with_capacity(side * side);
    for &r in &rows {
        for &c in &cols {
            grid.push(digits[(n * (r % n) + r / n + c) % side]);
        }
    }
    grid
}

/// The rows (or columns) `0..n²` in an order that keeps bands together: the
/// bands shuffled, and the lines within each band.
fn shuffled_lines(n: usize, rng: &mut impl Rng) -> Vec<usize> {
    let mut bands: Vec<usize> = (0..n).collect();
    bands.shuffle(rng);
    let mut lines = Vec::with_capacity(n * n);
    for band in bands {
        let mut within: Vec<usize> = (0..n).collect();
        within.shuffle(rng);
        lines.extend(within.into_iter().map(|i| band * n + i));
    }
    lines
}

/// A puzzle of boxes `n`×`n` keeping a random `fraction` of a random full
/// grid's cells as clues (`.` elsewhere); with `corrupt`, one clue is changed
/// to another digit that no clue in its row, column or box holds, so the
/// puzzle (almost surely) has no solution and only search can tell.
fn random_puzzle(n: usize, fraction: f64, corrupt: bool, rng: &mut impl Rng) -> String {
    let side = n * n;
    let grid = full_grid(n, rng);
    let mut cells: Vec<usize> = (0..side * side).collect();
    cells.shuffle(rng);
    let clues = ((side * side) as f64 * fraction).round() as usize;
    let mut puzzle: Vec<Option<usize>> = vec![None; side * side];
    for &cell in &cells[..clues] {
        puzzle[cell] = Some(grid[cell]);
    }
    if corrupt {
        corrupt_one(&mut puzzle, n, &cells[..clues], rng);
    }
    let symbols = DEFAULT_SYMBOLS.as_bytes();
    puzzle
        .iter()
        .map(|value| value.map_or('.', |v| char::from(symbols[v])))
        .collect()
}

/// Changes the first clue of `clues` that can take another digit not held
/// by any clue among its peers.
fn corrupt_one(puzzle: &mut [Option<usize>], n: usize, clues: &[usize], rng: &mut impl Rng) {
    let side = n * n;
    for &cell in clues {
        let (row, col) = (cell / side, cell % side);
        let mut seen = vec![false; side];
        for (other, value) in puzzle.iter().enumerate() {
            let (r, c) = (other / side, other % side);
            let peer = r == row || c == col || (r / n == row / n && c / n == col / n);
            if let (true, &Some(v)) = (peer && other != cell, value) {
                seen[v] = true;
            }
        }
        let free: Vec<usize> = (0..side)
            .filter(|&v| !seen[v] && Some(v) != puzzle[cell])
            .collect();
        if let Some(&v) = free.choose(rng) {
            puzzle[cell] = Some(v);
            return;
        }
    }
}

/// Whether `answer` is a solution of the 9×9 `puzzle`: 81 digits, every row,
/// column and box holding each digit once, and every given kept.
pub fn solves(puzzle: &str, answer: &str) -> bool {
    let (puzzle, answer) = (puzzle.as_bytes(), answer.as_bytes());
    if answer.len() != 81 || !answer.iter().all(|b| (b'1'..=b'9').contains(b)) {
        return false;
    }
    let keeps_givens = puzzle
        .iter()
        .zip(answer)
        .all(|(&given, &cell)| !given.is_ascii_digit() || given == b'0' || given == cell);
    keeps_givens
        && (0..9).all(|u| {
            unit_ok(answer, (0..9).map(|i| u * 9 + i))
                && unit_ok(answer, (0..9).map(|i| i * 9 + u))
                && unit_ok(
                    answer,
                    (0..9).map(|i| (u / 3 * 3 + i / 3) * 9 + u % 3 * 3 + i % 3),
                )
        })
}

/// Whether the digits of `answer` at `cells` (nine of them) are all
/// different.
fn unit_ok(answer: &[u8], cells: impl Iterator<Item = usize>) -> bool {
    let mut seen = [false; 10];
    cells.into_iter().all(|i| {
        let digit = usize::from(answer[i] - b'0');
        !std::mem::replace(&mut seen[digit], true)
    })
}
