//! Simple Coloring: the places of one digit joined by conjugate pairs (the
//! digit's only two places in a unit) take alternate colours; in each
//! connected cluster exactly one colour holds the digit. A colour with two
//! cells that see each other is false (colour wrap); a cell outside the
//! cluster that sees both colours cannot hold the digit (colour trap).

use std::ops::ControlFlow;

use super::single_digit::{conjugate_pair, COLOR_TRAP, COLOR_WRAP};
use super::step::cell_list;
use super::{Candidate, Candidates, Sink, Step, Technique};

/// Colour traps and wraps of every digit, cluster by cluster (clusters in
/// the order of their first cell); a cluster's trap is reported before its
/// wrap.
pub(super) fn simple(grid: &Candidates, sink: &mut Sink<'_>) -> ControlFlow<()> {
    let side = grid.side();
    let mut colour = vec![NONE; grid.cell_count()];
    let mut cluster = Vec::new();
    for digit in 1..=side as u8 {
        let pairs: Vec<Option<(usize, usize)>> = (0..3 * side)
            .map(|unit| conjugate_pair(grid, unit, digit))
            .collect();
        colour.fill(NONE);
        for start in 0..grid.cell_count() {
            if colour[start] != NONE || !grid.has(start, digit) {
                continue;
            }
            colour_cluster(grid, &pairs, start, &mut colour, &mut cluster);
            if cluster.len() < 3 {
                continue;
            }
            let coloured = Cluster {
                digit,
                cells: &cluster,
                colour: &colour,
            };
            if cluster.len() >= 4 {
                coloured.trap(grid, sink)?;
            }
            coloured.wrap(grid, sink)?;
        }
    }
    ControlFlow::Continue(())
}

/// No colour yet (a cluster's colours are 0 and 1).
const NONE: u8 = u8::MAX;

/// Colours the cluster of `start`: every place of the digit reachable by
/// conjugate pairs, alternately 0 and 1, collected into `cluster` in
/// breadth-first order.
fn colour_cluster(
    grid: &Candidates,
    pairs: &[Option<(usize, usize)>],
    start: usize,
    colour: &mut [u8],
    cluster: &mut Vec<usize>,
) {
    cluster.clear();
    cluster.push(start);
    colour[start] = 0;
    let mut next = 0;
    while next < cluster.len() {
        let cell = cluster[next];
        next += 1;
        for unit in grid.geometry().units_of(cell) {
            let Some((a, b)) = pairs[unit as usize] else {
                continue;
            };
            let other = if a == cell { b } else { a };
            if colour[other] == NONE {
                colour[other] = colour[cell] ^ 1;
                cluster.push(other);
            }
        }
    }
}

/// A coloured cluster of one digit.
struct Cluster<'a> {
    /// The digit.
    digit: u8,
    /// The cluster's cells, its first cell first.
    cells: &'a [usize],
    /// Every cell's colour (0 or 1 for the cluster's cells).
    colour: &'a [u8],
}

