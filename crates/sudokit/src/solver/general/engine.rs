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
//! Branching is binary: at the undecided cell with the fewest candidates per
//! unit of conflict weight (dom/wdeg, see [`Engine::branch_cell`]; exact
//! counts take the first bivalue cell), the caller's choice of digit `d`
//! (the lowest, or a random one) is tried first, and the state with `d`
//! removed from that cell is pushed on an explicit stack (`saved`, one full
//! copy of `cand` per level, plus the cell in `saved_cells`). Backtracking
//! pops it. No recursion, and the buffers are kept between puzzles, so a
//! solver allocates only while its stack grows to a new depth.
//!
//! ## Propagation is incremental
//! Every change to a cell marks its three units; hidden singles and locked
//! candidates look only at units marked since they last ran, so a guess on a
//! large grid costs work near the cells it changed, not a scan of the grid.
//!
//! ## Restarts
//! Searches for a few solutions (the analyzer's count up to 2) start over
//! when a run passes its guess budget, in a random order with twice the
//! budget (see [`Engine::search_until`]), keeping the conflict weights the
//! earlier runs learned.

use super::mask::Mask;
use crate::grid::{Geometry, Shape};
use crate::solver::Outcome;

/// How many guesses a deadline-bound search makes between looks at the
/// clock: a guess on a large grid costs microseconds, a clock read tens of
/// nanoseconds, so the check is free and the overshoot small.
pub(super) const GUESSES_PER_CHECK: u64 = 64;

/// Guesses the first (deterministic) run of a restarting search may make
/// before it starts over; each later run may make twice as many as the one
/// before. Almost every puzzle finishes within the first run.
pub(super) const FIRST_RUN_GUESSES: u64 = 1 << 10;

/// The largest solution limit searched with restarts (restarted runs find
/// the same solutions again, so the ones found are kept to tell them apart).
/// Larger limits, exact counts, search once.
pub const RESTART_LIMIT: u64 = 16;

/// How a run of the search ended.
enum RunEnd {
    /// The run searched everything: this many solutions (at most the limit).
    Complete(u64),
    /// The run used up its guesses.
    CutOff,
    /// The caller gave up.
    GaveUp,
}

/// What one round of propagation left: a contradiction, a complete grid, or a
/// cell to branch on.
pub(super) enum Step {
    /// Some cell or unit has no candidate left.
    Contradiction,
    /// Every cell is decided, consistently.
    Solved,
    /// Where to guess: an undecided cell.
    Branch(usize),
}

/// The digits present in at least one of `sets`, and in at least two.
#[inline(always)]
fn tally<M: Mask>(sets: impl Iterator<Item = M>) -> (M, M) {
    sets.fold((M::EMPTY, M::EMPTY), |(once, twice), set| {
        (once | set, twice | (once & set))
    })
}

/// A set of units (at most `3 · 64`), for the units whose cells changed
/// since a rule last looked at them.
#[derive(Clone, Copy, Debug, Default)]
struct UnitSet([u64; 3]);

impl UnitSet {
    /// Every unit of a grid with `count` units.
    fn all(count: usize) -> UnitSet {
        let mut set = UnitSet::default();
        for unit in 0..count {
            set.insert(unit);
        }
        set
    }

    #[inline(always)]
    fn insert(&mut self, unit: usize) {
        self.0[unit / 64] |= 1 << (unit % 64);
    }

    fn is_empty(&self) -> bool {
        self.0 == [0; 3]
    }

