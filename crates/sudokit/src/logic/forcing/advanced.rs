//! The patterns a "dynamic plus" chain uses when plain implications run
//! out (Sudoku Explainer's level 1): locked candidates, hidden and naked
//! pairs and X-Wings, found in the grid as the chain has reduced it. Each
//! elimination comes with its *parents*: the candidates the chain removed
//! that the pattern needs gone (SE's `getRuleParents`).

use crate::grid::Geometry;
use crate::logic::subsets::combinations;

/// A grid state as the chain sees it.
pub(super) struct View<'a> {
    /// Unit tables.
    pub geometry: &'a Geometry,
    /// Placed digits (0 = empty); the chain places nothing.
    pub values: &'a [u8],
    /// Candidates when the chain started.
    pub source: &'a [u64],
    /// Candidates now.
    pub current: &'a [u64],
    /// `places[unit * side + digit - 1]`: the positions of `digit` in
    /// `unit` now (bit `i` for the unit's `i`-th cell).
    places: &'a [u64],
    /// Per unit, the digits the chain removed from some cell of it. Every
    /// pattern relies on a removal in its units (or yields nothing), so a
    /// unit or digit without one is skipped.
    removed_in: Vec<u64>,
}

/// One elimination a pattern makes, with the removed candidates it relies
/// on.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Elimination {
    /// The cell losing the digit.
    pub cell: usize,
    /// The digit removed.
    pub digit: u8,
    /// The candidates `(cell, digit)` the chain removed that the pattern
    /// relies on.
    pub parents: Vec<(usize, u8)>,
}

impl<'a> View<'a> {
    /// The grid as the chain sees it: its unit tables, placed digits, the
    /// candidates when the chain started and now, and the positions of
    /// each digit in each unit then (`source_places`) and now (`places`),
    /// indexed `unit × side + digit − 1`.
    pub fn new(
        geometry: &'a Geometry,
        values: &'a [u8],
        (source, source_places): (&'a [u64], &[u64]),
        (current, places): (&'a [u64], &'a [u64]),
    ) -> View<'a> {
        let side = geometry.shape().side();
        let removed_in = (0..3 * side)
            .map(|unit| {
                (0..side)
                    .filter(|&d| source_places[unit * side + d] & !places[unit * side + d] != 0)
                    .fold(0u64, |m, d| m | 1 << d)
            })
            .collect();
        View {
            geometry,
            values,
            source,
            current,
            places,
            removed_in,
        }
    }

    fn side(&self) -> usize {
        self.geometry.shape().side()
    }

    /// Places of `digit` in `unit` now, as a mask of unit positions.
    fn positions(&self, unit: usize, digit: u8) -> u64 {
        self.places[unit * self.side() + usize::from(digit) - 1]
    }

    /// Whether the chain removed `digit` from `cell`.
    fn removed(&self, cell: usize, digit: u8) -> bool {
        let bit = 1u64 << (digit - 1);
        self.source[cell] & bit != 0 && self.current[cell] & bit == 0
    }

    /// Empty cells of `unit`.
    fn empty_count(&self, unit: usize) -> usize {
        self.geometry
            .unit(unit)
            .iter()
            .filter(|&&c| self.values[c as usize] == 0)
            .count()
    }
}

