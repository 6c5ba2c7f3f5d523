//! Large-grid benchmark: sudokit's engine for each shape (`solver_for`: the
//! general engine up to 16×16, the general-then-SAT portfolio above) on
//! 16×16, 25×25 and 36×36 puzzles, one thread, solutions counted up to 2 (the
//! analyzer's question), each first solution checked against its puzzle; for
//! the larger shapes also the general engine alone ("general s", `+k` when it
//! gave up on k puzzles).
//!
//! The sets are random puzzles from `random_puzzle` (half of them given one
//! wrong clue) at the clue counts where search is hardest, and minimal 16×16
//! puzzles from the generator, made from fixed seeds. Making them uses the
//! engine (for the random grids), so a changed engine would make other
//! puzzles: the first run writes each set to `target/large-sets/` and later
//! runs read it from there, so two commits run in the same checkout (or with
//! the same `LARGE_SETS` directory) compare on the same puzzles. It also
//! times the generator itself on minimal 16×16 puzzles, whose carving pass
//! is mostly proofs that a candidate has no solution. No other program
//! solves these shapes to run beside it: the ratios to watch are between
//! commits, run back to back.
//!
//! Beside it, in the same run, CaDiCaL (the SAT solver, through the `cadical`
//! dev-dependency, which builds its C++ source; the encoding is in
//! `tests/common/sat.rs`) counts each puzzle's solutions up to 2 the
//! same way, a fresh solver per puzzle, encoding included in its time; the
//! row gives its seconds, of which inside CaDiCaL's `solve` calls (the rest
//! is adding the clauses), sudokit's lead over each (CaDiCaL's time over
//! sudokit's), and checks that both give every puzzle they both answer the
//! same status.
//! `LARGE_SAT=0` leaves CaDiCaL out, and `LARGE_SAT_CONFIG=NAME` runs it
//! with one of its option sets (`sat`, `unsat`, `plain`; the library's SAT
//! engine uses `sat`) instead of its defaults. The portfolio and CaDiCaL
//! need the `sat` feature (`cargo bench -p sudokit --features sat --bench
//! large`).
//!
//! `cargo bench -p sudokit --bench large [-- NAME...]` runs the sets whose
//! names contain one of the given words (all without arguments). A puzzle
//! still unanswered after `LARGE_DEADLINE` seconds (default 60) is counted
//! as given up rather than hanging the run, by either solver.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sudokit::generate::{random_puzzle, GenerateOptions, Generator};
use sudokit::grid::{Puzzle, Shape};
use sudokit::solver::general::GeneralSolver;
use sudokit::solver::{solver_for, Solver};

#[cfg(feature = "sat")]
#[path = "../tests/common/sat.rs"]
mod sat;

/// Cell values as characters: `0` for a blank, then `1`–`9`, `A`–`Z`, `a`
/// (36).
const DIGITS: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZa";

/// The set kept as `name` in `dir`, or `make`'s, written there for the next
/// run.
fn kept_set(
    dir: &Path,
    name: &str,
    shape: Shape,
    make: impl FnOnce() -> Vec<Puzzle>,
) -> Vec<Puzzle> {
    let path = dir.join(format!("{name}.txt"));
    if let Ok(text) = std::fs::read(&path) {
        return text
            .split(|&b| b == b'\n')
            .filter(|line| !line.is_empty())
            .map(|line| {
                let cells = line
                    .iter()
                    .map(|c| DIGITS.iter().position(|d| d == c).expect("a kept cell") as u8)
                    .collect();
                Puzzle::new(shape, cells).expect("a kept puzzle")
            })
            .collect();
    }
    let set = make();
    let mut text = Vec::new();
    for puzzle in &set {
        text.extend(puzzle.cells().iter().map(|&v| DIGITS[v as usize]));
        text.push(b'\n');
    }
    std::fs::create_dir_all(dir).expect("the sets directory");
    std::fs::write(&path, text).expect("a set file");
    set
}

/// Random puzzles of `shape` with `clues` clues, `count` of them, from
/// `seed`.
fn random_set(shape: Shape, clues: usize, count: usize, seed: u64) -> Vec<Puzzle> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..count)
        .map(|_| random_puzzle(shape, clues, 0.5, &mut rng))
        .collect()
}

/// `count` minimal puzzles of `shape` from seed 1, and the seconds the
/// generator took.
fn minimal_set(shape: Shape, count: u64) -> (Vec<Puzzle>, f64) {
    let mut options = GenerateOptions::new(shape);
    options.minimal = true;
    let mut generator = Generator::new(options);
    let started = Instant::now();
    let puzzles = (0..count)
        .map(|index| {
            generator
                .generate(1, index)
                .expect("a minimal puzzle")
                .puzzle
        })
        .collect();
    (puzzles, started.elapsed().as_secs_f64())
}

