//! Unique rectangles and unique loops. Cells holding the same two digits,
//! each unit they touch holding exactly two of them in alternating places,
//! could swap the two digits: a second solution. So the cells with extra
//! candidates (the rescue cells) must keep the loop from forming.

use std::ops::ControlFlow;

use super::{bits, colex_subsets, digit_list, se_tenths, BOX_ROW_COLUMN};
use crate::logic::candidates::full_mask;
use crate::logic::step::{cell_list, unit_name};
use crate::logic::{Candidate, Candidates, Difficulty, Sink, Step, Technique};

/// How a loop's rescue cells are used: SE's hint types.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Rescue {
    /// One rescue cell: it loses both loop digits.
    Type1,
    /// The rescue cells share one extra digit: one of them holds it.
    Type2 {
        /// The extra digit.
        digit: u8,
    },
    /// Two rescue cells in a unit whose extra digits make a naked set with
    /// other cells of the unit.
    Type3Naked {
        /// The unit.
        unit: usize,
        /// The digits of the naked set (bit `d - 1` for digit `d`).
        digits: u64,
        /// The cells of the set besides the rescue cells, in unit order.
        cells: Vec<usize>,
    },
    /// Two rescue cells in a unit, taken as one cell, make a hidden set
    /// with other cells of the unit.
    Type3Hidden {
        /// The unit.
        unit: usize,
        /// The digits of the hidden set (both loop digits among them).
        digits: u64,
        /// The cells of the set besides the rescue cells, in unit order.
        cells: Vec<usize>,
    },
    /// Two rescue cells in a unit where one loop digit has no other place:
    /// they lose the other loop digit.
    Type4 {
        /// The unit.
        unit: usize,
        /// The loop digit locked in the two cells.
        locked: u8,
    },
}

impl Rescue {
    /// SE's type number (1 to 4), the tie-break after difficulty.
    fn number(&self) -> u8 {
        match self {
            Rescue::Type1 => 1,
            Rescue::Type2 { .. } => 2,
            Rescue::Type3Naked { .. } | Rescue::Type3Hidden { .. } => 3,
            Rescue::Type4 { .. } => 4,
        }
    }

    /// Whether two hints of the same loop count as one (SE's hint
    /// equality): types 1, 2 and 4 by type alone, type 3 by its set too.
    fn same_as(&self, other: &Rescue) -> bool {
        match (self, other) {
            (Rescue::Type3Naked { .. }, Rescue::Type3Naked { .. })
            | (Rescue::Type3Hidden { .. }, Rescue::Type3Hidden { .. }) => self == other,
            _ => std::mem::discriminant(self) == std::mem::discriminant(other),
        }
    }
}

/// A unique loop hint found, before it becomes a [`Step`].
struct LoopHint {
    /// The loop's cells, in loop order.
    cells: Vec<usize>,
    /// The two loop digits as a mask.
    pair: u64,
    /// The rescue cells (the loop cells with extra candidates).
    rescue_cells: Vec<usize>,
    /// How the rescue cells are used.
    rescue: Rescue,
    /// SE's difficulty, as the Java double SE sorts hints by.
    difficulty: f64,
    /// The candidates removed.
    eliminations: Vec<Candidate>,
}

impl LoopHint {
    /// Whether SE would see the two hints as equal (same type, same loop
    /// cells in any order).
    fn same_as(&self, other: &LoopHint) -> bool {
        self.rescue.same_as(&other.rescue)
            && self.cells.len() == other.cells.len()
            && self.cells.iter().all(|c| other.cells.contains(c))
    }

