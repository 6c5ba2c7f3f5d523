//! An independent answer for grids of any shape: the puzzle as CNF for the
//! CaDiCaL SAT solver (the `cadical` crate, which the `sat` feature brings
//! in), solutions counted by blocking each one found. Its encoding is its
//! own (every cell and digit, nothing pre-eliminated), not the library's.
//! Shared by the large-grid cross-check test and the `large` benchmark
//! (`#[path]`-included there).

use std::time::{Duration, Instant};

use cadical::{Solver, Timeout};
use sudokit::grid::Puzzle;

/// What the SAT solver said about a puzzle.
pub struct SatAnswer {
    /// Solutions found, up to the limit asked for.
    pub solutions: u64,
    /// The first solution, when there is one.
    pub first: Option<Vec<u8>>,
    /// Time spent inside the solver's `solve` calls (the rest of the call
    /// is building the encoding).
    pub solving: Duration,
}

/// Counts the solutions of `puzzle` up to `limit` with CaDiCaL, or `None`
/// when the solver has not decided within `timeout` (per solve call).
/// `config` names one of CaDiCaL's option sets (`"sat"`, `"unsat"`,
/// `"plain"`); `None` runs it with its defaults.
///
/// The encoding is the usual extended one: variable `N·cell + d + 1` says
/// "digit `d + 1` in `cell`"; each cell holds at least one digit and at most
/// one; each row, column and box holds each digit at least once and at most
/// once; each given is a unit clause.
pub fn sat_count(
    puzzle: &Puzzle,
    limit: u64,
    timeout: Duration,
    config: Option<&str>,
) -> Option<SatAnswer> {
    let shape = puzzle.shape();
    let n = shape.side();
    let (br, bc) = (shape.box_rows(), shape.box_cols());
    let var = |cell: usize, d: usize| (n * cell + d + 1) as i32;
    let mut sat: Solver<Timeout> = match config {
        Some(name) => Solver::with_config(name).expect("a CaDiCaL configuration name"),
        None => Solver::new(),
    };
    sat.set_callbacks(Some(Timeout::new(timeout.as_secs_f32())));
    let mut units: Vec<Vec<usize>> = Vec::with_capacity(3 * n);
    for r in 0..n {
        units.push((0..n).map(|c| n * r + c).collect());
    }
    for c in 0..n {
        units.push((0..n).map(|r| n * r + c).collect());
    }
    for b in 0..n {
        let (r0, c0) = (b / br * br, b % br * bc);
        units.push((0..n).map(|k| n * (r0 + k / bc) + c0 + k % bc).collect());
    }
    for cell in 0..n * n {
        sat.add_clause((0..n).map(|d| var(cell, d)));
        for d in 0..n {
            for e in d + 1..n {
                sat.add_clause([-var(cell, d), -var(cell, e)]);
            }
        }
    }
    for unit in &units {
        for d in 0..n {
            sat.add_clause(unit.iter().map(|&cell| var(cell, d)));
            for (i, &a) in unit.iter().enumerate() {
                for &b in &unit[i + 1..] {
                    sat.add_clause([-var(a, d), -var(b, d)]);
                }
            }
        }
    }
    for (cell, &v) in puzzle.cells().iter().enumerate() {
        if v != 0 {
            sat.add_clause([var(cell, usize::from(v) - 1)]);
        }
    }
    let mut answer = SatAnswer {
        solutions: 0,
        first: None,
        solving: Duration::ZERO,
    };
    while answer.solutions < limit {
        let started = Instant::now();
        let result = sat.solve();
        answer.solving += started.elapsed();
        match result? {
            false => break,
            true => {
                let grid: Vec<u8> = (0..n * n)
                    .map(|cell| {
                        (0..n)
                            .find(|&d| sat.value(var(cell, d)) == Some(true))
                            .map_or(0, |d| d as u8 + 1)
                    })
                    .collect();
                // Another solution differs somewhere.
                sat.add_clause(
                    grid.iter()
                        .enumerate()
                        .map(|(cell, &v)| -var(cell, usize::from(v) - 1)),
                );
                answer.first.get_or_insert(grid);
                answer.solutions += 1;
            }
        }
    }
    Some(answer)
}
