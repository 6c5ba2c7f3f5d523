//! The law of leftovers between lines and regions (jigsaw's classic
//! deduction): `k` rows hold every digit `k` times, and so do any `k`
//! regions, so once the cells they share are taken away, the cells of the
//! rows outside the regions (the *innies*' leftover) and the cells of the
//! regions outside the rows hold the same digits, counted with
//! multiplicity. When each side has a few cells, a digit that no cell of
//! one side can hold leaves the other side.

use std::ops::ControlFlow;

use super::grid::{digits, VariantGrid};
use super::{step, HouseKind};
use crate::logic::{cell_list, Candidate, Difficulty, Sink, Technique};
use crate::variant::Constraints;

/// The law of leftovers on lines and regions (2.8, as the cages' law).
const LEFTOVERS: Difficulty = Difficulty(28);

/// Most cells on each side of an equivalence kept: beyond this the digit
/// sets say little.
const MAX_SIDE: usize = 4;

/// `k` consecutive lines and the `k` regions that most overlap them: the
/// lines' cells outside the regions hold the digits of the regions' cells
/// outside the lines.
#[derive(Clone, Debug)]
pub(crate) struct Equivalence {
    /// The lines' description: `rows 1-3`.
    lines: String,
    /// The regions' houses.
    regions: Vec<usize>,
    /// Cells of the lines outside the regions.
    inside: Vec<usize>,
    /// Cells of the regions outside the lines.
    outside: Vec<usize>,
}

/// The equivalences of a layout with at most [`MAX_SIDE`] cells a side.
pub(crate) fn equivalences(tables: &Constraints) -> Vec<Equivalence> {
    let n = tables.side();
    let regions: Vec<usize> = (0..tables.complete_count())
        .filter(|&h| matches!(tables.kind(h), HouseKind::Box(_) | HouseKind::Region(_)))
        .collect();
    let mut found = Vec::new();
    // A region that is also a row or a column is that house: rare, and
    // such layouts get no equivalences.
    if regions.len() < n {
        return found;
    }
    // Each cell's region (its index in `regions`).
    let mut region_of = vec![0usize; n * n];
    for (r, &h) in regions.iter().enumerate() {
        for &c in tables.house(h) {
            region_of[usize::from(c)] = r;
        }
    }
    let mut shared = vec![0usize; regions.len()];
    for by_rows in [true, false] {
        let word = if by_rows { "rows" } else { "columns" };
        // The cells of line `line`.
        let line_cells =
            |line: usize| (0..n).map(move |j| if by_rows { line * n + j } else { j * n + line });
        for k in 1..n {
            for first in 0..=n - k {
                let lines = first..first + k;
                let in_lines = |c: usize| lines.contains(&if by_rows { c / n } else { c % n });
                shared.fill(0);
                for c in lines.clone().flat_map(line_cells) {
                    shared[region_of[c]] += 1;
                }
                let mut overlap: Vec<(usize, usize)> = shared
                    .iter()
                    .enumerate()
                    .map(|(r, &count)| (count, r))
                    .collect();
                overlap.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
                let mut chosen = vec![false; regions.len()];
                for &(_, r) in &overlap[..k] {
                    chosen[r] = true;
                }
                let inside: Vec<usize> = lines
                    .clone()
                    .flat_map(line_cells)
                    .filter(|&c| !chosen[region_of[c]])
                    .collect();
                if inside.is_empty() || inside.len() > MAX_SIDE {
                    continue;
                }
                let mut inside = inside;
                inside.sort_unstable();
                let chosen: Vec<usize> = (0..regions.len())
                    .filter(|&r| chosen[r])
                    .map(|r| regions[r])
                    .collect();
                let outside: Vec<usize> = chosen
                    .iter()
                    .flat_map(|&h| tables.house(h).iter().map(|&c| usize::from(c)))
                    .filter(|&c| !in_lines(c))
                    .collect();
                let lines = match k {
                    1 => format!("{} {}", &word[..word.len() - 1], first + 1),
                    _ => format!("{word} {}-{}", first + 1, first + k),
                };
                found.push(Equivalence {
                    lines,
                    regions: chosen,
                    inside,
                    outside,
                });
            }
        }
    }
    found
}

/// Steps from every equivalence: a digit that no cell of one side can hold
/// leaves every cell of the other.
pub(super) fn find(grid: &VariantGrid, sink: &mut Sink<'_>) -> ControlFlow<()> {
    let can_hold = |cells: &[usize]| {
        cells.iter().fold(0u64, |m, &c| match grid.value(c) {
            0 => m | grid.mask(c),
            v => m | 1 << (v - 1),
        })
    };
    for eq in grid.equivalences() {
        let (inside, outside) = (can_hold(&eq.inside), can_hold(&eq.outside));
        let eliminations: Vec<Candidate> = [(&eq.inside, outside), (&eq.outside, inside)]
            .into_iter()
            .flat_map(|(cells, other)| {
                cells.iter().flat_map(move |&c| {
                    digits(grid.mask(c) & !other).map(move |d| Candidate::new(c, d))
                })
            })
            .collect();
        if eliminations.is_empty() {
            continue;
        }
        let tables = grid.tables();
        let names: Vec<String> = eq.regions.iter().map(|&h| tables.house_name(h)).collect();
        let mut s = step(grid, Technique::Leftovers, "Law of Leftovers", LEFTOVERS);
        s.reason = format!(
            "{} and {} hold the same digits, so {} (in the lines only) and {} (in the regions only) do too",
            eq.lines,
            names.join(", "),
            cell_list(grid.side(), &eq.inside),
            cell_list(grid.side(), &eq.outside)
        );
        s.cells = eq.inside.iter().chain(&eq.outside).copied().collect();
        s.eliminations = eliminations;
        sink(s)?;
    }
    ControlFlow::Continue(())
}
