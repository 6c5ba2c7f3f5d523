//! Subsets: naked and hidden pairs, triples and quads.
//!
//! A naked set is `k` cells of a unit whose candidates together are only
//! `k` digits: those digits leave the unit's other cells. A hidden set is
//! `k` digits of a unit that together fit only `k` cells: those cells lose
//! every other digit. Units and combinations are scanned in Sudoku
//! Explainer's order (boxes, columns, rows; subsets in colex order), so the
//! first step found is SE's.

use std::ops::ControlFlow;

use super::candidates::bits;
use super::singles::units_box_col_row;
use super::step::{cell_list, cell_name, unit_name};
use super::{Candidate, Candidates, Difficulty, Sink, Step, Technique};

/// The `k`-element subsets of `0..n` as bit masks, in colex order (by
/// increasing mask value), which is the order SE enumerates its tuples in.
pub(super) fn combinations(k: usize, n: usize) -> impl Iterator<Item = u64> {
    let end = 1u128 << n;
    let first = if k == 0 || k > n {
        end
    } else {
        (1u128 << k) - 1
    };
    std::iter::successors(Some(first), move |&x| {
        // Gosper's hack: the next larger number with as many bits set
        // (its division by the lowest set bit done as a shift).
        let low = x & x.wrapping_neg();
        let ripple = x + low;
        Some(((ripple ^ x) >> (2 + low.trailing_zeros())) | ripple)
    })
    .take_while(move |&x| x < end)
    .map(|x| x as u64)
}

/// The `k`-element subsets of the bits of `set`, in colex order: the
/// `k`-subsets of its bits' ranks (see [`combinations`]) spread onto the
/// bits, which keeps the order.
pub(super) fn subsets_of(set: u64, k: usize) -> impl Iterator<Item = u64> {
    let mut bit_of = [0u8; 64];
    for (rank, bit) in bits(set).enumerate() {
        bit_of[rank] = bit as u8;
    }
    combinations(k, set.count_ones() as usize)
        .map(move |ranks| bits(ranks).fold(0, |m, rank| m | 1 << bit_of[rank]))
}

/// Whether `mask` has two to `most` bits set (without a population count,
/// which the baseline x86-64 lacks and emulates slowly).
pub(super) fn two_to(mask: u64, most: usize) -> bool {
    let mut rest = mask & mask.wrapping_sub(1);
    if rest == 0 {
        return false;
    }
    for _ in 1..most {
        rest &= rest.wrapping_sub(1);
    }
    rest == 0
}

/// Number of empty cells of `unit`.
pub(super) fn empty_count(grid: &Candidates, unit: usize) -> usize {
    grid.geometry()
        .unit(unit)
        .iter()
        .filter(|&&c| grid.value(c as usize) == 0)
        .count()
}

/// The digits of a mask (bit `d - 1` for digit `d`), ascending.
pub(super) fn digits_of(mask: u64) -> impl Iterator<Item = u8> {
    let mut rest = mask;
    std::iter::from_fn(move || {
        (rest != 0).then(|| {
            let digit = rest.trailing_zeros() as u8 + 1;
            rest &= rest - 1;
            digit
        })
    })
}

/// The cells of `unit` at the positions of `positions` (bit `i` for the
/// unit's `i`-th cell).
fn cells_at(grid: &Candidates, unit: usize, positions: u64) -> Vec<usize> {
    let cells = grid.geometry().unit(unit);
    (0..cells.len())
        .filter(|&i| positions >> i & 1 != 0)
        .map(|i| cells[i] as usize)
        .collect()
}

/// Players' word for a set of `size`: pair, triple or quad.
fn set_word(size: usize) -> &'static str {
    match size {
        2 => "Pair",
        3 => "Triple",
        _ => "Quad",
    }
}

