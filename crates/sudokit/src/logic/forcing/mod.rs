//! Sudoku Explainer's forcing chains with several branches: Nishio (7.5),
//! multiple — cell and region — forcing chains (8.0), dynamic forcing
//! chains (8.5) and dynamic chains that also use locked candidates, pairs
//! and X-Wings (9.0, "dynamic plus").
//!
//! Each starts from a candidate assumed on and off and follows every
//! implication breadth first (a digit on turns its peers off; an off
//! candidate turns on the last digit of a cell or the last place of a
//! digit in a unit). Dynamic chains also remove what they turn off, so a
//! cell or unit reduced by the chain yields new singles. A conclusion
//! holds when:
//! - an assumption leads to a contradiction (a candidate both on and off:
//!   the assumption is false),
//! - both states of a candidate imply the same thing (double forcing),
//! - every digit of a cell, or every place of a digit in a unit, implies
//!   the same thing (cell and region forcing chains).
//!
//! All conclusions are collected, then sorted as SE sorts them
//! (difficulty, number of candidates involved, kind), so the first
//! reported is the one SE applies.

mod advanced;
mod outcome;

use std::collections::VecDeque;
use std::ops::ControlFlow;

use super::chains::{length_added, tenths};
use super::step::{cell_name, unit_name};
use super::{Candidate, Candidates, Sink, Step, Technique};
use crate::grid::Geometry;
use outcome::{key, AncestorCounter, Node, Outcome};

/// Why a candidate is implied on or off: which candidates the
/// implication also relies on in a dynamic chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cause {
    /// The cell's other digits are off (on), or another digit is on (off).
    Cell,
    /// The digit's other places in the unit are off (on), or it is placed
    /// elsewhere in the unit (off).
    Unit(u16),
}

/// Which of SE's chaining producers runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mode {
    /// Nishio: contradictions, dynamic, from X-links only (7.5).
    Nishio,
    /// Cell and region forcing chains on the unchanged grid (8.0).
    Multiple,
    /// Dynamic forcing chains (8.5).
    Dynamic,
    /// Dynamic forcing chains using locked candidates, pairs and X-Wings
    /// when implications run out (9.0).
    DynamicPlus,
}

impl Mode {
    /// Whether chains remove what they turn off (Nishio does too).
    fn dynamic(self) -> bool {
        self != Mode::Multiple
    }

    fn nishio(self) -> bool {
        self == Mode::Nishio
    }

    fn multiple(self) -> bool {
        self != Mode::Nishio
    }

    /// SE's base difficulty, before the length increment.
    fn base(self) -> f64 {
        match self {
            Mode::Nishio => 7.5,
            Mode::Multiple => 8.0,
            Mode::Dynamic => 8.5,
            Mode::DynamicPlus => 9.0,
        }
    }

    fn technique(self) -> Technique {
        match self {
            Mode::Nishio => Technique::Nishio,
            Mode::Multiple => Technique::MultipleForcingChain,
            Mode::Dynamic => Technique::DynamicForcingChain,
            Mode::DynamicPlus => Technique::DynamicForcingChainPlus,
        }
    }

    /// The start of SE's hint names ("Dynamic ", "Nishio ", "").
    fn prefix(self) -> &'static str {
        match self {
            Mode::Nishio => "Nishio ",
            Mode::Multiple => "",
            Mode::Dynamic | Mode::DynamicPlus => "Dynamic ",
        }
    }

    /// The end of SE's hint names.
    fn suffix(self) -> &'static str {
        match self {
            Mode::DynamicPlus => " Chains (+)",
            _ => " Chains",
        }
    }
}

/// What kind of conclusion, with SE's rank among equal difficulty and
/// length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Both states of a candidate imply the same (rank 1).
    Double,
    /// Every digit of a cell implies the same (rank 5).
    Cell,
    /// Every place of a digit in a unit implies the same (rank 6).
    Region,
    /// An assumption implies a contradiction (rank 7).
    Contradiction,
}

