//! Every step the logic engine takes is checked against the puzzle's
//! solution: a technique never removes the true digit nor places a wrong
//! one, on generated puzzles of several shapes, with every technique set.

use sudokit::generate::{GenerateOptions, Generator};
use sudokit::logic::{Candidates, Solver, Step, TechniqueSet};
use sudokit::{Puzzle, Shape};

/// Panics with the step and the grid when `step` contradicts `solution`.
fn check_step(grid: &Candidates, step: &Step, solution: &Puzzle, puzzle: &Puzzle) {
    assert!(
        !step.placements.is_empty() || !step.eliminations.is_empty(),
        "{puzzle}: an empty step: {step}"
    );
    for p in &step.placements {
        assert_eq!(
            solution.cells()[p.cell],
            p.digit,
            "{puzzle}: wrong placement: {step}"
        );
        assert_eq!(
            grid.value(p.cell),
            0,
            "{puzzle}: placed in a filled cell: {step}"
        );
    }
    for e in &step.eliminations {
        assert_ne!(
            solution.cells()[e.cell],
            e.digit,
            "{puzzle}: removes the solution's digit: {step}"
        );
        assert!(
            grid.has(e.cell, e.digit),
            "{puzzle}: removes a candidate already gone: {step}"
        );
    }
}

/// Walks `count` generated puzzles of `shape` with `set`, checking each step;
/// returns how many the techniques solved.
fn walk_generated(shape: Shape, count: u64, minimal: bool, set: TechniqueSet) -> usize {
    let mut options = GenerateOptions::new(shape);
    options.minimal = minimal;
    let mut generator = Generator::new(options);
    let solver = Solver::new(set);
    let mut solved = 0;
    for index in 0..count {
        let made = generator.generate(2026, index).expect("generates");
        let end = solver
            .walk(
                &made.puzzle,
                &sudokit::budget::Budget::unlimited(),
                |grid, step| check_step(grid, step, &made.solution, &made.puzzle),
            )
            .expect("a unique puzzle");
        if end.is_solved() {
            assert_eq!(end.to_puzzle(), made.solution);
            solved += 1;
        }
    }
    solved
}

#[test]
fn steps_agree_with_the_solution_on_9x9() {
    let solved = walk_generated(Shape::new(3, 3).unwrap(), 400, true, TechniqueSet::Human);
    assert!(solved > 0);
    let solved = walk_generated(
        Shape::new(3, 3).unwrap(),
        200,
        true,
        TechniqueSet::Explainer,
    );
    assert!(solved > 0);
}

#[test]
fn steps_agree_with_the_solution_on_small_and_rectangular_boxes() {
    for (r, c) in [(2, 2), (2, 3), (3, 2), (2, 4)] {
        let solved = walk_generated(Shape::new(r, c).unwrap(), 300, true, TechniqueSet::Human);
        assert!(solved > 0, "{r}x{c}");
    }
}

#[test]
fn steps_agree_with_the_solution_on_16x16() {
    walk_generated(Shape::new(4, 4).unwrap(), 20, false, TechniqueSet::Human);
}
