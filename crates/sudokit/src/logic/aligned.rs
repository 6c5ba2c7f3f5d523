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
    /// The same excluders as cell bit sets, `words` words per base cell,
    /// to intersect them quickly.
    excluder_sets: Vec<u64>,
    /// Words of a cell bit set.
    words: usize,
    /// For each cell of the grid, its index in `cells`, if it is one.
    index_of: Vec<Option<usize>>,
}

impl BaseCells {
    /// The excluders of base cell `index` as a cell bit set.
    fn set(&self, index: usize) -> &[u64] {
        &self.excluder_sets[index * self.words..(index + 1) * self.words]
    }

    /// Whether `cell` is an excluder of base cell `index`.
    fn excludes(&self, index: usize, cell: usize) -> bool {
        self.set(index)[cell / 64] >> (cell % 64) & 1 != 0
    }

    /// How many excluders base cells `first` and `second` share.
    fn common_count(&self, first: usize, second: usize) -> u32 {
        let (a, b) = (self.set(first), self.set(second));
        a.iter().zip(b).map(|(x, y)| (x & y).count_ones()).sum()
    }

    /// Fills `masks` with the candidate masks of the excluders common to
    /// every base cell of `indices` (a buffer reused from one base set to
    /// the next).
    fn common_excluders(&self, grid: &Candidates, indices: &[usize], masks: &mut Vec<u64>) {
        masks.clear();
        for word in 0..self.words {
            let shared = indices.iter().fold(u64::MAX, |m, &i| m & self.set(i)[word]);
            masks.extend(bits(shared).map(|b| grid.mask(word * 64 + b)));
        }
    }
}

/// Finds SE's base cells for sets of `size` cells.
fn base_cells(grid: &Candidates, size: usize) -> BaseCells {
    let words = grid.cell_count().div_ceil(64);
    let mut base = BaseCells {
        cells: Vec::new(),
        excluders: Vec::new(),
        excluder_sets: Vec::new(),
        words,
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
            let start = base.excluder_sets.len();
            base.excluder_sets.resize(start + words, 0);
            for &other in &excluders {
                base.excluder_sets[start + other / 64] |= 1 << (other % 64);
            }
            base.excluders.push(excluders);
        }
    }
    base
}

/// The digits each base cell (two or three) takes in at least one
/// possible combination: one digit per cell, no digit twice in cells that
/// see each other, and no excluder left without a candidate. Drops from
/// `excluders` those with a digit no base cell has (no combination can
/// take all of theirs).
fn allowed_digits<const N: usize>(
    grid: &Candidates,
    cells: [usize; N],
    excluders: &mut Vec<u64>,
) -> [u64; N] {
    let masks = cells.map(|c| grid.mask(c));
    let all = masks.iter().fold(0, |m, &x| m | x);
    excluders.retain(|&e| e & !all == 0);
    debug_assert!(N == 2 || N == 3, "pairs and triples only");
    // All bits when base cells `i` and `j` see each other (a digit chosen
    // for one is forbidden to the other), none otherwise.
    let seeing = |i: usize, j: usize| {
        if grid.sees(cells[i], cells[j]) {
            u64::MAX
        } else {
            0
        }
    };
    let mut allowed = [0u64; N];
    let (masks, slots): (&[u64], &mut [u64]) = (&masks, &mut allowed);
    if N == 2 {
        let seen01 = seeing(0, 1);
        for d0 in bits(masks[0]) {
            let b0 = 1u64 << d0;
            let free = masks[1] & !(seen01 & b0) & !completing(excluders, b0);
            if free != 0 {
                slots[0] |= b0;
                slots[1] |= free;
            }
        }
        return allowed;
    }
    let (seen01, seen02, seen12) = (seeing(0, 1), seeing(0, 2), seeing(1, 2));
    for d0 in bits(masks[0]) {
        let b0 = 1u64 << d0;
        for d1 in bits(masks[1] & !(seen01 & b0)) {
            if slots == masks {
                return allowed;
            }
            let b1 = 1u64 << d1;
            let free = masks[2] & !(seen02 & b0) & !(seen12 & b1) & !completing(excluders, b0 | b1);
            if free != 0 {
                slots[0] |= b0;
                slots[1] |= b1;
                slots[2] |= free;
            }
        }
    }
    allowed
}

