//! The generator and the hunt, timed side by side in one run:
//!
//! - minimal puzzles per second: [`Generator`] against the `sudoku` crate's
//!   `generate_with_symmetry(Symmetry::None)` (also minimal), on one thread
//!   and on every thread of the pool;
//! - canonical forms per second, of minimal puzzles and of complete grids
//!   (the `sudoku` crate canonicalises grids only: its rate beside ours);
//! - neighbourhood hunts, each beside a brute force written for this bench
//!   (every set of added (cell, digit) clues, in increasing cell order, each
//!   step checked with the 9×9 engine: a puzzle with no solution or a
//!   unique one is not extended, a unique one of the full size is kept when
//!   minimal) on the same pool, with the finds of both compared: {−1+1} and
//!   {−2+2} of 17-clue puzzles (the first of
//!   `../shared/data/9x9/puzzles2_17_clue.txt`, skipped with a note when it
//!   is absent) and {−1+2}, {−2+1}, {−2+2}, {−2+3} of the 40-clue minimal
//!   puzzle. When `HUNT_BASELINE` names another `sudokit` binary (an older
//!   build, to measure a change), its `sudokit search` runs on the same
//!   seeds, stopped after `HUNT_BASELINE_SECONDS` (default 120).
//!
//! `cargo bench -p sudokit --bench hunt [-- --search-only]`; `HUNT_SECONDS`
//! sets each timing of the generator and canonical forms (default 2);
//! `HUNT_SEEDS17` the number of 17-clue seeds (default 4; the {−2+2} rows
//! take a quarter of them).

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use rayon::prelude::*;
use sudokit::canon::canonical_form;
use sudokit::generate::{generate_range, random_grid, GenerateOptions, Generator};
use sudokit::grid::Shape;
use sudokit::search::{neighbourhood, removals};
use sudokit::solver::fast9::Fast9Solver;
use sudokit::solver::Solver;

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

/// A puzzle from its 81-character line.
fn cells(line: &str) -> [u8; 81] {
    std::array::from_fn(|k| match line.as_bytes()[k] {
        c @ b'1'..=b'9' => c - b'0',
        _ => 0,
    })
}

/// The first `n` 17-clue puzzles of the shared data, or why there are none.
fn seventeens(n: usize) -> Result<Vec<[u8; 81]>, String> {
    let dir = match std::env::var_os("SUDOKIT_DATA9") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/9x9"),
    };
    let path = dir.join("puzzles2_17_clue.txt");
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("17-clue seeds absent ({}: {e})", path.display()))?;
    Ok(text
        .lines()
        .filter(|l| l.len() >= 81 && !l.starts_with('#'))
        .take(n)
        .map(cells)
        .collect())
}

/// Digits each cell may take (bit `d` for digit `d + 1`): none at a clue,
/// else those its row, column and box lack.
fn free_digits(puzzle: &[u8; 81]) -> [u16; 81] {
    let unit = |k: usize| [k / 9, 9 + k % 9, 18 + k / 27 * 3 + k % 9 / 3];
    let mut used = [0u16; 27];
    for (k, &v) in puzzle.iter().enumerate() {
        if v != 0 {
            for u in unit(k) {
                used[u] |= 1 << (v - 1);
            }
        }
    }
    std::array::from_fn(|k| {
        let [a, b, c] = unit(k);
        if puzzle[k] == 0 {
            !(used[a] | used[b] | used[c]) & 0x1FF
        } else {
            0
        }
    })
}

/// Whether removing any clue of the unique `puzzle` leaves several solutions.
fn minimal(solver: &mut Fast9Solver, puzzle: &[u8; 81]) -> bool {
    let mut probe = *puzzle;
    (0..81).filter(|&k| puzzle[k] != 0).all(|k| {
        probe[k] = 0;
        let several = solver.solve(&probe, 2, None).unwrap().solutions >= 2;
        probe[k] = puzzle[k];
        several
    })
}

/// The brute force: every set of `left` clues added to `puzzle` at cells
/// from `from` on, in increasing cell order, with digits the cell's row,
/// column and box allow (not `undo[k]`, the seed's own digit at a removed
/// cell); each step's puzzle checked, unique minimal ones of the full size
/// kept.
fn brute(
    solver: &mut Fast9Solver,
    puzzle: &[u8; 81],
    undo: &[u8; 81],
    from: usize,
    left: usize,
    out: &mut Vec<[u8; 81]>,
) {
    let free = free_digits(puzzle);
    for k in from..81 {
        let mut digits = free[k];
        while digits != 0 {
            let d = digits.trailing_zeros() as u8 + 1;
            digits &= digits - 1;
            if undo[k] == d {
                continue;
            }
            let mut next = *puzzle;
            next[k] = d;
            match solver.solve(&next, 2, None).unwrap().solutions {
                0 => {}
                1 => {
                    if left == 1 && minimal(solver, &next) {
                        out.push(next);
                    }
                }
                _ => {
                    if left > 1 {
                        brute(solver, &next, undo, k + 1, left - 1, out);
                    }
                }
            }
        }
    }
}