impl Cluster<'_> {
    /// The cells of colour `c`, in row-major order.
    fn of_colour(&self, c: u8) -> Vec<usize> {
        let mut cells: Vec<usize> = self
            .cells
            .iter()
            .copied()
            .filter(|&x| self.colour[x] == c)
            .collect();
        cells.sort_unstable();
        cells
    }

    /// Whether `cell` sees a cell of the cluster of colour `c`.
    fn sees_colour(&self, grid: &Candidates, cell: usize, c: u8) -> bool {
        self.cells
            .iter()
            .any(|&x| self.colour[x] == c && grid.sees(cell, x))
    }

    /// The opening of every reason: the two colours.
    fn colours_text(&self, side: usize) -> String {
        format!(
            "the {}s joined by conjugate pairs take two colours, exactly one of them true: \
             A = {}, B = {}",
            self.digit,
            cell_list(side, &self.of_colour(0)),
            cell_list(side, &self.of_colour(1))
        )
    }

    /// Colour trap: cells outside the cluster that see both colours lose
    /// the digit.
    fn trap(&self, grid: &Candidates, sink: &mut Sink<'_>) -> ControlFlow<()> {
        let side = grid.side();
        let removed: Vec<Candidate> = grid
            .empty_cells()
            .filter(|&c| grid.has(c, self.digit) && !self.cells.contains(&c))
            .filter(|&c| self.sees_colour(grid, c, 0) && self.sees_colour(grid, c, 1))
            .map(|c| Candidate::new(c, self.digit))
            .collect();
        if removed.is_empty() {
            return ControlFlow::Continue(());
        }
        let trapped: Vec<usize> = removed.iter().map(|c| c.cell).collect();
        let reason = format!(
            "{}; {} see both colours, so they cannot be {}",
            self.colours_text(side),
            cell_list(side, &trapped),
            self.digit
        );
        sink(self.step(side, "Simple Coloring (Color Trap)", removed, reason, true))
    }

    /// Colour wrap: two cells of one colour that see each other make that
    /// colour false, so every cell of it loses the digit (and the other
    /// colour is true).
    fn wrap(&self, grid: &Candidates, sink: &mut Sink<'_>) -> ControlFlow<()> {
        let side = grid.side();
        for c in [0, 1] {
            let cells = self.of_colour(c);
            let clash = cells.iter().enumerate().find_map(|(i, &a)| {
                cells[i + 1..]
                    .iter()
                    .find(|&&b| grid.sees(a, b))
                    .map(|&b| (a, b))
            });
            let Some((a, b)) = clash else {
                continue;
            };
            let names = ["A", "B"];
            let reason = format!(
                "{}; {} and {} are both {} and see each other, so {} is false and {} true: \
                 {} cannot be {}",
                self.colours_text(side),
                cell_list(side, &[a]),
                cell_list(side, &[b]),
                names[c as usize],
                names[c as usize],
                names[c as usize ^ 1],
                cell_list(side, &cells),
                self.digit
            );
            let removed = cells
                .iter()
                .map(|&x| Candidate::new(x, self.digit))
                .collect();
            return sink(self.step(side, "Simple Coloring (Color Wrap)", removed, reason, false));
        }
        ControlFlow::Continue(())
    }

    /// The step eliminating `removed`, at the trap's or the wrap's
    /// difficulty.
    fn step(
        &self,
        side: usize,
        name: &str,
        removed: Vec<Candidate>,
        reason: String,
        trap: bool,
    ) -> Step {
        let mut cells = self.cells.to_vec();
        cells.sort_unstable();
        Step {
            technique: Technique::SimpleColoring,
            name: name.to_string(),
            difficulty: if trap { COLOR_TRAP } else { COLOR_WRAP },
            placements: Vec::new(),
            eliminations: removed,
            cells,
            reason,
            side,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::test_support::{only, rc, steps};
    use crate::logic::Difficulty;

    #[test]
    fn colour_trap() {
        // 6s: r1c1 = r1c5 (row 1), r1c5 = r3c6 (box 2), r3c6 = r8c6
        // (column 6): A = r1c1, r3c6; B = r1c5, r8c6. r8c1 sees r1c1 (A)
        // and r8c6 (B); r5c1 and r8c9 keep column 1 and row 8 from being
        // conjugate pairs.
        let keep = [
            rc(1, 1),
            rc(1, 5),
            rc(3, 6),
            rc(8, 6),
            rc(8, 1),
            rc(5, 1),
            rc(8, 9),
        ];
        let grid = only(6, &keep);
        let found = steps(&grid, simple);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].eliminations, [Candidate::new(rc(8, 1), 6)]);
        assert_eq!(found[0].difficulty, Difficulty(45));
        assert_eq!(found[0].cells, [rc(1, 1), rc(1, 5), rc(3, 6), rc(8, 6)]);
    }

    #[test]
    fn colour_wrap_removes_a_whole_colour() {
        // 3s: r1c1 = r1c4 (row 1) = r2c6 (box 2) = r7c6 (column 6) = r7c1
        // (row 7): A = r1c1, r2c6, r7c1. r1c1 and r7c1 share column 1 (r4c1
        // keeps it from being a pair), so A is false.
        let keep = [rc(1, 1), rc(1, 4), rc(2, 6), rc(7, 6), rc(7, 1), rc(4, 1)];
        let grid = only(3, &keep);
        let found = steps(&grid, simple);
        assert_eq!(found.len(), 1);
        assert!(found[0].name.contains("Wrap"));
        assert_eq!(found[0].difficulty, Difficulty(46));
        assert_eq!(
            found[0].eliminations,
            [rc(1, 1), rc(2, 6), rc(7, 1)].map(|c| Candidate::new(c, 3))
        );
    }

    #[test]
    fn no_colouring_on_a_lone_pair() {
        // Row 1's pair r1c1 = r1c5 is the only link: no cluster to colour.
        let keep = [rc(1, 1), rc(1, 5), rc(5, 9), rc(6, 8), rc(4, 7)];
        assert!(steps(&only(6, &keep), simple).is_empty());
    }
}
