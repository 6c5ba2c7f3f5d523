//! New variant puzzles with a unique solution: jigsaw layouts with random
//! regions, puzzles under any [`Rules`], and killer puzzles made of cages
//! alone.
//!
//! Every puzzle starts from a random solution of its layout (the variant
//! engine guessing at random). Puzzles with givens are carved from it: the
//! clues (or orbits of clues, under a [`Symmetry`]) are blanked in random
//! order, each removal kept only if the solution stays unique, so every clue
//! left is needed. Killer puzzles have no givens: the grid is cut into
//! random cages of distinct digits, a cage is split where two solutions
//! differ until one is left, and neighbouring cages are then merged wherever
//! the solution stays unique.

use rand::seq::SliceRandom;
use rand::Rng;

use super::{Cage, Layout, Rules, VariantPuzzle, VariantSolver};
use crate::generate::{puzzle_rng, Symmetry};
use crate::grid::{Puzzle, Shape};
use crate::par::*;
use crate::solver::raw::RawSolver;

/// Guesses a random fill may take before the layout is given up as too
/// hard (or impossible) and another drawn.
const FILL_GUESSES: u64 = 20_000;

/// Layouts or fills tried per puzzle before giving up.
const ATTEMPTS: u32 = 500;

/// The largest cage the killer generator makes.
const MAX_CAGE: usize = 5;

/// What to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariantOptions {
    /// The box shape (the grid's side, and the boxes unless `jigsaw`).
    pub shape: Shape,
    /// Rules every puzzle keeps.
    pub rules: Rules,
    /// Random irregular regions instead of boxes.
    pub jigsaw: bool,
    /// Cages with sums and no givens.
    pub killer: bool,
    /// Symmetry of the clue pattern (puzzles with givens).
    pub symmetry: Symmetry,
}

impl VariantOptions {
    /// Plain options for `shape`: no rule, boxes, givens, no symmetry.
    pub fn new(shape: Shape) -> VariantOptions {
        VariantOptions {
            shape,
            rules: Rules::NONE,
            jigsaw: false,
            killer: false,
            symmetry: Symmetry::None,
        }
    }
}

/// One generated variant puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantGenerated {
    /// Position in the run.
    pub index: u64,
    /// The puzzle (its layout included).
    pub puzzle: VariantPuzzle,
    /// Its only solution.
    pub solution: Puzzle,
}

/// Why a variant puzzle could not be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VariantGenerateError {
    /// No layout tried had a solution that a random fill found in time
    /// (anti-king on 4×4 has none at all).
    #[error("no grid of this variant found in {attempts} attempts (the rules may allow none)")]
    NoGrid {
        /// Attempts made.
        attempts: u32,
    },
}

/// Puzzle `index` of seed `seed`: the same options, seed and index give the
/// same puzzle.
pub fn generate_variant(
    options: &VariantOptions,
    seed: u64,
    index: u64,
) -> Result<VariantGenerated, VariantGenerateError> {
    let mut rng = puzzle_rng(seed, index);
    for _ in 0..ATTEMPTS {
        let mut layout = Layout::classic(options.shape).with_rules(options.rules);
        if options.jigsaw {
            let map = random_regions(options.shape, &mut rng);
            layout = layout
                .with_region_map(&map)
                .expect("random regions have N cells each");
        }
        let empty = vec![0u8; options.shape.cell_count()];
        let fill = VariantSolver::new(&layout)
            .random_solution(&empty, rng.gen(), FILL_GUESSES)
            .expect("the empty grid fits its layout");
        let Some(grid) = fill else { continue };
        let solution = Puzzle::new(options.shape, grid).expect("solutions are in range");
        let puzzle = if options.killer {
            make_killer(layout, &solution, &mut rng)
        } else {
            carve(layout, &solution, options.symmetry, &mut rng)
        };
        return Ok(VariantGenerated {
            index,
            puzzle,
            solution,
        });
    }
    Err(VariantGenerateError::NoGrid { attempts: ATTEMPTS })
}

