//! Aligned exclusion: two or three base cells, and cells of few candidates
//! that see all of them (the excluders). A combination of digits for the
//! base cells is impossible when two base cells sharing a unit take the
//! same digit, or when it would take every candidate of an excluder. A
//! digit of a base cell in no possible combination is eliminated.

use std::ops::ControlFlow;

use super::candidates::bits;
use super::step::cell_list;
use super::{Candidate, Candidates, Difficulty, Sink, Step, Technique};

/// The base cells SE considers, with their excluders.
struct BaseCells {
    /// The base cells, row-major: two candidates or more, a house without
    /// a naked single, and at least one excluder.
    cells: Vec<usize>,
    /// For each base cell (parallel to `cells`), the cells of its house
    /// with 2 to `size` candidates, in SE's house order.
    excluders: Vec<Vec<usize>>,
    /// For each cell of the grid, its index in `cells`, if it is one.
    index_of: Vec<Option<usize>>,
}

/// Finds SE's base cells for sets of `size` cells.
fn base_cells(grid: &Candidates, size: usize) -> BaseCells {
    let mut base = BaseCells {
        cells: Vec::new(),
        excluders: Vec::new(),
        index_of: vec![None; grid.cell_count()],
    };
    for cell in grid.empty_cells() {
        if grid.count(cell) < 2 {
            continue;
        }
        let mut excluders = Vec::new();
        let mut naked_single = false;
        for other in grid.house_cells(cell) {
            match grid.count(other) as usize {
                1 => naked_single = true,
                count if count >= 2 && count <= size => excluders.push(other),
                _ => {}
            }
        }
        if !naked_single && !excluders.is_empty() {
            base.index_of[cell] = Some(base.cells.len());
            base.cells.push(cell);
            base.excluders.push(excluders);
        }
    }
    base
}

/// Fills `masks` with the candidate masks of the excluders common to every
/// list of `lists` (a buffer reused from one base set to the next).
fn common_excluders(grid: &Candidates, lists: &[&[usize]], masks: &mut Vec<u64>) {
    masks.clear();
    masks.extend(
        lists[0]
            .iter()
            .filter(|c| lists[1..].iter().all(|list| list.contains(c)))
            .map(|&c| grid.mask(c)),
    );
}

/// How many excluders the lists have in common (without collecting them).
fn common_count(first: &[usize], second: &[usize]) -> usize {
    first.iter().filter(|c| second.contains(c)).count()
}

/// The digits each base cell takes in at least one possible combination:
/// one digit per cell, no digit twice in cells that see each other, and
/// no excluder left without a candidate.
fn allowed_digits<const N: usize>(
    grid: &Candidates,
    cells: [usize; N],
    excluders: &[u64],
) -> [u64; N] {
    let masks = cells.map(|c| grid.mask(c));
    let mut sees = [[false; N]; N];
    for i in 0..N {
        for j in 0..N {
            sees[i][j] = grid.sees(cells[i], cells[j]);
        }
    }
    let mut allowed = [0u64; N];
    let mut chosen = [0usize; N];
    explore(&masks, &sees, excluders, 0, 0, &mut chosen, &mut allowed);
    allowed
}

/// Tries every digit of base cell `depth` after the digits `chosen` for the
/// ones before it (`union` is their mask), recording the combinations that
/// survive in `allowed`.
fn explore<const N: usize>(
    masks: &[u64; N],
    sees: &[[bool; N]; N],
    excluders: &[u64],
    depth: usize,
    union: u64,
    chosen: &mut [usize; N],
    allowed: &mut [u64; N],
) {
    if depth == N {
        if excluders.iter().all(|&e| e & !union != 0) {
            for (slot, &digit) in allowed.iter_mut().zip(chosen.iter()) {
                *slot |= 1 << digit;
            }
        }
        return;
    }
    for digit in bits(masks[depth]) {
        let clash = (0..depth).any(|i| chosen[i] == digit && sees[i][depth]);
        if !clash {
            chosen[depth] = digit;
            explore(
                masks,
                sees,
                excluders,
                depth + 1,
                union | 1 << digit,
                chosen,
                allowed,
            );
        }
    }
}

/// The eliminations of base cells `cells` whose allowed digits are
/// `allowed`.
fn eliminations(grid: &Candidates, cells: &[usize], allowed: &[u64]) -> Vec<Candidate> {
    cells
        .iter()
        .zip(allowed)
        .flat_map(|(&c, &a)| bits(grid.mask(c) & !a).map(move |d| Candidate::new(c, d as u8 + 1)))
        .collect()
}