impl Kind {
    fn rank(self) -> u8 {
        match self {
            Kind::Double => 1,
            Kind::Cell => 5,
            Kind::Region => 6,
            Kind::Contradiction => 7,
        }
    }
}

/// A conclusion found, before SE's sort.
struct Hint {
    /// SE's difficulty as a double, with its rounding.
    difficulty: f64,
    /// Candidates involved (SE's complexity).
    complexity: usize,
    /// The kind.
    kind: Kind,
    /// The digit placed, when the conclusion is a candidate on.
    placement: Option<Candidate>,
    /// The candidates removed, sorted.
    removable: Vec<Candidate>,
    /// Each branch's labels and main path, to explain the step.
    branches: Vec<(String, Vec<Node>)>,
    /// What the branches start from, in words.
    premise: String,
}

/// SE's chaining producer `mode` on `grid`: every conclusion, easiest
/// first, each once.
pub(super) fn find(grid: &Candidates, mode: Mode, sink: &mut Sink<'_>) -> ControlFlow<()> {
    let mut engine = Engine::new(grid, mode);
    let mut hints = engine.hints();
    hints.sort_by(|a, b| {
        a.difficulty
            .total_cmp(&b.difficulty)
            .then(a.complexity.cmp(&b.complexity))
            .then(a.kind.rank().cmp(&b.kind.rank()))
    });
    let mut reported: Vec<Vec<Candidate>> = Vec::new();
    for hint in hints {
        if reported.contains(&hint.removable) {
            continue;
        }
        reported.push(hint.removable.clone());
        sink(engine.step(hint))?;
    }
    ControlFlow::Continue(())
}

/// The search state over one grid.
struct Engine<'g> {
    grid: &'g Candidates,
    mode: Mode,
    side: usize,
    /// The candidates as the current chain has reduced them (dynamic
    /// modes); equal to the grid's between chains.
    work: Vec<u64>,
    /// Outcomes to reuse.
    pool: Vec<Outcome>,
    /// Ancestor counts.
    counter: AncestorCounter,
    /// Scratch list of "on" implications and their causes.
    implied: Vec<(usize, u8, Cause)>,
    /// Scratch list of "off" implications.
    offs: Vec<(usize, u8)>,
    /// Scratch list of parents.
    parents: Vec<u32>,
}

impl<'g> Engine<'g> {
    fn new(grid: &'g Candidates, mode: Mode) -> Engine<'g> {
        let side = grid.side();
        let keys = grid.cell_count() * side * 2;
        Engine {
            grid,
            mode,
            side,
            work: (0..grid.cell_count()).map(|c| grid.mask(c)).collect(),
            pool: Vec::new(),
            counter: AncestorCounter::new(keys),
            implied: Vec::new(),
            offs: Vec::new(),
            parents: Vec::new(),
        }
    }

    fn geometry(&self) -> &'g Geometry {
        self.grid.geometry()
    }

    /// A cleared outcome from the pool.
    fn outcome(&mut self) -> Outcome {
        let keys = self.grid.cell_count() * self.side * 2;
        self.pool.pop().unwrap_or_else(|| Outcome::new(keys))
    }

    /// Returns an outcome to the pool.
    fn recycle(&mut self, mut outcome: Outcome) {
        outcome.clear(self.side);
        self.pool.push(outcome);
    }

    fn key(&self, cell: usize, digit: u8, on: bool) -> usize {
        key(self.side, cell, digit, on)
    }

