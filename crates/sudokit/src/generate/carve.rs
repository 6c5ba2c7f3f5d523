//! [`Generator`]: unique (and minimal) puzzles carved out of random grids.
//!
//! # The carving pass
//!
//! Start from a random complete grid and visit the symmetry orbits of its
//! cells in random order, blanking each orbit when the puzzle keeps a unique
//! solution. A clue kept because blanking it broke uniqueness stays needed
//! for the rest of the pass (blanking more cells only adds solutions), so
//! one pass with no symmetry ends at a minimal puzzle: ~N² uniqueness
//! checks in all.
//!
//! Most checks early in the pass need no solver: when every other digit
//! appears among the clues that see a blanked cell, the cell is forced back
//! to its digit, the solution stays the old one, and the check is free.
//! The rest are `solve(…, limit 2)` calls on the fastest engine for the shape.
//!
//! `--clues K` stops the pass at `K` clues (or, with `--minimal`, accepts
//! only a pass that ends at exactly `K`); a pass that cannot reach the
//! target is retried on a fresh grid, up to [`GenerateOptions::attempts`].
//! With a symmetry, a pass ends orbit-minimal; `--minimal` then also checks
//! single clues and retries when one is redundant.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use super::{random_grid, Symmetry};
use crate::analyze::is_minimal;
use crate::grid::{Puzzle, Shape};
use crate::solver::fast9::Fast9Solver;
use crate::solver::{solver_for, Solver};

/// What to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenerateOptions {
    /// The box shape.
    pub shape: Shape,
    /// Exactly this many clues, when set.
    pub clues: Option<usize>,
    /// Every clue needed: removing any one loses uniqueness.
    pub minimal: bool,
    /// The symmetry of the clue pattern.
    pub symmetry: Symmetry,
    /// Fresh grids tried per puzzle before giving up on the target.
    pub attempts: u32,
}

impl GenerateOptions {
    /// Options for `shape` with no target, no symmetry, 1000 attempts.
    pub fn new(shape: Shape) -> GenerateOptions {
        GenerateOptions {
            shape,
            clues: None,
            minimal: false,
            symmetry: Symmetry::None,
            attempts: 1000,
        }
    }
}

/// One generated puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    /// Position in the run (puzzle `index` of seed `seed`).
    pub index: u64,
    /// The puzzle; its solution is unique.
    pub puzzle: Puzzle,
    /// Its solution.
    pub solution: Puzzle,
    /// Number of clues.
    pub clues: usize,
    /// Whether it is minimal (checked clue by clue when not known from the
    /// pass).
    pub minimal: bool,
    /// Guesses the solver needed to prove uniqueness: a difficulty figure.
    pub guesses: u64,
    /// Grids tried for this puzzle.
    pub attempts: u32,
}

/// Why no puzzle met the options.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GenerateError {
    /// More clues asked for than the grid has cells.
    #[error("{clues} clues asked for, a {shape} grid has {cells} cells")]
    TooManyClues {
        /// The target.
        clues: usize,
        /// The shape.
        shape: Shape,
        /// Its number of cells.
        cells: usize,
    },
    /// Every attempt ended away from the target.
    #[error("puzzle {index}: no {what} found in {attempts} attempts (closest: {closest} clues)")]
    NotFound {
        /// Position in the run.
        index: u64,
        /// What was asked for, in words.
        what: String,
        /// Grids tried.
        attempts: u32,
        /// The clue count of the closest attempt.
        closest: usize,
    },
}

/// A puzzle generator for one set of options; keeps its solver and tables
/// between puzzles, so make one per thread.
pub struct Generator {
    options: GenerateOptions,
    solver: Box<dyn Solver>,
    orbits: Vec<Vec<usize>>,
    /// The cells that see each cell (same row, column or box), itself excluded.
    peers: Vec<Vec<u16>>,
}

/// The random stream of puzzle `index` of seed `seed`: independent of every
/// other puzzle's, so puzzles can be made in any order on any thread.
pub fn puzzle_rng(seed: u64, index: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index);
    rng
}

