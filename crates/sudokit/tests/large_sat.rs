//! Large grids against an independent solver: on a committed sample of
//! 16×16, 25×25 and 36×36 puzzles (random clue sets at the densities where
//! search is hardest, some with a wrong clue, and minimal puzzles), the
//! engine that `solver_for` picks and CaDiCaL (a CDCL SAT solver, through the
//! `cadical` dev-dependency) give every puzzle the same count up to 2, and
//! every solution either returns solves its puzzle. Needs the `sat` feature
//! (`cargo test --release -p sudokit --features sat`), whose `cadical`
//! dependency the independent encoding in `common/sat.rs` uses directly.
#![cfg(feature = "sat")]

mod common;

use std::time::Duration;

use common::sat::sat_count;
use sudokit::grid::{Puzzle, Shape};
use sudokit::solver::solver_for;

/// Cell values as characters: `0` for a blank, `1`–`9`, `A`–`Z`, `a`.
const DIGITS: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZa";

fn sample() -> Vec<Puzzle> {
    include_str!("data/large-sample.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|line| {
            let side = (line.len() as f64).sqrt() as usize;
            let shape = match side {
                16 => Shape::new(4, 4),
                25 => Shape::new(5, 5),
                36 => Shape::new(6, 6),
                _ => panic!("unexpected line length {}", line.len()),
            }
            .unwrap();
            let cells = line
                .bytes()
                .map(|c| DIGITS.iter().position(|&d| d == c).expect("a digit") as u8)
                .collect();
            Puzzle::new(shape, cells).unwrap()
        })
        .collect()
}

#[test]
fn large_grid_verdicts_match_the_sat_solver() {
    let puzzles = sample();
    assert_eq!(puzzles.len(), 45);
    let mut statuses = [0usize; 3];
    for (i, puzzle) in puzzles.iter().enumerate() {
        let shape = puzzle.shape();
        let mut solver = solver_for(shape);
        let mut solution = vec![0; shape.cell_count()];
        let ours = solver
            .solve(puzzle.cells(), 2, Some(&mut solution))
            .unwrap();
        let theirs = sat_count(puzzle, 2, Duration::from_secs(600), None).expect("CaDiCaL answers");
        assert_eq!(
            ours.solutions,
            theirs.solutions,
            "puzzle {} ({shape})",
            i + 1
        );
        if ours.solutions > 0 {
            let solved = Puzzle::new(shape, solution).unwrap();
            assert!(puzzle.is_solved_by(&solved), "puzzle {}", i + 1);
            let grid = theirs.first.expect("a SAT solution");
            let sat_solved = Puzzle::new(shape, grid).unwrap();
            assert!(puzzle.is_solved_by(&sat_solved), "puzzle {}", i + 1);
        }
        statuses[ours.solutions as usize] += 1;
    }
    // The sample has every verdict.
    assert!(statuses.iter().all(|&n| n > 0), "{statuses:?}");
}
