//! The generator and the hunt, timed side by side in one run:
//!
//! - minimal puzzles per second: [`Generator`] against the `sudoku` crate's
//!   `generate_with_symmetry(Symmetry::None)` (also minimal), on one thread
//!   and on every thread of the pool;
//! - canonical forms per second, of minimal puzzles and of complete grids
//!   (the `sudoku` crate canonicalises grids only: its rate beside ours);
//! - the {−1+2} and {−2+1} neighbourhoods of the 40-clue minimal puzzle.
//!
//! `cargo bench -p sudokit --bench hunt [-- --search-only]`; `HUNT_SECONDS` sets each timing
//! (default 2).

use std::time::{Duration, Instant};

use rayon::prelude::*;
use sudokit::canon::canonical_form;
use sudokit::generate::{generate_range, random_grid, GenerateOptions, Generator};
use sudokit::grid::Shape;
use sudokit::search::neighbourhood;

/// The largest known minimal puzzles have 40 clues; this is one.
const FORTY: &str =
    "1..4....9.5..8..2..981.2..4..1..5.9.58.92...7.798412.5.67518.4281.294.76.........";

/// Timed rounds per figure; engines take turns, so a busy machine slows
/// both alike, and each figure is its best round.
const ROUNDS: usize = 5;

fn seconds() -> Duration {
    let s = std::env::var("HUNT_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2.0);
    Duration::from_secs_f64(s)
}

/// Runs `batch` (which makes `n` items) until `min` has elapsed; items/s.
fn rate(min: Duration, mut batch: impl FnMut() -> usize) -> f64 {
    let start = Instant::now();
    let mut done = 0;
    while start.elapsed() < min {
        done += batch();
    }
    done as f64 / start.elapsed().as_secs_f64()
}

fn main() {
    let min = seconds();
    if std::env::args().any(|a| a == "--search-only") {
        search();
        return;
    }
    let threads = rayon::current_num_threads();
    let shape = Shape::new(3, 3).expect("3x3");
    let mut options = GenerateOptions::new(shape);
    options.minimal = true;

    println!("minimal 9x9 puzzles per second (no symmetry, best of {ROUNDS} alternating rounds):");
    let round = min / ROUNDS as u32;
    let mut generator = Generator::new(options);
    let (mut index, mut start) = (0, 0);
    let [mut ours1, mut theirs1, mut ours_n, mut theirs_n] = [0f64; 4];
    for _ in 0..ROUNDS {
        ours1 = ours1.max(rate(round, || {
            for _ in 0..64 {
                generator
                    .generate(1, index)
                    .expect("no target: always found");
                index += 1;
            }
            64
        }));
        theirs1 = theirs1.max(rate(round, || {
            for _ in 0..64 {
                std::hint::black_box(sudoku::Sudoku::generate_with_symmetry(
                    sudoku::Symmetry::None,
                ));
            }
            64
        }));
        ours_n = ours_n.max(rate(round, || {
            let n = 512 * threads as u64;
            generate_range(options, 2, start..start + n);
            start += n;
            n as usize
        }));
        theirs_n = theirs_n.max(rate(round, || {
            let n = 512 * threads;
            (0..n).into_par_iter().for_each(|_| {
                std::hint::black_box(sudoku::Sudoku::generate_with_symmetry(
                    sudoku::Symmetry::None,
                ));
            });
            n
        }));
    }
    println!(
        "  {:<28}{:>12}{:>12}",
        "",
        "1 thread",
        format!("{threads} threads")
    );
    println!("  {:<28}{ours1:>12.0}{ours_n:>12.0}", "sudokit Generator");
    println!(
        "  {:<28}{theirs1:>12.0}{theirs_n:>12.0}",
        "sudoku crate generate"
    );
    println!(
        "  ratio {:.2}x per core, {:.2}x scaling over {threads} threads",
        ours1 / theirs1,
        ours_n / ours1
    );

    println!("canonical forms per second (1 thread):");
    let puzzles: Vec<[u8; 81]> = generate_range(options, 3, 0..500)
        .into_iter()
        .map(|g| g.expect("found").puzzle.cells().try_into().expect("81"))
        .collect();
    let mut rng = sudokit::generate::puzzle_rng(4, 0);
    let grids: Vec<[u8; 81]> = (0..200)
        .map(|_| random_grid(shape, &mut rng).cells().try_into().expect("81"))
        .collect();
    let forms_p = rate(min, || {
        puzzles.iter().for_each(|p| {
            std::hint::black_box(canonical_form(p).unwrap());
        });
        puzzles.len()
    });
    let forms_g = rate(min, || {
        grids.iter().for_each(|g| {
            std::hint::black_box(canonical_form(g).unwrap());
        });
        grids.len()
    });
    let theirs_grids: Vec<sudoku::Sudoku> = grids
        .iter()
        .map(|g| sudoku::Sudoku::from_bytes(*g).expect("a grid"))
        .collect();
    let forms_theirs = rate(min, || {
        theirs_grids.iter().for_each(|g| {
            std::hint::black_box(g.canonicalized());
        });
        theirs_grids.len()
    });
    println!("  sudokit, minimal puzzles    {forms_p:>10.0}");
    println!("  sudokit, complete grids     {forms_g:>10.0}");
    println!("  sudoku crate, grids         {forms_theirs:>10.0}");
    search();
}

/// Times the neighbourhoods of the 40-clue puzzle on the whole pool.
fn search() {
    let seed: [u8; 81] = std::array::from_fn(|k| match FORTY.as_bytes()[k] {
        c @ b'1'..=b'9' => c - b'0',
        _ => 0,
    });
    println!(
        "neighbourhoods of the 40-clue minimal puzzle ({} threads):",
        rayon::current_num_threads()
    );
    for (r, a) in [(1, 2), (2, 1), (2, 2), (2, 3)] {
        let start = Instant::now();
        let (_, stats) = neighbourhood(&seed, r, a).unwrap();
        println!(
            "  {{-{r}+{a}}} {:>9.3} s  units {:>4}  candidates {:>7}  unique {:>6}  minimal {:>4}  new {:>4}",
            start.elapsed().as_secs_f64(),
            stats.units,
            stats.candidates,
            stats.unique,
            stats.minimal,
            stats.new
        );
    }
}