/// Puzzles `indices` of seed `seed`, made in parallel and returned in index
/// order.
pub fn generate_variant_range(
    options: &VariantOptions,
    seed: u64,
    indices: std::ops::Range<u64>,
) -> Vec<Result<VariantGenerated, VariantGenerateError>> {
    let indices: Vec<u64> = indices.collect();
    indices
        .into_par_iter()
        .map(|index| generate_variant(options, seed, index))
        .collect()
}

/// Whether `givens` on `solver`'s layout have exactly one solution.
fn is_unique(solver: &mut VariantSolver, givens: &[u8]) -> bool {
    solver.solve_raw(givens, 2, None).solutions == 1
}

/// Blanks clue orbits of `solution` in random order while the solution
/// stays unique.
fn carve<R: Rng>(
    layout: Layout,
    solution: &Puzzle,
    symmetry: Symmetry,
    rng: &mut R,
) -> VariantPuzzle {
    let mut solver = VariantSolver::new(&layout);
    let mut cells = solution.cells().to_vec();
    let mut orbits = symmetry.orbits(solution.shape());
    orbits.shuffle(rng);
    for orbit in &orbits {
        let kept: Vec<u8> = orbit.iter().map(|&c| cells[c]).collect();
        for &c in orbit {
            cells[c] = 0;
        }
        if !is_unique(&mut solver, &cells) {
            for (&c, &v) in orbit.iter().zip(&kept) {
                cells[c] = v;
            }
        }
    }
    let givens = Puzzle::new(solution.shape(), cells).expect("cells come from a grid");
    VariantPuzzle::new(layout, givens).expect("same shape")
}

/// The orthogonal neighbours of `cell` on a grid of side `n`.
fn neighbours(cell: usize, n: usize) -> impl Iterator<Item = usize> {
    let (r, c) = (cell / n, cell % n);
    [
        (r > 0).then(|| cell - n),
        (r + 1 < n).then(|| cell + n),
        (c > 0).then(|| cell - 1),
        (c + 1 < n).then(|| cell + 1),
    ]
    .into_iter()
    .flatten()
}

/// A killer puzzle with no givens whose only solution is `solution`.
fn make_killer<R: Rng>(base: Layout, solution: &Puzzle, rng: &mut R) -> VariantPuzzle {
    let n = solution.shape().side();
    let digits = solution.cells();
    let mut cages = random_cages(digits, n, rng);
    let empty = Puzzle::empty(solution.shape());
    let build = |cages: &[Vec<u16>]| {
        cages.iter().fold(base.clone(), |layout, cells| {
            let sum = cells.iter().map(|&c| digits[c as usize] as u32).sum();
            layout
                .with_cage(Cage {
                    sum: Some(sum),
                    cells: cells.clone(),
                })
                .expect("cages of distinct digits from a solution are consistent")
        })
    };
    // Split cages where two solutions differ until one is left.
    loop {
        let layout = build(&cages);
        let found = VariantSolver::new(&layout)
            .solutions(empty.cells(), 2)
            .expect("the empty grid fits its layout");
        let Some(other) = found.iter().find(|g| g.as_slice() != digits) else {
            break;
        };
        let cell = (0..n * n)
            .find(|&c| other[c] != digits[c])
            .expect("two different grids differ somewhere") as u16;
        let cage = cages
            .iter()
            .position(|cage| cage.contains(&cell))
            .expect("every cell is in a cage");
        cages[cage].retain(|&c| c != cell);
        if cages[cage].is_empty() {
            cages.remove(cage);
        }
        cages.push(vec![cell]);
        split_disconnected(&mut cages, n);
    }
    // Merge neighbouring cages while the solution stays unique.
    let mut attempts = 2 * cages.len();
    while attempts > 0 {
        attempts -= 1;
        let a = rng.gen_range(0..cages.len());
        let Some(b) = mergeable_neighbour(&cages, a, digits, n, rng) else {
            continue;
        };
        let mut merged = cages.clone();
        let moved = merged[b].clone();
        merged[a].extend(moved);
        merged.remove(b);
        let layout = build(&merged);
        if is_unique(&mut VariantSolver::new(&layout), empty.cells()) {
            cages = merged;
        }
    }
    for cage in &mut cages {
        cage.sort_unstable();
    }
    cages.sort_unstable();
    VariantPuzzle::new(build(&cages), empty).expect("same shape")
}