    /// SE's `getMultipleChainsHintList`: for each cell (row-major) with
    /// more than two candidates (dynamic: more than one), each digit:
    /// contradictions and double implications, region chains; then the
    /// cell's own forcing chains.
    fn hints(&mut self) -> Vec<Hint> {
        let mut hints = Vec::new();
        let grid = self.grid;
        for cell in grid.empty_cells() {
            let count = grid.count(cell);
            if !(count > 2 || (count > 1 && self.mode.dynamic())) {
                continue;
            }
            let mut by_digit: Vec<(u8, Outcome)> = Vec::new();
            for digit in super::subsets::digits_of(grid.mask(cell)) {
                let on = self.binary(cell, digit, count, &mut hints);
                if !self.mode.nishio() {
                    self.regions(cell, digit, &on, &mut hints);
                }
                by_digit.push((digit, on));
            }
            if !self.mode.nishio() && (count == 2 || self.mode.multiple()) {
                self.cell_reductions(cell, &by_digit, &mut hints);
            }
            for (_, outcome) in by_digit {
                self.recycle(outcome);
            }
        }
        hints
    }

    /// SE's binary chaining from `cell = digit` on and off: the
    /// contradictions each leads to, and (dynamic, three or more digits)
    /// what both imply. The outcome of the "on" assumption.
    fn binary(&mut self, cell: usize, digit: u8, count: u32, hints: &mut Vec<Hint>) -> Outcome {
        let contradictions = self.mode.dynamic() || self.mode.nishio();
        let doubles = count >= 3 && self.mode.dynamic() && !self.mode.nishio();
        let mut on = self.outcome();
        let start = on.create(cell, digit, true, &[]);
        on.insert(self.side, start);
        if let Some((a, b)) = self.chain(&mut on) {
            if contradictions {
                let removable = vec![Candidate::new(cell, digit)];
                self.push_contradiction(hints, &on, (a, b), (cell, digit, true), None, removable);
            }
        }
        let mut off = self.outcome();
        let start = off.create(cell, digit, false, &[]);
        off.insert(self.side, start);
        if let Some((a, b)) = self.chain(&mut off) {
            if contradictions {
                let removable = self.others(cell, digit);
                let placement = Some(Candidate::new(cell, digit));
                self.push_contradiction(
                    hints,
                    &off,
                    (a, b),
                    (cell, digit, false),
                    placement,
                    removable,
                );
            }
        }
        if doubles {
            for i in 0..on.on.len() {
                let from_on = on.on[i];
                let n = *on.node(from_on);
                let k = self.key(n.cell.into(), n.digit, true);
                if let Some(from_off) = off.get(k) {
                    let removable = self.others(n.cell.into(), n.digit);
                    let placement = Some(Candidate::new(n.cell.into(), n.digit));
                    self.push_double(
                        hints,
                        (&on, from_on),
                        (&off, from_off),
                        (cell, digit),
                        placement,
                        removable,
                    );
                }
            }
            for i in 0..on.off.len() {
                let from_on = on.off[i];
                let n = *on.node(from_on);
                let k = self.key(n.cell.into(), n.digit, false);
                if let Some(from_off) = off.get(k) {
                    let removable = vec![Candidate::new(n.cell.into(), n.digit)];
                    self.push_double(
                        hints,
                        (&on, from_on),
                        (&off, from_off),
                        (cell, digit),
                        None,
                        removable,
                    );
                }
            }
        }
        self.recycle(off);
        on
    }

    /// The candidates of `cell` other than `digit`.
    fn others(&self, cell: usize, digit: u8) -> Vec<Candidate> {
        super::subsets::digits_of(self.grid.mask(cell) & !(1u64 << (digit - 1)))
            .map(|d| Candidate::new(cell, d))
            .collect()
    }

