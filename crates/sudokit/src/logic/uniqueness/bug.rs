//! Bivalue universal grave (BUG): a grid where every empty cell is bivalue
//! and every digit has two places in each unit it is missing from has none
//! or several solutions. When only a few cells (the BUG cells) spoil that
//! pattern with extra candidates, one of them must take an extra digit.

use std::ops::ControlFlow;

use super::{bits, colex_subsets, digit_list, BOX_ROW_COLUMN};
use crate::logic::step::{cell_list, cell_name, unit_name};
use crate::logic::{Candidate, Candidates, Difficulty, Sink, Step, Technique};

/// What the BUG search found: the cells holding extra candidates, the
/// extra (BUG) digits of each, and the cells that see every BUG cell.
struct BugPattern {
    /// The BUG cells, in the order SE finds them.
    cells: Vec<usize>,
    /// Each BUG cell's extra digits (bit `d - 1` for digit `d`), parallel
    /// to `cells`.
    extras: Vec<u64>,
    /// The union of all extra digits.
    all_extras: u64,
    /// The cells that see every BUG cell, in the house order of the first
    /// BUG cell (none of them a BUG cell).
    common: Vec<usize>,
}

impl BugPattern {
    /// The candidates of `cell` once the extra digits are gone.
    fn reduced(&self, grid: &Candidates, cell: usize) -> u64 {
        match self.cells.iter().position(|&c| c == cell) {
            Some(index) => grid.mask(cell) & !self.extras[index],
            None => grid.mask(cell),
        }
    }

    /// Records that `digit` is an extra digit of `cell`.
    fn add_extra(&mut self, grid: &Candidates, cell: usize, digit: usize) {
        let bit = 1u64 << digit;
        match self.cells.iter().position(|&c| c == cell) {
            Some(index) => self.extras[index] |= bit,
            None => {
                if self.cells.is_empty() {
                    self.common = grid.house_cells(cell).collect();
                }
                self.cells.push(cell);
                self.extras.push(bit);
                self.common.retain(|&c| grid.sees(c, cell));
            }
        }
        self.all_extras |= bit;
    }
}

/// Finds the BUG pattern as SE does. Units are scanned box, row, column; a
/// digit whose place count in a unit is neither 0 nor 2 must have a place
/// in a cell of three or more candidates (else there is no BUG); when it
/// has exactly one, that digit is an extra digit of that cell. Once the
/// extras are gone, every empty cell must be bivalue and every digit have
/// 0 or 2 places in every unit. Several BUG cells with several extra
/// digits and no cell seeing them all end the search (no type applies).
fn find_pattern(grid: &Candidates) -> Option<BugPattern> {
    let side = grid.side();
    let geometry = grid.geometry();
    let mut pattern = BugPattern {
        cells: Vec::new(),
        extras: Vec::new(),
        all_extras: 0,
        common: Vec::new(),
    };
    let units = (2 * side..3 * side).chain(0..2 * side);
    for unit in units {
        let cells = geometry.unit(unit);
        for digit in 0..side {
            let positions = grid.positions(unit, digit as u8 + 1);
            if matches!(positions.count_ones(), 0 | 2) {
                continue;
            }
            let mut wide = bits(positions)
                .map(|i| cells[i] as usize)
                .filter(|&c| grid.count(c) >= 3);
            match (wide.next(), wide.next()) {
                (None, _) => return None,
                (Some(cell), None) => {
                    pattern.add_extra(grid, cell, digit);
                    if pattern.cells.len() > 1
                        && pattern.all_extras.count_ones() > 1
                        && pattern.common.is_empty()
                    {
                        return None;
                    }
                }
                (Some(_), Some(_)) => {}
            }
        }
    }
    let bivalue = grid
        .empty_cells()
        .all(|c| pattern.reduced(grid, c).count_ones() == 2);
    (bivalue && twice_per_unit(grid, &pattern)).then_some(pattern)
}

/// Whether, once the extras are gone, every digit has 0 or 2 places in
/// every unit.
fn twice_per_unit(grid: &Candidates, pattern: &BugPattern) -> bool {
    let geometry = grid.geometry();
    (0..geometry.unit_count()).all(|unit| {
        let mut once = 0u64;
        let mut twice = 0u64;
        let mut more = 0u64;
        for &cell in geometry.unit(unit) {
            let mask = pattern.reduced(grid, cell as usize);
            more |= twice & mask;
            twice |= once & mask;
            once |= mask;
        }
        more == 0 && once == twice
    })
}

