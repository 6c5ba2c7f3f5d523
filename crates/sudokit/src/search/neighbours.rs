//! The {−R+A} neighbours of one seed for one removal: the heart of the hunt.
//!
//! # Method
//!
//! Removing the clues `S` from the seed leaves a puzzle `Q`. Adding clues to
//! `Q` only ever keeps some of `Q`'s solutions, so the finished puzzle is
//! unique exactly when its added clues agree with one solution `s` of `Q`
//! and rule out every other solution `t`. A clue at cell `c` (with digit
//! `s[c]`) rules out `t` when `t[c] ≠ s[c]`, so with `D_t` the cells where
//! `t` differs from `s`, the added cells must *hit* every `D_t`. Instead of
//! trying (cells × digits)^A additions, the search enumerates `Q`'s
//! solutions once and, for each `s`, the hitting sets of exactly `A` cells:
//! branch on the cells of the unhit `D_t` with fewest choices, excluding
//! each cell from its later siblings so that every set appears once.
//!
//! A hitting set gives a minimal puzzle only if
//! - it is a minimal hitting set: every added cell is the only one to rule
//!   out some `t` (else that added clue is redundant; sets smaller than `A`
//!   that already hit everything are never extended for the same reason);
//! - no old clue became redundant: removing any clue of `Q` must leave
//!   several solutions, checked with the solver. Most unique candidates
//!   fail here, and on the same few clues, so the clue that failed last is
//!   tried first (move to front): one solver call rejects most candidates.
//!
//! Re-adding a removed clue with its own digit is skipped: that puzzle lies
//! in the smaller {−(R−1)+(A−1)} neighbourhood.

use super::solutions::all_solutions;
use crate::grid::{check_cells, InputError, Shape};
use crate::solver::Solver;

/// More solutions than this after the removal: the unit is skipped (counted
/// in [`UnitCounts::skipped`]); a minimal seed one or two clues short has
/// far fewer.
pub const MAX_SOLUTIONS: usize = 200_000;

/// Counts for one unit (seed × removal).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct UnitCounts {
    /// Candidate targets: solutions of the reduced puzzle examined.
    pub candidates: u64,
    /// Unique puzzles built (hitting sets of exactly `A` cells).
    pub unique: u64,
    /// Of those, minimal ones.
    pub minimal: u64,
    /// Units skipped for having more than [`MAX_SOLUTIONS`] solutions.
    pub skipped: u64,
}

/// An 81-cell set, bit `k` for cell `k`.
type Cells = u128;

/// The unique minimal puzzles `seed − removed + A clues` (see the module
/// docs), in a fixed order, and the unit's counts. An error when `solver` is
/// not a 9×9 solver, a value of `seed` exceeds 9 or a cell of `removed` is
/// not below 81.
pub fn unit_neighbours(
    solver: &mut dyn Solver,
    seed: &[u8; 81],
    removed: &[u8],
    add: usize,
) -> Result<(Vec<[u8; 81]>, UnitCounts), InputError> {
    let nine = Shape::new(3, 3).expect("3×3 boxes are a valid shape");
    if solver.shape() != nine {
        return Err(InputError::WrongShape {
            found: solver.shape(),
            expected: nine,
        });
    }
    check_seed(seed)?;
    if let Some(&k) = removed.iter().find(|&&k| k >= 81) {
        return Err(InputError::NoSuchCell {
            cell: k as usize + 1,
            count: 81,
        });
    }
    Ok(unit_neighbours_raw(solver, seed, removed, add))
}

/// Checks that a seed's values are 0–9.
pub(crate) fn check_seed(seed: &[u8; 81]) -> Result<(), InputError> {
    check_cells(Shape::new(3, 3).expect("3×3 boxes are a valid shape"), seed)
}