    /// Records a contradiction: assuming `start` led to `a` on and `b`
    /// off for the same candidate.
    fn push_contradiction(
        &mut self,
        hints: &mut Vec<Hint>,
        outcome: &Outcome,
        (a, b): (u32, u32),
        (cell, digit, on): (usize, u8, bool),
        placement: Option<Candidate>,
        removable: Vec<Candidate>,
    ) {
        if removable.is_empty() {
            return;
        }
        let complexity =
            self.counter.count(self.side, outcome, a) + self.counter.count(self.side, outcome, b);
        let n = outcome.node(a);
        let target = format!("{}{}", cell_name(self.side, n.cell.into()), n.digit);
        let op = if on { "=" } else { "<>" };
        let assumed = format!("{}{op}{digit}", cell_name(self.side, cell));
        let kind = Kind::Contradiction;
        hints.push(self.hint(
            kind,
            complexity,
            placement,
            removable,
            vec![
                (format!("{target} on"), outcome.path(a)),
                (format!("{target} off"), outcome.path(b)),
            ],
            format!(
                "assuming {assumed} makes {} both true and false",
                cell_name(self.side, n.cell.into())
            ),
        ));
    }

    /// Records a double implication: `start` on and off both imply the
    /// same.
    fn push_double(
        &mut self,
        hints: &mut Vec<Hint>,
        (on, from_on): (&Outcome, u32),
        (off, from_off): (&Outcome, u32),
        (cell, digit): (usize, u8),
        placement: Option<Candidate>,
        removable: Vec<Candidate>,
    ) {
        if removable.is_empty() {
            return;
        }
        let complexity = self.counter.count(self.side, on, from_on)
            + self.counter.count(self.side, off, from_off);
        let name = cell_name(self.side, cell);
        hints.push(self.hint(
            Kind::Double,
            complexity,
            placement,
            removable,
            vec![
                (format!("{name}={digit}"), on.path(from_on)),
                (format!("{name}<>{digit}"), off.path(from_off)),
            ],
            format!("whether {name} is {digit} or not"),
        ));
    }

    /// A hint of this producer.
    fn hint(
        &self,
        kind: Kind,
        complexity: usize,
        placement: Option<Candidate>,
        mut removable: Vec<Candidate>,
        branches: Vec<(String, Vec<Node>)>,
        premise: String,
    ) -> Hint {
        removable.sort_unstable();
        Hint {
            difficulty: self.mode.base() + length_added(complexity),
            complexity,
            kind,
            placement,
            removable,
            branches,
            premise,
        }
    }

    /// SE's region chaining from `cell = digit`: in each unit (box, row,
    /// column) where `cell` is the digit's first place of two (or more),
    /// what every place of the digit implies.
    fn regions(&mut self, cell: usize, digit: u8, on: &Outcome, hints: &mut Vec<Hint>) {
        let geometry = self.geometry();
        let [row, col, bx] = geometry.units_of(cell);
        for unit in [bx, row, col] {
            let unit = usize::from(unit);
            let places = self.grid.positions(unit, digit);
            let count = places.count_ones();
            if !(count == 2 || (self.mode.multiple() && count > 2)) {
                continue;
            }
            let cells = geometry.unit(unit);
            if usize::from(cells[places.trailing_zeros() as usize]) != cell {
                continue;
            }
            let mut others: Vec<(usize, Outcome)> = Vec::new();
            for i in super::candidates::bits(places).skip(1) {
                let other = usize::from(cells[i]);
                let mut outcome = self.outcome();
                let start = outcome.create(other, digit, true, &[]);
                outcome.insert(self.side, start);
                self.chain(&mut outcome);
                others.push((other, outcome));
            }
            for state in [true, false] {
                let list = if state { &on.on } else { &on.off };
                for &id in list {
                    let n = *on.node(id);
                    let k = self.key(n.cell.into(), n.digit, n.on);
                    if others.iter().all(|(_, o)| o.get(k).is_some()) {
                        let (placement, removable) = self.conclusion(&n);
                        if removable.is_empty() {
                            continue;
                        }
                        let mut complexity = self.counter.count(self.side, on, id);
                        let mut branches = vec![(cell_name(self.side, cell), on.path(id))];
                        for (other, o) in &others {
                            let at = o.get(k).expect("checked above");
                            complexity += self.counter.count(self.side, o, at);
                            branches.push((cell_name(self.side, *other), o.path(at)));
                        }
                        let premise =
                            format!("{digit} goes somewhere in {}", unit_name(self.side, unit));
                        hints.push(self.hint(
                            Kind::Region,
                            complexity,
                            placement,
                            removable,
                            branches,
                            premise,
                        ));
                    }
                }
            }
            for (_, outcome) in others {
                self.recycle(outcome);
            }
        }
    }

