//! The search core of the small engine, specialised on the side `N ≤ 8`.
//!
//! ## Bit layout
//! Cell `r·N + c` (row-major, the order of `givens`) is bit `r·N + c` of a
//! `u64`; `N² ≤ 64`, so one word covers the grid. `all` has the `N²` cell bits
//! set, and `peers[cell]` every cell sharing a row, column or box with `cell`
//! (itself excluded), built once from [`Geometry`]; `peers[64]` is empty, so
//! that the `trailing_zeros` of an empty mask indexes it harmlessly.
//! `row_peers` holds, for each row and each set of its cells, the peers of
//! those cells together: loading a puzzle takes each digit's givens `N`
//! at a time, one row per look-up, with no loop over the givens (a loop whose
//! stores into the boards chained and whose exit mispredicted: the load
//! this replaced made the engine 12% slower on random 6×6 puzzles).
//!
//! ## State and invariants
//! A [`State`] is `N` digit boards and a placed mask:
//! - `cand[d]` holds the cells where digit `d + 1` is still possible, placed
//!   cells included. A cell's candidates are spread over the boards, so they
//!   are counted bit-sliced: folding the boards with `twice |= once & b;
//!   once |= b` gives, for all cells at once, those with at least one and at
//!   least two candidates.
//! - `placed` holds the cells whose digit is final *and* has been removed from
//!   every peer; each has exactly one candidate (or none, which `propagate`
//!   reports as a contradiction). A cell with one candidate that is not placed
//!   is a pending naked single.
//!
//! A contradiction is a cell with no candidate (`once != all`). When
//! propagation ends without one and every cell is placed, the boards are a
//! solution: each placement cleared its digit from every peer, so of two peers
//! holding the same single digit the one placed second (or both, when placed
//! in the same round) would have lost its last candidate.
//!
//! ## Search
//! Propagation places every pending naked single at once (per digit, one peer
//! mask per cell) until none is left. Hidden singles are deliberately not
//! searched: scanning the `3N` units of each changed digit saved few branches
//! and made the engine about 2.2 times slower on random 6×6 puzzles (in
//! instructions) and 2.3 times slower counting the empty 6×6 grid.
//!
//! At a fixpoint with open cells the search branches on a cell with two
//! candidates (else the first open cell): the lowest digit is tried, and the
//! state with that digit removed from the cell is pushed on an explicit stack
//! of plain copies. Nothing is allocated per puzzle once the stack has
//! grown to the deepest search seen.
//!
//! A fixpoint whose open cells all have two candidates is often counted
//! outright instead of searched, one completion kept as the first solution:
//! see [`Engine::count_pairs`].
//!
//! Without hidden singles, a few sparse puzzles (8×8 Latin squares whose
//! clues clash only deep down) take millions of guesses to refute; a caller
//! passes a guess budget and hands such puzzles to an engine that propagates
//! more (see [`super::SmallSolver`]).

#[cfg(target_arch = "x86_64")]
mod lanes;

use crate::grid::{Geometry, Shape};
use crate::solver::Outcome;

/// Entries of [`Engine::row_peers`]: a row and a set of its cells, for the
/// largest side (8).
const ROW_PEERS: usize = 8 << 8;

/// Whether [`Engine::solve_many`] can run eight puzzles at once in AVX-512
/// lanes on this CPU.
pub(super) fn lanes_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    return lanes::available();
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// One search state; see the module docs for the invariants.
#[derive(Clone, Copy, Debug)]
struct State<const N: usize> {
    /// Cells where each digit is still possible (placed cells included).
    cand: [u64; N],
    /// Cells whose digit has been removed from every peer.
    placed: u64,
}

impl<const N: usize> Default for State<N> {
    /// No candidates anywhere and nothing placed.
    fn default() -> Self {
        State {
            cand: [0; N],
            placed: 0,
        }
    }
}

