//! `Fast9Solver` against independent answers: the plain `ReferenceSolver`
//! and the `sudoku` crate, on seeded random puzzles (unique, multiple,
//! contradictory, nearly empty) and on a committed sample of hard puzzles,
//! through every code path this CPU runs (portable, AVX2, AVX-512).

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use sudokit::grid::{Puzzle, Shape};
use sudokit::solver::fast9::{CodePath, Fast9Solver};
use sudokit::solver::reference::ReferenceSolver;
use sudokit::solver::{Outcome, Solver, Status};

fn shape() -> Shape {
    Shape::new(3, 3).unwrap()
}

/// A solver on every code path this CPU runs, the portable one first.
fn engines() -> Vec<Fast9Solver> {
    CodePath::available()
        .into_iter()
        .map(|path| Fast9Solver::with_path(path).expect("an available path"))
        .collect()
}

/// A random solved grid: a pattern grid under random validity-preserving
/// transformations (digit relabelling, row and column shuffles within bands
/// and stacks, band and stack shuffles, transposition).
fn random_grid(rng: &mut StdRng) -> [u8; 81] {
    let mut digits: Vec<u8> = (1..=9).collect();
    digits.shuffle(rng);
    let mut lines = || {
        let mut bands = [0usize, 1, 2];
        bands.shuffle(rng);
        let mut order = Vec::with_capacity(9);
        for b in bands {
            let mut rows = [0usize, 1, 2];
            rows.shuffle(rng);
            order.extend(rows.iter().map(|r| 3 * b + r));
        }
        order
    };
    let rows = lines();
    let cols = lines();
    let transpose = rng.gen_bool(0.5);
    let mut grid = [0u8; 81];
    for r in 0..9 {
        for c in 0..9 {
            let (pr, pc) = (rows[r], cols[c]);
            let (pr, pc) = if transpose { (pc, pr) } else { (pr, pc) };
            grid[9 * r + c] = digits[(3 * (pr % 3) + pr / 3 + pc) % 9];
        }
    }
    assert!(Puzzle::new(shape(), grid.to_vec())
        .unwrap()
        .is_valid_solution());
    grid
}

/// `grid` with all but `clues` cells blanked at random.
fn blank(rng: &mut StdRng, grid: &[u8; 81], clues: usize) -> [u8; 81] {
    let mut cells: Vec<usize> = (0..81).collect();
    cells.shuffle(rng);
    let mut p = [0u8; 81];
    for &c in &cells[..clues] {
        p[c] = grid[c];
    }
    p
}

/// Checks one puzzle on both paths: the count agrees with `expected` and any
/// returned solution solves the puzzle.
fn check(givens: &[u8; 81], limit: u64, expected: u64, what: &str) {
    let puzzle = Puzzle::new(shape(), givens.to_vec()).unwrap();
    for mut engine in engines() {
        let mut solution = [0u8; 81];
        let Outcome { solutions, .. } = engine.solve(givens, limit, Some(&mut solution)).unwrap();
        assert_eq!(
            solutions,
            expected,
            "{what}: path {} count for {}",
            engine.path(),
            line(givens)
        );
        if solutions > 0 {
            let solved = Puzzle::new(shape(), solution.to_vec()).unwrap();
            assert!(
                puzzle.is_solved_by(&solved),
                "{what}: bad solution for {}",
                line(givens)
            );
        }
    }
}

fn line(p: &[u8; 81]) -> String {
    p.iter()
        .map(|&v| if v == 0 { '.' } else { (b'0' + v) as char })
        .collect()
}

fn oracle_count(p: &[u8; 81], limit: usize) -> u64 {
    sudoku::Sudoku::from_bytes(*p).map_or(0, |s| s.solutions_count_up_to(limit) as u64)
}

#[test]
fn shape_and_defaults() {
    let engine = Fast9Solver::default();
    assert_eq!(engine.shape(), shape());
    assert!(!Fast9Solver::scalar().uses_simd());
    assert_eq!(Fast9Solver::new().path(), CodePath::best());
    for path in CodePath::ALL {
        let engine = Fast9Solver::with_path(path);
        assert_eq!(engine.is_some(), path.is_available(), "{path}");
        if let Some(engine) = engine {
            assert_eq!(engine.path(), path);
            assert_eq!(engine.uses_simd(), path != CodePath::Portable);
        }
    }
}