    /// What concluding node `n` means: a placement and the cell's other
    /// digits removed when on, the candidate removed when off.
    fn conclusion(&self, n: &Node) -> (Option<Candidate>, Vec<Candidate>) {
        let cell = usize::from(n.cell);
        if n.on {
            (
                Some(Candidate::new(cell, n.digit)),
                self.others(cell, n.digit),
            )
        } else {
            (None, vec![Candidate::new(cell, n.digit)])
        }
    }

    /// SE's cell forcing chains: what every digit of `cell` implies.
    fn cell_reductions(&mut self, cell: usize, by_digit: &[(u8, Outcome)], hints: &mut Vec<Hint>) {
        let Some((_, first)) = by_digit.first() else {
            return;
        };
        for state in [true, false] {
            let list = if state { &first.on } else { &first.off };
            for &id in list {
                let n = *first.node(id);
                let k = self.key(n.cell.into(), n.digit, n.on);
                if !by_digit.iter().all(|(_, o)| o.get(k).is_some()) {
                    continue;
                }
                let (placement, removable) = self.conclusion(&n);
                if removable.is_empty() {
                    continue;
                }
                let mut complexity = 0;
                let mut branches = Vec::new();
                for (digit, o) in by_digit {
                    let at = o.get(k).expect("checked above");
                    complexity += self.counter.count(self.side, o, at);
                    branches.push((
                        format!("{}={digit}", cell_name(self.side, cell)),
                        o.path(at),
                    ));
                }
                let premise = format!("{} holds one of its digits", cell_name(self.side, cell));
                hints.push(self.hint(
                    Kind::Cell,
                    complexity,
                    placement,
                    removable,
                    branches,
                    premise,
                ));
            }
        }
    }

    /// SE's `doChaining`: completes `outcome` (its start already in) with
    /// every implication, "on" ones first, breadth first. Returns the
    /// first candidate found both on and off, as (on node, off node).
    fn chain(&mut self, outcome: &mut Outcome) -> Option<(u32, u32)> {
        let mut pending_on: VecDeque<u32> = outcome.on.iter().copied().collect();
        let mut pending_off: VecDeque<u32> = outcome.off.iter().copied().collect();
        let found = loop {
            let contradiction = if let Some(p) = pending_on.pop_front() {
                self.expand_on(outcome, p, &mut pending_off)
            } else if let Some(p) = pending_off.pop_front() {
                self.expand_off(outcome, p, &mut pending_on)
            } else {
                break None;
            };
            if contradiction.is_some() {
                break contradiction;
            }
            if pending_on.is_empty() && pending_off.is_empty() && self.mode == Mode::DynamicPlus {
                pending_off.extend(self.advanced(outcome));
            }
        };
        let grid = self.grid;
        for (cell, mask) in self.work.iter_mut().enumerate() {
            *mask = grid.mask(cell);
        }
        found
    }

    /// Follows "on" node `p`: its peers' and its cell's other candidates
    /// go off. A contradiction when one of them is already on.
    fn expand_on(
        &mut self,
        outcome: &mut Outcome,
        p: u32,
        pending_off: &mut VecDeque<u32>,
    ) -> Option<(u32, u32)> {
        let n = *outcome.node(p);
        self.on_to_off(&n);
        for i in 0..self.offs.len() {
            let (cell, digit) = self.offs[i];
            if let Some(q) = outcome.get(self.key(cell, digit, true)) {
                let off = outcome.create(cell, digit, false, &[p]);
                return Some((q, off));
            }
            if outcome.get(self.key(cell, digit, false)).is_none() {
                let id = outcome.create(cell, digit, false, &[p]);
                outcome.insert(self.side, id);
                pending_off.push_back(id);
            }
        }
        None
    }