/// Naked sets of `size` cells (pair 3.0, triple 3.6, quad 5.0): in a unit
/// with at least `2 × size` empty cells, `size` cells of two or more
/// candidates each whose union is `size` digits.
pub(super) fn naked(grid: &Candidates, size: usize, sink: &mut Sink<'_>) -> ControlFlow<()> {
    let side = grid.side();
    for unit in units_box_col_row(side) {
        if empty_count(grid, unit) < 2 * size {
            continue;
        }
        let cells = grid.geometry().unit(unit);
        // A naked set's cells have two to `size` candidates each.
        let eligible = (0..side)
            .filter(|&i| two_to(grid.mask(usize::from(cells[i])), size))
            .fold(0u64, |m, i| m | 1 << i);
        for combo in subsets_of(eligible, size) {
            let Some(digits) = naked_union(grid, cells, combo, size) else {
                continue;
            };
            let eliminations: Vec<Candidate> = (0..side)
                .filter(|&i| combo >> i & 1 == 0)
                .map(|i| cells[i] as usize)
                .flat_map(|c| digits_of(grid.mask(c) & digits).map(move |d| Candidate::new(c, d)))
                .collect();
            if eliminations.is_empty() {
                continue;
            }
            sink(naked_step(grid, unit, combo, digits, size, eliminations))?;
        }
    }
    ControlFlow::Continue(())
}

/// The union of the candidates of the cells at `combo`, if each has at
/// least two and the union is exactly `size` digits.
fn naked_union(grid: &Candidates, cells: &[u16], combo: u64, size: usize) -> Option<u64> {
    let mut union = 0;
    for i in (0..cells.len()).filter(|&i| combo >> i & 1 != 0) {
        let mask = grid.mask(cells[i] as usize);
        if mask.count_ones() < 2 {
            return None;
        }
        union |= mask;
    }
    (union.count_ones() as usize == size).then_some(union)
}

/// The step of a naked set found in `unit`.
fn naked_step(
    grid: &Candidates,
    unit: usize,
    combo: u64,
    digits: u64,
    size: usize,
    eliminations: Vec<Candidate>,
) -> Step {
    let side = grid.side();
    let (technique, tenths) = match size {
        2 => (Technique::NakedPair, 30),
        3 => (Technique::NakedTriple, 36),
        _ => (Technique::NakedQuad, 50),
    };
    let cells = cells_at(grid, unit, combo);
    let digit_list: Vec<String> = digits_of(digits).map(|d| d.to_string()).collect();
    Step {
        technique,
        name: format!("Naked {}", set_word(size)),
        difficulty: Difficulty(tenths),
        placements: Vec::new(),
        eliminations,
        reason: format!(
            "in {}, {} hold only {}",
            unit_name(side, unit),
            cell_list(side, &cells),
            digit_list.join(", ")
        ),
        cells,
        side,
    }
}

/// Hidden sets of `size` digits (pair 3.4, triple 4.0, quad 5.4): in a
/// unit with more than `2 × size` empty cells, `size` digits of two or more
/// places each whose places together are `size` cells.
pub(super) fn hidden(grid: &Candidates, size: usize, sink: &mut Sink<'_>) -> ControlFlow<()> {
    hidden_sets(grid, size, false, sink)
}

/// Direct hidden pairs (2.0) and triples (2.5): a hidden set whose
/// eliminations leave a hidden single in the same unit, reported as that
/// placement together with the set's eliminations.
pub(super) fn direct_hidden(
    grid: &Candidates,
    size: usize,
    sink: &mut Sink<'_>,
) -> ControlFlow<()> {
    hidden_sets(grid, size, true, sink)
}

