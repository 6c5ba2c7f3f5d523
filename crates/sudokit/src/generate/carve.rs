//! [`Generator`]: unique (and minimal) puzzles carved out of random grids.
//!
//! # The carving pass
//!
//! Start from a random complete grid (for 9×9 from a dedicated bitmask
//! search, `fill9`) and visit the symmetry orbits of its
//! cells in random order, blanking each orbit when the puzzle keeps a unique
//! solution. A clue kept because blanking it broke uniqueness stays needed
//! for the rest of the pass (blanking more cells only adds solutions), so
//! one pass with no symmetry ends at a minimal puzzle: ~N² uniqueness
//! checks in all.
//!
//! Many checks need no solver: when one step from the clues forces a
//! blanked cell back to its digit — every other digit appears among the
//! clues that see it (naked single), or every other blank of one of its
//! units sees that digit (hidden single) — the solution stays the old one.
//! On 9×9 many removals that fail are rejected without a solver too: a
//! removal that leaves a known unavoidable set without a clue cannot keep
//! the solution unique (`unavoidable`). The rest go to the fastest
//! engine for the shape: for a single blanked cell, one limit-1 solve per
//! other digit the clues allow there (a wrong digit is usually refuted by
//! propagation alone); for a larger orbit, a count up to 2.
//!
//! `--clues K` stops the pass at `K` clues (or, with `--minimal`, accepts
//! only a pass that ends at exactly `K`); a pass that cannot reach the
//! target is retried on a fresh grid, up to [`GenerateOptions::attempts`].
//! With a symmetry, a pass ends orbit-minimal; `--minimal` then also checks
//! single clues and retries when one is redundant.
//!
//! A [`RatingRange`] target (`--rating`, `--level`) rates the end of each
//! pass with a solver capped at the range's top, which drops a puzzle that
//! is too hard at its first step above it; a pass out of range is retried
//! (see `rated` for why the pass is not steered by ratings).

use crate::par::*;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::fill9::random_grid9;
use super::rated::RatingGate;
use super::unavoidable::Unavoidable;
use super::{random_grid, RatingRange, Symmetry};
use crate::analyze::is_minimal_raw;
use crate::grid::{Puzzle, Shape};
use crate::logic::{Difficulty, Rating};
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
    /// The Sudoku Explainer rating (ER) the puzzle must have, when set. On
    /// shapes other than 9×9 this is the logic engine's ER with SE's
    /// techniques (SE itself rates 9×9 only). A puzzle the engine cannot
    /// finish is never in range.
    pub rating: Option<RatingRange>,
}

impl GenerateOptions {
    /// The fewest clues any puzzle of `shape` with a unique solution has, as
    /// far as it is known: 17 for 9×9 with 3×3 boxes (McGuire, Tugemann and
    /// Civario, 2012, by exhaustive search); otherwise `N − 1` for side `N`,
    /// since a puzzle showing fewer than `N − 1` distinct symbols lacks two,
    /// and swapping those two in a solution gives another.
    pub fn least_clues(shape: Shape) -> usize {
        if shape.box_rows() == 3 && shape.box_cols() == 3 {
            17
        } else {
            shape.side().saturating_sub(1)
        }
    }

    /// Whether some puzzle can meet these options at all: a clue target must
    /// fit the grid, reach [`least_clues`](Self::least_clues) and be a sum
    /// of symmetry orbit sizes. A caller checks once up front rather than
    /// hearing the same reason for every puzzle.
    pub fn check(&self) -> Result<(), GenerateError> {
        let Some(clues) = self.clues else {
            return Ok(());
        };
        let shape = self.shape;
        let cells = shape.cell_count();
        if clues > cells {
            return Err(GenerateError::TooManyClues {
                clues,
                shape,
                cells,
            });
        }
        let least = Self::least_clues(shape);
        if clues < least {
            return Err(GenerateError::TooFewClues {
                clues,
                shape,
                least,
            });
        }
        // Subset sums of the orbit sizes: which clue counts a pattern made of
        // whole orbits can have.
        let orbits = self.symmetry.orbits(shape);
        let mut reachable = vec![false; cells + 1];
        reachable[0] = true;
        for orbit in &orbits {
            for k in (orbit.len()..=cells).rev() {
                reachable[k] |= reachable[k - orbit.len()];
            }
        }
        if !reachable[clues] {
            let mut sizes: Vec<usize> = orbits.iter().map(Vec::len).collect();
            sizes.sort_unstable();
            sizes.dedup();
            let sizes: Vec<String> = sizes.iter().map(usize::to_string).collect();
            return Err(GenerateError::Asymmetric {
                clues,
                shape,
                symmetry: self.symmetry,
                sizes: sizes.join(" or "),
            });
        }
        Ok(())
    }

