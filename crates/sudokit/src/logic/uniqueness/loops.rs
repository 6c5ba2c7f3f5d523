//! Unique rectangles and unique loops. Cells holding the same two digits,
//! each unit they touch holding exactly two of them in alternating places,
//! could swap the two digits: a second solution. So the cells with extra
//! candidates (the rescue cells) must keep the loop from forming.

use std::ops::ControlFlow;

use super::{bits, colex_subsets, digit_list, se_tenths, BOX_ROW_COLUMN};
use crate::logic::step::{cell_list, unit_name};
use crate::logic::{Candidate, Candidates, Difficulty, Sink, Step, Technique};

/// How a loop's rescue cells are used: SE's hint types. The order of the
/// variants is SE's tie-break between hints of equal difficulty.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
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
        self.path.push(cell);
        let grid = self.grid;
        let units = grid.geometry().units_of(cell);
        for kind in BOX_ROW_COLUMN {
            if came_by == Some(kind) {
                continue;
            }
            for &next in grid.geometry().unit(units[kind] as usize) {
                let next = next as usize;
                if next == self.path[0] && self.path.len() >= 4 {
                    self.close_loop();
                } else if !self.path.contains(&next) && grid.mask(next) & self.pair == self.pair {
                    let mask = grid.mask(next);
                    extras |= mask & !self.pair;
                    let wide = mask.count_ones() > 2;
                    if !wide || extras.count_ones() == 1 || rescues_left > 0 {
                        self.extend(next, rescues_left - i32::from(wide), extras, Some(kind));
                    }
                }
            }
        }
        self.path.pop();
    }

    /// The path closes on its start: when it is a valid loop, the hints its
    /// rescue cells give.
    fn close_loop(&mut self) {
        if !is_valid_loop(self.grid, &self.path) {
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
        let remaining: Vec<usize> = bits(!(self.pair | extras) & grid_digits(grid))
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

/// Every digit of the grid as a mask.
fn grid_digits(grid: &Candidates) -> u64 {
    crate::logic::candidates::full_mask(grid.side())
}

/// SE's loop check: the cells at even and at odd places of the loop each
/// visit a unit at most once, and the even cells visit the same units as
/// the odd ones (so each unit touched holds two loop cells, alternating).
fn is_valid_loop(grid: &Candidates, path: &[usize]) -> bool {
    let mut visited = [[0u64; 4]; 2];
    for (index, &cell) in path.iter().enumerate() {
        let set = &mut visited[index % 2];
        for unit in grid.geometry().units_of(cell) {
            let (word, bit) = (unit as usize / 64, 1u64 << (unit % 64));
            if set[word] & bit != 0 {
                return false;
            }
            set[word] |= bit;
        }
    }
    visited[0] == visited[1]
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
        hints: Vec::new(),
    };
    for cell in grid.empty_cells() {
        if grid.count(cell) == 2 {
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