/// SE's first rule, in its order, that finds an elimination relying on
/// something the chain removed: all such eliminations of that rule, in
/// the rule's order. Empty when none.
pub(super) fn eliminations(view: &View<'_>) -> Vec<Elimination> {
    type Rule = fn(&View<'_>, &mut Vec<Elimination>);
    let rules: [Rule; 4] = [locking, hidden_pairs, naked_pairs, x_wings];
    let mut found = Vec::new();
    for rule in rules {
        rule(view, &mut found);
        if !found.is_empty() {
            break;
        }
    }
    found
}

/// Pushes the eliminations of one pattern when it relies on the chain
/// (some parent) and eliminates something.
fn push_pattern(found: &mut Vec<Elimination>, removable: &[(usize, u8)], parents: &[(usize, u8)]) {
    if removable.is_empty() || parents.is_empty() {
        return;
    }
    for &(cell, digit) in removable {
        found.push(Elimination {
            cell,
            digit,
            parents: parents.to_vec(),
        });
    }
}

/// Pointing and claiming: a digit's places in one unit all inside a
/// crossing unit. SE's order: box→column, box→row, column→box, row→box.
fn locking(view: &View<'_>, found: &mut Vec<Elimination>) {
    let side = view.side();
    let geometry = view.geometry;
    let (rows, cols, boxes) = (0, side, 2 * side);
    for (first1, first2) in [(boxes, cols), (boxes, rows), (cols, boxes), (rows, boxes)] {
        for i1 in 0..side {
            let unit1 = first1 + i1;
            // The pattern relies on a removal from unit1.
            if view.removed_in[unit1] == 0 {
                continue;
            }
            for i2 in 0..side {
                let unit2 = first2 + i2;
                // The positions in unit1 of its cells in unit2.
                let crossing = geometry
                    .unit(unit1)
                    .iter()
                    .enumerate()
                    .filter(|&(_, &c)| geometry.units_of(c as usize).contains(&(unit2 as u16)))
                    .fold(0u64, |m, (i, _)| m | 1 << i);
                if crossing == 0 {
                    continue;
                }
                let in_unit2 = |c: usize| geometry.units_of(c).contains(&(unit2 as u16));
                for digit in 1..=side as u8 {
                    let bit = 1u64 << (digit - 1);
                    if view.removed_in[unit1] & bit == 0 {
                        continue;
                    }
                    let places = view.positions(unit1, digit);
                    if places.count_ones() < 2 || places & !crossing != 0 {
                        continue;
                    }
                    let in_unit1 = |c: usize| geometry.units_of(c).contains(&(unit1 as u16));
                    let removable: Vec<(usize, u8)> = geometry
                        .unit(unit2)
                        .iter()
                        .map(|&c| c as usize)
                        .filter(|&c| !in_unit1(c) && view.current[c] & bit != 0)
                        .map(|c| (c, digit))
                        .collect();
                    let parents: Vec<(usize, u8)> = geometry
                        .unit(unit1)
                        .iter()
                        .map(|&c| c as usize)
                        .filter(|&c| !in_unit2(c) && view.removed(c, digit))
                        .map(|c| (c, digit))
                        .collect();
                    push_pattern(found, &removable, &parents);
                }
            }
        }
    }
}

/// The units in SE's subset order: boxes, columns, rows.
fn subset_units(side: usize) -> impl Iterator<Item = usize> {
    (2 * side..3 * side).chain(side..2 * side).chain(0..side)
}

/// Hidden pairs: two digits whose places in a unit (at least two each)
/// are the same two cells; the cells lose their other digits.
fn hidden_pairs(view: &View<'_>, found: &mut Vec<Elimination>) {
    let side = view.side();
    for unit in subset_units(side) {
        // The pattern relies on one of its digits removed from the unit.
        if view.removed_in[unit] == 0 || view.empty_count(unit) <= 4 {
            continue;
        }
        let cells = view.geometry.unit(unit);
        for digits in combinations(2, side) {
            if view.removed_in[unit] & digits == 0 {
                continue;
            }
            let (a, b) = (
                digits.trailing_zeros() as u8 + 1,
                (63 - digits.leading_zeros()) as u8 + 1,
            );
            let (pa, pb) = (view.positions(unit, a), view.positions(unit, b));
            if pa.count_ones() < 2 || pb.count_ones() < 2 || (pa | pb).count_ones() != 2 {
                continue;
            }
            let both = pa | pb;
            let pair_mask = (1u64 << (a - 1)) | (1u64 << (b - 1));
            let mut removable = Vec::new();
            for (i, &c) in cells.iter().enumerate() {
                if both >> i & 1 == 1 {
                    let c = c as usize;
                    let others = view.current[c] & !pair_mask;
                    removable
                        .extend(crate::logic::candidates::bits(others).map(|d| (c, d as u8 + 1)));
                }
            }
            let mut parents = Vec::new();
            for (i, &c) in cells.iter().enumerate() {
                if both >> i & 1 == 0 {
                    for d in [a, b] {
                        if view.source[c as usize] & (1u64 << (d - 1)) != 0 {
                            parents.push((c as usize, d));
                        }
                    }
                }
            }
            push_pattern(found, &removable, &parents);
        }
    }
}

/// Naked pairs: two cells of a unit holding the same two digits (two
/// each); the unit's other cells lose them.
fn naked_pairs(view: &View<'_>, found: &mut Vec<Elimination>) {
    let side = view.side();
    for unit in subset_units(side) {
        // The pattern relies on digits removed from its two cells.
        if view.removed_in[unit] == 0 || view.empty_count(unit) < 4 {
            continue;
        }
        let cells = view.geometry.unit(unit);
        for pair in combinations(2, side) {
            let i = pair.trailing_zeros() as usize;
            let j = 63 - pair.leading_zeros() as usize;
            let (ca, cb) = (cells[i] as usize, cells[j] as usize);
            let (ma, mb) = (view.current[ca], view.current[cb]);
            if ma.count_ones() < 2 || mb.count_ones() < 2 || (ma | mb).count_ones() != 2 {
                continue;
            }
            let digits = ma | mb;
            let mut removable = Vec::new();
            for (k, &c) in cells.iter().enumerate() {
                if k != i && k != j {
                    let c = c as usize;
                    let hit = view.current[c] & digits;
                    removable.extend(crate::logic::candidates::bits(hit).map(|d| (c, d as u8 + 1)));
                }
            }
            let mut parents = Vec::new();
            for c in [ca, cb] {
                let gone = view.source[c] & !digits;
                parents.extend(crate::logic::candidates::bits(gone).map(|d| (c, d as u8 + 1)));
            }
            push_pattern(found, &removable, &parents);
        }
    }
}

/// X-Wings: a digit's places in two base lines (two or more each) on the
/// same two cover lines; the cover lines lose it elsewhere. Columns as
/// base lines first, then rows.
fn x_wings(view: &View<'_>, found: &mut Vec<Elimination>) {
    let side = view.side();
    let mut placed = [0usize; crate::grid::MAX_SIDE + 1];
    for &v in view.values {
        placed[usize::from(v)] += 1;
    }
    for (base_first, cover_first) in [(side, 0), (0, side)] {
        for lines in combinations(2, side) {
            let l1 = base_first + lines.trailing_zeros() as usize;
            let l2 = base_first + 63 - lines.leading_zeros() as usize;
            for digit in 1..=side as u8 {
                // The pattern relies on the digit removed from a base line.
                let bit = 1u64 << (digit - 1);
                if (view.removed_in[l1] | view.removed_in[l2]) & bit == 0 {
                    continue;
                }
                if placed[usize::from(digit)] + 4 > side {
                    continue;
                }
                let (p1, p2) = (view.positions(l1, digit), view.positions(l2, digit));
                if p1.count_ones() < 2 || p2.count_ones() < 2 || (p1 | p2).count_ones() != 2 {
                    continue;
                }
                let covers = p1 | p2;
                // A base line's position i lies on cover line `cover_first + i`.
                let mut removable = Vec::new();
                for i in crate::logic::candidates::bits(covers) {
                    for (k, &c) in view.geometry.unit(cover_first + i).iter().enumerate() {
                        let base = base_first + k;
                        if base != l1 && base != l2 && view.current[c as usize] & bit != 0 {
                            removable.push((c as usize, digit));
                        }
                    }
                }
                let mut parents = Vec::new();
                for line in [l1, l2] {
                    for (k, &c) in view.geometry.unit(line).iter().enumerate() {
                        if covers >> k & 1 == 0 && view.removed(c as usize, digit) {
                            parents.push((c as usize, digit));
                        }
                    }
                }
                push_pattern(found, &removable, &parents);
            }
        }
    }
}
