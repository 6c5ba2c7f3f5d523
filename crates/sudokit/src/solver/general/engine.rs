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

/// How many guesses a deadline-bound search makes between looks at the
/// clock: a guess on a large grid costs microseconds, a clock read tens of
/// nanoseconds, so the check is free and the overshoot small.
pub(super) const GUESSES_PER_CHECK: u64 = 64;

/// What one round of propagation left: a contradiction, a complete grid, or a
/// cell to branch on.
pub(super) enum Step<M> {
    /// Some cell or unit has no candidate left.
    Contradiction,
    /// Every cell is decided, consistently.
    Solved,
    /// Where to guess: a cell and the digits to pick the first guess from
    /// (its candidates, or one digit that has only two places in a unit).
    Branch(usize, M),
}

/// The digits present in at least one of `sets`, and in at least two.
#[inline(always)]
fn tally<M: Mask>(sets: impl Iterator<Item = M>) -> (M, M) {
    sets.fold((M::EMPTY, M::EMPTY), |(once, twice), set| {
        (once | set, twice | (once & set))
    })
}

/// Which unit of a segment locked candidates clear.
#[derive(Clone, Copy)]
enum Target {
    /// The segment's row or column (pointing: confined within a box).
    Line,
    /// The segment's box (claiming: confined within a line).
    Box,
}

/// The intersections of each box with each row and column (*segments*),
/// grouped two ways: the row segments and the column segments of each box, and
/// the segments of each line.
#[derive(Clone, Debug)]
struct Segments {
    /// Cells of every segment, concatenated.
    members: Vec<u16>,
    /// Segment `i` is `members[cells[i]..cells[i + 1]]`.
    cells: Vec<u32>,
    /// The row or column unit of each segment.
    line: Vec<u16>,
    /// The box unit of each segment.
    boxes: Vec<u16>,
    /// Segment numbers, group after group.
    group_members: Vec<u16>,
    /// Group boundaries in `group_members` for the by-box groups.
    by_box: Vec<u32>,
    /// Group boundaries in `group_members` for the by-line groups.
    by_line: Vec<u32>,
}