    /// The step reported for the hint.
    fn into_step(mut self, side: usize) -> Step {
        let shape = if self.cells.len() == 4 {
            "Rectangle"
        } else {
            "Loop"
        };
        let size = if self.cells.len() > 6 {
            format!(" {}", self.cells.len())
        } else {
            String::new()
        };
        let name = format!("Unique {shape}{size} type {}", self.rescue.number());
        let digits = digit_list(self.pair);
        let rescue = cell_list(side, &self.rescue_cells);
        let why = match &self.rescue {
            Rescue::Type1 => format!("{rescue} must not be {digits}"),
            Rescue::Type2 { digit } => format!("one of {rescue} is {digit}"),
            Rescue::Type3Naked {
                unit,
                digits,
                cells,
            }
            | Rescue::Type3Hidden {
                unit,
                digits,
                cells,
            } => {
                let kind = if matches!(self.rescue, Rescue::Type3Naked { .. }) {
                    "naked"
                } else {
                    "hidden"
                };
                format!(
                    "{rescue} act as one cell of a {kind} set on {} with {} in {}",
                    digit_list(*digits),
                    cell_list(side, cells),
                    unit_name(side, *unit)
                )
            }
            Rescue::Type4 { unit, locked } => format!(
                "{locked} is locked in {rescue} of {}, so the other loop digit cannot go there",
                unit_name(side, *unit)
            ),
        };
        self.eliminations.sort_unstable();
        Step {
            technique: Technique::UniqueLoop,
            name,
            difficulty: Difficulty(se_tenths(self.difficulty)),
            placements: Vec::new(),
            eliminations: self.eliminations,
            reason: format!(
                "{} on {digits} would allow two solutions; {why}",
                cell_list(side, &self.cells)
            ),
            cells: self.cells,
            side,
        }
    }
}

/// SE's difficulty of a unique loop of `length` cells (types 1, 2 and 4):
/// 4.5 for a rectangle, 4.6 for 6 cells, 4.7 for 8, 5.0 from 10 on.
fn loop_difficulty(length: usize) -> f64 {
    let mut difficulty = 4.5;
    if length >= 10 {
        difficulty += 0.3;
    }
    if length >= 8 {
        difficulty += 0.2;
    } else if length >= 6 {
        difficulty += 0.1;
    }
    difficulty
}

/// The depth-first search for loops on one pair of digits, and the hints
/// collected so far.
struct LoopSearch<'a> {
    /// The grid searched.
    grid: &'a Candidates,
    /// The two loop digits as a mask.
    pair: u64,
    /// The cells of the path being extended, the start first.
    path: Vec<usize>,
    /// The same cells as a set (bit `c % 64` of word `c / 64` for cell `c`).
    on_path: Vec<u64>,
    /// The units of the path's cells at even and at odd places. A valid
    /// loop visits a unit at most once from each, so paths that would not
    /// are not extended (what SE's final check would reject anyway).
    visited: [UnitSet; 2],
    /// The hints found, in SE's order of discovery, without repeats.
    hints: Vec<LoopHint>,
}

