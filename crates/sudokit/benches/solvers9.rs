//! 9×9 engine benchmark: puzzles per second, counting solutions up to 2 (the
//! uniqueness check), on the standard sets in `../shared/data/9x9` next to the
//! workspace (or the directory named by `SUDOKIT_DATA9`).
//!
//! For each set it prints one row: the rate of `Fast9Solver` on its SIMD path
//! and on its portable path, of `GeneralSolver`, and of the `sudoku` crate,
//! with `Fast9Solver`'s guesses per puzzle and, when `TDOKU_BENCH` names a
//! tdoku `run_benchmark` built locally (nothing of tdoku is in this
//! repository), tdoku's rate on the same file measured in the same run
//! (`-t<SOLVERS9_SECONDS> -w1 -e1 -v0`, which counts solutions up to 2) and
//! fast9's ratio to it. Before timing, it checks that every engine gives
//! every puzzle the same status (none, unique, multiple) and that every
//! solution `Fast9Solver` returns solves its puzzle.
//!
//! `cargo bench -p sudokit --bench solvers9 [-- NAME...]` runs the sets whose
//! file name contains one of the NAMEs (all sets without arguments).
//! `SOLVERS9_SECONDS` sets the timing per engine and set (default 1), spread
//! over five rounds in which the engines take turns; each rate is the best
//! round's.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use sudokit::grid::{Puzzle, Shape};
use sudokit::solver::fast9::Fast9Solver;
use sudokit::solver::general::GeneralSolver;
use sudokit::solver::{Solver, Status};

/// The standard sets' file names.
const SETS: [&str; 5] = [
    "puzzles2_17_clue.txt",
    "puzzles3_magictour_top1465.txt",
    "puzzles5_forum_hardest_1905_11+.txt",
    "puzzles6_forum_hardest_1106.txt",
    "puzzles7_serg_benchmark.txt",
];

/// tdoku's rate (puzzles/s) on `set`, from the `run_benchmark` program at
/// `program` run for `seconds`: the second column of its `|tdoku` row.
fn tdoku_rate(program: &std::path::Path, set: &std::path::Path, seconds: f64) -> Option<f64> {
    let output = std::process::Command::new(program)
        .arg(format!("-t{}", seconds.ceil().max(1.0) as u64))
        .args(["-w1", "-n250000", "-e1", "-v0"])
        .arg(set)
        .output()
        .ok()?;
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .find(|line| line.starts_with("|tdoku"))
        .and_then(|line| line.split('|').nth(2))
        .and_then(|rate| rate.trim().parse().ok())
}

fn data_dir() -> PathBuf {
    match std::env::var_os("SUDOKIT_DATA9") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/9x9"),
    }
}

fn parse(text: &str) -> Vec<[u8; 81]> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut cells = [0u8; 81];
            for (c, ch) in cells.iter_mut().zip(l.bytes()) {
                *c = if ch.is_ascii_digit() { ch - b'0' } else { 0 };
            }
            cells
        })
        .collect()
}

/// One timed sample: passes over all puzzles until `min` has elapsed;
/// returns puzzles per second.
fn sample(puzzles: &[[u8; 81]], min: Duration, count: &mut dyn FnMut(&[u8; 81]) -> u64) -> f64 {
    let mut passes = 0usize;
    let mut sink = 0u64;
    let start = Instant::now();
    loop {
        for p in puzzles {
            sink = sink.wrapping_add(count(std::hint::black_box(p)));
        }
        passes += 1;
        if start.elapsed() >= min {
            break;
        }
    }
    std::hint::black_box(sink);
    (passes * puzzles.len()) as f64 / start.elapsed().as_secs_f64()
}

/// An engine under test: counts one puzzle's solutions.
type Engine<'a> = &'a mut dyn FnMut(&[u8; 81]) -> u64;

/// The best of `ROUNDS` samples per engine, the engines taking turns so that
/// a change in machine load hits them alike.
fn rates(puzzles: &[[u8; 81]], total: Duration, engines: &mut [Engine]) -> Vec<f64> {
    const ROUNDS: u32 = 5;
    let min = total / ROUNDS;
    let mut best = vec![0.0f64; engines.len()];
    for _ in 0..ROUNDS {
        for (e, engine) in engines.iter_mut().enumerate() {
            best[e] = best[e].max(sample(puzzles, min, *engine));
        }
    }
    best
}

