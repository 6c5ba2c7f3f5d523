//! Random complete grids and random puzzles of any shape.
//!
//! [`random_grid`] fills an empty grid by a search that guesses at random
//! (a shuffled pattern for the largest shapes). [`random_puzzle`] blanks cells of such a grid and can
//! corrupt a clue, giving the mix of unique, multiple and contradictory puzzles
//! that the batch analyzer is benchmarked and tested on.
//!
//! [`Generator`] (`sudokit generate`) carves puzzles with a unique solution —
//! minimal, of a given clue count, with a [`Symmetry`] of the clue pattern,
//! rated in a [`RatingRange`] or at a [`Level`] of Sudoku Explainer's scale —
//! reproducibly from a seed; see [`carve`] for how.

pub mod carve;
mod fill9;
mod rated;
mod symmetry;
mod target;
mod unavoidable;

pub use carve::{generate_range, puzzle_rng, GenerateError, GenerateOptions, Generated, Generator};
pub use symmetry::{Symmetry, ALL_SYMMETRIES};
pub use target::{Level, RatingRange, TargetError, ALL_LEVELS};

use rand::seq::SliceRandom;
use rand::Rng;

use crate::grid::{Puzzle, Shape};
use crate::solver::general::GeneralSolver;

/// The largest side filled by randomised search; beyond it the search can
/// wander for minutes, so larger grids come from a shuffled pattern.
const SEARCH_FILL_MAX_SIDE: usize = 36;

/// A random valid complete grid of `shape`, its digits relabelled at random.
///
/// Up to side 36 it is a randomised search from the empty grid; larger grids
/// are a fixed pattern shuffled by random validity-preserving moves (rows
/// within bands, bands, columns within stacks, stacks).
pub fn random_grid<R: Rng + ?Sized>(shape: Shape, rng: &mut R) -> Puzzle {
    let grid = if shape.side() <= SEARCH_FILL_MAX_SIDE {
        GeneralSolver::new(shape)
            .random_solution(&vec![0; shape.cell_count()], rng)
            .expect("every empty grid has a solution")
    } else {
        shuffled_pattern(shape, rng)
    };
    let mut digits: Vec<u8> = (1..=shape.side() as u8).collect();
    digits.shuffle(rng);
    let cells = grid.iter().map(|&v| digits[v as usize - 1]).collect();
    Puzzle::new(shape, cells).expect("a solver's grid is in range")
}

/// The pattern grid `((r mod R)·C + r div R + c) mod N`, rows and columns
/// permuted within and across bands and stacks.
fn shuffled_pattern<R: Rng + ?Sized>(shape: Shape, rng: &mut R) -> Vec<u8> {
    let (n, rows, cols) = (shape.side(), shape.box_rows(), shape.box_cols());
    // Rows come in n / rows bands of `rows`, columns in n / cols stacks of `cols`.
    let permute = |group: usize, rng: &mut R| -> Vec<usize> {
        let mut groups: Vec<usize> = (0..n / group).collect();
        groups.shuffle(rng);
        groups
            .into_iter()
            .flat_map(|g| {
                let mut inner: Vec<usize> = (0..group).map(|i| g * group + i).collect();
                inner.shuffle(rng);
                inner
            })
            .collect()
    };
    let row_order = permute(rows, rng);
    let col_order = permute(cols, rng);
    let mut grid = Vec::with_capacity(n * n);
    for &r in &row_order {
        for &c in &col_order {
            grid.push((((r % rows) * cols + r / rows + c) % n) as u8 + 1);
        }
    }
    grid
}

/// A random puzzle: `clues` cells of a random grid kept, and with probability
/// `corrupt` one kept clue changed to another digit (which usually leaves no
/// solution).
pub fn random_puzzle<R: Rng + ?Sized>(
    shape: Shape,
    clues: usize,
    corrupt: f64,
    rng: &mut R,
) -> Puzzle {
    let mut grid = random_grid(shape, rng);
    let mut order: Vec<usize> = (0..shape.cell_count()).collect();
    order.shuffle(rng);
    let clues = clues.min(order.len());
    for &cell in &order[clues..] {
        grid.cells_mut()[cell] = 0;
    }
    if clues > 0 && shape.side() > 1 && rng.gen_bool(corrupt.clamp(0.0, 1.0)) {
        let cell = order[rng.gen_range(0..clues)];
        let old = grid.cells()[cell];
        let new = (old as usize + rng.gen_range(1..shape.side())) % shape.side() + 1;
        grid.cells_mut()[cell] = new as u8;
    }
    grid
}
