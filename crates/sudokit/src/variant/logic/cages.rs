//! Killer cages: a cage's sum allows only some sets of distinct digits
//! (cage combinations), and a complete house's cells outside the cages it
//! holds make the rest of its total (the law of leftovers, "innies"). Each
//! sum keeps the digit sets its cells can still hold; a digit outside all
//! of them leaves the cage, and a digit in all of them is in the cage:
//! placed when it has one place there, cleared from every cell that sees
//! all its places otherwise.

use std::ops::ControlFlow;

use super::grid::{bits, digit_set, digits, VariantGrid};
use super::step;
use crate::logic::{cell_list, Candidate, Difficulty, Sink, Step, Technique};
use crate::variant::{CageTable, SumOrigin};

/// A cage's combinations at work (2.0: as plain as a naked single once the
/// sums are known).
const CAGE: Difficulty = Difficulty(20);
/// The law of leftovers, which needs a whole house's total (2.8).
const LEFTOVER: Difficulty = Difficulty(28);

/// Digit sets listed in full in a reason; more are counted.
const SHOWN_COMBINATIONS: usize = 6;

/// Steps from every sum: the cages, then the leftovers.
pub(super) fn find(grid: &VariantGrid, sink: &mut Sink<'_>) -> ControlFlow<()> {
    for sum in grid.tables().sums() {
        let Some((feasible, allowed)) = open_sets(grid, sum) else {
            continue;
        };
        if feasible.is_empty() {
            continue;
        }
        if let Some(s) = restriction(grid, sum, &feasible, &allowed) {
            sink(s)?;
        }
        for s in required(grid, sum, &feasible) {
            sink(s)?;
        }
    }
    ControlFlow::Continue(())
}

/// Removes from every cell of every sum the digits no feasible set lets it
/// take, without explaining (the Nishio propagation's cage pass); whether
/// anything went.
pub(super) fn restrict_all(grid: &mut VariantGrid) -> bool {
    let mut eliminations = Vec::new();
    for sum in grid.tables().sums() {
        let Some((_, allowed)) = open_sets(grid, sum) else {
            continue;
        };
        for (&c, &a) in sum.cells.iter().zip(&allowed) {
            let c = usize::from(c);
            if grid.value(c) == 0 && grid.mask(c) & !a != 0 {
                eliminations.push((c, a));
            }
        }
    }
    for &(cell, allowed) in &eliminations {
        grid.keep_only(cell, allowed);
    }
    !eliminations.is_empty()
}

/// For a sum with an empty cell: its digit sets the cells can still hold,
/// and for each cell the digits those sets let it take; `None` when every
/// cell is filled.
fn open_sets(grid: &VariantGrid, sum: &CageTable) -> Option<(Vec<u64>, Vec<u64>)> {
    if sum.cells.iter().all(|&c| grid.value(usize::from(c)) != 0) {
        return None;
    }
    let mut feasible = Vec::new();
    let mut allowed = vec![0u64; sum.cells.len()];
    for &combo in &sum.combos {
        if let Some(takes) = assignments(grid, &sum.cells, combo) {
            feasible.push(combo);
            for (a, t) in allowed.iter_mut().zip(takes) {
                *a |= t;
            }
        }
    }
    Some((feasible, allowed))
}

/// For each cell, the digits it can take when the cells hold the digits of
/// `combo`, one each (every placed value in it, the empty cells matched to
/// the rest through their candidates); `None` when they cannot.
fn assignments(grid: &VariantGrid, cells: &[u16], combo: u64) -> Option<Vec<u64>> {
    let mut left = combo;
    let mut empty = Vec::with_capacity(cells.len());
    let mut takes = vec![0u64; cells.len()];
    for (i, &c) in cells.iter().enumerate() {
        match grid.value(usize::from(c)) {
            0 => empty.push(i),
            v if left >> (v - 1) & 1 != 0 => left &= !(1 << (v - 1)),
            _ => return None,
        }
    }
    let masks: Vec<u64> = empty
        .iter()
        .map(|&i| grid.mask(usize::from(cells[i])) & left)
        .collect();
    // Quick refusals: a cell with no digit of the set, or a digit of the
    // set no cell can take.
    if masks.contains(&0) || masks.iter().fold(0, |all, m| all | m) != left {
        return None;
    }
    // The sets of digits the first `k` empty cells can take, level by
    // level; then, backwards, only those from which the rest can be
    // completed, and the digits that lead from one of those to the next.
    let mut levels: Vec<Vec<u64>> = vec![vec![0]];
    for &m in &masks {
        let mut next: Vec<u64> = levels[levels.len() - 1]
            .iter()
            .flat_map(|&used| bits(m & !used).map(move |d| used | 1 << d))
            .collect();
        next.sort_unstable();
        next.dedup();
        if next.is_empty() {
            return None;
        }
        levels.push(next);
    }
    for k in (0..masks.len()).rev() {
        let (done, todo) = levels.split_at_mut(k + 1);
        let alive = &todo[0];
        let mut kept = Vec::with_capacity(done[k].len());
        for &used in &done[k] {
            let mut leads = false;
            for d in bits(masks[k] & !used) {
                if alive.binary_search(&(used | 1 << d)).is_ok() {
                    takes[empty[k]] |= 1 << d;
                    leads = true;
                }
            }
            if leads {
                kept.push(used);
            }
        }
        done[k] = kept;
    }
    Some(takes)
}

