//! Basic fish on rows and columns (X-Wing, Swordfish, Jellyfish): every
//! layout keeps rows and columns as houses, so the pattern holds on every
//! variant; the eliminations may land in any cell of the cover lines.

use std::ops::ControlFlow;

use super::grid::{bits, VariantGrid};
use super::step;
use super::subsets::choose;
use crate::logic::{Candidate, Difficulty, Sink, Technique};

/// The fish of `k` lines: its technique, name and Sudoku Explainer difficulty.
fn kind(k: usize) -> (Technique, &'static str, Difficulty) {
    match k {
        2 => (Technique::XWing, "X-Wing", Difficulty(32)),
        3 => (Technique::Swordfish, "Swordfish", Difficulty(38)),
        _ => (Technique::Jellyfish, "Jellyfish", Difficulty(52)),
    }
}

/// Fish of `k` lines: `k` rows whose places of a digit lie in `k` columns
/// (or the other way round) clear the digit from the rest of those columns.
pub(super) fn basic(grid: &VariantGrid, k: usize, sink: &mut Sink<'_>) -> ControlFlow<()> {
    let n = grid.side();
    let (technique, name, difficulty) = kind(k);
    for by_rows in [true, false] {
        // Cell at position `j` of base line `i`.
        let at = |i: usize, j: usize| if by_rows { i * n + j } else { j * n + i };
        let line_word = if by_rows { "rows" } else { "columns" };
        let cross_word = if by_rows { "columns" } else { "rows" };
        for digit in 1..=n as u8 {
            let places: Vec<u64> = (0..n)
                .map(|i| {
                    (0..n)
                        .filter(|&j| grid.has(at(i, j), digit))
                        .fold(0, |m, j| m | 1 << j)
                })
                .collect();
            let lines: Vec<usize> = (0..n)
                .filter(|&i| (2..=k).contains(&(places[i].count_ones() as usize)))
                .collect();
            let mut chosen = Vec::with_capacity(k);
            let mut found = |base: &[usize], cover: u64| {
                let eliminations: Vec<Candidate> = (0..n)
                    .filter(|i| !base.contains(i))
                    .flat_map(|i| bits(cover).map(move |j| at(i, j)))
                    .filter(|&c| grid.has(c, digit))
                    .map(|c| Candidate::new(c, digit))
                    .collect();
                if eliminations.is_empty() {
                    return ControlFlow::Continue(());
                }
                let mut s = step(grid, technique, name, difficulty);
                let numbers = |list: &mut dyn Iterator<Item = usize>| {
                    list.map(|i| (i + 1).to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                s.reason = format!(
                    "in {line_word} {}, {digit} can only go in {cross_word} {}",
                    numbers(&mut base.iter().copied()),
                    numbers(&mut bits(cover))
                );
                s.cells = base
                    .iter()
                    .flat_map(|&i| bits(places[i]).map(move |j| at(i, j)))
                    .collect();
                s.cells.sort_unstable();
                s.eliminations = eliminations;
                sink(s)
            };
            choose(&lines, k, 0, 0, &mut chosen, &|i| places[i], &mut found)?;
        }
    }
    ControlFlow::Continue(())
}