/// Tables and the search stack for one shape of side `N`.
#[derive(Clone, Debug)]
pub(super) struct Engine<const N: usize> {
    shape: Shape,
    /// The `N²` cell bits.
    all: u64,
    /// Peer mask of each cell; entry 64 (no cell) is empty.
    peers: [u64; 65],
    /// For row `r` and a set `p` of its cells (bit `c` for column `c`),
    /// entry `r · 2^N + p`: the peers of those cells together. Sized for
    /// the largest side, so that no index needs a bounds check.
    row_peers: Box<[u64; ROW_PEERS]>,
    /// Alternatives still to explore, newest last.
    stack: Vec<State<N>>,
    /// The stacks of the lanes of a batch (`lanes`), kept between batches.
    #[cfg(target_arch = "x86_64")]
    lane_stacks: Vec<State<N>>,
    /// How the lanes' loader reads the cells unit by unit.
    #[cfg(target_arch = "x86_64")]
    unit_bytes: lanes::UnitBytes,
}

impl<const N: usize> Engine<N> {
    /// Builds the masks for `shape`, whose side must be `N`.
    pub(super) fn new(shape: Shape) -> Engine<N> {
        assert_eq!(shape.side(), N, "engine side must match the shape");
        let geometry = Geometry::new(shape);
        let cells = shape.cell_count();
        let mask = |list: &[u16]| list.iter().fold(0u64, |m, &c| m | 1 << c);
        let mut peers = [0u64; 65];
        for (cell, slot) in peers.iter_mut().enumerate().take(cells) {
            *slot = mask(geometry.peers(cell));
        }
        let mut row_peers = Box::new([0u64; ROW_PEERS]);
        for row in 0..N {
            for set in 0..1usize << N {
                row_peers[(row << N) | set] = (0..N)
                    .filter(|col| set >> col & 1 == 1)
                    .fold(0, |m, col| m | peers[row * N + col]);
            }
        }
        Engine {
            shape,
            all: u64::MAX >> (64 - cells),
            peers,
            row_peers,
            stack: Vec::with_capacity(cells),
            #[cfg(target_arch = "x86_64")]
            lane_stacks: Vec::new(),
            #[cfg(target_arch = "x86_64")]
            unit_bytes: lanes::UnitBytes::new(&geometry),
        }
    }

    /// The shape the tables describe.
    pub(super) fn shape(&self) -> Shape {
        self.shape
    }

    /// Counts solutions of `givens` up to `limit` (≥ 1), writing the first
    /// into `solution`; `None` (the count unfinished, `solution` perhaps
    /// written) once the search would make more than `budget` guesses.
    #[inline(always)]
    pub(super) fn solve(
        &mut self,
        givens: &[u8],
        limit: u64,
        mut solution: Option<&mut [u8]>,
        budget: u64,
    ) -> Option<Outcome> {
        let mut outcome = Outcome::default();
        let mut state = self.load(givens);
        self.stack.clear();
        loop {
            if self.propagate(&mut state) {
                match self.at_fixpoint(&mut state, &mut outcome, &mut solution, limit, budget) {
                    Step::Guess(guess) => {
                        // The other alternative is pushed as the state stands
                        // and its digit removed in place: built beside it
                        // first, it was stored a word at a time and then read
                        // as vectors for the push, a stalled store forward.
                        self.stack.push(state);
                        if let Some(other) = self.stack.last_mut() {
                            guess.rule_out(other);
                        }
                        self.place(&mut state, guess);
                        continue;
                    }
                    Step::Backtrack => {}
                    Step::Done => return Some(outcome),
                    Step::OutOfGuesses => return None,
                }
            }
            match self.stack.pop() {
                Some(next) => state = next,
                None => return Some(outcome),
            }
        }
    }

    /// Solves the `outcomes.len()` puzzles of `givens` (`N²` values each) as
    /// [`Engine::solve`] does each: its outcome (`None` past `budget`
    /// guesses) and its first solution in its `N²` bytes of `solutions`.
    /// With `lanes` (where [`lanes_available`]), eight at a
    /// time in AVX-512 lanes, with the same results.
    pub(super) fn solve_many(
        &mut self,
        givens: &[u8],
        limit: u64,
        mut solutions: Option<&mut [u8]>,
        budget: u64,
        outcomes: &mut [Option<Outcome>],
        lanes: bool,
    ) {
        #[cfg(target_arch = "x86_64")]
        if lanes && lanes::available() {
            // SAFETY: the CPU has what `lanes` needs, checked just above.
            unsafe { lanes::solve_many(self, givens, limit, solutions, budget, outcomes) };
            return;
        }
        let _ = lanes;
        let cells = N * N;
        for (i, outcome) in outcomes.iter_mut().enumerate() {
            let out = solutions
                .as_deref_mut()
                .map(|all| &mut all[i * cells..(i + 1) * cells]);
            *outcome = self.solve(&givens[i * cells..(i + 1) * cells], limit, out, budget);
        }
    }

