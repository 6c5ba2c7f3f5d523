//! [`VariantSolver`]: one propagation-and-search engine for every layout,
//! reading its constraints from [`Constraints`] tables.
//!
//! Candidate sets are `u64` masks (sides up to 64). Propagation runs to a
//! fixpoint: naked singles through each cell's peers (houses and "sees"
//! relations alike), cage sums (the digit sets a cage can still make,
//! restricted to what its cells allow, and a digit every such set needs
//! placed where it alone fits), hidden singles in complete houses, and
//! locked candidates between any two complete houses that share cells
//! (box and line, but also jigsaw region and line, diagonal and box).
//! Each rule looks only at the houses and cages touched since it last ran.
//! The search branches on the cell with the fewest candidates, with an
//! explicit stack of saved states, as the general engine does.

use std::sync::Arc;

use super::tables::Constraints;
use super::Layout;
use crate::budget::Budget;
use crate::grid::{InputError, Shape};
use crate::solver::general::next_random;
use crate::solver::raw::RawSolver;
use crate::solver::{check_input, Outcome, Solver};

/// How many guesses pass between looks at a [`Budget`].
const GUESSES_PER_CHECK: u64 = 64;

/// A set of house or cage numbers, with the order they were added in.
#[derive(Clone, Debug, Default)]
struct Dirty {
    member: Vec<bool>,
    list: Vec<u32>,
}

impl Dirty {
    fn with_capacity(count: usize) -> Dirty {
        Dirty {
            member: vec![false; count],
            list: Vec::with_capacity(count),
        }
    }

    #[inline]
    fn insert(&mut self, item: u32) {
        if !self.member[item as usize] {
            self.member[item as usize] = true;
            self.list.push(item);
        }
    }

    fn pop(&mut self) -> Option<u32> {
        let item = self.list.pop()?;
        self.member[item as usize] = false;
        Some(item)
    }

    fn clear(&mut self) {
        while self.pop().is_some() {}
    }

    fn fill(&mut self, count: usize) {
        for item in 0..count {
            self.insert(item as u32);
        }
    }
}

/// The engine for any [`Layout`]: build once per layout, call for many
/// puzzles (its buffers are kept between calls).
#[derive(Clone, Debug)]
pub struct VariantSolver {
    tables: Arc<Constraints>,
    shape: Shape,
    state: State,
}

/// The search state, apart from the tables it reads.
#[derive(Clone, Debug)]
struct State {
    full: u64,
    cand: Vec<u64>,
    queue: Vec<u16>,
    /// Complete houses touched since hidden singles last looked.
    unscanned: Dirty,
    /// Complete houses touched since locked candidates last looked.
    unlocked: Dirty,
    /// Cages touched since their sums were last checked.
    uncaged: Dirty,
    saved: Vec<u64>,
    saved_cells: Vec<u16>,
    /// SplitMix64 state when guesses pick a random candidate; `None` takes
    /// the lowest.
    random: Option<u64>,
    /// Scratch: cells that see every place of a digit.
    seen: Vec<u16>,
}

impl VariantSolver {
    /// An engine for `layout`.
    pub fn new(layout: &Layout) -> VariantSolver {
        VariantSolver::from_tables(Arc::new(Constraints::new(layout)), layout.shape())
    }

    /// An engine over tables already built (shared, for one engine per
    /// thread).
    pub fn from_tables(tables: Arc<Constraints>, shape: Shape) -> VariantSolver {
        let n = tables.side();
        let cells = tables.cell_count();
        let state = State {
            full: if n == 64 { u64::MAX } else { (1u64 << n) - 1 },
            cand: vec![0; cells],
            queue: Vec::with_capacity(cells),
            unscanned: Dirty::with_capacity(tables.complete_count()),
            unlocked: Dirty::with_capacity(tables.complete_count()),
            uncaged: Dirty::with_capacity(tables.sums().len()),
            saved: Vec::new(),
            saved_cells: Vec::new(),
            random: None,
            seen: Vec::new(),
        };
        VariantSolver {
            tables,
            shape,
            state,
        }
    }

    /// The tables this engine reads.
    pub fn tables(&self) -> &Arc<Constraints> {
        &self.tables
    }

