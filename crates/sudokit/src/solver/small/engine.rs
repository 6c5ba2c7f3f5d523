//! The search core of the small engine, specialised on the side `N ≤ 8`.
//!
//! ## Bit layout
//! Cell `r·N + c` (row-major, the order of `givens`) is bit `r·N + c` of a
//! `u64`; `N² ≤ 64`, so one word covers the grid. `all` has the `N²` cell bits
//! set. Geometry is precomputed as masks: `peers[cell]` (every cell sharing a
//! row, column or box with `cell`, itself excluded) and `units[u]` for the `3N`
//! rows, columns and boxes in [`Geometry`] order.
//!
//! ## State and invariants
//! A [`State`] is `N` digit boards, a placed mask and a dirty digit set:
//! - `cand[d]` holds the cells where digit `d + 1` is still possible, placed
//!   cells included. A cell's candidates are therefore spread over the boards,
//!   and counting them is bit-sliced: folding the boards with
//!   `twice |= once & b; once |= b` gives the cells with at least one and at
//!   least two candidates for all cells at once.
//! - `placed` holds the cells whose digit is final *and* has been removed from
//!   every peer. Every placed cell has exactly one candidate. A cell with one
//!   candidate that is not placed is a pending naked single.
//! - `dirty` holds the digits whose board changed since their units were last
//!   scanned for hidden singles; a clean digit's units are known to hold each
//!   a place for it, and no unplaced hidden single.
//!
//! A contradiction shows as a cell with no candidate (`once != all`) or a unit
//! with no place for a digit. When propagation ends without one and every cell
//! is placed, the boards are a solution: each placement cleared its digit from
//! every peer, so two peers can never both be placed with the same digit (the
//! later one would have lost its last candidate).
//!
//! ## Search
//! Propagation places naked singles (all of them at once, digit by digit) and
//! hidden singles (per dirty digit, per unit) until neither finds anything.
//! Then it branches on a cell with two candidates (else three, else any open
//! cell): the lowest digit is tried, and the state with that digit removed
//! from the cell is pushed on an explicit stack of plain copies. Nothing is
//! allocated per puzzle once the stack has grown to the deepest search seen.

use crate::grid::{Geometry, Shape};
use crate::solver::Outcome;

/// One search state; see the module docs for the invariants.
#[derive(Clone, Copy, Debug)]
struct State<const N: usize> {
    /// Cells where each digit is still possible (placed cells included).
    cand: [u64; N],
    /// Cells whose digit has been removed from every peer.
    placed: u64,
    /// Digits (bit `d` for digit `d + 1`) whose units need a new scan.
    dirty: u32,
}

/// Tables and the search stack for one shape of side `N`.
#[derive(Clone, Debug)]
pub(super) struct Engine<const N: usize> {
    shape: Shape,
    /// The `N²` cell bits.
    all: u64,
    /// Peer mask of each cell.
    peers: [u64; 64],
    /// Cell masks of the `3N` units (the rest are unused zeros).
    units: [u64; 24],
    /// Alternatives still to explore, newest last.
    stack: Vec<State<N>>,
}

impl<const N: usize> Engine<N> {
    /// Builds the masks for `shape`, whose side must be `N`.
    pub(super) fn new(shape: Shape) -> Engine<N> {
        assert_eq!(shape.side(), N, "engine side must match the shape");
        let geometry = Geometry::new(shape);
        let cells = shape.cell_count();
        let mask = |list: &[u16]| list.iter().fold(0u64, |m, &c| m | 1 << c);
        let mut peers = [0u64; 64];
        for (cell, slot) in peers.iter_mut().enumerate().take(cells) {
            *slot = mask(geometry.peers(cell));
        }
        let mut units = [0u64; 24];
        for (u, slot) in units.iter_mut().enumerate().take(3 * N) {
            *slot = mask(geometry.unit(u));
        }
        Engine {
            shape,
            all: u64::MAX >> (64 - cells),
            peers,
            units,
            stack: Vec::with_capacity(cells),
        }
    }

    /// The shape the tables describe.
    pub(super) fn shape(&self) -> Shape {
        self.shape
    }

