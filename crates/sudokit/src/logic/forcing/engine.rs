//! [`Engine`]: SE's `getMultipleChainsHintList` and `doChaining` over one
//! grid — every assumption's implications and the conclusions they give.

use super::advanced;
use super::outcome::{key, AncestorWalk, Cause, Node, Outcome, NONE};
use super::reuse::{Chained, OnChains};
use super::{Hint, Kind, Mode, Premise};
use crate::budget::Budget;
use crate::grid::Geometry;
use crate::logic::chains::length_added;
use crate::logic::{Candidate, Candidates};

/// A nested chain used by the outer chains: its complexity and identity.
#[derive(Clone, Copy, Debug)]
struct NestedRef {
    complexity: usize,
    fingerprint: u64,
}

/// The search state over one grid.
pub(super) struct Engine<'g> {
    /// The grid searched.
    grid: &'g Candidates,
    /// When to give up.
    budget: &'g Budget,
    mode: Mode,
    side: usize,
    /// In a nested search: the candidates the outer chain started from
    /// (the grid is the outer chain's reduced grid).
    initial: Option<&'g [u64]>,
    /// The candidates as the current chain has reduced them (dynamic
    /// modes); equal to the grid's between chains.
    work: Vec<u64>,
    /// The positions of each digit in each unit (`unit × side + digit −
    /// 1`) as the current chain has reduced them, like `work`.
    places: Vec<u64>,
    /// For each cell's house (SE's order, [`Geometry::house`]), the unit
    /// through which each peer sees the cell: the box, else the row, else
    /// the column.
    house_units: Vec<u16>,
    /// Ancestor walks.
    walk: AncestorWalk,
    /// Scratch list of "on" implications and their causes.
    implied: Vec<(usize, u8, Cause)>,
    /// Scratch list of "off" implications and their causes.
    offs: Vec<(usize, u8, Cause)>,
    /// Scratch list of parents.
    parents: Vec<u32>,
    /// Nested chains the chains rely on (`Cause::Advanced` indexes).
    nested: Vec<NestedRef>,
    /// The grid's placed digits (0 = empty).
    values: Vec<u8>,
    /// The grid's candidates.
    base: Vec<u64>,
    /// Chains from candidates on, kept for their next use.
    reuse: OnChains,
}