    /// Follows "off" node `p`: the last digit of its cell and the last
    /// place of its digit in its units go on (then, in dynamic modes, the
    /// candidate is removed from the grid). A contradiction when one of
    /// them is already off.
    fn expand_off(
        &mut self,
        outcome: &mut Outcome,
        p: u32,
        pending_on: &mut VecDeque<u32>,
    ) -> Option<(u32, u32)> {
        let n = *outcome.node(p);
        self.off_to_on(&n);
        if self.mode.dynamic() {
            self.work[usize::from(n.cell)] &= !(1u64 << (n.digit - 1));
        }
        for i in 0..self.implied.len() {
            let (cell, digit, cause) = self.implied[i];
            self.parents.clear();
            self.parents.push(p);
            self.hidden_parents(outcome, cell, digit, cause);
            if let Some(q) = outcome.get(self.key(cell, digit, false)) {
                let on = outcome.create(cell, digit, true, &self.parents);
                return Some((on, q));
            }
            if outcome.get(self.key(cell, digit, true)).is_none() {
                let id = outcome.create(cell, digit, true, &self.parents);
                outcome.insert(self.side, id);
                pending_on.push_back(id);
            }
        }
        None
    }

    /// SE's `getOnToOff` for on node `n` into `self.offs`, in SE's
    /// order: the cell's other digits (not in Nishio), then the digit's
    /// other places in the box, the row and the column, each once.
    fn on_to_off(&mut self, n: &Node) {
        self.offs.clear();
        let cell = usize::from(n.cell);
        let geometry = self.geometry();
        if !self.mode.nishio() {
            let others = self.work[cell] & !(1u64 << (n.digit - 1));
            for d in super::candidates::bits(others) {
                self.offs.push((cell, d as u8 + 1));
            }
        }
        let bit = 1u64 << (n.digit - 1);
        for &other in geometry.house(cell) {
            let o = usize::from(other);
            if self.work[o] & bit != 0 {
                self.offs.push((o, n.digit));
            }
        }
    }

    /// SE's `getOffToOn` for off node `n` into `self.implied`, in SE's
    /// order: the other digit of a cell left with two (not in Nishio),
    /// then the other place of the digit in the box, the row and the
    /// column when two are left, each once.
    fn off_to_on(&mut self, n: &Node) {
        self.implied.clear();
        let cell = usize::from(n.cell);
        let bit = 1u64 << (n.digit - 1);
        if !self.mode.nishio() && self.work[cell].count_ones() == 2 {
            let other = self.work[cell] & !bit;
            self.implied
                .push((cell, other.trailing_zeros() as u8 + 1, Cause::Cell));
        }
        let geometry = self.geometry();
        let [row, col, bx] = geometry.units_of(cell);
        for unit in [bx, row, col] {
            let mut places = geometry
                .unit(usize::from(unit))
                .iter()
                .map(|&c| usize::from(c))
                .filter(|&c| self.work[c] & bit != 0);
            if let (Some(a), Some(b), None) = (places.next(), places.next(), places.next()) {
                let other = if a == cell { b } else { a };
                if !self
                    .implied
                    .iter()
                    .any(|&(c, d, _)| c == other && d == n.digit)
                {
                    self.implied.push((other, n.digit, Cause::Unit(unit)));
                }
            }
        }
    }