    /// Counts solutions up to `limit`, writing the first into `solution`;
    /// `None` when `give_up` says so.
    fn search(
        &mut self,
        givens: &[u8],
        limit: u64,
        mut solution: Option<&mut [u8]>,
        give_up: impl FnMut() -> bool,
    ) -> Option<Outcome> {
        let mut first = true;
        let write_first = |cand: &[u64]| {
            if let (true, Some(out)) = (first, solution.as_deref_mut()) {
                write_digits(cand, out);
            }
            first = false;
        };
        self.state
            .search(&self.tables, givens, limit, write_first, give_up)
    }

    /// A solution of `givens` found by guessing candidates at random
    /// (seeded by `seed`), or `None` when there is none or `max_guesses`
    /// guesses were not enough. Generators fill grids with it.
    pub fn random_solution(
        &mut self,
        givens: &[u8],
        seed: u64,
        max_guesses: u64,
    ) -> Result<Option<Vec<u8>>, InputError> {
        check_input(self.shape, givens, None)?;
        self.state.random = Some(seed);
        let mut grid = vec![0; givens.len()];
        let mut guesses = 0u64;
        let keep = |cand: &[u64]| write_digits(cand, &mut grid);
        let give_up = || {
            guesses += GUESSES_PER_CHECK;
            guesses > max_guesses
        };
        let outcome = self.state.search(&self.tables, givens, 1, keep, give_up);
        self.state.random = None;
        Ok(outcome.filter(|o| o.solutions == 1).map(|_| grid))
    }

    /// Up to `limit` solutions of `givens` (`N²` values in `0..=N`), in the
    /// order the search meets them.
    pub fn solutions(&mut self, givens: &[u8], limit: usize) -> Result<Vec<Vec<u8>>, InputError> {
        check_input(self.shape, givens, None)?;
        let mut all = Vec::new();
        if limit > 0 {
            let keep = |cand: &[u64]| {
                let mut grid = vec![0; cand.len()];
                write_digits(cand, &mut grid);
                all.push(grid);
            };
            self.state
                .search(&self.tables, givens, limit as u64, keep, || false);
        }
        Ok(all)
    }
}

impl State {
    fn load(&mut self, t: &Constraints, givens: &[u8]) {
        self.queue.clear();
        self.saved.clear();
        self.saved_cells.clear();
        self.unscanned.clear();
        self.unlocked.clear();
        self.uncaged.clear();
        self.unscanned.fill(t.complete_count());
        self.unlocked.fill(t.complete_count());
        self.uncaged.fill(t.sums().len());
        for (cell, &v) in givens.iter().enumerate() {
            if v == 0 {
                self.cand[cell] = self.full;
            } else {
                self.cand[cell] = 1 << (v - 1);
                self.queue.push(cell as u16);
            }
        }
    }

    /// Marks the houses and cage of `cell`, whose candidates changed.
    #[inline]
    fn touch(&mut self, t: &Constraints, cell: usize) {
        let complete = t.complete_count() as u32;
        for &h in t.houses_of(cell) {
            if h < complete {
                self.unscanned.insert(h);
                self.unlocked.insert(h);
            }
        }
        for &sum in t.sums_of(cell) {
            self.uncaged.insert(sum);
        }
    }

    /// Removes `digits` from `cell`; `false` if nothing is left.
    #[inline]
    fn remove(&mut self, t: &Constraints, cell: usize, digits: u64) -> bool {
        let rest = self.cand[cell] & !digits;
        if rest == self.cand[cell] {
            return true;
        }
        self.cand[cell] = rest;
        if rest == 0 {
            return false;
        }
        if rest.is_power_of_two() {
            self.queue.push(cell as u16);
        }
        self.touch(t, cell);
        true
    }

    /// Decides `cell` as the one digit of `digit`.
    fn place(&mut self, t: &Constraints, cell: usize, digit: u64) {
        if self.cand[cell] != digit {
            self.cand[cell] = digit;
            self.queue.push(cell as u16);
            self.touch(t, cell);
        }
    }

    /// Every rule to a fixpoint; `false` on a contradiction.
    fn propagate(&mut self, t: &Constraints) -> bool {
        loop {
            while let Some(cell) = self.queue.pop() {
                let digit = self.cand[cell as usize];
                for &peer in t.peers(cell as usize) {
                    if self.cand[peer as usize] & digit != 0
                        && !self.remove(t, peer as usize, digit)
                    {
                        return false;
                    }
                }
            }
            if let Some(cage) = self.uncaged.pop() {
                if !self.cage_sums(t, cage as usize) {
                    return false;
                }
                continue;
            }
            if let Some(house) = self.unscanned.pop() {
                if !self.hidden_singles(t, house as usize) {
                    return false;
                }
                continue;
            }
            match self.unlocked.pop() {
                Some(house) => {
                    if !self.locked_candidates(t, house as usize) {
                        return false;
                    }
                }
                None => return true,
            }
        }
    }