    /// Counts solutions of `givens` up to `limit` (≥ 1), writing the first
    /// into `solution`.
    pub(super) fn solve(
        &mut self,
        givens: &[u8],
        limit: u64,
        mut solution: Option<&mut [u8]>,
    ) -> Outcome {
        let mut outcome = Outcome::default();
        let Some(mut state) = self.load(givens) else {
            return outcome;
        };
        self.stack.clear();
        loop {
            if self.propagate(&mut state) {
                if state.placed != self.all {
                    outcome.guesses += 1;
                    self.branch(&mut state);
                    continue;
                }
                outcome.solutions += 1;
                if let Some(out) = solution.take() {
                    write_grid(&state, out);
                }
                if outcome.solutions >= limit {
                    return outcome;
                }
            }
            match self.stack.pop() {
                Some(next) => state = next,
                None => return outcome,
            }
        }
    }

    /// The state of `givens` with every given placed, or `None` when two
    /// givens clash.
    fn load(&self, givens: &[u8]) -> Option<State<N>> {
        debug_assert_eq!(givens.len(), self.shape.cell_count());
        // Cells by value; index 0 collects the blanks.
        let mut by_value = [0u64; 16];
        for (cell, &v) in givens.iter().enumerate().take(64) {
            by_value[(v & 15) as usize] |= 1 << cell;
        }
        let given = self.all & !by_value[0];
        let mut cand = [0u64; N];
        for (d, board) in cand.iter_mut().enumerate() {
            let mine = by_value[d + 1];
            let mut b = (self.all & !given) | mine;
            let mut rest = mine;
            while rest != 0 {
                b &= !self.peers[rest.trailing_zeros() as usize];
                rest &= rest - 1;
            }
            if b & mine != mine {
                return None;
            }
            *board = b;
        }
        Some(State {
            cand,
            placed: given,
            dirty: (1 << N) - 1,
        })
    }

    /// Places naked and hidden singles until neither finds anything; `false`
    /// on a contradiction.
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
            if singles != 0 {
                for (d, board) in s.cand.iter_mut().enumerate() {
                    let mut rest = singles & *board;
                    if rest != 0 {
                        s.dirty |= 1 << d;
                        let mut b = *board;
                        while rest != 0 {
                            b &= !self.peers[rest.trailing_zeros() as usize];
                            rest &= rest - 1;
                        }
                        *board = b;
                    }
                }
                s.placed |= singles;
                continue;
            }
            if s.dirty == 0 {
                return true;
            }
            let mut dirty = std::mem::take(&mut s.dirty);
            while dirty != 0 {
                let d = dirty.trailing_zeros() as usize;
                dirty &= dirty - 1;
                let board = s.cand[d];
                let mut hidden = 0u64;
                for &unit in &self.units[..3 * N] {
                    let here = board & unit;
                    if here & here.wrapping_sub(1) == 0 {
                        if here == 0 {
                            return false;
                        }
                        hidden |= here;
                    }
                }
                hidden &= !s.placed;
                if hidden != 0 {
                    let mut b = board;
                    let mut rest = hidden;
                    while rest != 0 {
                        b &= !self.peers[rest.trailing_zeros() as usize];
                        rest &= rest - 1;
                    }
                    for (e, other) in s.cand.iter_mut().enumerate() {
                        if *other & hidden != 0 {
                            *other &= !hidden;
                            s.dirty |= 1 << e;
                        }
                    }
                    s.cand[d] = b;
                    s.placed |= hidden;
                }
            }
        }
    }

    /// At a fixpoint with open cells: tries the lowest digit of the open cell
    /// with fewest candidates (two, else three, else any) and pushes the state
    /// without it.
    fn branch(&mut self, s: &mut State<N>) {
        let (mut once, mut twice, mut thrice) = (0u64, 0u64, 0u64);
        for &b in &s.cand {
            thrice |= twice & b;
            twice |= once & b;
            once |= b;
        }
        let open = self.all & !s.placed;
        let pairs = open & !thrice;
        let cell = if pairs != 0 {
            pairs.trailing_zeros()
        } else {
            open.trailing_zeros()
        };
        let bit = 1u64 << cell;
        let digit = s.cand.iter().position(|&b| b & bit != 0).unwrap_or(0);
        let mut other = *s;
        other.cand[digit] &= !bit;
        other.dirty = 1 << digit;
        self.stack.push(other);
        for (e, board) in s.cand.iter_mut().enumerate() {
            if e != digit && *board & bit != 0 {
                *board &= !bit;
                s.dirty |= 1 << e;
            }
        }
    }
}

/// Writes the digit of every cell of a solved state into `out`.
fn write_grid<const N: usize>(s: &State<N>, out: &mut [u8]) {
    for (d, &board) in s.cand.iter().enumerate() {
        let mut rest = board;
        while rest != 0 {
            out[rest.trailing_zeros() as usize] = d as u8 + 1;
            rest &= rest - 1;
        }
    }
}
