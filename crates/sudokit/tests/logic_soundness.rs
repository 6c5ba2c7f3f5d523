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

/// Sudoku Explainer's own ratings of a sample of puzzles (the benchmark's
/// data file: puzzle, ER, EP, ED per line).
fn se_sample() -> Vec<(Puzzle, String)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/data/se_sample.tsv");
    std::fs::read_to_string(path)
        .expect("the SE sample ships with the crate")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let fields: Vec<&str> = l.split('\t').collect();
            (fields[0].parse().unwrap(), fields[1..4].join("/"))
        })
        .collect()
}

/// The chaining techniques (Nishio, multiple, dynamic, dynamic plus and
/// nested forcing chains) rate as SE does, and every step they take agrees
/// with the solution: every tenth puzzle SE rates 7.5 to 9.4, and those it
/// rates 9.5 to 9.9 (the faster of the nested ones).
#[test]
fn forcing_chains_rate_as_sudoku_explainer_and_stay_sound() {
    let solver = Solver::new(TechniqueSet::Explainer);
    let hard: Vec<(Puzzle, String)> = se_sample()
        .into_iter()
        .filter(|(_, se)| {
            let er: f64 = se.split('/').next().unwrap().parse().unwrap();
            (7.5..9.45).contains(&er)
        })
        .collect();
    assert!(hard.len() > 100, "{} puzzles", hard.len());
    let nested: Vec<(Puzzle, String)> = se_sample()
        .into_iter()
        .filter(|(_, se)| {
            let er: f64 = se.split('/').next().unwrap().parse().unwrap();
            (9.45..9.95).contains(&er)
        })
        .collect();
    assert!(!nested.is_empty());
    for (puzzle, se) in hard.iter().step_by(10).chain(&nested) {
        let solution = puzzle.solve().expect("unique");
        let mut chained = false;
        let end = solver
            .walk(
                puzzle,
                &sudokit::budget::Budget::unlimited(),
                |grid, step| {
                    chained |= step.difficulty.0 >= 75;
                    check_step(grid, step, &solution, puzzle)
                },
            )
            .expect("a unique puzzle");
        assert!(end.is_solved() && chained, "{puzzle}");
        let rating = solver.rate(puzzle).unwrap();
        let ours = format!("{}/{}/{}", rating.er, rating.ep, rating.ed);
        assert_eq!(&ours, se, "{puzzle}");
    }
}