    /// Options for `shape` with no target, no symmetry, no rating, 1000
    /// attempts.
    pub fn new(shape: Shape) -> GenerateOptions {
        GenerateOptions {
            shape,
            clues: None,
            minimal: false,
            symmetry: Symmetry::None,
            attempts: 1000,
            rating: None,
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
    /// Its rating, with a rating target (within it).
    pub rating: Option<Rating>,
}

/// Why no puzzle met the options.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GenerateError {
    /// More clues asked for than the grid has cells.
    #[error("{clues} clues asked for, a {side}x{side} grid has {cells} cells", side = shape.side())]
    TooManyClues {
        /// The target.
        clues: usize,
        /// The shape.
        shape: Shape,
        /// Its number of cells.
        cells: usize,
    },
    /// Fewer clues asked for than any puzzle of the size with a unique
    /// solution has (see [`GenerateOptions::least_clues`]).
    #[error("{clues} clues asked for, a {side}x{side} puzzle with a unique solution has at least {least}", side = shape.side())]
    TooFewClues {
        /// The target.
        clues: usize,
        /// The shape.
        shape: Shape,
        /// The fewest clues a unique puzzle of that size has.
        least: usize,
    },
    /// A clue count no pattern with the symmetry has: the clues are whole
    /// orbits, so their number is a sum of orbit sizes.
    #[error("{clues} clues asked for, no {side}x{side} clue pattern with {symmetry} symmetry has that many (its orbits have {sizes} cells)", side = shape.side())]
    Asymmetric {
        /// The target.
        clues: usize,
        /// The shape.
        shape: Shape,
        /// The symmetry.
        symmetry: Symmetry,
        /// The distinct orbit sizes, in words (`1 or 4`).
        sizes: String,
    },
    /// Every attempt ended away from the target (`index` is 0-based; the
    /// message leaves it to the caller, which numbers puzzles its own way).
    #[error("no {what} found in {attempts} attempts{closest}")]
    NotFound {
        /// Position in the run.
        index: u64,
        /// What was asked for, in words.
        what: String,
        /// Grids tried.
        attempts: u32,
        /// With a clue target: the clue count of the closest attempt, as
        /// text (` (closest: 22 clues)`); with a rating target, the highest
        /// ER an attempt reached (` (closest: ER 7.4)`); otherwise empty.
        closest: String,
    },
}

/// A puzzle generator for one set of options; keeps its solver and tables
/// between puzzles, so make one per thread.
pub struct Generator {
    options: GenerateOptions,
    solver: Box<dyn Solver>,
    orbits: Vec<Vec<usize>>,
    /// The row, column and box numbers of each cell (`r`, `N + c`, `2N + b`).
    unit_of: Vec<[u16; 3]>,
    /// The row, column and box of each cell, as cell lists.
    units: Vec<[Vec<u16>; 3]>,
    /// Whether the shape is 9×9 with 3×3 boxes (dedicated grid filler,
    /// unavoidable sets).
    nine: bool,
    /// The rating target's gate, when there is one.
    gate: Option<RatingGate>,
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
        let nine = shape.box_rows() == 3 && shape.box_cols() == 3;
        let solver = solver_for(shape);
        let n = shape.side();
        let unit_of = (0..shape.cell_count())
            .map(|k| {
                [
                    shape.row_of(k) as u16,
                    (n + shape.col_of(k)) as u16,
                    (2 * n + shape.box_of(k)) as u16,
                ]
            })
            .collect();
        let cells_where = |f: &dyn Fn(usize) -> bool| -> Vec<u16> {
            (0..shape.cell_count())
                .filter(|&b| f(b))
                .map(|b| b as u16)
                .collect()
        };
        let units = (0..shape.cell_count())
            .map(|a| {
                [
                    cells_where(&|b| shape.row_of(b) == shape.row_of(a)),
                    cells_where(&|b| shape.col_of(b) == shape.col_of(a)),
                    cells_where(&|b| shape.box_of(b) == shape.box_of(a)),
                ]
            })
            .collect();
        Generator {
            options,
            solver,
            orbits: options.symmetry.orbits(shape),
            unit_of,
            units,
            nine,
            gate: options.rating.map(RatingGate::new),
        }
    }

