//! The SAT engine (`solver::sat`) and the large-grid portfolio against the
//! reference and general engines: counts up to several limits, every
//! solution checked, contradictions, budgets.
#![cfg(feature = "sat")]

use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sudokit::budget::Budget;
use sudokit::generate::random_puzzle;
use sudokit::grid::{Puzzle, Shape};
use sudokit::solver::general::GeneralSolver;
use sudokit::solver::portfolio::PortfolioSolver;
use sudokit::solver::reference::ReferenceSolver;
use sudokit::solver::sat::SatSolver;
use sudokit::solver::Solver;

/// Checks `engine` against `truth` on `puzzle` for several limits.
fn agree(engine: &mut dyn Solver, truth: &mut dyn Solver, puzzle: &Puzzle) {
    let shape = puzzle.shape();
    for limit in [1, 2, 5] {
        let want = truth.solve(puzzle.cells(), limit, None).unwrap().solutions;
        let mut solution = vec![0; shape.cell_count()];
        let got = engine
            .solve(puzzle.cells(), limit, Some(&mut solution))
            .unwrap()
            .solutions;
        assert_eq!(got, want, "{shape} limit {limit}: {:?}", puzzle.cells());
        if got > 0 {
            let solved = Puzzle::new(shape, solution).unwrap();
            assert!(puzzle.is_solved_by(&solved), "{shape}: a wrong solution");
        }
    }
}

#[test]
fn sat_engine_matches_the_reference_on_small_shapes() {
    let mut rng = ChaCha8Rng::seed_from_u64(36);
    for (r, c, clues) in [
        (2, 2, 4..=9),
        (2, 3, 8..=18),
        (3, 2, 8..=18),
        (2, 4, 18..=34),
    ] {
        let shape = Shape::new(r, c).unwrap();
        let mut sat = SatSolver::new(shape);
        let mut reference = ReferenceSolver::new(shape);
        for _ in 0..150 {
            let k = rng.gen_range(clues.clone());
            let puzzle = random_puzzle(shape, k, 0.25, &mut rng);
            agree(&mut sat, &mut reference, &puzzle);
        }
    }
}

#[test]
fn sat_engine_and_portfolio_match_the_general_engine_on_larger_shapes() {
    let mut rng = ChaCha8Rng::seed_from_u64(25);
    for (r, c, clues) in [(3, 3, 22..=40), (4, 4, 80..=130), (5, 5, 330..=420)] {
        let shape = Shape::new(r, c).unwrap();
        let mut sat = SatSolver::new(shape);
        let mut general = GeneralSolver::new(shape);
        // No slice: every puzzle goes through the hand-over to the SAT engine.
        let mut handed = PortfolioSolver::with_slice(shape, Duration::ZERO);
        let mut portfolio = PortfolioSolver::new(shape);
        for _ in 0..25 {
            let k = rng.gen_range(clues.clone());
            let puzzle = random_puzzle(shape, k, 0.5, &mut rng);
            agree(&mut sat, &mut general, &puzzle);
            agree(&mut handed, &mut general, &puzzle);
            agree(&mut portfolio, &mut general, &puzzle);
        }
    }
}

#[test]
fn clashing_givens_and_the_empty_grid() {
    let shape = Shape::new(3, 3).unwrap();
    let mut sat = SatSolver::new(shape);
    let mut clash = vec![0u8; 81];
    clash[0] = 5;
    clash[8] = 5;
    assert_eq!(sat.solve(&clash, 2, None).unwrap().solutions, 0);
    // A blank cell with every digit given in its units.
    let mut empty_cell = vec![0u8; 81];
    empty_cell[1..9].copy_from_slice(&[1, 2, 3, 4, 5, 6, 7, 8]);
    empty_cell[36] = 9;
    assert_eq!(sat.solve(&empty_cell, 2, None).unwrap().solutions, 0);
    assert_eq!(sat.solve(&[0; 81], 3, None).unwrap().solutions, 3);
    // The 288 4×4 grids, counted by blocking each one found.
    let mut four = SatSolver::new(Shape::new(2, 2).unwrap());
    assert_eq!(four.solve(&[0; 16], 1000, None).unwrap().solutions, 288);
}

#[test]
fn a_spent_budget_stops_the_sat_engine_and_the_portfolio() {
    let shape = Shape::new(5, 5).unwrap();
    let spent = Budget::until(Instant::now());
    let empty = vec![0u8; shape.cell_count()];
    assert_eq!(
        SatSolver::new(shape)
            .solve_until(&empty, 2, None, &spent)
            .unwrap(),
        None
    );
    assert_eq!(
        PortfolioSolver::with_slice(shape, Duration::ZERO)
            .solve_until(&empty, 2, None, &spent)
            .unwrap(),
        None
    );
}

/// A full grid with the four cells of a two-digit rectangle blanked (two rows
/// of one band, two columns of different stacks, so the cells lie in two
/// boxes) has exactly two solutions, the second the first with the two
/// digits exchanged: what the SAT engine's exchange check finds without a
/// second SAT call. With one more cell blanked elsewhere too, the counts
/// still match the reference engine.
#[test]
fn two_digit_rectangles_give_exactly_two_solutions() {
    use sudokit::generate::random_grid;
    let shape = Shape::new(3, 3).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let mut sat = SatSolver::new(shape);
    let mut reference = ReferenceSolver::new(shape);
    let mut found = 0;
    while found < 20 {
        let grid = random_grid(shape, &mut rng);
        let g = grid.cells();
        let (r1, c1, c2) = (
            rng.gen_range(0..9),
            rng.gen_range(0..9),
            rng.gen_range(0..9),
        );
        let r2 = r1 / 3 * 3 + (r1 + 1) % 3;
        let at = |r: usize, c: usize| 9 * r + c;
        if c1 / 3 == c2 / 3 || g[at(r1, c1)] != g[at(r2, c2)] || g[at(r1, c2)] != g[at(r2, c1)] {
            continue;
        }
        let mut cells = g.to_vec();
        for cell in [at(r1, c1), at(r1, c2), at(r2, c1), at(r2, c2)] {
            cells[cell] = 0;
        }
        let puzzle = Puzzle::new(shape, cells.clone()).unwrap();
        assert_eq!(sat.solve(puzzle.cells(), 2, None).unwrap().solutions, 2);
        assert_eq!(sat.solve(puzzle.cells(), 5, None).unwrap().solutions, 2);
        agree(&mut sat, &mut reference, &puzzle);
        cells[rng.gen_range(0..81)] = 0;
        agree(
            &mut sat,
            &mut reference,
            &Puzzle::new(shape, cells).unwrap(),
        );
        found += 1;
    }
}