/// What one set's run measured.
struct Tally {
    seconds: f64,
    slowest_ms: f64,
    guesses: u64,
    statuses: [usize; 3],
    gave_up: usize,
    /// Each puzzle's solution count (up to 2), `None` when given up.
    counts: Vec<Option<u64>>,
}

/// What CaDiCaL did with one set (only made with the `sat` feature).
#[cfg_attr(not(feature = "sat"), allow(dead_code))]
struct SatTally {
    seconds: f64,
    /// Of which inside CaDiCaL's `solve` (the rest builds the encoding).
    solving: f64,
    slowest_ms: f64,
    gave_up: usize,
    counts: Vec<Option<u64>>,
}

/// CaDiCaL on every puzzle of `set` when `wanted`, counting to 2, each
/// first solution checked.
#[cfg(feature = "sat")]
fn run_sat(
    set: &[Puzzle],
    deadline: Duration,
    wanted: bool,
    config: Option<&str>,
) -> Option<SatTally> {
    wanted.then(|| run_sat_all(set, deadline, config))
}

/// Without the `sat` feature there is no CaDiCaL to run.
#[cfg(not(feature = "sat"))]
fn run_sat(_: &[Puzzle], _: Duration, _: bool, _: Option<&str>) -> Option<SatTally> {
    None
}

/// [`run_sat`] on every puzzle.
#[cfg(feature = "sat")]
fn run_sat_all(set: &[Puzzle], deadline: Duration, config: Option<&str>) -> SatTally {
    let shape = set[0].shape();
    let mut tally = SatTally {
        seconds: 0.0,
        solving: 0.0,
        slowest_ms: 0.0,
        gave_up: 0,
        counts: Vec::with_capacity(set.len()),
    };
    let started = Instant::now();
    for puzzle in set {
        let t = Instant::now();
        let answer = sat::sat_count(puzzle, 2, deadline, config);
        match &answer {
            Some(a) => {
                tally.solving += a.solving.as_secs_f64();
                if let Some(grid) = &a.first {
                    let solved = Puzzle::new(shape, grid.clone()).expect("a grid");
                    assert!(puzzle.is_solved_by(&solved), "CaDiCaL: wrong solution");
                }
            }
            None => tally.gave_up += 1,
        }
        tally.counts.push(answer.map(|a| a.solutions));
        tally.slowest_ms = tally.slowest_ms.max(t.elapsed().as_secs_f64() * 1e3);
    }
    tally.seconds = started.elapsed().as_secs_f64();
    tally
}

/// Answers every puzzle of `set` with `solver`, checking each first
/// solution.
fn run(solver: &mut dyn Solver, set: &[Puzzle], deadline: Duration) -> Tally {
    let shape = set[0].shape();
    let mut solution = vec![0; shape.cell_count()];
    let mut tally = Tally {
        seconds: 0.0,
        slowest_ms: 0.0,
        guesses: 0,
        statuses: [0; 3],
        gave_up: 0,
        counts: Vec::with_capacity(set.len()),
    };
    let started = Instant::now();
    for puzzle in set {
        let t = Instant::now();
        let count = match solver
            .solve_until(
                puzzle.cells(),
                2,
                Some(&mut solution),
                &sudokit::budget::Budget::until(t + deadline),
            )
            .unwrap()
        {
            Some(outcome) => {
                if outcome.solutions > 0 {
                    let solved = Puzzle::new(shape, solution.clone()).expect("a grid");
                    assert!(puzzle.is_solved_by(&solved), "wrong solution");
                }
                tally.statuses[outcome.solutions.min(2) as usize] += 1;
                tally.guesses += outcome.guesses;
                Some(outcome.solutions)
            }
            None => {
                tally.gave_up += 1;
                None
            }
        };
        tally.counts.push(count);
        tally.slowest_ms = tally.slowest_ms.max(t.elapsed().as_secs_f64() * 1e3);
    }
    tally.seconds = started.elapsed().as_secs_f64();
    tally
}

