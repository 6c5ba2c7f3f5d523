//! # sudokit
//!
//! Sudoku-family puzzles of every box shape (4×4, 6×6 with 2×3 boxes, 9×9,
//! 16×16, 25×25 … up to 64×64) and sliding puzzles: parsing, solving,
//! counting, batch analysis, generation, canonical forms, and the 8- and
//! 15-puzzle. The `sudokit` command-line tool and the solving service are thin
//! layers over this crate: nothing here prints, nothing there solves.
//!
//! ## Solve a puzzle
//!
//! A [`Puzzle`] parses from one line of text (SPEC §1: the size comes from
//! the number of cells, blanks are `.*-_0`, an `id:` prefix and trailing
//! fields are ignored) and prints back in the same form:
//!
//! ```
//! use sudokit::{Puzzle, Status};
//!
//! let p: Puzzle = "..3.4..1.1..3...".parse()?;
//! if let Some(s) = p.solve() {
//!     println!("{s}");
//!     assert!(p.is_solved_by(&s));
//! }
//! assert_eq!(p.status(), Status::Unique);
//! // The empty 4×4 grid has 288 solutions; a count stops at its limit.
//! let empty: Puzzle = "................".parse()?;
//! assert_eq!(empty.count(u64::MAX), 288);
//! assert_eq!(empty.count(100), 100); // "at least 100"
//! assert_eq!(empty.solutions(5).len(), 5);
//! # Ok::<(), sudokit::parse::ParseError>(())
//! ```
//!
//! A [`Puzzle`] is checked when it is made, so these methods cannot be given
//! bad input. For hot loops over many puzzles, keep one [`Solver`]
//! ([`solver_for`]) and call it on raw cells: it checks the length and range
//! of its input (an [`InputError`] otherwise) and allocates nothing per call.
//!
//! ```
//! use sudokit::{solver_for, Shape};
//!
//! let mut solver = solver_for(Shape::new(3, 3)?);
//! let mut cells = vec![0u8; 81];
//! assert_eq!(solver.solve(&cells, 2, None)?.solutions, 2);
//! cells[0] = 10; // a value above 9
//! assert!(solver.solve(&cells, 2, None).is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Analyze a file
//!
//! [`analyze::analyze_stream`] reads puzzles line by line from any reader
//! (streamed, never slurped), solves them in parallel and hands back the
//! verdicts in input order:
//!
//! ```
//! use std::io::Cursor;
//! use sudokit::analyze::{analyze_stream, AnalyzeOptions};
//! use sudokit::Status;
//!
//! let input = "# two puzzles\n..3.4..1.1..3...\n1:................\n";
//! let mut statuses = Vec::new();
//! let summary = analyze_stream(Cursor::new(input), &AnalyzeOptions::default(), |_, verdicts| {
//!     for v in verdicts {
//!         statuses.push((v.line, v.result.as_ref().ok().and_then(|a| a.status)));
//!     }
//!     Ok(())
//! })?;
//! assert_eq!(statuses, [(2, Some(Status::Unique)), (3, Some(Status::Multiple))]);
//! assert_eq!(summary.puzzles(), 2);
//! # Ok::<(), sudokit::analyze::AnalyzeError>(())
//! ```
//!
//! ## Generate a puzzle
//!
//! A [`generate::Generator`] carves puzzles with a unique solution,
//! reproducibly from a seed:
//!
//! ```
//! use sudokit::generate::{GenerateOptions, Generator};
//! use sudokit::{Shape, Status};
//!
//! let mut generator = Generator::new(GenerateOptions::new(Shape::new(2, 3)?));
//! let made = generator.generate(7, 0)?;
//! assert_eq!(made.puzzle.status(), Status::Unique);
//! assert_eq!(made.puzzle.solve(), Some(made.solution));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Canonical form
//!
//! Equivalent 9×9 puzzles (relabelled digits, permuted rows, bands, columns,
//! stacks, transposed) have the same [canonical form](canon):
//!
//! ```
//! use sudokit::Puzzle;
//!
//! let p: Puzzle = "000704005020010070000080002090006250600070008053200010400090000030060090200407000".parse()?;
//! // The same puzzle with digits 1 and 2 swapped.
//! let q: Puzzle = p
//!     .to_string()
//!     .chars()
//!     .map(|c| match c { '1' => '2', '2' => '1', c => c })
//!     .collect::<String>()
//!     .parse()?;
//! assert_ne!(p, q);
//! assert_eq!(p.canonical_form()?, q.canonical_form()?);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Slide
//!
//! The 8-puzzle and the 15-puzzle, solved optimally ([`slide`]):
//!
//! ```
//! use sudokit::slide::{self, Goal};
//!
//! let board = slide::parse("1 2 3 4 5 6 7 x 8")?;
//! assert_eq!(slide::describe(&slide::solve(&board, Goal::BlankLast)), "r");
//! assert_eq!(slide::answer("123456x78", Goal::BlankLast)?, "rr");
//! # Ok::<(), sudokit::slide::ParseError>(())
//! ```
//!
//! ## Modules
//!
//! [`grid`] (shapes, geometry, [`Puzzle`]), [`parse`] (text, alphabets,
//! errors with line and cell), [`solver`] (the engines behind one trait),
//! [`analyze`] (the batch analyzer), [`generate`], [`canon`], `search` (the
//! {−R+A} neighbourhood hunt), [`shard`] (slices of long runs, their
//! checkpointed out files and their merge), [`slide`], [`lines`] (reading lines with a
//! cap on their length) and [`budget`] (deadlines and cancellation).
//!
//! ## Cargo features
//!
//! Both are on by default.
//!
//! - `parallel` (rayon): batch analysis, exact counts
//!   ([`solver::count::count_solutions`], [`Puzzle::count`]), generation of
//!   ranges of puzzles and the 15-puzzle's pattern databases use every core.
//!   Without it the same functions run on the calling thread.
//! - `serde` (serde, serde_json): [`Status`] and [`generate::Symmetry`]
//!   implement `Serialize`.
//! - The `search` module (the hunt, with JSON checkpoints and parallel
//!   batches) and `shard`'s out files and merge need both.
//!
//! A program that only solves builds with `default-features = false`.

#![warn(missing_docs)]

pub mod analyze;
pub mod budget;
mod bytes;
pub mod canon;
pub mod generate;
pub mod grid;
pub mod lines;
pub mod logic;
mod par;
pub mod parse;
pub mod rows;
#[cfg(all(feature = "parallel", feature = "serde"))]
pub mod search;
pub mod shard;
pub mod slide;
mod solve;
pub mod solver;
pub mod variant;

pub use grid::{InputError, Puzzle, Shape};
pub use parse::ParseError;
pub use solver::{solver_for, Outcome, Solver, Status};
