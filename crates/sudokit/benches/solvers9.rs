//! 9×9 engine benchmark: puzzles per second, counting solutions up to 2 (the
//! uniqueness check), on the standard sets in `../shared/data/9x9` next to the
//! workspace (or the directory named by `SUDOKIT_DATA9`).
//!
//! For each set it prints one row: the rate of `Fast9Solver` on each code
//! path this CPU runs (AVX-512, AVX2, portable), of `GeneralSolver`, and of
//! the `sudoku` crate, with `Fast9Solver`'s guesses per puzzle. When
//! `TDOKU_BENCH` names a tdoku `run_benchmark` built locally (nothing of
//! tdoku is in this repository; build it with `-O3 -march=native`), the row
//! adds tdoku's rate on the same file measured in the same run
//! (`-t<SOLVERS9_SECONDS> -w1 -e1 -v0`, which counts solutions up to 2) and
//! the ratio of fast9's best path to it; `TDOKU_BENCH_AVX2` likewise names a
//! tdoku built with `-O3 -mavx2 -mbmi2` (what an AVX2-only machine runs),
//! compared with fast9's AVX2 path. Before timing, it checks that every
//! engine gives every puzzle the same status (none, unique, multiple), that
//! every solution `Fast9Solver` returns solves its puzzle, and that the AVX2
//! and portable paths make the same guesses. (The AVX-512 path's quick
//! search also applies the column logic, so it guesses differently; the
//! last column gives its guesses per puzzle, and the one before the other
//! paths'.)
//!
//! `cargo bench -p sudokit --bench solvers9 [-- NAME...]` runs the sets whose
//! file name contains one of the NAMEs (all sets without arguments).
//! `SOLVERS9_SECONDS` sets the timing per engine and set (default 1), spread
//! over five rounds in which the engines take turns; each rate is the best
//! round's.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use sudokit::grid::{Puzzle, Shape};
use sudokit::solver::fast9::{CodePath, Fast9Solver};
use sudokit::solver::general::GeneralSolver;
use sudokit::solver::{Outcome, Solver, Status};

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