    /// What the search does at `s`, a fixpoint of propagation without a
    /// contradiction: counts its solutions into `outcome` when it is solved
    /// or its pairs can be counted outright (writing the first solution into
    /// `solution` and taking it), else chooses a guess (counted in
    /// `outcome`) unless `budget` guesses were made already.
    #[inline(always)]
    fn at_fixpoint(
        &self,
        s: &mut State<N>,
        outcome: &mut Outcome,
        solution: &mut Option<&mut [u8]>,
        limit: u64,
        budget: u64,
    ) -> Step {
        if s.placed == self.all {
            outcome.solutions += 1;
            if let Some(out) = solution.take() {
                write_grid(s, out);
            }
        } else {
            let open = self.all & !s.placed;
            let crowded = open & at_least_three(&s.cand);
            match (crowded == 0).then(|| self.count_pairs(s)).flatten() {
                Some(count) => {
                    if count > 0 {
                        if let Some(out) = solution.take() {
                            write_grid(s, out);
                        }
                    }
                    outcome.solutions = outcome.solutions.saturating_add(count);
                }
                None => {
                    if outcome.guesses == budget {
                        return Step::OutOfGuesses;
                    }
                    outcome.guesses += 1;
                    return Step::Guess(self.choose(s, open & !crowded, open));
                }
            }
        }
        if outcome.solutions >= limit {
            outcome.solutions = limit;
            return Step::Done;
        }
        Step::Backtrack
    }

    /// The state of `givens`: each given cell keeps only its digit and is
    /// placed (two clashing givens clear each other, leaving empty cells for
    /// `propagate` to find).
    #[inline(always)]
    fn load(&self, givens: &[u8]) -> State<N> {
        let givens = &givens[..N * N];
        let planes = value_planes::<N>(givens);
        let given = self.all & planes.iter().fold(0, |m, &p| m | p);
        let mut cand = [0u64; N];
        let row_bits = (1u64 << N) - 1;
        for (d, board) in cand.iter_mut().enumerate() {
            let value = d + 1;
            let mut cells = self.all;
            for (k, &plane) in planes.iter().enumerate() {
                cells &= if value >> k & 1 == 1 { plane } else { !plane };
            }
            // The peers of this digit's givens, a row at a time from a table:
            // no loop over the givens, so no branch to mispredict and no
            // chain of stores into the boards.
            let taken = (0..N).fold(0u64, |m, row| {
                let set = (cells >> (row * N) & row_bits) as usize;
                m | self.row_peers[(row << N) | set]
            });
            *board = ((self.all & !given) | cells) & !taken;
        }
        State {
            cand,
            placed: given,
        }
    }

    /// Places naked singles until none is left; `false` on a contradiction
    /// (a cell without candidates).
    #[inline(always)]
    fn propagate(&self, s: &mut State<N>) -> bool {
        loop {
            let (mut once, mut twice) = (0u64, 0u64);
            for &b in &s.cand {
                twice |= once & b;
                once |= b;
            }
            if once != self.all {
                return false;
            }
            let singles = !twice & !s.placed & self.all;
            if singles == 0 {
                return true;
            }
            for board in s.cand.iter_mut() {
                // A digit rarely has more than one single per round: the first
                // is cleared without a branch (no single reads the empty
                // `peers[64]`), so that the loop below is seldom entered.
                let mut rest = singles & *board;
                let mut b = *board & !self.peers[rest.trailing_zeros() as usize];
                rest &= rest.wrapping_sub(1);
                while rest != 0 {
                    b &= !self.peers[rest.trailing_zeros() as usize];
                    rest &= rest - 1;
                }
                *board = b;
            }
            s.placed |= singles;
        }
    }