    /// A digit with one place left in a complete house goes there; `false`
    /// when some digit has none.
    fn hidden_singles(&mut self, t: &Constraints, house: usize) -> bool {
        let cells = t.house(house);
        let (mut once, mut twice, mut decided) = (0u64, 0u64, 0u64);
        for &c in cells {
            let set = self.cand[c as usize];
            twice |= once & set;
            once |= set;
            if set.is_power_of_two() {
                decided |= set;
            }
        }
        if once != self.full {
            return false;
        }
        let mut hidden = once & !twice & !decided;
        while hidden != 0 {
            let digit = hidden & hidden.wrapping_neg();
            hidden &= hidden - 1;
            if let Some(&c) = cells.iter().find(|&&c| self.cand[c as usize] & digit != 0) {
                self.place(t, c as usize, digit);
            }
        }
        true
    }

    /// Locked candidates from `house` into every complete house it shares
    /// two or more cells with; `false` on a contradiction.
    fn locked_candidates(&mut self, t: &Constraints, house: usize) -> bool {
        for overlap in t.overlaps_of(house) {
            let union = |cells: &[u16]| cells.iter().fold(0, |u, &c| u | self.cand[c as usize]);
            let decided = overlap
                .shared
                .iter()
                .map(|&c| self.cand[c as usize])
                .filter(|s| s.is_power_of_two())
                .fold(0, |u, s| u | s);
            let confined = union(&overlap.shared) & !union(&overlap.a_rest) & !decided;
            if confined == 0 {
                continue;
            }
            for &c in &overlap.b_rest {
                if !self.remove(t, c as usize, confined) {
                    return false;
                }
            }
        }
        true
    }

