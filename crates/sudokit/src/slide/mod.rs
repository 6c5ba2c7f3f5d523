//! Sliding puzzles: optimal solutions of the 8-puzzle and the 15-puzzle.
//!
//! - [`board`]: positions, parsing (HDU 1043 `2 3 4 1 5 x 7 6 8` or compact
//!   `23415x768`; 16 numbers for the 15-puzzle), moves, goals, solvability.
//! - [`eight`]: the 8-puzzle by look-up in a complete table of its 181,440
//!   reachable positions, built once by breadth-first search from the goal.
//! - [`fifteen`]: the 15-puzzle by IDA* with additive pattern databases
//!   ([`pdb`]) and their reflected look-up, cached on disk ([`cache`]).
//!
//! [`SlideSolver`] puts them together behind one call; it is `Sync`, builds its
//! tables lazily on first use (once, whatever the number of threads asking),
//! and is what the CLI and the solving service use. [`solve`] and [`answer`]
//! use a shared default solver. Nothing here prints: what is built, why, how
//! far it has come and what is wrong with the cache is told as
//! [`DbEvent`]s to an observer the caller passes
//! ([`SlideSolver::fifteen_with`], [`warm_up`]).
//!
//! ```
//! use sudokit::slide::{self, Goal, Outcome};
//! let board = slide::parse("2 3 4 1 5 x 7 6 8").unwrap();
//! let Outcome::Solved(solution) = slide::solve(&board, Goal::BlankLast) else {
//!     panic!("solvable");
//! };
//! assert_eq!(solution.moves.len(), 19);
//! assert!(board.replay(&solution.moves).unwrap().is_solved(Goal::BlankLast));
//! ```

pub mod board;
pub mod cache;
pub mod eight;
pub mod fifteen;
pub mod pdb;

use std::path::PathBuf;
use std::sync::OnceLock;

use crate::budget::Budget;
pub use board::{moves_to_string, parse, tiles_text, Board, Goal, Move, ParseError};
pub use fifteen::{Databases, DbEvent, Fifteen};

/// A shortest solution and the work it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Blank moves from the position to the goal; no shorter sequence exists.
    pub moves: Vec<Move>,
    /// Search nodes expanded (for the 8-puzzle: table look-ups).
    pub nodes: u64,
}

/// The answer to one sliding puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The goal is reachable; here is a shortest way.
    Solved(Solution),
    /// The position is in the other half of the state space: no sequence of
    /// moves reaches the goal.
    Unsolvable,
}

/// Solves 8- and 15-puzzles optimally, building its tables on first use.
///
/// The 8-puzzle table is global (it is small and has no options); the
/// 15-puzzle databases belong to the solver, chosen by [`Databases`] and
/// cached in an optional directory.
pub struct SlideSolver {
    /// The heuristic asked for; `None`: [`Databases::preferred`], decided
    /// when the 15-puzzle solver is first needed (so that a run without
    /// 15-puzzles never looks at the cache).
    databases: Option<Databases>,
    /// The cache directory, if any.
    cache: Option<PathBuf>,
    /// The 15-puzzle solver, once built.
    fifteen: OnceLock<Fifteen>,
}

impl SlideSolver {
    /// A solver whose 15-puzzle heuristic is `databases`, cached in `cache`
    /// (`None`: built in memory each time the solver is created).
    pub fn new(databases: Databases, cache: Option<PathBuf>) -> SlideSolver {
        SlideSolver {
            databases: Some(databases),
            cache,
            fifteen: OnceLock::new(),
        }
    }

    /// A solver whose 15-puzzle heuristic is [`Databases::preferred`] for
    /// `cache`, chosen when it is first needed.
    pub fn preferred(cache: Option<PathBuf>) -> SlideSolver {
        SlideSolver {
            databases: None,
            cache,
            fifteen: OnceLock::new(),
        }
    }

    /// The 15-puzzle solver, built (or loaded) on first call.
    pub fn fifteen(&self) -> &Fifteen {
        self.fifteen_with(&|_| {})
    }

    /// The 15-puzzle solver; if this call is the one that builds it, it
    /// tells `observer` how the databases are chosen, loaded and built
    /// ([`DbEvent`]). A call that finds it built (or waits for another
    /// thread building it) hears nothing.
    pub fn fifteen_with(&self, observer: &(dyn Fn(&DbEvent) + Sync)) -> &Fifteen {
        self.fifteen.get_or_init(|| {
            let cache = self.cache.as_deref();
            let databases = self
                .databases
                .unwrap_or_else(|| Databases::preferred(cache, observer));
            Fifteen::with_observer(databases, cache, observer)
        })
    }

    /// The 15-puzzle heuristic: the one in use once built, before that the
    /// one asked for (`None` when it is still to be chosen by
    /// [`Databases::preferred`]).
    pub fn databases(&self) -> Option<Databases> {
        self.fifteen
            .get()
            .map(Fifteen::databases)
            .or(self.databases)
    }

    /// Where the pattern databases are cached, if anywhere.
    pub fn cache_dir(&self) -> Option<&std::path::Path> {
        self.cache.as_deref()
    }

    /// The 15-puzzle solver if it has been built already (nothing is built).
    pub fn built_fifteen(&self) -> Option<&Fifteen> {
        self.fifteen.get()
    }