impl Generator {
    /// A generator for `options`.
    pub fn new(options: GenerateOptions) -> Generator {
        let shape = options.shape;
        let solver: Box<dyn Solver> = if shape.side() == 9 && shape.box_rows() == 3 {
            Box::new(Fast9Solver::new())
        } else {
            solver_for(shape)
        };
        let peers = (0..shape.cell_count())
            .map(|a| {
                (0..shape.cell_count())
                    .filter(|&b| {
                        b != a
                            && (shape.row_of(a) == shape.row_of(b)
                                || shape.col_of(a) == shape.col_of(b)
                                || shape.box_of(a) == shape.box_of(b))
                    })
                    .map(|b| b as u16)
                    .collect()
            })
            .collect();
        Generator {
            options,
            solver,
            orbits: options.symmetry.orbits(shape),
            peers,
        }
    }

    /// Puzzle `index` of seed `seed`: the same options, seed and index give
    /// the same puzzle.
    pub fn generate(&mut self, seed: u64, index: u64) -> Result<Generated, GenerateError> {
        let shape = self.options.shape;
        if let Some(k) = self.options.clues.filter(|&k| k > shape.cell_count()) {
            return Err(GenerateError::TooManyClues {
                clues: k,
                shape,
                cells: shape.cell_count(),
            });
        }
        let mut rng = puzzle_rng(seed, index);
        let mut closest = usize::MAX;
        let attempts = self.options.attempts.max(1);
        for attempt in 1..=attempts {
            let solution = random_grid(shape, &mut rng);
            let mut order: Vec<usize> = (0..self.orbits.len()).collect();
            order.shuffle(&mut rng);
            let puzzle = self.carve(&solution, &order);
            let clues = puzzle.clue_count();
            let target = self.options.clues;
            if closest == usize::MAX
                || target.is_some_and(|k| clues.abs_diff(k) < closest.abs_diff(k))
            {
                closest = clues;
            }
            if target.is_some_and(|k| k != clues) {
                continue;
            }
            let orbit_minimal = target.is_none() || self.options.minimal;
            let minimal = if orbit_minimal && self.options.symmetry == Symmetry::None {
                true
            } else {
                is_minimal(self.solver.as_mut(), puzzle.cells())
            };
            if self.options.minimal && !minimal {
                continue;
            }
            let guesses = self.solver.solve(puzzle.cells(), 2, None).guesses;
            return Ok(Generated {
                index,
                puzzle,
                solution,
                clues,
                minimal,
                guesses,
                attempts: attempt,
            });
        }
        Err(GenerateError::NotFound {
            index,
            what: self.describe(),
            attempts,
            closest,
        })
    }

    /// The options in words, for errors.
    fn describe(&self) -> String {
        let mut what = String::from(if self.options.minimal {
            "minimal puzzle"
        } else {
            "puzzle"
        });
        if let Some(k) = self.options.clues {
            what += &format!(" with {k} clues");
        }
        if self.options.symmetry != Symmetry::None {
            what += &format!(" with {} symmetry", self.options.symmetry);
        }
        what
    }

    /// One carving pass over the orbits in `order` (see the module docs).
    fn carve(&mut self, solution: &Puzzle, order: &[usize]) -> Puzzle {
        let mut cells = solution.cells().to_vec();
        let mut count = cells.len();
        let target = if self.options.minimal {
            0
        } else {
            self.options.clues.unwrap_or(0)
        };
        let full = (1u64 << (self.options.shape.side() - 1) << 1).wrapping_sub(1);
        for &o in order {
            let orbit = &self.orbits[o];
            if count == target {
                break;
            }
            if count < target + orbit.len() {
                continue;
            }
            for &cell in orbit {
                cells[cell] = 0;
            }
            let forced = orbit.iter().all(|&cell| {
                let seen = self.peers[cell]
                    .iter()
                    .fold(0u64, |m, &p| m | (1u64 << cells[p as usize]) >> 1);
                seen | 1u64 << (solution.cells()[cell] - 1) == full
            });
            if forced || self.solver.solve(&cells, 2, None).solutions == 1 {
                count -= orbit.len();
            } else {
                for &cell in orbit {
                    cells[cell] = solution.cells()[cell];
                }
            }
        }
        Puzzle::new(self.options.shape, cells).expect("cells come from a grid")
    }
}

/// Puzzles `indices` of seed `seed`, made in parallel (one [`Generator`] per
/// worker) and returned in index order.
pub fn generate_range(
    options: GenerateOptions,
    seed: u64,
    indices: std::ops::Range<u64>,
) -> Vec<Result<Generated, GenerateError>> {
    indices
        .into_par_iter()
        .map_init(|| Generator::new(options), |g, i| g.generate(seed, i))
        .collect()
}
