//! The small-grid engine against independent facts and against the reference
//! solver, on every shape of at most 64 cells.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sudokit::generate::{random_grid, random_puzzle};
use sudokit::grid::{Puzzle, Shape};
use sudokit::solver::count::count_solutions;
use sudokit::solver::reference::ReferenceSolver;
use sudokit::solver::small::SmallSolver;
use sudokit::solver::{solver_for, Solver};

fn shape(r: usize, c: usize) -> Shape {
    Shape::new(r, c).unwrap()
}

fn small(s: Shape) -> SmallSolver {
    SmallSolver::new(s).expect("at most 64 cells")
}

/// Every shape the small engine handles.
fn small_shapes() -> Vec<Shape> {
    let mut out = Vec::new();
    for r in 1..=8 {
        for c in 1..=8 {
            if r * c <= 8 {
                out.push(shape(r, c));
            }
        }
    }
    out
}

/// Checks `solver` against `reference` on `p` for each limit: the same
/// count, and a first solution that solves `p`.
fn assert_agrees(
    solver: &mut SmallSolver,
    reference: &mut ReferenceSolver,
    p: &Puzzle,
    limits: &[u64],
) {
    let s = p.shape();
    for &limit in limits {
        let want = reference.solve(p.cells(), limit, None).unwrap().solutions;
        let mut out = vec![0; s.cell_count()];
        let got = solver.solve(p.cells(), limit, Some(&mut out)).unwrap();
        assert_eq!(got.solutions, want, "{s} limit {limit} {p:?}");
        if want > 0 {
            let solution = Puzzle::new(s, out).unwrap();
            assert!(p.is_solved_by(&solution), "{s} {p:?} {solution:?}");
        }
    }
}

#[test]
fn exactly_the_shapes_up_to_64_cells_get_the_small_engine() {
    for r in 1..=6 {
        for c in 1..=6 {
            let s = shape(r, c);
            assert_eq!(SmallSolver::new(s).is_some(), s.cell_count() <= 64, "{s}");
        }
    }
    assert_eq!(solver_for(shape(2, 3)).shape(), shape(2, 3));
}

#[test]
fn the_empty_4x4_grid_has_288_solutions() {
    let s = shape(2, 2);
    assert_eq!(
        small(s).solve(&[0; 16], u64::MAX, None).unwrap().solutions,
        288
    );
    assert_eq!(count_solutions(s, &[0; 16], u64::MAX).unwrap(), 288);
}

#[test]
fn the_empty_6x6_grid_has_28_200_960_solutions() {
    assert_eq!(
        count_solutions(shape(2, 3), &[0; 36], u64::MAX).unwrap(),
        28_200_960
    );
    assert_eq!(
        count_solutions(shape(3, 2), &[0; 36], u64::MAX).unwrap(),
        28_200_960
    );
}

#[test]
fn empty_grids_of_every_shape_match_the_reference_counts() {
    // Latin squares of order 1..=5 and small boxed grids, counted in full.
    let cases = [
        ((1, 1), 1),
        ((1, 2), 2),
        ((1, 3), 12),
        ((1, 4), 576),
        ((2, 2), 288),
        ((1, 5), 161_280),
    ];
    for ((r, c), want) in cases {
        let s = shape(r, c);
        let cells = vec![0; s.cell_count()];
        assert_eq!(
            small(s).solve(&cells, u64::MAX, None).unwrap().solutions,
            want,
            "{s}"
        );
        assert_eq!(
            small(shape(c, r))
                .solve(&cells, u64::MAX, None)
                .unwrap()
                .solutions,
            want,
            "{s}"
        );
    }
    let s = shape(1, 4);
    assert_eq!(
        ReferenceSolver::new(s)
            .solve(&[0; 16], u64::MAX, None)
            .unwrap()
            .solutions,
        576
    );
}

#[test]
fn an_empty_puzzle_with_limit_1_gives_one_valid_grid() {
    for s in small_shapes() {
        let empty = Puzzle::empty(s);
        let mut out = vec![0; s.cell_count()];
        let found = small(s).solve(empty.cells(), 1, Some(&mut out)).unwrap();
        assert_eq!(found.solutions, 1, "{s}");
        assert!(empty.is_solved_by(&Puzzle::new(s, out).unwrap()), "{s}");
    }
}

#[test]
fn counting_stops_at_the_limit() {
    let s = shape(2, 3);
    assert_eq!(small(s).solve(&[0; 36], 7, None).unwrap().solutions, 7);
    assert_eq!(
        small(shape(2, 4))
            .solve(&[0; 64], 1000, None)
            .unwrap()
            .solutions,
        1000
    );
    assert_eq!(count_solutions(s, &[0; 36], 1000).unwrap(), 1000);
}