    /// SE's hidden parents of an "on" implication in a dynamic chain: the
    /// candidates the chain removed from the cell (last digit) or from the
    /// unit (last place), which the implication relies on too. The main
    /// parent (`self.parents[0]`, removed just before) is not repeated.
    fn hidden_parents(&mut self, outcome: &Outcome, cell: usize, digit: u8, cause: Cause) {
        if !self.mode.dynamic() {
            return;
        }
        let grid = self.grid;
        match cause {
            Cause::Cell => {
                let gone = grid.mask(cell) & !self.work[cell];
                for d in super::candidates::bits(gone) {
                    let id = outcome.get(self.key(cell, d as u8 + 1, false));
                    if let Some(id) = id.filter(|&id| id != self.parents[0]) {
                        self.parents.push(id);
                    }
                }
            }
            Cause::Unit(unit) => {
                let bit = 1u64 << (digit - 1);
                for &c in self.geometry().unit(usize::from(unit)) {
                    let c = usize::from(c);
                    if grid.mask(c) & bit != 0 && self.work[c] & bit == 0 {
                        let id = outcome.get(self.key(c, digit, false));
                        if let Some(id) = id.filter(|&id| id != self.parents[0]) {
                            self.parents.push(id);
                        }
                    }
                }
            }
        }
    }

    /// SE's `getAdvancedPotentials`: eliminations of the first pattern
    /// rule that finds some in the grid as the chain reduced it, added to
    /// the outcome as "off" nodes (those not there yet). Their ids.
    fn advanced(&mut self, outcome: &mut Outcome) -> Vec<u32> {
        let values: Vec<u8> = (0..self.grid.cell_count())
            .map(|c| self.grid.value(c))
            .collect();
        let source: Vec<u64> = (0..self.grid.cell_count())
            .map(|c| self.grid.mask(c))
            .collect();
        let view = advanced::View {
            geometry: self.geometry(),
            values: &values,
            source: &source,
            current: &self.work,
        };
        let mut added = Vec::new();
        for e in advanced::eliminations(&view) {
            if outcome.get(self.key(e.cell, e.digit, false)).is_some() {
                continue;
            }
            let parents: Vec<u32> = e
                .parents
                .iter()
                .filter_map(|&(c, d)| outcome.get(self.key(c, d, false)))
                .collect();
            let id = outcome.create(e.cell, e.digit, false, &parents);
            outcome.insert(self.side, id);
            added.push(id);
        }
        added
    }

    /// The step reported for `hint`.
    fn step(&self, hint: Hint) -> Step {
        let side = self.side;
        let name = match hint.kind {
            Kind::Contradiction if self.mode.nishio() => "Forcing",
            Kind::Contradiction => "Contradiction Forcing",
            Kind::Double => "Double Forcing",
            Kind::Cell => "Cell Forcing",
            Kind::Region => "Region Forcing",
        };
        let mut cells: Vec<usize> = hint
            .branches
            .iter()
            .flat_map(|(_, path)| path.iter().map(|n| usize::from(n.cell)))
            .collect();
        cells.sort_unstable();
        cells.dedup();
        let branches: Vec<String> = hint
            .branches
            .iter()
            .map(|(label, path)| {
                let chain: Vec<String> = path.iter().map(|n| node_name(side, n)).collect();
                format!("{label}: {}", chain.join(" -> "))
            })
            .collect();
        let (placements, eliminations) = match hint.placement {
            Some(p) => (vec![p], Vec::new()),
            None => (Vec::new(), hint.removable),
        };
        Step {
            technique: self.mode.technique(),
            name: format!("{}{name}{}", self.mode.prefix(), self.mode.suffix()),
            difficulty: tenths(hint.difficulty),
            placements,
            eliminations,
            cells,
            reason: format!("{}; {}", hint.premise, branches.join("; ")),
            side,
        }
    }
}