/// Bivalue universal grave, SE's types in SE's order: one BUG cell keeps
/// only its extra digits (type 1, 5.6); one extra digit shared by every BUG
/// cell leaves the cells seeing them all (type 2, 5.7); two BUG cells in a
/// unit sharing a single other digit, locked to them there, lose their third
/// digit (type 4, 5.7); the extra digits act as one cell of a naked set in
/// a unit holding every BUG cell (type 3, 5.7 + 0.1 per digit over two).
pub(in crate::logic) fn bug(grid: &Candidates, sink: &mut Sink<'_>) -> ControlFlow<()> {
    let Some(pattern) = find_pattern(grid) else {
        return ControlFlow::Continue(());
    };
    if let [cell] = pattern.cells[..] {
        return sink(type1(grid, cell, pattern.all_extras));
    }
    if pattern.all_extras.count_ones() == 1 {
        if let Some(step) = type2(grid, &pattern) {
            sink(step)?;
        }
        if let Some(step) = type4(grid, &pattern) {
            sink(step)?;
        }
    } else if !pattern.common.is_empty() {
        if let Some(step) = type4(grid, &pattern) {
            sink(step)?;
        }
        type3(grid, &pattern, sink)?;
    }
    ControlFlow::Continue(())
}

/// The text every BUG step's reason starts with.
const BUG_REASON: &str = "without their extra digits every cell would be bivalue with each digit \
                          twice per unit (no unique solution)";

/// Type 1: the only BUG cell must take one of its extra digits.
fn type1(grid: &Candidates, cell: usize, extras: u64) -> Step {
    let side = grid.side();
    Step {
        technique: Technique::Bug,
        name: "BUG type 1".to_string(),
        difficulty: Difficulty(56),
        placements: Vec::new(),
        eliminations: bits(grid.mask(cell) & !extras)
            .map(|i| Candidate::new(cell, i as u8 + 1))
            .collect(),
        cells: vec![cell],
        reason: format!(
            "{BUG_REASON}; so {} is {}",
            cell_name(side, cell),
            digit_list(extras)
        ),
        side,
    }
}

/// Type 2: every BUG cell has the same single extra digit, so one of them
/// holds it and the cells seeing them all lose it.
fn type2(grid: &Candidates, pattern: &BugPattern) -> Option<Step> {
    let side = grid.side();
    let digit = pattern.all_extras.trailing_zeros() as u8 + 1;
    let mut eliminations: Vec<Candidate> = pattern
        .common
        .iter()
        .filter(|&&c| grid.has(c, digit))
        .map(|&c| Candidate::new(c, digit))
        .collect();
    eliminations.sort_unstable();
    (!eliminations.is_empty()).then(|| Step {
        technique: Technique::Bug,
        name: "BUG type 2".to_string(),
        difficulty: Difficulty(57),
        placements: Vec::new(),
        eliminations,
        cells: pattern.cells.clone(),
        reason: format!(
            "{BUG_REASON}; so one of {} is {digit}",
            cell_list(side, &pattern.cells)
        ),
        side,
    })
}

/// Type 4: two BUG cells sharing a unit and one digit besides the extras.
/// That digit has no other place in the unit (the pattern holds it twice
/// there), so one of the two cells takes it and the other its extra digit:
/// neither can take its remaining pattern digit.
fn type4(grid: &Candidates, pattern: &BugPattern) -> Option<Step> {
    let side = grid.side();
    let [c1, c2] = pattern.cells[..] else {
        return None;
    };
    let shared = grid.mask(c1) & grid.mask(c2) & !pattern.all_extras;
    if shared.count_ones() != 1 {
        return None;
    }
    let (units1, units2) = (grid.geometry().units_of(c1), grid.geometry().units_of(c2));
    let kind = BOX_ROW_COLUMN
        .into_iter()
        .find(|&k| units1[k] == units2[k])?;
    let digit = shared.trailing_zeros() as u8 + 1;
    let mut eliminations = Vec::new();
    for (index, &cell) in pattern.cells.iter().enumerate() {
        let removable = grid.mask(cell) & !pattern.extras[index] & !shared;
        eliminations.extend(bits(removable).map(|i| Candidate::new(cell, i as u8 + 1)));
    }
    Some(Step {
        technique: Technique::Bug,
        name: "BUG type 4".to_string(),
        difficulty: Difficulty(57),
        placements: Vec::new(),
        eliminations,
        cells: vec![c1, c2],
        reason: format!(
            "{BUG_REASON}; {digit} is locked in {} and {} of {}, so one of them is {digit} \
             and the other its extra digit",
            cell_name(side, c1),
            cell_name(side, c2),
            unit_name(side, units1[kind] as usize)
        ),
        side,
    })
}

