//! [`GeneralSolver`]: one engine for every box shape, `N` up to 64.
//!
//! Candidate sets are bitmasks of the narrowest integer that holds `N` bits
//! (see `mask`); the search itself lives in `engine`: naked and hidden
//! singles propagated to a fixpoint, then binary branching on the cell with the
//! fewest candidates per unit of conflict weight, with an explicit stack.

mod engine;
mod mask;

pub(crate) use self::engine::next_random;
pub use self::engine::RESTART_LIMIT;
use self::engine::{Engine, Step};
use self::mask::Mask;
use super::raw::RawSolver;
use super::{Outcome, Solver};
use crate::grid::Shape;
use rand::Rng;

/// The engine for any shape, specialised by candidate-set width.
#[derive(Clone, Debug)]
pub struct GeneralSolver {
    inner: Width,
}

#[derive(Clone, Debug)]
enum Width {
    Narrow(Engine<u16>),
    Medium(Engine<u32>),
    Wide(Engine<u64>),
}

/// What is left of a puzzle after propagation, for splitting a search into
/// independent parts (see [`GeneralSolver::expand`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Expansion {
    /// The givens lead to a contradiction: no solution.
    Contradiction,
    /// Propagation alone solves it: the complete grid.
    Solved(Vec<u8>),
    /// One puzzle per candidate of the most constrained cell, each with every
    /// decided cell filled in; their solution sets partition the original's.
    Branches(Vec<Vec<u8>>),
}

macro_rules! dispatch {
    ($self:expr, $engine:ident => $body:expr) => {
        match &mut $self.inner {
            Width::Narrow($engine) => $body,
            Width::Medium($engine) => $body,
            Width::Wide($engine) => $body,
        }
    };
}

impl GeneralSolver {
    /// A solver for `shape`.
    pub fn new(shape: Shape) -> GeneralSolver {
        let inner = match shape.side() {
            0..=16 => Width::Narrow(Engine::new(shape)),
            17..=32 => Width::Medium(Engine::new(shape)),
            _ => Width::Wide(Engine::new(shape)),
        };
        GeneralSolver { inner }
    }

    /// A solver whose searches start over after `guesses` guesses (doubling
    /// each time) instead of the default 1,024. Tests use tiny budgets to make
    /// every search restart and check that counts stay exact; experiments
    /// use it to tune the default.
    pub fn with_first_run_guesses(shape: Shape, guesses: u64) -> GeneralSolver {
        let mut solver = GeneralSolver::new(shape);
        dispatch!(solver, engine => engine.set_first_run_guesses(guesses));
        solver
    }

    /// The first solution of `givens` found when every guess picks a candidate
    /// at random (so a random solution, though not exactly uniform over all of
    /// them); `None` when there is no solution.
    pub(crate) fn random_solution<R: Rng + ?Sized>(
        &mut self,
        givens: &[u8],
        rng: &mut R,
    ) -> Option<Vec<u8>> {
        let mut out = vec![0; givens.len()];
        let found = dispatch!(self, engine => {
            engine.search(givens, 1, Some(&mut out), |set| random_member(set, rng))
        });
        (found.solutions == 1).then_some(out)
    }

    /// Propagates `givens` and splits what is left on its most constrained
    /// cell; used to spread one large count over many threads.
    pub(crate) fn expand(&mut self, givens: &[u8]) -> Expansion {
        dispatch!(self, engine => expand_with(engine, givens))
    }
}

/// A uniformly chosen member (bit index) of a non-empty set.
fn random_member<M: Mask, R: Rng + ?Sized>(set: M, rng: &mut R) -> u32 {
    let mut rest = set;
    for _ in 0..rng.gen_range(0..set.count()) {
        rest &= !M::bit(rest.lowest());
    }
    rest.lowest()
}

fn expand_with<M: Mask>(engine: &mut Engine<M>, givens: &[u8]) -> Expansion {
    engine.begin_search(false);
    engine.load(givens);
    let mut grid = vec![0; givens.len()];
    match engine.step() {
        Step::Contradiction => Expansion::Contradiction,
        Step::Solved => {
            engine.write_grid(&mut grid);
            Expansion::Solved(grid)
        }
        Step::Branch(cell) => {
            engine.write_grid(&mut grid);
            let mut set = engine.candidates(cell);
            let mut branches = Vec::with_capacity(set.count() as usize);
            while set != M::EMPTY {
                let digit = set.lowest();
                set &= !M::bit(digit);
                let mut branch = grid.clone();
                branch[cell] = digit as u8 + 1;
                branches.push(branch);
            }
            Expansion::Branches(branches)
        }
    }
}

impl Solver for GeneralSolver {
    fn shape(&self) -> Shape {
        match &self.inner {
            Width::Narrow(engine) => engine.shape(),
            Width::Medium(engine) => engine.shape(),
            Width::Wide(engine) => engine.shape(),
        }
    }
}

impl RawSolver for GeneralSolver {
    fn solve_raw(&mut self, givens: &[u8], limit: u64, solution: Option<&mut [u8]>) -> Outcome {
        dispatch!(self, engine => {
            engine.search(givens, limit.max(1), solution, |set| set.lowest())
        })
    }

    fn solve_raw_until(
        &mut self,
        givens: &[u8],
        limit: u64,
        solution: Option<&mut [u8]>,
        budget: &crate::budget::Budget,
    ) -> Option<Outcome> {
        let spent = || budget.is_spent();
        dispatch!(self, engine => {
            engine.search_until(givens, limit.max(1), solution, |set| set.lowest(), spent)
        })
    }
}