/// A cage next to cage `a` that it can merge with (distinct digits, at most
/// [`MAX_CAGE`] cells together), chosen at random.
fn mergeable_neighbour<R: Rng>(
    cages: &[Vec<u16>],
    a: usize,
    digits: &[u8],
    n: usize,
    rng: &mut R,
) -> Option<usize> {
    let mut candidates: Vec<usize> = cages[a]
        .iter()
        .flat_map(|&c| neighbours(c as usize, n))
        .filter_map(|c| cages.iter().position(|cage| cage.contains(&(c as u16))))
        .filter(|&b| b != a && cages[a].len() + cages[b].len() <= MAX_CAGE)
        .filter(|&b| {
            cages[b].iter().all(|&x| {
                cages[a]
                    .iter()
                    .all(|&y| digits[x as usize] != digits[y as usize])
            })
        })
        .collect();
    candidates.sort_unstable();
    candidates.dedup();
    candidates.choose(rng).copied()
}

/// Random orthogonally connected cages of distinct digits of `digits`
/// covering the grid, of 1 to [`MAX_CAGE`] cells.
fn random_cages<R: Rng>(digits: &[u8], n: usize, rng: &mut R) -> Vec<Vec<u16>> {
    let mut owner = vec![usize::MAX; n * n];
    let mut order: Vec<usize> = (0..n * n).collect();
    order.shuffle(rng);
    let mut cages: Vec<Vec<u16>> = Vec::new();
    for start in order {
        if owner[start] != usize::MAX {
            continue;
        }
        let target = rng.gen_range(2..=MAX_CAGE.min(n));
        let id = cages.len();
        let mut cage = vec![start as u16];
        owner[start] = id;
        while cage.len() < target {
            let mut frontier: Vec<usize> = cage
                .iter()
                .flat_map(|&c| neighbours(c as usize, n))
                .filter(|&c| owner[c] == usize::MAX)
                .filter(|&c| cage.iter().all(|&x| digits[x as usize] != digits[c]))
                .collect();
            frontier.sort_unstable();
            frontier.dedup();
            let Some(&next) = frontier.choose(rng) else {
                break;
            };
            owner[next] = id;
            cage.push(next as u16);
        }
        cages.push(cage);
    }
    cages
}

/// Splits every cage that is no longer orthogonally connected into its
/// connected parts.
fn split_disconnected(cages: &mut Vec<Vec<u16>>, n: usize) {
    let mut parts = Vec::with_capacity(cages.len());
    for cage in cages.drain(..) {
        let mut left = cage;
        while let Some(first) = left.pop() {
            let mut part = vec![first];
            let mut i = 0;
            while i < part.len() {
                let here = part[i] as usize;
                for next in neighbours(here, n) {
                    if let Some(at) = left.iter().position(|&c| c as usize == next) {
                        part.push(left.swap_remove(at));
                    }
                }
                i += 1;
            }
            parts.push(part);
        }
    }
    *cages = parts;
}

/// A random jigsaw region map for `shape`'s side: `N` orthogonally
/// connected regions of `N` cells, grown from the boxes by random swaps of
/// border cells between neighbouring regions that keep both connected.
pub fn random_regions<R: Rng + ?Sized>(shape: Shape, rng: &mut R) -> String {
    let n = shape.side();
    let mut region: Vec<usize> = (0..n * n).map(|c| shape.box_of(c)).collect();
    for _ in 0..(n * n * 20) {
        let a = rng.gen_range(0..n * n);
        let others: Vec<usize> = neighbours(a, n)
            .filter(|&b| region[b] != region[a])
            .collect();
        let Some(&b_cell) = others.choose(rng) else {
            continue;
        };
        let (ra, rb) = (region[a], region[b_cell]);
        // A cell of region rb next to region ra, other than b_cell's twin.
        let back: Vec<usize> = (0..n * n)
            .filter(|&c| region[c] == rb && c != b_cell)
            .filter(|&c| neighbours(c, n).any(|x| region[x] == ra && x != a))
            .collect();
        let Some(&c_cell) = back.choose(rng) else {
            continue;
        };
        // Swap: a joins rb, c_cell joins ra.
        region[a] = rb;
        region[c_cell] = ra;
        if !(is_connected(&region, ra, n) && is_connected(&region, rb, n)) {
            region[a] = ra;
            region[c_cell] = rb;
        }
    }
    let symbols: Vec<char> = crate::parse::DEFAULT_SYMBOLS.chars().collect();
    region.iter().map(|&r| symbols[r]).collect()
}

