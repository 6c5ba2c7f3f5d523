//! [`SmallSolver`]: the engine for grids of at most 64 cells (side `N ≤ 8`):
//! 4×4, 6×6 (2×3 or 3×2 boxes), 8×8 (2×4 or 4×2), and every other shape with
//! `N² ≤ 64`, including 1×N boxes (Latin squares).
//!
//! The whole search state is one 64-bit board per digit plus a mask of placed
//! cells (the `engine` module documents the layout and invariants), so a
//! state is a few words copied per branch and propagation is a handful of
//! bitwise operations per digit. The engine is specialised at compile time on
//! `N`, which lets every per-digit loop unroll.
//!
//! The engine propagates naked singles only, which keeps typical puzzles
//! cheap but leaves a heavy tail: a sparse 8×8 puzzle whose clues clash only
//! deep down took 45 million guesses (2.4 s) to refute. A search
//! for a few solutions (a status, a solution) that passes
//! [`HANDOFF_GUESSES`] guesses is therefore handed to the general engine,
//! whose hidden singles, locked candidates and restarts settle it at once.
//! Counting many solutions (`limit` above [`HANDOFF_LIMIT`]) is exhaustive
//! anyway and stays here.

mod engine;

use self::engine::Engine;
use super::general::{GeneralSolver, RESTART_LIMIT};
use super::raw::RawSolver;
use super::{Outcome, Solver};
use crate::budget::Budget;
use crate::grid::Shape;

/// The largest number of cells the small engine handles (one `u64` board).
pub const MAX_CELLS: usize = 64;

/// Guesses after which a search for at most [`HANDOFF_LIMIT`] solutions is
/// handed to the general engine. No random 6×6 puzzle of 100,000 takes more
/// than 30 guesses, and 24 of 50,000 random sparse 8×8 puzzles pass this
/// budget, so the hand-off costs typical puzzles nothing.
pub const HANDOFF_GUESSES: u64 = 4096;

/// The largest solution limit whose searches may be handed off: the
/// general engine's [`RESTART_LIMIT`], up to which its restarts and conflict
/// weights escape heavy tails (beyond it both engines count exhaustively).
pub const HANDOFF_LIMIT: u64 = RESTART_LIMIT;

/// The bitboard engine for shapes with at most [`MAX_CELLS`] cells.
#[derive(Clone, Debug)]
pub struct SmallSolver {
    inner: Side,
    /// Guesses before a hand-off ([`HANDOFF_GUESSES`] but in tests).
    handoff_guesses: u64,
    /// The engine that takes over heavy searches, made on first use.
    fallback: Option<GeneralSolver>,
}

/// One engine per side length, so that digit loops have a constant bound.
#[derive(Clone, Debug)]
enum Side {
    One(Engine<1>),
    Two(Engine<2>),
    Three(Engine<3>),
    Four(Engine<4>),
    Five(Engine<5>),
    Six(Engine<6>),
    Seven(Engine<7>),
    Eight(Engine<8>),
}

macro_rules! dispatch {
    ($self:expr, $engine:ident => $body:expr) => {
        match $self {
            Side::One($engine) => $body,
            Side::Two($engine) => $body,
            Side::Three($engine) => $body,
            Side::Four($engine) => $body,
            Side::Five($engine) => $body,
            Side::Six($engine) => $body,
            Side::Seven($engine) => $body,
            Side::Eight($engine) => $body,
        }
    };
}

impl SmallSolver {
    /// A solver for `shape`, or `None` when the grid has more than
    /// [`MAX_CELLS`] cells.
    pub fn new(shape: Shape) -> Option<SmallSolver> {
        let inner = match shape.side() {
            1 => Side::One(Engine::new(shape)),
            2 => Side::Two(Engine::new(shape)),
            3 => Side::Three(Engine::new(shape)),
            4 => Side::Four(Engine::new(shape)),
            5 => Side::Five(Engine::new(shape)),
            6 => Side::Six(Engine::new(shape)),
            7 => Side::Seven(Engine::new(shape)),
            8 => Side::Eight(Engine::new(shape)),
            _ => return None,
        };
        Some(SmallSolver {
            inner,
            handoff_guesses: HANDOFF_GUESSES,
            fallback: None,
        })
    }

    /// A solver that hands searches for at most [`HANDOFF_LIMIT`] solutions
    /// to the general engine after `guesses` guesses instead of
    /// [`HANDOFF_GUESSES`]; tests use 0 and 1 to check the hand-off on
    /// nearly every puzzle.
    pub fn with_handoff_guesses(shape: Shape, guesses: u64) -> Option<SmallSolver> {
        let mut solver = SmallSolver::new(shape)?;
        solver.handoff_guesses = guesses;
        Some(solver)
    }
}

impl Solver for SmallSolver {
    fn shape(&self) -> Shape {
        dispatch!(&self.inner, engine => engine.shape())
    }
}

impl RawSolver for SmallSolver {
    fn solve_raw(&mut self, givens: &[u8], limit: u64, solution: Option<&mut [u8]>) -> Outcome {
        self.solve_raw_until(givens, limit, solution, &Budget::unlimited())
            .unwrap_or_default()
    }

    /// The small engine's own search takes at most [`HANDOFF_GUESSES`]
    /// guesses (well under a millisecond) before a hand-off; the general
    /// engine it hands to checks `budget`.
    fn solve_raw_until(
        &mut self,
        givens: &[u8],
        limit: u64,
        mut solution: Option<&mut [u8]>,
        budget: &Budget,
    ) -> Option<Outcome> {
        let limit = limit.max(1);
        let guesses = if limit <= HANDOFF_LIMIT {
            self.handoff_guesses
        } else {
            u64::MAX
        };
        let first = dispatch!(&mut self.inner, engine => {
            engine.solve(givens, limit, solution.as_deref_mut(), guesses)
        });
        if let Some(outcome) = first {
            return Some(outcome);
        }
        let shape = self.shape();
        let fallback = self
            .fallback
            .get_or_insert_with(|| GeneralSolver::new(shape));
        let mut outcome = fallback.solve_raw_until(givens, limit, solution, budget)?;
        outcome.guesses += guesses;
        Some(outcome)
    }
}
