//! Every step the logic engine takes is checked against the puzzle's
//! solution: a technique never removes the true digit nor places a wrong
//! one, on generated puzzles of several shapes, with every technique set.

use sudokit::generate::{GenerateOptions, Generator};
use sudokit::logic::{Candidates, Solver, Step, Technique, TechniqueSet};
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

/// 16×16 with the human techniques short of the multiple, dynamic and
/// nested forcing chains: those search every candidate of 256 cells, often
/// nested, and take minutes per puzzle here; the smaller shapes and the SE
/// sample check them.
#[test]
fn steps_agree_with_the_solution_on_16x16() {
    let short_of_multiple = Technique::HUMAN
        .into_iter()
        .take_while(|&t| t != Technique::MultipleForcingChain)
        .collect();
    walk_generated(
        Shape::new(4, 4).unwrap(),
        20,
        false,
        TechniqueSet::Only(short_of_multiple),
    );
}

#[test]
fn finned_fish_steps_are_taken_and_sound() {
    // Puzzles whose human solution takes finned or sashimi fish (9×9: a
    // finned swordfish and a finned X-Wing; 8×8 with 2×4 boxes: sashimi and
    // finned swordfish; 16×16: a finned jellyfish).
    let puzzles = [
        ".3......4....9....78...431..4.7....696.....7.3..........6..7.2...5.82.3..1.5.9.8.",
        ".1....592...9.6....4....7.....5......7...........936....3.4.8...2.185..71..2....5",
        "6...1......1.48...6...2..3..5...21........8....1...6..57.8.731..",
        "5CF.4..B1.7.3.D.....7.62.........8..CA..F.4..B..D.........B2..F8C.17.....GA.2.......B....2...5..3.58F..4..C..7...D4.G.17..3B8..F.EG9........1...45..13.G2..A.EC.8.....2E.F.4....7..3.....9D.G...E...264.5......DG...9.5...1..A.3A...8..C.B.F..59......F..AE.C..B",
    ];
    // The human techniques short of Nishio and the forcing chains after it:
    // the paths reach their finned fish before needing them.
    let easier = Technique::HUMAN
        .into_iter()
        .take_while(|&t| t != Technique::Nishio)
        .collect();
    let solver = Solver::new(TechniqueSet::Only(easier));
    for text in puzzles {
        let puzzle: Puzzle = text.parse().expect("a puzzle");
        let solution = puzzle.solve().expect("a solution");
        let mut finned = 0;
        solver
            .walk(
                &puzzle,
                &sudokit::budget::Budget::unlimited(),
                |grid, step| {
                    check_step(grid, step, &solution, &puzzle);
                    finned += usize::from(step.technique == Technique::FinnedFish);
                },
            )
            .expect("a unique puzzle");
        assert!(finned > 0, "{puzzle}: no finned fish taken");
    }
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