    /// At a fixpoint whose open cells all have two candidates, the number of
    /// completions, when the cells fall into classes that can be counted
    /// without search (then `s` becomes one of the completions if there is
    /// one); `None`, leaving `s` alone, otherwise.
    ///
    /// Any choice of a candidate per open cell in which no two peers take the
    /// same digit is a solution (every unit then holds `N` distinct digits,
    /// and placed digits are already cleared from their peers). If open peers
    /// that share a digit always have the same pair of candidates, the only
    /// constraints are "these two peers with pair `{x, y}` differ": each class
    /// of cells with one pair is a graph to 2-colour, so the count is `2^k`
    /// for `k` connected components, or 0 if one has an odd cycle.
    fn count_pairs(&self, s: &mut State<N>) -> Option<u64> {
        let open = self.all & !s.placed;
        let mut coloured = *s;
        let mut rest = open;
        let mut components = 0u32;
        while rest != 0 {
            let start = rest & rest.wrapping_neg();
            // The start cell's two digits (as board indices), without a
            // data-dependent branch.
            let cell = start.trailing_zeros();
            let digits = s
                .cand
                .iter()
                .enumerate()
                .fold(0u32, |m, (d, &b)| m | ((b >> cell) as u32 & 1) << d);
            let pair = [
                digits.trailing_zeros() as usize,
                (digits & digits.wrapping_sub(1)).trailing_zeros() as usize,
            ];
            let (x, y) = (s.cand[pair[0] % N], s.cand[pair[1] % N]);
            let same = x & y & open;
            let mixed = (x ^ y) & open;
            // Breadth-first 2-colouring of the start cell's component.
            let mut side = [start, 0u64];
            let mut frontier = start;
            let mut colour = 0;
            while frontier != 0 {
                let mut next = 0u64;
                let mut cells = frontier;
                while cells != 0 {
                    let peers = self.peers[cells.trailing_zeros() as usize];
                    if peers & mixed != 0 {
                        return None;
                    }
                    next |= peers & same;
                    cells &= cells - 1;
                }
                if next & side[colour] != 0 {
                    return Some(0);
                }
                colour ^= 1;
                frontier = next & !side[colour];
                side[colour] |= frontier;
            }
            // One completion: the first digit on side 0, the second on side 1.
            coloured.cand[pair[0] % N] &= !side[1];
            coloured.cand[pair[1] % N] &= !side[0];
            rest &= !(side[0] | side[1]);
            components += 1;
        }
        let count = 1u64.checked_shl(components)?;
        *s = coloured;
        Some(count)
    }

    /// The guess at a fixpoint with open cells (`pairs` those with two
    /// candidates): the lowest digit of the first cell of `pairs`, else of
    /// the first open cell with the fewest candidates.
    #[inline(always)]
    fn choose(&self, s: &State<N>, pairs: u64, open: u64) -> Guess {
        let cell = if pairs != 0 {
            pairs.trailing_zeros()
        } else {
            fewest_candidates(&s.cand, open).trailing_zeros()
        };
        let bit = 1u64 << cell;
        let digit = s.cand.iter().position(|&b| b & bit != 0).unwrap_or(0);
        Guess { cell, digit }
    }

    /// Places `guess` in `s` at once, rather than leave a single for
    /// `propagate`.
    #[inline(always)]
    fn place(&self, s: &mut State<N>, guess: Guess) {
        let bit = 1u64 << guess.cell;
        for board in s.cand.iter_mut() {
            *board &= !bit;
        }
        s.cand[guess.digit] = (s.cand[guess.digit] & !self.peers[guess.cell as usize]) | bit;
        s.placed |= bit;
    }
}

/// A guess: digit `digit + 1` tried in cell `cell`.
#[derive(Clone, Copy, Debug)]
struct Guess {
    cell: u32,
    digit: usize,
}

impl Guess {
    /// Removes the guessed digit from its cell in `s`: the other alternative.
    fn rule_out<const N: usize>(self, s: &mut State<N>) {
        s.cand[self.digit] &= !(1u64 << self.cell);
    }
}