/// An engine under test, owned.
type OwnedEngine<'a> = Box<dyn FnMut(&[u8; 81]) -> u64 + 'a>;

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
    // Fastest path first.
    let paths: Vec<CodePath> = CodePath::available().into_iter().rev().collect();
    let mut fast9: Vec<Fast9Solver> = paths
        .iter()
        .map(|&path| Fast9Solver::with_path(path).unwrap())
        .collect();
    let mut general = GeneralSolver::new(shape);
    let tdoku_native = std::env::var_os("TDOKU_BENCH").map(PathBuf::from);
    let tdoku_avx2 = std::env::var_os("TDOKU_BENCH_AVX2").map(PathBuf::from);
    println!(
        "Fast9Solver code paths on this CPU: {} (rates in puzzles/s, count up to 2, one thread)",
        paths
            .iter()
            .map(|p| p.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    if tdoku_native.is_none() {
        println!("(tdoku not measured: set TDOKU_BENCH to a locally built tdoku run_benchmark)");
    }
    let mut header = format!("{:<34} {:>7}", "set", "puzzles");
    for path in &paths {
        header += &format!(" {:>14}", format!("fast9 {path}"));
    }
    header += &format!(" {:>9} {:>10}", "general", "sudoku 0.8");
    if tdoku_native.is_some() {
        header += &format!(" {:>9} {:>11}", "tdoku", "best/tdoku");
    }
    if tdoku_avx2.is_some() {
        header += &format!(" {:>10} {:>10}", "tdoku avx2", "avx2/avx2");
    }
    header += &format!(" {:>8} {:>8}", "guesses", "(avx512)");
    println!("{header}");
    for name in SETS {
        if !filters.is_empty() && !filters.iter().any(|f| name.contains(f.as_str())) {
            continue;
        }
        let path = dir.join(name);
        let Ok(text) = std::fs::read_to_string(&path) else {
            println!("{name:<34} absent ({})", path.display());
            continue;
        };
        let puzzles = parse(&text);

        // Agreement: every engine, every puzzle, same status; solutions
        // valid; the paths without the vector fixpoint the same search.
        let mut solution = [0u8; 81];
        let (mut guesses, mut vector_guesses) = (0u64, 0u64);
        for (i, p) in puzzles.iter().enumerate() {
            let mut scalar: Option<Outcome> = None;
            let mut status = None;
            for solver in &mut fast9 {
                let outcome = solver.solve(p, 2, Some(&mut solution)).unwrap();
                let found = Status::from_count(outcome.solutions);
                assert_eq!(
                    *status.get_or_insert(found),
                    found,
                    "{name} #{i}: the {} path disagrees",
                    solver.path()
                );
                if found != Status::None {
                    let puzzle = Puzzle::new(shape, p.to_vec()).unwrap();
                    let solved = Puzzle::new(shape, solution.to_vec()).unwrap();
                    assert!(puzzle.is_solved_by(&solved), "{name} #{i}: bad solution");
                }
                if solver.path() == CodePath::Avx512 {
                    vector_guesses += outcome.guesses;
                } else {
                    assert_eq!(
                        *scalar.get_or_insert(outcome),
                        outcome,
                        "{name} #{i}: the {} path searches differently",
                        solver.path()
                    );
                }
            }
            let status = status.expect("at least the portable path");
            guesses += scalar.map_or(0, |o| o.guesses);
            assert_eq!(
                status,
                general.status(p, None).unwrap(),
                "{name} #{i}: GeneralSolver disagrees"
            );
            assert_eq!(
                status,
                status_of_sudoku_crate(p),
                "{name} #{i}: sudoku crate disagrees"
            );
        }

        let mut engines: Vec<OwnedEngine> = Vec::new();
        for solver in &mut fast9 {
            engines.push(Box::new(move |p| {
                solver.solve(p, 2, None).unwrap().solutions
            }));
        }
        let general = &mut general;
        engines.push(Box::new(move |p| {
            general.solve(p, 2, None).unwrap().solutions
        }));
        engines.push(Box::new(|p| {
            sudoku::Sudoku::from_bytes(*p).map_or(0, |s| s.solutions_count_up_to(2) as u64)
        }));
        let mut refs: Vec<Engine> = engines.iter_mut().map(|e| &mut **e as Engine).collect();
        let r = rates(&puzzles, min, &mut refs);
        let mut row = format!("{:<34} {:>7}", name.trim_end_matches(".txt"), puzzles.len());
        for rate in &r[..paths.len()] {
            row += &format!(" {rate:>14.0}");
        }
        row += &format!(" {:>9.0} {:>10.0}", r[paths.len()], r[paths.len() + 1]);
        let seconds = min.as_secs_f64();
        if let Some(program) = &tdoku_native {
            match tdoku_rate(program, &path, seconds) {
                Some(t) => row += &format!(" {t:>9.0} {:>11.2}", r[0] / t),
                None => row += &format!(" {:>9} {:>11}", "failed", "-"),
            }
        }
        if let Some(program) = &tdoku_avx2 {
            let ours = paths.iter().position(|&p| p == CodePath::Avx2);
            match (tdoku_rate(program, &path, seconds), ours) {
                (Some(t), Some(k)) => row += &format!(" {t:>10.0} {:>10.2}", r[k] / t),
                (Some(t), None) => row += &format!(" {t:>10.0} {:>10}", "-"),
                (None, _) => row += &format!(" {:>10} {:>10}", "failed", "-"),
            }
        }
        let per_puzzle = |g: u64| g as f64 / puzzles.len() as f64;
        row += &format!(" {:>8.2}", per_puzzle(guesses));
        if paths.contains(&CodePath::Avx512) {
            row += &format!(" {:>8.2}", per_puzzle(vector_guesses));
        } else {
            row += &format!(" {:>8}", "-");
        }
        println!("{row}");
    }
}