fn status_of_sudoku_crate(p: &[u8; 81]) -> Status {
    match sudoku::Sudoku::from_bytes(*p) {
        Ok(s) => Status::from_count(s.solutions_count_up_to(2) as u64),
        Err(_) => Status::None,
    }
}

fn main() {
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let min = Duration::from_secs_f64(
        std::env::var("SOLVERS9_SECONDS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(1.0),
    );
    let dir = data_dir();
    if !dir.is_dir() {
        println!(
            "solvers9: data directory {} is absent; set SUDOKIT_DATA9 to the 9x9 sets. Nothing measured.",
            dir.display()
        );
        return;
    }
    let shape = Shape::new(3, 3).unwrap();
    let mut simd = Fast9Solver::new();
    let mut scalar = Fast9Solver::scalar();
    let mut general = GeneralSolver::new(shape);
    println!(
        "Fast9Solver SIMD path available: {} (rates in puzzles/s, count up to 2, one thread)",
        simd.uses_simd()
    );
    println!(
        "{:<38} {:>7} {:>11} {:>11} {:>11} {:>11} {:>11} {:>11} {:>9}",
        "set",
        "puzzles",
        "fast9 simd",
        "fast9 scal",
        "general",
        "sudoku 0.8",
        "tdoku",
        "fast9/tdoku",
        "guesses"
    );
    let tdoku_program = std::env::var_os("TDOKU_BENCH").map(PathBuf::from);
    if tdoku_program.is_none() {
        println!("(tdoku not measured: set TDOKU_BENCH to a locally built tdoku run_benchmark)");
    }
    for name in SETS {
        if !filters.is_empty() && !filters.iter().any(|f| name.contains(f.as_str())) {
            continue;
        }
        let path = dir.join(name);
        let Ok(text) = std::fs::read_to_string(&path) else {
            println!("{name:<38} absent ({})", path.display());
            continue;
        };
        let puzzles = parse(&text);

        // Agreement: every engine, every puzzle, same status; solutions valid.
        let mut solution = [0u8; 81];
        for (i, p) in puzzles.iter().enumerate() {
            let a = simd.status(p, Some(&mut solution)).unwrap();
            if a != Status::None {
                let puzzle = Puzzle::new(shape, p.to_vec()).unwrap();
                let solved = Puzzle::new(shape, solution.to_vec()).unwrap();
                assert!(puzzle.is_solved_by(&solved), "{name} #{i}: bad solution");
            }
            assert_eq!(
                a,
                scalar.status(p, None).unwrap(),
                "{name} #{i}: scalar path disagrees"
            );
            assert_eq!(
                a,
                general.status(p, None).unwrap(),
                "{name} #{i}: GeneralSolver disagrees"
            );
            assert_eq!(
                a,
                status_of_sudoku_crate(p),
                "{name} #{i}: sudoku crate disagrees"
            );
        }

        let guesses: u64 = puzzles
            .iter()
            .map(|p| simd.solve(p, 2, None).unwrap().guesses)
            .sum();
        let r = rates(
            &puzzles,
            min,
            &mut [
                &mut |p| simd.solve(p, 2, None).unwrap().solutions,
                &mut |p| scalar.solve(p, 2, None).unwrap().solutions,
                &mut |p| general.solve(p, 2, None).unwrap().solutions,
                &mut |p| {
                    sudoku::Sudoku::from_bytes(*p).map_or(0, |s| s.solutions_count_up_to(2) as u64)
                },
            ],
        );
        let (r_simd, r_scalar, r_general, r_crate) = (r[0], r[1], r[2], r[3]);
        let tdoku = tdoku_program
            .as_deref()
            .and_then(|program| tdoku_rate(program, &path, min.as_secs_f64()));
        let (tdoku, ratio) = match tdoku {
            Some(rate) => (format!("{rate:.0}"), format!("{:.2}", r_simd / rate)),
            None => ("-".to_string(), "-".to_string()),
        };
        println!(
            "{:<38} {:>7} {:>11.0} {:>11.0} {:>11.0} {:>11.0} {:>11} {:>11} {:>9.2}",
            name.trim_end_matches(".txt"),
            puzzles.len(),
            r_simd,
            r_scalar,
            r_general,
            r_crate,
            tdoku,
            ratio,
            guesses as f64 / puzzles.len() as f64
        );
    }
}