impl<'g> Engine<'g> {
    /// A search of `mode` over `grid`; `initial` for a nested search (see
    /// [`Engine::initial`]).
    pub fn new(
        grid: &'g Candidates,
        mode: Mode,
        initial: Option<&'g [u64]>,
        budget: &'g Budget,
    ) -> Engine<'g> {
        let side = grid.side();
        let keys = grid.cell_count() * side * 2;
        Engine {
            grid,
            budget,
            mode,
            side,
            initial,
            work: (0..grid.cell_count()).map(|c| grid.mask(c)).collect(),
            places: grid.all_positions().to_vec(),
            house_units: house_units(grid.geometry()),
            walk: AncestorWalk::new(keys),
            implied: Vec::new(),
            offs: Vec::new(),
            parents: Vec::new(),
            nested: Vec::new(),
            values: grid.values().to_vec(),
            base: (0..grid.cell_count()).map(|c| grid.mask(c)).collect(),
            reuse: OnChains::new(grid.cell_count() * side, keys),
        }
    }

    fn geometry(&self) -> &'g Geometry {
        self.grid.geometry()
    }

    /// A cleared outcome, one the thread kept when it has one.
    fn outcome(&mut self) -> Outcome {
        Outcome::take(self.grid.cell_count() * self.side * 2)
    }

    /// Gives an outcome back to the thread for the next chain.
    fn recycle(&mut self, outcome: Outcome) {
        outcome.give_back(self.side);
    }

    fn key(&self, cell: usize, digit: u8, on: bool) -> usize {
        key(self.side, cell, digit, on)
    }

    /// SE's `getMultipleChainsHintList`: for each cell (row-major) with
    /// more than two candidates (dynamic: more than one), each digit:
    /// contradictions and double implications, region chains; then the
    /// cell's own forcing chains.
    pub fn hints(&mut self) -> Vec<Hint> {
        let mut hints = Vec::new();
        let grid = self.grid;
        self.plan_reuse();
        for cell in grid.empty_cells() {
            if self.budget.is_spent() {
                break;
            }
            if !self.starts_from(cell) {
                continue;
            }
            let count = grid.count(cell);
            let mut by_digit: Vec<(u8, Chained)> = Vec::new();
            for digit in crate::logic::subsets::digits_of(grid.mask(cell)) {
                let on = self.binary(cell, digit, count, &mut hints);
                if !self.mode.nishio() {
                    self.regions(cell, digit, &on.0, &mut hints);
                }
                by_digit.push((digit, on));
            }
            if !self.mode.nishio() && (count == 2 || self.mode.multiple()) {
                self.cell_reductions(cell, &by_digit, &mut hints);
            }
            for (digit, chained) in by_digit {
                self.done_with(cell, digit, cell, chained);
            }
            for outcome in self.reuse.release(cell) {
                self.recycle(outcome);
            }
        }
        hints
    }

    /// Whether the search starts chains from `cell`: more than two
    /// candidates, or (dynamic) more than one.
    fn starts_from(&self, cell: usize) -> bool {
        let count = self.grid.count(cell);
        count > 2 || (count > 1 && self.mode.dynamic())
    }

    /// The units (box, row, column) whose region chains start at `cell`
    /// for `digit`, with the digit's places there: those where `cell` is
    /// the first of two places (or more, for multiple chains).
    fn region_units(&self, cell: usize, digit: u8) -> impl Iterator<Item = (usize, u64)> + 'g {
        let grid = self.grid;
        let geometry = grid.geometry();
        let multiple = self.mode.multiple();
        let [row, col, bx] = geometry.units_of(cell);
        [bx, row, col].into_iter().filter_map(move |unit| {
            let unit = usize::from(unit);
            let places = grid.positions(unit, digit);
            let count = places.count_ones();
            let first = usize::from(geometry.unit(unit)[places.trailing_zeros() as usize]);
            ((count == 2 || (multiple && count > 2)) && first == cell).then_some((unit, places))
        })
    }

    /// Tells the cache of chains from candidates on which cell's search
    /// uses each last.
    fn plan_reuse(&mut self) {
        let grid = self.grid;
        for cell in grid.empty_cells() {
            if !self.starts_from(cell) {
                continue;
            }
            for digit in crate::logic::subsets::digits_of(grid.mask(cell)) {
                self.reuse.will_use(self.candidate(cell, digit), cell);
                if self.mode.nishio() {
                    continue;
                }
                for (unit, places) in self.region_units(cell, digit) {
                    for i in crate::logic::candidates::bits(places).skip(1) {
                        let other = usize::from(grid.geometry().unit(unit)[i]);
                        self.reuse.will_use(self.candidate(other, digit), cell);
                    }
                }
            }
        }
    }

    /// The index of candidate `cell = digit` in the cache.
    fn candidate(&self, cell: usize, digit: u8) -> usize {
        cell * self.side + usize::from(digit) - 1
    }

    /// Everything `cell = digit` implies, and the contradiction it leads
    /// to: kept from an earlier use or followed now.
    fn on_chain(&mut self, cell: usize, digit: u8) -> Chained {
        if let Some(kept) = self.reuse.take(self.candidate(cell, digit)) {
            return kept;
        }
        let mut on = self.outcome();
        let start = on.create(cell, digit, true, Cause::Assumed, &[]);
        on.insert(self.side, start);
        let contradiction = self.chain(&mut on);
        (on, contradiction)
    }

    /// Keeps the chain of `cell = digit`, used in the search of cell
    /// `at`, for a later use, or recycles it.
    fn done_with(&mut self, cell: usize, digit: u8, at: usize, chained: Chained) {
        if let Some(outcome) = self.reuse.keep(self.candidate(cell, digit), at, chained) {
            self.recycle(outcome);
        }
    }

    /// SE's binary chaining from `cell = digit` on and off: the
    /// contradictions each leads to, and (dynamic, three or more digits)
    /// what both imply. The chain of the "on" assumption.
    fn binary(&mut self, cell: usize, digit: u8, count: u32, hints: &mut Vec<Hint>) -> Chained {
        let contradictions = self.mode.dynamic() || self.mode.nishio();
        let doubles = count >= 3 && self.mode.dynamic() && !self.mode.nishio();
        let (on, contradiction) = self.on_chain(cell, digit);
        if let Some((a, b)) = contradiction {
            if contradictions {
                let removable = vec![Candidate::new(cell, digit)];
                let premise = Premise::Contradiction {
                    cell,
                    digit,
                    on: true,
                };
                let targets = [(&on, a), (&on, b)];
                self.conclude(
                    hints,
                    Kind::Contradiction,
                    premise,
                    &targets,
                    None,
                    removable,
                );
            }
        }
        let mut off = self.outcome();
        let start = off.create(cell, digit, false, Cause::Assumed, &[]);
        off.insert(self.side, start);
        if let Some((a, b)) = self.chain(&mut off) {
            if contradictions {
                let removable = self.others(cell, digit);
                let placement = Some(Candidate::new(cell, digit));
                let premise = Premise::Contradiction {
                    cell,
                    digit,
                    on: false,
                };
                let targets = [(&off, a), (&off, b)];
                self.conclude(
                    hints,
                    Kind::Contradiction,
                    premise,
                    &targets,
                    placement,
                    removable,
                );
            }
        }
        if doubles {
            let premise = Premise::Double { cell, digit };
            for state in [true, false] {
                let list = if state { &on.on } else { &on.off };
                for &from_on in list {
                    let n = *on.node(from_on);
                    let Some(from_off) = off.get(self.key(n.cell.into(), n.digit, state)) else {
                        continue;
                    };
                    let (placement, removable) = self.conclusion(&n);
                    let targets = [(&on, from_on), (&off, from_off)];
                    self.conclude(hints, Kind::Double, premise, &targets, placement, removable);
                }
            }
        }
        self.recycle(off);
        (on, contradiction)
    }

    /// The candidates of `cell` other than `digit`.
    fn others(&self, cell: usize, digit: u8) -> Vec<Candidate> {
        crate::logic::subsets::digits_of(self.grid.mask(cell) & !(1u64 << (digit - 1)))
            .map(|d| Candidate::new(cell, d))
            .collect()
    }

    /// Records a conclusion whose chains end at `targets`, unless it
    /// removes nothing: its complexity (the targets' distinct ancestors,
    /// plus each distinct nested chain they rely on), and in a nested
    /// search what it relies on that the outer chain removed.
    fn conclude(
        &mut self,
        hints: &mut Vec<Hint>,
        kind: Kind,
        premise: Premise,
        targets: &[(&Outcome, u32)],
        placement: Option<Candidate>,
        mut removable: Vec<Candidate>,
    ) {
        if removable.is_empty() {
            return;
        }
        removable.sort_unstable();
        let side = self.side;
        let mut complexity = 0;
        let mut nested: Vec<u32> = Vec::new();
        let mut fingerprint = 0xcbf2_9ce4_8422_2325u64;
        for &(outcome, id) in targets {
            complexity += self.walk.visit(side, outcome, id, |at| {
                let n = outcome.node(at);
                if let Cause::Advanced(index) = n.cause {
                    if index != NONE {
                        nested.push(index);
                    }
                }
                let k = key(side, usize::from(n.cell), n.digit, n.on) as u64;
                fingerprint = (fingerprint ^ k).wrapping_mul(0x0100_0000_01b3);
            });
            fingerprint = (fingerprint ^ u64::MAX).wrapping_mul(0x0100_0000_01b3);
        }
        let mut counted: Vec<u64> = Vec::new();
        for index in nested {
            let chain = self.nested[index as usize];
            if !counted.contains(&chain.fingerprint) {
                counted.push(chain.fingerprint);
                complexity += chain.complexity;
            }
        }
        let (branches, parents) = match self.initial {
            None => (
                targets.iter().map(|&(o, id)| o.path(id)).collect(),
                Vec::new(),
            ),
            Some(initial) => (
                Vec::new(),
                self.rule_parents(initial, kind, premise, targets),
            ),
        };
        hints.push(Hint {
            difficulty: self.mode.base() + length_added(complexity),
            complexity,
            kind,
            placement,
            removable,
            premise,
            branches,
            parents,
            fingerprint,
        });
    }

    /// SE's `getRuleParents` of a nested conclusion: for each "on"
    /// candidate of its chains, the candidates the outer chain removed
    /// (present in `initial`, gone from this grid) from the cell it is
    /// the last digit of, or from the unit it is the last place in.
    fn rule_parents(
        &mut self,
        initial: &[u64],
        kind: Kind,
        premise: Premise,
        targets: &[(&Outcome, u32)],
    ) -> Vec<(usize, u8)> {
        let side = self.side;
        let grid = self.grid;
        let geometry = grid.geometry();
        let mut found: Vec<(usize, u8)> = Vec::new();
        for &(outcome, id) in targets {
            self.walk.visit(side, outcome, id, |at| {
                let n = outcome.node(at);
                if !n.on {
                    return;
                }
                let cause = match (n.cause, kind, premise) {
                    (Cause::Assumed, Kind::Cell, _) => Cause::Cell,
                    (Cause::Assumed, Kind::Region, Premise::Region { unit, .. }) => {
                        Cause::Unit(unit as u16)
                    }
                    (cause, ..) => cause,
                };
                let cell = usize::from(n.cell);
                let mut add = |c: usize, d: u8| {
                    if !found.contains(&(c, d)) {
                        found.push((c, d));
                    }
                };
                match cause {
                    Cause::Cell => {
                        for d in crate::logic::candidates::bits(initial[cell] & !grid.mask(cell)) {
                            add(cell, d as u8 + 1);
                        }
                    }
                    Cause::Unit(unit) => {
                        let bit = 1u64 << (n.digit - 1);
                        for &c in geometry.unit(usize::from(unit)) {
                            let c = usize::from(c);
                            if initial[c] & bit != 0 && grid.mask(c) & bit == 0 {
                                add(c, n.digit);
                            }
                        }
                    }
                    Cause::Assumed | Cause::Advanced(_) => {}
                }
            });
        }
        found
    }

    /// SE's region chaining from `cell = digit`: in each unit (box, row,
    /// column) where `cell` is the digit's first place of two (or more),
    /// what every place of the digit implies.
    fn regions(&mut self, cell: usize, digit: u8, on: &Outcome, hints: &mut Vec<Hint>) {
        let geometry = self.geometry();
        for (unit, places) in self.region_units(cell, digit) {
            let cells = geometry.unit(unit);
            let mut others: Vec<(usize, Chained)> = Vec::new();
            for i in crate::logic::candidates::bits(places).skip(1) {
                let other = usize::from(cells[i]);
                others.push((other, self.on_chain(other, digit)));
            }
            for state in [true, false] {
                let list = if state { &on.on } else { &on.off };
                for &id in list {
                    let n = *on.node(id);
                    let k = self.key(n.cell.into(), n.digit, n.on);
                    if others.iter().all(|(_, (o, _))| o.get(k).is_some()) {
                        let (placement, removable) = self.conclusion(&n);
                        let mut targets = vec![(on, id)];
                        for (_, (o, _)) in &others {
                            targets.push((o, o.get(k).expect("checked above")));
                        }
                        let premise = Premise::Region { unit, digit };
                        self.conclude(hints, Kind::Region, premise, &targets, placement, removable);
                    }
                }
            }
            for (other, chained) in others {
                self.done_with(other, digit, cell, chained);
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
    fn cell_reductions(&mut self, cell: usize, by_digit: &[(u8, Chained)], hints: &mut Vec<Hint>) {
        let Some((_, (first, _))) = by_digit.first() else {
            return;
        };
        for state in [true, false] {
            let list = if state { &first.on } else { &first.off };
            for &id in list {
                let n = *first.node(id);
                let k = self.key(n.cell.into(), n.digit, n.on);
                if !by_digit.iter().all(|(_, (o, _))| o.get(k).is_some()) {
                    continue;
                }
                let (placement, removable) = self.conclusion(&n);
                let targets: Vec<(&Outcome, u32)> = by_digit
                    .iter()
                    .map(|(_, (o, _))| (o, o.get(k).expect("checked above")))
                    .collect();
                let premise = Premise::Cell { cell };
                self.conclude(hints, Kind::Cell, premise, &targets, placement, removable);
            }
        }
    }

    /// SE's `doChaining`: completes `outcome` (its start already in) with
    /// every implication, "on" ones first, breadth first. Returns the
    /// first candidate found both on and off, as (on node, off node).
    fn chain(&mut self, outcome: &mut Outcome) -> Option<(u32, u32)> {
        // Every node joins its set and the end of its queue at once, so
        // each queue is its set from a read position on.
        let (mut next_on, mut next_off) = (0, 0);
        let found = loop {
            let contradiction = if next_on < outcome.on.len() {
                next_on += 1;
                self.expand_on(outcome, outcome.on[next_on - 1])
            } else if next_off < outcome.off.len() {
                next_off += 1;
                self.expand_off(outcome, outcome.off[next_off - 1])
            } else {
                break None;
            };
            if contradiction.is_some() {
                break contradiction;
            }
            let idle = next_on == outcome.on.len() && next_off == outcome.off.len();
            if idle && self.mode.level() > 0 {
                self.advanced(outcome);
            }
        };
        if self.mode.dynamic() {
            let grid = self.grid;
            for (cell, mask) in self.work.iter_mut().enumerate() {
                *mask = grid.mask(cell);
            }
            self.places.copy_from_slice(grid.all_positions());
        }
        found
    }

    /// Removes `digit` from `cell` in the chain's reduced grid.
    fn remove(&mut self, cell: usize, digit: u8) {
        let d = usize::from(digit) - 1;
        self.work[cell] &= !(1u64 << d);
        let units = self.geometry().units_of(cell);
        for (unit, slot) in units.into_iter().zip(self.grid.slots(cell)) {
            self.places[usize::from(unit) * self.side + d] &= !(1u64 << slot);
        }
    }

    /// Follows "on" node `p`: its peers' and its cell's other candidates
    /// go off. A contradiction when one of them is already on.
    fn expand_on(&mut self, outcome: &mut Outcome, p: u32) -> Option<(u32, u32)> {
        let n = *outcome.node(p);
        self.on_to_off(&n);
        for i in 0..self.offs.len() {
            let (cell, digit, cause) = self.offs[i];
            if let Some(q) = outcome.get(self.key(cell, digit, true)) {
                let off = outcome.create(cell, digit, false, cause, &[p]);
                return Some((q, off));
            }
            if outcome.get(self.key(cell, digit, false)).is_none() {
                let id = outcome.create(cell, digit, false, cause, &[p]);
                outcome.insert(self.side, id);
            }
        }
        None
    }

    /// Follows "off" node `p`: the last digit of its cell and the last
    /// place of its digit in its units go on (then, in dynamic modes, the
    /// candidate is removed from the grid). A contradiction when one of
    /// them is already off.
    fn expand_off(&mut self, outcome: &mut Outcome, p: u32) -> Option<(u32, u32)> {
        let n = *outcome.node(p);
        self.off_to_on(&n);
        if self.mode.dynamic() {
            self.remove(usize::from(n.cell), n.digit);
        }
        for i in 0..self.implied.len() {
            let (cell, digit, cause) = self.implied[i];
            self.parents.clear();
            self.parents.push(p);
            self.hidden_parents(outcome, cell, digit, cause);
            if let Some(q) = outcome.get(self.key(cell, digit, false)) {
                let on = outcome.create(cell, digit, true, cause, &self.parents);
                return Some((on, q));
            }
            if outcome.get(self.key(cell, digit, true)).is_none() {
                let id = outcome.create(cell, digit, true, cause, &self.parents);
                outcome.insert(self.side, id);
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
            for d in crate::logic::candidates::bits(others) {
                self.offs.push((cell, d as u8 + 1, Cause::Cell));
            }
        }
        let bit = 1u64 << (n.digit - 1);
        let peers = geometry.house(cell).iter();
        let start = cell * peers.len();
        for (&other, &unit) in peers.zip(&self.house_units[start..]) {
            let o = usize::from(other);
            if self.work[o] & bit != 0 {
                self.offs.push((o, n.digit, Cause::Unit(unit)));
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
        let [row_slot, col_slot, box_slot] = self.grid.slots(cell);
        let d = usize::from(n.digit) - 1;
        for (unit, slot) in [(bx, box_slot), (row, row_slot), (col, col_slot)] {
            let places = self.places[usize::from(unit) * self.side + d];
            if places.count_ones() != 2 {
                continue;
            }
            let (a, b) = (places.trailing_zeros(), 63 - places.leading_zeros());
            let other_slot = if a == u32::from(slot) { b } else { a };
            let other = usize::from(geometry.unit(usize::from(unit))[other_slot as usize]);
            if !self
                .implied
                .iter()
                .any(|&(c, d, _)| c == other && d == n.digit)
            {
                self.implied.push((other, n.digit, Cause::Unit(unit)));
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
                for d in crate::logic::candidates::bits(gone) {
                    let id = outcome.get(self.key(cell, d as u8 + 1, false));
                    if let Some(id) = id.filter(|&id| id != self.parents[0]) {
                        self.parents.push(id);
                    }
                }
            }
            Cause::Unit(unit) => {
                let unit = usize::from(unit);
                let index = unit * self.side + usize::from(digit) - 1;
                let gone = grid.all_positions()[index] & !self.places[index];
                for slot in crate::logic::candidates::bits(gone) {
                    let c = usize::from(self.geometry().unit(unit)[slot]);
                    let id = outcome.get(self.key(c, digit, false));
                    if let Some(id) = id.filter(|&id| id != self.parents[0]) {
                        self.parents.push(id);
                    }
                }
            }
            Cause::Assumed | Cause::Advanced(_) => {}
        }
    }

    /// SE's `getAdvancedPotentials`: the eliminations of the first rule,
    /// in SE's order, that finds some relying on what the chain removed —
    /// locked candidates, hidden and naked pairs, X-Wings, then (nested
    /// levels) whole chain searches in the reduced grid — added to the
    /// outcome as "off" nodes (those not there yet).
    fn advanced(&mut self, outcome: &mut Outcome) {
        let view = advanced::View::new(
            self.geometry(),
            &self.values,
            (&self.base, self.grid.all_positions()),
            (&self.work, &self.places),
        );
        let mut found: Vec<(advanced::Elimination, u32)> = advanced::eliminations(&view)
            .into_iter()
            .map(|e| (e, NONE))
            .collect();
        if found.is_empty() && self.mode.level() >= 2 {
            let reduced = self.grid.with_masks(&self.work);
            let producers: &[Option<Mode>] = match self.mode.level() {
                2 => &[None],
                3 => &[None, Some(Mode::Multiple)],
                4 => &[Some(Mode::Dynamic(0))],
                _ => &[Some(Mode::Dynamic(0)), Some(Mode::Dynamic(2))],
            };
            for &producer in producers {
                let hints = match producer {
                    None => crate::logic::chains::nested_hints(&reduced, &self.base, self.budget),
                    Some(mode) => super::nested_hints(&reduced, mode, &self.base, self.budget),
                };
                for hint in hints.into_iter().filter(|h| !h.parents.is_empty()) {
                    self.nested.push(NestedRef {
                        complexity: hint.complexity,
                        fingerprint: hint.fingerprint,
                    });
                    let index = (self.nested.len() - 1) as u32;
                    for c in &hint.removable {
                        let elimination = advanced::Elimination {
                            cell: c.cell,
                            digit: c.digit,
                            parents: hint.parents.clone(),
                        };
                        found.push((elimination, index));
                    }
                }
                if !found.is_empty() {
                    break;
                }
            }
        }
        for (
            advanced::Elimination {
                cell,
                digit,
                parents,
            },
            index,
        ) in found
        {
            if outcome.get(self.key(cell, digit, false)).is_some() {
                continue;
            }
            let parents: Vec<u32> = parents
                .iter()
                .filter_map(|&(c, d)| outcome.get(self.key(c, d, false)))
                .collect();
            let id = outcome.create(cell, digit, false, Cause::Advanced(index), &parents);
            outcome.insert(self.side, id);
        }
    }
}

/// For every cell, the unit through which each peer of its house (SE's
/// order) sees it: the box when they share it, else the row, else the
/// column — as SE names the link.
fn house_units(geometry: &crate::grid::Geometry) -> Vec<u16> {
    let mut units = Vec::new();
    for cell in 0..geometry.shape().cell_count() {
        let [row, _, bx] = geometry.units_of(cell);
        for &other in geometry.house(cell) {
            let [o_row, o_col, o_box] = geometry.units_of(usize::from(other));
            units.push(if o_box == bx {
                bx
            } else if o_row == row {
                row
            } else {
                o_col
            });
        }
    }
    units
}