impl LoopSearch<'_> {
    /// Extends the path with `cell`, then tries every cell sharing a unit
    /// with it (units box, row, column, but not the kind of unit just
    /// used) that holds both loop digits, closing the loop when that cell
    /// is the start. A cell with extra candidates may join while fewer
    /// than two did, or when every extra digit met so far is the same one.
    /// As in SE, `extras` gathers the extra digits of every cell looked at
    /// from here, not only of the path.
    fn extend(&mut self, cell: usize, rescues_left: i32, mut extras: u64, came_by: Option<usize>) {
        let grid = self.grid;
        let units = grid.geometry().units_of(cell);
        self.visited[self.path.len() % 2].insert_all(units);
        self.path.push(cell);
        self.on_path[cell / 64] |= 1 << (cell % 64);
        let [low, high] = [self.pair.trailing_zeros(), 63 - self.pair.leading_zeros()];
        for kind in BOX_ROW_COLUMN {
            if came_by == Some(kind) {
                continue;
            }
            let unit = units[kind] as usize;
            let cells = grid.geometry().unit(unit);
            // The cells of the unit holding both loop digits, in unit order
            // (the start among them): no other cell can join or close.
            let both = grid.positions(unit, low as u8 + 1) & grid.positions(unit, high as u8 + 1);
            for i in bits(both) {
                let next = usize::from(cells[i]);
                if next == self.path[0] && self.path.len() >= 4 {
                    self.close_loop();
                } else if self.on_path[next / 64] >> (next % 64) & 1 == 0 {
                    let mask = grid.mask(next);
                    extras |= mask & !self.pair;
                    let wide = mask.count_ones() > 2;
                    let may_join = !wide || extras.count_ones() == 1 || rescues_left > 0;
                    let next_units = grid.geometry().units_of(next);
                    if may_join && !self.visited[self.path.len() % 2].any_of(next_units) {
                        self.extend(next, rescues_left - i32::from(wide), extras, Some(kind));
                    }
                }
            }
        }
        self.on_path[cell / 64] &= !(1 << (cell % 64));
        self.path.pop();
        self.visited[self.path.len() % 2].remove_all(units);
    }

    /// The path closes on its start: when it is a valid loop (its even and
    /// odd cells visit the same units), the hints its rescue cells give.
    fn close_loop(&mut self) {
        if self.visited[0] != self.visited[1] {
            return;
        }
        let rescue_cells: Vec<usize> = self
            .path
            .iter()
            .copied()
            .filter(|&c| self.grid.count(c) > 2)
            .collect();
        match rescue_cells[..] {
            [] => {}
            [cell] => {
                let eliminations = bits(self.pair)
                    .map(|d| Candidate::new(cell, d as u8 + 1))
                    .collect();
                self.add(&rescue_cells, Rescue::Type1, 0.0, eliminations);
            }
            [c1, c2] => {
                let extras = (self.grid.mask(c1) | self.grid.mask(c2)) & !self.pair;
                if extras.count_ones() == 1 {
                    self.type2(&rescue_cells);
                } else if extras.count_ones() >= 2 {
                    self.type3(c1, c2, extras);
                }
                self.type4(c1, c2);
            }
            _ => self.type2(&rescue_cells),
        }
    }

    /// Records a hint of the current loop unless SE would drop it: it
    /// removes nothing, or an equal hint came first.
    fn add(
        &mut self,
        rescue_cells: &[usize],
        rescue: Rescue,
        added: f64,
        eliminations: Vec<Candidate>,
    ) {
        if eliminations.is_empty() {
            return;
        }
        let hint = LoopHint {
            cells: self.path.clone(),
            pair: self.pair,
            rescue_cells: rescue_cells.to_vec(),
            rescue,
            difficulty: loop_difficulty(self.path.len()) + added,
            eliminations,
        };
        if !self.hints.iter().any(|h| h.same_as(&hint)) {
            self.hints.push(hint);
        }
    }

    /// Type 2: the rescue cells' extra digit (the first rescue cell's
    /// lowest) leaves every cell that sees all of them.
    fn type2(&mut self, rescue_cells: &[usize]) {
        let grid = self.grid;
        let digit = (grid.mask(rescue_cells[0]) & !self.pair).trailing_zeros() as u8 + 1;
        let eliminations = grid
            .house_cells(rescue_cells[0])
            .filter(|&c| grid.has(c, digit))
            .filter(|&c| rescue_cells[1..].iter().all(|&r| grid.sees(c, r)))
            .map(|c| Candidate::new(c, digit))
            .collect();
        self.add(rescue_cells, Rescue::Type2 { digit }, 0.0, eliminations);
    }

    /// Type 4: in a unit holding both rescue cells, a loop digit with no
    /// other place is locked in them (one holds it, the other an extra
    /// digit), so both lose the other loop digit. SE keeps the last kind of
    /// unit (box, row, column) where the lower digit is locked, else the last
    /// where the higher one is.
    fn type4(&mut self, c1: usize, c2: usize) {
        let grid = self.grid;
        let (units1, units2) = (grid.geometry().units_of(c1), grid.geometry().units_of(c2));
        let [low, high] = [
            self.pair & self.pair.wrapping_neg(),
            self.pair & (self.pair - 1),
        ];
        let mut locked = [None, None];
        for kind in BOX_ROW_COLUMN {
            let unit = units1[kind] as usize;
            if unit != units2[kind] as usize {
                continue;
            }
            let elsewhere = grid
                .geometry()
                .unit(unit)
                .iter()
                .map(|&c| c as usize)
                .filter(|&c| c != c1 && c != c2)
                .fold(0, |m, c| m | grid.mask(c));
            for (slot, digit) in locked.iter_mut().zip([low, high]) {
                if elsewhere & digit == 0 {
                    *slot = Some(unit);
                }
            }
        }
        let chosen = match locked {
            [Some(unit), _] => (unit, low, high),
            [None, Some(unit)] => (unit, high, low),
            [None, None] => return,
        };
        let (unit, locked_digit, removed) = chosen;
        let removed = removed.trailing_zeros() as u8 + 1;
        let eliminations = vec![Candidate::new(c1, removed), Candidate::new(c2, removed)];
        let rescue = Rescue::Type4 {
            unit,
            locked: locked_digit.trailing_zeros() as u8 + 1,
        };
        self.add(&[c1, c2], rescue, 0.0, eliminations);
    }

    /// Type 3: both rescue cells in one unit, one of them holding an extra
    /// digit. By degree (the number of extra digits up), then kind of unit
    /// (box, row, column): naked sets where the extra digits stand for the
    /// rescue pair, then hidden sets where the pair is one cell holding at
    /// most one loop digit.
    fn type3(&mut self, c1: usize, c2: usize, extras: u64) {
        let grid = self.grid;
        let side = grid.side();
        let (units1, units2) = (grid.geometry().units_of(c1), grid.geometry().units_of(c2));
        for degree in extras.count_ones() as usize..=side - 2 {
            for kind in BOX_ROW_COLUMN {
                let unit = units1[kind] as usize;
                if unit != units2[kind] as usize {
                    continue;
                }
                let empty = grid
                    .geometry()
                    .unit(unit)
                    .iter()
                    .filter(|&&c| grid.value(c as usize) == 0)
                    .count();
                if 2 * degree <= empty {
                    self.type3_naked(unit, c1, c2, extras, degree);
                }
                if 2 * degree < empty {
                    self.type3_hidden(unit, c1, c2, extras, degree);
                }
            }
        }
    }

    /// Type 3 with a naked set: `degree - 1` other cells of `unit` (of two
    /// candidates or more) whose digits, with the extra digits, number
    /// `degree`; SE also requires the extra digits outside those cells to be
    /// in both rescue cells. The unit's other cells lose the set's digits.
    fn type3_naked(&mut self, unit: usize, c1: usize, c2: usize, extras: u64, degree: usize) {
        let grid = self.grid;
        let cells = grid.geometry().unit(unit);
        let others: Vec<usize> = cells
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| c != c1 && c != c2 && grid.count(c) >= 2)
            .collect();
        let in_both = extras & grid.mask(c1) & grid.mask(c2);
        for chosen in colex_subsets(degree - 1, others.len()) {
            let union = bits(chosen).fold(0, |m, i| m | grid.mask(others[i]));
            let digits = union | extras;
            if (union | in_both).count_ones() as usize != degree
                || digits.count_ones() as usize != degree
            {
                continue;
            }
            let set_cells: Vec<usize> = bits(chosen).map(|i| others[i]).collect();
            let eliminations = cells
                .iter()
                .map(|&c| c as usize)
                .filter(|&c| c != c1 && c != c2 && !set_cells.contains(&c))
                .flat_map(|c| {
                    bits(grid.mask(c) & digits).map(move |d| Candidate::new(c, d as u8 + 1))
                })
                .collect();
            let rescue = Rescue::Type3Naked {
                unit,
                digits,
                cells: set_cells,
            };
            self.add(&[c1, c2], rescue, (degree - 1) as f64 * 0.1, eliminations);
        }
    }

    /// Type 3 with a hidden set: the two loop digits and `degree - 2` other
    /// digits (neither loop nor extra) whose places in `unit`, counting the
    /// rescue pair as the one cell `c1`, are `degree` cells. Those cells
    /// lose their other digits.
    fn type3_hidden(&mut self, unit: usize, c1: usize, c2: usize, extras: u64, degree: usize) {
        let grid = self.grid;
        let cells = grid.geometry().unit(unit);
        let index_of = |cell: usize| {
            cells
                .iter()
                .position(|&c| c as usize == cell)
                .expect("the rescue cells lie in the unit")
        };
        let (index1, index2) = (index_of(c1), index_of(c2));
        let places = |digit: usize| grid.positions(unit, digit as u8 + 1) & !(1 << index2);
        let remaining: Vec<usize> = bits(!(self.pair | extras) & full_mask(grid.side()))
            .filter(|&d| places(d) != 0)
            .collect();
        let pair_places = bits(self.pair).fold(0, |m, d| m | places(d));
        for chosen in colex_subsets(degree - 2, remaining.len()) {
            let digits = bits(chosen).fold(self.pair, |m, i| m | 1 << remaining[i]);
            let union = bits(chosen).fold(pair_places, |m, i| m | places(remaining[i]));
            if union.count_ones() as usize != degree {
                continue;
            }
            let set_cells: Vec<usize> = bits(union & !(1 << index1))
                .map(|i| cells[i] as usize)
                .collect();
            let eliminations = set_cells
                .iter()
                .flat_map(|&c| {
                    bits(grid.mask(c) & !digits).map(move |d| Candidate::new(c, d as u8 + 1))
                })
                .collect();
            let added = (set_cells.len() as f64 - 1.0) * 0.1;
            let rescue = Rescue::Type3Hidden {
                unit,
                digits,
                cells: set_cells,
            };
            self.add(&[c1, c2], rescue, added, eliminations);
        }
    }
}