impl Segments {
    fn new(geometry: &Geometry) -> Segments {
        let n = geometry.shape().side();
        let mut s = Segments {
            members: Vec::new(),
            cells: vec![0],
            line: Vec::new(),
            boxes: Vec::new(),
            group_members: Vec::new(),
            by_box: vec![0],
            by_line: Vec::new(),
        };
        // Segments line by line: rows are units 0..n, columns n..2n.
        let mut of_line = vec![Vec::new(); 2 * n];
        for (line, segments) in of_line.iter_mut().enumerate() {
            let mut seen_boxes: Vec<u16> = Vec::new();
            for &cell in geometry.unit(line) {
                let b = geometry.units_of(cell as usize)[2];
                if !seen_boxes.contains(&b) {
                    seen_boxes.push(b);
                }
            }
            for b in seen_boxes {
                for &cell in geometry.unit(line) {
                    if geometry.units_of(cell as usize)[2] == b {
                        s.members.push(cell);
                    }
                }
                s.cells.push(s.members.len() as u32);
                segments.push(s.line.len() as u16);
                s.line.push(line as u16);
                s.boxes.push(b);
            }
        }
        for b in 2 * n..3 * n {
            for kind in [0..n, n..2 * n] {
                let ids = (0..s.line.len())
                    .filter(|&i| s.boxes[i] as usize == b && kind.contains(&(s.line[i] as usize)));
                s.group_members.extend(ids.map(|i| i as u16));
                s.by_box.push(s.group_members.len() as u32);
            }
        }
        s.by_line.push(s.group_members.len() as u32);
        for segments in &of_line {
            s.group_members.extend_from_slice(segments);
            s.by_line.push(s.group_members.len() as u32);
        }
        s
    }
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
    /// The row, column and box unit of each cell.
    cell_units: Vec<[u16; 3]>,
    /// Box-line intersections, for locked candidates.
    segments: Segments,
    /// Scratch: the union of candidates over each segment.
    segment_union: Vec<M>,
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
        let segments = Segments::new(&geometry);
        Engine {
            segment_union: vec![M::EMPTY; segments.line.len()],
            segments,
            cell_units: (0..cells).map(|c| geometry.units_of(c)).collect(),
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
    pub(super) fn step(&mut self) -> Step<M> {
        if !self.propagate() {
            return Step::Contradiction;
        }
        match self.most_constrained_cell() {
            Some((cell, 2)) => Step::Branch(cell, self.cand[cell]),
            Some((cell, _)) => match self.bilocal_digit() {
                Some((cell, digit)) => Step::Branch(cell, digit),
                None => Step::Branch(cell, self.cand[cell]),
            },
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
                let (once, twice) = tally(unit.iter().map(|&cell| self.cand[cell as usize]));
                if once != self.full {
                    return false;
                }
                let mut hidden = once & !twice;
                while hidden != M::EMPTY {
                    let digit = M::bit(hidden.lowest());
                    hidden &= !digit;
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
            if decided_any {
                continue;
            }
            match self.locked_candidates() {
                None => return false,
                Some(true) => continue,
                Some(false) => return true,
            }
        }
    }

    /// Locked candidates (pointing and claiming): a digit that, within a box,
    /// lies only on one line is removed from the rest of that line, and one
    /// that, within a line, lies only in one box is removed from the rest of
    /// that box. `None` on a contradiction, else whether anything changed.
    fn locked_candidates(&mut self) -> Option<bool> {
        let segments = &self.segments;
        for (union, range) in self.segment_union.iter_mut().zip(segments.cells.windows(2)) {
            *union = segments.members[range[0] as usize..range[1] as usize]
                .iter()
                .fold(M::EMPTY, |acc, &c| acc | self.cand[c as usize]);
        }
        let mut changed = false;
        for (group, target_kind) in [
            (&segments.by_box, Target::Line),
            (&segments.by_line, Target::Box),
        ] {
            for parts in group.windows(2) {
                let ids = &segments.group_members[parts[0] as usize..parts[1] as usize];
                let (once, twice) = tally(ids.iter().map(|&id| self.segment_union[id as usize]));
                let only = once & !twice;
                if only == M::EMPTY {
                    continue;
                }
                for &id in ids {
                    let confined = self.segment_union[id as usize] & only;
                    if confined == M::EMPTY {
                        continue;
                    }
                    let id = id as usize;
                    let (target, keep_unit) = match target_kind {
                        Target::Line => (segments.line[id], segments.boxes[id]),
                        Target::Box => (segments.boxes[id], segments.line[id]),
                    };
                    let n = self.shape.side();
                    let unit = &self.units[target as usize * n..(target as usize + 1) * n];
                    for &cell in unit {
                        let set = self.cand[cell as usize];
                        if set & confined == M::EMPTY
                            || self.cell_units[cell as usize].contains(&keep_unit)
                        {
                            continue;
                        }
                        let rest = set & !confined;
                        self.cand[cell as usize] = rest;
                        if rest == M::EMPTY {
                            return None;
                        }
                        if rest.is_single() {
                            self.queue.push(cell);
                        }
                        changed = true;
                    }
                }
            }
        }
        Some(changed)
    }

    /// The undecided cell with the fewest candidates and their number, or
    /// `None` if all are decided.
    fn most_constrained_cell(&self) -> Option<(usize, u32)> {
        let mut best = None;
        let mut best_count = u32::MAX;
        for (cell, set) in self.cand.iter().enumerate() {
            let count = set.count();
            if count > 1 && count < best_count {
                best = Some((cell, count));
                best_count = count;
                if count == 2 {
                    break;
                }
            }
        }
        best
    }

    /// A digit with exactly two places left in some unit, as (its first
    /// place, the digit): guessing there splits the search in two, like a
    /// bivalue cell, when no cell has only two candidates.
    fn bilocal_digit(&self) -> Option<(usize, M)> {
        let n = self.shape.side();
        for unit in self.units.chunks_exact(n) {
            let (mut once, mut twice, mut thrice) = (M::EMPTY, M::EMPTY, M::EMPTY);
            for &cell in unit {
                let set = self.cand[cell as usize];
                if set.is_single() {
                    continue;
                }
                thrice |= twice & set;
                twice |= once & set;
                once |= set;
            }
            let pairs = twice & !thrice;
            if pairs != M::EMPTY {
                let digit = M::bit(pairs.lowest());
                let cell = unit
                    .iter()
                    .find(|&&c| self.cand[c as usize] & digit != M::EMPTY)?;
                return Some((*cell as usize, digit));
            }
        }
        None
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
        solution: Option<&mut [u8]>,
        choose: impl FnMut(M) -> u32,
    ) -> Outcome {
        self.search_until(limit, solution, choose, || false)
            .unwrap_or_default()
    }

    /// As [`Engine::search`], but asks `give_up` every
    /// [`GUESSES_PER_CHECK`] guesses whether to stop, and then returns `None`.
    pub(super) fn search_until(
        &mut self,
        limit: u64,
        mut solution: Option<&mut [u8]>,
        mut choose: impl FnMut(M) -> u32,
        mut give_up: impl FnMut() -> bool,
    ) -> Option<Outcome> {
        let mut outcome = Outcome::default();
        loop {
            match self.step() {
                Step::Branch(cell, digits) => {
                    outcome.guesses += 1;
                    if outcome.guesses % GUESSES_PER_CHECK == 0 && give_up() {
                        return None;
                    }
                    let choice = choose(digits);
                    self.branch(cell, choice);
                    continue;
                }
                Step::Solved => {
                    outcome.solutions += 1;
                    if let Some(out) = solution.take() {
                        self.write_grid(out);
                    }
                    if outcome.solutions >= limit {
                        return Some(outcome);
                    }
                }
                Step::Contradiction => {}
            }
            if !self.backtrack() {
                return Some(outcome);
            }
        }
    }
}