    /// A shortest solution of `board` for `goal`, or [`Outcome::Unsolvable`].
    pub fn solve(&self, board: &Board, goal: Goal) -> Outcome {
        self.solve_within(board, goal, &Budget::unlimited())
            .expect("an unlimited budget is never spent")
    }

    /// As [`SlideSolver::solve`], but gives up (`None`) once `budget` is
    /// spent: an 80-move 15-puzzle can take the 6-6-3 databases most of a
    /// minute. The 8-puzzle, one table look-up per move, always finishes.
    pub fn solve_within(&self, board: &Board, goal: Goal, budget: &Budget) -> Option<Outcome> {
        if !board.is_solvable(goal) {
            return Some(Outcome::Unsolvable);
        }
        // Each table serves one goal; the other is reached by turning the board
        // half a turn, which also turns every move into its opposite.
        let (native, turn) = match board.width() {
            3 => (Goal::BlankLast, goal == Goal::BlankFirst),
            _ => (Goal::BlankFirst, goal == Goal::BlankLast),
        };
        let start = if turn { board.turned() } else { *board };
        let (moves, nodes) = match native {
            Goal::BlankLast => {
                let moves = eight::table()
                    .solve(&start)
                    .expect("a solvable 8-puzzle is in the table");
                let nodes = moves.len() as u64 + 1;
                (moves, nodes)
            }
            Goal::BlankFirst => self.fifteen().solve_blank_first(&start, budget)?,
        };
        let moves = if turn {
            moves.into_iter().map(Move::opposite).collect()
        } else {
            moves
        };
        Some(Outcome::Solved(Solution { moves, nodes }))
    }
}

/// The default solver: databases cached in [`cache::default_dir`] (if any),
/// 7-8 when valid files of it are already there, else 6-6-3
/// ([`Databases::preferred`]).
impl Default for SlideSolver {
    fn default() -> SlideSolver {
        SlideSolver::preferred(cache::default_dir())
    }
}

/// The process-wide [`SlideSolver::default`], shared by all threads.
fn shared() -> &'static SlideSolver {
    static SHARED: OnceLock<SlideSolver> = OnceLock::new();
    SHARED.get_or_init(SlideSolver::default)
}

/// Solves with the process-wide [`SlideSolver::default`].
pub fn solve(board: &Board, goal: Goal) -> Outcome {
    shared().solve(board, goal)
}

/// Builds (or loads from the cache) the process-wide solver's tables now, so
/// that the first request for a 15-puzzle does not wait seconds for them (a
/// service calls this at start-up, on a thread of its own), telling
/// `observer` what is built and why ([`SlideSolver::fifteen_with`]). Returns
/// the 15-puzzle databases in use.
pub fn warm_up(observer: &(dyn Fn(&DbEvent) + Sync)) -> Databases {
    eight::table();
    shared().fifteen_with(observer).databases()
}

/// The answer to one request body, as the CLI and the solving service print
/// it: the blank's moves (`u d l r`, empty when already solved) or
/// `unsolvable`; a body that is not a puzzle is the error.
pub fn answer(body: &str, goal: Goal) -> Result<String, ParseError> {
    Ok(describe(&solve(&parse(body)?, goal)))
}

/// An outcome as the CLI and the solving service print it: the blank's
/// moves (`u d l r`, empty when already solved) or `unsolvable`.
pub fn describe(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Solved(solution) => moves_to_string(&solution.moves),
        Outcome::Unsolvable => "unsolvable".to_string(),
    }
}

/// Solves with the process-wide [`SlideSolver::default`] within `budget`
/// (`None`: spent first).
pub fn solve_within(board: &Board, goal: Goal, budget: &Budget) -> Option<Outcome> {
    shared().solve_within(board, goal, budget)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A spent budget stops a 15-puzzle search that needs more nodes than
    /// one check's worth; the 8-puzzle and unsolvable positions are answered
    /// whatever the budget.
    #[test]
    fn a_spent_budget_stops_the_fifteen_puzzle_search() {
        let solver = SlideSolver::new(Databases::Manhattan, None);
        let spent = Budget::until(std::time::Instant::now());
        let korf55 = parse("13 8 14 3 9 1 0 7 15 5 4 10 12 2 6 11").unwrap();
        assert_eq!(solver.solve_within(&korf55, Goal::BlankFirst, &spent), None);
        let eight = parse("2 3 4 1 5 x 7 6 8").unwrap();
        assert!(solver
            .solve_within(&eight, Goal::BlankLast, &spent)
            .is_some());
        let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let open = Budget::unlimited().with_cancel(flag);
        let Some(Outcome::Solved(solution)) = solver.solve_within(&korf55, Goal::BlankFirst, &open)
        else {
            panic!("korf55 is solvable");
        };
        assert_eq!(solution.moves.len(), 41);
    }

    /// Warming up builds the shared solver's tables, so later requests find
    /// them ready.
    #[test]
    fn warm_up_builds_the_shared_tables() {
        let databases = warm_up(&|_| {});
        let built = shared()
            .built_fifteen()
            .expect("the 15-puzzle databases are built");
        assert_eq!(built.databases(), databases);
    }
}