    /// The members, lowest first.
    fn iter(self) -> impl Iterator<Item = usize> {
        (0..3).flat_map(move |w| {
            let mut bits = self.0[w];
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let b = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    w * 64 + b
                })
            })
        })
    }
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
    /// Units with a cell changed since hidden singles last scanned them.
    unscanned: UnitSet,
    /// Units with a cell changed since locked candidates last looked at them.
    unlocked: UnitSet,
    /// Saved states, `N²` sets per level.
    saved: Vec<M>,
    /// The branch cell of each saved level.
    saved_cells: Vec<u16>,
    /// Where the search for a branch cell starts (it breaks ties): 0 in a
    /// deterministic run, random in restarted ones.
    scan_start: usize,
    /// Guesses the first run of a restarting search may make.
    first_run_guesses: u64,
    /// State of the generator that randomises restarted runs.
    rng: u64,
    /// Distinct solutions found so far, one grid of digits after another.
    found: Vec<u8>,
    /// Conflict weight of each unit for [`Engine::branch_cell`]: 1, plus
    /// one for each contradiction met in the unit (a digit with no place
    /// left, or a cell of it with no candidate left) since the search for the
    /// current puzzle began. Kept across restarts: it is what a cut-off run
    /// learned about where the puzzle is hard.
    weight: Vec<u32>,
    /// Whether the branch cell is chosen by conflict weight (searches that
    /// restart) or is the first bivalue cell met (exact counts, which visit
    /// the whole tree anyway and gain nothing from the longer scan).
    weighted: bool,
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
            unscanned: UnitSet::default(),
            unlocked: UnitSet::default(),
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
            scan_start: 0,
            first_run_guesses: FIRST_RUN_GUESSES,
            rng: 0,
            found: Vec::new(),
            weight: vec![1; 3 * shape.side()],
            weighted: false,
        }
    }

    /// Sets the guesses the first run of a restarting search may make.
    pub(super) fn set_first_run_guesses(&mut self, guesses: u64) {
        self.first_run_guesses = guesses.max(1);
    }

    pub(super) fn shape(&self) -> Shape {
        self.shape
    }

    /// Starts a new puzzle's search: forgets the conflict weights and says
    /// whether branching uses them.
    pub(super) fn begin_search(&mut self, weighted: bool) {
        self.weight.fill(1);
        self.weighted = weighted;
    }

    /// Resets the state to `givens` (0 = blank) with every given queued.
    pub(super) fn load(&mut self, givens: &[u8]) {
        debug_assert_eq!(givens.len(), self.cand.len());
        self.queue.clear();
        self.saved.clear();
        self.saved_cells.clear();
        self.unscanned = UnitSet::all(3 * self.shape.side());
        self.unlocked = self.unscanned;
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
        match self.branch_cell() {
            Some(cell) => Step::Branch(cell),
            None => Step::Solved,
        }
    }

    /// Marks the units of `cell`, whose candidates changed, for the rules
    /// that scan units.
    #[inline(always)]
    fn touch(&mut self, cell: usize) {
        for unit in self.cell_units[cell] {
            self.unscanned.insert(unit as usize);
            self.unlocked.insert(unit as usize);
        }
    }

    /// Removes `digits` (some of which it holds) from `cell`, queueing it if
    /// one digit is left; `false` if none is.
    #[inline(always)]
    fn remove(&mut self, cell: usize, digits: M) -> bool {
        let rest = self.cand[cell] & !digits;
        self.cand[cell] = rest;
        if rest == M::EMPTY {
            for unit in self.cell_units[cell] {
                self.weight[unit as usize] = self.weight[unit as usize].saturating_add(1);
            }
            return false;
        }
        if rest.is_single() {
            self.queue.push(cell as u16);
        }
        self.touch(cell);
        true
    }

    /// Naked singles (through the queue), hidden singles and locked
    /// candidates, each unit rule looking only at the units changed since it
    /// last did, repeated until nothing changes. `false` on a contradiction.
    fn propagate(&mut self) -> bool {
        loop {
            while let Some(cell) = self.queue.pop() {
                let digit = self.cand[cell as usize];
                let start = cell as usize * self.peer_count;
                for i in start..start + self.peer_count {
                    let peer = self.peers[i] as usize;
                    if self.cand[peer] & digit != M::EMPTY && !self.remove(peer, digit) {
                        return false;
                    }
                }
            }
            if !self.unscanned.is_empty() {
                let units = std::mem::take(&mut self.unscanned);
                for unit in units.iter() {
                    if !self.hidden_singles(unit) {
                        return false;
                    }
                }
                continue;
            }
            if self.unlocked.is_empty() {
                return true;
            }
            let units = std::mem::take(&mut self.unlocked);
            if self.locked_candidates(units).is_none() {
                return false;
            }
        }
    }

    /// Hidden singles in unit `unit`: a digit with one place left there is
    /// placed. `false` when some digit has no place left.
    fn hidden_singles(&mut self, unit: usize) -> bool {
        let n = self.shape.side();
        let range = unit * n..(unit + 1) * n;
        let (mut once, mut twice, mut decided) = (M::EMPTY, M::EMPTY, M::EMPTY);
        for &cell in &self.units[range.clone()] {
            let set = self.cand[cell as usize];
            twice |= once & set;
            once |= set;
            if set.is_single() {
                decided |= set;
            }
        }
        if once != self.full {
            self.weight[unit] = self.weight[unit].saturating_add(1);
            return false;
        }
        // Digits in one place only, less those already decided there (most
        // of a filled unit), whose cell need not be looked for.
        let mut hidden = once & !twice & !decided;
        while hidden != M::EMPTY {
            let digit = M::bit(hidden.lowest());
            hidden &= !digit;
            for i in range.clone() {
                let cell = self.units[i] as usize;
                let set = self.cand[cell];
                if set & digit != M::EMPTY {
                    if set != digit {
                        self.cand[cell] = digit;
                        self.queue.push(cell as u16);
                        self.touch(cell);
                    }
                    break;
                }
            }
        }
        true
    }

    /// Locked candidates (pointing and claiming) around `units`: a digit
    /// that, within a box, lies only on one line is removed from the rest of
    /// that line, and one that, within a line, lies only in one box is removed
    /// from the rest of that box. `None` on a contradiction.
    fn locked_candidates(&mut self, units: UnitSet) -> Option<()> {
        let n = self.shape.side();
        for unit in units.iter() {
            let bounds = |list: &[u32], g: usize| list[g] as usize..list[g + 1] as usize;
            if unit < 2 * n {
                self.locked_group(bounds(&self.segments.by_line, unit), Target::Box)?;
            } else {
                let group = 2 * (unit - 2 * n);
                self.locked_group(bounds(&self.segments.by_box, group), Target::Line)?;
                self.locked_group(bounds(&self.segments.by_box, group + 1), Target::Line)?;
            }
        }
        Some(())
    }

    /// Locked candidates in one group of segments (the segments of a line, or
    /// the row or column segments of a box), `ids` in `group_members`: a
    /// digit found in one segment only is cleared from the rest of that
    /// segment's `target_kind` unit.
    fn locked_group(&mut self, ids: std::ops::Range<usize>, target_kind: Target) -> Option<()> {
        let first = ids.start;
        let segments = &self.segments;
        let mut decided = M::EMPTY;
        for (slot, &id) in self
            .segment_union
            .iter_mut()
            .zip(&segments.group_members[ids.clone()])
        {
            let id = id as usize;
            let mut union = M::EMPTY;
            for &cell in
                &segments.members[segments.cells[id] as usize..segments.cells[id + 1] as usize]
            {
                let set = self.cand[cell as usize];
                union |= set;
                if set.is_single() {
                    decided |= set;
                }
            }
            *slot = union;
        }
        let count = ids.len();
        let (once, twice) = tally(self.segment_union[..count].iter().copied());
        // A digit decided in the group is already gone from its peers.
        let only = once & !twice & !decided;
        if only == M::EMPTY {
            return Some(());
        }
        let n = self.shape.side();
        for k in 0..count {
            let confined = self.segment_union[k] & only;
            if confined == M::EMPTY {
                continue;
            }
            let id = self.segments.group_members[first + k] as usize;
            let (target, keep_unit) = match target_kind {
                Target::Line => (self.segments.line[id], self.segments.boxes[id]),
                Target::Box => (self.segments.boxes[id], self.segments.line[id]),
            };
            for i in target as usize * n..(target as usize + 1) * n {
                let cell = self.units[i] as usize;
                if self.cand[cell] & confined == M::EMPTY
                    || self.cell_units[cell].contains(&keep_unit)
                {
                    continue;
                }
                if !self.remove(cell, confined) {
                    return None;
                }
            }
        }
        Some(())
    }

    /// The undecided cell to branch on, or `None` if all are decided: the
    /// one with the fewest candidates per unit of conflict weight of its row,
    /// column and box (*dom/wdeg*). Until the search meets contradictions
    /// this is the cell with the fewest candidates; after, it leans towards
    /// the units where guesses keep failing, so the search settles the hard
    /// part of the grid first instead of thrashing below a wrong early guess.
    /// Unweighted searches take the first bivalue cell they meet, else the
    /// first with the fewest candidates.
    fn branch_cell(&self) -> Option<usize> {
        let mut best = None;
        let mut best_score = f32::INFINITY;
        let start = self.scan_start % self.cand.len();
        let (tail, head) = self.cand.split_at(start);
        let cells = (start..).zip(head).chain((0..).zip(tail));
        for (cell, set) in cells {
            let count = set.count();
            if count < 2 {
                continue;
            }
            let score = if self.weighted {
                let weight: u32 = self.cell_units[cell]
                    .iter()
                    .map(|&unit| self.weight[unit as usize])
                    .sum();
                count as f32 / weight as f32
            } else if count == 2 {
                return Some(cell);
            } else {
                count as f32
            };
            if score < best_score {
                best = Some(cell);
                best_score = score;
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
        self.touch(cell);
    }

    /// Restores the newest saved alternative; `false` when none is left.
    fn backtrack(&mut self) -> bool {
        let Some(cell) = self.saved_cells.pop() else {
            return false;
        };
        let level = self.saved.len() - self.cand.len();
        self.cand.copy_from_slice(&self.saved[level..]);
        self.saved.truncate(level);
        // The saved state was a fixpoint but for its branch cell.
        self.queue.clear();
        self.unscanned = UnitSet::default();
        self.unlocked = UnitSet::default();
        if self.cand[cell as usize].is_single() {
            self.queue.push(cell);
        }
        self.touch(cell as usize);
        true
    }

    /// Counts solutions of `givens` up to `limit`, writing the first into
    /// `solution`. At each branch `choose` picks which candidate of the
    /// cell's set (bit index) is tried first.
    pub(super) fn search(
        &mut self,
        givens: &[u8],
        limit: u64,
        solution: Option<&mut [u8]>,
        choose: impl FnMut(M) -> u32,
    ) -> Outcome {
        self.search_until(givens, limit, solution, choose, || false)
            .unwrap_or_default()
    }

    /// As [`Engine::search`], but asks `give_up` every
    /// [`GUESSES_PER_CHECK`] guesses whether to stop, and then returns `None`.
    ///
    /// Up to [`RESTART_LIMIT`] solutions, the search restarts: a run that
    /// makes more guesses than its budget starts over with the cells and
    /// units scanned from a random place and candidates tried in random
    /// order, with twice the budget. One early wrong guess on a large grid
    /// can otherwise cost minutes of refuting a subtree (the heavy tail of
    /// backtracking search) when another order finishes in milliseconds.
    /// Solutions found by cut-off runs are kept and told apart; the run that
    /// finishes within its budget gives the exact count.
    pub(super) fn search_until(
        &mut self,
        givens: &[u8],
        limit: u64,
        solution: Option<&mut [u8]>,
        mut choose: impl FnMut(M) -> u32,
        mut give_up: impl FnMut() -> bool,
    ) -> Option<Outcome> {
        let restarting = limit <= RESTART_LIMIT;
        let mut budget = if restarting {
            self.first_run_guesses
        } else {
            u64::MAX
        };
        self.found.clear();
        self.begin_search(restarting);
        self.rng = seed_of(givens);
        let mut guesses = 0;
        let mut run = 0;
        let solutions = loop {
            self.load(givens);
            self.scan_start = 0;
            let end = if run == 0 {
                self.run(
                    limit,
                    budget,
                    false,
                    &mut guesses,
                    &mut choose,
                    &mut give_up,
                )
            } else {
                let mut rng = next_random(&mut self.rng);
                let choose = |set| random_member(set, &mut rng);
                self.run(limit, budget, true, &mut guesses, choose, &mut give_up)
            };
            match end {
                RunEnd::Complete(count) => break count,
                RunEnd::GaveUp => return None,
                RunEnd::CutOff => {
                    let distinct = (self.found.len() / self.cand.len()) as u64;
                    if distinct >= limit {
                        break distinct;
                    }
                }
            }
            run += 1;
            budget = budget.saturating_mul(2);
        };
        if let Some(out) = solution {
            if let Some(first) = self.found.get(..out.len()) {
                out.copy_from_slice(first);
            }
        }
        Some(Outcome { solutions, guesses })
    }

    /// One depth-first run from the loaded state, of at most `budget`
    /// guesses (counted into `guesses`); `randomize` starts each scan for a
    /// branch at a random place. Solutions are kept in `found` when new.
    fn run(
        &mut self,
        limit: u64,
        budget: u64,
        randomize: bool,
        guesses: &mut u64,
        mut choose: impl FnMut(M) -> u32,
        give_up: &mut impl FnMut() -> bool,
    ) -> RunEnd {
        let mut solutions = 0;
        let mut made = 0;
        loop {
            if randomize {
                self.scan_start = next_random(&mut self.rng) as usize;
            }
            match self.step() {
                Step::Branch(cell) => {
                    if made == budget {
                        return RunEnd::CutOff;
                    }
                    made += 1;
                    *guesses += 1;
                    if guesses.is_multiple_of(GUESSES_PER_CHECK) && give_up() {
                        return RunEnd::GaveUp;
                    }
                    let choice = choose(self.cand[cell]);
                    self.branch(cell, choice);
                    continue;
                }
                Step::Solved => {
                    solutions += 1;
                    self.keep_solution();
                    if solutions >= limit {
                        return RunEnd::Complete(solutions);
                    }
                }
                Step::Contradiction => {}
            }
            if !self.backtrack() {
                return RunEnd::Complete(solutions);
            }
        }
    }

    /// Adds the current (complete) grid to `found` unless it is there; at
    /// most [`RESTART_LIMIT`] are kept (a search for more never restarts,
    /// and only the first is written out).
    fn keep_solution(&mut self) {
        let cells = self.cand.len();
        if self.found.len() >= cells * RESTART_LIMIT as usize {
            return;
        }
        let start = self.found.len();
        self.found.resize(start + cells, 0);
        let (old, new) = self.found.split_at_mut(start);
        for (slot, set) in new.iter_mut().zip(&self.cand) {
            *slot = set.lowest() as u8 + 1;
        }
        if old.chunks_exact(cells).any(|grid| grid == new) {
            self.found.truncate(start);
        }
    }
}

/// A seed for the generator of restarted runs, from the puzzle (so that a
/// puzzle is always searched the same way).
fn seed_of(givens: &[u8]) -> u64 {
    givens.iter().fold(0x9E37_79B9_7F4A_7C15, |h, &v| {
        (h ^ v as u64).wrapping_mul(0x0000_0100_0000_01B3)
    })
}

/// The next number of a SplitMix64 sequence.
pub(crate) fn next_random(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A member (bit index) of a non-empty set, chosen at random.
fn random_member<M: Mask>(set: M, rng: &mut u64) -> u32 {
    let mut rest = set;
    for _ in 0..next_random(rng) % set.count() as u64 {
        rest &= !M::bit(rest.lowest());
    }
    rest.lowest()
}