/// The step of an aligned exclusion on `cells` removing `eliminations`.
fn exclusion_step(grid: &Candidates, cells: &[usize], eliminations: Vec<Candidate>) -> Step {
    let side = grid.side();
    let (name, tenths) = if cells.len() == 2 {
        ("Aligned Pair Exclusion", 62)
    } else {
        ("Aligned Triplet Exclusion", 75)
    };
    Step {
        technique: if cells.len() == 2 {
            Technique::AlignedPair
        } else {
            Technique::AlignedTriple
        },
        name: name.to_string(),
        difficulty: Difficulty(tenths),
        placements: Vec::new(),
        eliminations,
        cells: cells.to_vec(),
        reason: format!(
            "no combination of digits for {} leaves every cell that sees them a candidate",
            cell_list(side, cells)
        ),
        side,
    }
}

/// Aligned pair (`size` 2, SE's 6.2) and triple (`size` 3, 7.5) exclusion,
/// in SE's order. Base cell pairs come in colex order over the row-major
/// base cells; excluders have 2 candidates (pairs) or 2 to 3 (triples),
/// and at least two must see every base cell. A triple's third cell is a
/// base cell among the excluders of the first two, in their house order.
pub(super) fn exclusion(grid: &Candidates, size: usize, sink: &mut Sink<'_>) -> ControlFlow<()> {
    let base = base_cells(grid, size);
    let mut excluders = Vec::new();
    let mut twin_area = Vec::new();
    let mut reported: Vec<[usize; 3]> = Vec::new();
    for second in 1..base.cells.len() {
        for first in 0..second {
            let (list0, list1) = (&base.excluders[first], &base.excluders[second]);
            if common_count(list0, list1) < 2 {
                continue;
            }
            let (c0, c1) = (base.cells[first], base.cells[second]);
            if size == 2 {
                common_excluders(grid, &[list0, list1], &mut excluders);
                let allowed = allowed_digits(grid, [c0, c1], &excluders);
                let removed = eliminations(grid, &[c0, c1], &allowed);
                if !removed.is_empty() {
                    sink(exclusion_step(grid, &[c0, c1], removed))?;
                }
                continue;
            }
            twin_area.clear();
            for &cell in list0.iter().chain(list1) {
                if let Some(index) = base.index_of[cell] {
                    if cell != c0 && cell != c1 && !twin_area.contains(&index) {
                        twin_area.push(index);
                    }
                }
            }
            for &third in &twin_area {
                let list2 = &base.excluders[third];
                common_excluders(grid, &[list0, list1, list2], &mut excluders);
                if excluders.len() < 2 {
                    continue;
                }
                let c2 = base.cells[third];
                let allowed = allowed_digits(grid, [c0, c1, c2], &excluders);
                let removed = eliminations(grid, &[c0, c1, c2], &allowed);
                let mut key = [c0, c1, c2];
                key.sort_unstable();
                if !removed.is_empty() && !reported.contains(&key) {
                    reported.push(key);
                    sink(exclusion_step(grid, &[c0, c1, c2], removed))?;
                }
            }
        }
    }
    ControlFlow::Continue(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The candidate grid of `puzzle` with `eliminated` (cell, digit) removed.
    fn grid_of(puzzle: &str, eliminated: &[(usize, u8)]) -> Candidates {
        let mut grid = Candidates::new(&puzzle.parse().expect("a puzzle")).expect("consistent");
        for &(cell, digit) in eliminated {
            grid.eliminate(cell, digit);
        }
        grid
    }

    /// Every step the pair exclusion reports on `grid`.
    fn pair_steps(grid: &Candidates) -> Vec<Step> {
        let mut steps = Vec::new();
        let _ = exclusion(grid, 2, &mut |step| {
            steps.push(step);
            ControlFlow::Continue(())
        });
        steps
    }

    /// SE's position before its step 47 on `..............1..2.34....5...`.
    const SE_STEP_47: &str =
        "7..3.59645..4.1372.34..71584.581.637....734858736542193.714.5.614.5..7.395.73.841";

    /// The candidates SE had already removed at that step.
    const SE_STEP_47_GONE: [(usize, u8); 11] = [
        (11, 6),
        (13, 9),
        (22, 2),
        (37, 2),
        (38, 2),
        (38, 6),
        (65, 2),
        (67, 6),
        (67, 8),
        (68, 2),
        (68, 9),
    ];

    #[test]
    fn pair_exclusion_takes_se_first_step() {
        let steps = pair_steps(&grid_of(SE_STEP_47, &SE_STEP_47_GONE));
        let first = steps.first().expect("an aligned pair exclusion");
        assert_eq!(first.difficulty, Difficulty(62));
        assert_eq!(first.cells, vec![1, 10]);
        let removed: Vec<(usize, u8)> = first
            .eliminations
            .iter()
            .map(|e| (e.cell, e.digit))
            .collect();
        assert_eq!(removed, vec![(1, 2)]);
    }

    #[test]
    fn no_pair_exclusion_without_bivalue_cells() {
        let empty = ".".repeat(81);
        assert!(pair_steps(&grid_of(&empty, &[])).is_empty());
    }
}