/// The step removing, from each empty cell, the digits no feasible set
/// lets it take.
fn restriction(
    grid: &VariantGrid,
    sum: &CageTable,
    feasible: &[u64],
    allowed: &[u64],
) -> Option<Step> {
    let eliminations: Vec<Candidate> = sum
        .cells
        .iter()
        .zip(allowed)
        .map(|(&c, &a)| (usize::from(c), a))
        .flat_map(|(c, a)| digits(grid.mask(c) & !a).map(move |d| Candidate::new(c, d)))
        .collect();
    if eliminations.is_empty() {
        return None;
    }
    let shown: Vec<String> = feasible
        .iter()
        .take(SHOWN_COMBINATIONS)
        .map(|&c| digit_set(c))
        .collect();
    let mut sets = shown.join(" or ");
    if feasible.len() > SHOWN_COMBINATIONS {
        sets = format!("{sets} … ({} sets)", feasible.len());
    }
    let mut s = named(grid, sum, "Combination");
    s.reason = format!("{} can only be {sets}", what(grid, sum));
    s.eliminations = eliminations;
    Some(s)
}

/// The steps of the digits every feasible set holds: each is in the cage.
fn required(grid: &VariantGrid, sum: &CageTable, feasible: &[u64]) -> Vec<Step> {
    let placed = sum
        .cells
        .iter()
        .fold(0u64, |m, &c| match grid.value(usize::from(c)) {
            0 => m,
            v => m | 1 << (v - 1),
        });
    let common = feasible.iter().fold(u64::MAX, |m, &c| m & c) & !placed;
    let mut steps = Vec::new();
    for digit in digits(common) {
        let holders: Vec<usize> = sum
            .cells
            .iter()
            .map(|&c| usize::from(c))
            .filter(|&c| grid.has(c, digit))
            .collect();
        let Some(&first) = holders.first() else {
            continue;
        };
        let mut s = named(grid, sum, "Hidden Single");
        s.cells = holders.clone();
        if holders.len() == 1 {
            s.placements.push(Candidate::new(first, digit));
            s.reason = format!(
                "{} must hold {digit} (every set it can be has it), and only {} can take it",
                what(grid, sum),
                cell_list(grid.side(), &holders)
            );
            steps.push(s);
            continue;
        }
        s.eliminations = grid
            .tables()
            .peers(first)
            .iter()
            .map(|&c| usize::from(c))
            .filter(|&c| grid.has(c, digit) && !holders.contains(&c))
            .filter(|&c| holders[1..].iter().all(|&h| grid.sees(h, c)))
            .map(|c| Candidate::new(c, digit))
            .collect();
        if s.eliminations.is_empty() {
            continue;
        }
        s.name = s.name.replace("Hidden Single", "Locked Candidates");
        s.reason = format!(
            "{} must hold {digit} (every set it can be has it), in {}, which all see {}",
            what(grid, sum),
            cell_list(grid.side(), &holders),
            cell_list(
                grid.side(),
                &s.eliminations.iter().map(|e| e.cell).collect::<Vec<_>>()
            )
        );
        steps.push(s);
    }
    steps
}

/// A cage step (`Cage <form>`, 2.0) or a leftover one (`Law of Leftovers`,
/// 2.8), with the sum's cells as the pattern.
fn named(grid: &VariantGrid, sum: &CageTable, form: &str) -> Step {
    let (name, difficulty) = match sum.origin {
        SumOrigin::Cage => (format!("Cage {form}"), CAGE),
        SumOrigin::Innies(_) | SumOrigin::Outies(_) => {
            (format!("Law of Leftovers ({form})"), LEFTOVER)
        }
    };
    let mut s = step(grid, Technique::Cage, name, difficulty);
    s.cells = sum.cells.iter().map(|&c| usize::from(c)).collect();
    s
}

/// The sum's cells in words: `cage 15 at r1c1` or `the cells of row 3
/// outside its cages (r3c4, r3c5), making 13,`.
fn what(grid: &VariantGrid, sum: &CageTable) -> String {
    let cells: Vec<usize> = sum.cells.iter().map(|&c| usize::from(c)).collect();
    match sum.origin {
        SumOrigin::Cage => {
            let first = usize::from(sum.cells[0]);
            let h = grid
                .tables()
                .houses_of(first)
                .iter()
                .map(|&h| h as usize)
                .find(|&h| grid.tables().house(h) == sum.cells.as_slice());
            let name = h.map_or_else(
                || format!("the cage of {}", cell_list(grid.side(), &cells)),
                |h| grid.tables().house_name(h),
            );
            format!("{name} ({})", cell_list(grid.side(), &cells))
        }
        SumOrigin::Innies(house) => format!(
            "the cells of {} outside its cages ({}), making {},",
            grid.tables().house_name(house as usize),
            cell_list(grid.side(), &cells),
            sum.sum
        ),
        SumOrigin::Outies(house) => format!(
            "the cells outside {} of the cages crossing it ({}), making {},",
            grid.tables().house_name(house as usize),
            cell_list(grid.side(), &cells),
            sum.sum
        ),
    }
}