/// Type 3: every BUG cell lies in one unit; one of them holds an extra
/// digit, so the extra digits act as one cell which, with `degree - 1`
/// cells of the unit that see every BUG cell, makes a naked set of
/// `degree` digits: the unit's other cells lose them. SE's order: unit
/// kinds box, row, column; degree 2 up; cell sets in colex order.
fn type3(grid: &Candidates, pattern: &BugPattern, sink: &mut Sink<'_>) -> ControlFlow<()> {
    let side = grid.side();
    let geometry = grid.geometry();
    for kind in BOX_ROW_COLUMN {
        let unit = geometry.units_of(pattern.cells[0])[kind];
        if pattern
            .cells
            .iter()
            .any(|&c| geometry.units_of(c)[kind] != unit)
        {
            continue;
        }
        let unit_cells = pattern
            .common
            .iter()
            .copied()
            .filter(|&c| geometry.units_of(c)[kind] == unit);
        // SE counts the filled cells too; only cells with two candidates or
        // more can join a naked set (filled ones have nothing to lose).
        let unit_size = unit_cells.clone().count();
        let members: Vec<usize> = unit_cells.filter(|&c| grid.count(c) >= 2).collect();
        for degree in 2..=side.saturating_sub(3) {
            if unit_size < degree {
                continue;
            }
            for chosen in colex_subsets(degree - 1, members.len()) {
                let union = bits(chosen).fold(0, |m, i| m | grid.mask(members[i]));
                let naked_set = union | pattern.all_extras;
                if union.count_ones() as usize != degree
                    || naked_set.count_ones() as usize != degree
                {
                    continue;
                }
                let mut eliminations: Vec<Candidate> = members
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| chosen >> i & 1 == 0)
                    .flat_map(|(_, &c)| {
                        bits(grid.mask(c) & naked_set).map(move |d| Candidate::new(c, d as u8 + 1))
                    })
                    .collect();
                if eliminations.is_empty() {
                    continue;
                }
                eliminations.sort_unstable();
                let naked_cells: Vec<usize> = bits(chosen).map(|i| members[i]).collect();
                sink(Step {
                    technique: Technique::Bug,
                    name: "BUG type 3".to_string(),
                    difficulty: Difficulty(57 + degree as u16 - 1),
                    placements: Vec::new(),
                    eliminations,
                    cells: pattern.cells.clone(),
                    reason: format!(
                        "{BUG_REASON}; one of {} is {}, a naked set on {} with {} in {}",
                        cell_list(side, &pattern.cells),
                        digit_list(pattern.all_extras),
                        digit_list(naked_set),
                        cell_list(side, &naked_cells),
                        unit_name(side, unit as usize)
                    ),
                    side,
                })?;
            }
        }
    }
    ControlFlow::Continue(())
}

#[cfg(test)]
mod tests {
    use super::super::{first_step, position};
    use crate::logic::{Difficulty, Technique};

    #[test]
    fn one_bug_cell_keeps_its_extra_digit() {
        let grid = position(
            ".659.4.8373468159289..35.4694831.6.55.3.684.967.5493.8..78569343594..861486193257",
            "",
        );
        let step = first_step(Technique::Bug, &grid).expect("SE's BUG type 1");
        assert_eq!(step.name, "BUG type 1");
        assert_eq!(step.difficulty, Difficulty(56));
        assert_eq!(step.outcome(), "r5c8<>1, r5c8<>7");
    }

    #[test]
    fn two_bug_cells_with_a_locked_digit_lose_their_third() {
        let grid = position(
            "..27.1.434.7539.12.132.47....4123576325647198176958324.3941.28724187..3.7.83924.1",
            "r1c1<>8 r1c1<>9 r3c1<>5 r3c1<>6",
        );
        let step = first_step(Technique::Bug, &grid).expect("SE's BUG type 4");
        assert_eq!(step.name, "BUG type 4");
        assert_eq!(step.difficulty, Difficulty(57));
        assert_eq!(step.outcome(), "r1c2<>5, r1c7<>8");
    }

    #[test]
    fn bug_cells_sharing_their_extra_digit_remove_it_from_common_peers() {
        let grid = position(
            "...923147.9.467258724815369.8.14.975..759.813..93786246..789.32.7.231.96932654781",
            "",
        );
        let step = first_step(Technique::Bug, &grid).expect("SE's BUG type 2");
        assert_eq!(step.name, "BUG type 2");
        assert_eq!(step.difficulty, Difficulty(57));
        assert_eq!(step.outcome(), "r7c3<>5, r8c3<>5");
    }

    #[test]
    fn extra_digits_make_a_naked_set_with_other_cells() {
        let grid = position(
            "4371689256.92.3..42.8..9...9753214683846.7...126.847.3793.15...542..6.178617.25.9",
            "r7c7<>8",
        );
        let step = first_step(Technique::Bug, &grid).expect("SE's BUG type 3");
        assert_eq!(step.name, "BUG type 3");
        assert_eq!(step.difficulty, Difficulty(58));
        assert_eq!(step.outcome(), "r3c4<>5, r3c9<>1");
    }

    #[test]
    fn no_bug_while_cells_have_several_extra_candidates() {
        let grid = position(
            "...423651615.7.234234156..9..25.1.4314.3.752835..421.6...7354125216.43.747321..65",
            "",
        );
        assert!(first_step(Technique::Bug, &grid).is_none());
        let grid = position(
            ".659.4.8373468159289..35.4694831.6.55.3.684.967.5493.8..78569343594..861486193257",
            "r5c8<>1",
        );
        let step = first_step(Technique::Bug, &grid);
        assert!(step.is_none_or(|s| !s.eliminations.iter().any(|e| e.digit == 1)));
    }
}