/// A set of units (up to 256, three per digit of the largest grids).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct UnitSet([u64; 4]);

impl UnitSet {
    /// Whether any of `units` is in the set.
    fn any_of(&self, units: [u16; 3]) -> bool {
        units
            .iter()
            .any(|&u| self.0[u as usize / 64] >> (u % 64) & 1 != 0)
    }

    /// Adds `units` to the set.
    fn insert_all(&mut self, units: [u16; 3]) {
        for u in units {
            self.0[u as usize / 64] |= 1 << (u % 64);
        }
    }

    /// Removes `units` from the set.
    fn remove_all(&mut self, units: [u16; 3]) {
        for u in units {
            self.0[u as usize / 64] &= !(1 << (u % 64));
        }
    }
}

/// The number of cells holding both digits of `pair` (a two-digit mask).
fn cells_holding(grid: &Candidates, pair: u64) -> u32 {
    let [low, high] = [pair.trailing_zeros(), 63 - pair.leading_zeros()];
    (0..grid.side())
        .map(|row| {
            (grid.positions(row, low as u8 + 1) & grid.positions(row, high as u8 + 1)).count_ones()
        })
        .sum()
}

/// Unique rectangles and loops, types 1 to 4, as SE's UniqueLoops: loops
/// are searched from every bivalue cell (row-major) on its two digits, every
/// hint of every loop collected (SE's equal hints once), then reported by
/// difficulty and type, first found first among equals.
pub(in crate::logic) fn loops(grid: &Candidates, sink: &mut Sink<'_>) -> ControlFlow<()> {
    let mut search = LoopSearch {
        grid,
        pair: 0,
        path: Vec::new(),
        on_path: vec![0; grid.cell_count().div_ceil(64)],
        visited: [UnitSet::default(); 2],
        hints: Vec::new(),
    };
    for cell in grid.empty_cells() {
        // A loop has four cells or more, all holding both its digits.
        if grid.count(cell) == 2 && cells_holding(grid, grid.mask(cell)) >= 4 {
            search.pair = grid.mask(cell);
            search.extend(cell, 2, 0, None);
        }
    }
    let mut hints = search.hints;
    hints.sort_by(|a, b| {
        a.difficulty
            .total_cmp(&b.difficulty)
            .then(a.rescue.number().cmp(&b.rescue.number()))
    });
    for hint in hints {
        sink(hint.into_step(grid.side()))?;
    }
    ControlFlow::Continue(())
}