/// Whether region `id`'s cells are orthogonally connected.
fn is_connected(region: &[usize], id: usize, n: usize) -> bool {
    let Some(start) = region.iter().position(|&r| r == id) else {
        return true;
    };
    let mut seen = vec![false; region.len()];
    let mut stack = vec![start];
    seen[start] = true;
    let mut count = 0;
    while let Some(c) = stack.pop() {
        count += 1;
        for next in neighbours(c, n) {
            if region[next] == id && !seen[next] {
                seen[next] = true;
                stack.push(next);
            }
        }
    }
    count == region.iter().filter(|&&r| r == id).count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::Status;

    #[test]
    fn random_regions_are_connected_and_of_n_cells() {
        let mut rng = puzzle_rng(5, 0);
        for (rows, cols) in [(2, 2), (2, 3), (3, 3), (3, 4)] {
            let shape = Shape::new(rows, cols).unwrap();
            for _ in 0..5 {
                let map = random_regions(shape, &mut rng);
                let layout = Layout::classic(shape).with_region_map(&map).unwrap();
                let n = shape.side();
                let region: Vec<usize> = (0..n * n).map(|c| layout.region_of(c)).collect();
                assert!((0..n).all(|r| is_connected(&region, r, n)), "{map}");
            }
        }
    }

    #[test]
    fn generated_puzzles_are_unique_minimal_and_solved_by_their_solution() {
        let shape = Shape::new(2, 3).unwrap();
        let kinds = [
            VariantOptions::new(shape),
            VariantOptions {
                rules: "x".parse().unwrap(),
                ..VariantOptions::new(shape)
            },
            VariantOptions {
                jigsaw: true,
                ..VariantOptions::new(shape)
            },
            VariantOptions {
                killer: true,
                ..VariantOptions::new(shape)
            },
            VariantOptions {
                rules: "antiknight".parse().unwrap(),
                symmetry: Symmetry::Rot180,
                ..VariantOptions::new(shape)
            },
        ];
        for options in kinds {
            for made in generate_variant_range(&options, 11, 0..6) {
                let made = made.unwrap();
                let p = &made.puzzle;
                assert_eq!(p.status(), Status::Unique, "{p}");
                assert!(p.is_solved_by(&made.solution), "{p}");
                assert_eq!(p.layout().is_jigsaw(), options.jigsaw, "{p}");
                assert_eq!(p.layout().rules(), options.rules, "{p}");
                if options.killer {
                    assert_eq!(p.givens().clue_count(), 0, "{p}");
                    let covered: usize = p.layout().cages().iter().map(|c| c.cells.len()).sum();
                    assert_eq!(covered, 36, "{p}");
                } else if options.symmetry == Symmetry::None {
                    // Minimal: every clue is needed.
                    for cell in 0..36 {
                        if p.givens().cells()[cell] != 0 {
                            let mut fewer = p.givens().clone();
                            fewer.set(cell, 0).unwrap();
                            let q = VariantPuzzle::new(p.layout().clone(), fewer).unwrap();
                            assert_eq!(q.status(), Status::Multiple, "{p}");
                        }
                    }
                }
                // The same seed and index give the same puzzle.
                assert_eq!(generate_variant(&options, 11, made.index).unwrap(), made);
            }
        }
    }

    #[test]
    fn a_variant_without_grids_is_reported() {
        let options = VariantOptions {
            rules: "antiking".parse().unwrap(),
            ..VariantOptions::new(Shape::new(2, 2).unwrap())
        };
        assert!(matches!(
            generate_variant(&options, 1, 0),
            Err(VariantGenerateError::NoGrid { .. })
        ));
    }
}