/// The digits that, added to the digits `union`, would take every
/// candidate of some excluder (all digits when `union` already does).
fn completing(excluders: &[u64], union: u64) -> u64 {
    excluders.iter().fold(0, |m, &e| {
        let missing = e & !union;
        match missing.count_ones() {
            0 => u64::MAX,
            1 => m | missing,
            _ => m,
        }
    })
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
    let mut reported: Vec<[usize; 3]> = Vec::new();
    for second in 1..base.cells.len() {
        for first in 0..second {
            if base.common_count(first, second) < 2 {
                continue;
            }
            let (c0, c1) = (base.cells[first], base.cells[second]);
            if size == 2 {
                base.common_excluders(grid, &[first, second], &mut excluders);
                let allowed = allowed_digits(grid, [c0, c1], &mut excluders);
                let removed = eliminations(grid, &[c0, c1], &allowed);
                if !removed.is_empty() {
                    sink(exclusion_step(grid, &[c0, c1], removed))?;
                }
                continue;
            }
            // The third cell: a base cell among the excluders of the first
            // (house order), then the new ones among those of the second.
            let from_second = base.excluders[second]
                .iter()
                .filter(|&&c| !base.excludes(first, c));
            for &c2 in base.excluders[first].iter().chain(from_second) {
                let Some(third) = base.index_of[c2] else {
                    continue;
                };
                if c2 == c0 || c2 == c1 {
                    continue;
                }
                base.common_excluders(grid, &[first, second, third], &mut excluders);
                if excluders.len() < 2 {
                    continue;
                }
                let allowed = allowed_digits(grid, [c0, c1, c2], &mut excluders);
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
    use crate::logic::uniqueness::{first_step, position};

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

    #[test]
    fn aligned_pair_as_se_takes_it() {
        let grid = position(
            ".4..2..31...3...242.3145.8.6.2.71493.3.4.621.41.2.3.5....732845324..8179578914362",
            "r1c7<>7 r2c2<>6 r2c2<>9 r2c5<>9 r2c7<>7 r5c3<>7",
        );
        let step = first_step(Technique::AlignedPair, &grid).expect("SE's APE");
        assert_eq!(step.name, "Aligned Pair Exclusion");
        assert_eq!(step.difficulty, Difficulty(62));
        assert_eq!(step.outcome(), "r2c3<>9");
    }

    #[test]
    fn aligned_triple_as_se_takes_it() {
        let grid = position(
            "84...93.1...48.2......7..4...1..4..3483..7.6...93.8..4...7...3.31.8....5.2..3.4..",
            "r2c3<>7 r2c8<>7 r3c1<>2 r4c8<>5 r4c8<>9 r9c3<>7 r9c8<>7",
        );
        let step = first_step(Technique::AlignedTriple, &grid).expect("SE's ATE");
        assert_eq!(step.name, "Aligned Triplet Exclusion");
        assert_eq!(step.difficulty, Difficulty(75));
        assert_eq!(step.outcome(), "r2c1<>9");
    }

    #[test]
    fn no_aligned_exclusion_where_se_found_none() {
        let grid = position(
            ".17.2..455.4....12.231457..1724.3.563..25.471.45..1...4.1.3.5..23.5..1..75.81....",
            "r6c7<>3 r9c7<>3",
        );
        assert!(first_step(Technique::AlignedPair, &grid).is_none());
        assert!(first_step(Technique::AlignedTriple, &grid).is_none());
    }

    #[test]
    fn an_excluder_forbids_the_pairs_of_its_digits() {
        // 4×4: r1c1 {1,2} and r1c2 {1,2,4} see the bivalue r2c1 {1,2} and
        // r2c2 {1,3}. With r1c2 = 1 or 2, r1c1 takes the other and both
        // digits of r2c1: only 4 stays for r1c2.
        let mut grid = position("................", "");
        for (cell, digits) in [(0, &[3, 4][..]), (1, &[3]), (4, &[3, 4]), (5, &[2, 4])] {
            for &digit in digits {
                grid.eliminate(cell, digit);
            }
        }
        let step = first_step(Technique::AlignedPair, &grid).expect("an exclusion");
        assert_eq!(step.outcome(), "r1c2<>1, r1c2<>2");
    }
}