    /// Restricts a cage's cells to the digit sets that can still make its
    /// sum, and places a digit every such set needs where only one cell of
    /// the cage can take it; `false` when no set is left.
    fn cage_sums(&mut self, t: &Constraints, cage: usize) -> bool {
        let table = &t.sums()[cage];
        let (mut union, mut decided) = (0u64, 0u64);
        for &c in &table.cells {
            let set = self.cand[c as usize];
            union |= set;
            if set.is_power_of_two() {
                decided |= set;
            }
        }
        let (mut allowed, mut needed) = (0u64, u64::MAX);
        for &combo in &table.combos {
            if combo & decided != decided
                || combo & !union != 0
                || table
                    .cells
                    .iter()
                    .any(|&c| self.cand[c as usize] & combo == 0)
            {
                continue;
            }
            allowed |= combo;
            needed &= combo;
        }
        if allowed == 0 {
            return false;
        }
        for &c in &table.cells {
            if !self.remove(t, c as usize, !allowed) {
                return false;
            }
        }
        let mut needed = needed & !decided;
        while needed != 0 {
            let digit = needed & needed.wrapping_neg();
            needed &= needed - 1;
            let mut places = table
                .cells
                .iter()
                .filter(|&&c| self.cand[c as usize] & digit != 0);
            match (places.next(), places.next()) {
                (None, _) => return false,
                (Some(&c), None) => self.place(t, c as usize, digit),
                _ => {
                    if !self.clear_seen_by_all(t, &table.cells, digit) {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// Removes `digit`, which one of the `cells` holding it as a candidate
    /// must take, from every other cell that sees all of those; `false` on
    /// a contradiction.
    fn clear_seen_by_all(&mut self, t: &Constraints, cells: &[u16], digit: u64) -> bool {
        let mut places = cells
            .iter()
            .copied()
            .filter(|&c| self.cand[c as usize] & digit != 0);
        let Some(first) = places.next() else {
            return false;
        };
        self.seen.clear();
        self.seen.extend(
            t.peers(first as usize)
                .iter()
                .copied()
                .filter(|&p| self.cand[p as usize] & digit != 0),
        );
        for place in places {
            let peers = t.peers(place as usize);
            // Both lists are sorted: keep the common members.
            self.seen.retain(|p| peers.binary_search(p).is_ok());
            if self.seen.is_empty() {
                return true;
            }
        }
        let seen = std::mem::take(&mut self.seen);
        let ok = seen
            .iter()
            .filter(|p| !cells.contains(p))
            .all(|&p| self.remove(t, p as usize, digit));
        self.seen = seen;
        ok
    }

    /// The undecided cell with the fewest candidates (the first bivalue one
    /// met), or `None` when all are decided.
    fn branch_cell(&self) -> Option<usize> {
        let mut best = None;
        let mut fewest = u32::MAX;
        for (cell, set) in self.cand.iter().enumerate() {
            let count = set.count_ones();
            if count >= 2 && count < fewest {
                best = Some(cell);
                fewest = count;
                if count == 2 {
                    break;
                }
            }
        }
        best
    }

    fn branch(&mut self, t: &Constraints, cell: usize) {
        let set = self.cand[cell];
        let digit = match &mut self.random {
            None => set & set.wrapping_neg(),
            Some(state) => {
                let mut rest = set;
                for _ in 0..next_random(state) % set.count_ones() as u64 {
                    rest &= rest - 1;
                }
                rest & rest.wrapping_neg()
            }
        };
        self.saved.extend_from_slice(&self.cand);
        let level = self.saved.len() - self.cand.len();
        self.saved[level + cell] = set & !digit;
        self.saved_cells.push(cell as u16);
        self.cand[cell] = digit;
        self.queue.push(cell as u16);
        self.touch(t, cell);
    }

    fn backtrack(&mut self, t: &Constraints) -> bool {
        let Some(cell) = self.saved_cells.pop() else {
            return false;
        };
        let level = self.saved.len() - self.cand.len();
        self.cand.copy_from_slice(&self.saved[level..]);
        self.saved.truncate(level);
        self.queue.clear();
        self.unscanned.clear();
        self.unlocked.clear();
        self.uncaged.clear();
        if self.cand[cell as usize].is_power_of_two() {
            self.queue.push(cell);
        }
        self.touch(t, cell as usize);
        true
    }

    /// Counts solutions up to `limit`, handing each to `found` (its
    /// candidate sets, one digit each); `None` when `give_up` says so
    /// (asked every few dozen guesses).
    fn search(
        &mut self,
        t: &Constraints,
        givens: &[u8],
        limit: u64,
        mut found: impl FnMut(&[u64]),
        mut give_up: impl FnMut() -> bool,
    ) -> Option<Outcome> {
        self.load(t, givens);
        let mut outcome = Outcome::default();
        loop {
            if self.propagate(t) {
                match self.branch_cell() {
                    Some(cell) => {
                        outcome.guesses += 1;
                        if outcome.guesses.is_multiple_of(GUESSES_PER_CHECK) && give_up() {
                            return None;
                        }
                        self.branch(t, cell);
                        continue;
                    }
                    None => {
                        debug_assert!(self.is_consistent(t));
                        found(&self.cand);
                        outcome.solutions += 1;
                        if outcome.solutions >= limit {
                            return Some(outcome);
                        }
                    }
                }
            }
            if !self.backtrack(t) {
                return Some(outcome);
            }
        }
    }

    /// Whether the current complete state keeps every constraint (a debug
    /// check of the propagation's invariants).
    fn is_consistent(&self, t: &Constraints) -> bool {
        let grid: Vec<u8> = self
            .cand
            .iter()
            .map(|s| s.trailing_zeros() as u8 + 1)
            .collect();
        t.is_solution(&grid)
    }
}

/// The digits of decided candidate sets.
fn write_digits(cand: &[u64], out: &mut [u8]) {
    for (slot, set) in out.iter_mut().zip(cand) {
        *slot = set.trailing_zeros() as u8 + 1;
    }
}

impl RawSolver for VariantSolver {
    fn solve_raw(&mut self, givens: &[u8], limit: u64, solution: Option<&mut [u8]>) -> Outcome {
        self.search(givens, limit.max(1), solution, || false)
            .unwrap_or_default()
    }

    fn solve_raw_until(
        &mut self,
        givens: &[u8],
        limit: u64,
        solution: Option<&mut [u8]>,
        budget: &Budget,
    ) -> Option<Outcome> {
        self.search(givens, limit.max(1), solution, || budget.is_spent())
    }
}

impl Solver for VariantSolver {
    fn shape(&self) -> Shape {
        self.shape
    }
}