#[test]
fn solved_grids_have_exactly_one_solution_and_no_guess() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for s in small_shapes() {
        for _ in 0..20 {
            let grid = random_grid(s, &mut rng);
            let mut out = vec![0; s.cell_count()];
            let found = small(s)
                .solve(grid.cells(), u64::MAX, Some(&mut out))
                .unwrap();
            assert_eq!(found.solutions, 1, "{s}");
            assert_eq!(found.guesses, 0, "{s}");
            assert_eq!(out, grid.cells(), "{s}");
        }
    }
}

#[test]
fn contradictory_givens_have_no_solution() {
    let s = shape(2, 3);
    let mut out = vec![9; 36];
    // Same digit twice in a row, a column, a box.
    for (a, b) in [(0, 5), (0, 30), (0, 7)] {
        let mut cells = vec![0; 36];
        cells[a] = 4;
        cells[b] = 4;
        assert_eq!(
            small(s)
                .solve(&cells, u64::MAX, Some(&mut out))
                .unwrap()
                .solutions,
            0
        );
    }
    assert_eq!(out, vec![9; 36], "no solution leaves the buffer alone");
    // Givens that do not clash but leave no completion: row 0 of a 4×4 needs
    // 3 and 4 in its last cell, whose column already holds both.
    let cells = [1, 2, 0, 0, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0];
    let mut reference = ReferenceSolver::new(shape(2, 2));
    assert_eq!(
        reference.solve(&cells, u64::MAX, None).unwrap().solutions,
        0
    );
    assert_eq!(
        small(shape(2, 2))
            .solve(&cells, u64::MAX, None)
            .unwrap()
            .solutions,
        0
    );
    // A full grid with one clue changed.
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut grid = random_grid(s, &mut rng).cells().to_vec();
    grid[17] = grid[17] % 6 + 1;
    assert_eq!(small(s).solve(&grid, u64::MAX, None).unwrap().solutions, 0);
}

/// Full counts of sparse 4×4 puzzles match the reference and the parallel
/// counter.
#[test]
fn full_counts_of_partial_4x4_grids_match_the_reference() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    for (r, c) in [(2, 2), (1, 4), (4, 1)] {
        let s = shape(r, c);
        let mut solver = small(s);
        let mut reference = ReferenceSolver::new(s);
        for _ in 0..2000 {
            let clues = rng.gen_range(0..10);
            let p = random_puzzle(s, clues, 0.2, &mut rng);
            let want = reference.solve(p.cells(), u64::MAX, None).unwrap();
            let got = solver.solve(p.cells(), u64::MAX, None).unwrap();
            assert_eq!(got.solutions, want.solutions, "{s} {p:?}");
            assert_eq!(
                count_solutions(s, p.cells(), u64::MAX).unwrap(),
                want.solutions,
                "{s} {p:?}"
            );
        }
    }
}

/// Full counts of sparse puzzles of the larger shapes match the reference
/// (these exercise counting groups of two-candidate cells without search).
#[test]
fn full_counts_of_larger_shapes_match_the_reference() {
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    for (r, c, fewest, puzzles) in [
        (2, 3, 14, 400),
        (3, 2, 14, 400),
        (1, 6, 14, 200),
        (2, 4, 36, 100),
    ] {
        let s = shape(r, c);
        let mut solver = small(s);
        let mut reference = ReferenceSolver::new(s);
        for _ in 0..puzzles {
            let clues = rng.gen_range(fewest..=fewest + 6);
            let p = random_puzzle(s, clues, 0.1, &mut rng);
            let want = reference
                .solve(p.cells(), u64::MAX, None)
                .unwrap()
                .solutions;
            assert_eq!(
                solver.solve(p.cells(), u64::MAX, None).unwrap().solutions,
                want,
                "{s} {p:?}"
            );
            for limit in [3, 5] {
                let got = solver.solve(p.cells(), limit, None).unwrap().solutions;
                assert_eq!(got, want.min(limit), "{s} limit {limit} {p:?}");
            }
        }
    }
}

/// Status, small-limit counts and solutions agree with the reference on
/// random puzzles of every shape, and every solution satisfies its puzzle.
#[test]
fn random_puzzles_of_every_shape_agree_with_the_reference() {
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    for s in small_shapes() {
        let cells = s.cell_count();
        // The reference has no propagation, so larger grids keep more clues.
        let fewest = if cells >= 49 { cells / 3 } else { cells / 8 };
        let puzzles = if cells >= 49 { 500 } else { 3000 };
        let mut solver = small(s);
        let mut reference = ReferenceSolver::new(s);
        for _ in 0..puzzles {
            let clues = rng.gen_range(fewest..=cells);
            let p = random_puzzle(s, clues, 0.25, &mut rng);
            assert_agrees(&mut solver, &mut reference, &p, &[1, 2, 3, 10]);
        }
    }
}