/// The search shared by [`hidden`] and [`direct_hidden`].
fn hidden_sets(
    grid: &Candidates,
    size: usize,
    direct: bool,
    sink: &mut Sink<'_>,
) -> ControlFlow<()> {
    let side = grid.side();
    for unit in units_box_col_row(side) {
        let empty = empty_count(grid, unit);
        if empty <= if direct { size } else { 2 * size } {
            continue;
        }
        let places = grid.unit_positions(unit);
        // A digit of a hidden set has two to `size` places in the unit.
        let eligible = (0..side)
            .filter(|&i| two_to(places[i], size))
            .fold(0u64, |m, i| m | 1 << i);
        if (eligible.count_ones() as usize) < size {
            continue;
        }
        for combo in subsets_of(eligible, size) {
            let Some(set_cells) = hidden_union(places, combo, size) else {
                continue;
            };
            let found = HiddenSet {
                unit,
                digits: combo,
                positions: set_cells,
                size,
            };
            if direct {
                let Some(single) = hidden_single_left(places, combo, set_cells) else {
                    continue;
                };
                sink(found.direct_step(grid, single))?;
            } else {
                let eliminations = found.eliminations(grid);
                if !eliminations.is_empty() {
                    sink(found.step(grid, eliminations))?;
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// The union of the places of the digits of `combo`, if each digit has at
/// least two places and the union is exactly `size` positions.
fn hidden_union(places: &[u64], combo: u64, size: usize) -> Option<u64> {
    let mut union = 0;
    for digit in digits_of(combo) {
        let p = places[usize::from(digit) - 1];
        if p.count_ones() < 2 {
            return None;
        }
        union |= p;
    }
    (union.count_ones() as usize == size).then_some(union)
}

/// The first digit outside the set that has several places in the unit but
/// only one outside the set's cells: that digit and its position.
fn hidden_single_left(places: &[u64], digits: u64, set_cells: u64) -> Option<(u8, usize)> {
    (0..places.len())
        .filter(|&i| digits >> i & 1 == 0 && places[i].count_ones() > 1)
        .find(|&i| (places[i] & !set_cells).count_ones() == 1)
        .map(|i| {
            (
                i as u8 + 1,
                (places[i] & !set_cells).trailing_zeros() as usize,
            )
        })
}

/// A hidden set found: the unit, its digits and its cells' positions.
struct HiddenSet {
    /// The unit.
    unit: usize,
    /// The set's digits as a mask.
    digits: u64,
    /// The set's cells as positions in the unit.
    positions: u64,
    /// Number of digits (and cells).
    size: usize,
}

impl HiddenSet {
    /// The other candidates of the set's cells.
    fn eliminations(&self, grid: &Candidates) -> Vec<Candidate> {
        cells_at(grid, self.unit, self.positions)
            .into_iter()
            .flat_map(|c| digits_of(grid.mask(c) & !self.digits).map(move |d| Candidate::new(c, d)))
            .collect()
    }

    /// Why: the digits fit only the cells.
    fn reason(&self, grid: &Candidates) -> String {
        let side = grid.side();
        let digit_list: Vec<String> = digits_of(self.digits).map(|d| d.to_string()).collect();
        format!(
            "in {}, {} can only go in {}",
            unit_name(side, self.unit),
            digit_list.join(", "),
            cell_list(side, &cells_at(grid, self.unit, self.positions))
        )
    }

    /// The indirect step (hidden pair 3.4, triple 4.0, quad 5.4).
    fn step(&self, grid: &Candidates, eliminations: Vec<Candidate>) -> Step {
        let (technique, tenths) = match self.size {
            2 => (Technique::HiddenPair, 34),
            3 => (Technique::HiddenTriple, 40),
            _ => (Technique::HiddenQuad, 54),
        };
        Step {
            technique,
            name: format!("Hidden {}", set_word(self.size)),
            difficulty: Difficulty(tenths),
            placements: Vec::new(),
            eliminations,
            cells: cells_at(grid, self.unit, self.positions),
            reason: self.reason(grid),
            side: grid.side(),
        }
    }

    /// The direct step (2.0 or 2.5): the hidden single `(digit, position)`
    /// the set leaves; like SE it applies the placement alone (the set's
    /// eliminations are left for a later step).
    fn direct_step(&self, grid: &Candidates, (digit, position): (u8, usize)) -> Step {
        let side = grid.side();
        let cell = grid.geometry().unit(self.unit)[position] as usize;
        let (technique, tenths) = match self.size {
            2 => (Technique::DirectHiddenPair, 20),
            _ => (Technique::DirectHiddenTriple, 25),
        };
        Step {
            technique,
            name: format!("Direct Hidden {}", set_word(self.size)),
            difficulty: Difficulty(tenths),
            placements: vec![Candidate::new(cell, digit)],
            eliminations: Vec::new(),
            cells: cells_at(grid, self.unit, self.positions),
            reason: format!(
                "{}; then {digit} can only go in {} of {}",
                self.reason(grid),
                cell_name(side, cell),
                unit_name(side, self.unit)
            ),
            side,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Puzzle;

    /// An empty 9×9 grid with, for each `(cell, digit)`, that candidate gone.
    fn empty_grid_without(gone: &[(usize, u8)]) -> Candidates {
        let p: Puzzle = ".".repeat(81).parse().unwrap();
        let mut grid = Candidates::new(&p).unwrap();
        for &(cell, digit) in gone {
            grid.eliminate(cell, digit);
        }
        grid
    }

    /// The first step `find` reports on `grid`.
    fn first(
        grid: &Candidates,
        find: fn(&Candidates, usize, &mut Sink<'_>) -> ControlFlow<()>,
        size: usize,
    ) -> Option<Step> {
        let mut found = None;
        let _ = find(grid, size, &mut |s| {
            found = Some(s);
            ControlFlow::Break(())
        });
        found
    }

    /// `(cell, digit)` pairs for every listed cell and digit.
    fn all(cells: &[usize], digits: std::ops::RangeInclusive<u8>) -> Vec<(usize, u8)> {
        cells
            .iter()
            .flat_map(|&c| digits.clone().map(move |d| (c, d)))
            .collect()
    }

    #[test]
    fn two_to_counts_bits() {
        assert!(!two_to(0, 3) && !two_to(0b100, 3));
        assert!(two_to(0b101, 2) && two_to(0b1101, 3) && !two_to(0b1101, 2));
        assert!(two_to(u64::MAX, 64) && !two_to(u64::MAX, 63));
    }

    #[test]
    fn subsets_of_keep_colex_order() {
        let got: Vec<u64> = subsets_of(0b1_0110, 2).collect();
        assert_eq!(got, [0b0110, 0b1_0010, 0b1_0100]);
        assert_eq!(subsets_of(0b111, 4).count(), 0);
    }

    #[test]
    fn combinations_are_in_colex_order() {
        let pairs: Vec<u64> = combinations(2, 4).collect();
        assert_eq!(pairs, [0b0011, 0b0101, 0b0110, 0b1001, 0b1010, 0b1100]);
        assert_eq!(combinations(3, 9).count(), 84);
        assert_eq!(combinations(5, 4).count(), 0);
    }

    #[test]
    fn naked_pair_clears_its_box_first() {
        let grid = empty_grid_without(&all(&[0, 1], 3..=9));
        let step = first(&grid, naked, 2).expect("a naked pair");
        assert_eq!(step.difficulty, Difficulty(30));
        let expected: Vec<Candidate> = [2, 9, 10, 11, 18, 19, 20]
            .iter()
            .flat_map(|&c| [Candidate::new(c, 1), Candidate::new(c, 2)])
            .collect();
        assert_eq!(step.eliminations, expected);
        assert_eq!(step.cells, [0, 1]);
    }

    #[test]
    fn nothing_fires_on_an_empty_grid() {
        let grid = empty_grid_without(&[]);
        for size in 2..=4 {
            assert!(first(&grid, naked, size).is_none());
            assert!(first(&grid, hidden, size).is_none());
            assert!(first(&grid, direct_hidden, size).is_none());
        }
    }

    #[test]
    fn hidden_pair_clears_its_cells() {
        let grid = empty_grid_without(&all(&[2, 9, 10, 11, 18, 19, 20], 1..=2));
        let step = first(&grid, hidden, 2).expect("a hidden pair");
        assert_eq!(step.difficulty, Difficulty(34));
        assert_eq!(
            step.eliminations,
            all(&[0, 1], 3..=9)
                .iter()
                .map(|&(c, d)| Candidate::new(c, d))
                .collect::<Vec<_>>()
        );
        // No hidden single follows, so there is no direct hidden pair.
        assert!(first(&grid, direct_hidden, 2).is_none());
    }

    #[test]
    fn direct_hidden_pair_places_the_single_it_leaves() {
        let mut gone = all(&[2, 9, 10, 11, 18, 19, 20], 1..=2);
        gone.extend(all(&[9, 10, 11, 18, 19, 20], 3..=3));
        let grid = empty_grid_without(&gone);
        let step = first(&grid, direct_hidden, 2).expect("a direct hidden pair");
        assert_eq!(step.difficulty, Difficulty(20));
        assert_eq!(step.placements, [Candidate::new(2, 3)]);
        assert!(step.eliminations.is_empty());
    }

    #[test]
    fn hidden_triple_needs_more_than_six_empty_cells() {
        // Digits 1, 2, 3 confined to r1c1, r1c2, r1c3 of box 1.
        let grid = empty_grid_without(&all(&[9, 10, 11, 18, 19, 20], 1..=3));
        let step = first(&grid, hidden, 3).expect("a hidden triple");
        assert_eq!(step.difficulty, Difficulty(40));
        assert_eq!(step.cells, [0, 1, 2]);
        assert_eq!(step.eliminations.len(), 18);
    }
}