/// A node's name: `r1c2=5` when on, `r1c2<>5` when off.
fn node_name(side: usize, node: &Node) -> String {
    let op = if node.on { "=" } else { "<>" };
    format!(
        "{}{op}{}",
        cell_name(side, usize::from(node.cell)),
        node.digit
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::test_support::replay;

    /// Positions where SE applies one of these producers: (puzzle, SE's
    /// earlier effects, producer, SE's difficulty in tenths, SE's
    /// effects).
    const SE_STEPS: &[(&str, &str, Mode, u16, &str)] = &[
        (
            "....4...1...2.9..3.731.........8.62..6....83.8.......4.5..1..9.7.16....23.2......",
            "r7c6=2 r1c2<>9 r4c2<>9 r6c2<>9 r6c2<>1 r6c6<>1 r7c9<>6 r8c2<>8 r7c7<>7",
            Mode::Nishio,
            76,
            "r1c8<>8",
        ),
        (
            ".2...6.....758......5....34..8.....3..1735.8....9........8..........175.2....3.1.",
            "r1c4=3 r6c3=2 r6c6=8 r7c7=3 r8c3=3 r2c9=1 r1c5<>7 r4c7<>2 r4c8<>2 r7c1<>6 r7c2<>6 \
             r8c1<>6 r8c2<>6 r9c2<>6 r1c9<>8 r1c9<>9 r6c9<>6 r9c7<>8 r9c9=8 r9c2<>4 r9c2<>9 \
             r9c5<>4 r9c5<>6 r9c5<>9 r7c1<>4 r7c1<>9 r7c2<>4 r7c2<>9 r7c3<>4 r7c6<>4 r2c6<>2 \
             r3c7<>2 r5c7<>4 r4c1<>4 r4c2<>4 r6c1<>4 r6c2<>4 r7c8<>6 r4c8<>4",
            Mode::Multiple,
            82,
            "r9c7<>6",
        ), // Region Forcing Chains: 6 in box 9
        (
            ".....8.294..7.........2.1..85.3..7..6......91.1......85.....4...9...3.....765....",
            "r9c7=9 r3c4<>4 r3c6<>4 r3c1<>7 r3c2<>7 r3c8<>3 r3c8<>5 r3c8<>6 r3c8<>8 r3c9<>3 \
             r3c9<>5 r3c9<>6 r2c2<>8 r2c3<>8 r1c1<>3 r1c2<>3 r1c3<>3 r2c2<>3 r2c3<>3 r9c2<>2 \
             r7c2<>2 r5c4<>4 r5c5<>4 r9c2<>3 r9c8<>3 r3c6<>9 r1c5<>6 r3c2<>6 r3c3<>6 r3c6=6 r6c4<>5",
            Mode::Dynamic,
            89,
            "r8c3<>1",
        ), // Dynamic Region Forcing Chains: 1 in row 8
        (
            "7.....4...2..7..8...3..8..9...5..3...6..2..9...1..7..6...3..9...3..4..6...9..1..5",
            "r9c8=3 r7c1<>4 r7c2<>4 r7c3<>4 r5c1<>4 r2c6<>6 r5c4<>4 r6c5<>8 r2c4<>6 r5c3<>8 \
             r4c6<>9 r7c6<>6",
            Mode::DynamicPlus,
            97,
            "r1c3<>5",
        ), // Dynamic Region Forcing Chains (+): 5 in column 3
    ];

    /// The first step `mode` reports.
    fn first(grid: &Candidates, mode: Mode) -> Option<Step> {
        let mut found = None;
        let _ = find(grid, mode, &mut |step| {
            found = Some(step);
            ControlFlow::Break(())
        });
        found
    }

    #[test]
    fn first_steps_are_se_s() {
        for &(puzzle, before, mode, tenths, effects) in SE_STEPS {
            let grid = replay(puzzle, before);
            let step =
                first(&grid, mode).unwrap_or_else(|| panic!("{mode:?} finds nothing in {puzzle}"));
            assert_eq!(step.outcome().replace(',', ""), effects, "{step}");
            assert_eq!(step.difficulty.0, tenths, "{step}");
        }
    }
}