/// The brute force's {−R+A} neighbourhood of `seed` on the whole pool.
fn brute_neighbourhood(seed: &[u8; 81], remove: usize, add: usize) -> Vec<[u8; 81]> {
    let clues: Vec<u8> = (0..81).filter(|&k| seed[k as usize] != 0).collect();
    let units: Vec<Vec<u8>> = removals(&clues, remove).collect();
    units
        .par_iter()
        .map_init(Fast9Solver::new, |solver, removed| {
            let (mut reduced, mut undo) = (*seed, [0u8; 81]);
            for &k in removed {
                reduced[k as usize] = 0;
                undo[k as usize] = seed[k as usize];
            }
            let mut out = Vec::new();
            brute(solver, &reduced, &undo, 0, add, &mut out);
            out
        })
        .flatten()
        .collect()
}

/// Seconds `program search` takes over `seeds`, or `None` when it is
/// stopped after `limit`.
fn baseline(
    program: &PathBuf,
    seeds: &[[u8; 81]],
    r: usize,
    a: usize,
    limit: Duration,
) -> Option<f64> {
    let dir = std::env::temp_dir().join(format!("sudokit-hunt-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let text: String = seeds
        .iter()
        .map(|s| {
            s.iter()
                .map(|&v| if v == 0 { '.' } else { (b'0' + v) as char })
                .collect::<String>()
                + "\n"
        })
        .collect();
    let (input, out) = (dir.join("seeds.txt"), dir.join("finds.txt"));
    std::fs::write(&input, text).expect("seeds written");
    let _ = std::fs::remove_file(&out);
    let start = Instant::now();
    let mut child = Command::new(program)
        .args([
            "search",
            "--quiet",
            "--remove",
            &r.to_string(),
            "--add",
            &a.to_string(),
            "--out",
        ])
        .arg(&out)
        .arg(&input)
        .stdout(Stdio::null())
        .spawn()
        .expect("HUNT_BASELINE runs");
    let finished = loop {
        if let Some(status) = child.try_wait().expect("waiting for the baseline") {
            assert!(status.success(), "HUNT_BASELINE failed: {status}");
            break Some(start.elapsed().as_secs_f64());
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let _ = std::fs::remove_dir_all(&dir);
    finished
}

/// Times hunts beside the brute force (and the baseline binary), checking
/// that both find the same puzzles.
fn search() {
    let threads = rayon::current_num_threads();
    let n17: usize = std::env::var("HUNT_SEEDS17")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(4);
    let program = std::env::var_os("HUNT_BASELINE").map(PathBuf::from);
    let limit = Duration::from_secs_f64(
        std::env::var("HUNT_BASELINE_SECONDS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(120.0),
    );
    let forty = vec![cells(FORTY)];
    let mut cases: Vec<(String, Vec<[u8; 81]>, usize, usize)> = Vec::new();
    match seventeens(n17) {
        Ok(seeds) => {
            let quarter = seeds[..seeds.len().div_ceil(4)].to_vec();
            cases.push((format!("{} 17-clue", seeds.len()), seeds, 1, 1));
            cases.push((format!("{} 17-clue", quarter.len()), quarter, 2, 2));
        }
        Err(why) => println!("({why}: the 17-clue rows are skipped)"),
    }
    for (r, a) in [(1, 2), (2, 1), (2, 2), (2, 3)] {
        cases.push(("the 40-clue".to_string(), forty.clone(), r, a));
    }
    println!(
        "neighbourhood hunts, seconds on {threads} threads (finds compared with the brute force):"
    );
    if program.is_none() {
        println!(
            "(no baseline: set HUNT_BASELINE to another sudokit binary to time its search too)"
        );
    }
    println!(
        "  {:<12}{:>8}{:>8}{:>9}{:>10}{:>10}{:>8}{:>10}",
        "seeds", "{-R+A}", "units", "minimal", "sudokit", "brute", "ratio", "baseline"
    );
    for (name, seeds, r, a) in cases {
        let start = Instant::now();
        let mut ours = Vec::new();
        let mut units = 0;
        for seed in &seeds {
            let (finds, stats) = neighbourhood(seed, r, a).unwrap();
            ours.extend(finds);
            units += stats.units;
        }
        let ours_s = start.elapsed().as_secs_f64();
        let start = Instant::now();
        let theirs: Vec<[u8; 81]> = seeds
            .iter()
            .flat_map(|seed| brute_neighbourhood(seed, r, a))
            .collect();
        let brute_s = start.elapsed().as_secs_f64();
        let (ours_set, theirs_set): (BTreeSet<_>, BTreeSet<_>) =
            (ours.iter().collect(), theirs.iter().collect());
        assert_eq!(
            ours_set, theirs_set,
            "{name} {{-{r}+{a}}}: the brute force disagrees"
        );
        let base = match &program {
            Some(p) => match baseline(p, &seeds, r, a, limit) {
                Some(s) => format!("{s:.3}"),
                None => format!(">{:.0}", limit.as_secs_f64()),
            },
            None => "-".to_string(),
        };
        println!(
            "  {name:<12}{:>8}{units:>8}{:>9}{ours_s:>10.3}{brute_s:>10.3}{:>8.2}{base:>10}",
            format!("{{-{r}+{a}}}"),
            ours.len(),
            brute_s / ours_s,
        );
    }
}
