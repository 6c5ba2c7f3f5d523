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

use std::time::{Duration, Instant};

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
    /// Whether batches run in AVX-512 lanes (the CPU has them, and
    /// `SmallSolver::with_lanes` did not turn them off).
    lanes: bool,
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
            lanes: engine::lanes_available(),
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

    /// This solver with batches run one puzzle at a time (`false`) or in
    /// AVX-512 lanes where the CPU has them (`true`, the default), so that
    /// tests cover both paths on any machine.
    #[cfg(test)]
    pub(crate) fn with_lanes(mut self, lanes: bool) -> SmallSolver {
        self.lanes = lanes && engine::lanes_available();
        self
    }

    /// The guesses the small engine may make for a count up to `limit`
    /// before it hands the search off.
    fn guess_budget(&self, limit: u64) -> u64 {
        if limit <= HANDOFF_LIMIT {
            self.handoff_guesses
        } else {
            u64::MAX
        }
    }

    /// Finishes with the general engine a search that took `guesses`
    /// guesses here without an answer.
    fn hand_off(
        &mut self,
        givens: &[u8],
        limit: u64,
        solution: Option<&mut [u8]>,
        guesses: u64,
        budget: &Budget,
    ) -> Option<Outcome> {
        let shape = self.shape();
        let fallback = self
            .fallback
            .get_or_insert_with(|| GeneralSolver::new(shape));
        let mut outcome = fallback.solve_raw_until(givens, limit, solution, budget)?;
        outcome.guesses += guesses;
        Some(outcome)
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
        let guesses = self.guess_budget(limit);
        let first = dispatch!(&mut self.inner, engine => {
            engine.solve(givens, limit, solution.as_deref_mut(), guesses)
        });
        match first {
            Some(outcome) => Some(outcome),
            None => self.hand_off(givens, limit, solution, guesses, budget),
        }
    }

    /// Eight puzzles at a time in AVX-512 lanes where the CPU has them
    /// ([`SmallSolver::batches`]), with the same outcomes and solutions as
    /// one at a time; searches that pass the guess budget are handed off
    /// one by one afterwards, each with its own `timeout`.
    fn solve_batch_raw(
        &mut self,
        givens: &[u8],
        limit: u64,
        mut solutions: Option<&mut [u8]>,
        timeout: Option<Duration>,
        outcomes: &mut [Option<Outcome>],
    ) {
        let limit = limit.max(1);
        let guesses = self.guess_budget(limit);
        let lanes = self.lanes;
        dispatch!(&mut self.inner, engine => engine.solve_many(
            givens,
            limit,
            solutions.as_deref_mut(),
            guesses,
            outcomes,
            lanes,
        ));
        let cells = self.shape().cell_count();
        for (i, outcome) in outcomes.iter_mut().enumerate() {
            if outcome.is_none() {
                let budget = timeout.map_or_else(Budget::unlimited, |time| {
                    Budget::until(Instant::now() + time)
                });
                let out = solutions
                    .as_deref_mut()
                    .map(|all| &mut all[i * cells..(i + 1) * cells]);
                let puzzle = &givens[i * cells..(i + 1) * cells];
                *outcome = self.hand_off(puzzle, limit, out, guesses, &budget);
            }
        }
    }

    fn batches(&self) -> bool {
        self.lanes
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::SmallSolver;
    use crate::generate::random_puzzle;
    use crate::grid::Shape;
    use crate::solver::raw::RawSolver;
    use crate::solver::{Outcome, Solver};

    /// A batch's outcomes and solutions, and the same puzzles solved one at
    /// a time, from `solver`.
    #[allow(clippy::type_complexity)]
    fn both_ways(
        solver: &mut SmallSolver,
        givens: &[u8],
        limit: u64,
        timeout: Option<Duration>,
    ) -> (
        (Vec<Option<Outcome>>, Vec<u8>),
        (Vec<Option<Outcome>>, Vec<u8>),
    ) {
        let cells = solver.shape().cell_count();
        let count = givens.len() / cells;
        let mut batch = (vec![None; count], vec![0u8; givens.len()]);
        solver.solve_batch_raw(givens, limit, Some(&mut batch.1), timeout, &mut batch.0);
        let mut single = (Vec::new(), vec![0u8; givens.len()]);
        for (puzzle, out) in givens
            .chunks_exact(cells)
            .zip(single.1.chunks_exact_mut(cells))
        {
            single
                .0
                .push(Some(solver.solve_raw(puzzle, limit, Some(out))));
        }
        (batch, single)
    }

    #[test]
    fn batches_in_lanes_or_not_answer_as_one_puzzle_at_a_time_does() {
        let mut rng = ChaCha8Rng::seed_from_u64(16);
        for (r, c) in [(2, 2), (2, 3), (2, 4)] {
            let shape = Shape::new(r, c).expect("shape");
            let cells = shape.cell_count();
            let mut givens = Vec::new();
            for _ in 0..700 {
                let clues = rng.gen_range(0..=cells);
                givens.extend_from_slice(random_puzzle(shape, clues, 0.2, &mut rng).cells());
            }
            // Handing off after 0 and 2 guesses sends most searches to the
            // general engine, from inside a batch.
            for handoff in [0, 2, super::HANDOFF_GUESSES] {
                for lanes in [true, false] {
                    let solver = SmallSolver::with_handoff_guesses(shape, handoff).expect("small");
                    let mut solver = solver.with_lanes(lanes);
                    for (limit, timeout) in
                        [(2, None), (1, Some(Duration::from_secs(60))), (50, None)]
                    {
                        let (batch, single) = both_ways(&mut solver, &givens, limit, timeout);
                        assert_eq!(
                            batch.0, single.0,
                            "{shape} handoff {handoff} lanes {lanes} limit {limit}"
                        );
                        assert_eq!(batch.1, single.1, "{shape}: first solutions");
                    }
                }
            }
        }
    }
}