fn main() {
    let words: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let wanted = |name: &str| words.is_empty() || words.iter().any(|w| name.contains(w.as_str()));
    let deadline = Duration::from_secs_f64(
        std::env::var("LARGE_DEADLINE")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(60.0),
    );
    let dir = std::env::var_os("LARGE_SETS").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/large-sets"),
        PathBuf::from,
    );
    println!("sets in {}", dir.display());
    let with_sat = std::env::var("LARGE_SAT").map_or(true, |v| v != "0");
    let sat_config = std::env::var("LARGE_SAT_CONFIG").ok();
    if with_sat && cfg!(feature = "sat") {
        match &sat_config {
            Some(name) => println!("CaDiCaL column: its `{name}` configuration"),
            None => println!(
                "CaDiCaL column: its defaults (LARGE_SAT_CONFIG=sat for its `sat` configuration)"
            ),
        }
    }
    if !cfg!(feature = "sat") {
        println!(
            "(built without the `sat` feature: no portfolio and no CaDiCaL column; \
             `cargo bench -p sudokit --features sat --bench large` has both)"
        );
    }
    let s16: Shape = "4x4".parse().unwrap();
    let s25: Shape = "5x5".parse().unwrap();
    let s36: Shape = "6x6".parse().unwrap();
    println!(
        "{:<24} {:>8} {:>10} {:>12} {:>11} {:>10} {:>9} {:>10} {:>9} {:>9} {:>7} {:>7}  none/unique/multiple",
        "set", "puzzles", "seconds", "general s", "puzzles/s", "guesses", "max ms", "CaDiCaL s", "solving", "max ms", "lead", "vs solve"
    );
    let report = |name: &str, set: &[Puzzle]| {
        let shape = set[0].shape();
        let t = run(solver_for(shape).as_mut(), set, deadline);
        let general = if shape.side() > 16 && cfg!(feature = "sat") {
            let g = run(&mut GeneralSolver::new(shape), set, deadline);
            for (i, (a, b)) in t.counts.iter().zip(&g.counts).enumerate() {
                if let (Some(a), Some(b)) = (a, b) {
                    assert_eq!(a, b, "{name} #{}: the engines disagree", i + 1);
                }
            }
            let gave_up = if g.gave_up > 0 {
                format!("+{}", g.gave_up)
            } else {
                String::new()
            };
            format!("{:>9.3}{gave_up:<3}", g.seconds)
        } else {
            format!("{:>9}{:<3}", "same", "")
        };
        let answered = set.len() - t.gave_up;
        let sat = run_sat(set, deadline, with_sat, sat_config.as_deref());
        let sat_columns = match &sat {
            Some(s) => {
                for (i, (a, b)) in t.counts.iter().zip(&s.counts).enumerate() {
                    if let (Some(a), Some(b)) = (a, b) {
                        assert_eq!(a, b, "{name} #{}: sudokit and CaDiCaL disagree", i + 1);
                    }
                }
                format!(
                    "{:>10.3} {:>9.3} {:>9.1} {:>6.2}x {:>6.2}x",
                    s.seconds,
                    s.solving,
                    s.slowest_ms,
                    s.seconds / t.seconds,
                    s.solving / t.seconds
                )
            }
            None => format!("{:>10} {:>9} {:>9} {:>7} {:>7}", "-", "-", "-", "-", "-"),
        };
        let mut gave_up = Vec::new();
        if t.gave_up > 0 {
            gave_up.push(format!("sudokit gave up on {}", t.gave_up));
        }
        if let Some(s) = sat.as_ref().filter(|s| s.gave_up > 0) {
            gave_up.push(format!("CaDiCaL gave up on {}", s.gave_up));
        }
        println!(
            "{:<24} {:>8} {:>10.3} {} {:>11.1} {:>10.1} {:>9.1} {}  {}/{}/{}{}",
            name,
            set.len(),
            t.seconds,
            general,
            set.len() as f64 / t.seconds,
            t.guesses as f64 / answered.max(1) as f64,
            t.slowest_ms,
            sat_columns,
            t.statuses[0],
            t.statuses[1],
            t.statuses[2],
            if gave_up.is_empty() {
                String::new()
            } else {
                format!(" ({} after {:?} each)", gave_up.join(", "), deadline)
            }
        );
    };
    for (clues, seed) in [(70, 70), (80, 80), (90, 90)] {
        let name = format!("16x16-random-{clues}");
        if wanted(&name) {
            let set = kept_set(&dir, &name, s16, || random_set(s16, clues, 500, seed));
            report(&name, &set);
        }
    }
    if wanted("16x16-minimal") {
        let (made, seconds) = minimal_set(s16, 60);
        println!(
            "{:<24} {:>8} {:>10.3} {:>11.1}  (the generator, carving)",
            "16x16-minimal-generate",
            made.len(),
            seconds,
            made.len() as f64 / seconds
        );
        let set = kept_set(&dir, "16x16-minimal", s16, || made);
        report("16x16-minimal", &set);
    }
    for (clues, seed) in [(260, 260), (280, 280), (300, 300)] {
        let name = format!("25x25-random-{clues}");
        if wanted(&name) {
            let set = kept_set(&dir, &name, s25, || random_set(s25, clues, 150, seed));
            report(&name, &set);
        }
    }
    for (clues, seed) in [(650, 650), (700, 700), (800, 800)] {
        let name = format!("36x36-random-{clues}");
        if wanted(&name) {
            let set = kept_set(&dir, &name, s36, || random_set(s36, clues, 20, seed));
            report(&name, &set);
        }
    }
}
