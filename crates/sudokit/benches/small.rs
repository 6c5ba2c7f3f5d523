//! Small-grid engine benchmark: puzzles per second counting solutions up to 2
//! (the analyzer's question), on random puzzles made like the
//! `random_puzzles` example (a quarter to a half of the cells kept, one clue
//! in four corrupted), for the small engine and the general engine.
//!
//! Before timing it checks that both engines give every puzzle the same
//! count. `cargo bench -p sudokit --bench small [-- RxC...]` runs the given
//! shapes (2x2, 2x3 and 2x4 without arguments); `SMALL_PUZZLES` sets the
//! number of puzzles per shape (default 100,000).

use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sudokit::generate::random_puzzle;
use sudokit::grid::Shape;
use sudokit::solver::general::GeneralSolver;
use sudokit::solver::small::SmallSolver;
use sudokit::solver::Solver;

/// Puzzles of `shape`, `count` of them, concatenated.
fn puzzles(shape: Shape, count: usize) -> Vec<u8> {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let cells = shape.cell_count();
    let mut out = Vec::with_capacity(count * cells);
    for _ in 0..count {
        let clues = rng.gen_range(cells / 4..=cells / 2 + 2);
        out.extend_from_slice(random_puzzle(shape, clues, 0.25, &mut rng).cells());
    }
    out
}

/// Solves every puzzle once with limit 2; returns the seconds taken and the
/// counts.
fn run(solver: &mut dyn Solver, all: &[u8], cells: usize) -> (f64, Vec<u64>) {
    let mut solution = vec![0; cells];
    let started = Instant::now();
    let counts = all
        .chunks_exact(cells)
        .map(|p| solver.solve(p, 2, Some(&mut solution)).unwrap().solutions)
        .collect();
    (started.elapsed().as_secs_f64(), counts)
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let shapes: Vec<Shape> = if args.is_empty() {
        ["2x2", "2x3", "2x4"]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect()
    } else {
        args.iter().map(|s| s.parse().expect("shape RxC")).collect()
    };
    let count = std::env::var("SMALL_PUZZLES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    println!(
        "{:>5} {:>9} {:>14} {:>14} {:>7}",
        "shape", "puzzles", "small/s", "general/s", "ratio"
    );
    for shape in shapes {
        let cells = shape.cell_count();
        let all = puzzles(shape, count);
        let mut small = SmallSolver::new(shape).expect("at most 64 cells");
        let mut general = GeneralSolver::new(shape);
        let (small_time, small_counts) = run(&mut small, &all, cells);
        let (general_time, general_counts) = run(&mut general, &all, cells);
        assert_eq!(small_counts, general_counts, "engines disagree on {shape}");
        let rate = |t: f64| count as f64 / t;
        println!(
            "{:>5} {:>9} {:>14.0} {:>14.0} {:>7.2}",
            shape.to_string(),
            count,
            rate(small_time),
            rate(general_time),
            general_time / small_time
        );
    }
}