#[cfg(test)]
mod tests {
    use super::super::{first_step, position};
    use crate::logic::{Difficulty, Technique};

    /// Checks that the first unique loop step in the position is SE's.
    fn assert_first(values: &str, gone: &str, name: &str, tenths: u16, outcome: &str) {
        let grid = position(values, gone);
        let step = first_step(Technique::UniqueLoop, &grid).expect("a unique loop");
        assert_eq!(step.name, name);
        assert_eq!(step.difficulty, Difficulty(tenths));
        assert_eq!(step.outcome(), outcome);
    }

    #[test]
    fn a_rectangle_in_two_boxes_of_a_4x4_grid_is_deadly() {
        let mut grid = position("................", "");
        for (cell, digit) in [(0, 3), (0, 4), (2, 3), (2, 4), (4, 3), (4, 4), (6, 4)] {
            grid.eliminate(cell, digit);
        }
        let step = first_step(Technique::UniqueLoop, &grid).expect("a rectangle");
        assert_eq!(step.name, "Unique Rectangle type 1");
        assert_eq!(step.difficulty, Difficulty(45));
        assert_eq!(step.outcome(), "r2c3<>1, r2c3<>2");
    }

    #[test]
    fn a_rectangle_inside_one_box_is_not_deadly() {
        let mut grid = position("................", "");
        for (cell, digit) in [(0, 3), (0, 4), (1, 3), (1, 4), (4, 3), (4, 4), (5, 4)] {
            grid.eliminate(cell, digit);
        }
        let mut touched_r2c2 = false;
        let _ = Technique::UniqueLoop.find(&grid, &mut |step| {
            touched_r2c2 |= step.eliminations.iter().any(|e| e.cell == 5);
            std::ops::ControlFlow::Continue(())
        });
        assert!(!touched_r2c2);
    }

