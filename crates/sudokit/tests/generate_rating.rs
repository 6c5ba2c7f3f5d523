//! Rating targets: every puzzle generated for a range is unique and, rated
//! again from scratch by `Puzzle::rate`, lies in the range; targets combine
//! with symmetry, `minimal` and clue counts, and reproduce from the seed.
//! Also the capped solver that rating while carving relies on: a capped
//! rating is exactly the full one when within the cap and stops otherwise.

use sudokit::generate::{
    generate_range, GenerateError, GenerateOptions, Generator, Level, RatingRange, Symmetry,
};
use sudokit::grid::Shape;
use sudokit::logic::{Difficulty, Solver, TechniqueSet};
use sudokit::solver::reference::ReferenceSolver;
use sudokit::solver::Solver as _;

fn nine() -> Shape {
    Shape::new(3, 3).unwrap()
}

fn options(shape: Shape, range: &str) -> GenerateOptions {
    let mut options = GenerateOptions::new(shape);
    options.rating = Some(range.parse().unwrap());
    options
}

/// Generates `count` puzzles and checks each: one solution (by the
/// reference solver), rating from scratch in range and equal to the one
/// reported.
fn check_all(options: GenerateOptions, seed: u64, count: u64) -> Vec<sudokit::generate::Generated> {
    let range: RatingRange = options.rating.unwrap();
    let made: Vec<_> = generate_range(options, seed, 0..count)
        .into_iter()
        .map(|g| g.expect("found"))
        .collect();
    for g in &made {
        let solutions = ReferenceSolver::new(options.shape)
            .solve(g.puzzle.cells(), 2, None)
            .unwrap()
            .solutions;
        assert_eq!(solutions, 1, "{}", g.puzzle);
        let rating = g.puzzle.rate().unwrap();
        assert!(
            range.contains(&rating),
            "{} rated {rating:?}, not {range}",
            g.puzzle
        );
        assert_eq!(g.rating.as_ref(), Some(&rating), "{}", g.puzzle);
    }
    made
}

#[test]
fn every_level_below_the_chains_gives_puzzles_in_range() {
    for level in [Level::Easy, Level::Medium, Level::Hard, Level::Expert] {
        let mut options = GenerateOptions::new(nine());
        options.rating = Some(level.range());
        // Each pass carves to the end, so with no symmetry puzzles are minimal.
        assert!(check_all(options, 5, 12).iter().all(|g| g.minimal));
    }
}

#[test]
fn narrow_and_open_ranges_are_met() {
    check_all(options(nine(), "2.6"), 1, 8);
    check_all(options(nine(), "4.2..4.5"), 1, 8);
    check_all(options(nine(), "6.6.."), 1, 4);
}

#[test]
fn ranges_combine_with_symmetry_minimal_and_clue_counts() {
    let mut symmetric = options(nine(), "3.0..5.0");
    symmetric.symmetry = Symmetry::Rot180;
    for g in check_all(symmetric, 2, 6) {
        let cells = g.puzzle.cells();
        assert!((0..81).all(|k| (cells[k] == 0) == (cells[80 - k] == 0)));
    }
    let mut minimal = options(nine(), "2.6..4.0");
    minimal.minimal = true;
    for g in check_all(minimal, 3, 6) {
        let mut probe = g.puzzle.cells().to_vec();
        for k in 0..81 {
            if probe[k] != 0 {
                let digit = std::mem::replace(&mut probe[k], 0);
                assert_eq!(g.puzzle.shape(), nine());
                let count = ReferenceSolver::new(nine()).solve(&probe, 2, None).unwrap();
                assert_eq!(count.solutions, 2, "{} clue {k} is redundant", g.puzzle);
                probe[k] = digit;
            }
        }
    }
    let mut clues = options(nine(), "1.0..2.5");
    clues.clues = Some(30);
    assert!(check_all(clues, 4, 6).iter().all(|g| g.clues == 30));
}

#[test]
fn other_shapes_use_the_engines_rating() {
    check_all(options(Shape::new(2, 3).unwrap(), "1.0..3.0"), 7, 6);
    check_all(options(Shape::new(2, 2).unwrap(), "..2.5"), 7, 6);
}

#[test]
fn a_range_never_met_is_reported_with_the_closest_rating() {
    let mut options = options(Shape::new(2, 2).unwrap(), "9.0..");
    options.attempts = 5;
    let err = Generator::new(options).generate(1, 0).unwrap_err();
    let GenerateError::NotFound { attempts, .. } = &err else {
        panic!("{err:?}");
    };
    assert_eq!(*attempts, 5);
    let text = err.to_string();
    assert!(
        text.starts_with("no puzzle rated 9.0.. found in 5 attempts (closest: ER "),
        "{text}"
    );
}

#[test]
fn rated_puzzles_reproduce_whatever_the_threading() {
    let options = options(nine(), "4.1..6.0");
    let parallel = generate_range(options, 9, 0..12);
    let mut one = Generator::new(options);
    let serial: Vec<_> = (0..12).map(|i| one.generate(9, i)).collect();
    assert_eq!(parallel, serial);
}

#[test]
fn a_capped_rating_is_the_full_one_within_the_cap_and_stops_above_it() {
    let full = Solver::new(TechniqueSet::Explainer);
    let mut above = 0;
    for g in generate_range(GenerateOptions::new(nine()), 11, 0..60) {
        let puzzle = g.unwrap().puzzle;
        let (steps, _) = full.steps(&puzzle).unwrap();
        for step in &steps {
            assert!(
                step.difficulty >= step.technique.least_difficulty(),
                "{puzzle}: {step} is below {}'s least difficulty",
                step.technique
            );
        }
        let rating = full.rate(&puzzle).unwrap();
        if !rating.solved {
            continue;
        }
        let same = full.clone().capped(rating.er).rate(&puzzle).unwrap();
        assert_eq!(same, rating, "{puzzle}");
        if rating.er > Difficulty::tenths(10) {
            let lower = Difficulty::tenths(rating.er.0 - 1);
            let capped = full.clone().capped(lower).rate(&puzzle).unwrap();
            assert!(!capped.solved, "{puzzle}: capped at {lower}: {capped:?}");
            assert!(capped.er <= lower);
            above += 1;
        }
    }
    assert!(above > 0);
}