#[test]
fn environment_forces_the_portable_path() {
    // Other tests may construct solvers meanwhile and get the portable path
    // too; both paths give the same answers, so that is harmless.
    std::env::set_var("SUDOKIT_FORCE_SCALAR", "1");
    let forced = Fast9Solver::new();
    std::env::remove_var("SUDOKIT_FORCE_SCALAR");
    assert_eq!(forced.path(), CodePath::Portable);
}

/// Puzzles that leave fewer than 50 cells open after propagation but need
/// more guesses than the quick search may take, so the solver restarts with
/// the thorough search, on every path: with the column logic in the quick
/// search (AVX-512) and without it (from the 17-clue set).
const RESTARTING: [&str; 8] = [
    ".................1..2..3.4........5......632..7..8.........2....8.7....971......8",
    ".................1..2..3.4......2.....5..43...1......6..4...2...7..1.....8..6...7",
    ".................1..2..3.4......4........562.17...........7.2....6....5..4.81....",
    ".................1..2..3.4......5....3....6..7...1...8.....625..8..9....1......3.",
    ".................1..2..3.4......5.2..6...7...81...........1.3.6....8......96..2..",
    ".................1..2..3.45.......6.....7.....5819.........8.3.7....6...9.....7..",
    ".................1..2.34........1..5..3....4..6..7........8.92..1....4..5..6.....",
    "................12.....3..4....2......3.4.5....6...37.....5.....8...67..21.......",
];

#[test]
fn restart_from_quick_to_thorough_search() {
    for l in RESTARTING {
        let p = parse_line(l);
        check(&p, 2, 1, "restart");
        for mut engine in engines() {
            // The quick search's 16 guesses count too.
            assert!(engine.solve(&p, 2, None).unwrap().guesses >= 16, "{l}");
        }
    }
}

fn parse_line(l: &str) -> [u8; 81] {
    let mut p = [0u8; 81];
    for (c, ch) in p.iter_mut().zip(l.bytes()) {
        *c = if ch.is_ascii_digit() { ch - b'0' } else { 0 };
    }
    p
}

#[test]
fn agrees_with_reference_on_random_puzzles() {
    let mut rng = StdRng::seed_from_u64(9);
    let mut reference = ReferenceSolver::new(shape());
    for i in 0..3000 {
        let grid = random_grid(&mut rng);
        // Enough clues for plain backtracking to stay quick.
        let clues = rng.gen_range(28..=60);
        let mut p = blank(&mut rng, &grid, clues);
        if i % 3 == 0 {
            // A random extra given: usually a contradiction, sometimes not.
            p[rng.gen_range(0..81)] = rng.gen_range(1..=9);
        }
        let expected = reference.solve(&p, 2, None).unwrap().solutions;
        check(&p, 2, expected, "random");
        assert_eq!(
            Status::from_count(expected),
            Fast9Solver::scalar().status(&p, None).unwrap()
        );
    }
}

#[test]
fn agrees_with_sudoku_crate_on_sparse_puzzles() {
    let mut rng = StdRng::seed_from_u64(17);
    for _ in 0..3000 {
        let grid = random_grid(&mut rng);
        let clues = rng.gen_range(17..=30);
        let p = blank(&mut rng, &grid, clues);
        check(&p, 2, oracle_count(&p, 2), "sparse");
        assert_eq!(Fast9Solver::new().solve(&p, 1, None).unwrap().solutions, 1);
    }
}

#[test]
fn exact_counts_match_reference() {
    let mut rng = StdRng::seed_from_u64(81);
    let mut reference = ReferenceSolver::new(shape());
    for _ in 0..500 {
        let grid = random_grid(&mut rng);
        let clues = rng.gen_range(38..=55);
        let p = blank(&mut rng, &grid, clues);
        let expected = reference.solve(&p, u64::MAX, None).unwrap().solutions;
        check(&p, u64::MAX, expected, "exact");
        // A limit below the count stops exactly at the limit.
        if expected > 3 {
            check(&p, 3, 3, "limit");
        }
    }
}