/// [`unit_neighbours`] for a 9×9 solver, a checked seed and cells below 81.
pub(crate) fn unit_neighbours_raw(
    solver: &mut dyn Solver,
    seed: &[u8; 81],
    removed: &[u8],
    add: usize,
) -> (Vec<[u8; 81]>, UnitCounts) {
    let mut counts = UnitCounts::default();
    let mut reduced = *seed;
    for &k in removed {
        reduced[k as usize] = 0;
    }
    let Some(solutions) = all_solutions(&reduced, MAX_SOLUTIONS) else {
        counts.skipped = 1;
        return (Vec::new(), counts);
    };
    // masks[i][d]: cells where solution i holds digit d + 1.
    let masks: Vec<[Cells; 9]> = solutions.iter().map(digit_masks).collect();
    let blank: Cells = (0..81)
        .filter(|&k| reduced[k] == 0)
        .fold(0, |m, k| m | 1 << k);
    let mut finds = Vec::new();
    let mut diffs: Vec<Cells> = Vec::with_capacity(solutions.len());
    let mut sets = Vec::new();
    let mut old: Vec<usize> = (0..81).filter(|&k| reduced[k] != 0).collect();
    for (i, s) in solutions.iter().enumerate() {
        counts.candidates += 1;
        diffs.clear();
        diffs.extend(
            masks
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, t)| (0..9).fold(0, |m, d| m | (masks[i][d] & !t[d]))),
        );
        let undo: Cells = removed
            .iter()
            .filter(|&&k| s[k as usize] == seed[k as usize])
            .fold(0, |m, &k| m | 1 << k);
        sets.clear();
        hitting_sets(&diffs, blank & !undo, 0, 0, add, &mut sets);
        for &set in &sets {
            if !every_cell_needed(&diffs, set) {
                continue;
            }
            counts.unique += 1;
            let mut puzzle = reduced;
            for k in bits(set) {
                puzzle[k] = s[k];
            }
            if old_clues_needed(solver, &puzzle, &mut old) {
                counts.minimal += 1;
                finds.push(puzzle);
            }
        }
    }
    (finds, counts)
}

fn digit_masks(solution: &[u8; 81]) -> [Cells; 9] {
    let mut m = [0; 9];
    for (k, &d) in solution.iter().enumerate() {
        m[d as usize - 1] |= 1 << k;
    }
    m
}

fn bits(mut set: Cells) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let k = set.trailing_zeros() as usize;
            set &= set - 1;
            k
        })
    })
}

/// Pushes every set of exactly `left` more cells from `allowed & !excluded`
/// that, with `chosen`, hits every member of `diffs`, and that is reached
/// before the budget runs out (see the module docs).
fn hitting_sets(
    diffs: &[Cells],
    allowed: Cells,
    chosen: Cells,
    excluded: Cells,
    left: usize,
    out: &mut Vec<Cells>,
) {
    let open = allowed & !excluded;
    let mut branch: Option<Cells> = None;
    for &d in diffs {
        if d & chosen != 0 {
            continue;
        }
        let options = d & open;
        if left == 0 || options == 0 {
            return;
        }
        if branch.is_none_or(|b| options.count_ones() < b.count_ones()) {
            branch = Some(options);
        }
    }
    let Some(options) = branch else {
        if left == 0 {
            out.push(chosen);
        }
        return;
    };
    let mut excluded = excluded;
    for k in bits(options) {
        hitting_sets(diffs, allowed, chosen | 1 << k, excluded, left - 1, out);
        excluded |= 1 << k;
    }
}

/// Whether each cell of `set` is the only one of `set` in some `diffs` member.
fn every_cell_needed(diffs: &[Cells], set: Cells) -> bool {
    let mut private: Cells = 0;
    for &d in diffs {
        let hit = d & set;
        if hit.count_ones() == 1 {
            private |= hit;
        }
    }
    private == set
}

/// Whether each clue of `old` is needed in `puzzle`; a clue found redundant
/// moves to the front of `old`, to be tried first next time.
fn old_clues_needed(solver: &mut dyn Solver, puzzle: &[u8; 81], old: &mut [usize]) -> bool {
    let mut probe = *puzzle;
    for i in 0..old.len() {
        let k = old[i];
        probe[k] = 0;
        let several = solver.solve_raw(&probe, 2, None).solutions >= 2;
        probe[k] = puzzle[k];
        if !several {
            old[..=i].rotate_right(1);
            return false;
        }
    }
    true
}
