//! Subsets over every house: `k` cells holding only `k` digits between them
//! (naked), `k` digits with only `k` places in a complete house (hidden).

use std::ops::ControlFlow;

use super::grid::{digit_set, digits, VariantGrid};
use super::step;
use crate::logic::{cell_list, Candidate, Difficulty, Sink, Technique};

/// Sudoku Explainer's difficulties of naked pairs, triples and quads.
fn naked_difficulty(k: usize) -> Difficulty {
    Difficulty([30, 36, 50][k - 2])
}

/// Sudoku Explainer's difficulties of hidden pairs, triples and quads.
fn hidden_difficulty(k: usize) -> Difficulty {
    Difficulty([34, 40, 54][k - 2])
}

/// The technique of a subset of size `k`.
fn technique(naked: bool, k: usize) -> Technique {
    match (naked, k) {
        (true, 2) => Technique::NakedPair,
        (true, 3) => Technique::NakedTriple,
        (true, _) => Technique::NakedQuad,
        (false, 2) => Technique::HiddenPair,
        (false, 3) => Technique::HiddenTriple,
        (false, _) => Technique::HiddenQuad,
    }
}

/// The name of a subset of size `k`.
fn name(naked: bool, k: usize) -> String {
    let size = ["Pair", "Triple", "Quad"][k - 2];
    format!("{} {size}", if naked { "Naked" } else { "Hidden" })
}

/// Naked subsets of size `k` in every house, cages and extra groups
/// included. A digit of the subset is in one of the subset's cells that
/// hold it, so it leaves every other cell that sees all of those.
pub(super) fn naked(grid: &VariantGrid, k: usize, sink: &mut Sink<'_>) -> ControlFlow<()> {
    let tables = grid.tables();
    for h in 0..tables.house_count() {
        let cells: Vec<usize> = tables
            .house(h)
            .iter()
            .map(|&c| usize::from(c))
            .filter(|&c| grid.value(c) == 0 && grid.mask(c).count_ones() as usize <= k)
            .collect();
        let mut chosen = Vec::with_capacity(k);
        let mut found = |subset: &[usize], union: u64| naked_step(grid, h, subset, union, sink);
        choose(&cells, k, 0, 0, &mut chosen, &|c| grid.mask(c), &mut found)?;
    }
    ControlFlow::Continue(())
}

/// The step of the naked subset `subset` (digits `union`) of house `h`,
/// when it eliminates something.
fn naked_step(
    grid: &VariantGrid,
    h: usize,
    subset: &[usize],
    union: u64,
    sink: &mut Sink<'_>,
) -> ControlFlow<()> {
    let mut eliminations = Vec::new();
    for digit in digits(union) {
        let holders: Vec<usize> = subset
            .iter()
            .copied()
            .filter(|&c| grid.has(c, digit))
            .collect();
        let Some(&first) = holders.first() else {
            continue;
        };
        for &p in grid.tables().peers(first) {
            let p = usize::from(p);
            if grid.has(p, digit)
                && !subset.contains(&p)
                && holders[1..].iter().all(|&c| grid.sees(c, p))
            {
                eliminations.push(Candidate::new(p, digit));
            }
        }
    }
    if eliminations.is_empty() {
        return ControlFlow::Continue(());
    }
    eliminations.sort_unstable();
    let k = subset.len();
    let mut s = step(grid, technique(true, k), name(true, k), naked_difficulty(k));
    s.reason = format!(
        "in {}, {} hold only {}",
        grid.tables().house_name(h),
        cell_list(grid.side(), subset),
        digit_set(union)
    );
    s.cells = subset.to_vec();
    s.eliminations = eliminations;
    sink(s)
}

/// Hidden subsets of size `k` in every complete house: `k` digits whose
/// places there are `k` cells, which then hold no other digit.
pub(super) fn hidden(grid: &VariantGrid, k: usize, sink: &mut Sink<'_>) -> ControlFlow<()> {
    let tables = grid.tables();
    for h in 0..tables.complete_count() {
        let house = tables.house(h);
        // Each digit's places in the house, bit `i` for the house's `i`-th cell.
        let places: Vec<u64> = (1..=grid.side() as u8)
            .map(|d| {
                house
                    .iter()
                    .enumerate()
                    .filter(|&(_, &c)| grid.has(usize::from(c), d))
                    .fold(0u64, |m, (i, _)| m | 1 << i)
            })
            .collect();
        let candidates: Vec<usize> = (0..places.len())
            .filter(|&d| (2..=k).contains(&(places[d].count_ones() as usize)))
            .collect();
        let mut chosen = Vec::with_capacity(k);
        let mut found = |digit_indices: &[usize], union: u64| {
            let subset_digits = digit_indices.iter().fold(0u64, |m, &d| m | 1 << d);
            let cells: Vec<usize> = super::grid::bits(union)
                .map(|i| usize::from(house[i]))
                .collect();
            let eliminations: Vec<Candidate> = cells
                .iter()
                .flat_map(|&c| {
                    digits(grid.mask(c) & !subset_digits).map(move |d| Candidate::new(c, d))
                })
                .collect();
            if eliminations.is_empty() {
                return ControlFlow::Continue(());
            }
            let mut s = step(
                grid,
                technique(false, k),
                name(false, k),
                hidden_difficulty(k),
            );
            s.reason = format!(
                "in {}, {} can only go in {}",
                tables.house_name(h),
                digit_set(subset_digits),
                cell_list(grid.side(), &cells)
            );
            s.cells = cells;
            s.eliminations = eliminations;
            sink(s)
        };
        choose(
            &candidates,
            k,
            0,
            0,
            &mut chosen,
            &|d| places[d],
            &mut found,
        )?;
    }
    ControlFlow::Continue(())
}

/// Every `k` items of `items` (from index `from` on, after `chosen`) whose
/// sets (`set_of`) unite to exactly `k` elements, handed to `found` with
/// that union; `union` is the chosen items' so far. Branches whose union
/// outgrows `k` are cut.
pub(super) fn choose(
    items: &[usize],
    k: usize,
    from: usize,
    union: u64,
    chosen: &mut Vec<usize>,
    set_of: &dyn Fn(usize) -> u64,
    found: &mut dyn FnMut(&[usize], u64) -> ControlFlow<()>,
) -> ControlFlow<()> {
    if chosen.len() == k {
        return match union.count_ones() as usize == k {
            true => found(chosen, union),
            false => ControlFlow::Continue(()),
        };
    }
    for i in from..items.len() {
        let next = union | set_of(items[i]);
        if next.count_ones() as usize > k {
            continue;
        }
        chosen.push(items[i]);
        let flow = choose(items, k, i + 1, next, chosen, set_of, found);
        chosen.pop();
        flow?;
    }
    ControlFlow::Continue(())
}