/// The first solution is the same as the reference's when the puzzle is
/// unique, and the solver gives the same answers when reused in any order.
#[test]
fn unique_solutions_match_and_reuse_is_stateless() {
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    for (r, c) in [(2, 3), (3, 2), (2, 4), (4, 2)] {
        let s = shape(r, c);
        let cells = s.cell_count();
        let mut solver = small(s);
        let mut reference = ReferenceSolver::new(s);
        let puzzles: Vec<Puzzle> = (0..500)
            .map(|_| random_puzzle(s, rng.gen_range(cells / 3..=cells * 2 / 3), 0.2, &mut rng))
            .collect();
        let first: Vec<u64> = puzzles
            .iter()
            .map(|p| solver.solve(p.cells(), 2, None).unwrap().solutions)
            .collect();
        for (p, &count) in puzzles.iter().zip(&first).rev() {
            let mut want = vec![0; cells];
            let mut got = vec![0; cells];
            let w = reference
                .solve(p.cells(), 2, Some(&mut want))
                .unwrap()
                .solutions;
            assert_eq!(
                solver
                    .solve(p.cells(), 2, Some(&mut got))
                    .unwrap()
                    .solutions,
                count
            );
            assert_eq!(count, w, "{s} {p:?}");
            if w == 1 {
                assert_eq!(got, want, "{s} {p:?}");
            }
        }
    }
}

/// With a hand-off budget of 0 or 1 guesses nearly every search that
/// branches is finished by the general engine: counts up to the hand-off
/// limit, statuses and solutions must still agree with the reference (and a
/// count above the limit never hands off).
#[test]
fn handed_off_searches_agree_with_the_reference() {
    let mut rng = ChaCha8Rng::seed_from_u64(5150);
    for (r, c) in [(2, 2), (2, 3), (3, 2), (1, 6), (2, 4), (4, 2), (1, 8)] {
        let s = shape(r, c);
        let cells = s.cell_count();
        let fewest = if cells >= 49 { cells / 3 } else { cells / 8 };
        let mut reference = ReferenceSolver::new(s);
        for budget in [0, 1] {
            let mut solver = SmallSolver::with_handoff_guesses(s, budget).unwrap();
            for _ in 0..300 {
                let p = random_puzzle(s, rng.gen_range(fewest..=cells), 0.25, &mut rng);
                assert_agrees(&mut solver, &mut reference, &p, &[1, 2, 3, 16, 17]);
            }
        }
    }
}

/// Sparse 8×8 puzzles (2×4 boxes) that naked singles alone search for
/// seconds: four whose clues clash only deep down (up to 45 million guesses,
/// 2.4 s, with most-constrained branching) and one the fuzzer found (1.7 s
/// when the engine branched on the first open cell, now a few guesses).
/// Each is settled within the hand-off budget plus a few thousand guesses of
/// the general engine, with the general engine's answer.
#[test]
fn sparse_8x8_puzzles_that_defeat_naked_singles_stay_fast() {
    let clashing = [
        ".1..............7...2..4....................4........27..4...8..",
        "......5...3.....7..............5.54.........8........5.......1..",
        ".....8...........7.........48....87...........3.....7..........8",
        "...17.........3.1........................1....6.....1.....2.6.7.",
    ];
    let found_by_fuzzing = "0000050000000800010200000000000000010.00000000000050400000000015";
    let s = shape(2, 4);
    for text in clashing.into_iter().chain([found_by_fuzzing]) {
        let cells: Vec<u8> = text
            .bytes()
            .map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 })
            .collect();
        let mut general = sudokit::solver::general::GeneralSolver::new(s);
        for limit in [1, 2] {
            let want = general.solve(&cells, limit, None).unwrap().solutions;
            let got = small(s).solve(&cells, limit, None).unwrap();
            assert_eq!(got.solutions, want, "{s} {text}");
            assert!(
                got.guesses < sudokit::solver::small::HANDOFF_GUESSES + 10_000,
                "{s} {text}: {} guesses",
                got.guesses
            );
            if text == found_by_fuzzing {
                // Branching on a most constrained cell needs no hand-off.
                assert!(got.guesses < 100, "{text}: {} guesses", got.guesses);
            }
        }
    }
}
