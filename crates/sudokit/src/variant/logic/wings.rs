//! XY-Wing and XYZ-Wing through peers: a pivot cell and two pincers that
//! each see it, so that one of the pincers (or the pivot) holds the digit
//! they share with nothing else in the pattern. Peers are the layout's, so
//! a wing may bend through a jigsaw region, a diagonal or a knight's move.

use std::ops::ControlFlow;

use super::grid::{digits, VariantGrid};
use super::step;
use crate::logic::{cell_list, Candidate, Difficulty, Sink, Technique};

/// XY-Wing: a bivalue pivot `ab`, pincers `ac` and `bc` (4.2).
const XY: Difficulty = Difficulty(42);
/// XYZ-Wing: a trivalue pivot `abc`, pincers `ac` and `bc` (4.4).
const XYZ: Difficulty = Difficulty(44);

/// XY-Wings: `c` leaves every cell that sees both pincers.
pub(super) fn xy(grid: &VariantGrid, sink: &mut Sink<'_>) -> ControlFlow<()> {
    wings(grid, 2, sink)
}

/// XYZ-Wings: `c` leaves every cell that sees the pivot and both pincers.
pub(super) fn xyz(grid: &VariantGrid, sink: &mut Sink<'_>) -> ControlFlow<()> {
    wings(grid, 3, sink)
}

/// Wings whose pivot has `pivot_size` candidates (2 for XY, 3 for XYZ).
fn wings(grid: &VariantGrid, pivot_size: u32, sink: &mut Sink<'_>) -> ControlFlow<()> {
    let tables = grid.tables();
    for pivot in grid.empty_cells() {
        let pm = grid.mask(pivot);
        if pm.count_ones() != pivot_size {
            continue;
        }
        // Bivalue peers sharing exactly one digit with the pivot (XY) or
        // holding two of its three (XYZ).
        let pincers: Vec<usize> = tables
            .peers(pivot)
            .iter()
            .map(|&c| usize::from(c))
            .filter(|&c| {
                let m = grid.mask(c);
                m.count_ones() == 2
                    && match pivot_size {
                        2 => (m & pm).count_ones() == 1,
                        _ => m & pm == m,
                    }
            })
            .collect();
        for (i, &x) in pincers.iter().enumerate() {
            for &y in &pincers[i + 1..] {
                let (mx, my) = (grid.mask(x), grid.mask(y));
                let c = mx & my;
                let fits = match pivot_size {
                    // ac and bc: share c, which the pivot lacks, and cover ab.
                    2 => c.count_ones() == 1 && c & pm == 0 && (mx | my) & pm == pm,
                    // ac and bc inside abc: share only c.
                    _ => c.count_ones() == 1 && mx != my,
                };
                if !fits {
                    continue;
                }
                let digit = digits(c).next().expect("one shared digit");
                let pattern = [pivot, x, y];
                let pattern = if pivot_size == 2 {
                    &pattern[1..]
                } else {
                    &pattern[..]
                };
                let eliminations: Vec<Candidate> = tables
                    .peers(x)
                    .iter()
                    .map(|&t| usize::from(t))
                    .filter(|&t| {
                        grid.has(t, digit)
                            && !pattern.contains(&t)
                            && t != pivot
                            && pattern.iter().all(|&p| grid.sees(p, t))
                    })
                    .map(|t| Candidate::new(t, digit))
                    .collect();
                if eliminations.is_empty() {
                    continue;
                }
                let (technique, name, difficulty) = match pivot_size {
                    2 => (Technique::XyWing, "XY-Wing", XY),
                    _ => (Technique::XyzWing, "XYZ-Wing", XYZ),
                };
                let mut s = step(grid, technique, name, difficulty);
                s.reason = format!(
                    "pivot {} with pincers {}: one of {} holds {digit}",
                    cell_list(grid.side(), &[pivot]),
                    cell_list(grid.side(), &[x, y]),
                    cell_list(grid.side(), pattern)
                );
                s.cells = vec![pivot, x, y];
                s.eliminations = eliminations;
                sink(s)?;
            }
        }
    }
    ControlFlow::Continue(())
}
