//! # sudokit
//!
//! Sudoku-family puzzles of every box shape: reading input with a cap on the
//! line length ([`lines`]), parsing ([`parse`]), the grid model ([`grid`]),
//! solving and counting ([`solver`]), and batch analysis ([`analyze`]). The
//! `sudokit` command-line tool and the solving service are thin layers over
//! this crate: nothing here prints, nothing there solves.

pub mod analyze;
pub mod budget;
pub mod canon;
pub mod generate;
pub mod grid;
pub mod lines;
mod par;
pub mod parse;
#[cfg(all(feature = "parallel", feature = "serde"))]
pub mod search;
pub mod slide;
mod solve;
pub mod solver;