    #[test]
    fn rectangles_of_every_type_as_se_takes_them() {
        assert_first(
            ".2..7.8146814925733471582698..72.45141..35782752841..6.7.21.6481.8564.27264.871.5",
            "",
            "Unique Rectangle type 1",
            45,
            "r7c3<>5, r7c3<>9",
        );
        assert_first(
            "..2....744.7..1.92..3742.51..1637245325419768746528913..92.41.7..4..35.6..81..4.9",
            "r1c1<>9 r1c2<>9",
            "Unique Rectangle type 2",
            45,
            "r1c1<>6, r1c2<>6, r2c2<>6, r3c7<>6",
        );
        assert_first(
            "1.2.9857.86.752.9.975.41...2..9..6856...8574.758.64..93.6429.574..5..9..5..8..4.3",
            "r4c2<>3 r4c3<>3 r4c5<>1 r5c2<>1 r5c3<>1 r5c4<>3 r6c4<>3",
            "Unique Rectangle type 3",
            45,
            "r8c3<>1",
        );
        assert_first(
            "95.....3...7.4.9.....9...7..6.78...9.7.3..2...1..5..4.6..1...9.7...3.8..1.2......",
            "r1c3<>4 r1c3<>8 r2c1<>2 r3c1<>2 r3c3<>3 r3c3<>4 r3c3<>8 r3c7<>4 r3c9<>4 \
             r4c3<>5 r5c3<>5 r7c6<>4 r8c3<>9 r8c6<>4 r9c6<>4",
            "Unique Rectangle type 3",
            46,
            "r9c5<>7",
        );
        assert_first(
            ".....6745879451623456273819..5...2.4.....45.8748562931.8214.35.5176384923.4.2518.",
            "",
            "Unique Rectangle type 4",
            45,
            "r4c4<>9, r4c5<>9",
        );
    }