#[test]
fn contradictions_and_edge_cases() {
    let mut rng = StdRng::seed_from_u64(3);
    // Clashing givens in a row, a column and a box.
    for (a, b) in [(0, 8), (0, 72), (0, 20), (40, 50)] {
        let mut p = [0u8; 81];
        p[a] = 5;
        p[b] = 5;
        check(&p, 2, 0, "clash");
    }
    // A cell whose row and column together exclude all nine digits.
    let mut p = [0u8; 81];
    p[1..9].copy_from_slice(&[1, 2, 3, 4, 5, 6, 7, 8]);
    p[9 * 4] = 9;
    check(&p, 2, 0, "empty cell");
    // The empty grid and a full grid.
    check(&[0; 81], 2, 2, "empty grid");
    let grid = random_grid(&mut rng);
    check(&grid, 2, 1, "full grid");
    // A full grid with two cells swapped is invalid.
    let mut bad = grid;
    bad.swap(0, 1);
    check(&bad, 2, 0, "swapped grid");
    // A value above 9 is an error on both paths alike, not a count.
    let mut odd = [0u8; 81];
    odd[40] = 10;
    for mut engine in engines() {
        assert!(engine.solve(&odd, 2, None).is_err());
    }
    // A full grid with one blank has exactly one solution.
    let mut one = grid;
    one[rng.gen_range(0..81)] = 0;
    check(&one, u64::MAX, 1, "one blank");
}

#[test]
fn hard_sample_matches_sudoku_crate() {
    let text = include_str!("data/hard9.txt");
    let mut seen = 0;
    for l in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let mut p = [0u8; 81];
        for (c, ch) in p.iter_mut().zip(l.bytes()) {
            *c = if ch.is_ascii_digit() { ch - b'0' } else { 0 };
        }
        check(&p, 2, oracle_count(&p, 2), "hard sample");
        seen += 1;
    }
    assert!(seen >= 600);
}

#[test]
fn counts_solutions_of_multi_solution_puzzles() {
    // A grid with most of one band blanked has a handful of solutions, all
    // within reach of the reference engine's exhaustive count.
    let mut rng = StdRng::seed_from_u64(5);
    let mut reference = ReferenceSolver::new(shape());
    for _ in 0..50 {
        let grid = random_grid(&mut rng);
        let mut p = grid;
        let band = rng.gen_range(0..3);
        for c in 0..27 {
            if rng.gen_bool(0.7) {
                p[27 * band + c] = 0;
            }
        }
        let expected = reference.solve(&p, u64::MAX, None).unwrap().solutions;
        check(&p, u64::MAX, expected, "band blanks");
    }
}

/// The portable and AVX2 paths run the same search: the same count, the
/// same number of guesses and the same first solution, on sparse,
/// contradictory and multi-solution puzzles. A kernel that answered right by
/// another route (or a wrong one that happened to count right) shows up
/// here. The AVX-512 path's quick search also applies the column logic, so
/// it takes other guesses: it must give the same count and a solution of the
/// puzzle (the same one when there is only one). A unit test in the engine
/// checks that it searches exactly like the portable path told to do the
/// same.
#[test]
fn every_code_path_makes_the_same_search() {
    let mut rng = StdRng::seed_from_u64(512);
    let mut engines = engines();
    for i in 0..4000 {
        let grid = random_grid(&mut rng);
        let clues = rng.gen_range(17..=40);
        let mut p = blank(&mut rng, &grid, clues);
        if i % 4 == 0 {
            p[rng.gen_range(0..81)] = rng.gen_range(1..=9);
        }
        let puzzle = Puzzle::new(shape(), p.to_vec()).unwrap();
        let limit = [1, 2, 7][i % 3];
        let mut results = engines.iter_mut().map(|engine| {
            let mut solution = [0u8; 81];
            let outcome = engine.solve(&p, limit, Some(&mut solution)).unwrap();
            (engine.path(), outcome, solution)
        });
        let (first_path, outcome, solution) = results.next().unwrap();
        for (path, other, other_solution) in results {
            if path == CodePath::Avx512 {
                assert_eq!(outcome.solutions, other.solutions, "{path} on {}", line(&p));
                if other.solutions == 1 && limit > 1 {
                    assert_eq!(solution, other_solution, "{path} on {}", line(&p));
                } else if other.solutions > 0 {
                    let solved = Puzzle::new(shape(), other_solution.to_vec()).unwrap();
                    assert!(puzzle.is_solved_by(&solved), "{path} on {}", line(&p));
                }
                continue;
            }
            assert_eq!(outcome, other, "{path} vs {first_path} on {}", line(&p));
            assert_eq!(solution, other_solution, "{path} vs {first_path}");
        }
    }
}