/// What the search does next at a fixpoint ([`Engine::at_fixpoint`]).
#[derive(Clone, Copy, Debug)]
enum Step {
    /// Try this guess, keeping the other alternative for later.
    Guess(Guess),
    /// This branch is counted: take the next alternative.
    Backtrack,
    /// The count reached the limit.
    Done,
    /// A guess is needed but the budget is spent.
    OutOfGuesses,
}

/// The cells with at least three candidates on `boards` (bit-sliced count).
fn at_least_three(boards: &[u64]) -> u64 {
    let (mut once, mut twice, mut thrice) = (0u64, 0u64, 0u64);
    for &b in boards {
        thrice |= twice & b;
        twice |= once & b;
        once |= b;
    }
    thrice
}

/// The cells of `open` with the fewest candidates on `boards` (bit-sliced
/// counts: `at_least[k]` holds the cells with more than `k` candidates).
fn fewest_candidates<const N: usize>(boards: &[u64; N], open: u64) -> u64 {
    let mut at_least = [0u64; N];
    for &b in boards {
        for k in (1..N).rev() {
            at_least[k] |= at_least[k - 1] & b;
        }
        at_least[0] |= b;
    }
    let mut fewest = open;
    for &more in &at_least[1..] {
        let narrower = fewest & !more;
        if narrower != 0 {
            return narrower;
        }
        fewest &= more;
    }
    fewest
}

/// Bits per value in the bit planes of a grid of side `N` (values `0..=N`).
const fn plane_count(n: usize) -> usize {
    if n >= 8 {
        4
    } else if n >= 4 {
        3
    } else {
        2
    }
}

/// The bit planes of a grid's values: bit `c` of plane `k` is bit `k` of
/// `cells[c]` (for the low [`plane_count`] bits), eight cells per step.
#[inline(always)]
fn value_planes<const N: usize>(cells: &[u8]) -> [u64; 4] {
    // Bit 0 of byte i times this lands at bit 56 + i, with no carries.
    const GATHER: u64 = 0x0102_0408_1020_4080;
    const LOW_BITS: u64 = 0x0101_0101_0101_0101;
    let mut planes = [0u64; 4];
    let mut add = |word: u64, base: usize| {
        for (k, plane) in planes.iter_mut().enumerate().take(plane_count(N)) {
            *plane |= ((word >> k & LOW_BITS).wrapping_mul(GATHER) >> 56) << base;
        }
    };
    let mut chunks = cells.chunks_exact(8);
    let mut base = 0;
    for chunk in &mut chunks {
        add(
            u64::from_le_bytes(chunk.try_into().expect("eight bytes")),
            base,
        );
        base += 8;
    }
    let tail = chunks.remainder();
    if !tail.is_empty() {
        let mut bytes = [0u8; 8];
        bytes[..tail.len()].copy_from_slice(tail);
        add(u64::from_le_bytes(bytes), base);
    }
    planes
}

/// Writes the digit of every cell of a solved state into `out`, eight cells
/// per step from the bit planes of the digits.
fn write_grid<const N: usize>(s: &State<N>, out: &mut [u8]) {
    // Bit i of a byte times this lands at bit 7 of byte 7 - i, with no carries.
    const SPREAD: u64 = 0x8040_2010_0804_0201;
    const HIGH_BITS: u64 = 0x8080_8080_8080_8080;
    let mut planes = [0u64; 4];
    for (d, &board) in s.cand.iter().enumerate() {
        for (k, plane) in planes.iter_mut().enumerate().take(plane_count(N)) {
            if (d + 1) >> k & 1 == 1 {
                *plane |= board;
            }
        }
    }
    let bytes = |base: usize| {
        let mut word = 0u64;
        for (k, &plane) in planes.iter().enumerate().take(plane_count(N)) {
            word |= ((plane >> base & 0xff).wrapping_mul(SPREAD) & HIGH_BITS) >> (7 - k);
        }
        word.swap_bytes().to_le_bytes()
    };
    let mut chunks = out[..N * N].chunks_exact_mut(8);
    let mut base = 0;
    for chunk in &mut chunks {
        chunk.copy_from_slice(&bytes(base));
        base += 8;
    }
    let tail = chunks.into_remainder();
    if !tail.is_empty() {
        let len = tail.len();
        tail.copy_from_slice(&bytes(base)[..len]);
    }
}