    #[test]
    fn loops_of_six_cells_as_se_takes_them() {
        assert_first(
            ".1792.3455943...12.231457..1724839563..259471945..1...4.1.325..23.59.1..75981....",
            "r6c8<>8 r8c6<>6 r8c9<>8 r9c8<>6",
            "Unique Loop type 1",
            46,
            "r7c8<>6, r7c8<>8",
        );
        assert_first(
            "132...645.6.451923945263178.136.54.25.41.23.62.6.347514.132.56.62.51.83435..4621.",
            "r1c5<>7 r7c2<>9",
            "Unique Loop type 2",
            46,
            "r7c2<>8, r9c4<>8",
        );
        assert_first(
            ".3685217.7..36.2...25..4.63.........284.13..7...9..........6.1.6....5...57.48.3.6",
            "r2c3<>9 r2c8<>9 r2c9<>9 r4c2<>1 r4c2<>9 r4c3<>3 r4c4<>2 r4c4<>7 r4c5<>7 \
             r4c7<>5 r4c7<>6 r4c7<>9 r4c8<>5 r4c8<>9 r4c9<>4 r4c9<>5 r4c9<>9 r6c2<>1 \
             r6c3<>3 r6c5<>7 r6c7<>8 r6c9<>4 r7c1<>3 r7c1<>9 r7c5<>2 r8c5<>2",
            "Unique Loop type 3",
            46,
            "r7c7<>4, r7c7<>7, r7c7<>8, r7c7<>9",
        );
    }

    #[test]
    fn longer_loops_as_se_takes_them() {
        assert_first(
            ".85.39.1.1.7.25938329178654953217486218.64..3.7.8.3...8....23..7.2.418655...86..9",
            "",
            "Unique Loop 8 type 3",
            47,
            "r7c8<>7",
        );
        assert_first(
            "2.8.7..4.9.1.4..6.....3.1..3.2.9.4...9521....1..35..9.82946.73.513789624647.239.8",
            "r1c9<>5 r2c9<>5 r3c2<>7 r3c8<>5 r3c9<>5 r3c9<>7 r4c8<>7 r4c8<>8 r4c9<>6 \
             r4c9<>7 r5c6<>7 r5c9<>7",
            "Unique Loop 8 type 4",
            47,
            "r1c4<>5, r1c6<>5",
        );
        assert_first(
            "71854.93..361.7.5445...3.1.174358..9.2.46157868572914354.9...81.618.549.897.143.5",
            "r3c7<>6",
            "Unique Loop 10 type 2",
            50,
            "r3c7<>7, r8c9<>7",
        );
    }

    #[test]
    fn the_easiest_hint_comes_first_then_the_lowest_type_then_the_first_found() {
        // SE's own choices: a type 2 before two type 4s of the same
        // difficulty, and the first of two type 1 rectangles.
        assert_first(
            "6723.415.894251736531.672.4327419.6.189536427465728.1.25..43.71.1.6.2.4..4.1.5..2",
            "r9c3<>8 r9c7<>8 r9c7<>9",
            "Unique Rectangle type 2",
            45,
            "r1c5<>8, r7c4<>8",
        );
        assert_first(
            ".2.843..1...279..3.731652.....38.62.26...183.83..26.14.5..1239.791638..23.2...1.6",
            "r1c7<>5 r2c8<>8 r6c7<>5 r9c4<>4 r9c4<>7 r9c8<>4 r9c8<>5",
            "Unique Rectangle type 1",
            45,
            "r2c8<>4, r2c8<>5",
        );
    }

    #[test]
    fn no_loop_where_se_found_none() {
        let grid = position(
            "...423651615.7.234234156..9..25.1.4314.3.752835..421.6...7354125216.43.747321..65",
            "",
        );
        assert!(first_step(Technique::UniqueLoop, &grid).is_none());
    }
}
