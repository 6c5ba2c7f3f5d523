//! The search core of the general solver, generic over the candidate-set width.
//!
//! ## State and invariants
//! `cand[cell]` is the set of digits still possible in `cell`. A cell whose set
//! has one member is *decided*. Every decided cell is either in `queue`
//! (decided but not yet removed from its peers) or *placed* (its digit has been
//! removed from every peer). When `propagate` returns `true` the queue is
//! empty, no set is empty, and every unit can still hold each digit somewhere.
//!
//! ## Search
//! Branching is binary: at the undecided cell with the fewest candidates, the
//! lowest digit `d` is tried first, and the state with `d` removed from that
//! cell is pushed on an explicit stack (`saved`, one full copy of `cand` per
//! level, plus the cell in `saved_cells`). Backtracking pops it. No recursion,
//! and the buffers are kept between puzzles, so a solver allocates only while
//! its stack grows to a new depth.

use super::mask::Mask;
use crate::grid::{Geometry, Shape};
use crate::solver::Outcome;

/// What one round of propagation left: a contradiction, a complete grid, or a
/// cell to branch on.
pub(super) enum Step {
    /// Some cell or unit has no candidate left.
    Contradiction,
    /// Every cell is decided, consistently.
    Solved,
    /// The undecided cell with the fewest candidates.
    Branch(usize),
}

/// Search state and scratch buffers for one shape.
#[derive(Clone, Debug)]
pub(super) struct Engine<M: Mask> {
    shape: Shape,
    /// Every digit of the grid.
    full: M,
    /// Peers of each cell, `peer_count` per cell.
    peers: Vec<u16>,
    peer_count: usize,
    /// The `3N` units, `N` cells each.
    units: Vec<u16>,
    /// Current candidate sets, one per cell.
    cand: Vec<M>,
    /// Decided cells whose digit is not yet removed from their peers.
    queue: Vec<u16>,
    /// Saved states, `N²` sets per level.
    saved: Vec<M>,
    /// The branch cell of each saved level.
    saved_cells: Vec<u16>,
}

impl<M: Mask> Engine<M> {
    pub(super) fn new(shape: Shape) -> Engine<M> {
        let geometry = Geometry::new(shape);
        let cells = shape.cell_count();
        let peer_count = geometry.peers(0).len();
        let peers = (0..cells)
            .flat_map(|c| geometry.peers(c).iter().copied())
            .collect();
        let units = (0..geometry.unit_count())
            .flat_map(|u| geometry.unit(u).iter().copied())
            .collect();
        Engine {
            shape,
            full: M::low_bits(shape.side() as u32),
            peers,
            peer_count,
            units,
            cand: vec![M::EMPTY; cells],
            queue: Vec::with_capacity(cells),
            saved: Vec::new(),
            saved_cells: Vec::new(),
        }
    }

    pub(super) fn shape(&self) -> Shape {
        self.shape
    }

    /// Resets the state to `givens` (0 = blank) with every given queued.
    pub(super) fn load(&mut self, givens: &[u8]) {
        debug_assert_eq!(givens.len(), self.cand.len());
        self.queue.clear();
        self.saved.clear();
        self.saved_cells.clear();
        for (cell, (&v, slot)) in givens.iter().zip(self.cand.iter_mut()).enumerate() {
            if v == 0 {
                *slot = self.full;
            } else {
                *slot = M::bit(v as u32 - 1);
                self.queue.push(cell as u16);
            }
        }
    }

    /// Propagates singles to a fixpoint and says what is left to do.
    pub(super) fn step(&mut self) -> Step {
        if !self.propagate() {
            return Step::Contradiction;
        }
        match self.most_constrained_cell() {
            Some(cell) => Step::Branch(cell),
            None => Step::Solved,
        }
    }