    /// Puzzle `index` of seed `seed`: the same options, seed and index give
    /// the same puzzle.
    pub fn generate(&mut self, seed: u64, index: u64) -> Result<Generated, GenerateError> {
        let shape = self.options.shape;
        self.options.check()?;
        let mut rng = puzzle_rng(seed, index);
        let mut closest = usize::MAX;
        let mut highest: Option<Difficulty> = None;
        let attempts = self.options.attempts.max(1);
        for attempt in 1..=attempts {
            let solution = if self.nine {
                Puzzle::new(shape, random_grid9(&mut rng).to_vec()).expect("a 9x9 grid")
            } else {
                random_grid(shape, &mut rng)
            };
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
            let rating = match &self.gate {
                None => None,
                Some(gate) => {
                    let Some(rating) = gate.rate(&puzzle) else {
                        continue;
                    };
                    if rating.solved {
                        highest = highest.max(Some(rating.er));
                    }
                    if !gate.range().contains(&rating) {
                        continue;
                    }
                    Some(rating)
                }
            };
            let orbit_minimal = target.is_none() || self.options.minimal;
            let minimal = if orbit_minimal && self.options.symmetry == Symmetry::None {
                true
            } else {
                is_minimal_raw(self.solver.as_mut(), puzzle.cells())
            };
            if self.options.minimal && !minimal {
                continue;
            }
            let guesses = self.solver.solve_raw(puzzle.cells(), 2, None).guesses;
            return Ok(Generated {
                index,
                puzzle,
                solution,
                clues,
                minimal,
                guesses,
                attempts: attempt,
                rating,
            });
        }
        Err(GenerateError::NotFound {
            index,
            what: self.describe(),
            attempts,
            closest: match (self.options.clues, highest) {
                (Some(_), _) => format!(" (closest: {closest} clues)"),
                (None, Some(er)) if self.gate.is_some() => format!(" (closest: ER {er})"),
                (None, _) => String::new(),
            },
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
        if let Some(range) = self.options.rating {
            what += &format!(" rated {range}");
        }
        what
    }

    /// The digits (bit `d − 1` for digit `d`) of the clues that see blank
    /// `cell`, from `present`: the digits given in each unit.
    fn seen(&self, present: &[u64], cell: usize) -> u64 {
        let [r, c, b] = self.unit_of[cell];
        present[r as usize] | present[c as usize] | present[b as usize]
    }

    /// Whether blank `cell` must hold `digit` by one step from the clues: a
    /// naked single (the clues that see it show every other digit) or a
    /// hidden single (every other blank of one of its units sees `digit`).
    fn forced(&self, cells: &[u8], present: &[u64], cell: usize, digit: u8, full: u64) -> bool {
        let bit = 1u64 << (digit - 1);
        if self.seen(present, cell) | bit == full {
            return true;
        }
        self.units[cell].iter().any(|unit| {
            unit.iter().all(|&e| {
                let e = e as usize;
                e == cell || cells[e] != 0 || self.seen(present, e) & bit != 0
            })
        })
    }

    /// Whether the puzzle with `orbit` blanked still has only the old
    /// solution. For a single cell this asks, for each other digit the
    /// clues allow there, whether the puzzle with that digit has any
    /// solution (a wrong digit is usually refuted at once); a larger orbit
    /// counts solutions up to 2.
    fn no_other_digit(
        &mut self,
        cells: &mut [u8],
        present: &[u64],
        orbit: &[usize],
        solution: &[u8],
        full: u64,
    ) -> bool {
        let [cell] = orbit else {
            return self.solver.solve_raw(cells, 2, None).solutions == 1;
        };
        let cell = *cell;
        let mut others = full & !self.seen(present, cell) & !(1u64 << (solution[cell] - 1));
        let mut unique = true;
        while others != 0 && unique {
            cells[cell] = others.trailing_zeros() as u8 + 1;
            others &= others - 1;
            unique = self.solver.solve_raw(cells, 1, None).solutions == 0;
        }
        cells[cell] = 0;
        unique
    }

    /// Blanks (`blank`) or restores `cell`, keeping `present` in step.
    fn set_cell(&self, cells: &mut [u8], present: &mut [u64], cell: usize, digit: u8, blank: bool) {
        let bit = 1u64 << (digit - 1);
        for u in self.unit_of[cell] {
            if blank {
                present[u as usize] &= !bit;
            } else {
                present[u as usize] |= bit;
            }
        }
        cells[cell] = if blank { 0 } else { digit };
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
        // Unavoidable sets and the clue mask are kept for 9×9 only.
        let unavoidable = if self.nine {
            Unavoidable::two_digit(solution.cells())
        } else {
            Unavoidable::default()
        };
        let mut givens = u128::MAX;
        let mut present = vec![full; 3 * self.options.shape.side()];
        // Moved out for the pass, so that checks may borrow `self` mutably.
        let orbits = std::mem::take(&mut self.orbits);
        for &o in order {
            let orbit = &orbits[o];
            if count == target {
                break;
            }
            if count < target + orbit.len() {
                continue;
            }
            for &cell in orbit {
                self.set_cell(&mut cells, &mut present, cell, solution.cells()[cell], true);
            }
            let orbit_mask = orbit
                .iter()
                .fold(0u128, |m, &k| m | 1u128.checked_shl(k as u32).unwrap_or(0));
            let unique = if self.nine && unavoidable.uncovered(givens & !orbit_mask) {
                false
            } else if orbit
                .iter()
                .all(|&cell| self.forced(&cells, &present, cell, solution.cells()[cell], full))
            {
                true
            } else {
                self.no_other_digit(&mut cells, &present, orbit, solution.cells(), full)
            };
            if unique {
                count -= orbit.len();
                givens &= !orbit_mask;
            } else {
                for &cell in orbit {
                    self.set_cell(
                        &mut cells,
                        &mut present,
                        cell,
                        solution.cells()[cell],
                        false,
                    );
                }
            }
        }
        self.orbits = orbits;
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
    // A generator is costly to set up: give each worker a few long runs of
    // indices rather than letting rayon split down to single puzzles, each
    // split making a generator of its own.
    let jobs = threads() * 4;
    let count = indices.end.saturating_sub(indices.start) as usize;
    (0..count)
        .into_par_iter()
        .with_min_len((count / jobs).max(1))
        .map_init(
            || Generator::new(options),
            |g, k| g.generate(seed, indices.start + k as u64),
        )
        .collect()
}