    /// Naked singles (through the queue) and hidden singles (by unit scans),
    /// repeated until neither finds anything. `false` on a contradiction.
    fn propagate(&mut self) -> bool {
        let n = self.shape.side();
        loop {
            while let Some(cell) = self.queue.pop() {
                let digit = self.cand[cell as usize];
                let start = cell as usize * self.peer_count;
                for &peer in &self.peers[start..start + self.peer_count] {
                    let set = self.cand[peer as usize];
                    if set & digit != M::EMPTY {
                        let rest = set & !digit;
                        self.cand[peer as usize] = rest;
                        if rest == M::EMPTY {
                            return false;
                        }
                        if rest.is_single() {
                            self.queue.push(peer);
                        }
                    }
                }
            }
            let mut decided_any = false;
            for unit in self.units.chunks_exact(n) {
                let (mut once, mut twice) = (M::EMPTY, M::EMPTY);
                for &cell in unit {
                    let set = self.cand[cell as usize];
                    twice |= once & set;
                    once |= set;
                }
                if once != self.full {
                    return false;
                }
                let mut hidden = once & !twice;
                while hidden != M::EMPTY {
                    let digit = M::bit(hidden.lowest());
                    hidden = hidden & !digit;
                    for &cell in unit {
                        let set = self.cand[cell as usize];
                        if set & digit != M::EMPTY {
                            if set != digit {
                                self.cand[cell as usize] = digit;
                                self.queue.push(cell);
                                decided_any = true;
                            }
                            break;
                        }
                    }
                }
            }
            if !decided_any {
                return true;
            }
        }
    }

    /// The undecided cell with the fewest candidates, or `None` if all are
    /// decided.
    fn most_constrained_cell(&self) -> Option<usize> {
        let mut best = None;
        let mut best_count = u32::MAX;
        for (cell, set) in self.cand.iter().enumerate() {
            let count = set.count();
            if count > 1 && count < best_count {
                best = Some(cell);
                best_count = count;
                if count == 2 {
                    break;
                }
            }
        }
        best
    }

    /// Candidates of `cell` in the current state.
    pub(super) fn candidates(&self, cell: usize) -> M {
        self.cand[cell]
    }

    /// Writes the decided digits (0 for undecided cells) into `out`.
    pub(super) fn write_grid(&self, out: &mut [u8]) {
        for (slot, set) in out.iter_mut().zip(&self.cand) {
            *slot = if set.is_single() {
                set.lowest() as u8 + 1
            } else {
                0
            };
        }
    }

    /// Tries candidate `choice` of `cell` and saves the alternative.
    fn branch(&mut self, cell: usize, choice: u32) {
        let set = self.cand[cell];
        let digit = M::bit(choice);
        self.saved.extend_from_slice(&self.cand);
        let level = self.saved.len() - self.cand.len();
        self.saved[level + cell] = set & !digit;
        self.saved_cells.push(cell as u16);
        self.cand[cell] = digit;
        self.queue.push(cell as u16);
    }

    /// Restores the newest saved alternative; `false` when none is left.
    fn backtrack(&mut self) -> bool {
        let Some(cell) = self.saved_cells.pop() else {
            return false;
        };
        let level = self.saved.len() - self.cand.len();
        self.cand.copy_from_slice(&self.saved[level..]);
        self.saved.truncate(level);
        self.queue.clear();
        if self.cand[cell as usize].is_single() {
            self.queue.push(cell);
        }
        true
    }

    /// Counts solutions of the loaded state up to `limit`, writing the first
    /// into `solution`. At each branch `choose` picks which candidate of the
    /// cell's set (bit index) is tried first.
    pub(super) fn search(
        &mut self,
        limit: u64,
        mut solution: Option<&mut [u8]>,
        mut choose: impl FnMut(M) -> u32,
    ) -> Outcome {
        let mut outcome = Outcome::default();
        loop {
            match self.step() {
                Step::Branch(cell) => {
                    outcome.guesses += 1;
                    let choice = choose(self.cand[cell]);
                    self.branch(cell, choice);
                    continue;
                }
                Step::Solved => {
                    outcome.solutions += 1;
                    if let Some(out) = solution.take() {
                        self.write_grid(out);
                    }
                    if outcome.solutions >= limit {
                        return outcome;
                    }
                }
                Step::Contradiction => {}
            }
            if !self.backtrack() {
                return outcome;
            }
        }
    }
}
